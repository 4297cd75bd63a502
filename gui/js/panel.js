// The side panel: clocks, what is held in hand, the move list, the engine's thinking, the
// result. The move list's moves carry `data-ply` (from 1) and `data-move` (protocol
// notation); the result is in the element with `data-result`.

import { COLOURS, pieceSvg } from './pieces.js';

const $ = (id) => document.getElementById(id);

/** `m:ss`, with tenths under ten seconds. */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${(t / 1000).toFixed(1)}`;
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function glyph(variant, kind, colour) {
  const span = document.createElement('span');
  span.className = 'glyph';
  span.innerHTML = pieceSvg(variant.pieces[kind] ?? { name: '?', letter: '?' }, colour);
  return span;
}

/** The clocks: one row per colour, the running one ticking locally between messages. */
export class Clocks {
  constructor() {
    this.el = $('clocks');
    this.base = null;
    this.received = 0;
    this.running = null;
    setInterval(() => this.tick(), 100);
  }

  show(variant, state) {
    this.el.replaceChildren();
    this.base = state.clocks;
    this.running = state.clock_running;
    this.received = performance.now();
    this.timeEls = [];
    for (let c = 0; c < variant.colours; c++) {
      const name = document.createElement('div');
      name.className = 'clock-name';
      name.append(glyph(variant, variant.pieces.findIndex((p) => p.name === 'King'), c));
      name.append(`${COLOURS[c].name} · ${state.names[c] ?? ''}`);
      const time = document.createElement('div');
      time.className = 'clock-time';
      time.dataset.colour = c;
      this.el.append(name, time);
      this.timeEls.push(time);
      name.style.fontWeight = c === state.to_move && !state.result ? 'bold' : '';
    }
    this.tick();
  }

  tick() {
    if (!this.timeEls) return;
    this.timeEls.forEach((el, c) => {
      if (!this.base) {
        el.textContent = '–';
        el.classList.remove('running', 'low');
        return;
      }
      let ms = this.base[c];
      if (this.running === c) ms -= performance.now() - this.received;
      el.textContent = formatClock(ms);
      el.classList.toggle('running', this.running === c);
      el.classList.toggle('low', ms < 10000);
    });
  }
}

/** The move list, grouped by move number, one column per colour. */
export function showMoves(variant, moves, current, onPick) {
  const list = $('moves');
  list.classList.toggle('four', variant.colours === 4);
  list.replaceChildren();
  let number = null;
  let col = 0;
  for (const m of moves) {
    if (m.number !== number || m.colour < col) {
      number = m.number;
      const n = document.createElement('li');
      n.className = 'num';
      n.textContent = `${m.number}.`;
      n.setAttribute('aria-hidden', 'true');
      list.append(n);
      col = 0;
    }
    while (col < m.colour) {
      const pad = document.createElement('li');
      pad.className = 'pad';
      pad.textContent = '…';
      pad.setAttribute('aria-hidden', 'true');
      list.append(pad);
      col++;
    }
    const li = document.createElement('li');
    li.className = 'mv';
    li.dataset.ply = m.ply;
    li.dataset.move = m.move;
    li.textContent = m.san || m.move;
    li.title = `${COLOURS[m.colour].name}'s move ${m.number}: ${m.san || m.move} (${m.move})`;
    if (m.comment) {
      const c = document.createElement('span');
      c.className = 'comment';
      c.textContent = m.comment;
      li.append(c);
    }
    if (m.ply === current) li.classList.add('current');
    li.addEventListener('click', () => onPick(m.ply));
    list.append(li);
    col = m.colour + 1;
  }
  const cur = list.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  else list.scrollTop = list.scrollHeight;
}

/** What each colour holds off the board; the side to move's droppable pieces are buttons. */
export function showHands(variant, hands, dropKinds, toMove, selectedKind, onPick) {
  const el = $('hands');
  el.replaceChildren();
  hands.forEach((hand, c) => {
    if (!hand.length) return;
    const row = document.createElement('div');
    row.className = 'hand';
    row.append(`${COLOURS[c].name} holds:`);
    for (const [kind, count] of hand) {
      const g = glyph(variant, kind, c);
      g.title = `${COLOURS[c].name} ${variant.pieces[kind].name} ×${count}`;
      g.dataset.hand = `${c}:${kind}`;
      if (count > 1) {
        const n = document.createElement('span');
        n.className = 'count';
        n.textContent = `×${count}`;
        g.append(n);
      }
      if (c === toMove && dropKinds.has(kind)) {
        g.classList.add('droppable');
        g.title += ': click, then a square, to drop it';
        g.addEventListener('click', () => onPick(kind));
        if (selectedKind === kind) g.classList.add('selected');
      }
      row.append(g);
    }
    el.append(row);
  });
}

/** The legend: every piece kind of the variant with its glyph and name. */
export function showLegend(variant) {
  const body = $('legend-body');
  body.replaceChildren();
  variant.pieces.forEach((p, k) => {
    const name = document.createElement('span');
    name.textContent = `${p.letter} ${p.name}`;
    body.append(glyph(variant, k, 0), name);
  });
}
