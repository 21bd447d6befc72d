/**
 * Courses: factory boards laid side by side, each turned 0, 90, 180 or 270 degrees, with the flags
 * in order and the start (000 L52-56). A course is composed into one board of the grammar of
 * SCENARIOS.md; cells of its bounding box that no board covers are `x` (no floor).
 */
import { cannotStand, MAX_BOARD_SIDE, MAX_FLAGS, MAX_TEXT, parseBoard, type Board, type BoardJson } from './board.js';
import { foldNet, foldSeams, foldedFloor } from './cube.js';
import { DIR_NAMES, parseDir, type Dir, type Square } from './geometry.js';
import { err, ok, type Result } from './result.js';

export type Rotation = 0 | 90 | 180 | 270;

export interface Placement {
  /** The board's name (its file name without `.json`). */
  readonly board: string;
  /** Where its north-west corner lies, in course squares, after turning. */
  readonly x: number;
  readonly y: number;
  /** Clockwise. */
  readonly rotation: Rotation;
}

export interface Course {
  readonly name: string;
  readonly author: string;
  readonly description: string;
  /** Suggested players, as the manual's sample tracks give them (000 L349). */
  readonly players: readonly [number, number];
  readonly complexity: 'easy' | 'moderate' | 'hard';
  readonly time: 'short' | 'moderate' | 'long';
  readonly boards: readonly Placement[];
  readonly flags: readonly Square[];
  /** classic: the one start square, a repair site. */
  readonly start: Square | null;
  /** pbem: a start per robot, in pick order. */
  readonly starts: readonly Square[];
  /** The boards composed, with the flags and the start. */
  readonly layout: BoardJson;
  /** Per course square (y * width + x): the index in `boards` of the board there, or -1. */
  readonly boardAt: Int16Array;
  /** A cube course laid out with the seams it gives (`"cube": {"seams": …}`); a folded net has none. */
  readonly seams?: Seams;
  readonly board: Board;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);

const COURSE_KEYS = new Set(['name', 'author', 'description', 'players', 'complexity', 'time', 'boards', 'flags', 'start', 'starts', 'cube']);
const PLACEMENT_KEYS = new Set(['board', 'x', 'y', 'rotation']);
/** The most boards a course lays out: sixteen 12x12 boards fill the largest course. */
export const MAX_PLACEMENTS = 16;
/** The most robots a race holds, so the most pbem starts (001 L333). */
export const MAX_STARTS = 8;

function unknownKey(o: Record<string, unknown>, keys: Set<string>, path: string): Result<never> | null {
  const k = Object.keys(o).find((x) => !keys.has(x));
  return k === undefined ? null : err(path ? `${path}.${k}` : k, `unknown key (expected one of ${[...keys].join(', ')})`);
}

const TURN_TOKEN: Record<string, string> = { '^': '>', '>': 'v', v: '<', '<': '^', '^^': '>>', '>>': 'vv', vv: '<<', '<<': '^^' };

/** The board turned 90° clockwise `rotation / 90` times: cells, edges and devices alike. */
export function rotateBoard(json: BoardJson, rotation: Rotation): BoardJson {
  let b = json;
  for (let k = 0; k < rotation / 90; k++) b = quarterTurn(b);
  return b;
}

function quarterTurn(b: BoardJson): BoardJson {
  const rows = b.grid.map((r) => r.trim().split(/\s+/));
  const h = rows.length, w = rows[0]!.length;
  // (x, y) goes to (h - 1 - y, x); the new board is h wide and w tall.
  const at = (x: number, y: number): [number, number] => [h - 1 - y, x];
  const grid: string[] = [];
  for (let ny = 0; ny < w; ny++) {
    const row: string[] = [];
    for (let nx = 0; nx < h; nx++) {
      const tok = rows[h - 1 - nx]![ny]!;
      row.push(Object.hasOwn(TURN_TOKEN, tok) ? TURN_TOKEN[tok]! : tok);
    }
    grid.push(row.join(' '));
  }
  const turnDir = (d: string) => DIR_NAMES[((parseDir(d) ?? 0) + 1) & 3]!;
  const edge = (e: string) => {
    const m = /^\s*(\d+)\s*,\s*(\d+)\s+([NESW])\s*$/.exec(e);
    if (!m) return e; // left for parseBoard to refuse
    const [x, y] = at(Number(m[1]), Number(m[2]));
    return `${x},${y} ${turnDir(m[3]!)}`;
  };
  const sq = (s: readonly [number, number]): [number, number] => at(s[0], s[1]);
  const out: BoardJson = { grid };
  if (b.walls) out.walls = b.walls.map(edge);
  if (b.ledges) out.ledges = b.ledges.map(edge);
  if (b.ramps) out.ramps = b.ramps.map(edge);
  if (b.lasers) out.lasers = b.lasers.map((l) => ({ ...l, ...xy(at(l.x, l.y)), dir: turnDir(l.dir) }));
  if (b.pushers) out.pushers = b.pushers.map((p) => ({ ...p, ...xy(at(p.x, p.y)), dir: turnDir(p.dir) }));
  if (b.crushers) out.crushers = b.crushers.map((c) => ({ ...c, ...xy(at(c.x, c.y)) }));
  if (b.flags) out.flags = b.flags.map(sq);
  if (b.start) out.start = sq(b.start);
  return out;
}

const xy = ([x, y]: [number, number]) => ({ x, y });

/** The boards of a course laid out (parseCourse's first half): the placements, the composed cells and devices, and which board owns each square. */
export interface ComposedBoards {
  readonly placements: readonly Placement[];
  readonly width: number;
  readonly height: number;
  /** The composed board without flags or start: the grid (`x` where no board lies) and the devices. */
  readonly layout: BoardJson;
  /** Per course square (y * width + x): the index of the board there, or -1. */
  readonly boardAt: Int16Array;
  /** Each board's width and height as placed. */
  readonly sizes: readonly (readonly [number, number])[];
}

/**
 * Lays out a course's `boards` (each `{board, x, y, rotation}`): refused, naming the field, for
 * unknown boards, overlaps, more than nine portal pairs or a course past 48 squares a side. A course
 * editor draws this before any flag or start is placed.
 */
export function composeBoards(list: unknown, boards: (name: string) => BoardJson | undefined): Result<ComposedBoards> {
  if (!Array.isArray(list) || !list.length) return err('boards', 'expected a list of placed boards');
  if (list.length > MAX_PLACEMENTS) return err('boards', `${list.length} boards; expected at most ${MAX_PLACEMENTS}`);

  const placements: Placement[] = [];
  const turned: BoardJson[] = [];
  for (let k = 0; k < list.length; k++) {
    const p = list[k];
    const path = `boards[${k}]`;
    if (!isObject(p)) return err(path, 'expected {"board", "x", "y", "rotation"}');
    const unknownP = unknownKey(p, PLACEMENT_KEYS, path);
    if (unknownP) return unknownP;
    if (typeof p.board !== 'string') return err(`${path}.board`, 'expected a board name');
    const b = boards(p.board);
    if (!b) return err(`${path}.board`, `no board named "${p.board}"`);
    const valid = parseBoard(b, `${path} "${p.board}"`);
    if (!valid.ok) return valid;
    const corner = `expected the square of its north-west corner, x and y from 0 to ${MAX_BOARD_SIDE - 1}`;
    if (!isInt(p.x) || p.x < 0 || p.x >= MAX_BOARD_SIDE) return err(`${path}.x`, corner);
    if (!isInt(p.y) || p.y < 0 || p.y >= MAX_BOARD_SIDE) return err(`${path}.y`, corner);
    const rotation = p.rotation === undefined ? 0 : p.rotation;
    if (![0, 90, 180, 270].includes(rotation as number)) return err(`${path}.rotation`, 'expected 0, 90, 180 or 270');
    placements.push({ board: p.board, x: p.x, y: p.y, rotation: rotation as Rotation });
    turned.push(rotateBoard(b, rotation as Rotation));
  }
  const size = turned.map((b) => [b.grid[0]!.trim().split(/\s+/).length, b.grid.length] as const);
  const width = Math.max(...placements.map((p, k) => p.x + size[k]![0]));
  const height = Math.max(...placements.map((p, k) => p.y + size[k]![1]));
  if (width > MAX_BOARD_SIDE || height > MAX_BOARD_SIDE) return err('boards', `the course is ${width}x${height} squares; expected at most ${MAX_BOARD_SIDE} a side`);
  const cells: string[][] = Array.from({ length: height }, () => new Array<string>(width).fill('x'));
  const owner: number[][] = Array.from({ length: height }, () => new Array<number>(width).fill(-1));
  const layout: Required<Pick<BoardJson, 'walls' | 'ledges' | 'ramps' | 'lasers' | 'pushers' | 'crushers'>> = {
    walls: [], ledges: [], ramps: [], lasers: [], pushers: [], crushers: [],
  };
  let portals = 0;
  for (let k = 0; k < turned.length; k++) {
    const b = turned[k]!;
    const { x: ox, y: oy } = placements[k]!;
    const relabel = new Map<string, string>();
    const rows = b.grid.map((r) => r.trim().split(/\s+/));
    for (let y = 0; y < rows.length; y++) {
      for (let x = 0; x < rows[y]!.length; x++) {
        let tok = rows[y]![x]!;
        if (tok === 'x') continue;
        const other = owner[oy + y]![ox + x]!;
        if (other >= 0)
          return err(`boards[${k}]`, `"${placements[k]!.board}" overlaps "${placements[other]!.board}" (boards[${other}]) at (${ox + x},${oy + y})`);
        if (/^T[1-9]$/.test(tok)) {
          if (!relabel.has(tok)) relabel.set(tok, `T${++portals}`);
          if (portals > 9) return err(`boards[${k}]`, 'a course holds at most nine portal pairs');
          tok = relabel.get(tok)!;
        }
        cells[oy + y]![ox + x] = tok;
        owner[oy + y]![ox + x] = k;
      }
    }
    const shift = (e: string) => e.replace(/^\s*(\d+)\s*,\s*(\d+)/, (_, a, c) => `${Number(a) + ox},${Number(c) + oy}`);
    layout.walls.push(...(b.walls ?? []).map(shift));
    layout.ledges.push(...(b.ledges ?? []).map(shift));
    layout.ramps.push(...(b.ramps ?? []).map(shift));
    layout.lasers.push(...(b.lasers ?? []).map((l) => ({ ...l, x: l.x + ox, y: l.y + oy })));
    layout.pushers.push(...(b.pushers ?? []).map((l) => ({ ...l, x: l.x + ox, y: l.y + oy })));
    layout.crushers.push(...(b.crushers ?? []).map((l) => ({ ...l, x: l.x + ox, y: l.y + oy })));
  }

  return ok({
    placements, width, height, layout: { grid: cells.map((r) => r.join(' ')), ...layout },
    boardAt: Int16Array.from(owner.flat()), sizes: size,
  });
}

/**
 * Reads a course file and lays out its boards. `boards` finds a board file's `board` object by
 * name. Refuses, naming the field: unknown boards, overlapping boards, more than nine portal pairs,
 * flags or starts off the floor, starts on squares no robot stands on, unknown keys, and sizes past
 * the bounds (48 squares a side, 16 boards, 16 flags, 8 starts). Whether the course is a good one is `validateCourse`'s job.
 */
export function parseCourse(json: unknown, boards: (name: string) => BoardJson | undefined): Result<Course> {
  if (!isObject(json)) return err('course', 'expected an object');
  const unknown = unknownKey(json, COURSE_KEYS, '');
  if (unknown) return unknown;
  const str = (k: string, required: boolean): Result<string> => {
    const v = json[k];
    if (v === undefined && !required) return ok('');
    if (typeof v === 'string' && v.length > MAX_TEXT) return err(k, `${v.length} characters; expected at most ${MAX_TEXT}`);
    return typeof v === 'string' && v.trim() ? ok(v) : err(k, 'expected a non-empty string');
  };
  const name = str('name', true);
  if (!name.ok) return name;
  const author = str('author', false);
  if (!author.ok) return author;
  const description = str('description', false);
  if (!description.ok) return description;
  const players = json.players;
  const [fewest, most] = Array.isArray(players) && players.length === 2 && players.every(isInt) ? players as [number, number] : [0, 0];
  if (fewest < 1 || most < fewest || most > 8) return err('players', 'expected [fewest, most] players, from 1 to 8');
  if (!['easy', 'moderate', 'hard'].includes(json.complexity as string)) return err('complexity', 'expected "easy", "moderate" or "hard"');
  if (!['short', 'moderate', 'long'].includes(json.time as string)) return err('time', 'expected "short", "moderate" or "long"');
  const composed0 = composeBoards(json.boards, boards);
  if (!composed0.ok) return composed0;
  const { placements, width, height, boardAt, sizes: size } = composed0.value;
  const { grid, ...layout } = composed0.value.layout;
  const cells = grid.map((r) => r.split(' '));
  const square = (v: unknown, path: string): Result<Square> => {
    if (!Array.isArray(v) || v.length !== 2 || !isInt(v[0]) || !isInt(v[1]) || v[0] < 0 || v[1] < 0) return err(path, 'expected [x, y], each from 0');
    const [x, y] = v as [number, number];
    if (x >= width || y >= height || cells[y]![x] === 'x') return err(path, `(${x},${y}) is not on any board of the course`);
    return ok([x, y]);
  };
  if (!Array.isArray(json.flags) || !json.flags.length) return err('flags', 'expected the flags in race order, [[x, y], …]');
  if (json.flags.length > MAX_FLAGS) return err('flags', `${json.flags.length} flags; expected at most ${MAX_FLAGS}`);
  const flags: Square[] = [];
  for (let k = 0; k < json.flags.length; k++) {
    const s = square(json.flags[k], `flags[${k}]`);
    if (!s.ok) return s;
    flags.push(s.value);
  }
  let start: Square | null = null;
  if (json.start !== undefined) {
    const s = square(json.start, 'start');
    if (!s.ok) return s;
    start = s.value;
  }
  const starts: Square[] = [];
  if (json.starts !== undefined) {
    if (!Array.isArray(json.starts)) return err('starts', 'expected a start per robot, in pick order: [[x, y], …]');
    if (json.starts.length > MAX_STARTS) return err('starts', `${json.starts.length} starts; a race has at most ${MAX_STARTS} robots`);
    for (let k = 0; k < json.starts.length; k++) {
      const s = square(json.starts[k], `starts[${k}]`);
      if (!s.ok) return s;
      starts.push(s.value);
    }
  }
  if (!start && !starts.length) return err('start', 'expected a start square (classic) or starts (pbem), or both');
  const composed: BoardJson = { grid, ...layout, flags: flags.map(([x, y]) => [x, y]) };
  if (start) composed.start = [start[0], start[1]];
  const parsed = parseBoard(composed, 'course');
  if (!parsed.ok) return parsed;
  let board: Board = parsed.value;
  let seams: Seams | null = null;
  if (json.cube !== undefined && json.cube !== false) {
    // RoboRally Cubed (004 L179): the six boards are a net, folded into a cube, or laid out as the
    // course likes with the seams it gives.
    const faces = placements.map((p, k) => ({ x: p.x, y: p.y, w: size[k]![0], h: size[k]![1] }));
    if (json.cube !== true) {
      const given = readSeams(json.cube);
      if (!given.ok) return given;
      seams = given.value;
    }
    const fold = seams ? foldSeams(faces, width, height, seams) : foldNet(faces, width, height);
    if (!fold.ok) return fold;
    board = foldedFloor(parsed.value, fold.value);
  }
  for (const [k, s] of starts.entries()) {
    const why = cannotStand(board, s[0], s[1]);
    if (why) return err(`starts[${k}]`, `${why}; expected a square a robot can stand on`);
  }
  return ok({
    name: name.value, author: author.value, description: description.value,
    players: [fewest, most], complexity: json.complexity as Course['complexity'], time: json.time as Course['time'],
    boards: placements, flags, start, starts, layout: composed, board,
    boardAt, ...(seams ? { seams } : {}),
  });
}

/** A cube's seams as a course gives them: each `[board, side, board, side]`. */
export type Seams = readonly (readonly [number, Dir, number, Dir])[];

/** `"cube": {"seams": [[0, "W", 1, "N"], …]}`: twelve seams, each two board sides attached to each other. */
function readSeams(v: unknown): Result<Seams> {
  const expected = 'expected true (the six boards are the net of a cube), false, or {"seams": [[board, side, board, side], …]} with the twelve seams of the cube';
  if (!isObject(v)) return err('cube', expected);
  const unknown = unknownKey(v, new Set(['seams']), 'cube');
  if (unknown) return unknown;
  if (!Array.isArray(v.seams) || v.seams.length !== 12) return err('cube.seams', `expected the twelve seams of the cube, [[board, side, board, side], …]; found ${Array.isArray(v.seams) ? v.seams.length : 'no list'}`);
  const out: [number, Dir, number, Dir][] = [];
  for (const [i, s] of (v.seams as unknown[]).entries()) {
    const side = (x: unknown) => (typeof x === 'string' && /^[NESW]$/.test(x) ? parseDir(x) : undefined);
    const board = (x: unknown) => (isInt(x) && x >= 0 && x < 6 ? x : undefined);
    const parts = Array.isArray(s) && s.length === 4 ? [board(s[0]), side(s[1]), board(s[2]), side(s[3])] : [];
    if (parts.length !== 4 || parts.some((x) => x === undefined)) return err(`cube.seams[${i}]`, 'expected [board, side, board, side]: two boards (0 to 5, as listed in boards) and their sides ("N", "E", "S" or "W"), e.g. [0, "W", 1, "N"]');
    out.push(parts as [number, Dir, number, Dir]);
  }
  return ok(out);
}

/** A course as its file has it (docs/formats.md): what parseCourse reads back into the same course. */
export function courseFile(c: Course): Record<string, unknown> {
  return {
    name: c.name, ...(c.author ? { author: c.author } : {}), ...(c.description ? { description: c.description } : {}),
    players: [...c.players], complexity: c.complexity, time: c.time,
    boards: c.boards.map((p) => ({ board: p.board, x: p.x, y: p.y, rotation: p.rotation })),
    flags: c.flags.map(([x, y]) => [x, y]), ...(c.start ? { start: [c.start[0], c.start[1]] } : {}),
    ...(c.starts.length ? { starts: c.starts.map(([x, y]) => [x, y]) } : {}),
    ...(c.seams ? { cube: { seams: c.seams.map(([a, d, b, e]) => [a, DIR_NAMES[d], b, DIR_NAMES[e]]) } } : c.board.fold ? { cube: true } : {}),
  };
}
