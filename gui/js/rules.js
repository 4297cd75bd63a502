// The rules dialog: a variant's full name and its line, the board and pieces at a glance
// (each piece a button into "how it moves" when the variant is the one on the board), and
// its rules page from docs/variants, which the server renders to HTML
// (`/rules/<page>.html`, the same origin and checks as every file). Links between the
// pages open in the dialog, with a Back button; links to other sites in a new tab. A variant
// from a file without a page of its own is shown by its title, source and pieces, with the
// rulings of the variant files shipped with strata a click away.

import { COLOURS } from './pieces.js';
import { glyph } from './panel.js';

const $ = (id) => document.getElementById(id);

/** The page of the rulings of the variant files shipped with strata. */
const FILE_VARIANTS_PAGE = '/rules/file-variants.html';

/** A board in words, from the levels the server described: "one 8x8 board", "5 levels of
 * 5x5", "5 levels: 6x6, 8x8, 10x10, 8x8, 6x6". */
export function boardWords(variant) {
  const sizes = variant.levels.map((l) => `${l.files[1] - l.files[0] + 1}x${l.ranks[1] - l.ranks[0] + 1}`);
  const cells = `${variant.cells.length} cells`;
  if (sizes.length === 1) return `one ${sizes[0]} board`;
  if (sizes.every((s) => s === sizes[0])) return `${sizes.length} levels of ${sizes[0]} (${cells})`;
  return `${sizes.length} levels: ${sizes.join(', ')} (${cells})`;
}

export class RulesDialog {
  /** `onPiece(kind)` opens "how it moves" for a piece of the variant on the board. */
  constructor(onPiece) {
    this.onPiece = onPiece;
    this.dialog = $('rules-dialog');
    this.history = [];
    this.page = null;
    $('rules-close').addEventListener('click', () => this.dialog.close());
    $('rules-back').addEventListener('click', () => {
      const back = this.history.pop();
      // Back to the first page: the variant's own view, with its table and note.
      if (back && this.history.length === 0) this.open(this.variant, this.onBoard, back.scroll);
      else if (back) this.load(back.path, back.scroll);
    });
    $('rules-body').addEventListener('click', (e) => this.follow(e));
  }

  /** Opens the dialog on `variant` (a `hello` entry); `onBoard`: it is the variant played. */
  open(variant, onBoard, scroll = 0) {
    this.variant = variant;
    this.onBoard = onBoard;
    this.page = null;
    $('rules-title').textContent = variant.title;
    $('rules-summary').textContent = variant.summary;
    $('rules-summary').hidden = false;
    $('rules-glance').hidden = false;
    this.glance(variant, onBoard);
    this.history = [];
    $('rules-back').hidden = true;
    const body = $('rules-body');
    body.replaceChildren();
    if (variant.from_file) body.append(this.fileNote(variant));
    if (!this.dialog.open) this.dialog.showModal();
    if (variant.rules_page) this.load(variant.rules_page, scroll);
    else this.dialog.scrollTop = scroll;
  }

  /** The board, the colours, the source and the pieces, as a table. */
  glance(variant, onBoard) {
    const rows = [
      ['Board', boardWords(variant) + (variant.levels_note ? `. ${variant.levels_note}` : '')],
      ['Players', variant.colours === 4 ? `four colours in two teams: ${COLOURS.slice(0, 4).map((c) => c.name).join(', ')}` : 'two: White and Black'],
    ];
    if (variant.source) rows.push(['Source', variant.source]);
    const table = $('rules-glance');
    table.replaceChildren();
    for (const [name, text] of rows) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = name;
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(th, td);
      table.append(tr);
    }
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = 'Pieces';
    const td = document.createElement('td');
    td.className = 'rules-pieces';
    variant.pieces.forEach((p, k) => {
      const item = document.createElement(onBoard ? 'button' : 'span');
      item.className = 'rules-piece';
      item.append(glyph(variant, k, 0), `${p.letter} ${p.name}`);
      if (onBoard) {
        item.type = 'button';
        item.dataset.pieceKind = String(k);
        item.title = `Show how the ${p.name} moves, on the board`;
        item.addEventListener('click', () => {
          this.dialog.close();
          this.onPiece(k);
        });
      }
      td.append(item);
    });
    if (onBoard) {
      const hint = document.createElement('div');
      hint.className = 'help';
      hint.textContent = 'Choose a piece to see its moves on the board.';
      td.append(hint);
    }
    tr.append(th, td);
    table.append(tr);
  }

  /** What a variant from a file is, with the rulings of the shipped files a click away. */
  fileNote(variant) {
    const p = document.createElement('p');
    p.className = 'rules-file-note';
    const a = document.createElement('a');
    a.href = FILE_VARIANTS_PAGE;
    a.textContent = 'the rulings of the variant files shipped with strata';
    p.append(
      `${variant.title} is defined in a variant file (the format: docs/variant-files.md in the strata repository). ` +
        'Every piece moves as its file says: choose it above to see where. See also ',
      a,
      variant.rules_page ? '; its own page follows.' : '.',
    );
    return p;
  }

  /** Shows the rules page at `path` in the dialog, scrolled to `scroll` (or an anchor). */
  async load(path, scroll) {
    const [file, anchor] = path.split('#');
    const body = $('rules-body');
    // Only the last page asked for is shown, whichever answer comes first.
    const seq = (this.seq = (this.seq ?? 0) + 1);
    let article;
    try {
      const r = await fetch(file, { credentials: 'same-origin' });
      if (!r.ok) throw new Error(`the server answered ${r.status}`);
      const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
      article = doc.querySelector('article');
      if (!article) throw new Error('the page has no rules');
    } catch (e) {
      if (seq !== this.seq) return;
      const p = document.createElement('p');
      p.className = 'rules-error';
      p.textContent = `The rules page could not be shown: ${e.message}.`;
      body.append(p);
      return;
    }
    if (seq !== this.seq) return;
    this.page = path;
    // A variant from a file keeps its note above its own page.
    const note = this.history.length === 0 ? body.querySelector('.rules-file-note') : null;
    body.replaceChildren(...(note ? [note] : []), document.adoptNode(article));
    const target = anchor ? document.getElementById(anchor) : null;
    if (target) target.scrollIntoView();
    else this.dialog.scrollTop = scroll ?? 0;
    $('rules-back').hidden = this.history.length === 0;
  }

  /** A click on a link of a rules page: another page in the dialog, or a heading of this. */
  follow(e) {
    const a = e.target.closest('a[href]');
    if (!a) return;
    const href = a.getAttribute('href');
    if (href.startsWith('#')) {
      e.preventDefault();
      document.getElementById(href.slice(1))?.scrollIntoView();
    } else if (href.startsWith('/rules/')) {
      e.preventDefault();
      this.history.push({ path: this.page, scroll: this.dialog.scrollTop });
      $('rules-glance').hidden = true;
      $('rules-summary').hidden = true;
      this.load(href, 0);
    }
  }
}
