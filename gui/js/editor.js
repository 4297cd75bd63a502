// The position editor: place and remove pieces of every colour on every level, set the side
// to move, and edit the rest of the FEN (what is in hand, castling, counters) as text. The
// page only keeps the pieces and the text; the server composes the FEN through the rules
// layer's own FEN writer and reader (`compose`), and the reader's error is shown as it says
// it. A valid position can then be played or analysed.

import { COLOURS } from './pieces.js';
import { glyph } from './panel.js';

const $ = (id) => document.getElementById(id);

export class Editor {
  /**
   * `send(msg)` talks to the server; `show(position)` draws a position on the board;
   * `start(fen, mode)` starts a game or an analysis board from a FEN.
   */
  constructor(send, show, start) {
    this.send = send;
    this.show = show;
    this.start = start;
    this.active = false;
    this.tool = null; // 'erase' or 'colour:kind'
    $('edit-apply').addEventListener('click', () => this.compose($('edit-fen').value.trim(), null));
    $('edit-to-move').addEventListener('change', () => {
      // The side to move is the FEN's second field in every variant.
      const t = this.fen.split(' ');
      t[1] = $('edit-to-move').value;
      this.compose(t.join(' '), this.pieces);
    });
    $('edit-play').addEventListener('click', () => this.valid && this.start(this.fen, 'play'));
    $('edit-analyse').addEventListener('click', () => this.valid && this.start(this.fen, 'analysis'));
    $('edit-done').addEventListener('click', () => this.close());
  }

  /** Opens the editor on `state`'s position (of `variant`). */
  open(variant, state) {
    this.active = true;
    this.variant = variant;
    this.fen = state.fen;
    this.pieces = state.pieces.map((p) => [...p]);
    this.valid = true;
    this.palette();
    const to = $('edit-to-move');
    to.replaceChildren(...COLOURS.slice(0, variant.colours).map((c) => new Option(c.name, c.name[0].toLowerCase())));
    to.value = this.fen.split(' ')[1];
    $('edit-fen').value = this.fen;
    $('editor').hidden = false;
    document.body.classList.add('editing');
    this.showResult(null);
    this.show({ pieces: this.pieces, last: null, danger: [] });
  }

  close() {
    this.active = false;
    $('editor').hidden = true;
    document.body.classList.remove('editing');
  }

  /** One button per piece kind and colour, and the eraser. */
  palette() {
    const box = $('palette');
    box.replaceChildren();
    const erase = document.createElement('button');
    erase.type = 'button';
    erase.dataset.piece = 'erase';
    erase.textContent = 'Remove';
    box.append(erase);
    for (let c = 0; c < this.variant.colours; c++) {
      this.variant.pieces.forEach((p, k) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.piece = `${c}:${k}`;
        b.title = `${COLOURS[c].name} ${p.name}`;
        b.append(glyph(this.variant, k, c));
        box.append(b);
      });
    }
    box.querySelectorAll('button').forEach((b) => b.addEventListener('click', () => {
      this.tool = b.dataset.piece;
      box.querySelectorAll('button').forEach((x) => x.classList.toggle('selected', x === b));
    }));
  }

  /** A press on `cell`: puts the chosen piece there, or removes what is there. */
  press(cell) {
    if (!this.tool) {
      this.showResult('Choose a piece (or Remove) first, then click cells.');
      return;
    }
    const rest = this.pieces.filter((p) => p[0] !== cell);
    const here = this.pieces.find((p) => p[0] === cell);
    if (this.tool !== 'erase') {
      const [c, k] = this.tool.split(':').map(Number);
      // The same piece again removes it.
      if (!here || here[1] !== c || here[2] !== k) rest.push([cell, c, k]);
    }
    this.pieces = rest;
    this.show({ pieces: this.pieces, last: null, danger: [] });
    this.compose(this.fen, this.pieces);
  }

  compose(fen, pieces) {
    this.send({ type: 'compose', variant: this.variant.name, fen, pieces });
  }

  /** The server's position: valid, drawn, its FEN shown. */
  onComposed(msg) {
    this.fen = msg.fen;
    this.pieces = msg.pieces.map((p) => [...p]);
    this.valid = true;
    $('edit-fen').value = msg.fen;
    $('edit-to-move').value = msg.fen.split(' ')[1];
    this.show({ pieces: this.pieces, last: null, danger: [] });
    this.showResult(null);
  }

  /** The reader's error: the position stays as edited, not playable until mended. */
  onError(message) {
    this.valid = false;
    this.showResult(message);
  }

  showResult(error) {
    const e = $('edit-error');
    e.textContent = error ?? '';
    e.hidden = !error;
    $('edit-play').disabled = !!error;
    $('edit-analyse').disabled = !!error;
  }
}
