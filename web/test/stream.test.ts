/**
 * A race page whose stream the server refuses before its upgrade (docs/web.md, "Live updates"): it
 * says why, waits as the server asks, and follows the race once there is room. Debian's chromium.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, until } from '../../server/src/testing.js';
import { browser, DESKTOP, server, skip, useBrowser } from './browser.js';

// One stream per address: a second page of the browser is refused.
useBrowser({ max: 1e9, windowMs: 1000 }, { perAddress: 1 });

test('a page whose stream is refused before its upgrade (its address holds its most streams) says why in its status line, tries again no sooner than the Retry-After, and follows the race live once the other page is closed', { skip }, async () => {
  const made = (await call(server.base, 'POST', '/api/races', {
    course: 'first-shift', deadline: { kind: 'live', seconds: 600 }, seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'greedy' }],
  })).body as { id: string };
  const ctx = await browser.newContext(DESKTOP);
  try {
    const first = await ctx.newPage();
    await first.goto(`${server.base}/race/${made.id}`);
    await first.waitForSelector('body[data-live]');
    const second = await ctx.newPage();
    const errors: string[] = [];
    second.on('pageerror', (e) => errors.push(e.message));
    const attempts: number[] = [];
    second.on('websocket', () => attempts.push(Date.now()));
    await second.goto(`${server.base}/race/${made.id}`);
    await second.waitForSelector('#status .offline:text("live updates refused")');
    assert.match(await second.locator('#status .offline').innerText(), /this address holds its most streams \(1\): close a page of a race/);
    await until('the page tries again', () => attempts.length >= 2, 20_000);
    await first.close();
    await second.waitForSelector('body[data-live]', { timeout: 30_000 });
    assert.doesNotMatch(await second.locator('#status').innerText(), /refused|reconnecting/);
    const gaps = attempts.slice(1).map((t, k) => t - attempts[k]!);
    assert.ok(gaps.every((g) => g >= 4_500), `attempts ${gaps.join(', ')} ms apart: none sooner than the Retry-After (5 s)`);
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});
