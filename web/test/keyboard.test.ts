/**
 * Playing from the keyboard alone on a laptop, in Debian's chromium (playwright-core): Tab to a
 * card, Enter to place it, Enter on Send. Found by playing whole races from outside (docs/web.md,
 * "Tried from outside on 2026-11-30 (night)").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { call, until } from '../../server/src/testing.js';
import { browser, seated, server, SHOTS, skip, useBrowser } from './browser.js';

useBrowser();

/** The focused element: a card (where it lies and which), Send, or what else. */
const focused = (page: Page) => page.evaluate<string>(`(() => {
  const e = document.activeElement;
  if (!e || e === document.body) return 'page';
  if (e.dataset.card) return (e.closest('.hand') ? 'hand ' : 'register ') + e.dataset.card;
  return e.classList.contains('send') ? 'send' : e.tagName + '.' + e.className;
})()`);

test('from the keyboard, Enter on a card places it and the focus goes to the hand\'s next card, to Send once the registers are full; Send keeps the focus, and the next turn\'s hand has it once the turn is played', { skip }, async () => {
  const r = await seated({ course: 'first-shift', rules: 'classic', deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 3 }, seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Clank', bot: 'greedy' }] });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const { id } = r.body, bob = r.body.seats[1].token;
  // Bob sends turn 1 (and not turn 2): Ava's Send plays turn 1, and leaves turn 2 open.
  const bobs = (await call(server.base, 'GET', `/api/races/${id}/seats/1?token=${bob}`)).body.you.hand as string[];
  assert.equal((await call(server.base, 'PUT', `/api/races/${id}/seats/1/orders?token=${bob}`, { turn: 1, program: bobs.slice(0, 5) })).status, 200);
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.base + r.body.seats[0].link);
  await page.waitForSelector('body[data-ready] .hand .card');
  for (let k = 0; k < 30 && !(await focused(page)).startsWith('hand'); k++) await page.keyboard.press('Tab');
  const hand = await page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')!));
  assert.equal(await focused(page), `hand ${hand[0]}`, 'Tab reaches the hand');
  for (let k = 0; k < 5; k++) {
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.register[data-register="${k + 1}"] .card[data-card="${hand[k]}"]`);
    // Before, the focus went to Send after each card: a second Enter sent one card and four at random.
    const next = k < 4 ? `hand ${hand[k + 1]}` : 'send';
    await until(`the focus on ${next}`, async () => (await focused(page)) === next, 5000);
  }
  await page.keyboard.press('Enter');
  // Bob's orders are in: the turn is played and the next hand dealt, with the focus on its first card.
  await page.waitForSelector('#program h2:text("turn 2")');
  const second = await until('the next hand\'s first card focused', async () => {
    const f = await focused(page);
    return f.startsWith('hand') ? f : null;
  }, 10_000);
  assert.equal(second, `hand ${await page.getAttribute('.hand .card', 'data-card')}`);
  await page.screenshot({ path: `${SHOTS}keyboard-next-turn.png` });
  // Two cards, then back to Send (Shift+Tab): Send keeps the focus once the orders are in, "Send again".
  for (let k = 0; k < 2; k++) {
    const before = await page.locator('.register .card').count();
    await page.keyboard.press('Enter');
    await until('a card placed', async () => (await page.locator('.register .card').count()) > before, 5000);
  }
  for (let k = 0; k < 40 && (await focused(page)) !== 'send'; k++) await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(page), 'send');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.send:text("Send again")');
  await until('Send focused again once the orders are in', async () => (await focused(page)) === 'send', 5000);
  assert.deepEqual(errors, []);
  await ctx.close();
});
