/**
 * Code outside the engine never asks which rule set it runs: it reads the rule set's data
 * (`RULE_SETS[name].gearCodes`, `.takeOptionChoice` …). A comparison with a rule set's name is
 * refused anywhere outside engine/, tests included; there is no list of exceptions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULE_SETS } from '../game.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', 'engine', '.git', 'data']);

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith('.') || SKIP.has(name)) return [];
    const path = join(dir, name);
    const s = statSync(path, { throwIfNoEntry: false });
    if (!s) return [];
    if (s.isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The ways code asks a rule set's name: compares it, switches on it, or looks for it in a list. */
export function nameChecks(source: string, names: readonly string[]): string[] {
  const n = names.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const q = `['"\`](?:${n})['"\`]`;
  const patterns = [
    new RegExp(`(?:===|!==|==|!=)\\s*${q}`),
    new RegExp(`${q}\\s*(?:===|!==|==|!=)`),
    new RegExp(`\\bcase\\s+${q}\\s*:`),
    new RegExp(`\\.(?:includes|indexOf|startsWith|endsWith|has)\\(\\s*${q}\\s*\\)`),
  ];
  const found: string[] = [];
  source.split('\n').forEach((line, k) => {
    if (patterns.some((p) => p.test(line))) found.push(`${k + 1}: ${line.trim()}`);
  });
  return found;
}

test('the scan finds each way of asking a rule set by name, and not a rule set chosen by name', () => {
  const names = ['classic', 'pbem'];
  for (const asks of [`if (rules === 'pbem') x();`, `r.name !== "classic"`, "'pbem' == rules", '  case `classic`:', `c.rules.includes('classic')`])
    assert.equal(nameChecks(asks, names).length, 1, asks);
  for (const chooses of [`makeSetup(board, 'pbem')`, `{ rules: 'classic', seed: 1 }`, `RULE_SETS[rules]!.gearCodes`, `rules === other`])
    assert.deepEqual(nameChecks(chooses, names), [], chooses);
});

test('no code outside engine/ compares a rule set name: it reads the rule set data', () => {
  const names = Object.keys(RULE_SETS);
  assert.ok(names.length >= 2);
  const files = tsFiles(ROOT);
  assert.ok(files.length > 50, `found only ${files.length} .ts files under ${ROOT}`);
  const found = files.flatMap((f) => nameChecks(readFileSync(f, 'utf8'), names).map((l) => `${relative(ROOT, f)}:${l}`));
  assert.deepEqual(found, [], `rule set names asked outside engine/ (read RULE_SETS[name]'s data instead):\n${found.join('\n')}`);
});

test('docs/engine.md lists every data field a rule set answers the outside with', () => {
  const doc = readFileSync(join(ROOT, 'docs/engine.md'), 'utf8');
  const fields = new Set(Object.values(RULE_SETS).flatMap((rs) => Object.entries(rs).filter(([k, v]) => k !== 'name' && (typeof v === 'boolean' || typeof v === 'string')).map(([k]) => k)));
  const missing = [...fields].filter((f) => !doc.includes(`\`${f}\``));
  assert.deepEqual(missing, [], 'rule set fields not in docs/engine.md "Rule sets"');
});
