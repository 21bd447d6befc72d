import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { board, testCases } from './fixtures.js';
import { checkSnapshots, snapshotDir, updating } from './snapshots.js';

test('the committed snapshots in render/snapshots match fresh renders (UPDATE_SNAPSHOTS=1 rewrites them)', () => {
  const results = checkSnapshots(testCases(), snapshotDir());
  for (const r of results) {
    if (updating()) assert.ok(r.status === 'same' || r.status === 'written', r.name);
    else assert.equal(r.status, 'same', `${r.file}: ${r.detail}`);
  }
  assert.equal(results.length, testCases().length);
});

test('the snapshot helper reports missing and changed pictures, and writes them when updating', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-snap-'));
  try {
    const cases = [{ name: 'tiny', board: board({ grid: ['. >'] }) }];
    assert.equal(checkSnapshots(cases, dir, false)[0]!.status, 'missing');
    assert.equal(checkSnapshots(cases, dir, true)[0]!.status, 'written');
    assert.equal(checkSnapshots(cases, dir, false)[0]!.status, 'same');
    const file = join(dir, 'tiny.svg');
    writeFileSync(file, readFileSync(file, 'utf8').replace('data-dir="E"', 'data-dir="W"'));
    const changed = checkSnapshots(cases, dir, false)[0]!;
    assert.equal(changed.status, 'changed');
    assert.match(changed.detail!, /line \d+ column \d+: committed ".*data-dir=\\"W\\".*" \/ fresh ".*data-dir=\\"E\\".*"/);
    assert.throws(() => checkSnapshots([{ name: '../x', board: cases[0]!.board }], dir, false), /snapshot name/);
    assert.throws(() => checkSnapshots([cases[0]!, cases[0]!], dir, false), /given twice/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
