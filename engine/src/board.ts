/**
 * The factory floor: a grid of cells with walls on their edges and devices on and over them.
 * `parseBoard` reads the `board` object of SCENARIOS.md, the one board grammar of the project.
 */
import { type Dir, DX, DY, parseDir, reverse, type Square } from './geometry.js';
import { err, ok, type Result } from './result.js';
import type { Fold } from './cube.js';

export const enum Floor {
  Plain = 0,
  Pit = 1,
  Belt = 2,
  Express = 3,
  GearRight = 4,
  GearLeft = 5,
  Wrench = 6,
  DoubleWrench = 7,
  Oil = 8,
  Portal = 9,
  Repulsor = 10,
  ChopShop = 11,
  /** No floor: a cell of a course's bounding box that no board covers. Entering it is leaving the board. */
  Void = 12,
}

export interface BoardLaser {
  readonly x: number;
  readonly y: number;
  readonly dir: Dir;
  readonly beams: number;
}
export interface Pusher {
  readonly x: number;
  readonly y: number;
  readonly dir: Dir;
  /** Bit r-1 set: active in register r. */
  readonly registers: number;
}
export interface Crusher {
  readonly x: number;
  readonly y: number;
  readonly registers: number;
}

export interface Board {
  readonly width: number;
  readonly height: number;
  /** Per cell (index y * width + x): a Floor. */
  readonly floor: Uint8Array;
  /** Per belt cell: the direction it carries. */
  readonly beltDir: Uint8Array;
  /** Per cell: walls on its sides, bit d for facing d (N 1, E 2, S 4, W 8); both sides are set. */
  readonly walls: Uint8Array;
  /** Per cell: ledge sides, the cell being the upper level (003 L87). */
  readonly ledges: Uint8Array;
  /** Per cell: ramp sides over a ledge. */
  readonly ramps: Uint8Array;
  /** Per cell: bit d set if leaving it in direction d climbs a ledge. */
  readonly climb: Uint8Array;
  /** Per cell: bit d set if leaving it in direction d drops down a ledge. */
  readonly drop: Uint8Array;
  /** Per cell: bit d set if the ledge crossed leaving it in direction d has a ramp. */
  readonly ramp: Uint8Array;
  /** Per portal cell: the cell index of its pair, else -1. */
  readonly portalPair: Int32Array;
  /** Per portal cell: its label's number (T3: 3), else 0. */
  readonly portalLabel: Uint8Array;
  /** Per cell: 1 + the index of the flag there, or 0. */
  readonly flagAt: Uint8Array;
  /**
   * Per cell and direction (index cell * 4 + d): how many squares a laser beam fired from the cell
   * in direction d crosses before a wall, a ledge met from below, the edge or a hole in the course
   * stops it.
   */
  readonly reach: Uint16Array;
  /**
   * The board lasers' beams by cell: for cell c, entries beamFrom[c] to beamFrom[c + 1] - 1 of
   * `beamLaser` (which laser) and `beamDistance` (squares from the mount's cell) reach it.
   */
  readonly beamFrom: Int32Array;
  readonly beamLaser: Int32Array;
  readonly beamDistance: Int32Array;
  readonly flags: readonly Square[];
  readonly lasers: readonly BoardLaser[];
  readonly pushers: readonly Pusher[];
  readonly crushers: readonly Crusher[];
  /** Per cell: the registers (bit r-1) in which a crusher there is active, or 0. */
  readonly crusherAt: Uint8Array;
  /** Per cell: the registers (bit r-1) in which a pusher there is active, or 0. */
  readonly pusherAt: Uint8Array;
  /**
   * Per cell: 1 on a flag, a wrench or a double wrench, where a robot ending a register touches
   * something (phases/checkpoints.ts); one look instead of the flag table and the floor.
   */
  readonly siteAt: Uint8Array;
  /**
   * Per cell: bit d set if a step from it in direction d meets nothing but floor (no wall, ledge,
   * edge, pit, hole, repulsor field, oil or portal on the way or on arrival): moving robots check
   * this one entry before the element rules (movement.ts).
   */
  readonly plainStep: Uint8Array;
  /**
   * The per-cell tables the register steps read for a robot's square, packed four 32-bit words a
   * cell (`packCells`), so that a square's facts share one cache line instead of one line in each
   * of eight tables: word 0 floor | beltDir << 8 | plainStep << 16 | siteAt << 24; word 1 pusherAt
   * | crusherAt << 8; word 2 reach in directions 0-3, a byte each; word 3 beamFrom. One cell more
   * at the end holds beamFrom's last entry. The separate tables stay the reference
   * (board.test.ts checks the two agree).
   */
  readonly cells: Int32Array;
  readonly start: Square | null;
  /** A cube course (004 L179): how its boards are folded (cube.ts `foldNet`). */
  readonly fold?: Fold;
  /**
   * A cube course played inside the cube: per cell * 4 + d, the cell over a board edge where a
   * beam fired from the cell in direction d ends, in the first row across (004 L179), else -1.
   */
  readonly beyond?: Int32Array;
}

/** True where there is floor to stand on: on the board and not a hole in the course. */
export const hasFloor = (b: Board, x: number, y: number): boolean =>
  x >= 0 && y >= 0 && x < b.width && y < b.height && b.floor[y * b.width + x] !== Floor.Void;
export const wallAt = (b: Board, x: number, y: number, d: Dir): boolean =>
  (b.walls[y * b.width + x]! & (1 << d)) !== 0;

/**
 * Why no robot can stand on (x, y), or null if one can: off the board, where no board is, a pit
 * (000 L207), a repulsor field (no robot enters one). Starts and archives must be standable.
 */
export function cannotStand(b: Board, x: number, y: number): string | null {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= b.width || y >= b.height) return `(${x},${y}) is off the ${b.width}x${b.height} board`;
  const f = b.floor[y * b.width + x];
  if (f === Floor.Void) return `(${x},${y}) is where no board is`;
  if (f === Floor.Pit) return `(${x},${y}) is a pit`;
  if (f === Floor.Repulsor) return `(${x},${y}) is a repulsor field, which no robot enters`;
  return null;
}

/** The largest board or course: 48 squares a side (four 12x12 boards in a row). */
export const MAX_BOARD_SIDE = 48;

/**
 * One frozen [x, y] for every square of the largest board, built once: the events that name a
 * square share it, so a move, a push, a shot or a belt's carry allocates no pair for its squares.
 */
const SQUARES: readonly Square[] = Array.from({ length: MAX_BOARD_SIDE * MAX_BOARD_SIDE }, (_, c) =>
  Object.freeze([c % MAX_BOARD_SIDE, (c - (c % MAX_BOARD_SIDE)) / MAX_BOARD_SIDE] as const),
);

/** The square (x, y) as events name it: the shared frozen pair, or a new one off the board (a fall past an edge). */
export const square = (x: number, y: number): Square =>
  x >= 0 && y >= 0 && x < MAX_BOARD_SIDE && y < MAX_BOARD_SIDE ? SQUARES[y * MAX_BOARD_SIDE + x]! : [x, y];
/**
 * `square` of a square known to be on the board (a robot on the floor, a laser, a plain step's
 * end): the shared pair, with no test. Its few bytes of code cost the optimizer's inlining budget
 * almost nothing, where `square`'s test, inlined at every event's squares, cost the hot moves the
 * budget that inlined them into their callers (docs/performance.md, engine events, 2026-11-30).
 */
export const boardSquare = (x: number, y: number): Square => SQUARES[y * MAX_BOARD_SIDE + x]!;
/** The most flags a board or course holds. */
export const MAX_FLAGS = 16;
/** The longest text a board or course file holds (its name, author or description). */
export const MAX_TEXT = 2000;
/** The longest list of edges or devices a board holds: four per square of the largest board. */
export const MAX_BOARD_LIST = 4 * MAX_BOARD_SIDE * MAX_BOARD_SIDE;

/** The cell tokens of SCENARIOS.md. */
const TOKENS: Record<string, [Floor, Dir?]> = {
  '.': [Floor.Plain],
  O: [Floor.Pit],
  '^': [Floor.Belt, 0],
  '>': [Floor.Belt, 1],
  v: [Floor.Belt, 2],
  '<': [Floor.Belt, 3],
  '^^': [Floor.Express, 0],
  '>>': [Floor.Express, 1],
  vv: [Floor.Express, 2],
  '<<': [Floor.Express, 3],
  'G+': [Floor.GearRight],
  'G-': [Floor.GearLeft],
  W: [Floor.Wrench],
  WW: [Floor.DoubleWrench],
  '~': [Floor.Oil],
  RF: [Floor.Repulsor],
  C: [Floor.ChopShop],
  x: [Floor.Void],
};

/** The JSON form of a board, as scenarios and board files write it. */
export interface BoardJson {
  grid: string[];
  walls?: string[];
  lasers?: { x: number; y: number; dir: string; beams?: number }[];
  pushers?: { x: number; y: number; dir: string; registers: number[] }[];
  crushers?: { x: number; y: number; registers: number[] }[];
  flags?: [number, number][];
  ledges?: string[];
  ramps?: string[];
  start?: [number, number];
}

/** A board file: the board grammar plus a name, an author and a description. */
export interface BoardFile extends BoardJson {
  name: string;
  author: string;
  description: string;
}

/** Reads a board file: the board itself, and the three texts that describe it. */
export function parseBoardFile(json: unknown, path = 'board'): Result<{ file: BoardFile; board: Board }> {
  if (!isObject(json)) return err(path, 'expected an object with "name", "author", "description" and "grid"');
  for (const k of ['name', 'author', 'description'] as const) {
    const v = json[k];
    if (typeof v !== 'string' || !v.trim()) return err(`${path}.${k}`, 'expected a non-empty string');
    if (v.length > MAX_TEXT) return err(`${path}.${k}`, `${v.length} characters; expected at most ${MAX_TEXT}`);
  }
  const board = parseBoard(json, path);
  if (!board.ok) return board;
  return ok({ file: json as unknown as BoardFile, board: board.value });
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);

const LASER_KEYS = new Set(['x', 'y', 'dir', 'beams']);
const PUSHER_KEYS = new Set(['x', 'y', 'dir', 'registers']);
const CRUSHER_KEYS = new Set(['x', 'y', 'registers']);

const BOARD_KEYS = new Set([
  'grid', 'walls', 'lasers', 'pushers', 'crushers', 'flags', 'ledges', 'ramps', 'start',
  // documentation fields of board files
  'name', 'author', 'description',
]);

/** Reads a board; every error names the field (`board.walls[2]`) and what was expected. */
export function parseBoard(json: unknown, path = 'board'): Result<Board> {
  if (!isObject(json)) return err(path, 'expected an object with a "grid"');
  for (const k of Object.keys(json)) {
    if (!BOARD_KEYS.has(k)) return err(`${path}.${k}`, `unknown key (expected one of ${[...BOARD_KEYS].join(', ')})`);
  }
  const grid = json.grid;
  if (!Array.isArray(grid) || grid.length === 0)
    return err(`${path}.grid`, 'expected a non-empty list of rows');
  if (grid.length > MAX_BOARD_SIDE) return err(`${path}.grid`, `${grid.length} rows; expected at most ${MAX_BOARD_SIDE}`);
  const rows: string[][] = [];
  for (let y = 0; y < grid.length; y++) {
    const row = grid[y];
    if (typeof row !== 'string') return err(`${path}.grid[${y}]`, 'expected a string of cell tokens');
    const cells = row.trim().split(/\s+/);
    if (cells.length > MAX_BOARD_SIDE) return err(`${path}.grid[${y}]`, `${cells.length} cells; expected at most ${MAX_BOARD_SIDE}`);
    rows.push(cells);
  }
  const width = rows[0]!.length;
  const height = rows.length;
  const n = width * height;
  const floor = new Uint8Array(n);
  const beltDir = new Uint8Array(n);
  const walls = new Uint8Array(n);
  const ledges = new Uint8Array(n);
  const ramps = new Uint8Array(n);
  const portalPair = new Int32Array(n).fill(-1);
  const portalLabel = new Uint8Array(n);
  const flagAt = new Uint8Array(n);
  const portals = new Map<string, number[]>();
  for (let y = 0; y < height; y++) {
    const row = rows[y]!;
    if (row.length !== width)
      return err(`${path}.grid[${y}]`, `expected ${width} cells like row 0, found ${row.length}`);
    for (let x = 0; x < width; x++) {
      const tok = row[x]!;
      const i = y * width + x;
      const portal = /^T([1-9])$/.exec(tok);
      if (portal) {
        floor[i] = Floor.Portal;
        portalLabel[i] = Number(portal[1]);
        const list = portals.get(tok) ?? [];
        list.push(i);
        portals.set(tok, list);
        continue;
      }
      const t = Object.hasOwn(TOKENS, tok) ? TOKENS[tok] : undefined;
      if (!t)
        return err(`${path}.grid[${y}]`, `unknown cell token "${tok}" at column ${x} (expected one of ${Object.keys(TOKENS).join(' ')} T1…T9)`);
      floor[i] = t[0];
      if (t[1] !== undefined) beltDir[i] = t[1];
    }
  }
  for (const [label, cells] of portals) {
    if (cells.length !== 2)
      return err(`${path}.grid`, `portal ${label} appears ${cells.length} times (expected a pair)`);
    portalPair[cells[0]!] = cells[1]!;
    portalPair[cells[1]!] = cells[0]!;
  }

  const inside = (x: unknown, y: unknown): boolean =>
    isInt(x) && isInt(y) && x >= 0 && y >= 0 && x < width && y < height;
  const setWall = (x: number, y: number, d: Dir): void => {
    walls[y * width + x]! |= 1 << d;
    const nx = x + DX[d]!, ny = y + DY[d]!;
    if (inside(nx, ny)) walls[ny * width + nx]! |= 1 << reverse(d);
  };
  const edgeList = (key: 'walls' | 'ledges' | 'ramps'): Result<[number, number, Dir][]> => {
    const list = json[key];
    if (list === undefined) return ok([]);
    if (!Array.isArray(list)) return err(`${path}.${key}`, 'expected a list of "x,y D" strings');
    if (list.length > MAX_BOARD_LIST) return err(`${path}.${key}`, `${list.length} entries; expected at most ${MAX_BOARD_LIST}`);
    const out: [number, number, Dir][] = [];
    for (let k = 0; k < list.length; k++) {
      const m = typeof list[k] === 'string' ? /^\s*(\d+)\s*,\s*(\d+)\s+([NESW])\s*$/.exec(list[k]) : null;
      if (!m) return err(`${path}.${key}[${k}]`, `expected "x,y D" with D one of N E S W, found ${JSON.stringify(list[k])}`);
      const x = Number(m[1]), y = Number(m[2]);
      if (!inside(x, y)) return err(`${path}.${key}[${k}]`, `(${x},${y}) is off the ${width}x${height} board`);
      out.push([x, y, parseDir(m[3])!]);
    }
    return ok(out);
  };

  const wl = edgeList('walls');
  if (!wl.ok) return wl;
  for (const [x, y, d] of wl.value) setWall(x, y, d);
  const climb = new Uint8Array(n);
  const drop = new Uint8Array(n);
  const ramp = new Uint8Array(n);
  const across = (x: number, y: number, d: Dir, here: Uint8Array, there: Uint8Array) => {
    here[y * width + x]! |= 1 << d;
    const nx = x + DX[d]!, ny = y + DY[d]!;
    if (inside(nx, ny)) there[ny * width + nx]! |= 1 << reverse(d);
  };
  const ll = edgeList('ledges');
  if (!ll.ok) return ll;
  for (const [x, y, d] of ll.value) {
    ledges[y * width + x]! |= 1 << d;
    across(x, y, d, drop, climb);
  }
  const rl = edgeList('ramps');
  if (!rl.ok) return rl;
  for (let k = 0; k < rl.value.length; k++) {
    const [x, y, d] = rl.value[k]!;
    if (!(ledges[y * width + x]! & (1 << d))) return err(`${path}.ramps[${k}]`, `no ledge on side ${'NESW'[d]} of (${x},${y}) for the ramp to cross`);
    ramps[y * width + x]! |= 1 << d;
    across(x, y, d, ramp, ramp);
  }

  const mounted = <T>(key: string, keys: Set<string>, parseOne: (o: Record<string, unknown>, p: string) => Result<T>): Result<T[]> => {
    const list = json[key];
    if (list === undefined) return ok([]);
    if (!Array.isArray(list)) return err(`${path}.${key}`, 'expected a list of objects');
    if (list.length > MAX_BOARD_LIST) return err(`${path}.${key}`, `${list.length} entries; expected at most ${MAX_BOARD_LIST}`);
    const out: T[] = [];
    for (let k = 0; k < list.length; k++) {
      const p = `${path}.${key}[${k}]`;
      const o = list[k];
      if (!isObject(o)) return err(p, 'expected an object');
      const unknown = Object.keys(o).find((x) => !keys.has(x));
      if (unknown !== undefined) return err(`${p}.${unknown}`, `unknown key (expected one of ${[...keys].join(', ')})`);
      if (!inside(o.x, o.y)) return err(p, `expected "x" and "y" on the ${width}x${height} board`);
      const r = parseOne(o, p);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return ok(out);
  };
  const registerMask = (v: unknown, p: string): Result<number> => {
    if (!Array.isArray(v) || !v.length || v.length > 5 || v.some((r) => !isInt(r) || r < 1 || r > 5))
      return err(`${p}.registers`, 'expected a list of one to five register numbers 1 to 5');
    return ok(v.reduce((m: number, r: number) => m | (1 << (r - 1)), 0));
  };
  const dirOf = (o: Record<string, unknown>, p: string): Result<Dir> => {
    const d = parseDir(o.dir);
    return d === undefined ? err(`${p}.dir`, 'expected one of N, E, S, W') : ok(d);
  };

  const lasers = mounted<BoardLaser>('lasers', LASER_KEYS, (o, p) => {
    const d = dirOf(o, p);
    if (!d.ok) return d;
    const beams = o.beams === undefined ? 1 : o.beams;
    if (!isInt(beams) || beams < 1 || beams > 3) return err(`${p}.beams`, 'expected 1, 2 or 3');
    setWall(o.x as number, o.y as number, reverse(d.value)); // the mount hangs on a wall (SCENARIOS.md)
    return ok({ x: o.x as number, y: o.y as number, dir: d.value, beams });
  });
  if (!lasers.ok) return lasers;
  const pushers = mounted<Pusher>('pushers', PUSHER_KEYS, (o, p) => {
    const d = dirOf(o, p);
    if (!d.ok) return d;
    const regs = registerMask(o.registers, p);
    if (!regs.ok) return regs;
    setWall(o.x as number, o.y as number, reverse(d.value));
    return ok({ x: o.x as number, y: o.y as number, dir: d.value, registers: regs.value });
  });
  if (!pushers.ok) return pushers;
  const crushers = mounted<Crusher>('crushers', CRUSHER_KEYS, (o, p) => {
    const regs = registerMask(o.registers, p);
    if (!regs.ok) return regs;
    return ok({ x: o.x as number, y: o.y as number, registers: regs.value });
  });
  if (!crushers.ok) return crushers;

  const flags: Square[] = [];
  if (json.flags !== undefined) {
    if (!Array.isArray(json.flags)) return err(`${path}.flags`, 'expected a list of [x, y] pairs');
    if (json.flags.length > MAX_FLAGS) return err(`${path}.flags`, `${json.flags.length} flags; expected at most ${MAX_FLAGS}`);
    for (let k = 0; k < json.flags.length; k++) {
      const f: unknown = json.flags[k];
      if (!Array.isArray(f) || f.length !== 2 || !inside(f[0], f[1]))
        return err(`${path}.flags[${k}]`, `expected [x, y] on the ${width}x${height} board`);
      const [fx, fy] = f as [number, number];
      const i = fy * width + fx;
      if (flagAt[i]) return err(`${path}.flags[${k}]`, `flag ${flagAt[i]} already stands on (${fx},${fy})`);
      flagAt[i] = k + 1;
      flags.push([fx, fy]);
    }
  }
  let start: Square | null = null;
  if (json.start !== undefined) {
    const s = json.start;
    if (!Array.isArray(s) || s.length !== 2 || !inside(s[0], s[1]))
      return err(`${path}.start`, `expected [x, y] on the ${width}x${height} board`);
    start = [s[0], s[1]];
  }
  const reach = beamReach(width, height, floor, walls, climb);
  const beams = beamCover(width, height, reach, lasers.value);
  const crusherAt = new Uint8Array(width * height);
  for (const c of crushers.value) crusherAt[c.y * width + c.x]! |= c.registers;
  const pusherAt = new Uint8Array(width * height);
  for (const p of pushers.value) pusherAt[p.y * width + p.x]! |= p.registers;
  const siteAt = new Uint8Array(width * height);
  for (let c = 0; c < siteAt.length; c++) siteAt[c] = flagAt[c] || floor[c] === Floor.Wrench || floor[c] === Floor.DoubleWrench ? 1 : 0;
  // Every field written out, no spread: a spread left the last fields (`plainStep`, `start`) out of
  // the object, one more load for each read of the moves' table.
  const plainStep = plainSteps(width, height, floor, walls, climb, drop);
  const board: Board = {
    width, height, floor, beltDir, walls, ledges, ramps, climb, drop, ramp, portalPair, portalLabel, flagAt, reach,
    beamFrom: beams.beamFrom, beamLaser: beams.beamLaser, beamDistance: beams.beamDistance, flags,
    lasers: lasers.value, pushers: pushers.value, crushers: crushers.value, crusherAt, pusherAt, siteAt,
    plainStep, cells: packCells({ floor, beltDir, plainStep, siteAt, pusherAt, crusherAt, reach, beamFrom: beams.beamFrom }), start,
  };
  const unstandable = start && cannotStand(board, start[0], start[1]);
  if (unstandable) return err(`${path}.start`, `${unstandable}; expected a square a robot can stand on`);
  return ok(board);
}

/** `Board.cells`: the tables it packs, four words a cell and one cell more for beamFrom's end. */
export function packCells(t: Pick<Board, 'floor' | 'beltDir' | 'plainStep' | 'siteAt' | 'pusherAt' | 'crusherAt' | 'reach' | 'beamFrom'>): Int32Array {
  const n = t.floor.length;
  const cells = new Int32Array((n + 1) * 4);
  for (let c = 0; c < n; c++) {
    const r = c * 4;
    cells[r] = t.floor[c]! | (t.beltDir[c]! << 8) | (t.plainStep[c]! << 16) | (t.siteAt[c]! << 24);
    cells[r + 1] = t.pusherAt[c]! | (t.crusherAt[c]! << 8);
    cells[r + 2] = t.reach[r]! | (t.reach[r + 1]! << 8) | (t.reach[r + 2]! << 16) | (t.reach[r + 3]! << 24);
    cells[r + 3] = t.beamFrom[c]!;
  }
  cells[n * 4 + 3] = t.beamFrom[n]!;
  return cells;
}

/** Floors a step may arrive on with nothing happening on arrival (`Board.plainStep`). */
const PLAIN_ARRIVAL = new Set<Floor>([Floor.Plain, Floor.Belt, Floor.Express, Floor.GearRight, Floor.GearLeft, Floor.Wrench, Floor.DoubleWrench, Floor.ChopShop]);

/** The table of `Board.plainStep`. */
function plainSteps(w: number, h: number, floor: Uint8Array, walls: Uint8Array, climb: Uint8Array, drop: Uint8Array): Uint8Array {
  const plain = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = y * w + x;
      for (let d = 0; d < 4; d++) {
        const nx = x + DX[d]!, ny = y + DY[d]!;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        if ((walls[c]! | climb[c]! | drop[c]!) & (1 << d)) continue;
        if (PLAIN_ARRIVAL.has(floor[ny * w + nx]! as Floor)) plain[c]! |= 1 << d;
      }
    }
  }
  return plain;
}

/**
 * The reach table of `Board.reach`, each direction filled from the far side. A ledge is a wall for
 * a beam that would cross it from below (RULES.md "Expansion elements (003)": "For beams a ledge is
 * a wall from below too"), ramp or not; from above the beam passes.
 */
function beamReach(w: number, h: number, floor: Uint8Array, walls: Uint8Array, climb: Uint8Array): Uint16Array {
  const reach = new Uint16Array(w * h * 4);
  for (let d = 0; d < 4; d++) {
    const dx = DX[d]!, dy = DY[d]!;
    for (let k = 0; k < h; k++) {
      const y = dy > 0 ? h - 1 - k : k;
      for (let j = 0; j < w; j++) {
        const x = dx > 0 ? w - 1 - j : j;
        const nx = x + dx, ny = y + dy;
        const open = !((walls[y * w + x]! | climb[y * w + x]!) & (1 << d)) && nx >= 0 && ny >= 0 && nx < w && ny < h && floor[ny * w + nx] !== Floor.Void;
        reach[(y * w + x) * 4 + d] = open ? 1 + reach[(ny * w + nx) * 4 + d]! : 0;
      }
    }
  }
  return reach;
}

/**
 * The cover table of `Board.beamFrom`: which lasers' beams cross each cell, and how far out; with
 * `beyond` (a cube played inside), a beam goes on into the cell over the board edge it meets.
 */
export function beamCover(w: number, h: number, reach: Uint16Array, lasers: readonly BoardLaser[], beyond?: Int32Array) {
  const per: [number, number][][] = Array.from({ length: w * h }, () => []);
  lasers.forEach((l, k) => {
    const step = DY[l.dir]! * w + DX[l.dir]!;
    let c = l.y * w + l.x;
    const over = beyond ? beyond[c * 4 + l.dir]! : -1;
    const n = reach[c * 4 + l.dir]!;
    for (let s = 0; s <= n; s++, c += step) per[c]!.push([k, s]);
    if (over >= 0) per[over]!.push([k, n + 1]);
  });
  const beamFrom = new Int32Array(w * h + 1);
  for (let c = 0; c < w * h; c++) beamFrom[c + 1] = beamFrom[c]! + per[c]!.length;
  const beamLaser = new Int32Array(beamFrom[w * h]!);
  const beamDistance = new Int32Array(beamFrom[w * h]!);
  per.forEach((list, c) => list.forEach(([k, s], e) => ((beamLaser[beamFrom[c]! + e] = k), (beamDistance[beamFrom[c]! + e] = s))));
  return { beamFrom, beamLaser, beamDistance };
}
