import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inSlices } from './slices.js';

test('work in slices lets the event loop run between two slices, not within one, and does every item in order', async () => {
  const seen: string[] = [];
  // Queued before the work starts: it runs at the first turn of the event loop the work gives up.
  setImmediate(() => seen.push('other task'));
  await inSlices([1, 2, 3, 4, 5], 2, async (n) => {
    // An await that resolves at once (as SQLite's statements do) does not give the turn away.
    await Promise.resolve();
    seen.push(String(n));
  });
  assert.deepEqual(seen, ['1', '2', 'other task', '3', '4', '5']);
});

test('work in slices stops before the next slice once asked to, and takes the items as they were when it began', async () => {
  const items = new Set([1, 2, 3, 4]);
  const done: number[] = [];
  let stopped = false;
  await inSlices(items, 2, (n) => {
    done.push(n);
    items.add(n + 10);
    if (n === 2) setImmediate(() => (stopped = true));
  }, () => stopped);
  assert.deepEqual(done, [1, 2]);
});
