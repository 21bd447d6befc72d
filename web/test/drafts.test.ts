/**
 * The others' registers fill face down while a person programs (the draft, docs/server.md): two
 * people's pages of one race and a spectator's, in Debian's chromium.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { parseCard } from '../../engine/src/index.js';
import { call } from '../../server/src/testing.js';
import { browser, DESKTOP, server, SHOTS, skip, useBrowser } from './browser.js';

// With a clock that stands still the rate limit's window would never close: no limit here.
useBrowser({ max: 1e9, windowMs: 1000 });

test('placing cards on one person\'s page fills that many registers face down on the other person\'s and a spectator\'s (Robots table and legend), and takes one back; a page opened or reloaded mid-turn shows them at once; their traffic never holds the cards; the orders sent show all five', { skip }, async () => {
  const created = (await call(server.base, 'POST', '/api/races', {
    course: 'first-shift', deal: { secret: false, seed: 8 }, seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'greedy' }], deadline: { kind: 'live', seconds: 600 },
  })).body as { id: string; seats: { link: string | null }[] };
  const ctx = await browser.newContext(DESKTOP);
  const traffic = new Map<Page, string[]>();
  const errors: string[] = [];
  const open = async (path: string) => {
    const page = await ctx.newPage();
    const got: string[] = [];
    traffic.set(page, got);
    page.on('pageerror', (e) => errors.push(e.message));
    // The race's data: API answers and stream frames.
    page.on('response', (r) => void (new URL(r.url()).pathname.startsWith('/api/') ? r.text().then((t) => got.push(t), () => undefined) : undefined));
    page.on('websocket', (ws) => ws.on('framereceived', (f) => got.push(String(f.payload))));
    await page.goto(server.base + path);
    await page.waitForSelector('body[data-live]');
    return page;
  };
  const ava = await open(created.seats[0]!.link!);
  const bob = await open(created.seats[1]!.link!);
  const watcher = await open(`/race/${created.id}`);
  // Ava's page took her seat with its invite: its address holds her seat's own token now.
  const token = new URL(ava.url()).searchParams.get('token');
  assert.ok(token, 'the seat\'s own link in the address');
  const hand = (await call(server.base, 'GET', `/api/races/${created.id}/seats/0`, undefined, { authorization: `Bearer ${token}` })).body.you.hand as string[];
  const faceDown = (page: Page) => page.locator('#seats tr[data-seat="0"] .reg-mini.facedown').count();
  // In the Robots table and in the legend under the board (in view with it while programming).
  const until = (page: Page, n: number) => page.waitForFunction(`[...document.querySelectorAll('#seats tr[data-seat="0"], #legend li[data-seat="0"]')]
    .every((e) => e.querySelectorAll('.reg-mini.facedown').length === ${n}) && document.querySelectorAll('#legend li[data-seat="0"] .reg-mini').length === 5`);

  for (const page of [bob, watcher]) assert.equal(await faceDown(page), 0, 'nothing programmed yet');
  // Ava taps three cards into her registers, one after another.
  for (let k = 1; k <= 3; k++) {
    await ava.locator('.hand .card').first().click();
    await ava.waitForSelector(`.register[data-register="${k}"] .card`);
    await until(bob, k);
    await until(watcher, k);
  }
  await bob.screenshot({ path: `${SHOTS}drafts-other-page.png` });
  // Big enough to tell face down from empty beside a name.
  const reg = (await bob.locator('#legend li[data-seat="0"] .reg-mini').first().boundingBox())!;
  assert.ok(reg.width >= 6 && reg.height >= 10, `a register in the legend is ${reg.width}×${reg.height} px`);
  // She takes the second back: two face down.
  await ava.click('.register[data-register="2"] .card');
  await Promise.all([until(bob, 2), until(watcher, 2)]);
  // A page opened now, mid-turn (a spectator's; Bob's reloaded), shows the two at once: its stream begins with them.
  const late = await open(`/race/${created.id}`);
  await until(late, 2);
  await bob.reload();
  await bob.waitForSelector('body[data-live]');
  await until(bob, 2);
  await late.screenshot({ path: `${SHOTS}drafts-opened-mid-turn.png` });
  // Nothing of Ava's hand reached Bob or the spectators, by name ("F2:670") or by number ("card":670), nor is on their pages.
  for (const page of [bob, watcher, late]) {
    const seen = traffic.get(page)!;
    assert.ok(seen.some((t) => t.startsWith('{"draft"')), 'the drafts came on the stream');
    assert.deepEqual(hand.filter((card) => seen.some((t) => t.includes(card) || new RegExp(`"card":${parseCard(card, true)}(?!\\d)`).test(t))), [], 'no card of Ava\'s in the traffic');
    assert.equal(await page.locator(hand.map((c) => `[data-card="${c}"]`).join(', ')).count(), 0, 'no card of Ava\'s on the page');
  }
  // Her orders in: five face down, from the view.
  for (let k = 0; k < 3; k++) await ava.locator('.hand .card').first().click();
  await ava.click('.send');
  await Promise.all([until(bob, 5), until(watcher, 5)]);
  await bob.waitForSelector('#seats tr[data-seat="0"] .submitted:text("sent ✓")');
  await ctx.close();
  assert.deepEqual(errors, [], 'no script errors');
});

test('during the replay of a played turn the Robots table\'s Orders column says how each robot\'s orders were played (sent, filled at random, bot), never "not yet"', { skip }, async () => {
  const created = (await call(server.base, 'POST', '/api/races', {
    course: 'first-shift', deal: { secret: false, seed: 8 }, seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'greedy' }], deadline: { kind: 'live', seconds: 600 },
  })).body as { id: string; moderatorKey: string; seats: { link: string | null }[] };
  const ctx = await browser.newContext(DESKTOP);
  const errors: string[] = [];
  const bob = await ctx.newPage();
  bob.on('pageerror', (e) => errors.push(e.message));
  await bob.goto(server.base + created.seats[1]!.link!);
  await bob.waitForSelector('body[data-live]');
  const ava = await ctx.newPage();
  await ava.goto(server.base + created.seats[0]!.link!);
  await ava.waitForSelector('.hand .card');
  for (let k = 0; k < 5; k++) await ava.locator('.hand .card').first().click();
  await ava.click('.send');
  await bob.waitForSelector('#seats tr[data-seat="0"] .submitted:text("sent ✓")');
  // Bob sends nothing: the moderator plays the turn, his registers filled at random.
  await call(server.base, 'POST', `/api/races/${created.id}/moderator/adjudicate`, {}, { 'x-moderator-key': created.moderatorKey });
  await bob.waitForSelector('body[data-mode="replay"] #replay[data-turn="1"]');
  const orders = () => bob.locator('#seats tbody tr .submitted').allTextContents();
  await bob.waitForSelector('#seats tr[data-seat="1"] .submitted:text-is("random fill")');
  assert.deepEqual(await orders(), ['sent ✓', 'random fill', 'bot'], 'while the replay plays');
  await bob.screenshot({ path: `${SHOTS}orders-in-replay.png` });
  // Turn 2 open: "Now" tells the open turn's orders, none sent yet.
  await bob.click('#tab-now');
  await bob.waitForSelector('#seats tr[data-seat="0"] .submitted:text-is("not yet")');
  assert.deepEqual(await orders(), ['not yet', 'not yet', 'bot'], 'now, turn 2');
  // Back to the replay of turn 1: as it was played again.
  await bob.click('#tab-replay');
  await bob.waitForSelector('#seats tr[data-seat="0"] .submitted:text-is("sent ✓")');
  assert.deepEqual(await orders(), ['sent ✓', 'random fill', 'bot'], 'the replay shown again');
  await ctx.close();
  assert.deepEqual(errors, [], 'no script errors');
});
