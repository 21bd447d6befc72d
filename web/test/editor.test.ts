/** The course editor's model without a browser: the same refusals as the server's, each naming its field. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { boardNames, courseFromJson, loadBoard, loadCourse } from '../../boards/src/index.js';
import { courseFile, describeFold, type BoardJson } from '../../engine/src/index.js';
import { addBoard, check, fromJson, fromText, place, ruleSetsOf, toJson, type Draft } from '../src/editor-model.js';

const shipped = new Map(boardNames().map((n) => {
  const b = loadBoard(n);
  if (!b.ok) throw new Error(b.error.message);
  return [n, b.value.file as BoardJson] as const;
}));
const lookup = (n: string) => shipped.get(n);

const blank: Draft = { name: 'Mine', description: '', players: [1, 4], complexity: 'easy', time: 'short', boards: [{ board: 'atoll', x: 0, y: 0, rotation: 0 }], flags: [], start: null, starts: [] };

test('a blank course is drawn before any flag is placed, and says what it lacks', () => {
  const c = check(blank, lookup);
  assert.ok(c.board, 'the floor is drawn');
  assert.deepEqual(c.problems.map((p) => p.field), ['flags']);
  assert.equal(c.course, null);
});

test('flags and a start placed by clicks make a course fit to race on, which the server takes as it is', () => {
  let d = place(blank, 'flag', [9, 3]);
  d = place(d, 'flag', [5, 6]);
  d = place(d, 'start', [10, 10]);
  const c = check(d, lookup);
  assert.deepEqual(c.problems, []);
  assert.ok(c.course);
  assert.deepEqual(ruleSetsOf(d).length, 1);
  const server = courseFromJson(JSON.parse(JSON.stringify(toJson(d))));
  assert.ok(server.ok, server.ok ? '' : server.error.message);
  // A second click on a flag takes it off.
  assert.deepEqual(place(d, 'flag', [9, 3]).flags, [[5, 6]]);
});

test('each problem names its field: a board that does not meet the others, a flag on a pit, a start off a repair site', () => {
  let d = place(place(blank, 'flag', [3, 3]), 'start', [0, 0]);
  d = { ...d, boards: [...d.boards, { board: 'flyover', x: 20, y: 20, rotation: 90 }] };
  const fields = check(d, lookup).problems.map((p) => p.field);
  assert.ok(fields.includes('boards[1]'), fields.join());
  assert.ok(fields.includes('flags[0]'), fields.join());
  assert.ok(fields.includes('start'), fields.join());
  assert.ok(check(d, lookup).problems.every((p) => p.at !== null), 'each drawn at its square');
});

test('a board added goes east of the others and meets them; boards that overlap are refused naming the board', () => {
  const two = addBoard(blank, 'flyover', lookup);
  assert.deepEqual(two.boards[1], { board: 'flyover', x: 12, y: 0, rotation: 0 });
  assert.ok(!check(two, lookup).problems.some((p) => p.field.startsWith('boards')));
  const over = check({ ...two, boards: [two.boards[0]!, { ...two.boards[1]!, x: 6 }] }, lookup);
  assert.equal(over.board, null);
  assert.equal(over.problems[0]!.field, 'boards[1]');
});

test('an uploaded course file is read into the editor, or refused naming the field', () => {
  const read = fromJson({ name: 'Up', players: [2, 4], complexity: 'hard', time: 'long', boards: [{ board: 'atoll', x: 0, y: 0 }], flags: [[9, 3]], start: [10, 10] });
  assert.ok(read.ok);
  assert.deepEqual(read.ok && read.draft.boards[0], { board: 'atoll', x: 0, y: 0, rotation: 0 });
  const bad = (json: unknown) => {
    const r = fromJson(json);
    return r.ok ? null : r.field;
  };
  assert.equal(bad([]), 'course');
  assert.equal(bad({ name: 'U', players: [1, 2], complexity: 'easy', time: 'short', boards: [], colour: 'red' }), 'colour');
  assert.equal(bad({ name: 'U', players: [1, 2], complexity: 'easy', time: 'short', boards: [{ board: 'atoll', x: 0, y: 0, rotation: 45 }] }), 'boards[0].rotation');
  assert.equal(bad({ name: 'U', players: [1, 2], complexity: 'easy', time: 'short', boards: [], flags: [[1, 1], [1]] }), 'flags[1]');
});

test('a cube course read into the editor stays a cube (004 L179): its file keeps "cube", and the draft checks as the same folded course', () => {
  const shippedCube = loadCourse('cube-works');
  assert.ok(shippedCube.ok);
  const file = courseFile(shippedCube.value.course);
  assert.equal(file.cube, true);
  const read = fromJson(file);
  assert.ok(read.ok, JSON.stringify(read));
  assert.equal(toJson(read.draft).cube, true);
  const c = check(read.draft, lookup);
  assert.deepEqual(c.problems, []);
  assert.deepEqual(describeFold(c.course!.board.fold!), describeFold(shippedCube.value.course.board.fold!));
  const bad = fromJson({ ...file, cube: 'yes' });
  assert.ok(bad.ok, 'the shape is the engine\'s to judge');
  assert.match(check(bad.draft, lookup).problems[0]!.field, /^cube$/);
});

test('any file read into the editor is a draft or a refusal naming a field, and any draft it reads is checked without an exception (property)', () => {
  const course = JSON.parse(JSON.stringify(toJson({ ...blank, boards: [{ board: 'atoll', x: 0, y: 0, rotation: 0 }, { board: 'flyover', x: 12, y: 0, rotation: 90 }], flags: [[9, 3], [20, 5]], start: [10, 10], starts: [[1, 1], [2, 2]] }))) as Record<string, unknown>;
  const odd = fc.constantFrom<unknown>(null, -1, 47, 48, 1e9, -1e9, 2 ** 31, 0.5, Number.MAX_SAFE_INTEGER, '', 'atoll', 'no-such-board', [], [0], [47, 47], [1e9, 0], {}, true, 270, 45, Array(500).fill([0, 0]));
  const value = fc.oneof(fc.anything(), odd);
  // The valid file with one of its fields, or one element of a list field, replaced.
  const mutated = fc.tuple(fc.constantFrom(...Object.keys(course), 'cube', 'extra'), fc.nat(3), value, fc.boolean()).map(([k, i, v, inList]) => {
    const m = structuredClone(course);
    const at = m[k];
    if (inList && Array.isArray(at) && at.length) {
      const list = [...at];
      list[i % list.length] = k === 'boards' && typeof v !== 'object' ? { ...(list[i % list.length] as object), [['board', 'x', 'y', 'rotation'][i]!]: v } : v;
      m[k] = list;
    } else m[k] = v;
    return m;
  });
  fc.assert(fc.property(fc.oneof(value, mutated), (json) => {
    const read = fromJson(json);
    if (!read.ok) {
      assert.ok(typeof read.field === 'string' && read.field && typeof read.message === 'string');
      return;
    }
    const c = check(read.draft, lookup);
    for (const p of c.problems) assert.ok(typeof p.field === 'string' && typeof p.message === 'string');
  }), { numRuns: 1000, seed: 5 });
});

test('an imported course file with a key written twice is refused at the second, as the server and the command line refuse it (JSON.parse took the last flags in silence)', () => {
  const text = '{\n  "name": "Twice", "players": [1, 4], "complexity": "easy", "time": "short",\n  "boards": [{"board": "atoll", "x": 0, "y": 0}],\n  "flags": [[9, 3]],\n  "flags": [[5, 6]]\n}\n';
  const read = fromText(text);
  assert.equal(read.ok, false);
  assert.equal(!read.ok && read.message, 'is not JSON: line 5, column 3: the key "flags" a second time in one object (first at line 4, column 3); expected each key once');
  // Written once, the same file reads; a byte-order mark is skipped, as the command line skips it.
  const once = fromText(`\ufeff${text.replace(/,\n  "flags": \[\[5, 6\]\]/, '')}`);
  assert.ok(once.ok && once.draft.flags.length === 1, JSON.stringify(once));
  assert.equal((fromText('{"name": "x",}') as { message: string }).message, 'is not JSON: line 1, column 14: expected a property name in double quotes, found "}"');
});
