import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('./bots.bench.js', import.meta.url));

test('--first starts the rows at that seed, so that a change can be measured on seeds it was not chosen on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bots-bench-'));
  try {
    const out = join(dir, 'races.ndjson');
    const args = ['--rows', 'greedy', '--courses', 'first-shift', '--rules', 'pbem', '--seeds', '2', '--first', '101', '--workers', '1', '--out', out];
    const r = spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const seeds = readFileSync(out, 'utf8').trim().split('\n').flatMap((l) => (JSON.parse(l) as { races: { seed: number }[] }).races.map((x) => x.seed));
    assert.deepEqual(seeds, [101, 102]);
    assert.match(r.stdout, /seeds a row \(101 to 102\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--first refuses what is not a whole number of at least 1', () => {
  const r = spawnSync(process.execPath, [BENCH, '--first', '0'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--first: expected a whole number ≥ 1/);
});

test('--budget-ms gives the expert a time a decision besides its evaluations, and the header and its line say so', () => {
  const r = spawnSync(process.execPath, [BENCH, '--rows', 'expert', '--courses', 'first-shift', '--rules', 'pbem', '--seeds', '1', '--workers', '1', '--budget-ms', '90'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /expert budget 40000 evaluations and 90 ms a decision \(CPU time: the races depend on the machine's speed\)/);
  assert.match(r.stdout, /expert \(budget 40000 evaluations and 90 ms a decision .*\): \d+ decisions/);
});

test('--budget-ms refuses what is not a whole number of at least 1', () => {
  const r = spawnSync(process.execPath, [BENCH, '--budget-ms', '0.5'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--budget-ms: expected a whole number ≥ 1/);
});
