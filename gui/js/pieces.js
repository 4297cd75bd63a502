// Piece glyphs as SVG, drawn here (no font or image needed). A piece is drawn by its name as
// the rules layer gives it: the classic shapes for King, Queen, Rook, Bishop, Knight and
// Pawn, with marks for their variants (a missile on Fortress and Missile Bishop, a blast on
// the Kamikaze Queen, a crown on the Crowned Knight), own shapes for the Pole and the Bomb,
// and for every other kind a round token with its letter, so that a variant added to the
// rules has a legible glyph for each of its pieces.

/** The four colours: fill, outline and the colour of details drawn on the fill. */
export const COLOURS = [
  { name: 'White', fill: '#fbfbf8', stroke: '#1a1a1a', detail: '#1a1a1a' },
  { name: 'Black', fill: '#28231f', stroke: '#050505', detail: '#f2efe8' },
  { name: 'Gold', fill: '#f2c230', stroke: '#4d3800', detail: '#4d3800' },
  { name: 'Silver', fill: '#8fa6c1', stroke: '#101c2a', detail: '#101c2a' },
];

const BASE = '<rect x="24" y="80" width="52" height="11" rx="3"/>';

// Shapes: body drawn with the piece's fill and outline; `detail` with the detail colour.
const SHAPES = {
  pawn: {
    body: '<circle cx="50" cy="28" r="13"/><path d="M36 50 Q50 40 64 50 L59 57 Q66 68 70 80 H30 Q34 68 41 57 Z"/>' + BASE,
  },
  rook: {
    body: '<path d="M26 14 H37 V23 H44 V14 H56 V23 H63 V14 H74 V34 L66 40 V70 L74 77 V80 H26 V77 L34 70 V40 L26 34 Z"/>' + BASE,
    detail: '<rect x="34" y="38" width="32" height="4"/>',
  },
  bishop: {
    body: '<circle cx="50" cy="13" r="7"/><path d="M50 20 C67 32 71 47 62 59 H38 C29 47 33 32 50 20 Z"/><path d="M39 61 H61 L65 78 H35 Z"/>' + BASE,
    detail: '<path d="M54 29 L45 45 L49 47 L58 31 Z"/>',
  },
  knight: {
    body: '<path d="M30 80 C30 62 39 55 45 47 C39 49 31 53 25 50 C20 46 23 39 29 35 C36 29 42 21 50 15 L53 7 L59 16 C71 20 79 35 77 54 C76 64 71 72 71 80 Z"/>' + BASE,
    detail: '<circle cx="46" cy="29" r="3.5"/>',
  },
  queen: {
    body: '<path d="M20 34 L32 66 H68 L80 34 L64 50 L60 24 L50 48 L40 24 L36 50 Z"/><circle cx="20" cy="31" r="6"/><circle cx="40" cy="21" r="6"/><circle cx="60" cy="21" r="6"/><circle cx="80" cy="31" r="6"/><path d="M32 66 H68 L72 79 H28 Z"/>' + BASE,
    detail: '<rect x="33" y="64" width="34" height="4"/>',
  },
  king: {
    body: '<path d="M46 4 H54 V12 H62 V20 H54 V30 H46 V20 H38 V12 H46 Z"/><path d="M23 45 C23 35 37 33 50 40 C63 33 77 35 77 45 C77 53 71 60 67 66 H33 C29 60 23 53 23 45 Z"/><path d="M33 66 H67 L71 79 H29 Z"/>' + BASE,
    detail: '<rect x="34" y="64" width="32" height="4"/>',
  },
  pole: {
    body: '<rect x="42" y="18" width="16" height="62" rx="3"/><circle cx="50" cy="15" r="9"/>' + BASE,
    detail: '<rect x="42" y="36" width="16" height="7"/><rect x="42" y="56" width="16" height="7"/>',
  },
  bomb: {
    body: '<circle cx="46" cy="58" r="29"/><rect x="52" y="22" width="16" height="13" rx="2" transform="rotate(38 60 28)"/>',
    detail: '<path d="M34 46 A14 14 0 0 1 46 38" fill="none" stroke-width="5"/>',
    extra: '<path d="M66 21 Q71 8 83 10" fill="none" stroke="#6b4a1a" stroke-width="4"/>' +
      '<path d="M84 2 L87 9 L95 8 L89 13 L93 20 L85 16 L79 21 L80 13 L74 9 L82 8 Z" fill="#ff8c1a" stroke="#a33c00" stroke-width="1.5"/>',
  },
};

// Marks drawn on top of a shape.
const MARKS = {
  missile: '<path d="M72 30 L92 8 L94 24 Z M72 30 L76 12 L92 8 Z" fill="#d23a2a" stroke="#5a0d05" stroke-width="2"/>',
  blast: '<path d="M80 4 L84 14 L95 11 L88 20 L97 27 L86 28 L87 39 L79 31 L71 37 L73 27 L63 24 L73 19 L70 9 Z" fill="#ff7a1a" stroke="#8a2a00" stroke-width="2"/>',
  crown: '<path d="M56 12 L60 2 L65 10 L71 2 L73 13 Z" fill="#f5c518" stroke="#5a4000" stroke-width="2"/>',
};

// Piece names (from the rules layer) to a shape and marks.
const BY_NAME = {
  'King': ['king'],
  'Queen': ['queen'],
  'True Queen': ['queen'],
  'Kamikaze Queen': ['queen', 'blast'],
  'Rook': ['rook'],
  'Fortress': ['rook', 'missile'],
  'Bishop': ['bishop'],
  'Missile Bishop': ['bishop', 'missile'],
  'Knight': ['knight'],
  'Crowned Knight': ['knight', 'crown'],
  'Pawn': ['pawn'],
  'Pole': ['pole'],
  'Bomb': ['bomb'],
  'Satellite': [null, 'missile'],
};

function token(letter, c) {
  return `<circle cx="50" cy="52" r="38" fill="${c.fill}" stroke="${c.stroke}" stroke-width="5"/>` +
    `<circle cx="50" cy="52" r="31" fill="none" stroke="${c.detail}" stroke-width="2" opacity="0.55"/>` +
    `<text x="50" y="53" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" ` +
    `font-weight="bold" font-size="44" fill="${c.detail}">${letter}</text>`;
}

/**
 * The SVG text of a piece.
 * @param {{name: string, letter: string}} kind the kind as the rules layer names it
 * @param {number} colour 0 White, 1 Black, 2 Gold, 3 Silver
 */
export function pieceSvg(kind, colour) {
  const c = COLOURS[colour] ?? COLOURS[0];
  const [shape, ...marks] = BY_NAME[kind.name] ?? [null];
  let inner;
  if (shape) {
    const s = SHAPES[shape];
    inner = `<g fill="${c.fill}" stroke="${c.stroke}" stroke-width="4" stroke-linejoin="round">${s.body}</g>` +
      (s.detail ? `<g fill="${c.detail}" stroke="${c.detail}" stroke-width="0">${s.detail}</g>` : '') +
      (s.extra ?? '');
  } else {
    inner = token(kind.letter, c);
  }
  inner += marks.map((m) => MARKS[m] ?? '').join('');
  const title = `${c.name} ${kind.name}`;
  return `<svg viewBox="0 0 100 100" role="img" aria-label="${title}"><title>${title}</title>${inner}</svg>`;
}
