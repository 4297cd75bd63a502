// The 3D view: the levels stacked in a scene (three.js, vendored in /vendor/three/), drawn
// from the same `levels` and `cells` of the server's hello as the 2D board, with the same
// piece glyphs (as sprites that always face the camera). Orbit with the left button, pan
// with the right, zoom with the wheel; perspective or orthographic. A click on a cell (or a
// piece) is a press, as on the 2D board. The canvas carries `data-selected-cell` (the
// selected cell's name, empty when none) and `data-targets` (the highlighted targets'
// names, space-separated), and `screenOf(name)` gives where a cell is on the screen.

import * as THREE from 'three';
import { OrbitControls } from '/vendor/three/OrbitControls.js';
import { pieceSvg } from './pieces.js';

/** Height between two levels, in cells. */
const GAP = 3;
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
/** The bottom level is nearly opaque, the ones above translucent. */
const OPACITY = [0.97, 0.6];

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
    this.canvas.setAttribute('aria-label', 'The board in 3D: drag to turn it, wheel to zoom, click a cell');
    this.canvas.screenOf = (name) => this.screenOf(name);
    container.append(this.canvas);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x1f2226);
    this.board = new THREE.Group();
    this.pieces = new THREE.Group();
    this.scene.add(this.board, this.pieces);
    this.raycaster = new THREE.Raycaster();
    this.textures = new Map();
    this.orthographic = false;
    this.flipped = false;
    this.variant = null;
    this.position = null;
    this.selected = null;
    this.targets = new Map();
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
      if (cell !== null) this.handlers.press(cell, d.t);
    });
    new ResizeObserver(() => this.resize()).observe(container);
  }

  /** Builds the levels of `variant`. */
  setVariant(variant) {
    this.variant = variant;
    this.board.clear();
    this.cellMeshes = [];
    const cells = variant.cells;
    const xs = cells.map((c) => c.x);
    const ys = cells.map((c) => c.y);
    this.centre = {
      x: (Math.min(...xs) + Math.max(...xs)) / 2,
      y: (Math.min(...ys) + Math.max(...ys)) / 2,
      z: ((variant.levels.length - 1) * GAP) / 2,
    };
    const geometry = new THREE.BoxGeometry(0.96, PLATE, 0.96);
    this.baseColour = [];
    cells.forEach((c, i) => {
      const opacity = c.z === 0 ? OPACITY[0] : OPACITY[1];
      const base = (c.x + c.y + c.z) % 2 === 0 ? COLOURS.dark : COLOURS.light;
      this.baseColour.push(base);
      const m = new THREE.Mesh(
        geometry,
        new THREE.MeshBasicMaterial({ color: base, transparent: opacity < 1, opacity, depthWrite: c.z === 0 }),
      );
      m.position.copy(this.place(i));
      m.userData.cell = i;
      // Upper levels drawn after the lower ones, so that they tint what lies below.
      m.renderOrder = c.z;
      this.board.add(m);
      this.cellMeshes.push(m);
    });
    // Each level's outline, and its letter at its corner.
    variant.levels.forEach((l, z) => {
      const w = l.files[1] - l.files[0] + 1;
      const d = l.ranks[1] - l.ranks[0] + 1;
      const box = new THREE.BoxGeometry(w, PLATE, d);
      const frame = new THREE.LineSegments(new THREE.EdgesGeometry(box), new THREE.LineBasicMaterial({ color: COLOURS.frame }));
      frame.position.set((l.files[0] + l.files[1]) / 2 - this.centre.x, z * GAP, this.centre.y - (l.ranks[0] + l.ranks[1]) / 2);
      this.board.add(frame);
      if (variant.levels.length > 1) {
        const label = this.textSprite(l.letter);
        label.position.set(l.files[0] - this.centre.x - 1.1, z * GAP + 0.2, this.centre.y - l.ranks[0] + 0.6);
        label.scale.set(0.8, 0.8, 1);
        this.board.add(label);
      }
    });
    this.makeCamera();
    if (this.position) this.setPosition(this.position);
    this.paint();
  }

  /** The scene position of cell `i`'s plate. */
  place(i) {
    const c = this.variant.cells[i];
    return new THREE.Vector3(c.x - this.centre.x, c.z * GAP, this.centre.y - c.y);
  }

  /** How far the camera stands: the board's largest extent. */
  extent() {
    const l = this.variant.levels;
    const w = Math.max(...l.map((v) => v.files[1] + 1)) - Math.min(...l.map((v) => v.files[0]));
    const d = Math.max(...l.map((v) => v.ranks[1] + 1)) - Math.min(...l.map((v) => v.ranks[0]));
    return Math.max(w, d, (l.length - 1) * GAP + 1);
  }

  makeCamera() {
    const old = this.camera;
    const aspect = this.aspect();
    const r = this.extent();
    if (this.orthographic) {
      const h = r * 0.6;
      this.camera = new THREE.OrthographicCamera(-h * aspect, h * aspect, h, -h, 0.1, r * 20);
    } else {
      this.camera = new THREE.PerspectiveCamera(40, aspect, 0.1, r * 20);
    }
    const side = this.flipped ? -1 : 1;
    if (old && this.controls && old.position.length() > 0) {
      this.camera.position.copy(old.position);
    } else {
      this.camera.position.set(0, this.centre.z + r * 1.0, side * r * 1.55);
    }
    this.controls?.dispose();
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.target.set(0, this.centre.z, 0);
    this.controls.addEventListener('change', () => this.render());
    this.controls.update();
    this.render();
  }

  aspect() {
    const w = this.container.clientWidth || 800;
    return w / this.height(w);
  }

  height(width) {
    return Math.max(320, Math.min(window.innerHeight - 140, width * 0.8));
  }

  resize() {
    const w = this.container.clientWidth;
    if (!w) return;
    const h = this.height(w);
    this.renderer.setSize(w, h);
    if (this.camera) {
      if (this.orthographic) {
        const half = this.camera.top;
        this.camera.left = -half * (w / h);
        this.camera.right = half * (w / h);
      } else {
        this.camera.aspect = w / h;
      }
      this.camera.updateProjectionMatrix();
    }
    this.render();
  }

  setOrthographic(on) {
    this.orthographic = on;
    if (this.variant) this.makeCamera();
  }

  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    if (this.camera) {
      // The same view from the other side.
      const p = this.camera.position;
      p.set(-p.x, p.y, -p.z);
      this.controls.update();
      this.render();
    }
  }

  /** A sprite texture of a piece glyph (the 2D board's SVG), made once per piece. */
  glyphTexture(kind, colour) {
    const key = `${colour}:${kind}`;
    let t = this.textures.get(key);
    if (t) return t;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 128;
    t = new THREE.CanvasTexture(canvas);
    t.colorSpace = THREE.SRGBColorSpace;
    t.userData.canvas = canvas;
    const img = new Image();
    img.onload = () => {
      canvas.getContext('2d', { willReadFrequently: true }).drawImage(img, 0, 0, 128, 128);
      t.needsUpdate = true;
      this.render();
    };
    const piece = this.variant.pieces[kind] ?? { name: '?', letter: '?' };
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
    this.pieces.clear();
    for (const [cell, colour, kind] of position.pieces) {
      const s = new THREE.Sprite(new THREE.SpriteMaterial({ map: this.glyphTexture(kind, colour), transparent: true }));
      s.position.copy(this.place(cell));
      s.position.y += 0.5;
      s.scale.set(0.95, 0.95, 1);
      s.userData.cell = cell;
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
    this.canvas.dataset.selectedCell = this.selected === null ? '' : names[this.selected].name;
    this.canvas.dataset.targets = [...this.targets.keys()].map((i) => names[i].name).sort().join(' ');
    this.render();
  }

  /**
   * The cell under the screen point (x, y), or null: the nearest piece or plate hit, where
   * a piece counts only where its glyph is drawn (a click between its shapes reaches what
   * lies behind).
   */
  pick(x, y) {
    const r = this.canvas.getBoundingClientRect();
    const p = new THREE.Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(p, this.camera);
    const hits = this.raycaster.intersectObjects([...this.pieces.children, ...this.cellMeshes], false);
    const hit = hits.find((h) => !h.object.isSprite || this.opaqueAt(h.object, h.uv));
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
   * A point of the screen (client pixels) where a click selects cell `name`, as a person
   * would click it: its piece, else a visible part of its plate; null when the view hides
   * it (another level or piece in front).
   */
  screenOf(name) {
    const i = this.variant?.cells.findIndex((c) => c.name === name) ?? -1;
    if (i < 0) return null;
    const r = this.canvas.getBoundingClientRect();
    const centre = this.place(i);
    const points = [];
    const piece = this.pieces.children.find((s) => s.userData.cell === i);
    if (piece) points.push(piece.position.clone());
    const steps = [0, -0.3, 0.3, -0.15, 0.15];
    for (const dx of steps) {
      for (const dz of steps) points.push(centre.clone().add(new THREE.Vector3(dx, PLATE / 2, dz)));
    }
    for (const p of points) {
      const v = p.project(this.camera);
      const at = { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
      if (this.pick(at.x, at.y) === i) return at;
    }
    return null;
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
