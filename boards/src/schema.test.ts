/**
 * The public JSON Schemas (docs/schema) and the readers agree: every shipped board and course file,
 * mutated at every place in every way below, is refused by the reader whenever the schema refuses
 * it; where the schema accepts and the reader refuses, the reason is one no schema can state (rows
 * of different widths, a square off this board, boards that overlap …), from a short list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseBoardFile, parseCourse, type BoardJson } from '../../engine/src/index.js';
import { agree, type Json } from '../../testkit/src/index.js';
import { COURSES_DIR, FACTORY_DIR, boardNames, courseNames } from './library.js';

const SCHEMAS = fileURLToPath(new URL('../../../docs/schema', import.meta.url));
const ajv = new Ajv2020({ strict: false });
const boardSchema = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, 'board.schema.json'), 'utf8')));
const courseSchema = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, 'course.schema.json'), 'utf8')));
const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** Replacement values tried at every place: each kind, the edges of the bounds, and past them. */
const VALUES: Json[] = [null, true, '', ' ', 'x', 'N', '0,0 N', '47,47 W', 'G+', -1, 0, 1, 3, 5, 6, 8, 9, 47, 48, 90, 1.5, 4294967295, [], {}, [0], [0, 0], [47, 47], [48, 0], [1, 2, 3], [{}]];

/** Refusals the schemas cannot state: they depend on other fields or on the boards a course names. */
const BEYOND_SCHEMA = [
  /cells like row 0/, /portal T\d appears \d times/, /is off the \d+x\d+ board/, /on the \d+x\d+ board/, /already stands on/,
  /no ledge on side/, /expected a square a robot can stand on/, // a board's own size and floor
  /overlaps/, /is not on any board of the course/, /no board named/, /^expected \[fewest, most\] players/, /nine portal pairs/,
  /the course is \d+x\d+ squares/, // a course's boards
  /a cube is six boards/, /a cube's boards are squares/, /a cube's boards meet edge to edge/, /does not fold into a cube/, // a cube's net (004 L179)
];

const BOARDS = new Map(boardNames().map((n) => [n, read(join(FACTORY_DIR, `${n}.json`)) as Json]));

test('the board schema and the board reader agree on every mutation of every shipped board', () => {
  const n = agree('boards', [...BOARDS], VALUES, (v) => boardSchema(v) as boolean, (v) => {
    const r = parseBoardFile(v);
    return { ok: r.ok, why: r.ok ? '' : r.error.message };
  }, BEYOND_SCHEMA);
  assert.ok(n > 10000, `only ${n} mutants`);
});

test('the course schema and the course reader agree on every mutation of every shipped course', () => {
  const boards = (name: string) => BOARDS.get(name) as BoardJson | undefined;
  const n = agree('courses', courseNames().map((c) => [c, read(join(COURSES_DIR, `${c}.json`)) as Json]), VALUES, (v) => courseSchema(v) as boolean, (v) => {
    const r = parseCourse(v, boards);
    return { ok: r.ok, why: r.ok ? '' : r.error.message };
  }, BEYOND_SCHEMA);
  assert.ok(n > 5000, `only ${n} mutants`);
});
