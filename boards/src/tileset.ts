/**
 * The RoboRally tileset for the Tiled map editor (docs/tiled.md): which tiles it holds, the
 * properties that give each its meaning, and the picture of each, drawn here by a tiny rasteriser
 * and written as a PNG tile sheet by a tiny encoder (node:zlib only). Pure and deterministic: the
 * committed boards/tiled/roborally.tsj and roborally.png are `tilesetJson()` and `tilesetPng()`
 * (boards/src/tiled.test.ts checks it); `writeTileset` in tiled-files.ts writes them again.
 */
import { deflateSync, inflateSync } from 'node:zlib';

/** Tile size in pixels. */
export const TILE = 64;
/** Tiles per row of the sheet. */
export const COLUMNS = 10;
/** The tileset's name, and its file names in boards/tiled/. */
export const TILESET_NAME = 'roborally';
export const TILESET_FILE = 'roborally.tsj';
export const TILESET_IMAGE = 'roborally.png';

/** What a tile means: its class (Tiled's "type") and its custom properties. */
export interface TileMeaning {
  readonly type: string;
  readonly properties: Readonly<Record<string, string | number>>;
}

// ---------------------------------------------------------------------------------------------
// The tiles, in sheet order. Tile ids are positions on the sheet; the importer never relies on
// them, only on the properties.

const SIDES = 'NESW';
/** A set of sides as text, "NESW" order: bit d of the mask is side d (N 1, E 2, S 4, W 8). */
export const sidesName = (mask: number): string => [...SIDES].filter((_, d) => mask & (1 << d)).join('');

/** Every floor token, the tileset's order. `x` is "no floor": a cell outside the course. */
export const FLOOR_TOKENS: readonly string[] = [
  '.', 'x', 'O', '^', '>', 'v', '<', '^^', '>>', 'vv', '<<', 'G+', 'G-', 'W', 'WW', '~', 'RF', 'C',
  'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T8', 'T9',
];

interface TileDef extends TileMeaning {
  readonly draw: (c: Canvas) => void;
}

type Pt = readonly [number, number];
type Poly = readonly Pt[];
type Color = readonly [number, number, number, number];

const hex = (s: string, alpha = 1): Color => [
  parseInt(s.slice(1, 3), 16) / 255, parseInt(s.slice(3, 5), 16) / 255, parseInt(s.slice(5, 7), 16) / 255, alpha,
];

/** Supersampling: each tile is drawn at SS×SS samples per pixel, then averaged. */
const SS = 4;
const SIZE = TILE * SS;

/** One tile being drawn, in tile units (0…64, y down), as premultiplied RGBA samples. */
class Canvas {
  readonly s = new Float64Array(SIZE * SIZE * 4);

  /** Fills polygons with the nonzero winding rule (a hole is a polygon the other way round). */
  fill(polys: readonly Poly[], color: Color): void {
    const [r, g, b, a] = color;
    const crossings: [number, number][] = [];
    for (let py = 0; py < SIZE; py++) {
      const y = (py + 0.5) / SS;
      crossings.length = 0;
      for (const poly of polys) {
        for (let i = 0; i < poly.length; i++) {
          const [x0, y0] = poly[i]!;
          const [x1, y1] = poly[(i + 1) % poly.length]!;
          if ((y0 <= y && y < y1) || (y1 <= y && y < y0)) {
            crossings.push([x0 + ((y - y0) * (x1 - x0)) / (y1 - y0), y1 > y0 ? 1 : -1]);
          }
        }
      }
      if (crossings.length === 0) continue;
      crossings.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
      let winding = 0;
      for (let k = 0; k < crossings.length - 1; k++) {
        winding += crossings[k]![1];
        if (winding === 0) continue;
        const from = Math.max(0, Math.ceil(crossings[k]![0] * SS - 0.5));
        const to = Math.min(SIZE, Math.ceil(crossings[k + 1]![0] * SS - 0.5));
        for (let px = from; px < to; px++) {
          const o = (py * SIZE + px) * 4;
          const keep = 1 - a;
          this.s[o] = r * a + this.s[o]! * keep;
          this.s[o + 1] = g * a + this.s[o + 1]! * keep;
          this.s[o + 2] = b * a + this.s[o + 2]! * keep;
          this.s[o + 3] = a + this.s[o + 3]! * keep;
        }
      }
    }
  }

  /** The tile at 64×64, straight (not premultiplied) RGBA bytes, into `out` at (ox, oy). */
  blit(out: Uint8Array, outWidth: number, ox: number, oy: number): void {
    const n = SS * SS;
    for (let y = 0; y < TILE; y++) {
      for (let x = 0; x < TILE; x++) {
        let r = 0, g = 0, b = 0, a = 0;
        for (let sy = 0; sy < SS; sy++) {
          for (let sx = 0; sx < SS; sx++) {
            const o = ((y * SS + sy) * SIZE + x * SS + sx) * 4;
            r += this.s[o]!; g += this.s[o + 1]!; b += this.s[o + 2]!; a += this.s[o + 3]!;
          }
        }
        const o = ((oy + y) * outWidth + ox + x) * 4;
        const alpha = Math.round((a / n) * 255);
        if (alpha === 0) continue;
        out[o] = Math.round(Math.min(1, r / a) * 255);
        out[o + 1] = Math.round(Math.min(1, g / a) * 255);
        out[o + 2] = Math.round(Math.min(1, b / a) * 255);
        out[o + 3] = alpha;
      }
    }
  }
}

// Shapes, in tile units.
const rect = (x: number, y: number, w: number, h: number): Poly => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
const circle = (cx: number, cy: number, r: number, steps = 48): Poly =>
  Array.from({ length: steps }, (_, i): Pt => [cx + r * Math.cos((2 * Math.PI * i) / steps), cy + r * Math.sin((2 * Math.PI * i) / steps)]);
const reversed = (p: Poly): Poly => [...p].reverse();
const ring = (cx: number, cy: number, outer: number, inner: number): Poly[] => [circle(cx, cy, outer), reversed(circle(cx, cy, inner))];
/** Turns a shape drawn for facing N to face `d` (quarter turns clockwise about the centre). */
const turn = (p: Poly, d: number): Poly =>
  p.map(([x, y]): Pt => {
    for (let k = 0; k < d; k++) [x, y] = [TILE - y, x];
    return [x, y];
  });
const mirror = (p: Poly): Poly => p.map(([x, y]): Pt => [TILE - x, y]);

/** A 5×7 pixel font for the few letters the tiles show: seven rows of five per glyph. */
const FONT: Record<string, string> = Object.fromEntries(Object.entries({
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['#####', '...#.', '..#..', '...#.', '....#', '#...#', '.###.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '5': ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  '6': ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  '9': ['.###.', '#...#', '#...#', '.####', '....#', '...#.', '.##..'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '##.##', '#...#'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  '?': ['.###.', '#...#', '....#', '...#.', '..#..', '.....', '..#..'],
}).map(([ch, rows]) => [ch, rows.join('')]));

const glyphRects = (text: string, cx: number, cy: number, scale: number): Poly[] => {
  const w = text.length * 6 * scale - scale;
  const x0 = cx - w / 2, y0 = cy - 3.5 * scale;
  const out: Poly[] = [];
  [...text].forEach((ch, i) => {
    const g = FONT[ch]!;
    for (let k = 0; k < 35; k++) if (g[k] === '#') out.push(rect(x0 + i * 6 * scale + (k % 5) * scale, y0 + Math.floor(k / 5) * scale, scale, scale));
  });
  return out;
};

const C = {
  floor: hex('#8c9399'), seam: hex('#5f666d'), rivet: hex('#6f767d'),
  void: hex('#24262a'), hatch: hex('#33363b'),
  pitRim: hex('#2b2b2b'), pit: hex('#0d0d0d'), pitCore: hex('#000000'),
  belt: hex('#3d4247'), rail: hex('#b8952a'), chevron: hex('#f0c43a'),
  express: hex('#1f4f8f'), expressRail: hex('#173a6a'), expressChevron: hex('#8fd0ff'),
  gearRight: hex('#3f9e4a'), gearLeft: hex('#c7443b'), hub: hex('#2b2b2b'), white: hex('#ffffff'),
  wrench: hex('#f2d14b'), wrench2: hex('#ef8a3c'), dark: hex('#2a2a2a'),
  oil: hex('#1b1d24'), oilShine: hex('#56607a'),
  repulsor: hex('#a9dde8'), repulsorRing: hex('#2f8fa3'),
  chop: hex('#b86a2e'),
  portalRing: hex('#6d3fb5'), portal: hex('#2a1450'), portalGlow: hex('#a47af5'),
  wall: hex('#e8b923'), wallEdge: hex('#5a4a10'),
  ledge: hex('#6b4a2b'), ledgeTooth: hex('#b07f4c'),
  ramp: hex('#4e8a57'), rampStripe: hex('#a6dcae'),
  mount: hex('#3a3a3a'), lens: hex('#666666'), beam: hex('#ff2a2a', 0.85),
  plate: hex('#5b6168'), arrow: hex('#f2c230'),
  jaw: hex('#565e66'), tooth: hex('#2e3338'),
  pole: hex('#333333'), flag: hex('#e23b3b'), start: hex('#2f9e44'),
};

function floorBase(c: Canvas): void {
  c.fill([rect(0, 0, TILE, TILE)], C.floor);
  c.fill([rect(0, 0, TILE, 1), rect(0, 63, TILE, 1), rect(0, 0, 1, TILE), rect(63, 0, 1, TILE)], C.seam);
  c.fill([circle(6, 6, 1.6, 12), circle(58, 6, 1.6, 12), circle(6, 58, 1.6, 12), circle(58, 58, 1.6, 12)], C.rivet);
}

function belt(c: Canvas, d: number, express: boolean): void {
  floorBase(c);
  c.fill([turn(rect(10, 0, 44, TILE), d)], express ? C.express : C.belt);
  c.fill([turn(rect(10, 0, 4, TILE), d), turn(rect(50, 0, 4, TILE), d)], express ? C.expressRail : C.rail);
  const chevron = (y: number): Poly => [[32, y], [46, y + 14], [46, y + 20], [32, y + 6], [18, y + 20], [18, y + 14]];
  const tops = express ? [2, 10, 34, 42] : [6, 26, 46];
  c.fill(tops.map((y) => turn(chevron(y), d)), express ? C.expressChevron : C.chevron);
}

function gear(c: Canvas, right: boolean): void {
  floorBase(c);
  const teeth = 10, outer = 27, inner = 21.5, step = (2 * Math.PI) / teeth;
  const body: Pt[] = [];
  for (let i = 0; i < teeth; i++) {
    const t = i * step;
    for (const [f, r] of [[-0.5, inner], [-0.22, inner], [-0.14, outer], [0.14, outer], [0.22, inner]] as const) {
      body.push([32 + r * Math.cos(t + f * step), 32 + r * Math.sin(t + f * step)]);
    }
  }
  c.fill([body], right ? C.gearRight : C.gearLeft);
  c.fill([circle(32, 32, 14)], C.hub);
  // A curved arrow, clockwise (angles grow clockwise with y down); mirrored for the left gear.
  const arc: Pt[] = [];
  const from = Math.PI * 0.75, to = Math.PI * 2.2;
  for (let i = 0; i <= 24; i++) { const t = from + ((to - from) * i) / 24; arc.push([32 + 10 * Math.cos(t), 32 + 10 * Math.sin(t)]); }
  for (let i = 24; i >= 0; i--) { const t = from + ((to - from) * i) / 24; arc.push([32 + 6.5 * Math.cos(t), 32 + 6.5 * Math.sin(t)]); }
  const tip = to + 0.55;
  const head: Poly = [
    [32 + 13 * Math.cos(to), 32 + 13 * Math.sin(to)],
    [32 + 8.25 * Math.cos(tip), 32 + 8.25 * Math.sin(tip)],
    [32 + 3.5 * Math.cos(to), 32 + 3.5 * Math.sin(to)],
  ];
  const shapes = [arc, head];
  c.fill(right ? shapes : shapes.map(mirror), C.white);
}

function wrench(c: Canvas, label: string, color: Color): void {
  floorBase(c);
  c.fill([circle(32, 32, 24)], C.dark);
  c.fill([circle(32, 32, 21)], color);
  c.fill(glyphRects(label, 32, 32, label.length > 1 ? 2.6 : 4), C.dark);
}

function portal(c: Canvas, n: string): void {
  floorBase(c);
  c.fill([circle(32, 32, 27)], C.portalRing);
  c.fill([circle(32, 32, 22)], C.portal);
  c.fill(ring(32, 32, 19, 17), C.portalGlow);
  c.fill(glyphRects(n, 32, 32, 3.6), C.white);
}

function noFloor(c: Canvas): void {
  c.fill([rect(0, 0, TILE, TILE)], C.void);
  const lines: Poly[] = [];
  for (let k = -64; k < 64; k += 12) lines.push([[k, 64], [k + 4, 64], [k + 68, 0], [k + 64, 0]]);
  c.fill(lines, C.hatch);
}

function pit(c: Canvas): void {
  floorBase(c);
  c.fill([rect(4, 4, 56, 56)], C.pitRim);
  c.fill([rect(9, 9, 46, 46)], C.pit);
  c.fill([rect(17, 17, 30, 30)], C.pitCore);
}

function oil(c: Canvas): void {
  floorBase(c);
  c.fill([circle(25, 33, 13), circle(39, 37, 12), circle(33, 23, 11), circle(44, 25, 7)], C.oil);
  c.fill([circle(29, 22, 3.5, 16), circle(21, 31, 2, 12)], C.oilShine);
}

function repulsor(c: Canvas): void {
  floorBase(c);
  c.fill([rect(5, 5, 54, 54)], C.repulsor);
  c.fill([...ring(32, 32, 26, 23), ...ring(32, 32, 17, 15)], C.repulsorRing);
  c.fill(glyphRects('RF', 32, 32, 2.2), C.dark);
}

function chopShop(c: Canvas): void {
  floorBase(c);
  c.fill([rect(6, 6, 52, 52)], C.chop);
  c.fill(glyphRects('C', 32, 32, 5), C.white);
}

/** Walls: a thick band on each side in the mask. */
function walls(c: Canvas, mask: number): void {
  for (let d = 0; d < 4; d++) {
    if (!(mask & (1 << d))) continue;
    c.fill([turn(rect(0, 0, TILE, 7), d)], C.wall);
    c.fill([turn(rect(0, 7, TILE, 1.5), d)], C.wallEdge);
  }
}

/** Ledges: a brown band with teeth pointing outward, down the drop. */
function ledges(c: Canvas, mask: number): void {
  for (let d = 0; d < 4; d++) {
    if (!(mask & (1 << d))) continue;
    c.fill([turn(rect(0, 0, TILE, 9), d)], C.ledge);
    const teeth: Poly[] = [];
    for (let x = 4; x < 60; x += 14) teeth.push(turn([[x, 8], [x + 10, 8], [x + 5, 1.5]], d));
    c.fill(teeth, C.ledgeTooth);
  }
}

/** Ramps: a wider green band with stripes along it, over the ledge. */
function ramps(c: Canvas, mask: number): void {
  for (let d = 0; d < 4; d++) {
    if (!(mask & (1 << d))) continue;
    c.fill([turn([[0, 0], [TILE, 0], [TILE - 6, 15], [6, 15]], d)], C.ramp);
    c.fill([turn(rect(8, 3.5, 48, 1.6), d), turn(rect(8, 7.5, 48, 1.6), d), turn(rect(8, 11.5, 48, 1.6), d)], C.rampStripe);
  }
}

/** A board laser firing `d`, its mount on the wall behind. */
function laser(c: Canvas, d: number, beams: number): void {
  const xs = beams === 1 ? [32] : beams === 2 ? [28, 36] : [25, 32, 39];
  c.fill(xs.map((x) => turn(rect(x - 1.25, 0, 2.5, 52), d)), C.beam);
  c.fill([turn(rect(20, 56, 24, 8), d)], C.mount);
  c.fill([turn(rect(23, 51, 18, 5), d)], C.lens);
}

/** A pusher pushing `d`, its plate on the wall behind. */
function pusher(c: Canvas, d: number): void {
  c.fill([turn(rect(8, 50, 48, 14), d)], C.plate);
  c.fill([turn([[32, 22], [48, 38], [39, 38], [39, 50], [25, 50], [25, 38], [16, 38]], d)], C.arrow);
}

function crusher(c: Canvas): void {
  c.fill([rect(4, 4, 56, 10), rect(4, 50, 56, 10)], C.jaw);
  const teeth: Poly[] = [];
  for (let x = 6; x < 58; x += 13) teeth.push([[x, 14], [x + 12, 14], [x + 6, 24]], [[x, 50], [x + 12, 50], [x + 6, 40]]);
  c.fill(teeth, C.tooth);
}

function flag(c: Canvas, label: string): void {
  c.fill([circle(20, 57, 6, 24)], C.pole);
  c.fill([rect(18, 6, 4, 52)], C.pole);
  c.fill([[[22, 6], [56, 6], [49, 19], [56, 32], [22, 32]]], C.flag);
  c.fill(glyphRects(label, 35, 19, 2.6), C.white);
}

function start(c: Canvas): void {
  c.fill([circle(32, 32, 22)], C.white);
  c.fill([circle(32, 32, 19)], C.start);
  c.fill(glyphRects('S', 32, 32, 4), C.white);
}

const DIRS = ['N', 'E', 'S', 'W'] as const;

function defineTiles(): TileDef[] {
  const tiles: TileDef[] = [];
  const floor = (token: string, draw: (c: Canvas) => void) => tiles.push({ type: 'floor', properties: { token }, draw });
  floor('.', floorBase);
  floor('x', noFloor);
  floor('O', pit);
  ['^', '>', 'v', '<'].forEach((t, d) => floor(t, (c) => belt(c, d, false)));
  ['^^', '>>', 'vv', '<<'].forEach((t, d) => floor(t, (c) => belt(c, d, true)));
  floor('G+', (c) => gear(c, true));
  floor('G-', (c) => gear(c, false));
  floor('W', (c) => wrench(c, 'W', C.wrench));
  floor('WW', (c) => wrench(c, 'WW', C.wrench2));
  floor('~', oil);
  floor('RF', repulsor);
  floor('C', chopShop);
  for (let n = 1; n <= 9; n++) floor(`T${n}`, (c) => portal(c, String(n)));
  for (const [type, draw] of [['walls', walls], ['ledges', ledges], ['ramps', ramps]] as const) {
    for (let mask = 1; mask < 16; mask++) tiles.push({ type, properties: { [type]: sidesName(mask) }, draw: (c) => draw(c, mask) });
  }
  DIRS.forEach((dir, d) => {
    for (let beams = 1; beams <= 3; beams++) tiles.push({ type: 'laser', properties: { dir, beams }, draw: (c) => laser(c, d, beams) });
  });
  DIRS.forEach((dir, d) => tiles.push({ type: 'pusher', properties: { dir }, draw: (c) => pusher(c, d) }));
  tiles.push({ type: 'crusher', properties: {}, draw: crusher });
  for (let n = 1; n <= 9; n++) tiles.push({ type: 'flag', properties: { number: n }, draw: (c) => flag(c, String(n)) });
  tiles.push({ type: 'flag', properties: {}, draw: (c) => flag(c, '?') });
  tiles.push({ type: 'start', properties: {}, draw: start });
  return tiles;
}

const TILES = defineTiles();

/** Every tile's meaning, by tile id (its position on the sheet). */
export const TILE_MEANINGS: readonly TileMeaning[] = TILES.map(({ type, properties }) => ({ type, properties }));

/** The tile id of the first tile of the sheet with this type whose properties include `props`. */
export function tileId(type: string, props: Readonly<Record<string, string | number>> = {}): number | undefined {
  const i = TILE_MEANINGS.findIndex(
    (t) => t.type === type && Object.entries(props).every(([k, v]) => t.properties[k] === v),
  );
  return i < 0 ? undefined : i;
}

const ROWS = Math.ceil(TILES.length / COLUMNS);

/** The Tiled tileset (.tsj) object: the sheet, and each tile's type and properties. */
export function tilesetJson(): Record<string, unknown> {
  return {
    type: 'tileset',
    version: '1.10',
    tiledversion: '1.10.2',
    name: TILESET_NAME,
    tilewidth: TILE,
    tileheight: TILE,
    tilecount: TILES.length,
    columns: COLUMNS,
    margin: 0,
    spacing: 0,
    image: TILESET_IMAGE,
    imagewidth: COLUMNS * TILE,
    imageheight: ROWS * TILE,
    properties: [
      { name: 'about', type: 'string', value: 'RoboRally board tiles: see docs/tiled.md. Tiles are matched by their properties, not by position.' },
    ],
    tiles: TILE_MEANINGS.map((t, id) => ({
      id,
      type: t.type,
      properties: Object.entries(t.properties).map(([name, value]) => ({
        name, type: typeof value === 'number' ? 'int' : 'string', value,
      })),
    })),
  };
}

/** The sheet's pixels: straight RGBA, COLUMNS tiles wide. */
export function tilesetPixels(): { width: number; height: number; rgba: Uint8Array } {
  const width = COLUMNS * TILE, height = ROWS * TILE;
  const rgba = new Uint8Array(width * height * 4);
  TILES.forEach((t, i) => {
    const c = new Canvas();
    t.draw(c);
    c.blit(rgba, width, (i % COLUMNS) * TILE, Math.floor(i / COLUMNS) * TILE);
  });
  return { width, height, rgba };
}

/** The sheet as a PNG file. */
export function tilesetPng(): Buffer {
  const { width, height, rgba } = tilesetPixels();
  return encodePng(width, height, rgba);
}

// ---------------------------------------------------------------------------------------------
// PNG: 8-bit RGBA, no interlace.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Uint8Array): number => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encodes straight RGBA pixels as a PNG (every row with the "Sub" filter). */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1);
    raw[o] = 1;
    for (let i = 0; i < stride; i++) raw[o + 1 + i] = (rgba[y * stride + i]! - (i >= 4 ? rgba[y * stride + i - 4]! : 0)) & 0xff;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', new Uint8Array(0))]);
}

/** Decodes an 8-bit RGBA, non-interlaced PNG (any row filters): enough to compare sheets by pixels. */
export function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (!buf.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let width = 0, height = 0;
  const idat: Buffer[] = [];
  for (let o = 8; o + 8 <= buf.length;) {
    const len = buf.readUInt32BE(o);
    const type = buf.toString('latin1', o + 4, o + 8);
    const data = buf.subarray(o + 8, o + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 6 || data[12] !== 0) throw new Error('expected an 8-bit RGBA PNG without interlace');
    } else if (type === 'IDAT') idat.push(data);
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const rgba = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    for (let i = 0; i < stride; i++) {
      const a = i >= 4 ? rgba[y * stride + i - 4]! : 0;
      const b = y > 0 ? rgba[(y - 1) * stride + i]! : 0;
      const c = i >= 4 && y > 0 ? rgba[(y - 1) * stride + i - 4]! : 0;
      const x = raw[src + i]!;
      let v: number;
      if (filter === 0) v = x;
      else if (filter === 1) v = x + a;
      else if (filter === 2) v = x + b;
      else if (filter === 3) v = x + ((a + b) >> 1);
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      } else throw new Error(`unknown PNG row filter ${filter}`);
      rgba[y * stride + i] = v & 0xff;
    }
  }
  return { width, height, rgba };
}
