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

import { COLOURS, pieceSvg } from './pieces.js';

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
    el.addEventListener('pointerdown', (e) => this.pointerDown(e));
    window.addEventListener('pointermove', (e) => this.pointerMove(e));
    window.addEventListener('pointerup', (e) => this.pointerUp(e));
    window.addEventListener('resize', () => this.variant && this.build());
  }

  /** Draws the board of `variant` (as the server's hello describes it). */
  setVariant(variant) {
    this.variant = variant;
    this.build();
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    if (this.variant) this.build();
  }

  /** The width and height available to the board, in pixels. */
  room() {
    const width = Math.max(320, this.el.parentElement.clientWidth - 8);
    const top = this.el.getBoundingClientRect().top + window.scrollY;
    const height = Math.max(320, window.innerHeight - top - 48);
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
      return { rows: [v.levels.map((_, z) => z)], size: Math.max(22, Math.min(cap, Math.floor(size))) };
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
    return { rows: best.rows, size: Math.max(22, Math.floor(best.size)) };
  }

  build() {
    const v = this.variant;
    const mode = layoutMode(v);
    const { rows, size } = this.arrange(mode);
    this.el.style.setProperty('--cell', `${size}px`);
    document.documentElement.style.setProperty('--cell', `${size}px`);
    this.el.className = mode;
    this.el.replaceChildren();
    this.cellEls = new Array(v.cells.length);
    this.levelEls = [];
    this.shown = new Array(v.cells.length).fill(null);
    const byLevel = v.levels.map(() => []);
    v.cells.forEach((c, i) => byLevel[c.z].push(i));
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
      level.style.gridTemplateColumns = `1.2em repeat(${files}, var(--cell))`;
      level.style.gridTemplateRows = `auto repeat(${ranks}, var(--cell)) 1.2em`;
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
    if (mode === 'footprint') {
      for (const z of order) this.el.appendChild(this.levelEls[z]);
      this.placeOnFootprint(xOrigins, yTops);
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

  cellSizePx() {
    return parseInt(this.el.style.getPropertyValue('--cell'), 10);
  }

  /**
   * Places the level panels as their levels lie over the footprint: a column per distinct
   * first file and a row per distinct last rank (Podionic's pinwheel: A top left, B top
   * right, C bottom right, D bottom left), with a gap between panels.
   */
  placeOnFootprint(xOrigins, yTops) {
    const gap = 36;
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
  }

  /** Marks `cell` (or nothing) as selected and `targets` (cell -> {shot}) as its targets. */
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
    });
    // A level holding targets is outlined, with their number on its label, so that targets
    // on other levels than the piece's are seen at once.
    this.levelEls.forEach((level, z) => {
      const n = perLevel.get(z) ?? 0;
      level.classList.toggle('has-target', n > 0);
      const label = level.querySelector('.level-label');
      if (this.variant.levels.length > 1) {
        label.innerHTML = `Level ${this.variant.levels[z].letter}` + (n ? `<span class="count">${n}</span>` : '');
      }
    });
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
