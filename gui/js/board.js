// The 2D board, drawn from the variant's geometry as the server describes it (levels with the
// files and ranks each covers, cells with their coordinates). No variant is drawn by code of
// its own:
// - levels whose footprints are centred on one another (chess, Polyhedron, Pentaplane, the
//   four-colour game) stand side by side, each cropped to its own cells and centred, so a
//   cell stands level with the cells above and below it;
// - levels that lie over different parts of a footprint (Podionic) are spread out at their
//   places in it, with gaps between them, and a square that several levels share is marked.
// Every cell is an element with `data-cell` (its name); the targets of the selected piece
// carry `data-target`, and nothing else does.
//
// On a narrow screen (a phone, a tablet upright) the same levels are laid out with smaller
// margins ('compact'): all of them at once where they fit the width and the height with cells
// a finger can tap (MIN_CELL); else one level at a time ('single'), with a switcher above it
// that shows each level in miniature with the number of targets it holds.

import { COLOURS, pieceSvg } from './pieces.js';

/** The smallest cell, in CSS pixels, that a finger taps reliably (lichess's are about 45). */
export const MIN_CELL = 28;
/** Below this width (CSS pixels) of the board's room, the compact layouts are used. */
const NARROW = 640;
/** The compact layouts' measures in pixels, as style.css sets them for `#board.compact`:
 * coordinates, a level's label, gaps between levels, the level switcher's height. */
const COMPACT = { coord: 13, label: 20, gap: 12, tabs: 86 };

const BURST = '<svg class="burst" viewBox="0 0 100 100" aria-hidden="true"><path d="M50 2 L60 34 L94 20 L70 48 L98 64 L63 64 L70 98 L50 72 L30 98 L37 64 L2 64 L30 48 L6 20 L40 34 Z" fill="#ff8a1c" stroke="#9a2d00" stroke-width="3" opacity="0.85"/></svg>';

/** How the levels of a variant are laid out: 'row' (centred on one another) or 'footprint'. */
export function layoutMode(variant) {
  const lv = variant.levels;
  if (lv.length < 2) return 'row';
  const area = (l) => (l.files[1] - l.files[0] + 1) * (l.ranks[1] - l.ranks[0] + 1);
  const fx = [Math.min(...lv.map((l) => l.files[0])), Math.max(...lv.map((l) => l.files[1]))];
  const fy = [Math.min(...lv.map((l) => l.ranks[0])), Math.max(...lv.map((l) => l.ranks[1]))];
  const union = (fx[1] - fx[0] + 1) * (fy[1] - fy[0] + 1);
  const centre = (l) => [(l.files[0] + l.files[1]) / 2, (l.ranks[0] + l.ranks[1]) / 2];
  const c0 = centre(lv[0]);
  const concentric = lv.every((l) => {
    const c = centre(l);
    return c[0] === c0[0] && c[1] === c0[1];
  });
  return !concentric && union > 1.5 * Math.max(...lv.map(area)) ? 'footprint' : 'row';
}

export class Board {
  /**
   * @param {HTMLElement} el the container
   * @param {object} handlers `press(cell, since) -> bool` (true: a drag may start from it;
   *   `since`: the press event's time stamp),
   *   `release(from, to)` (a drag ended on another cell)
   */
  constructor(el, handlers) {
    this.el = el;
    this.handlers = handlers;
    this.variant = null;
    this.flipped = false;
    this.cellEls = [];
    this.levelEls = [];
    this.shown = [];
    this.drag = null;
    this.position = null;
    this.selected = null;
    this.targets = new Map();
    this.single = false; // one level at a time
    this.shownLevel = null; // the level shown when one is shown at a time
    this.tabEls = [];
    this.thumbFrame = null;
    this.tap = null; // a finger down on an empty square, not yet lifted
    el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    window.addEventListener('pointermove', (e) => this.pointerMove(e));
    window.addEventListener('pointerup', (e) => this.pointerUp(e));
    window.addEventListener('pointercancel', () => (this.tap = null));
    window.addEventListener('resize', () => this.variant && this.build());
  }

  /** Draws the board of `variant` (as the server's hello describes it). */
  setVariant(variant) {
    this.variant = variant;
    this.shownLevel = null;
    this.build();
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    if (this.variant) this.build();
  }

  /** The width and height available to the board, in pixels. */
  room() {
    // Beside the board: the evaluation bar of an analysis board, and the gap before it.
    const bar = document.getElementById('evalbar');
    const aside = bar && !bar.hidden ? bar.offsetWidth + 10 : 0;
    const width = Math.max(200, this.el.parentElement.clientWidth - aside - 8);
    const top = this.el.getBoundingClientRect().top + window.scrollY;
    const height = Math.max(320, window.innerHeight - top - (width < NARROW ? 12 : 48));
    return [width, height];
  }

  /**
   * The rows of levels (for 'row' mode: consecutive levels, left to right) and the cell
   * size: the arrangement in one to three rows that gives the largest cells that fit.
   */
  arrange(mode) {
    const v = this.variant;
    const [width, height] = this.room();
    const cap = v.levels.length === 1 ? 72 : 60;
    const w = v.levels.map((l) => l.files[1] - l.files[0] + 1.5);
    const h = v.levels.map((l) => l.ranks[1] - l.ranks[0] + 2);
    if (mode === 'footprint') {
      const widest = new Map();
      const tallest = new Map();
      v.levels.forEach((l, z) => {
        widest.set(l.files[0], Math.max(widest.get(l.files[0]) ?? 0, w[z]));
        tallest.set(l.ranks[1], Math.max(tallest.get(l.ranks[1]) ?? 0, h[z]));
      });
      const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
      const size = Math.min((width - (widest.size - 1) * 36) / sum(widest), (height - (tallest.size - 1) * 36) / sum(tallest));
      return { rows: [v.levels.map((_, z) => z)], size: Math.min(cap, Math.floor(size)) };
    }
    const n = v.levels.length;
    let best = null;
    const splits = (start, rowsLeft) => {
      if (rowsLeft === 1) return [[[...Array(n - start).keys()].map((i) => i + start)]];
      const out = [];
      for (let end = start + 1; end <= n - rowsLeft + 1; end++) {
        const first = [...Array(end - start).keys()].map((i) => i + start);
        for (const rest of splits(end, rowsLeft - 1)) out.push([first, ...rest]);
      }
      return out;
    };
    for (let r = 1; r <= Math.min(n, 3); r++) {
      for (const rows of splits(0, r)) {
        const sw = Math.min(...rows.map((row) => (width - (row.length - 1) * 22) / row.reduce((a, z) => a + w[z], 0)));
        const rh = rows.reduce((a, row) => a + Math.max(...row.map((z) => h[z])), 0);
        const size = Math.min(cap, sw, (height - (r - 1) * 20) / rh);
        // Equal sizes: the more even rows.
        const spread = Math.max(...rows.map((row) => row.reduce((a, z) => a + w[z], 0)));
        if (!best || size > best.size + 0.5 || (size > best.size - 0.5 && spread < best.spread)) {
          best = { rows, size, spread };
        }
      }
    }
    return { rows: best.rows, size: Math.floor(best.size) };
  }

  /**
   * The compact layout of every level at once (narrow screens): 'footprint' as above, or
   * rows of consecutive levels (one level a row at most), with the compact margins; the
   * largest cells that fit the width and the height, or null when they would be smaller
   * than MIN_CELL.
   */
  arrangeCompact(mode) {
    const v = this.variant;
    const [width, height] = this.room();
    const { coord, label, gap } = COMPACT;
    const cap = v.levels.length === 1 ? 72 : 60;
    const files = v.levels.map((l) => l.files[1] - l.files[0] + 1);
    const ranks = v.levels.map((l) => l.ranks[1] - l.ranks[0] + 1);
    // The cell sizes that fit levels of `across` cells side by side in the width, and rows
    // of levels of `down` cells one under another in the height.
    const sum = (a) => a.reduce((x, y) => x + y, 0);
    const wide = (across) => (width - across.length * coord - (across.length - 1) * gap) / sum(across);
    const high = (down) => (height - down.length * (coord + label) - (down.length - 1) * gap) / sum(down);
    let best = null;
    if (mode === 'footprint') {
      const widest = new Map();
      const tallest = new Map();
      v.levels.forEach((l, z) => {
        widest.set(l.files[0], Math.max(widest.get(l.files[0]) ?? 0, files[z]));
        tallest.set(l.ranks[1], Math.max(tallest.get(l.ranks[1]) ?? 0, ranks[z]));
      });
      const size = Math.min(cap, wide([...widest.values()]), high([...tallest.values()]));
      best = { rows: [v.levels.map((_, z) => z)], size };
    } else {
      const n = v.levels.length;
      for (let mask = 0; mask < 1 << (n - 1); mask++) {
        // Bit z - 1 set: a new row starts at level z.
        const rows = [[0]];
        for (let z = 1; z < n; z++) {
          if (mask & (1 << (z - 1))) rows.push([z]);
          else rows[rows.length - 1].push(z);
        }
        const size = Math.min(
          cap,
          ...rows.map((row) => wide(row.map((z) => files[z]))),
          high(rows.map((row) => Math.max(...row.map((z) => ranks[z])))),
        );
        // Equal sizes: fewer rows, then the fuller rows first (A B / C D / E, not A / B C / D E).
        const lengths = rows.map((row) => row.length);
        const better = !best || size > best.size + 0.5 || (size > best.size - 0.5 &&
          (rows.length < best.rows.length || (rows.length === best.rows.length && lengths.join() > best.rows.map((r) => r.length).join())));
        if (better) best = { rows, size };
      }
    }
    return best.size >= MIN_CELL ? { rows: best.rows, size: Math.floor(best.size) } : null;
  }

  /** The cell size when one level is shown at a time: its widest and tallest level fit. */
  arrangeSingle() {
    const v = this.variant;
    const [width, height] = this.room();
    const { coord, label, tabs } = COMPACT;
    const files = Math.max(...v.levels.map((l) => l.files[1] - l.files[0] + 1));
    const ranks = Math.max(...v.levels.map((l) => l.ranks[1] - l.ranks[0] + 1));
    const w = (width - coord) / files;
    const h = (height - tabs - coord - label) / ranks;
    return Math.floor(Math.min(60, w, Math.max(MIN_CELL, h)));
  }

  build() {
    const v = this.variant;
    let mode = layoutMode(v);
    // A wide screen: the levels as they always were (with a mouse, small cells are fine). A
    // narrow one, or a touch screen where the cells would be too small for a finger: every
    // level with smaller margins if they fit, else one level at a time.
    let { rows, size } = this.arrange(mode);
    const touch = window.matchMedia('(pointer: coarse)').matches;
    const compact = this.room()[0] < NARROW || (touch && size < MIN_CELL);
    let single = false;
    if (compact) {
      const c = this.arrangeCompact(mode);
      if (c) ({ rows, size } = c);
      else {
        single = true;
        size = this.arrangeSingle();
      }
    }
    size = Math.max(22, size);
    if (single) mode = 'single';
    this.single = single;
    this.el.style.setProperty('--cell', `${size}px`);
    document.documentElement.style.setProperty('--cell', `${size}px`);
    this.el.className = compact ? `${mode} compact` : mode;
    this.el.replaceChildren();
    this.tabEls = [];
    this.cellEls = new Array(v.cells.length);
    this.levelEls = [];
    this.shown = new Array(v.cells.length).fill(null);
    const byLevel = v.levels.map(() => []);
    v.cells.forEach((c, i) => byLevel[c.z].push(i));
    this.cellsOfLevel = byLevel;
    // Squares that more than one level has (Podionic's shared squares).
    const stacks = new Map();
    v.cells.forEach((c, i) => {
      const k = `${c.x},${c.y}`;
      stacks.set(k, (stacks.get(k) ?? []).concat(i));
    });
    const xOrigins = [...new Set(v.levels.map((l) => l.files[0]))].sort((a, b) => a - b);
    const yTops = [...new Set(v.levels.map((l) => l.ranks[1]))].sort((a, b) => b - a);
    const order = v.levels.map((_, z) => z);
    v.levels.forEach((l, z) => {
      const level = document.createElement('div');
      level.className = 'level';
      level.dataset.level = l.letter;
      const files = l.files[1] - l.files[0] + 1;
      const ranks = l.ranks[1] - l.ranks[0] + 1;
      level.style.gridTemplateColumns = `var(--coord) repeat(${files}, var(--cell))`;
      level.style.gridTemplateRows = `auto repeat(${ranks}, var(--cell)) var(--coord)`;
      const label = document.createElement('div');
      label.className = 'level-label';
      label.textContent = v.levels.length > 1 ? `Level ${l.letter}` : '';
      level.appendChild(label);
      const col = (x) => (this.flipped ? l.files[1] - x : x - l.files[0]) + 2;
      const row = (y) => (this.flipped ? y - l.ranks[0] : l.ranks[1] - y) + 2;
      for (let y = l.ranks[0]; y <= l.ranks[1]; y++) {
        const r = document.createElement('div');
        r.className = 'coord';
        r.textContent = y + 1;
        r.style.gridColumn = 1;
        r.style.gridRow = row(y);
        level.appendChild(r);
      }
      for (let x = l.files[0]; x <= l.files[1]; x++) {
        const f = document.createElement('div');
        f.className = 'coord';
        f.textContent = String.fromCharCode(97 + x);
        f.style.gridColumn = col(x);
        f.style.gridRow = ranks + 2;
        level.appendChild(f);
      }
      for (const i of byLevel[z]) {
        const c = v.cells[i];
        const cell = document.createElement('div');
        cell.className = `cell ${(c.x + c.y + c.z) % 2 === 0 ? 'dark' : 'light'}`;
        cell.dataset.cell = c.name;
        cell.dataset.index = i;
        cell.setAttribute('aria-label', c.name);
        cell.style.gridColumn = col(c.x);
        cell.style.gridRow = row(c.y);
        const stack = stacks.get(`${c.x},${c.y}`);
        if (mode === 'footprint' && stack.length > 1) {
          cell.classList.add('shared');
          cell.title = `${c.name}: shared with ${stack.filter((j) => j !== i).map((j) => v.cells[j].name).join(', ')}`;
        }
        const piece = document.createElement('div');
        piece.className = 'piece';
        cell.appendChild(piece);
        level.appendChild(cell);
        this.cellEls[i] = cell;
      }
      this.levelEls[z] = level;
    });
    if (mode === 'single') {
      this.buildSwitcher();
      const stage = document.createElement('div');
      stage.className = 'level-stage';
      for (const z of order) stage.appendChild(this.levelEls[z]);
      this.el.appendChild(stage);
      if (this.shownLevel === null || this.shownLevel >= v.levels.length) this.shownLevel = this.largestLevel();
      this.showLevel(this.shownLevel);
    } else if (mode === 'footprint') {
      for (const z of order) this.el.appendChild(this.levelEls[z]);
      this.placeOnFootprint(xOrigins, yTops, compact ? COMPACT.gap : 36);
    } else {
      for (const row of this.flipped ? [...rows].reverse() : rows) {
        const r = document.createElement('div');
        r.className = 'level-row';
        for (const z of this.flipped ? [...row].reverse() : row) r.appendChild(this.levelEls[z]);
        this.el.appendChild(r);
      }
    }
    if (mode !== 'footprint') {
      this.el.style.width = '';
      this.el.style.height = '';
    }
    if (this.position) this.setPosition(this.position);
    this.paintSelection();
  }

  /** The level with the most cells (the lowest of equals). */
  largestLevel() {
    const count = this.variant.levels.map(() => 0);
    for (const c of this.variant.cells) count[c.z]++;
    return count.indexOf(Math.max(...count));
  }

  /**
   * The level switcher (one level at a time): a button per level, in the levels' order, each
   * with the level in miniature (its pieces, the last move, the targets), its letter and the
   * number of targets it holds. `data-level-tab` holds the level's letter.
   */
  buildSwitcher() {
    const v = this.variant;
    const bar = document.createElement('div');
    bar.className = 'level-tabs';
    bar.setAttribute('role', 'tablist');
    bar.setAttribute('aria-label', 'Levels');
    const [width] = this.room();
    const most = Math.max(...v.levels.map((l) => Math.max(l.files[1] - l.files[0], l.ranks[1] - l.ranks[0]) + 1));
    // Every miniature at the same scale, so that the levels' sizes compare.
    const tabWidth = (width - (v.levels.length - 1) * 4) / v.levels.length;
    this.thumbCell = Math.max(3, Math.min(7, Math.floor((tabWidth - 10) / most)));
    v.levels.forEach((l, z) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'level-tab';
      b.dataset.levelTab = l.letter;
      b.setAttribute('role', 'tab');
      const canvas = document.createElement('canvas');
      canvas.className = 'thumb';
      const name = document.createElement('span');
      name.className = 'tab-name';
      name.textContent = l.letter;
      const count = document.createElement('span');
      count.className = 'count';
      b.append(canvas, name, count);
      b.addEventListener('click', () => this.showLevel(z));
      bar.appendChild(b);
      this.tabEls[z] = b;
    });
    this.el.appendChild(bar);
  }

  /** Shows level `z` alone (one level at a time). */
  showLevel(z) {
    this.shownLevel = z;
    if (!this.single) return;
    this.levelEls.forEach((el, i) => (el.hidden = i !== z));
    this.tabEls.forEach((b, i) => {
      b.setAttribute('aria-selected', String(i === z));
      b.classList.toggle('shown', i === z);
    });
  }

  /**
   * One level at a time: if the level shown holds no piece of `colour`, shows the level that
   * holds the most of them (in the four-colour game, where White's and Gold's armies start
   * on different levels, the mover's pieces are then in view when its turn comes).
   */
  showLevelOf(colour) {
    if (!this.single || !this.position) return;
    const count = this.variant.levels.map(() => 0);
    for (const [cell, c] of this.position.pieces) if (c === colour) count[this.variant.cells[cell].z]++;
    if (count[this.shownLevel] > 0 || Math.max(...count) === 0) return;
    this.showLevel(count.indexOf(Math.max(...count)));
  }

  /** Draws the switcher's miniatures before the next frame (once, however often asked). */
  drawThumbs() {
    if (!this.single || !this.tabEls.length || this.thumbFrame) return;
    this.thumbFrame = requestAnimationFrame(() => {
      this.thumbFrame = null;
      this.drawThumbsNow();
    });
  }

  /** Draws the switcher's miniatures: squares, pieces as dots, the last move, the targets. */
  drawThumbsNow() {
    if (!this.single || !this.tabEls.length) return;
    const v = this.variant;
    const k = this.thumbCell;
    const dpr = window.devicePixelRatio || 1;
    const at = new Map((this.position?.pieces ?? []).map(([cell, colour]) => [cell, colour]));
    const last = this.position?.last;
    const danger = new Set(this.position?.danger ?? []);
    const css = getComputedStyle(this.el);
    const square = [css.getPropertyValue('--dark'), css.getPropertyValue('--light')];
    v.levels.forEach((l, z) => {
      const files = l.files[1] - l.files[0] + 1;
      const ranks = l.ranks[1] - l.ranks[0] + 1;
      const canvas = this.tabEls[z].querySelector('canvas');
      if (canvas.width !== files * k * dpr) {
        canvas.width = files * k * dpr;
        canvas.height = ranks * k * dpr;
        canvas.style.width = `${files * k}px`;
        canvas.style.height = `${ranks * k}px`;
      }
      const ctx = canvas.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      for (const i of this.cellsOfLevel[z]) {
        const c = v.cells[i];
        const x = (this.flipped ? l.files[1] - c.x : c.x - l.files[0]) * k;
        const y = (this.flipped ? c.y - l.ranks[0] : l.ranks[1] - c.y) * k;
        ctx.fillStyle = square[(c.x + c.y + c.z) % 2];
        ctx.fillRect(x, y, k, k);
        if (last && (i === last.from || i === last.to)) {
          ctx.fillStyle = 'rgba(222, 214, 80, 0.8)';
          ctx.fillRect(x, y, k, k);
        }
        if (i === this.selected) {
          ctx.fillStyle = 'rgba(90, 160, 232, 0.9)';
          ctx.fillRect(x, y, k, k);
        }
        if (at.has(i)) {
          const colour = COLOURS[at.get(i)] ?? COLOURS[0];
          ctx.beginPath();
          ctx.arc(x + k / 2, y + k / 2, Math.max(1.2, k * 0.36), 0, 2 * Math.PI);
          ctx.fillStyle = danger.has(i) ? '#e62828' : colour.fill;
          ctx.fill();
          ctx.lineWidth = 1;
          ctx.strokeStyle = colour.stroke;
          ctx.stroke();
        }
        if (this.targets.has(i)) {
          ctx.strokeStyle = this.targets.get(i).shot ? '#c0392b' : '#1e6e28';
          ctx.lineWidth = Math.max(1, k / 4);
          ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, k - ctx.lineWidth, k - ctx.lineWidth);
        }
      }
    });
  }

  cellSizePx() {
    return parseInt(this.el.style.getPropertyValue('--cell'), 10);
  }

  /**
   * Places the level panels as their levels lie over the footprint: a column per distinct
   * first file and a row per distinct last rank (Podionic's pinwheel: A top left, B top
   * right, C bottom right, D bottom left), with a gap between panels.
   */
  placeOnFootprint(xOrigins, yTops, gap) {
    const v = this.variant;
    const colOf = (z) => {
      const i = xOrigins.indexOf(v.levels[z].files[0]);
      return this.flipped ? xOrigins.length - 1 - i : i;
    };
    const rowOf = (z) => {
      const i = yTops.indexOf(v.levels[z].ranks[1]);
      return this.flipped ? yTops.length - 1 - i : i;
    };
    const widths = new Array(xOrigins.length).fill(0);
    const heights = new Array(yTops.length).fill(0);
    this.levelEls.forEach((el, z) => {
      widths[colOf(z)] = Math.max(widths[colOf(z)], el.offsetWidth);
      heights[rowOf(z)] = Math.max(heights[rowOf(z)], el.offsetHeight);
    });
    const at = (sizes, i) => sizes.slice(0, i).reduce((a, b) => a + b + gap, 0);
    this.levelEls.forEach((el, z) => {
      el.style.left = `${at(widths, colOf(z))}px`;
      el.style.top = `${at(heights, rowOf(z))}px`;
    });
    this.el.style.width = `${at(widths, widths.length)}px`;
    this.el.style.height = `${at(heights, heights.length)}px`;
  }

  /**
   * Shows a position: `pieces` as [cell, colour, kind], the last move {from, to, removed},
   * and the cells of Kings in danger.
   */
  setPosition(position) {
    this.position = position;
    if (!this.variant) return;
    const at = new Array(this.variant.cells.length).fill(null);
    for (const [cell, colour, kind] of position.pieces) at[cell] = `${colour}:${kind}`;
    const last = position.last;
    const removed = new Set(last ? last.removed : []);
    const danger = new Set(position.danger ?? []);
    this.cellEls.forEach((el, i) => {
      if (this.shown[i] !== at[i]) {
        this.shown[i] = at[i];
        const p = el.firstChild;
        const name = this.variant.cells[i].name;
        if (at[i] === null) {
          p.innerHTML = '';
          el.setAttribute('aria-label', name);
        } else {
          const [colour, kind] = at[i].split(':').map(Number);
          const piece = this.variant.pieces[kind] ?? { name: '?', letter: '?' };
          p.innerHTML = pieceSvg(piece, colour);
          el.setAttribute('aria-label', `${name}, ${COLOURS[colour]?.name ?? '?'} ${piece.name}`);
        }
      }
      el.classList.toggle('occupied', at[i] !== null);
      el.classList.toggle('last', !!last && (i === last.from || i === last.to));
      el.classList.toggle('danger', danger.has(i));
      // A burst where the move removed a piece and nothing stands now (a shot's target, an
      // explosion); not where the mover took the place of what it captured.
      const burst = el.querySelector('.burst');
      const blown = removed.has(i) && at[i] === null;
      if (blown && !burst) el.insertAdjacentHTML('beforeend', BURST);
      if (!blown && burst) burst.remove();
      el.classList.toggle('removed', removed.has(i));
    });
    // The switcher marks the levels of the last move and of a King in danger.
    this.tabEls.forEach((b, z) => {
      const on = (cells) => cells.some((i) => this.variant.cells[i]?.z === z);
      b.classList.toggle('last', !!last && on([last.from, last.to]));
      b.classList.toggle('danger', on([...danger]));
    });
    this.drawThumbs();
  }

  /** Marks `cell` (or nothing) as selected and `targets` (cell -> {shot, capture}) as its
   * targets (`capture`: a cell the piece reaches only by capturing, in "how it moves"). */
  setSelection(cell, targets) {
    this.selected = cell;
    this.targets = targets ?? new Map();
    this.paintSelection();
  }

  paintSelection() {
    const perLevel = new Map();
    this.cellEls.forEach((el, i) => {
      el.classList.toggle('selected', i === this.selected);
      const t = this.targets.get(i);
      if (t) {
        el.dataset.target = '';
        const z = this.variant.cells[i].z;
        perLevel.set(z, (perLevel.get(z) ?? 0) + 1);
      } else if ('target' in el.dataset) {
        delete el.dataset.target;
      }
      el.classList.toggle('shot', !!t && t.shot);
      el.classList.toggle('capture', !!t && !!t.capture);
    });
    // A level holding targets is outlined, with their number on its label, so that targets
    // on other levels than the piece's are seen at once.
    this.levelEls.forEach((level, z) => {
      const n = perLevel.get(z) ?? 0;
      level.classList.toggle('has-target', n > 0 && this.variant.levels.length > 1);
      const label = level.querySelector('.level-label');
      if (this.variant.levels.length > 1) {
        label.innerHTML = `Level ${this.variant.levels[z].letter}` + (n ? `<span class="count">${n}</span>` : '');
      }
      const tab = this.tabEls[z];
      if (tab) {
        tab.classList.toggle('has-target', n > 0);
        tab.querySelector('.count').textContent = n ? String(n) : '';
        const letter = this.variant.levels[z].letter;
        tab.setAttribute('aria-label', `Level ${letter}${n ? `, ${n} target${n > 1 ? 's' : ''}` : ''}`);
      }
    });
    this.drawThumbs();
  }

  cellAt(x, y) {
    const el = document.elementFromPoint(x, y)?.closest('.cell');
    return el && this.el.contains(el) ? Number(el.dataset.index) : null;
  }

  pointerDown(e) {
    if (e.button !== 0) return;
    const el = e.target.closest('.cell');
    if (!el) return;
    const cell = Number(el.dataset.index);
    if (e.pointerType === 'touch' && !el.classList.contains('occupied')) {
      // A finger on an empty square may be scrolling the page: it counts as a tap once it
      // is lifted there (a scroll cancels it).
      this.tap = { cell, id: e.pointerId, since: e.timeStamp };
      return;
    }
    const draggable = this.handlers.press(cell, e.timeStamp);
    if (draggable) {
      this.drag = { from: cell, x: e.clientX, y: e.clientY, ghost: null };
    }
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.ghost && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 6) {
      d.ghost = document.createElement('div');
      d.ghost.className = 'drag-ghost';
      d.ghost.innerHTML = this.cellEls[d.from].firstChild.innerHTML;
      document.body.appendChild(d.ghost);
      this.cellEls[d.from].firstChild.style.opacity = '0.3';
    }
    if (d.ghost) {
      d.ghost.style.left = `${e.clientX}px`;
      d.ghost.style.top = `${e.clientY}px`;
    }
  }

  pointerUp(e) {
    const t = this.tap;
    this.tap = null;
    if (t && t.id === e.pointerId && e.type === 'pointerup' && this.cellAt(e.clientX, e.clientY) === t.cell) {
      this.handlers.press(t.cell, t.since);
    }
    const d = this.drag;
    this.drag = null;
    if (!d || !d.ghost) return;
    d.ghost.remove();
    this.cellEls[d.from].firstChild.style.opacity = '';
    const to = this.cellAt(e.clientX, e.clientY);
    if (to !== null && to !== d.from) this.handlers.release(d.from, to);
  }

  /** Briefly marks `cell` (a refused move's target). */
  flash(cell) {
    const el = this.cellEls[cell];
    if (!el) return;
    el.classList.remove('flash');
    void el.offsetWidth;
    el.classList.add('flash');
  }
}
