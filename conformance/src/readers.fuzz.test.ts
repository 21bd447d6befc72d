/**
 * Every reader of outside input, given anything, answers with a value or a typed refusal
 * ({field, message} strings) and never throws: JSON text, boards, board files, courses, settings,
 * scenarios (read and played), Tiled maps. Inputs are fast-check's arbitrary values and valid
 * inputs with one place replaced by an arbitrary value, a deep nest, or a huge number.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { makeSetup, parseBoard, parseBoardFile, parseCourse, parseSettings, type BoardJson } from '../../engine/src/index.js';
import { parseJson, fromTiled, toTiled } from '../../boards/src/index.js';
import { checkScenario } from './run.js';

type Answer = { ok: true } | { ok: false; error: { field: unknown; message: unknown } };

function typed(r: Answer, what: string): void {
  if (r.ok) return;
  assert.equal(typeof r.error.field, 'string', `${what}: field`);
  assert.equal(typeof r.error.message, 'string', `${what}: message`);
}

const BOARD: BoardJson = {
  grid: ['. > > v', 'W O . v', '. G+ T1 <', 'T1 . ~ RF'],
  walls: ['0,0 N', '1,1 E'], ledges: ['2,0 S'], ramps: ['2,0 S'],
  lasers: [{ x: 3, y: 0, dir: 'S', beams: 2 }], pushers: [{ x: 0, y: 2, dir: 'E', registers: [1, 3] }],
  crushers: [{ x: 2, y: 1, registers: [2] }], flags: [[0, 3], [2, 2]], start: [0, 1],
};
const BOARD_FILE = { name: 'Fuzz', author: 'Tests', description: 'A board for the fuzzer.', ...BOARD };
const COURSE = {
  name: 'Fuzz', players: [1, 4], complexity: 'easy', time: 'short',
  boards: [{ board: 'b', x: 0, y: 0, rotation: 90 }, { board: 'b', x: 4, y: 0 }], flags: [[5, 0], [1, 1]], start: [0, 1], starts: [[0, 0], [1, 0]],
};
const SCENARIO = {
  id: 'fuzz', title: 'fuzz', rules: 'classic', settings: { lives: 3 }, seed: 4,
  board: BOARD,
  robots: [{ name: 'A', x: 0, y: 0, dir: 'S', damage: 2, options: ['Shield'] }, { name: 'B', x: 2, y: 3, dir: 'N', archive: [2, 3] }],
  turns: [{ programs: { A: ['F1:500', 'R:80', 'L:70', 'U:10', 'F2:670'], B: ['B:430', 'F1:490', 'R:90', 'L:100', 'U:20'] }, choices: { A: { shield: 'back' } } }],
  expect: { robots: { A: { damage: 2 } }, winner: null },
};
const PBEM = { ...SCENARIO, rules: 'pbem', turns: [{ programs: { A: ['F', 'R', 'L', 'U', 'F2'], B: ['B', 'F', 'R', 'L', 'U'] } }], board: { ...BOARD, upgrades: [{ x: 0, y: 1, name: 'Brakes' }] } };

/** Odd values a fuzzer would try besides fast-check's: deep nests, huge and odd numbers, long lists. */
const odd = fc.constantFrom<unknown>(
  Array.from({ length: 2000 }).reduce<unknown>((v) => [v], 0), 4294967295, 1e6, -0, 1e308, Number.NaN, Infinity, 0.5,
  Array(5000).fill('.'), Array(60).fill('. . .'), '0x3', ' 3', '3.0', '__proto__', { __proto__: null }, '\u0000', '. '.repeat(5000),
);
const anything = fc.oneof(fc.anything(), odd);

/** Every place in a value (objects' keys; lists' first and last elements). */
function places(v: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(v)) for (const k of new Set([0, v.length - 1])) k >= 0 && (out.push([...path, k]), places(v[k], [...path, k], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.push([...path, k]), places(x, [...path, k], out));
  return out;
}

/** The valid value with one place replaced by `v`, or a key added beside it. */
function mutated(valid: unknown): fc.Arbitrary<unknown> {
  return fc.tuple(fc.constantFrom(...places(valid)), anything, fc.boolean()).map(([path, v, add]) => {
    const m = structuredClone(valid) as Record<string | number, unknown>;
    let o = m;
    for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
    if (add && !Array.isArray(o)) o[`${path[path.length - 1]}x`] = v;
    else o[path[path.length - 1]!] = v;
    return m;
  });
}

const RUNS = { numRuns: 1500 };

test('the JSON reader answers any text with a value or a refusal at a line and column', () => {
  const text = fc.oneof(fc.string(), fc.json(), fc.json().map((j) => j.slice(1)), fc.string({ unit: 'binary' }), fc.nat(5000).map((n) => '['.repeat(n)));
  fc.assert(fc.property(text, (t) => {
    const r = parseJson(t, 'f.json');
    typed(r, t);
    if (!r.ok) assert.match(r.error.field, /^f\.json:\d+:\d+$/);
  }), RUNS);
});

test('the board and board file readers never throw', () => {
  fc.assert(fc.property(fc.oneof(anything, mutated(BOARD)), (v) => typed(parseBoard(v), 'board')), RUNS);
  fc.assert(fc.property(fc.oneof(anything, mutated(BOARD_FILE)), (v) => typed(parseBoardFile(v), 'board file')), RUNS);
});

test('the course reader never throws, whatever the course or the boards it names', () => {
  const boards = (name: string) => (name === 'b' ? BOARD : undefined);
  fc.assert(fc.property(fc.oneof(anything, mutated(COURSE)), (v) => typed(parseCourse(v, boards), 'course')), RUNS);
  fc.assert(fc.property(mutated(BOARD), (b) => typed(parseCourse(COURSE, (name) => (name === 'b' ? (b as BoardJson) : undefined)), 'course of a bad board')), RUNS);
});

test('the settings reader never throws', () => {
  fc.assert(fc.property(anything, fc.integer({ min: 0, max: 16 }), (v, flags) => typed(parseSettings(v, flags), 'settings')), RUNS);
});

test('a scenario, read and played, is passed or failed with messages, never thrown', () => {
  const check = (v: unknown) => {
    const r = checkScenario(v, 'fallback');
    assert.ok(r.result === 'pass' || r.result === 'fail');
    assert.ok(r.messages.every((m) => typeof m === 'string'));
  };
  fc.assert(fc.property(fc.oneof(anything, mutated(SCENARIO), mutated(PBEM)), check), RUNS);
});

/** The keys every object answers to (constructor, __proto__, toString, valueOf…): a lookup by name in a plain object finds them. */
const objectKey = fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype));

test('a cell token or a rule set named as a key every object has (constructor, __proto__, toString…) is refused as unknown: a board read such a cell as a floor of nothing, and a setup took such a rule set', () => {
  const rows = BOARD.grid.map((r) => r.split(' '));
  fc.assert(fc.property(objectKey, fc.nat(rows.length - 1), fc.nat(rows[0]!.length - 1), (key, y, x) => {
    const grid = rows.map((r, k) => (k === y ? r.map((t, j) => (j === x ? key : t)) : r).join(' '));
    const board = parseBoard({ ...BOARD, grid });
    assert.ok(!board.ok && board.error.field === `board.grid[${y}]` && board.error.message.startsWith(`unknown cell token "${key}" at column ${x}`), JSON.stringify(board));
    const course = parseCourse(COURSE, (name) => (name === 'b' ? { ...BOARD, grid } : undefined));
    assert.ok(!course.ok && course.error.message.includes(`unknown cell token "${key}"`), JSON.stringify(course));
    const plain = parseBoard(BOARD);
    assert.ok(plain.ok);
    const setup = makeSetup(plain.value, key);
    assert.ok(!setup.ok && setup.error.field === 'rules', key);
  }), { numRuns: 300 });
});

test('the Tiled reader never throws', () => {
  const map = toTiled(BOARD_FILE as never, 'roborally.tsj');
  fc.assert(fc.property(fc.oneof(anything, mutated(map)), (v) => typed(fromTiled(v), 'map')), RUNS);
});
