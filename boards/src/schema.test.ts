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
import { COURSES_DIR, FACTORY_DIR, boardNames, courseNames } from './library.js';

const SCHEMAS = fileURLToPath(new URL('../../../docs/schema', import.meta.url));
const ajv = new Ajv2020({ strict: false });
const boardSchema = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, 'board.schema.json'), 'utf8')));
const courseSchema = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, 'course.schema.json'), 'utf8')));
const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

/** Replacement values tried at every place: each kind, the edges of the bounds, and past them. */
const VALUES: Json[] = [null, true, '', ' ', 'x', 'N', '0,0 N', '47,47 W', 'G+', -1, 0, 1, 3, 5, 6, 8, 9, 47, 48, 90, 1.5, 4294967295, [], {}, [0], [0, 0], [47, 47], [48, 0], [1, 2, 3], [{}]];

/** Every place in a value: the keys of objects, the first, a middle and the last element of lists. */
function places(v: Json, path: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(v)) {
    const ks = [...new Set([0, v.length >> 1, v.length - 1])].filter((k) => k >= 0 && k < v.length);
    for (const k of ks) (out.push([...path, k]), places(v[k]!, [...path, k], out));
  } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.push([...path, k]), places(x, [...path, k], out));
  return out;
}

const copy = <T>(v: T): T => structuredClone(v);
function parentOf(root: Json, path: Path): Json[] | Record<string, Json> {
  let o = root as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, Json>;
  return o as Json[] | Record<string, Json>;
}

/** The mutants of one file: each value replaced, each key removed or misspelt, each list emptied, shortened, grown past its bound. */
function* mutants(file: Json): Generator<[string, Json]> {
  for (const path of places(file)) {
    const at = path.join('.');
    const last = path[path.length - 1]!;
    const value = (parentOf(file, path) as Record<string | number, Json>)[last]!;
    for (const v of VALUES) {
      const m = copy(file);
      (parentOf(m, path) as Record<string | number, Json>)[last] = v;
      yield [`${at} = ${JSON.stringify(v)}`, m];
    }
    if (typeof last === 'string') {
      const gone = copy(file);
      delete (parentOf(gone, path) as Record<string, Json>)[last];
      yield [`${at} removed`, gone];
      const typo = copy(file);
      (parentOf(typo, path) as Record<string, Json>)[`${last.slice(0, -1)}`] = value;
      yield [`${at} also as ${last.slice(0, -1)}`, typo];
    }
    if (typeof value === 'string') {
      for (const s of [`${value} .`, value.replace(/\S+$/, 'Q'), `${value.split(' ').slice(0, 2).join(' ')}`, Array(49).fill('.').join(' ')]) {
        const m = copy(file);
        (parentOf(m, path) as Record<string | number, Json>)[last] = s;
        yield [`${at} = ${JSON.stringify(s).slice(0, 30)}`, m];
      }
    }
    if (Array.isArray(value) && value.length) {
      for (const n of [0, 1, 5, 6, 8, 9, 16, 17, 48, 49]) {
        const m = copy(file);
        (parentOf(m, path) as Record<string | number, Json>)[last] = Array.from({ length: n }, (_, k) => copy(value[k % value.length]!));
        yield [`${at} with ${n} entries`, m];
      }
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const m = copy(file);
      (parentOf(m, path) as Record<string | number, Json>)[last] = { ...value, rotaton: 90 };
      yield [`${at} with an unknown key`, m];
    }
  }
  const top = copy(file) as Record<string, Json>;
  top.rotaton = 90;
  yield ['an unknown key at the top', top];
}

/** Refusals the schemas cannot state: they depend on other fields or on the boards a course names. */
const BEYOND_SCHEMA = [
  /cells like row 0/, /portal T\d appears \d times/, /is off the \d+x\d+ board/, /on the \d+x\d+ board/, /already stands on/,
  /no ledge on side/, /expected a square a robot can stand on/, // a board's own size and floor
  /overlaps/, /is not on any board of the course/, /no board named/, /^expected \[fewest, most\] players/, /nine portal pairs/,
  /the course is \d+x\d+ squares/, // a course's boards
  /a cube is six boards/, /a cube's boards are squares/, /a cube's boards meet edge to edge/, /does not fold into a cube/, // a cube's net (004 L179)
];

function agree(kind: string, files: [string, Json][], schema: (v: unknown) => boolean, reader: (v: Json) => { ok: boolean; why: string }): number {
  let n = 0;
  const disagreements: string[] = [];
  for (const [name, file] of files) {
    assert.ok(schema(file), `${name} does not match its schema`);
    assert.ok(reader(file).ok, `${name} is refused: ${reader(file).why}`);
    for (const [what, m] of mutants(file)) {
      n++;
      const valid = schema(m);
      const read = reader(m);
      if (!valid && read.ok) disagreements.push(`${name}: ${what}: the schema refuses it, the reader accepts it`);
      if (valid && !read.ok && !BEYOND_SCHEMA.some((r) => r.test(read.why)))
        disagreements.push(`${name}: ${what}: the schema accepts it, the reader refuses it: ${read.why}`);
    }
  }
  assert.deepEqual(disagreements.slice(0, 20), [], `${kind}: ${disagreements.length} disagreements`);
  return n;
}

const BOARDS = new Map(boardNames().map((n) => [n, read(join(FACTORY_DIR, `${n}.json`)) as Json]));

test('the board schema and the board reader agree on every mutation of every shipped board', () => {
  const n = agree('boards', [...BOARDS], (v) => boardSchema(v) as boolean, (v) => {
    const r = parseBoardFile(v);
    return { ok: r.ok, why: r.ok ? '' : r.error.message };
  });
  assert.ok(n > 10000, `only ${n} mutants`);
});

test('the course schema and the course reader agree on every mutation of every shipped course', () => {
  const boards = (name: string) => BOARDS.get(name) as BoardJson | undefined;
  const n = agree('courses', courseNames().map((c) => [c, read(join(COURSES_DIR, `${c}.json`)) as Json]), (v) => courseSchema(v) as boolean, (v) => {
    const r = parseCourse(v, boards);
    return { ok: r.ok, why: r.ok ? '' : r.error.message };
  });
  assert.ok(n > 5000, `only ${n} mutants`);
});
