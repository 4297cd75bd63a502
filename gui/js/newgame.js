// The new game: from the URL (`/?token=T&variant=NAME&side=white|black`, in the four-colour
// game `&seats=white,gold`, optionally `&nodes=N`, `&clock=300+3`, `&fen=F`, `&moves=M1,M2,...`,
// `&mode=analysis`, `&view=3d`) or from the
// dialog (variant, who plays each colour, clock or engine limit, engine strength, start).

import { COLOURS } from './pieces.js';

const $ = (id) => document.getElementById(id);
const COLOUR_NAMES = COLOURS.map((c) => c.name.toLowerCase());

/**
 * The new-game form's first choice, for a newcomer: a clock of 5 min + 3 s (index.html) and
 * the engine at the level nearest this Elo, which answers within a few seconds (a level's
 * search is limited in nodes, README "Strength levels"), rather than at full strength.
 */
const NEWCOMER_ELO = 1200;

/** Strength levels by name, for an engine that declares `UCI_Elo` (and limits by it). */
function eloLevels(decl) {
  const num = (k) => Number((decl.match(new RegExp(`${k} (-?\\d+)`)) ?? [])[1]);
  const min = num('min');
  const max = num('max');
  if (!Number.isFinite(min) || !Number.isFinite(max) || max <= min) return [];
  const name = (elo) => (elo < 1000 ? 'Beginner' : elo < 1400 ? 'Novice' : elo < 1800 ? 'Club player' : elo < 2200 ? 'Expert' : 'Master');
  const levels = [];
  const step = Math.max(100, Math.round((max - min) / 8 / 100) * 100);
  for (let e = min; e < max; e += step) levels.push(e);
  return levels.map((e) => ({ label: `${name(e)} (Elo ${e})`, elo: e, options: [['UCI_LimitStrength', 'true'], ['UCI_Elo', String(e)]] }));
}

/** The strength choices the engine's options allow: `UCI_Elo` levels, else `Skill Level`. */
export function strengthChoices(engine) {
  if (!engine) return [];
  const opt = (n) => engine.options.find(([name]) => name.toLowerCase() === n.toLowerCase());
  const elo = opt('UCI_Elo');
  if (elo && opt('UCI_LimitStrength')) return eloLevels(elo[1]);
  const skill = opt('Skill Level');
  if (skill) {
    const max = Number((skill[1].match(/max (\d+)/) ?? [])[1] ?? 20);
    const out = [];
    for (let s = 0; s < max; s += Math.max(1, Math.round(max / 10))) out.push({ label: `Skill level ${s}`, skill: s / max, options: [['Skill Level', String(s)]] });
    return out;
  }
  return [];
}

/** The index of the choice a newcomer starts with: the Elo nearest NEWCOMER_ELO, or a
 * quarter of the way up the skill levels. */
export function newcomerChoice(choices) {
  if (!choices.length) return -1;
  const distance = (c) => (c.elo !== undefined ? Math.abs(c.elo - NEWCOMER_ELO) : Math.abs(c.skill - 0.25) * 1e4);
  let best = 0;
  choices.forEach((c, i) => {
    if (distance(c) < distance(choices[best])) best = i;
  });
  return best;
}

/** The game the URL asks for, or null. */
export function gameFromUrl(hello) {
  const q = new URLSearchParams(location.search);
  const name = q.get('variant');
  if (!name) return null;
  const variant = hello.variants.find((v) => v.name === name);
  const colours = variant ? variant.colours : 2;
  let human;
  if (q.get('seats')) {
    human = new Set(q.get('seats').split(',').map((s) => COLOUR_NAMES.indexOf(s.trim().toLowerCase())));
  } else {
    const side = (q.get('side') ?? 'white').toLowerCase();
    const c = COLOUR_NAMES.indexOf(side);
    // A side names a team in the four-colour game: White means White and Gold.
    human = new Set([...Array(colours).keys()].filter((i) => (i & 1) === ((c < 0 ? 0 : c) & 1)));
    if (side === 'both' || side === 'none') human = new Set(side === 'both' ? [...Array(colours).keys()] : []);
  }
  const msg = {
    type: 'new_game',
    variant: name,
    seats: [...Array(colours).keys()].map((i) => (human.has(i) ? 'human' : 'engine')),
  };
  if (q.get('nodes')) msg.engine_limit = { nodes: Number(q.get('nodes')) };
  // `clock=300+3`: seconds and increment, as the new-game form's clocks (a URL's `+` reads
  // as a space).
  const clock = /^(\d+)[+ ](\d+)$/.exec(q.get('clock') ?? '');
  if (clock) msg.clock = { base_ms: Number(clock[1]) * 1000, inc_ms: Number(clock[2]) * 1000 };
  if (q.get('fen')) msg.fen = q.get('fen');
  if (q.get('moves')) msg.moves = q.get('moves').split(',').map((m) => m.trim()).filter((m) => m);
  if (q.get('mode') === 'analysis') msg.mode = 'analysis';
  return msg;
}

/** The new-game dialog. `start(msg)` receives the `new_game` message; `showRules(variant)`
 * opens the rules of the variant chosen. */
export class NewGameDialog {
  constructor(start, showRules) {
    this.start = start;
    this.hello = null;
    this.dialog = $('new-game-dialog');
    $('ng-variant').addEventListener('change', () => {
      this.describe();
      this.seats();
    });
    $('ng-rules').addEventListener('click', () => showRules(this.variant()));
    $('ng-cancel').addEventListener('click', () => this.dialog.close());
    $('new-game-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.dialog.close();
      this.start(this.message());
    });
  }

  setHello(hello) {
    this.hello = hello;
    // Each variant by its full name; its line on what is special is the option's title and
    // is shown under the list for the one chosen.
    const sel = $('ng-variant');
    sel.replaceChildren(...hello.variants.map((v) => {
      const o = new Option(v.title, v.name);
      o.title = v.summary;
      return o;
    }));
    this.describe();
    const box = $('ng-strength');
    box.querySelectorAll(':not(legend)').forEach((e) => e.remove());
    const choices = strengthChoices(hello.engine);
    const label = document.createElement('label');
    if (choices.length) {
      const s = document.createElement('select');
      s.id = 'ng-strength-select';
      s.append(new Option('Full strength', ''));
      choices.forEach((c, i) => s.append(new Option(c.label, String(i))));
      s.value = String(newcomerChoice(choices));
      label.append('Level ', s);
    } else {
      label.textContent = hello.engine
        ? 'This engine has no strength options: choose its strength by its limit per move above.'
        : 'No engine is available.';
    }
    box.append(label);
    this.choices = choices;
    this.seats();
  }

  /** The variant chosen (its `hello` entry). */
  variant() {
    return this.hello.variants.find((x) => x.name === $('ng-variant').value);
  }

  /** The chosen variant's line, under the list. */
  describe() {
    const v = this.variant();
    $('ng-variant-summary').textContent = v ? `${v.title}: ${v.summary}.` : '';
    $('ng-rules').title = v ? `The rules of ${v.title}` : '';
  }

  /** One row per colour: a person or the engine. */
  seats(preset) {
    const v = this.variant();
    const box = $('ng-seats');
    box.querySelectorAll(':not(legend)').forEach((e) => e.remove());
    for (let c = 0; c < v.colours; c++) {
      const row = document.createElement('label');
      row.className = 'seat-row';
      const s = document.createElement('select');
      s.name = `seat${c}`;
      s.dataset.colour = c;
      s.append(new Option('Me (a person)', 'human'), new Option('The engine', 'engine'));
      s.value = preset ? preset[c] : (c & 1) === 0 ? 'human' : 'engine';
      row.append(`${COLOURS[c].name}: `, s);
      box.append(row);
    }
  }

  open(current) {
    if (!this.hello) return;
    if (current) $('ng-variant').value = current.variant;
    if (current) $('ng-mode').value = current.mode ?? 'play';
    this.describe();
    this.seats(current ? current.seats : null);
    this.dialog.showModal();
  }

  message() {
    const f = $('new-game-form');
    const msg = {
      type: 'new_game',
      variant: $('ng-variant').value,
      seats: [...f.querySelectorAll('#ng-seats select')].map((s) => s.value),
    };
    const clock = $('ng-clock').value;
    if (clock) {
      const [base, inc] = clock.split('+').map(Number);
      msg.clock = { base_ms: base * 1000, inc_ms: inc * 1000 };
    }
    const [kind, n] = $('ng-limit').value.split(':');
    msg.engine_limit = kind === 'nodes' ? { nodes: Number(n) } : { movetime_ms: Number(n) };
    const strength = $('ng-strength-select');
    if (strength && strength.value !== '') msg.engine_options = this.choices[Number(strength.value)].options;
    if (f.elements.start.value === 'fen' && $('ng-fen').value.trim()) msg.fen = $('ng-fen').value.trim();
    if ($('ng-mode').value === 'analysis') msg.mode = 'analysis';
    return msg;
  }
}
