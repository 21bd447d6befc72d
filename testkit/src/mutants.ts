/**
 * Mutated JSON inputs, for the tests that run a public JSON Schema and a reader over the same
 * inputs and require them to agree (boards/src/schema.test.ts, conformance/src/schema.test.ts).
 */
import assert from 'node:assert/strict';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];

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

/**
 * The mutants of one file: at every place each of `values`, each key removed or misspelt, each
 * string grown, cut and garbled, each list emptied, shortened, grown past its bound, each object
 * given an unknown key; and an unknown key at the top.
 */
export function* mutants(file: Json, values: readonly Json[]): Generator<[string, Json]> {
  for (const path of places(file)) {
    const at = path.join('.');
    const last = path[path.length - 1]!;
    const value = (parentOf(file, path) as Record<string | number, Json>)[last]!;
    for (const v of values) {
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

/** How one input fared with a reader: accepted, or refused and why. */
export interface Read {
  readonly ok: boolean;
  readonly why: string;
}

/**
 * Runs the schema and the reader over every mutant of every file (each file itself accepted by
 * both) and fails on any disagreement: the schema refusing what the reader accepts, or the schema
 * accepting what the reader refuses for a reason other than those `beyond` names (what no schema
 * can state). Returns the number of mutants.
 */
export function agree(kind: string, files: readonly [string, Json][], values: readonly Json[], schema: (v: unknown) => boolean, reader: (v: Json) => Read, beyond: readonly RegExp[]): number {
  let n = 0;
  const disagreements: string[] = [];
  for (const [name, file] of files) {
    assert.ok(schema(file), `${name} does not match its schema`);
    assert.ok(reader(file).ok, `${name} is refused: ${reader(file).why}`);
    for (const [what, m] of mutants(file, values)) {
      n++;
      const valid = schema(m);
      const read = reader(m);
      if (!valid && read.ok) disagreements.push(`${name}: ${what}: the schema refuses it, the reader accepts it`);
      if (valid && !read.ok && !beyond.some((r) => r.test(read.why)))
        disagreements.push(`${name}: ${what}: the schema accepts it, the reader refuses it: ${read.why}`);
    }
  }
  assert.deepEqual(disagreements.slice(0, 20), [], `${kind}: ${disagreements.length} disagreements`);
  return n;
}
