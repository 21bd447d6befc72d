/**
 * The course editor's model, without the page: a course as its file has it (docs/formats.md),
 * read from an uploaded file, changed a step at a time, and checked as it changes by the engine's
 * own readers (composeBoards, parseCourse, validateCourse), so the editor refuses exactly what
 * `POST /api/races` and `roborally course validate` refuse, each problem naming its field
 * (`boards[1]`, `flags[0]`, `start`, `starts[2]`).
 */
import { composeBoards, courseRuleSets, parseBoard, parseCourse, validateCourse, type Board, type BoardJson, type Course, type Rotation, type Square } from '../../engine/src/index.js';
import { jsonTextError, withoutBom } from '../../boards/src/json-text.js';

export interface Placed {
  board: string;
  x: number;
  y: number;
  rotation: Rotation;
}

/** A course being composed: the fields of a course file. */
export interface Draft {
  name: string;
  description: string;
  players: [number, number];
  complexity: 'easy' | 'moderate' | 'hard';
  time: 'short' | 'moderate' | 'long';
  boards: Placed[];
  flags: Square[];
  start: Square | null;
  starts: Square[];
  /** RoboRally Cubed (004 L179): the file's `cube` (true, or the seams it gives), kept as it is; the engine's reader checks it. */
  cube?: unknown;
}

export interface Problem {
  readonly field: string;
  readonly message: string;
  readonly at: Square | null;
}

/** A shipped board as GET /api/boards gives it. */
export interface ShippedBoard {
  name: string;
  title: string;
  description: string;
  board: BoardJson;
}

/** What the editor shows of a draft: its problems, and the floor composed so far (null when the boards cannot be laid out). */
export interface Checked {
  readonly problems: Problem[];
  readonly board: Board | null;
  /** The course when it is fit to race on. */
  readonly course: Course | null;
}

const KEYS = ['name', 'author', 'description', 'players', 'complexity', 'time', 'boards', 'flags', 'start', 'starts', 'cube'];

/** The course file of a draft. */
export function toJson(d: Draft): Record<string, unknown> {
  return {
    name: d.name, ...(d.description.trim() ? { description: d.description } : {}), players: d.players, complexity: d.complexity, time: d.time,
    boards: d.boards, flags: d.flags, ...(d.start ? { start: d.start } : {}), ...(d.starts.length ? { starts: d.starts } : {}),
    ...(d.cube !== undefined ? { cube: d.cube } : {}),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSquare = (v: unknown): v is Square => Array.isArray(v) && v.length === 2 && v.every((n) => Number.isInteger(n) && n >= 0 && n < 48);

/**
 * A course file's text (an upload, or text pasted) read into a draft: by the project's one JSON
 * reader (the server's and the command line's: a key written twice is refused, not taken as its
 * last as JSON.parse takes it), then `fromJson`. The refusal says where: `is not JSON: line 3,
 * column 12: ...` or `is not a course file: flags[1]: ...`.
 */
export function fromText(text: string): { ok: true; draft: Draft } | { ok: false; message: string } {
  const bad = jsonTextError(text);
  if (bad) return { ok: false, message: `is not JSON: line ${bad.line}, column ${bad.column}: ${bad.message}` };
  const read = fromJson(JSON.parse(withoutBom(text)));
  return read.ok ? read : { ok: false, message: `is not a course file: ${read.field}: ${read.message}` };
}

/**
 * A course file (an upload, or text pasted) read into a draft: its shape only, naming the field of
 * the first thing that is not a course file's; whether it is a good course is `check`'s job.
 */
export function fromJson(json: unknown): { ok: true; draft: Draft } | { ok: false; field: string; message: string } {
  const no = (field: string, message: string) => ({ ok: false as const, field, message });
  if (!isObject(json)) return no('course', 'expected a course object (docs/formats.md)');
  const extra = Object.keys(json).find((k) => !KEYS.includes(k));
  if (extra) return no(extra, `unknown field (expected one of ${KEYS.join(', ')})`);
  if (typeof json.name !== 'string') return no('name', 'expected the course\'s name');
  const p = json.players;
  if (!Array.isArray(p) || p.length !== 2 || !p.every((n) => Number.isInteger(n))) return no('players', 'expected [fewest, most]');
  if (!['easy', 'moderate', 'hard'].includes(json.complexity as string)) return no('complexity', 'expected "easy", "moderate" or "hard"');
  if (!['short', 'moderate', 'long'].includes(json.time as string)) return no('time', 'expected "short", "moderate" or "long"');
  if (!Array.isArray(json.boards)) return no('boards', 'expected a list of placed boards');
  const boards: Placed[] = [];
  for (const [k, b] of json.boards.entries()) {
    if (!isObject(b) || typeof b.board !== 'string' || !Number.isInteger(b.x) || !Number.isInteger(b.y)) return no(`boards[${k}]`, 'expected {"board", "x", "y", "rotation"}');
    const extraB = Object.keys(b).find((x) => !['board', 'x', 'y', 'rotation'].includes(x));
    if (extraB) return no(`boards[${k}].${extraB}`, 'unknown field (expected board, x, y, rotation)');
    const rotation = b.rotation ?? 0;
    if (![0, 90, 180, 270].includes(rotation as number)) return no(`boards[${k}].rotation`, 'expected 0, 90, 180 or 270');
    boards.push({ board: b.board, x: b.x as number, y: b.y as number, rotation: rotation as Rotation });
  }
  const squares = (k: string): Square[] | { field: string } => {
    const v = json[k] ?? [];
    if (!Array.isArray(v)) return { field: k };
    const bad = v.findIndex((s) => !isSquare(s));
    return bad >= 0 ? { field: `${k}[${bad}]` } : (v as Square[]);
  };
  const flags = squares('flags'), starts = squares('starts');
  if (!Array.isArray(flags)) return no(flags.field, 'expected [x, y], each from 0 to 47');
  if (!Array.isArray(starts)) return no(starts.field, 'expected [x, y], each from 0 to 47');
  if (json.start !== undefined && !isSquare(json.start)) return no('start', 'expected [x, y], each from 0 to 47');
  return {
    ok: true,
    draft: {
      name: json.name, description: typeof json.description === 'string' ? json.description : '', players: [p[0], p[1]],
      complexity: json.complexity as Draft['complexity'], time: json.time as Draft['time'],
      boards, flags, start: (json.start as Square | undefined) ?? null, starts, ...(json.cube !== undefined ? { cube: json.cube } : {}),
    },
  };
}

/**
 * Checks a draft as POST /api/races would: the boards laid out (composeBoards), the course read
 * (parseCourse) and validated (validateCourse). The floor is drawn as far as it can be: the boards
 * with the flags and the start that lie on them.
 */
export function check(d: Draft, boards: (name: string) => BoardJson | undefined): Checked {
  const laid = composeBoards(d.boards, boards);
  if (!laid.ok) return { problems: [{ field: laid.error.field, message: laid.error.message, at: null }], board: null, course: null };
  const { width, height, layout } = laid.value;
  const cells = layout.grid.map((r) => r.split(' '));
  const onFloor = ([x, y]: Square) => x < width && y < height && cells[y]![x] !== 'x';
  const preview: BoardJson = { ...layout, flags: d.flags.filter(onFloor).map(([x, y]) => [x, y]) };
  if (d.start && onFloor(d.start)) preview.start = [d.start[0], d.start[1]];
  const drawn = parseBoard(preview, 'course');
  const board = drawn.ok ? drawn.value : null;
  const parsed = parseCourse(toJson(d), boards);
  if (!parsed.ok) return { problems: [{ field: parsed.error.field, message: parsed.error.message, at: null }], board, course: null };
  const problems = validateCourse(parsed.value).map((p) => ({ field: p.field, message: p.message, at: p.at }));
  return { problems, board: parsed.value.board, course: problems.length ? null : parsed.value };
}

/** The size of a board as placed (a quarter turn swaps its sides). */
export function placedSize(b: BoardJson, rotation: Rotation): [number, number] {
  const w = b.grid[0]!.trim().split(/\s+/).length, h = b.grid.length;
  return rotation === 90 || rotation === 270 ? [h, w] : [w, h];
}

/** A board added east of the others, its top edge along theirs, so that it meets them. */
export function addBoard(d: Draft, name: string, boards: (name: string) => BoardJson | undefined): Draft {
  const east = d.boards.reduce((m, p) => {
    const b = boards(p.board);
    return b ? Math.max(m, p.x + placedSize(b, p.rotation)[0]) : m;
  }, 0);
  return { ...d, boards: [...d.boards, { board: name, x: east, y: 0, rotation: 0 }] };
}

/** A square clicked on the floor: the next flag, the classic start, or the next pbem start; clicked again, it is taken off. */
export function place(d: Draft, what: 'flag' | 'start' | 'starts', at: Square): Draft {
  const same = (s: Square) => s[0] === at[0] && s[1] === at[1];
  if (what === 'start') return { ...d, start: d.start && same(d.start) ? null : at };
  const list = what === 'flag' ? d.flags : d.starts;
  const next = list.some(same) ? list.filter((s) => !same(s)) : [...list, at];
  return what === 'flag' ? { ...d, flags: next } : { ...d, starts: next };
}

/** The rule sets a draft can be raced under (one start for all needs `start`, a start per robot `starts`). */
export const ruleSetsOf = (d: Draft): string[] => courseRuleSets({ ...(d.start ? { start: d.start } : {}), starts: d.starts });
