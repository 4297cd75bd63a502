// strata gui: the page. It draws what the server says (the server owns the game: legal moves,
// clocks, results) and sends what the person does. Selecting a piece highlights its legal
// targets from the legal moves the server sent, on every level, without asking the server;
// a move the rules refuse is explained by the server in words.

import { AnalysisPanel } from './analysis.js';
import { Board } from './board.js';
import { Editor } from './editor.js';
import { Connection } from './connection.js';
import { NewGameDialog, gameFromUrl } from './newgame.js';
import { COLOURS, pieceSvg } from './pieces.js';
import { Clocks, MoveListKeys, scoreFromFirstTeam, showHands, showLegend, showMoves } from './panel.js';
import { PieceView } from './piecemoves.js';
import { RulesDialog } from './rules.js';

const $ = (id) => document.getElementById(id);

/**
 * What a typed move must look like: shown under the "Type a move" box and added to the
 * message when a typed move is refused. One string, in one place.
 */
const TYPED_MOVE_HINT =
  'Type a move as players write it: Nf3, exd5, O-O, e8=Q (on a 3D board with the level: NCc5), a drop O@e4, a shot Z*Ca4, -- to pass; or as from-cell and to-cell: e2e4, Cc3Cc5.';

const app = {
  hello: null,
  variant: null,
  state: null,
  viewPly: null,
  view: '2d', // or '3d'
  shown: null, // the position on the board (the game's, or a past one) // null: the current position; a number: looking back at that ply
  selection: null, // {from: cell} or {drop: kind}
  flipped: false,
  engineLine: '',
  settings: {}, // the clock, engine limit and strength of the last game started here
  typed: false, // a typed move is waiting for the server's answer
};

/** Starts a new game, remembering its settings for a later import. */
function startGame(msg) {
  app.settings = { clock: msg.clock, engine_limit: msg.engine_limit, engine_options: msg.engine_options };
  conn.send(msg);
}

// A closed connection ends the page's use: its reason stays on screen.
const conn = new Connection(onMessage, (why) => {
  showMessage(why, false, true);
  $('status').textContent = 'Not connected to the server';
});
const board = new Board($('board'), { press, release });
const clocks = new Clocks();
new MoveListKeys($('moves'));
$('typed-move-hint').textContent = TYPED_MOVE_HINT;
const rulesDialog = new RulesDialog((kind) => showPieceMoves(kind));
// From the new-game form, the rules of the variant chosen (not yet on the board).
const dialog = new NewGameDialog(startGame, (v) => rulesDialog.open(v, false));
// "How does this piece move": the view owns the board until it is closed, as the editor does.
const pieceView = new PieceView(
  (m) => conn.send(m),
  (p, cell, targets, fresh) => {
    app.shown = p;
    boards.setPosition(p);
    boards.setSelection(cell, targets);
    if (fresh) board.showLevel(app.variant.cells[cell].z);
  },
  // Back to the position shown before: the game's, or the earlier one looked at.
  () => (app.viewPly === null ? render() : navigate(app.viewPly)),
);

/** Opens "how it moves" for the variant's piece `kind`, of the person's colour. */
function showPieceMoves(kind) {
  if (!app.variant || !app.state) return;
  if (editor.active) editor.close();
  app.selection = null;
  $('chooser').hidden = true;
  const colour = Math.max(0, app.state.seats.indexOf('human'));
  pieceView.open(app.variant, kind, colour);
  render();
  // A phone has the legend far below the board.
  $('board-area').scrollIntoView({ block: 'nearest' });
}
const analysis = new AnalysisPanel((m) => conn.send(m), goToNode);
const editor = new Editor(
  (m) => conn.send(m),
  (p) => {
    app.shown = p;
    boards.setPosition(p);
    boards.setSelection(null, new Map());
  },
  (fen, mode) => {
    editor.close();
    const s = app.state;
    const msg = { type: 'new_game', variant: s.variant, fen, ...app.settings };
    if (mode === 'analysis') msg.mode = 'analysis';
    else msg.seats = s.mode === 'analysis' ? undefined : s.seats;
    startGame(msg);
  },
);

// The boards: the 2D board always, the 3D view once asked for (its module and three.js
// load then). Every change goes to both, so that switching keeps the selection and game.
let view3d = null;
const boards = {
  setVariant: (v) => [board, view3d].forEach((b) => b?.setVariant(v)),
  setFlipped: (f) => [board, view3d].forEach((b) => b?.setFlipped(f)),
  setPosition: (p) => [board, view3d].forEach((b) => b?.setPosition(p)),
  setSelection: (c, t) => [board, view3d].forEach((b) => b?.setSelection(c, t)),
};

/** Shows the board in '2d' or '3d'. */
async function setView(which) {
  if (which === '3d' && !view3d) {
    try {
      const mod = await import('./view3d.js');
      if (!mod.webglAvailable()) throw new Error('this browser offers no WebGL');
      $('board3d').hidden = false;
      view3d = new mod.View3D($('board3d'), { press });
      view3d.setOrthographic($('ortho').checked);
      if (app.variant) view3d.setVariant(app.variant);
      view3d.setFlipped(app.flipped);
    } catch (e) {
      $('board3d').hidden = true;
      view3d = null;
      showMessage(`The 3D view cannot be shown: ${e.message}.`);
      return;
    }
  }
  app.view = which;
  $('board').hidden = which === '3d';
  $('board3d').hidden = which !== '3d';
  $('ortho-box').hidden = which !== '3d';
  $('levels-note').hidden = which === '3d';
  $('view-toggle').textContent = which === '3d' ? '2D view' : '3D view';
  $('view-toggle').setAttribute('aria-pressed', String(which === '3d'));
  // The 2D board is laid out again now that it is shown: while hidden (display: none) its
  // level panels measure 0 px, and a layout made then (a new game or a resize while the 3D
  // view was shown) would stack Podionic's levels on one another.
  if (which === '2d' && app.variant) board.build();
  if (view3d && which === '3d') {
    view3d.resize();
    if (app.shown) view3d.setPosition(app.shown);
    paintSelection();
  }
}

function analysing() {
  return app.state?.mode === 'analysis';
}

/** Shows a node of the analysis tree: the server is set to its line. */
function goToNode(id) {
  app.selection = null;
  conn.send({ type: 'line', moves: analysis.tree.line(id) });
}

/**
 * Shows `text` in the message line (over the page: showing it moves nothing), for a few
 * seconds unless `sticky`. A message the game moves past (a refusal, an error, a hint) goes
 * when the game's state changes; the engine's own reports (`lasting`: it stopped, it
 * declines a draw) stay their few seconds, and a sticky one (the connection closed) stays.
 */
function showMessage(text, info = false, sticky = false, lasting = false) {
  const m = $('message');
  m.textContent = text;
  m.classList.toggle('info', info);
  m.hidden = !text;
  m.dataset.kind = sticky ? 'sticky' : lasting ? 'lasting' : 'passing';
  clearTimeout(showMessage.timer);
  if (text && !sticky) showMessage.timer = setTimeout(() => (m.hidden = true), info ? 6000 : 10000);
}

/** Hides a message the game has moved past (see showMessage). */
function clearPassingMessage() {
  const m = $('message');
  if (!m.hidden && m.dataset.kind === 'passing') showMessage('');
}

function onMessage(msg) {
  switch (msg.type) {
    case 'hello':
      app.hello = msg;
      dialog.setHello(msg);
      {
        const fromUrl = gameFromUrl(msg);
        if (fromUrl) startGame(fromUrl);
        else dialog.open(null);
      }
      $('status').textContent = msg.engine ? `Engine: ${msg.engine.name}` : 'No engine available';
      break;
    case 'state':
      onState(msg);
      break;
    case 'engine':
      onEngine(msg);
      break;
    case 'explanation':
      showMessage(`Not allowed: ${msg.reason}.`);
      break;
    case 'piece_targets':
      pieceView.onTargets(msg);
      break;
    case 'error':
      // A piece the rules cannot show there: said in the view.
      if (pieceView.onError(msg.message)) break;
      if (editor.active) editor.onError(msg.message);
      // The server's refusal of an unreadable move names the notation already.
      const hint = app.typed && !msg.message.includes('type a move');
      showMessage(hint ? `${msg.message}. ${TYPED_MOVE_HINT}` : msg.message);
      app.typed = false;
      break;
    case 'engine_status':
      showMessage(msg.message, true, false, true);
      break;
    case 'pgn':
      showExport(msg);
      break;
    case 'games':
      showGames(msg.games);
      break;
    case 'composed':
      if (editor.active) editor.onComposed(msg);
      break;
    case 'position':
      if (app.viewPly === msg.ply) showPast(msg);
      break;
  }
}

function myTurn() {
  const s = app.state;
  return !!s && !s.result && s.seats[s.to_move] === 'human' && s.legal.length > 0 && app.viewPly === null;
}

/**
 * A short click for a move, lower for a capture (optional, off by default; the choice is
 * remembered by the browser). Made with WebAudio: no sound file.
 */
function moveSound(capture) {
  if (!$('sound').checked) return;
  const ctx = (moveSound.ctx ??= new AudioContext());
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = capture ? 330 : 660;
  gain.gain.setValueAtTime(0.15, ctx.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.12);
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + 0.12);
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds ?? 0) + 1);
}

function onState(s) {
  const old = app.state;
  // Every score of the move list from the first team's side (White's), as analysis shows
  // them; the engine's comments give them from its own side.
  for (const m of s.moves) m.comment = scoreFromFirstTeam(m.comment, m.colour);
  app.state = s;
  app.typed = false;
  if (old && old.game === s.game && s.moves.length === old.moves.length + 1) {
    moveSound(s.pieces.length < old.pieces.length);
  }
  const variant = app.hello.variants.find((v) => v.name === s.variant);
  const newGame = !old || old.game !== s.game;
  // A new game takes the board back.
  if (newGame) pieceView.close(false);
  if (newGame && old) {
    // The messages of the game before do not carry over.
    showMessage('');
    $('chooser').hidden = true;
  } else if (old && (old.fen !== s.fen || !old.result !== !s.result)) {
    // A move, a take-back, the game's end: a refusal or an error shown is out of date.
    clearPassingMessage();
  }
  if (s.mode === 'analysis') {
    analysis.onState(s, variant, newGame);
    // An analysis board starts analysing at once (the server carries it on between boards).
    if (newGame && old?.mode !== 'analysis' && !s.thinking && app.hello.engine) {
      conn.send({ type: 'analyse', on: true, multipv: s.multipv });
    }
  } else {
    $('moves').classList.remove('tree');
  }
  $('analysis-panel').hidden = s.mode !== 'analysis';
  if ($('evalbar').hidden !== (s.mode !== 'analysis')) {
    $('evalbar').hidden = s.mode !== 'analysis';
    // The board's room changed.
    if (variant === app.variant) board.build();
  }
  if (!old && new URLSearchParams(location.search).get('view') === '3d') setView('3d');
  if (variant !== app.variant || newGame) {
    if (variant !== app.variant) {
      app.variant = variant;
      boards.setVariant(variant);
      showLegend(variant, showPieceMoves);
      $('levels-note').textContent = variant.levels_note;
      // The variant by its full name, with its line on what is special.
      $('variant-title').textContent = variant.title;
      $('variant-title').title = variant.summary;
      document.title = `${variant.title} · strata`;
    }
    app.engineLine = '';
    // A person who plays only the second team sees it from its side.
    const team1Only = s.seats.some((x) => x === 'human') && s.seats.every((x, c) => x !== 'human' || (c & 1) === 1);
    if (team1Only !== app.flipped) {
      app.flipped = team1Only;
      boards.setFlipped(app.flipped);
    }
  }
  if (!old || old.fen !== s.fen || old.game !== s.game) {
    app.selection = null;
    app.viewPly = null;
  }
  render();
}

function render() {
  const s = app.state;
  const v = app.variant;
  if (!s || !v) return;
  if (editor.active || pieceView.active) {
    // The editor's position, or the piece shown, stays on the board until it is closed.
  } else if (app.viewPly === null) {
    app.shown = s;
    boards.setPosition(s);
    // One level at a time (a phone): the mover's pieces in view when a person's turn comes.
    if (myTurn()) board.showLevelOf(s.to_move);
    $('history-banner').hidden = true;
  }
  paintSelection();
  clocks.show(v, s);
  if (analysing()) analysis.showTree();
  else showMoves(v, s.moves, app.viewPly ?? s.moves.length, navigate);
  const drops = new Set(s.legal.filter((m) => m.flag === 'drop').map((m) => m.promotion));
  showHands(v, s.hands, myTurn() ? drops : new Set(), s.to_move, app.selection?.drop, pickDrop, refuseDrop);
  $('notes').textContent = s.notes.join(' · ');
  if (s.move_examples) fitPlaceholder($('typed-move-input'), s.move_examples);
  const passOnly = myTurn() && s.legal.length === 1 && s.legal[0].flag === 'pass';
  $('pass').hidden = !passOnly;
  const res = $('result');
  if (s.result) {
    res.hidden = false;
    res.dataset.result = s.result.result;
    res.textContent = `${s.result.result} · ${s.result.reason}`;
  } else {
    res.hidden = true;
    delete res.dataset.result;
  }
  const offer = $('draw-offer');
  offer.hidden = s.draw_offer === null || s.draw_offer === undefined || !!s.result;
  if (!offer.hidden) $('draw-offer-text').textContent = `${COLOURS[s.draw_offer].name} offers a draw.`;
  $('engine-info').textContent = s.thinking && !analysing() ? app.engineLine || 'The engine is thinking…' : '';
  const persons = s.seats.includes('human');
  $('takeback').disabled = !persons || s.moves.length === 0;
  $('resign').disabled = !persons || !!s.result || analysing();
  $('draw').disabled = !persons || !!s.result || analysing();
  $('status').textContent = editor.active
    ? 'Editing the position: the game waits until the editor is closed'
    : pieceView.active
      ? `${pieceView.title()} · "Back to the game" returns to the game`
      : statusText(s);
}

function statusText(s) {
  if (s.result) return `Game over: ${s.result.reason} (${s.result.result})`;
  const c = COLOURS[s.to_move].name;
  if (analysing()) return `Analysis board · ${c} to move${dangerText(s)}`;
  if (s.seats[s.to_move] === 'engine') return `${c} to move: the engine is thinking…`;
  if (s.legal.length === 0) return `${c} to move: waiting for the engine to get ready…`;
  const check = dangerText(s);
  // One person (playing one team) is "you"; people on both teams share the screen.
  const teams = new Set(s.seats.map((x, i) => (x === 'human' ? i & 1 : -1)).filter((t) => t >= 0));
  return `${c} to move${teams.size > 1 ? '' : ' (you)'}${check}`;
}

/** Whose Kings are in danger (the colours of the pieces on the `danger` cells), in words. */
function dangerText(s) {
  const colours = [...new Set(s.danger.map((cell) => s.pieces.find((p) => p[0] === cell)?.[1]))];
  return colours.map((c) => ` (${c === undefined ? 'a' : `${COLOURS[c].name}'s`} King in danger!)`).join('');
}

function onEngine(e) {
  if (!app.state || !app.state.thinking) return;
  if (analysing()) {
    analysis.onEngine(e);
    return;
  }
  const score = e.mate !== null && e.mate !== undefined ? `mate ${e.mate}` : e.cp !== null && e.cp !== undefined ? `${e.cp >= 0 ? '+' : ''}${(e.cp / 100).toFixed(2)}` : '';
  app.engineLine = `Engine (${COLOURS[e.colour].name}): depth ${e.depth ?? '?'}, ${score}, ${e.nodes ?? 0} nodes — ${(e.san ?? e.pv).slice(0, 8).join(' ')}`;
  $('engine-info').textContent = app.engineLine;
}

// Selecting and moving.

/** The legal moves from `from` grouped by target: target -> [moves]. */
function movesFrom(from) {
  const out = new Map();
  for (const m of app.state.legal) {
    if (m.flag === 'drop' || m.flag === 'pass' || m.from !== from) continue;
    out.set(m.to, (out.get(m.to) ?? []).concat(m));
  }
  return out;
}

function dropsOf(kind) {
  const out = new Map();
  for (const m of app.state.legal) {
    if (m.flag === 'drop' && m.promotion === kind) out.set(m.to, [m]);
  }
  return out;
}

function candidates() {
  const sel = app.selection;
  if (!sel) return new Map();
  return sel.drop !== undefined ? dropsOf(sel.drop) : movesFrom(sel.from);
}

function paintSelection() {
  if (pieceView.active) {
    pieceView.paint();
    return;
  }
  const sel = app.selection;
  const targets = new Map();
  for (const [to, ms] of candidates()) targets.set(to, { shot: ms.some((m) => m.flag === 'shot') && ms.every((m) => m.flag === 'shot') });
  boards.setSelection(sel && sel.from !== undefined ? sel.from : null, targets);
}

function pieceAt(cell) {
  return app.state.pieces.find((p) => p[0] === cell) ?? null;
}

function ownPiece(cell) {
  const p = pieceAt(cell);
  return !!p && p[1] === app.state.to_move;
}

function select(sel, since = performance.now()) {
  app.selection = sel;
  paintSelection();
  render();
  // How long from the press (its event's time stamp) until the frame that shows the
  // highlighted targets is painted (a task queued in the frame's animation callback runs
  // after its paint; a message rather than a timer, which Chromium holds back while a
  // finger is on the screen): measured by the tests and reported in docs/gui.md.
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      document.body.dataset.highlightMs = (performance.now() - since).toFixed(1);
    };
    channel.port2.postMessage(0);
  });
}

function press(cell, since) {
  $('chooser').hidden = true;
  if (!app.state) return false;
  if (editor.active) {
    editor.press(cell);
    return false;
  }
  if (pieceView.active) {
    pieceView.press(cell);
    return false;
  }
  if (app.viewPly !== null) {
    showMessage('You are looking at an earlier position: press End (or ») to return to the game.', true);
    return false;
  }
  if (!myTurn()) {
    if (app.state.result) showMessage('The game is over: start a new one.', true);
    else if (app.state.seats[app.state.to_move] === 'engine') showMessage('Wait for the engine to move.', true);
    return false;
  }
  const sel = app.selection;
  if (sel) {
    const c = candidates();
    if (c.has(cell)) {
      attempt(c.get(cell), cell);
      return false;
    }
    if (ownPiece(cell) && sel.from !== cell) {
      select({ from: cell }, since);
      return true;
    }
    if (sel.from === cell) {
      select(null);
      return false;
    }
    explain(sel.from ?? cell, cell);
    select(null);
    return false;
  }
  if (ownPiece(cell)) {
    select({ from: cell }, since);
    return true;
  }
  const p = pieceAt(cell);
  if (p) {
    // Not a question for the rules (to them a move from a cell to itself is a drop): whose
    // piece it is, in the words the server uses for the same refusal.
    const kind = app.variant.pieces[p[2]].name.toLowerCase();
    const where = app.variant.cells[cell].name;
    board.flash(cell);
    showMessage(
      `Not allowed: the ${kind} on ${where} is ${COLOURS[p[1]].name}'s, and ${COLOURS[app.state.to_move].name} is to move.`,
    );
  }
  return false;
}

function release(from, to) {
  const c = movesFrom(from);
  if (c.has(to)) attempt(c.get(to), to);
  else {
    explain(from, to);
    select(null);
  }
}

function explain(from, to) {
  const cells = app.variant.cells;
  board.flash(to);
  conn.send({ type: 'explain', from: cells[from].name, to: cells[to].name });
}

/** Plays one of `moves` (all to `cell`): asks which when there are several. */
function attempt(moves, cell) {
  if (moves.length === 1) {
    play(moves[0].move);
    return;
  }
  const chooser = $('chooser');
  chooser.replaceChildren();
  const title = document.createElement('div');
  title.className = 'title';
  title.textContent = moves.some((m) => m.flag === 'shot') ? 'Move or shoot?' : 'Promote to:';
  chooser.append(title);
  for (const m of moves) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.move = m.move;
    if (m.flag === 'shot') b.textContent = 'Shoot';
    else if (m.promotion !== null && m.promotion !== undefined) {
      const g = document.createElement('span');
      g.className = 'glyph';
      g.innerHTML = pieceSvg(app.variant.pieces[m.promotion], app.state.to_move);
      b.append(g, app.variant.pieces[m.promotion].name);
    } else b.textContent = moves.some((x) => x.flag === 'shot') ? 'Move' : 'No promotion';
    b.addEventListener('click', () => {
      chooser.hidden = true;
      play(m.move);
    });
    chooser.append(b);
  }
  const name = app.variant.cells[cell].name;
  const at = app.view === '3d' ? view3d.screenOf(name) : null;
  const r = at ? { left: at.x, bottom: at.y + 20 } : document.querySelector(`[data-cell="${name}"]`).getBoundingClientRect();
  chooser.style.left = `${Math.max(4, Math.min(innerWidth - 360, r.left))}px`;
  chooser.style.top = `${Math.min(innerHeight - 160, r.bottom + 4)}px`;
  chooser.hidden = false;
}

function play(move) {
  app.selection = null;
  paintSelection();
  showMessage('');
  conn.send({ type: 'move', move });
}

function pickDrop(kind) {
  if (!myTurn()) return;
  select(app.selection?.drop === kind ? null : { drop: kind });
}

/** A click on a piece in hand that has no drop now (a Pole before the first capture,
 * Polyhedron's reserves): why, in words, rather than nothing. */
function refuseDrop(kind) {
  const s = app.state;
  if (!s || !myTurn()) return;
  const name = app.variant.pieces[kind].name;
  const why = s.notes.length ? s.notes.join('; ') : 'no drop of it is legal in this position';
  showMessage(`Not allowed: ${COLOURS[s.to_move].name}'s ${name} in hand cannot be dropped now: ${why}.`);
}

/** Shows the server's examples of moves (`a, b, c, or d`) as the move box's placeholder,
 * as many of them as fit its width: the first and the last (the move in protocol
 * notation) are kept, the middle ones dropped while the text is wider than the box. */
function fitPlaceholder(input, examples) {
  const words = examples.split(/, or |, /);
  const style = getComputedStyle(input);
  const ctx = (fitPlaceholder.canvas ??= document.createElement('canvas')).getContext('2d');
  ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const text = (w) => (w.length < 2 ? w.join('') : w.length === 2 ? `${w[0]} or ${w[1]}` : `${w.slice(0, -1).join(', ')}, or ${w.at(-1)}`);
  while (words.length > 1 && ctx.measureText(text(words)).width > room) words.splice(words.length > 2 ? -2 : -1, 1);
  input.placeholder = text(words);
  input.title = `For example: ${examples}`;
  input.dataset.examples = examples;
}
addEventListener('resize', () => {
  const input = $('typed-move-input');
  if (input.dataset.examples) fitPlaceholder(input, input.dataset.examples);
});

// Looking back through the game.

/** Goes to the 'start', 'back', 'forward' or 'end': of the game, or of the analysis tree
 * (back to the move before, forward along the main line). */
function nav(where) {
  const s = app.state;
  if (!s) return;
  if (analysing()) {
    const id = analysis.step(where);
    if (id !== analysis.tree.current) goToNode(id);
    return;
  }
  const at = app.viewPly ?? s.moves.length;
  navigate({ start: 0, back: at - 1, forward: at + 1, end: s.moves.length }[where]);
}

function navigate(ply) {
  const s = app.state;
  if (!s) return;
  const n = Math.max(0, Math.min(s.moves.length, ply));
  app.selection = null;
  if (n === s.moves.length) {
    app.viewPly = null;
    render();
    return;
  }
  app.viewPly = n;
  render();
  conn.send({ type: 'show', ply: n });
}

function showPast(p) {
  app.shown = p;
  boards.setPosition(p);
  boards.setSelection(null, new Map());
  const b = $('history-banner');
  b.hidden = false;
  b.textContent = `Looking at the position after move ${p.ply} of ${app.state.moves.length} — End (») returns to the game.`;
}

// The export and import dialogs.

function textDialog(title, help, text, extra, ok) {
  $('text-dialog-title').textContent = title;
  $('text-dialog-help').textContent = help;
  $('text-dialog-text').value = text;
  $('text-dialog-text').readOnly = !ok;
  $('text-dialog-extra').replaceChildren(...(extra ?? []));
  $('text-dialog-ok').hidden = !ok;
  $('text-dialog-ok').onclick = ok ? (e) => {
    e.preventDefault();
    $('text-dialog').close();
    ok($('text-dialog-text').value);
  } : null;
  $('text-dialog').showModal();
}

function showExport(msg) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([msg.pgn], { type: 'application/x-chess-pgn' }));
  a.download = `strata-${app.state.variant}.pgn`;
  a.textContent = 'Download the PGN';
  const fen = document.createElement('div');
  fen.textContent = `FEN: ${msg.fen}`;
  fen.style.wordBreak = 'break-all';
  textDialog('Export', 'The game as PGN (as strata match writes it) and the position as FEN:', msg.pgn, [a, fen], null);
}

function importGame() {
  textDialog('Import', 'Paste a PGN (its Variant and FEN tags say where it starts) or a FEN of the current variant, and play on from there:', '', null, (text) => {
    const t = text.trim();
    if (!t) return;
    const s = app.state;
    // The same seats, clock, engine limit and strength as the game before.
    const msg = { type: 'new_game', variant: s ? s.variant : 'chess', ...app.settings };
    if (s) msg.seats = s.seats;
    if (t.startsWith('[') || /^\d+\./.test(t)) msg.pgn = t;
    else msg.fen = t;
    startGame(msg);
  });
}

// Opening a PGN of many games.

function openGames() {
  $('games-dialog').showModal();
}

function loadPgn(text) {
  if (text.trim()) conn.send({ type: 'load_pgn', pgn: text });
}

/** The list of the opened PGN's games: a click on one opens it on an analysis board. */
function showGames(games) {
  const body = $('games-list').querySelector('tbody');
  body.replaceChildren();
  for (const g of games) {
    const tr = document.createElement('tr');
    tr.dataset.game = g.index;
    const title = app.hello?.variants.find((v) => v.name === g.variant)?.title ?? g.variant;
    const cells = [g.index + 1, title, g.players.join(' – '), g.result, g.error ? `cannot be shown: ${g.error}` : g.termination, Math.ceil(g.plies / Math.max(1, g.players.length))];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = String(c);
      tr.append(td);
    }
    tr.title = `${g.plies} plies`;
    if (g.error) tr.classList.add('bad');
    else {
      tr.addEventListener('click', () => {
        $('games-dialog').close();
        conn.send({ type: 'view_game', index: g.index });
      });
    }
    body.append(tr);
  }
  $('games-list').hidden = false;
  if (!$('games-dialog').open) $('games-dialog').showModal();
}

$('open-pgn').addEventListener('click', openGames);
// A phone shows the less used buttons after "More…".
$('more').addEventListener('click', () => {
  const open = $('more').getAttribute('aria-expanded') !== 'true';
  $('more').setAttribute('aria-expanded', String(open));
  $('more').textContent = open ? 'Less' : 'More…';
});
$('edit').addEventListener('click', () => {
  if (!app.state) return;
  pieceView.close(false);
  app.selection = null;
  paintSelection();
  editor.open(app.variant, app.shown ?? app.state);
  render();
});
$('edit-done').addEventListener('click', () => render());
$('pgn-file').addEventListener('change', async (e) => {
  const f = e.target.files[0];
  if (f) loadPgn(await f.text());
});
$('pgn-open').addEventListener('click', () => loadPgn($('pgn-text').value));

// Buttons and keys.

$('new-game').addEventListener('click', () => dialog.open(app.state));
$('rules').addEventListener('click', () => app.variant && rulesDialog.open(app.variant, true));
$('sound').checked = localStorage.getItem('strata-sound') === 'on';
$('sound').addEventListener('change', () => localStorage.setItem('strata-sound', $('sound').checked ? 'on' : 'off'));
$('view-toggle').addEventListener('click', () => setView(app.view === '3d' ? '2d' : '3d'));
$('ortho').addEventListener('change', () => view3d?.setOrthographic($('ortho').checked));
$('takeback').addEventListener('click', () => conn.send({ type: 'takeback' }));
$('flip').addEventListener('click', () => {
  app.flipped = !app.flipped;
  boards.setFlipped(app.flipped);
  render();
});
$('resign').addEventListener('click', () => {
  if (confirm('Resign this game?')) conn.send({ type: 'resign' });
});
$('draw').addEventListener('click', () => conn.send({ type: 'draw_offer' }));
$('draw-accept').addEventListener('click', () => conn.send({ type: 'draw_answer', accept: true }));
$('draw-decline').addEventListener('click', () => conn.send({ type: 'draw_answer', accept: false }));
$('export').addEventListener('click', () => conn.send({ type: 'get_pgn' }));
$('import').addEventListener('click', importGame);
$('pass').addEventListener('click', () => play('0000'));
$('nav-first').addEventListener('click', () => nav('start'));
$('nav-prev').addEventListener('click', () => nav('back'));
$('nav-next').addEventListener('click', () => nav('forward'));
$('nav-last').addEventListener('click', () => nav('end'));
$('typed-move').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('typed-move-input').value.trim();
  if (!text) return;
  if (!myTurn()) {
    showMessage('It is not your move.');
    return;
  }
  $('typed-move-input').value = '';
  play(text);
  app.typed = true;
});
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select, dialog')) return;
  const s = app.state;
  const keys = {
    ArrowLeft: () => nav('back'),
    ArrowRight: () => nav('forward'),
    Home: () => nav('start'),
    End: () => nav('end'),
    f: () => $('flip').click(),
    a: () => analysing() && analysis.toggle(),
    v: () => $('view-toggle').click(),
    o: () => openGames(),
    e: () => $('edit').click(),
    '/': () => $('typed-move-input').focus(),
    n: () => $('new-game').click(),
    t: () => $('takeback').click(),
    r: () => $('rules').click(),
    Escape: () => {
      $('chooser').hidden = true;
      if (pieceView.active) pieceView.close();
      else select(null);
    },
  };
  if (keys[e.key]) {
    e.preventDefault();
    keys[e.key]();
  }
});
document.addEventListener('pointerdown', (e) => {
  // A press on the board closes it in press() (and may open it again).
  if (!e.target.closest('#chooser, #board, #board3d')) $('chooser').hidden = true;
});
