// The 3D view: the levels stacked in a scene (three.js, vendored in /vendor/three/), drawn
// from the same `levels` and `cells` of the server's hello as the 2D board, with the same
// piece glyphs (as sprites that always face the camera). The levels are stacked in the
// variant's own order: each level's `height` comes from the rules layer (level A is the top
// in Podionic and the Future Generation, the bottom in the others), never from a table here.
// Orbit with the left button, pan with the right, zoom with the wheel; perspective or
// orthographic; the camera stays above the board and within reach of it. Under the canvas:
// the distance between the levels (a slider, offered when there are several levels) and
// "Reset view". A click on a cell (or a piece) is a press, as on the 2D board.
//
// Everything drawn is rebuilt from the hello on a variant change: the glyph textures are
// made per variant (kind numbers mean other pieces in another variant), and a position or a
// selection of the previous variant is dropped, not drawn on the new board.
//
// Test contract (docs/gui.md): the canvas `#view3d` carries `data-selected-cell`,
// `data-targets`, `data-frames`, `data-pressed-cell` (the cell the last click reached) and
// `data-spread`; `screenOf(name)` gives where a click selects a cell, `snapshot()` what the
// scene holds (pieces as drawn, each level's height, the camera); the slider is
// `#level-spread`, the button `#reset-view`.

import * as THREE from 'three';
import { OrbitControls } from '/vendor/three/OrbitControls.js';
import { pieceSvg } from './pieces.js';

/** The distance between two levels, in cells: at first, and the slider's range. */
const SPREAD = { initial: 3, min: 1.5, max: 8, step: 0.5 };
const PLATE = 0.07;
const COLOURS = {
  light: 0xe9d8b4,
  dark: 0xb08a61,
  selected: 0x5aa0e8,
  target: 0x2f9e44,
  shot: 0xd9480f,
  last: 0xd8cf4a,
  danger: 0xe03131,
  frame: 0x8a939c,
};
/**
 * The bottom level nearly opaque, the ones above translucent enough for the levels below
 * to show through them.
 */
const OPACITY = { bottom: 0.97, above: 0.5 };
/** The default view's angle above the horizon (radians) and the field of view (degrees). */
const ELEVATION = 0.58;
const FOV = 40;
/**
 * The steepest the camera may look up at the board from below its centre: not at all. The
 * camera's polar angle stops a little short of the horizon, so it never passes under the
 * board (where every level would be seen from behind and the glyphs upside down).
 */
const MAX_POLAR = Math.PI / 2 - 0.06;
/** The share of the picture's half-width and half-height the default view fills. */
const FILL = 0.94;
/** How far the camera may zoom out, as a multiple of the default view's distance. */
const FARTHEST = 2.5;

/** Whether this browser can draw WebGL at all. */
export function webglAvailable() {
  try {
    const c = document.createElement('canvas');
    return !!(c.getContext('webgl2') || c.getContext('webgl'));
  } catch {
    return false;
  }
}

export class View3D {
  /** `handlers.press(cell, timeStamp)` as for the 2D board. */
  constructor(container, handlers) {
    this.container = container;
    this.handlers = handlers;
    // The drawing buffer is kept so that a screenshot or a pixel read sees the last frame.
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.canvas = this.renderer.domElement;
    this.canvas.id = 'view3d';
    this.canvas.dataset.selectedCell = '';
    this.canvas.dataset.targets = '';
    this.canvas.dataset.pressedCell = '';
    this.canvas.setAttribute('aria-label', 'The board in 3D: drag to turn it, wheel to zoom, click a cell');
    this.canvas.screenOf = (name) => this.screenOf(name);
    this.canvas.snapshot = () => this.snapshot();
    container.append(this.canvas, this.makeControls());
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x1f2226);
    this.board = new THREE.Group();
    this.pieces = new THREE.Group();
    this.scene.add(this.board, this.pieces);
    this.raycaster = new THREE.Raycaster();
    this.textures = new Map();
    this.orthographic = false;
    this.flipped = false;
    this.spread = SPREAD.initial;
    this.canvas.dataset.spread = String(this.spread);
    this.variant = null;
    this.position = null;
    this.selected = null;
    this.targets = new Map();
    this.cellMeshes = [];
    this.frame = 0;
    this.down = null;
    this.canvas.addEventListener('pointerdown', (e) => {
      if (e.button === 0) this.down = { x: e.clientX, y: e.clientY, t: e.timeStamp };
    });
    this.canvas.addEventListener('pointerup', (e) => {
      const d = this.down;
      this.down = null;
      // A click, not the end of a turn of the view.
      if (!d || Math.hypot(e.clientX - d.x, e.clientY - d.y) > 5) return;
      const cell = this.pick(e.clientX, e.clientY);
      if (cell === null) return;
      this.canvas.dataset.pressedCell = this.variant.cells[cell].name;
      this.handlers.press(cell, d.t);
    });
    new ResizeObserver(() => this.resize()).observe(container);
  }

  /** The controls under the canvas: the distance between the levels and "Reset view". */
  makeControls() {
    const bar = document.createElement('div');
    bar.className = 'view3d-controls';
    // Laid out here rather than in style.css, so that the 3D view is one file; the page's
    // style sheet still applies to the label and button themselves.
    Object.assign(bar.style, { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.4em 1em', marginTop: '0.4em' });
    const label = document.createElement('label');
    Object.assign(label.style, { display: 'flex', alignItems: 'center', gap: '0.5em', color: 'var(--muted)', fontSize: '0.9em' });
    label.append('Level spacing');
    const slider = document.createElement('input');
    slider.type = 'range';
    slider.id = 'level-spread';
    slider.min = String(SPREAD.min);
    slider.max = String(SPREAD.max);
    slider.step = String(SPREAD.step);
    slider.value = String(SPREAD.initial);
    slider.title = 'The distance between the levels: spread them to see and click the lower ones';
    slider.addEventListener('input', () => this.setSpread(Number(slider.value)));
    label.append(slider);
    const reset = document.createElement('button');
    reset.type = 'button';
    reset.id = 'reset-view';
    reset.textContent = 'Reset view';
    reset.title = 'Back to the view from the front, the whole board in sight';
    reset.addEventListener('click', () => this.resetView());
    bar.append(label, reset);
    this.slider = slider;
    this.spreadBox = label;
    return bar;
  }

  /**
   * Builds the levels of `variant`, anew: the old board, glyph textures, position and
   * selection belong to the previous variant (whose cell and kind numbers mean other cells
   * and pieces) and are dropped; the page sends the new position next.
   */
  setVariant(variant) {
    this.variant = variant;
    this.position = null;
    this.last = null;
    this.danger = new Set();
    this.selected = null;
    this.targets = new Map();
    this.clear(this.pieces);
    this.clear(this.board);
    for (const t of this.textures.values()) t.dispose();
    this.textures.clear();
    // Each level's height in the stack, as the rules layer gives it.
    this.heights = variant.levels.map((l, z) => l.height ?? z);
    // A board of one level has no spacing to set.
    this.spreadBox.hidden = variant.levels.length < 2;
    const cells = variant.cells;
    const xs = cells.map((c) => c.x);
    const ys = cells.map((c) => c.y);
    this.centre = { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
    const geometry = new THREE.BoxGeometry(0.96, PLATE, 0.96);
    this.baseColour = [];
    this.cellMeshes = [];
    cells.forEach((c, i) => {
      const height = this.heights[c.z];
      const solid = height === 0;
      const opacity = solid ? OPACITY.bottom : OPACITY.above;
      const base = (c.x + c.y + c.z) % 2 === 0 ? COLOURS.dark : COLOURS.light;
      this.baseColour.push(base);
      const m = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ color: base, transparent: true, opacity, depthWrite: solid }));
      m.userData = { cell: i, solid, at: { x: c.x, y: c.y, level: c.z, lift: 0 } };
      // Upper levels drawn after the lower ones, so that they tint what lies below.
      m.renderOrder = height;
      this.board.add(m);
      this.cellMeshes.push(m);
    });
    // Each level's outline, and its letter left of every level (at its own front edge), so
    // that no letter lies over a level drawn below or beside it (Podionic's spiral).
    const left = Math.min(...variant.levels.map((l) => l.files[0]));
    variant.levels.forEach((l, z) => {
      const w = l.files[1] - l.files[0] + 1;
      const d = l.ranks[1] - l.ranks[0] + 1;
      const box = new THREE.BoxGeometry(w, PLATE, d);
      const frame = new THREE.LineSegments(new THREE.EdgesGeometry(box), new THREE.LineBasicMaterial({ color: COLOURS.frame }));
      box.dispose();
      frame.userData = { level: z, at: { x: (l.files[0] + l.files[1]) / 2, y: (l.ranks[0] + l.ranks[1]) / 2, level: z, lift: 0 } };
      this.board.add(frame);
      if (variant.levels.length > 1) {
        const label = this.textSprite(l.letter);
        label.userData = { at: { x: left - 1.1, y: l.ranks[0] - 0.6, level: z, lift: 0.2 } };
        label.scale.set(0.8, 0.8, 1);
        this.board.add(label);
      }
    });
    this.layout();
    this.makeCamera(false);
    this.paint();
  }

  /** Removes and frees everything in `group`. */
  clear(group) {
    for (const o of group.children) {
      o.geometry?.dispose();
      // Glyph textures are shared and freed with the map; a level letter's is its own.
      if (o.material?.map && !o.material.map.userData.piece) o.material.map.dispose();
      o.material?.dispose();
    }
    group.clear();
  }

  /** The scene's y of level `z`'s plane: the stack's middle is at 0. */
  levelY(z) {
    return (this.heights[z] - (this.variant.levels.length - 1) / 2) * this.spread;
  }

  /** The scene position of a point at file `x`, rank `y` of level `level`, `lift` above it. */
  at({ x, y, level, lift }) {
    return new THREE.Vector3(x - this.centre.x, this.levelY(level) + lift, this.centre.y - y);
  }

  /** The scene position of cell `i`'s plate. */
  place(i) {
    const c = this.variant.cells[i];
    return this.at({ x: c.x, y: c.y, level: c.z, lift: 0 });
  }

  /** Puts everything drawn where the spread puts it. */
  layout() {
    for (const o of [...this.board.children, ...this.pieces.children]) {
      if (o.userData.at) o.position.copy(this.at(o.userData.at));
    }
  }

  /** The radius of a sphere around the whole board, at the centre of the scene. */
  radius() {
    const l = this.variant.levels;
    const w = Math.max(...l.map((v) => v.files[1] + 1)) - Math.min(...l.map((v) => v.files[0]));
    const d = Math.max(...l.map((v) => v.ranks[1] + 1)) - Math.min(...l.map((v) => v.ranks[0]));
    const h = (l.length - 1) * this.spread + 1;
    return Math.hypot(w, d, h) / 2;
  }

  /** What the view must show: each level's corners, and a piece's height above them. */
  corners() {
    const points = [];
    this.variant.levels.forEach((l, z) => {
      for (const x of [l.files[0] - 0.5, l.files[1] + 0.5]) {
        for (const y of [l.ranks[0] - 0.5, l.ranks[1] + 0.5]) {
          for (const lift of [0, 1]) points.push(this.at({ x, y, level: z, lift }));
        }
      }
    });
    return points;
  }

  /** The default view's direction from the centre: from the front of the person's side. */
  defaultDirection() {
    const side = this.flipped ? -1 : 1;
    return new THREE.Vector3(0, Math.sin(ELEVATION), side * Math.cos(ELEVATION));
  }

  /**
   * How far the default view stands from the centre: the nearest distance at which the
   * whole board is in the picture. Found by halving, with the board's corners projected: a
   * sphere around a tall, narrow stack (levels spread apart) would leave most of the picture
   * empty.
   */
  viewDistance() {
    const camera = new THREE.PerspectiveCamera(FOV, this.aspect(), 0.1, 1e5);
    const dir = this.defaultDirection();
    const points = this.corners();
    const fits = (d) => {
      camera.position.copy(dir).multiplyScalar(d);
      camera.lookAt(0, 0, 0);
      camera.updateMatrixWorld();
      return points.every((p) => {
        const v = p.clone().project(camera);
        return Math.abs(v.x) <= FILL && Math.abs(v.y) <= FILL;
      });
    };
    // From outside the board's sphere (every point in front of the camera) outwards.
    let near = this.radius();
    let far = near * 20;
    for (let i = 0; i < 40; i++) {
      const mid = (near + far) / 2;
      if (fits(mid)) far = mid;
      else near = mid;
    }
    return far;
  }

  /** The orthographic view's half-height that shows the whole board from the default view. */
  viewHalfHeight() {
    const camera = new THREE.OrthographicCamera();
    camera.position.copy(this.defaultDirection()).multiplyScalar(100);
    camera.lookAt(0, 0, 0);
    camera.updateMatrixWorld();
    const aspect = this.aspect();
    let h = 1;
    for (const p of this.corners()) {
      const v = p.applyMatrix4(camera.matrixWorldInverse);
      h = Math.max(h, Math.abs(v.y), Math.abs(v.x) / aspect);
    }
    return h / FILL;
  }

  /**
   * A new camera and its controls: at the default view, or (`keep`) where the old camera
   * stood, as when switching perspective on and off.
   */
  makeCamera(keep) {
    const old = keep && this.camera ? { position: this.camera.position.clone(), target: this.controls.target.clone() } : null;
    const aspect = this.aspect();
    if (this.orthographic) {
      this.camera = new THREE.OrthographicCamera(-aspect, aspect, 1, -1, 0.1, 1000);
    } else {
      this.camera = new THREE.PerspectiveCamera(FOV, aspect, 0.1, 1000);
    }
    this.controls?.dispose();
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.maxPolarAngle = MAX_POLAR;
    // A pan moves along the board's plane, not up or down: the point the camera turns
    // around stays at the stack's middle height, so with the polar limit the camera stays
    // above the middle of the board whatever the person does.
    this.controls.screenSpacePanning = false;
    this.controls.addEventListener('change', () => this.render());
    // Whether the person has turned, moved or zoomed the view since its default: until then
    // a change of the canvas's shape frames the board anew.
    let from = null;
    this.controls.addEventListener('start', () => (from = { p: this.camera.position.clone(), zoom: this.camera.zoom }));
    this.controls.addEventListener('end', () => {
      if (from && (from.p.distanceTo(this.camera.position) > 1e-9 || from.zoom !== this.camera.zoom)) this.turned = true;
    });
    this.fitLimits();
    if (old) {
      this.camera.position.copy(old.position);
      this.controls.target.copy(old.target);
      this.controls.update();
      this.render();
    } else {
      this.resetView();
    }
  }

  /** The camera's frustum and the controls' limits for the board as it is now spread. */
  fitLimits() {
    const r = this.radius();
    const far = this.viewDistance() * FARTHEST;
    this.camera.far = far + r * 2;
    if (this.orthographic) {
      const aspect = this.aspect();
      const h = this.viewHalfHeight();
      Object.assign(this.camera, { left: -h * aspect, right: h * aspect, top: h, bottom: -h });
      this.controls.minZoom = 0.4;
      this.controls.maxZoom = 8;
    }
    this.controls.minDistance = 1.5;
    this.controls.maxDistance = far;
    // A pan takes the centre of the turn no further than the board's edge.
    this.controls.maxTargetRadius = r;
    this.camera.updateProjectionMatrix();
  }

  /** Back to the default view: from the front of the side the person plays, all in sight. */
  resetView() {
    if (!this.camera) return;
    this.turned = false;
    this.controls.target.set(0, 0, 0);
    this.camera.position.copy(this.defaultDirection()).multiplyScalar(this.viewDistance());
    this.camera.zoom = 1;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.render();
  }

  /**
   * The distance between two levels, in cells. The camera keeps its direction and moves
   * out or in with the board's size, so that the board stays as framed as it was.
   */
  setSpread(spread) {
    if (spread === this.spread) return;
    const before = this.variant ? this.viewDistance() : 0;
    this.spread = spread;
    this.canvas.dataset.spread = String(spread);
    if (this.slider && Number(this.slider.value) !== spread) this.slider.value = String(spread);
    if (!this.variant) return;
    this.layout();
    const offset = this.camera.position.clone().sub(this.controls.target);
    this.fitLimits();
    this.camera.position.copy(this.controls.target).add(offset.multiplyScalar(this.viewDistance() / before));
    this.controls.update();
    this.render();
  }

  aspect() {
    const w = this.container.clientWidth || 800;
    return w / this.height(w);
  }

  height(width) {
    // Room under the canvas for its controls.
    return Math.max(320, Math.min(window.innerHeight - 180, width * 0.8));
  }

  resize() {
    const w = this.container.clientWidth;
    if (!w) return;
    const h = this.height(w);
    this.renderer.setSize(w, h);
    if (this.camera) {
      // The orthographic frustum is set for the new shape with the limits.
      if (!this.orthographic) this.camera.aspect = w / h;
      this.fitLimits();
      // The page lays the canvas out after the view is made (the 2D board is hidden next):
      // a view nobody has turned yet is framed for the canvas's final shape.
      if (!this.turned) this.resetView();
    }
    this.render();
  }

  setOrthographic(on) {
    this.orthographic = on;
    if (this.variant) this.makeCamera(true);
  }

  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    if (this.camera) {
      // The same view from the other side: turned half-way round the board's vertical axis.
      const p = this.camera.position;
      const t = this.controls.target;
      p.set(-p.x, p.y, -p.z);
      t.set(-t.x, t.y, -t.z);
      this.controls.update();
      this.render();
    }
  }

  /**
   * A sprite texture of a piece glyph (the 2D board's SVG), made once per piece of this
   * variant (the map is emptied on a variant change). It records which piece it draws.
   */
  glyphTexture(kind, colour) {
    const key = `${colour}:${kind}`;
    let t = this.textures.get(key);
    if (t) return t;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 128;
    t = new THREE.CanvasTexture(canvas);
    t.colorSpace = THREE.SRGBColorSpace;
    const piece = this.variant.pieces[kind] ?? { name: '?', letter: '?' };
    t.userData = { canvas, piece: piece.name, colour };
    const img = new Image();
    img.onload = () => {
      canvas.getContext('2d', { willReadFrequently: true }).drawImage(img, 0, 0, 128, 128);
      t.needsUpdate = true;
      this.render();
    };
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(pieceSvg(piece, colour).replace('<svg ', '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" '))}`;
    this.textures.set(key, t);
    return t;
  }

  textSprite(text) {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 64;
    const g = canvas.getContext('2d');
    g.fillStyle = '#c8ccd0';
    g.font = 'bold 44px sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(text, 32, 34);
    const t = new THREE.CanvasTexture(canvas);
    return new THREE.Sprite(new THREE.SpriteMaterial({ map: t, depthWrite: false }));
  }

  /** Shows a position (as the 2D board's `setPosition`). */
  setPosition(position) {
    this.position = position;
    if (!this.variant) return;
    this.clear(this.pieces);
    const cells = this.variant.cells.length;
    for (const [cell, colour, kind] of position.pieces) {
      // A position of another variant (a message still on its way) is not drawn here.
      if (cell >= cells) continue;
      const s = new THREE.Sprite(new THREE.SpriteMaterial({ map: this.glyphTexture(kind, colour), transparent: true }));
      const c = this.variant.cells[cell];
      s.userData = { cell, at: { x: c.x, y: c.y, level: c.z, lift: 0.5 } };
      s.position.copy(this.at(s.userData.at));
      s.scale.set(0.95, 0.95, 1);
      // Drawn after every plate: a glyph shows through the translucent levels above it.
      s.renderOrder = 100;
      this.pieces.add(s);
    }
    this.last = position.last;
    this.danger = new Set(position.danger ?? []);
    this.paint();
  }

  /** Marks `cell` (or nothing) selected and `targets` (cell -> {shot}) as its targets. */
  setSelection(cell, targets) {
    this.selected = cell;
    this.targets = targets ?? new Map();
    this.paint();
  }

  paint() {
    if (!this.variant) return;
    const last = this.last;
    this.cellMeshes.forEach((m, i) => {
      let colour = this.baseColour[i];
      if (last && (i === last.from || i === last.to)) colour = COLOURS.last;
      if (this.danger?.has(i)) colour = COLOURS.danger;
      const t = this.targets.get(i);
      if (t) colour = t.shot ? COLOURS.shot : COLOURS.target;
      if (i === this.selected) colour = COLOURS.selected;
      m.material.color.setHex(colour);
    });
    const names = this.variant.cells;
    this.canvas.dataset.selectedCell = names[this.selected]?.name ?? '';
    this.canvas.dataset.targets = [...this.targets.keys()]
      .filter((i) => names[i])
      .map((i) => names[i].name)
      .sort()
      .join(' ');
    this.render();
  }

  /**
   * The cell under the screen point (x, y), or null: what the picture shows there. A glyph
   * is drawn over every translucent level, so the nearest piece hit where its glyph is drawn
   * (between its shapes a click reaches what lies behind) wins unless the bottom level,
   * which hides what is under it, is nearer; else the nearest plate.
   */
  pick(x, y) {
    if (!this.camera) return null;
    const r = this.canvas.getBoundingClientRect();
    const p = new THREE.Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(p, this.camera);
    const plates = this.raycaster.intersectObjects(this.cellMeshes, false);
    const solid = plates.find((h) => h.object.userData.solid);
    const glyph = this.raycaster
      .intersectObjects(this.pieces.children, false)
      .find((h) => (!solid || h.distance < solid.distance) && this.opaqueAt(h.object, h.uv));
    const hit = glyph ?? plates[0];
    return hit ? hit.object.userData.cell : null;
  }

  /** Whether the glyph of `sprite` is drawn at texture point `uv`. */
  opaqueAt(sprite, uv) {
    const canvas = sprite.material.map?.userData.canvas;
    if (!canvas || !uv) return true;
    const px = Math.min(127, Math.max(0, Math.floor(uv.x * 128)));
    const py = Math.min(127, Math.max(0, Math.floor((1 - uv.y) * 128)));
    return canvas.getContext('2d', { willReadFrequently: true }).getImageData(px, py, 1, 1).data[3] > 40;
  }

  /**
   * A point of the screen (whole client pixels) where a click selects cell `name`, as a person
   * would click it: its piece, else a visible part of its plate; null when the view hides
   * it (another level or piece in front) or it is out of the picture.
   */
  screenOf(name) {
    const i = this.variant?.cells.findIndex((c) => c.name === name) ?? -1;
    if (i < 0 || !this.camera) return null;
    this.camera.updateMatrixWorld();
    const r = this.canvas.getBoundingClientRect();
    const centre = this.place(i);
    const points = [];
    const piece = this.pieces.children.find((s) => s.userData.cell === i);
    if (piece) points.push(piece.position.clone());
    const steps = [0, -0.3, 0.3, -0.15, 0.15, -0.42, 0.42];
    for (const dx of steps) {
      for (const dz of steps) points.push(centre.clone().add(new THREE.Vector3(dx, PLATE / 2, dz)));
    }
    for (const p of points) {
      const v = p.project(this.camera);
      // Whole pixels, as a pointer's events report them (WebDriver truncates a point it is
      // given): a fraction of a pixel off the edge of a glyph is another cell.
      const at = {
        x: Math.floor(r.left + ((v.x + 1) / 2) * r.width),
        y: Math.floor(r.top + ((1 - v.y) / 2) * r.height),
      };
      // Inside the canvas, and inside the window (where a click can land).
      const inside = at.x > r.left + 1 && at.x < r.right - 1 && at.y > r.top + 1 && at.y < r.bottom - 1 &&
        at.x < window.innerWidth - 1 && at.y < window.innerHeight - 1 && at.x > 0 && at.y > 0;
      if (inside && this.pick(at.x, at.y) === i) return at;
    }
    return null;
  }

  /**
   * What the scene holds, for tests and for anyone checking the view against the server:
   * the pieces as drawn (cell name, colour, the name of the piece its glyph shows), each
   * level's plane height in the scene (by letter), the camera, the point it turns around,
   * its distance from that point and the farthest it may go, and the board's lowest plane.
   */
  snapshot() {
    const v = this.variant;
    if (!v) return null;
    const levels = {};
    v.levels.forEach((l, z) => (levels[l.letter] = this.levelY(z)));
    const xyz = (p) => ({ x: p.x, y: p.y, z: p.z });
    return {
      variant: v.name,
      spread: this.spread,
      pieces: this.pieces.children.map((s) => {
        const t = s.material.map.userData;
        return [v.cells[s.userData.cell].name, t.colour, t.piece];
      }),
      levels,
      bottom: Math.min(...Object.values(levels)),
      camera: xyz(this.camera.position),
      target: xyz(this.controls.target),
      distance: this.camera.position.distanceTo(this.controls.target),
      maxDistance: this.controls.maxDistance,
      zoom: this.camera.zoom,
      orthographic: this.orthographic,
    };
  }

  /** Draws the next frame (once, however many changes came before it). */
  render() {
    if (this.frame || !this.camera) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderer.render(this.scene, this.camera);
      this.canvas.dataset.frames = String(Number(this.canvas.dataset.frames ?? 0) + 1);
    });
  }
}
