/** The wait of a race page before it opens its stream again (web/src/reconnect.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rand } from '../../testkit/src/index.js';
import { FIRST_BACKOFF_MS, MOST_BACKOFF_MS, nextBackoff, reconnectDelay } from '../src/reconnect.js';

test('1,000 pages whose streams a server restart dropped at once come back spread over the backoff, not in the same instant', () => {
  const rand = new Rand(7);
  const delays = Array.from({ length: 1000 }, () => reconnectDelay(FIRST_BACKOFF_MS, 0, () => rand.u32() / 0x100000000));
  assert.ok(delays.every((d) => d >= 0 && d < FIRST_BACKOFF_MS), 'each within the backoff');
  // Ten slices of the backoff: each gets about a tenth of the pages.
  const slices = Array.from({ length: 10 }, (_, k) => delays.filter((d) => Math.floor(d / (FIRST_BACKOFF_MS / 10)) === k).length);
  assert.ok(slices.every((n) => n >= 60 && n <= 140), `pages per tenth of the backoff: ${slices.join(', ')}`);
  assert.ok(new Set(delays).size > 400, 'hardly two pages at the same millisecond');
});

test('a server\'s Retry-After is waited whole, the jitter on top of it; the backoff doubles up to 10 s', () => {
  assert.equal(reconnectDelay(2000, 5000, () => 0), 5000);
  assert.equal(reconnectDelay(2000, 5000, () => 0.999_999), 6999);
  const backoffs = [FIRST_BACKOFF_MS];
  while (backoffs.length < 8) backoffs.push(nextBackoff(backoffs[backoffs.length - 1]!));
  assert.deepEqual(backoffs, [500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  assert.equal(MOST_BACKOFF_MS, 10_000);
});
