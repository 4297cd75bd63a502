// How a piece moves: one piece of the variant alone on the board (with the Kings the rules
// need, standing aside), its targets lit on every level as the board lights a selected
// piece's legal moves. The page computes nothing: the server answers `piece_moves` from the
// rules layer's own move generation (`piece_targets`: the cells it moves to, those it only
// captures on, those it shoots at). A click (or tap) on another cell puts the piece there
// and asks again. The game waits behind the view and comes back when it is closed.

import { COLOURS } from './pieces.js';

const $ = (id) => document.getElementById(id);

/** The cell a piece is first shown on: the middle of the largest level (the middle level
 * of equals), the lowest-numbered of equally central cells. */
export function middleCell(variant) {
  const count = variant.levels.map(() => 0);
  for (const c of variant.cells) count[c.z]++;
  const most = Math.max(...count);
  const mid = (variant.levels.length - 1) / 2;
  let z = 0;
  count.forEach((n, i) => {
    if (n === most && (count[z] !== most || Math.abs(i - mid) < Math.abs(z - mid))) z = i;
  });
  const l = variant.levels[z];
  const cx = (l.files[0] + l.files[1]) / 2;
  const cy = (l.ranks[0] + l.ranks[1]) / 2;
  let best = -1;
  let bestD = Infinity;
  variant.cells.forEach((c, i) => {
    if (c.z !== z) return;
    const d = Math.abs(c.x - cx) + Math.abs(c.y - cy);
    if (d < bestD) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

export class PieceView {
  /**
   * `send(msg)` talks to the server; `show(position, cell, targets, fresh)` draws a position
   * on the board with `cell` selected and `targets` (cell -> {shot, capture}) lit (`fresh`:
   * a new answer, whose level is to be shown); `closed()` gives the board back to the game.
   */
  constructor(send, show, closed) {
    this.send = send;
    this.show = show;
    this.closed = closed;
    this.active = false;
    this.variant = null;
    this.asked = null; // the request waiting for its answer
    this.shown = null; // the last answer
    $('pv-close').addEventListener('click', () => this.close());
    $('pv-colour').addEventListener('change', () => this.ask(this.kind, Number($('pv-colour').value), this.cell));
    $('pv-kind').addEventListener('change', () => this.ask(Number($('pv-kind').value), this.colour, this.cell));
  }

  /** Opens the view on `variant`'s piece `kind` of `colour`, on the middle of the board. */
  open(variant, kind, colour) {
    this.active = true;
    this.variant = variant;
    this.shown = null;
    $('pv-colour').replaceChildren(...COLOURS.slice(0, variant.colours).map((c, i) => new Option(c.name, String(i))));
    $('pv-kind').replaceChildren(...variant.pieces.map((p, k) => new Option(p.name, String(k))));
    $('piece-view').hidden = false;
    document.body.classList.add('piece-view');
    this.ask(kind, colour, middleCell(variant));
  }

  /** Closes the view; `redraw`: the game is drawn again (not when a new one is coming). */
  close(redraw = true) {
    if (!this.active) return;
    this.active = false;
    this.asked = null;
    $('piece-view').hidden = true;
    document.body.classList.remove('piece-view');
    if (redraw) this.closed();
  }

  /** "How the Knight moves", for the status line. */
  title() {
    return this.active ? `How the ${this.variant.pieces[this.kind].name} moves` : '';
  }

  /** Asks the server where `colour`'s `kind` goes from `cell`. */
  ask(kind, colour, cell) {
    this.kind = kind;
    this.colour = colour;
    this.cell = cell;
    $('pv-kind').value = String(kind);
    $('pv-colour').value = String(colour);
    const name = `${COLOURS[colour].name} ${this.variant.pieces[kind].name}`;
    $('pv-title').textContent = this.title();
    $('pv-text').textContent = `${name} on ${this.variant.cells[cell].name}: …`;
    this.asked = { variant: this.variant.name, kind, colour, cell };
    this.send({ type: 'piece_moves', ...this.asked });
  }

  /** A press on `cell` while the view is open: the piece goes there (unless a King does). */
  press(cell) {
    if (this.shown?.kings.includes(cell) || cell === this.cell) return;
    this.ask(this.kind, this.colour, cell);
  }

  /** The server's answer: drawn if it is the one waited for. */
  onTargets(msg) {
    const a = this.asked;
    if (!this.active || !a || msg.variant !== a.variant || msg.kind !== a.kind || msg.colour !== a.colour || msg.cell !== a.cell) return;
    this.asked = null;
    this.shown = msg;
    this.showError(null);
    const cells = this.variant.cells;
    const piece = this.variant.pieces[msg.kind];
    const parts = [`${msg.moves.length} cell${msg.moves.length === 1 ? '' : 's'} to move to`];
    if (msg.captures.length) parts.push(`${msg.captures.length} more only to capture on (ringed)`);
    if (msg.shots.length) parts.push(`${msg.shots.length} to shoot at without moving (red)`);
    const levels = new Set([...msg.moves, ...msg.captures, ...msg.shots].map((c) => cells[c].z));
    const across = this.variant.levels.length > 1 ? `, on ${levels.size} level${levels.size === 1 ? '' : 's'}` : '';
    $('pv-text').textContent = `${COLOURS[msg.colour].name} ${piece.name} on ${cells[msg.cell].name}: ${parts.join(', ')}${across}. Click (or tap) another cell to put it there.`;
    $('pv-note').textContent = msg.note;
    $('pv-note').hidden = !msg.note;
    this.paint(true);
  }

  /** The server refused (a pawn where the rules never put one): said, the board as it was. */
  onError(message) {
    if (!this.active || !this.asked) return false;
    this.asked = null;
    this.showError(message);
    return true;
  }

  showError(message) {
    $('pv-error').textContent = message ?? '';
    $('pv-error').hidden = !message;
  }

  /** Draws the last answer (again, after the page drew the game; `fresh`: a new one). */
  paint(fresh = false) {
    const m = this.shown;
    if (!this.active || !m) return;
    const targets = new Map();
    for (const c of m.moves) targets.set(c, { shot: false, capture: false });
    for (const c of m.captures) targets.set(c, { shot: false, capture: true });
    for (const c of m.shots) targets.set(c, { shot: true, capture: false });
    this.show({ pieces: m.pieces, hands: [], last: null, danger: [] }, m.cell, targets, fresh);
  }
}
