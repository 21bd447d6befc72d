import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Floor, parseBoardFile, validateCourse } from '../../engine/src/index.js';
import { COURSES_DIR, FACTORY_DIR, boardNames, courseFromJson, courseNames, loadBoard, loadCourse } from './library.js';

const SCHEMAS = fileURLToPath(new URL('../../../docs/schema', import.meta.url));
const ajv = new Ajv2020({ allErrors: true, strict: false });
const boardSchema = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, 'board.schema.json'), 'utf8')));
const courseSchema = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, 'course.schema.json'), 'utf8')));
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

test("the README's counts of the shipped boards and courses are the library's", () => {
  const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8').replace(/\s+/g, ' ');
  const words = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
  const count = (re: RegExp) => words.indexOf(re.exec(readme)?.[1]?.toLowerCase() ?? '') + 1;
  assert.equal(count(/(\w+) original 12×12 boards/), boardNames().length, 'boards');
  assert.equal(count(/\) and (\w+) courses, from/), courseNames().length, 'courses');
});

test('the project ships at least eight 12x12 factory boards, two of them with expansion elements', () => {
  const names = boardNames();
  assert.ok(names.length >= 8, `only ${names.length} boards`);
  let expansion = 0;
  for (const name of names) {
    const b = loadBoard(name);
    assert.ok(b.ok, `${name}: ${!b.ok && b.error.message}`);
    assert.equal(b.value.board.width, 12, name);
    assert.equal(b.value.board.height, 12, name);
    const f = b.value.board.floor;
    if (f.some((c) => c === Floor.Oil || c === Floor.Portal || c === Floor.Repulsor || c === Floor.ChopShop) || b.value.board.ledges.some((m) => m)) expansion++;
  }
  assert.ok(expansion >= 2, `only ${expansion} boards use expansion elements`);
});

test('every shipped board file matches the board JSON Schema', () => {
  for (const name of boardNames()) assert.ok(boardSchema(read(join(FACTORY_DIR, `${name}.json`))), `${name}: ${ajv.errorsText(boardSchema.errors)}`);
});

test('every shipped course file matches the course JSON Schema and validates with no problem', () => {
  const names = courseNames();
  assert.ok(names.length >= 6, `only ${names.length} courses`);
  for (const name of names) {
    assert.ok(courseSchema(read(join(COURSES_DIR, `${name}.json`))), `${name}: ${ajv.errorsText(courseSchema.errors)}`);
    const c = loadCourse(name);
    assert.ok(c.ok, `${name}: ${!c.ok && `${c.error.field}: ${c.error.message}`}`);
    assert.deepEqual(validateCourse(c.value.course), [], name);
  }
});

test('every shipped course file, the cube one included, is taken whole as a race\'s own course; an unknown key is refused by its path', () => {
  for (const name of courseNames()) {
    const r = courseFromJson(JSON.parse(readFileSync(join(COURSES_DIR, `${name}.json`), 'utf8')));
    assert.equal(r.ok, true, `${name}: ${JSON.stringify(r)}`);
  }
  const typo = { ...JSON.parse(readFileSync(join(COURSES_DIR, 'first-shift.json'), 'utf8')), rotaton: 90 };
  const r = courseFromJson(typo);
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.error.field, 'course.rotaton');
});

test('the courses range from a one-board beginners\' course to a four-board race and an L-shaped one, each for classic and pbem', () => {
  const courses = courseNames().map((n) => loadCourse(n)).flatMap((c) => (c.ok ? [c.value.course] : []));
  assert.ok(courses.some((c) => c.boards.length === 1 && c.complexity === 'easy'), 'no easy one-board course');
  assert.ok(courses.some((c) => c.boards.length >= 4), 'no four-board course');
  assert.ok(courses.some((c) => c.boardAt.some((o) => o < 0)), 'no L-shaped course (with a hole in its bounding box)');
  for (const c of courses) {
    assert.ok(c.start, `${c.name} has no classic start`);
    assert.ok(c.starts.length >= 8, `${c.name} has ${c.starts.length} pbem starts, fewer than 8 robots`);
  }
});

test('the schemas refuse what the engine refuses: an unknown token, a missing name, a bad rotation', () => {
  assert.equal(boardSchema({ name: 'n', author: 'a', description: 'd', grid: ['. Q .'] }), false);
  assert.equal(boardSchema({ author: 'a', description: 'd', grid: ['. .'] }), false);
  assert.equal(courseSchema({ name: 'n', players: [1, 2], complexity: 'easy', time: 'short', boards: [{ board: 'b', x: 0, y: 0, rotation: 45 }], flags: [[0, 0]], start: [0, 0] }), false);
  assert.equal(courseSchema({ name: 'n', players: [1, 2], complexity: 'easy', time: 'short', boards: [{ board: 'b', x: 0, y: 0 }], flags: [[0, 0]] }), false);
});

test('a name, author or description of 2,001 characters is refused by the readers and by the schemas; 2,000 are taken', () => {
  const atoll = read(join(FACTORY_DIR, 'atoll.json'));
  const shift = read(join(COURSES_DIR, 'first-shift.json'));
  for (const key of ['name', 'author', 'description']) {
    for (const [n, takes] of [[2000, true], [2001, false]] as const) {
      const board = { ...atoll, [key]: 'x'.repeat(n) };
      assert.equal(parseBoardFile(board).ok, takes, `board ${key} of ${n}`);
      assert.equal(boardSchema(board), takes, `board schema ${key} of ${n}`);
      const course = { ...shift, [key]: 'x'.repeat(n) };
      assert.equal(courseFromJson(course).ok, takes, `course ${key} of ${n}`);
      assert.equal(courseSchema(course), takes, `course schema ${key} of ${n}`);
    }
  }
  const long = parseBoardFile({ ...atoll, description: 'x'.repeat(2001) });
  assert.deepEqual(long.ok ? null : long.error, { field: 'board.description', message: '2001 characters; expected at most 2000' });
});
