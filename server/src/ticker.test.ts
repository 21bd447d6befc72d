import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAILURE_LOG_EVERY_MS, serialTicker } from './ticker.js';

test('a check failing on every tick (the database down) is logged once, then at most once a minute, and its recovery once', async () => {
  let now = 0;
  let down = true;
  const lines: string[] = [];
  const tick = serialTicker('deadline check', async () => {
    if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
  }, (l) => lines.push(l), { now: () => now });
  // Two minutes of ticks every 500 ms: 240 failures.
  for (let i = 0; i < 240; i++, now += 500) await tick();
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.equal(lines[0], 'deadline check failed: connect ECONNREFUSED 127.0.0.1:5432');
  assert.match(lines[1]!, /^deadline check failed \(121 tries in a row\): connect ECONNREFUSED/);
  assert.equal(FAILURE_LOG_EVERY_MS, 60_000);
  down = false;
  await tick();
  await tick();
  assert.deepEqual(lines.slice(2), ['deadline check works again after 240 failed tries']);
  // A new outage is logged at once.
  down = true;
  await tick();
  assert.equal(lines.length, 4);
  assert.equal(lines[3], 'deadline check failed: connect ECONNREFUSED 127.0.0.1:5432');
});

test('a tick while the last check still runs starts no second check', async () => {
  let running = 0;
  let most = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const tick = serialTicker('deadline check', async () => {
    running++;
    most = Math.max(most, running);
    await gate;
    running--;
  }, () => {}, { now: () => 0 });
  const first = tick();
  await tick();
  await tick();
  release();
  await first;
  assert.equal(most, 1);
});
