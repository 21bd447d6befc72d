/**
 * A seat raced on the web and by mail alike (docs/web.md, "changed elsewhere"; docs/mail.md): orders
 * mailed after the page's own reach the page as another tab's do. The mail gateway the server runs,
 * its orders in by SMTP on loopback, its mails out to a sink. Debian's chromium.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../../server/src/testing.js';
import { MailGateway } from '../../mail/src/index.js';
import { sendMail, smtpSink } from '../../mail/src/testing.js';
import { browser, PHONE, server, skip, useBrowser } from './browser.js';

useBrowser({ max: 1e9, windowMs: 1000 });

test('a seat raced by e-mail, opened from its mail, says it is raced by e-mail (not "made in another browser", no Make it the only one); orders mailed after its page sent its own are shown on the page at once: the mailed program in the registers, "changed elsewhere"', { skip }, async () => {
  const sink = await smtpSink();
  // The gateway knows the server's address: its mails link the seat's own page (MAIL_WEB_URL).
  const gateway = new MailGateway({ service: server.service, db: server.db, clock: server.clock, config: { from: 'RoboRally <race@rr.test>', relay: `smtp://127.0.0.1:${sink.port}`, smtpListen: '127.0.0.1:0', pumpMs: 3_600_000, webUrl: server.base } });
  await gateway.start();
  const ctx = await browser.newContext({ ...PHONE });
  try {
    // Ava races on the web and by mail; Bob has not sent, so the turn stays open.
    const made = (await call(server.base, 'POST', '/api/races', {
      course: 'first-shift', rules: 'classic', deal: { secret: false, seed: 4 }, deadline: { kind: 'live', seconds: 600 },
      seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob' }, { name: 'Bolt', bot: 'greedy' }],
    })).body as { id: string };
    await gateway.pump();
    const deal = sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(c.mail.subject ?? ''));
    assert.ok(deal, 'the turn\'s mail to Ava');
    // Ava's seat is opened by the link her mail gives (the creator was given none).
    const link = /^On the web: (\S+) /m.exec(deal.mail.text ?? '')?.[1] ?? '';
    assert.ok(link.startsWith(`${server.base}/race/${made.id}?seat=0&token=`), deal.mail.text);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(link);
    await page.waitForSelector('body[data-live] .hand .card');
    // Opened from its mail in a browser that never took a seat: the page knows the seat is raced by
    // e-mail (the link is the mails'), and says so instead of "made in another browser".
    assert.equal(await page.locator('.other-browser').count(), 0, 'no "This link was made in another browser"');
    assert.equal(await page.locator('.only-link').count(), 0, 'no Make it the only one: the mails\' link stays the seat\'s');
    assert.match(await page.locator('.own-link.by-mail').innerText(), /^This seat is raced by e-mail: this page's address is the link in its mails/);
    const program = async () => page.locator('.registers .card').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-card')));
    for (let k = 0; k < 5; k++) await page.locator('.hand .card').first().tap();
    await page.tap('.program-bar .send');
    await page.waitForSelector('.program .sent:text("Sent at")');
    const placed = await program();
    // By mail: four cards the page left in the hand and its register 1's card last, by their numbers
    // in the mail, one register a line.
    const auth = { authorization: `Bearer ${new URL(link).searchParams.get('token')}` };
    const hand = ((await call(server.base, 'GET', `/api/races/${made.id}/seats/0`, undefined, auth)).body as { you: { hand: string[] } }).you.hand;
    const mailed = hand.filter((c) => !placed.includes(c)).slice(0, 4).concat(placed[0]!);
    assert.equal(mailed.length, 5);
    await sendMail(gateway.smtpPort, {
      from: 'ava@a.test', to: deal.mail.replyTo!.value[0]!.address!, subject: `Re: ${deal.mail.subject}`,
      text: mailed.map((c, k) => `${k + 1}: ${hand.indexOf(c) + 1}`).join('\n'),
    });
    const held = ((await call(server.base, 'GET', `/api/races/${made.id}/seats/0`, undefined, auth)).body as { you: { orders: { program: string[] } } }).you.orders;
    assert.deepEqual(held.program, mailed, 'the mail\'s orders are held');
    await page.waitForSelector('.program .sent:text("changed elsewhere")');
    assert.deepEqual(await program(), mailed, 'the registers show the mailed program');
    assert.equal(await page.locator('.program-bar .send:not([disabled])').textContent(), 'Send again');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
    await gateway.stop();
    await sink.close();
  }
});
