/**
 * The bundle is safe while a server serves it: the web tests' files each bundle before their tests
 * and run side by side, so a bundle of the same sources must leave the files being served in place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { ASSETS, bundle } from '../build/bundle.js';

test('bundling the same sources again leaves every asset file in place (no moment without it), and the manifest names only files that are there', async () => {
  const first = await bundle();
  const stamp = (n: string) => ((s) => `${s.ino}:${s.mtimeNs}`)(statSync(`${ASSETS}${n}`, { bigint: true }));
  const before = new Map(readdirSync(ASSETS).map((n) => [n, stamp(n)]));
  const second = await bundle();
  assert.deepEqual(second, first);
  for (const [n, was] of before) assert.equal(stamp(n), was, `${n} was written again`);
  assert.deepEqual(readdirSync(ASSETS).sort(), [...new Set([...Object.values(second), 'manifest.json'])].sort());
});
