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

/** A player's name and the engine's level it ends with (`(Elo 1200)`, `(level 5)`), or ''. */
export function splitLevel(name) {
  const m = /^(.*\S)\s+(\((?:Elo|level) [^()]*\))$/.exec(name);
  return m ? [m[1], m[2]] : [name, ''];
}

/**
 * The clocks: one row per colour. Only a running clock ticks (locally, between messages),
 * and only when its shown value changes: no timer runs while no clock does.
 *
 * A state's clocks are as of its arrival: the page is drawn again from the same state (the
 * pieces' "how it moves", a look back through the moves) without setting the running clock
 * back to that moment. And within a game no clock shown goes up but by a move (its
 * increment) or a take-back: a state that arrives without either (a draw offered, the game
 * resigned) shows no clock above where it stood.
 */
export class Clocks {
  constructor() {
    this.el = $('clocks');
    this.state = null;
    this.base = null;
    this.received = 0;
    this.running = null;
    this.timer = null;
  }

  /** `c`'s time left at `now` (ms), as shown, or null without a clock. */
  left(c, now) {
    if (!this.base || this.base[c] === undefined || this.base[c] === null) return null;
    return this.base[c] - (this.running === c ? now - this.received : 0);
  }

  show(variant, state) {
    this.el.replaceChildren();
    this.el.classList.toggle('four', variant.colours === 4);
    if (state !== this.state) {
      const now = performance.now();
      const before = this.state;
      let base = state.clocks;
      if (base && before?.clocks && before.game === state.game && before.moves.length === state.moves.length) {
        base = base.map((ms, c) => {
          const shown = this.left(c, now);
          return shown === null ? ms : Math.min(ms, shown);
        });
      }
      this.state = state;
      this.base = base;
      this.running = state.clock_running ?? null;
      this.received = now;
    }
    this.timeEls = [];
    for (let c = 0; c < variant.colours; c++) {
      const name = document.createElement('div');
      name.className = 'clock-name';
      name.append(glyph(variant, variant.pieces.findIndex((p) => p.name === 'King'), c));
      // The colour's name (a phone shows only its King) and the player's, the engine's
      // level apart ("strata 0.1.0", "(Elo 1200)"): it wraps as a whole, and on a phone
      // stands on a line of its own, so the level is read whatever the width.
      const label = document.createElement('span');
      label.className = 'clock-label';
      const colour = document.createElement('span');
      colour.className = 'clock-colour';
      colour.textContent = `${COLOURS[c].name} · `;
      const [player, level] = splitLevel(state.names[c] ?? '');
      const who = document.createElement('span');
      who.className = 'clock-player';
      who.textContent = player;
      label.append(colour, who);
      if (level) {
        const lv = document.createElement('span');
        lv.className = 'clock-level';
        lv.textContent = level;
        label.append(' ', lv);
      }
      label.title = state.names[c] ?? '';
      name.append(label);
      const time = document.createElement('div');
      time.className = 'clock-time';
      time.dataset.colour = c;
      this.el.append(name, time);
      this.timeEls.push(time);
      name.style.fontWeight = c === state.to_move && !state.result ? 'bold' : '';
    }
    this.tick();
  }

  /** Shows every clock; while one runs, comes back when its shown value next changes. */
  tick() {
    clearTimeout(this.timer);
    this.timer = null;
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
    if (this.base && this.running !== null && this.base[this.running] !== undefined) {
      const ms = this.base[this.running] - (performance.now() - this.received);
      if (ms > 0) {
        // The next change of `m:ss` (a whole second), or of the tenths under ten seconds.
        const step = ms < 10000 ? 100 : 1000;
        this.timer = setTimeout(() => this.tick(), (ms % step) + 1);
      }
    }
  }
}

/**
 * An engine's comment on a move (`+0.35/12`, `-M2/9 0.412s`: its score from its own side,
 * as PGN comments give it) with the score from the first team's side (White's), as the
 * analysis shows scores: negated for a move of the second team. Other comments are kept.
 */
export function scoreFromFirstTeam(comment, colour) {
  if (!comment || (colour & 1) === 0) return comment;
  const m = /^([+-])(M?\d+(?:\.\d+)?)(.*)$/s.exec(comment);
  if (!m) return comment;
  if (/^0(\.0+)?$/.test(m[2])) return `+${m[2]}${m[3]}`;
  return `${m[1] === '+' ? '-' : '+'}${m[2]}${m[3]}`;
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
      c.title = `The engine's score from ${COLOURS[0].name}'s side, and its depth`;
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

/** What each colour holds off the board; the side to move's droppable pieces are buttons.
 * Its other pieces in hand answer a click with `onRefused(kind)` (why none can be dropped). */
export function showHands(variant, hands, dropKinds, toMove, selectedKind, onPick, onRefused) {
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
      } else if (c === toMove) {
        g.addEventListener('click', () => onRefused(kind));
      }
      row.append(g);
    }
    el.append(row);
  });
}

/** The legend: every piece kind of the variant with its glyph and name, each a button that
 * shows how the piece moves (`onPick(kind)`). */
export function showLegend(variant, onPick) {
  const body = $('legend-body');
  body.replaceChildren();
  variant.pieces.forEach((p, k) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'legend-piece';
    b.dataset.pieceKind = String(k);
    b.title = `Show how the ${p.name} moves`;
    const name = document.createElement('span');
    name.textContent = `${p.letter} ${p.name}`;
    b.append(glyph(variant, k, 0), name);
    b.addEventListener('click', () => onPick(k));
    body.append(b);
  });
}

/**
 * The move list by keyboard: Tab reaches it (one stop), ← and ↑, → and ↓ move a cursor
 * through its moves (the game's list or the analysis tree, in the order shown), Home and End
 * to the first and the last, and Enter (or Space) shows the move under the cursor, as a
 * click does. The cursor (class `cursor`, named by `aria-activedescendant`) outlives the
 * list being drawn again: it is found again by its move's `data-node` or `data-ply`.
 */
export class MoveListKeys {
  constructor(list) {
    this.list = list;
    this.key = null;
    list.setAttribute('role', 'listbox');
    list.addEventListener('keydown', (e) => this.onKey(e));
    list.addEventListener('focus', () => {
      if (!this.find()) this.key = this.keyOf(list.querySelector('.mv.current') ?? this.items().at(-1));
      this.paint(true);
    });
    new MutationObserver(() => this.paint(false)).observe(list, { childList: true });
  }

  items() {
    return [...this.list.querySelectorAll('.mv')];
  }

  keyOf(el) {
    if (!el) return null;
    return el.dataset.node !== undefined ? `n${el.dataset.node}` : `p${el.dataset.ply}`;
  }

  find() {
    return this.key === null ? null : this.items().find((el) => this.keyOf(el) === this.key) ?? null;
  }

  /** Marks the cursor's move (and scrolls it into view when `scroll`). */
  paint(scroll) {
    const at = this.find();
    for (const el of this.items()) {
      el.setAttribute('role', 'option');
      el.id = `move-${this.keyOf(el)}`;
      el.setAttribute('aria-selected', String(el.classList.contains('current')));
      el.classList.toggle('cursor', el === at);
    }
    if (at) this.list.setAttribute('aria-activedescendant', at.id);
    else this.list.removeAttribute('aria-activedescendant');
    if (at && scroll) at.scrollIntoView({ block: 'nearest' });
  }

  onKey(e) {
    const items = this.items();
    if (!items.length) return;
    const i = Math.max(0, items.indexOf(this.find()));
    const to = {
      ArrowLeft: i - 1,
      ArrowUp: i - 1,
      ArrowRight: i + 1,
      ArrowDown: i + 1,
      Home: 0,
      End: items.length - 1,
    }[e.key];
    if (to !== undefined) {
      this.key = this.keyOf(items[Math.max(0, Math.min(items.length - 1, to))]);
      this.paint(true);
    } else if (e.key === 'Enter' || e.key === ' ') {
      (this.find() ?? items[i]).click();
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  }
}
