/**
 * The race page on the screens people have beyond the 390×844 phone the other tests use: a small
 * phone (320×568), an older one (375×667), in Debian's chromium (playwright-core), touch. Found by
 * playing whole races from outside (docs/web.md, "Tried from outside on 2026-11-30 (night)").
 * Screenshots go to test-output/web/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { call } from '../../server/src/testing.js';
import { browser, seated, server, SHOTS, skip, useBrowser, openReady as open } from './browser.js';

useBrowser();

async function race(people: string[]): Promise<{ id: string; links: string[]; tokens: string[] }> {
  const seats = [...people.map((name) => ({ name })), { name: 'Clank', bot: 'greedy' }];
  // Every seat taken: its own link opens it in each of the test's browsers.
  const r = await seated({ course: 'first-shift', rules: 'classic', deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 3 }, seats });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { id: r.body.id, links: r.body.seats.map((s: { link: string | null }) => s.link), tokens: r.body.seats.map((s: { token: string | null }) => s.token) };
}

const phone = (width: number, height: number) => ({ viewport: { width, height }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

/** What lies at the centre of the element once it is scrolled to the middle of the screen, as a finger brings it there: the element itself, or what covers it. */
async function atMiddle(page: Page, selector: string): Promise<string> {
  return page.evaluate(`(() => {
    const e = document.querySelector(${JSON.stringify(selector)});
    e.scrollIntoView({ block: 'center', behavior: 'instant' });
    const r = e.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top && (top === e || e.contains(top)) ? 'itself' : 'covered by ' + top?.tagName + '.' + top?.getAttribute('class');
  })()`);
}

/** How far the page reaches past the screen's right edge (0: not at all), and Share's right edge. */
async function overflow(page: Page): Promise<{ past: number; share: number }> {
  return page.evaluate(`({ past: document.documentElement.scrollWidth - document.documentElement.clientWidth, share: Math.round(document.querySelector('#share').getBoundingClientRect().right) })`);
}

for (const [width, height] of [[320, 568], [375, 667]] as const) {
  test(`on a ${width}×${height} phone each card of the hand, the power down and Send can be brought on the screen uncovered and played, and the turn's replay plays with the board on the screen`, { skip }, async () => {
    const { links } = await race(['Ava']);
    const ctx = await browser.newContext(phone(width, height));
    const page = await open(ctx, links[0]!);
    await page.waitForSelector('.hand .card');
    const cards = await page.locator('.hand .card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')!));
    for (const card of cards.slice(0, 5)) {
      // Before, the board stayed at the top of the screen and the bar at its bottom, 63 px apart: under a card's height.
      assert.equal(await atMiddle(page, `.hand .card[data-card="${card}"]`), 'itself', `${card} scrolled to the middle of the screen is there to tap`);
      await page.tap(`.hand .card[data-card="${card}"]`);
      await page.waitForSelector(`.register .card[data-card="${card}"]`);
    }
    const spill = await page.evaluate<number[]>(`[...document.querySelectorAll('.register')].map((r) => {
      const c = r.querySelector('.card').getBoundingClientRect(), b = r.getBoundingClientRect();
      return Math.round(Math.max(b.left - c.left, c.right - b.right));
    })`);
    assert.deepEqual(spill.map((d) => Math.max(d, 0)), [0, 0, 0, 0, 0], `each card lies within its register (past its edges by ${spill} px)`);
    assert.equal(await atMiddle(page, 'input[name="powerDown"]'), 'itself', 'the power down is there to tick');
    await page.screenshot({ path: `${SHOTS}small-phone-${width}-programmed.png` });
    await page.tap('.send');
    await page.waitForSelector('#replay[data-turn="1"]');
    const board = await page.evaluate<number>(`document.querySelector('#board').getBoundingClientRect().top`);
    assert.ok(board >= 0 && board < height / 2, `the board is on the screen as the replay plays (its top at ${board} px)`);
    await page.screenshot({ path: `${SHOTS}small-phone-${width}-replay.png` });
    await ctx.close();
  });
}

test('on a 320×568 and a 390×844 phone the page is no wider than the screen: Share stays on it whatever the status line says', { skip }, async () => {
  const { id, links, tokens } = await race(['Ava', 'Bob', 'Cy']);
  for (const [width, height] of [[320, 568], [390, 844]] as const) {
    const ctx = await browser.newContext(phone(width, height));
    const page = await open(ctx, links[0]!);
    await page.waitForSelector('.hand .card');
    assert.deepEqual(await overflow(page), { past: 0, share: (await overflow(page)).share }, `${width} px: nothing past the screen's edge at turn 1`);
    assert.ok((await overflow(page)).share <= width, `${width} px: Share on the screen`);
    await ctx.close();
  }
  // Turn 1 played: each page's status line says whose replay the clock waits for ("clock waits for Ava, Bob, Cy").
  // The test server's clock stands still: set to the browser's time as the turn is played, so that
  // the wait (15 s and the replay's length from the play) still runs when the pages look; from the
  // file's start it had passed when the tests before took over a minute (load 20).
  server.clock.t = Date.now();
  for (const seat of [0, 1, 2]) {
    const v = await call(server.base, 'GET', `/api/races/${id}/seats/${seat}?token=${tokens[seat]}`);
    const r = await call(server.base, 'PUT', `/api/races/${id}/seats/${seat}/orders?token=${tokens[seat]}`, { turn: 1, program: v.body.you.hand.slice(0, 5) });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  for (const [width, height] of [[320, 568], [390, 844]] as const) {
    const ctx = await browser.newContext(phone(width, height));
    const page = await open(ctx, links[0]!);
    await page.waitForSelector('#program h2:text("turn 2")');
    await page.waitForSelector('#status:text("waits for")');
    const o = await overflow(page);
    await page.screenshot({ path: `${SHOTS}small-phone-${width}-header.png` });
    // Before, the status line kept its room and pushed Share 32 px past a 320 px screen (4 px past 390).
    assert.equal(o.past, 0, `${width} px: nothing past the screen's edge (status "${await page.textContent('#status')}")`);
    assert.ok(o.share <= width, `${width} px: Share on the screen (its right edge at ${o.share})`);
    await ctx.close();
  }
});

test('with weapons and other options the decisions fit a 320 px and a 390 px phone: the page no wider than the screen, each control within it', { skip }, async () => {
  const r = await call(server.base, 'POST', '/api/races', { course: 'first-shift', rules: 'classic', deadline: { kind: 'live', seconds: 600 }, seats: [
    { name: 'Ava', options: ['Tractor Beam', 'Fire Control', 'Abort Switch', 'Conditional Program', 'Recompile', 'Shield'] }, { name: 'Bob', options: ['Mini Howitzer', 'Scrambler', 'Radio Control'] }, { name: 'Clank', bot: 'greedy' }] });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  for (const [width, seat] of [[320, 0], [390, 1]] as const) {
    const ctx = await browser.newContext(phone(width, 700));
    const page = await open(ctx, r.body.seats[seat].link);
    await page.waitForSelector('#program select[name="choices.weapon.1"]');
    // Before, a select was as wide as its longest choice ("Tractor Beam if the target falls (003's conditional order)"): the page 508 px wide.
    const past = await page.evaluate<string[]>(`[...document.querySelectorAll('#program select, #program label, #program fieldset')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => (e.name || e.tagName) + ' to ' + Math.round(e.getBoundingClientRect().right))`);
    assert.deepEqual(past, [], `${width} px: no control past the screen's edge`);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), width, `${width} px: the page as wide as the screen`);
    await page.screenshot({ path: `${SHOTS}small-phone-${width}-decisions.png`, fullPage: true });
    await ctx.close();
  }
});

test('on a 320×568 phone the end of the race comes on the screen once the last turn\'s replay is seen: who won, not the board over it, and the standings whole', { skip }, async () => {
  const r = await call(server.base, 'POST', '/api/races', { course: 'first-shift', rules: 'classic', settings: { turnLimit: 1 }, deadline: { kind: 'live', seconds: 600 }, seats: [{ name: 'Ava' }, { name: 'Clank', bot: 'greedy' }] });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const ctx = await browser.newContext(phone(320, 568));
  const page = await open(ctx, r.body.seats[0].link);
  await page.waitForSelector('.hand .card');
  await page.tap('.hand .card');
  await page.tap('.send');
  await page.waitForSelector('#replay[data-turn="1"]');
  await page.tap('#replay .skip');
  await page.waitForSelector('#result:not([hidden]) .verdict');
  // Before, the page went back to its top: the board filled the screen, the verdict under it.
  const verdict = await page.evaluate<{ top: number; bottom: number }>(`(() => { const r = document.querySelector('#result .verdict').getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; })()`);
  await page.screenshot({ path: `${SHOTS}small-phone-320-end.png` });
  assert.ok(verdict.top >= 0 && verdict.bottom <= 568, `who won is on the screen (${verdict.top}–${verdict.bottom} px)`);
  // The standings whole in the end's panel: "Damage dealt" stood past it, cut off.
  const spill = await page.evaluate<number>(`(() => { const e = document.querySelector('#result'); return e.scrollWidth - e.clientWidth; })()`);
  assert.equal(spill, 0, `the standings fit the end's panel (${spill} px past it)`);
  await ctx.close();
});

test('the Robots table fits a 320 px and a 390 px phone, the creator\'s (a new invite link button beside each other person) and a player\'s: neither the page nor the table scrolls sideways, with names of 24 letters, teams, options, "not joined" and the others\' registers', { skip }, async () => {
  const names = ['Alexandria Longname-Wxyz', 'Bartholomew Quincy-Adams', 'Cy'];
  const made = await call(server.base, 'POST', '/api/races', {
    course: 'first-shift', rules: 'classic', deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 3 },
    settings: { oneFreeOption: true },
    seats: [...names.map((name, k) => ({ name, team: k < 2 ? 'Reds' : 'Blues' })), { name: 'Clank', bot: 'greedy', team: 'Blues' }],
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const { id, moderatorKey } = made.body;
  // The creator's seat and Cy's taken; Bartholomew has not joined.
  const own = async (k: number) => {
    const c = await call(server.base, 'POST', `/api/races/${id}/claim`, { invite: new URL(made.body.seats[k].link, server.base).searchParams.get('invite') });
    assert.equal(c.status, 200, JSON.stringify(c.body));
    return `/race/${id}?seat=${k}&token=${c.body.token}`;
  };
  const [creatorLink, cyLink] = [await own(0), await own(2)];
  for (const width of [320, 390]) {
    for (const [who, link] of [['creator', creatorLink], ['player', cyLink]] as const) {
      const ctx = await browser.newContext(phone(width, width === 320 ? 568 : 844));
      if (who === 'creator') await ctx.addInitScript(`localStorage.setItem('roborally.moderator.${id}', '${moderatorKey}')`);
      const page = await open(ctx, link);
      await page.tap('.side-tabs button[data-show="seats"]');
      await page.waitForSelector('#seats table', { state: 'visible' });
      assert.equal(await page.locator('#seats .new-invite').count(), who === 'creator' ? 2 : 0);
      assert.equal(await page.locator('#seats tr[data-seat="1"] .submitted').innerText(), 'not joined');
      const got = await page.evaluate<{ page: number[]; seats: number[]; table: number[]; past: string[]; cut: number[]; under: string[]; inviteLines: number[] }>(`(() => {
        const seats = document.querySelector('#seats'), table = seats.querySelector('table');
        const edge = seats.getBoundingClientRect().right;
        return { page: [document.documentElement.scrollWidth, document.documentElement.clientWidth], seats: [seats.scrollWidth, seats.clientWidth], table: [table.scrollWidth, table.clientWidth],
          past: [...table.querySelectorAll('th, td, .new-invite')].filter((e) => e.getBoundingClientRect().right > edge + 0.5).map((e) => e.className || e.textContent),
          // A name cut short of its column's end (the room beside it, in px), and each new invite link button's lines.
          cut: [...table.querySelectorAll('td.name')].map((td) => {
            const name = td.querySelector('.robot-name'), end = td.getBoundingClientRect().right - parseFloat(getComputedStyle(td).paddingRight);
            return name.scrollWidth > name.clientWidth ? Math.round(end - name.getBoundingClientRect().right) : 0;
          }).filter((room) => room > 2),
          under: [...table.querySelectorAll('td.name')].filter((td) => td.querySelector('.robot-name').getBoundingClientRect().top >= td.querySelector('.robot-icon').getBoundingClientRect().bottom).map((td) => td.textContent),
          inviteLines: [...table.querySelectorAll('.new-invite')].map((b) => {
            const r = document.createRange(); r.selectNodeContents(b);
            return new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top))).size;
          }) };
      })()`);
      await page.screenshot({ path: `${SHOTS}robots-table-${width}-${who}.png`, fullPage: true });
      const what = `${width} px, the ${who}'s: ${JSON.stringify(got)}`;
      assert.ok(got.page[0]! <= got.page[1]!, `the page does not scroll sideways (${what})`);
      assert.ok(got.seats[0]! <= got.seats[1]! && got.table[0]! <= got.table[1]!, `the table does not scroll sideways (${what})`);
      assert.deepEqual(got.past, [], `nothing past the table's panel (${what})`);
      assert.deepEqual(got.cut, [], `a long name is cut only where its column ends (${what})`);
      assert.deepEqual(got.under, [], `each name beside its robot, not under it (${what})`);
      assert.ok(got.inviteLines.every((n) => n === 1), `each new invite link button is one line (${what})`);
      await ctx.close();
    }
  }
});
