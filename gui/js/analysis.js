// The analysis board: a tree of moves with variations, and the engine's lines.
//
// The server keeps one line of moves (the game from its start to the position shown); the
// page keeps every line it has seen in a tree, the first child of a node being its main
// line and the others its variations. Going to another move of the tree sends that move's
// line (`{type: 'line', moves}`); each `state` merges its moves into the tree. Each engine
// line is an element with `data-pv` (its moves, space-separated, best line first); a click
// on one of its moves plays the line up to that move into a variation. Moves show in readable
// notation (the server's names: `san` of each move and line); `data-move` and `data-pv` hold
// protocol notation.

import { COLOURS } from './pieces.js';

const $ = (id) => document.getElementById(id);

/**
 * A tree of moves: nodes `{id, move, san, parent, children, ply}` (`move` in protocol
 * notation, `san` readable as the server names it); node 0 is the start.
 */
export class MoveTree {
  constructor() {
    this.reset();
  }

  reset() {
    this.nodes = [{ id: 0, move: null, parent: null, children: [], ply: 0 }];
    this.current = 0;
  }

  /** The child of `id` that plays `move`, made if there is none (a new variation). */
  child(id, move) {
    const node = this.nodes[id];
    const found = node.children.find((c) => this.nodes[c].move === move);
    if (found !== undefined) return found;
    const n = { id: this.nodes.length, move, parent: id, children: [], ply: node.ply + 1 };
    this.nodes.push(n);
    node.children.push(n.id);
    return n.id;
  }

  /** Follows `moves` from `id`, making what is missing; returns the last node. */
  follow(id, moves) {
    return moves.reduce((at, m) => this.child(at, m), id);
  }

  /** The moves from the start to `id`. */
  line(id) {
    const out = [];
    for (let n = this.nodes[id]; n.parent !== null; n = this.nodes[n.parent]) out.push(n.move);
    return out.reverse();
  }

  /** Whether `id` lies on the main line (every node a first child). */
  onMainLine(id) {
    for (let n = this.nodes[id]; n.parent !== null; n = this.nodes[n.parent]) {
      if (this.nodes[n.parent].children[0] !== n.id) return false;
    }
    return true;
  }
}

/** A score in words, from the first team's side (White's): `+0.35`, `#3`, `#-2`. */
export function scoreText(line, team0) {
  const sign = team0 ? 1 : -1;
  if (line.mate !== null && line.mate !== undefined) return `#${sign * line.mate}`;
  if (line.cp === null || line.cp === undefined) return '';
  const cp = sign * line.cp;
  return `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
}

/** The first team's expected share of points for a line, 0 to 1 (for the evaluation bar). */
function share(line, team0) {
  const sign = team0 ? 1 : -1;
  if (line.mate !== null && line.mate !== undefined) return sign * line.mate > 0 ? 1 : 0;
  const cp = sign * (line.cp ?? 0);
  return 1 / (1 + Math.exp(-cp / 250));
}

/** The side panel of the analysis board: start/stop, lines, evaluation bar, the tree. */
export class AnalysisPanel {
  /** `send(msg)` talks to the server; `goTo(nodeId)` shows a node of the tree. */
  constructor(send, goTo) {
    this.send = send;
    this.goTo = goTo;
    this.tree = new MoveTree();
    this.lines = [];
    this.pending = [];
    this.fen = null;
    $('analyse').addEventListener('click', () => this.toggle());
    $('multipv').addEventListener('change', () => {
      this.send({ type: 'analyse', on: this.state?.thinking ?? false, multipv: Number($('multipv').value) });
    });
  }

  toggle() {
    if (!this.state) return;
    this.send({ type: 'analyse', on: !this.state.thinking, multipv: Number($('multipv').value) });
  }

  /** A new state of an analysis game: merge its line into the tree, clear old lines. */
  onState(state, variant, newGame) {
    if (newGame) {
      this.tree.reset();
      this.firstColour = state.moves.length ? state.moves[0].colour : state.to_move;
    }
    this.state = state;
    this.variant = variant;
    this.tree.current = this.tree.follow(0, state.moves.map((m) => m.move));
    // Comments (the engine's, or an opened game's) and readable names go with their moves.
    let at = this.tree.current;
    for (let k = state.moves.length - 1; k >= 0 && at; k--) {
      if (state.moves[k].comment) this.tree.nodes[at].comment = state.moves[k].comment;
      if (state.moves[k].san) this.tree.nodes[at].san = state.moves[k].san;
      at = this.tree.nodes[at].parent;
    }
    if (this.fen !== state.fen || this.multipv !== state.multipv) {
      this.fen = state.fen;
      this.multipv = state.multipv;
      this.lines = [];
      this.pending = [];
    }
    $('multipv').value = String(state.multipv);
    const a = $('analyse');
    a.textContent = state.thinking ? 'Stop analysis' : 'Analyse';
    a.setAttribute('aria-pressed', String(state.thinking));
    this.showLines();
    this.showTree();
  }

  /**
   * An engine line of the position shown. The engine sends the lines of an iteration one
   * after another, best first; the page shows them as a set once the last of them has come,
   * so that a new best line never stands beside the last iteration's lines (which may start
   * with the same move). Until the first set is whole, lines show as they come. A set the
   * engine cuts short (fewer lines than the page counted) is shown when the next iteration's
   * first line comes; a bound the engine reports while a line is still being searched (same
   * depth) starts nothing new.
   */
  onEngine(e) {
    if (!this.state || !this.state.thinking || !e.pv.length) return;
    const k = e.multipv ?? 1;
    const shown = this.lines;
    if (k === 1) {
      // A deeper first line ends the last iteration: its lines are all the engine sent.
      const last = this.pending[0];
      if (last && (e.depth ?? 0) > (last.depth ?? 0)) this.lines = this.pending;
      this.pending = [];
    }
    this.pending[k - 1] = e;
    if (k >= this.expected() || this.lines.length < k) this.lines = this.pending.slice();
    // While a set is being collected the lines shown stay as they are: no redrawing.
    if (this.lines !== shown) this.showLines();
  }

  /** How many lines an iteration brings: the lines asked for, at most one per legal move. */
  expected() {
    const moves = new Set((this.state?.legal ?? []).map((m) => m.move)).size;
    return moves > 0 ? Math.min(this.multipv ?? 1, moves) : (this.multipv ?? 1);
  }

  showLines() {
    const box = $('pv-lines');
    box.replaceChildren();
    const s = this.state;
    const team0 = s ? (s.to_move & 1) === 0 : true;
    const lines = this.lines.filter((l) => l);
    for (const l of lines) {
      const row = document.createElement('div');
      row.className = 'pv-line';
      row.dataset.pv = l.pv.join(' ');
      row.dataset.multipv = l.multipv ?? 1;
      const score = document.createElement('span');
      score.className = 'pv-score';
      score.textContent = scoreText(l, team0);
      const depth = document.createElement('span');
      depth.className = 'pv-depth';
      depth.textContent = `d${l.depth ?? '?'}`;
      row.append(score, depth);
      l.pv.slice(0, 12).forEach((m, i) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'pv-move';
        b.dataset.index = i;
        b.textContent = l.san?.[i] ?? m;
        b.title = 'Play the line to here as a variation';
        b.addEventListener('click', () => this.playLine(l.pv.slice(0, i + 1)));
        row.append(b);
      });
      box.append(row);
    }
    const best = lines[0];
    const bar = $('evalbar');
    const fill = best ? share(best, team0) : 0.5;
    bar.querySelector('.fill').style.height = `${(fill * 100).toFixed(1)}%`;
    bar.dataset.score = best ? scoreText(best, team0) : '';
    bar.title = best ? `${COLOURS[0].name}'s view: ${scoreText(best, team0)}` : 'No evaluation yet';
    $('analysis-status').textContent = s && s.thinking
      ? best ? `Depth ${best.depth ?? '?'} · ${best.nodes ?? 0} nodes` : 'Analysing…'
      : 'The engine is not analysing.';
  }

  /** Plays `moves` from the position shown into the tree, and goes there. */
  playLine(moves) {
    const id = this.tree.follow(this.tree.current, moves);
    this.goTo(id);
  }

  /** The tree as a move list: the main line, variations in brackets after their move. */
  showTree() {
    const list = $('moves');
    list.classList.remove('four');
    list.classList.add('tree');
    list.replaceChildren();
    const t = this.tree;
    const colours = this.variant.colours;
    const moveEl = (id, numbered = false) => {
      const n = t.nodes[id];
      const li = document.createElement('li');
      li.className = 'mv';
      li.dataset.ply = n.ply;
      li.dataset.move = n.move;
      li.dataset.node = id;
      const colour = (this.firstColour + n.ply - 1) % colours;
      // Readable notation once the server has named the move (a line just clicked in is
      // named by the state that follows).
      const name = n.san ?? n.move;
      li.title = `${COLOURS[colour].name}: ${name} (${n.move})`;
      const number = Math.floor((this.firstColour + n.ply - 1) / colours) + 1;
      li.textContent = colour === 0 || numbered ? `${number}.${colour === 0 ? '' : '..'} ${name}` : name;
      if (n.comment) {
        const c = document.createElement('span');
        c.className = 'comment';
        c.textContent = `{${n.comment}}`;
        li.append(c);
      }
      if (!t.onMainLine(id)) li.classList.add('variation');
      if (id === t.current) li.classList.add('current');
      li.addEventListener('click', () => this.goTo(id));
      return li;
    };
    // Writes the line from `id` (its first children), each node's other children as
    // bracketed variations after it.
    const write = (id, into, numbered) => {
      let at = id;
      while (t.nodes[at].children.length) {
        const [main, ...others] = t.nodes[at].children;
        into.append(moveEl(main, numbered));
        numbered = others.length > 0;
        for (const v of others) {
          const group = document.createElement('li');
          group.className = 'var-group';
          const inner = document.createElement('ol');
          inner.append(moveEl(v, true));
          write(v, inner, false);
          group.append(inner);
          into.append(group);
        }
        at = main;
      }
    };
    write(0, list, true);
    const cur = list.querySelector('.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  /** The node to show for a navigation key: the parent, the main child, start, end. */
  step(where) {
    const t = this.tree;
    const n = t.nodes[t.current];
    if (where === 'back') return n.parent ?? 0;
    if (where === 'forward') return n.children[0] ?? t.current;
    if (where === 'start') return 0;
    let at = t.current;
    while (t.nodes[at].children.length) at = t.nodes[at].children[0];
    return at;
  }
}
