/**
 * The public scenario schema (docs/schema/scenario.schema.json) and the scenario reader agree:
 * scenarios of every kind (classic, pbem, options, expansion elements, house rules), mutated at
 * every place (unknown keys, wrong types, missing fields, numbers past their bounds, cards of the
 * other rule set), are refused by the reader whenever the schema refuses them; where the schema
 * accepts and the reader refuses, the reason is one no schema can state, from a short list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { RULE_SETS } from '../../engine/src/index.js';
import { agree, type Json } from '../../testkit/src/index.js';
import { parseScenario } from './scenario.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ajv = new Ajv2020({ strict: false });
const schema = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'docs/schema/scenario.schema.json'), 'utf8')));
const priorities = (rules: string): boolean | undefined => RULE_SETS[rules]?.priorities;

/** Replacement values tried at every place: each kind, cards of both rule sets, the edges of the bounds, and past them. */
const VALUES: Json[] = [
  null, true, false, '', ' ', 'x', 'N', 'classic', 'pbem', 'F2:670', 'f1:0500 + r:80', 'F2', 'F0', 'F2:671', 'Move two', 'Brakes', 'Mini Howitzer:2',
  -1, 0, 1, 5, 6, 9, 47, 48, 64, 65, 100, 101, 1.5, 4294967295, [], {}, [0], [0, 0], [1, 2, 3], ['F2:670'], [{}], { x: 1 },
];

/** Refusals the schema cannot state: they depend on other fields (names, the board, the flags). */
const BEYOND_SCHEMA = [
  /no robot named/, /is used twice/, /checks nothing/, // names and expectations given elsewhere in the scenario
  /one die per flag/, /is in two teams/, /needs a turn limit/, // settings read against the board and each other
  /cells like row 0/, /portal T\d appears \d times/, /is off the \d+x\d+ board/, /on the \d+x\d+ board/, /already stands on/,
  /no ledge on side/, /expected a square a robot can stand on/, /nine portal pairs/, // the board's own rules
];

/** Our own scenarios: one of each folder, and those using upgrades, choices, re-entry, settings and expectations per turn. */
function sample(): [string, Json][] {
  const dir = join(ROOT, 'scenarios');
  const out: [string, Json][] = [];
  const want = [/"upgrades"/, /"choices"/, /"reenter"/, /"diceRule"/, /"winner"/, /"error"/, /"expect":\s*\{[^}]*\}[^]*"expect"/, /"program"/, /"powerDown"/];
  const seen = new Set<RegExp>();
  for (const folder of readdirSync(dir).sort()) {
    const files = readdirSync(join(dir, folder)).filter((f) => f.endsWith('.json')).sort();
    files.forEach((f, k) => {
      const text = readFileSync(join(dir, folder, f), 'utf8');
      const news = want.filter((w) => !seen.has(w) && w.test(text));
      if (k === 0 || news.length) {
        news.forEach((w) => seen.add(w));
        out.push([`${folder}/${f}`, JSON.parse(text) as Json]);
      }
    });
  }
  assert.deepEqual(want.filter((w) => !seen.has(w)).map(String), [], 'a scenario of each kind');
  return out;
}

test('the scenario schema and the scenario reader agree on every mutation of scenarios of every kind', () => {
  const files = sample();
  const ruleSets = new Set(files.map(([, f]) => (f as { rules: string }).rules));
  assert.deepEqual([...ruleSets].sort(), Object.keys(RULE_SETS).sort(), 'every rule set');
  const n = agree('scenarios', files, VALUES, (v) => schema(v) as boolean, (v) => {
    const r = parseScenario(v, priorities);
    return { ok: r.ok, why: r.ok ? '' : r.error.message };
  }, BEYOND_SCHEMA);
  assert.ok(n > 10000, `only ${n} mutants`);
});
