/**
 * The link to a seat's own page in the mails to a seat raced by e-mail (MAIL_WEB_URL): it opens
 * that seat alone, and nobody else is given a way into the seat, the race's creator included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shippedCourses, RaceService } from '../../server/src/index.js';
import { call, freshDb, seatedRace, startServer, TestClock } from '../../server/src/testing.js';
import { MailGateway } from './gateway.js';
import { smtpSink, type Caught } from './testing.js';

const FROM = 'RoboRally <race@rr.test>';
const text = (c: Caught) => c.mail.text ?? '';
const subject = (c: Caught) => c.mail.subject ?? '';
/** The links to seats' own pages a mail's text gives, with whose page each says it is. */
const links = (c: Caught) => [...text(c).matchAll(/^On the web: (\S+) \((your seat's|\S+'s) own page: keep it to yourself\)$/gm)].map((m) => ({ link: m[1]!, whose: m[2]! }));
/** The hand a turn's instructions deal (for one robot: the first one listed), as the API names the cards. */
const dealt = (c: Caught) => [...text(c).matchAll(/^ +(\d+)\. (\S+)(?: P(\d+))?$/gm)].map((m) => (m[3] ? `${m[2]}:${m[3]}` : m[2]!));

test('the mails to a seat raced by e-mail link its own page, which opens that seat with its hand; the creation answer gives no invite, link or token of such a seat', async () => {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const server = await startServer(db, clock);
  const sink = await smtpSink();
  // The address as set with a trailing slash: the links have none doubled.
  const gateway = new MailGateway({ service: server.service, db, clock, config: { from: FROM, relay: `smtp://127.0.0.1:${sink.port}`, smtpListen: '127.0.0.1:0', pumpMs: 3_600_000, webUrl: `${server.base}/` } });
  await gateway.start();
  try {
    const made = await call(server.base, 'POST', '/api/races', {
      course: 'first-shift', rules: 'classic', deal: { secret: false, seed: 5 },
      seats: [
        { name: 'Ava', email: 'ava@a.test' }, { name: 'Bob' },
        { name: 'Cy', email: 'cy@c.test', player: 'cy' }, { name: 'Cy2', email: 'cy@c.test', player: 'cy' },
        { name: 'Bolt', bot: 'random' },
      ],
      deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id: string = made.body.id;
    const seats = made.body.seats as { seat: number; invite: string | null; link: string | null; token?: unknown }[];
    // The creator gets Bob's invite link (Bob takes his seat with it), and nothing for a seat raced by e-mail.
    assert.match(seats[1]!.link!, new RegExp(`^/race/${id}\\?seat=1&invite=${seats[1]!.invite}$`));
    for (const n of [0, 2, 3]) {
      assert.equal(seats[n]!.invite, null, `seat ${n}: no invite`);
      assert.equal(seats[n]!.link, null, `seat ${n}: no link`);
      assert.ok(!('token' in seats[n]!), `seat ${n}: no token`);
    }
    await gateway.pump();
    const to = (email: string, what: RegExp) => sink.mails.filter((c) => c.to.includes(email) && what.test(subject(c)));
    const page = (seat: number) => new RegExp(`^${server.base.replace(/\./g, '\\.')}/race/${id}\\?seat=${seat}&token=[A-Za-z0-9_-]+$`);
    const open = async (link: string) => {
      const u = new URL(link);
      return call(server.base, 'GET', `/api/races/${id}/seats/${u.searchParams.get('seat')}?token=${u.searchParams.get('token')}`);
    };

    // Ava: the start mail and the instructions each link her seat's page, in the text and the HTML.
    const [start] = to('ava@a.test', /starts on first-shift/);
    const [deal] = to('ava@a.test', /Turn 1: your instructions/);
    assert.ok(start && deal);
    for (const c of [start, deal]) {
      assert.deepEqual(links(c).map((l) => l.whose), ["your seat's"], subject(c));
      assert.match(links(c)[0]!.link, page(0));
      assert.ok(String(c.mail.html).includes(`<a href="${links(c)[0]!.link.replace(/&/g, '&amp;')}">`), 'the HTML links it');
    }
    const ava = links(deal)[0]!.link;
    assert.equal(links(start)[0]!.link, ava, 'one link a seat, the same in every mail');
    // The link opens Ava's seat: her hand, the one her instructions deal.
    const seen = await open(ava);
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.deepEqual(seen.body.you.hand, dealt(deal));
    assert.ok(seen.body.you.hand.length > 0);
    // Nobody was given it but Ava: the creation answer does not hold it.
    assert.ok(!JSON.stringify(made.body).includes(new URL(ava).searchParams.get('token')!));

    // Cy races two robots from one address: one link a seat, each opening its own seat only.
    const [cyStart] = to('cy@c.test', /starts on first-shift/);
    const [cyDeal] = to('cy@c.test', /Turn 1: your instructions/);
    assert.ok(cyStart && cyDeal);
    for (const c of [cyStart, cyDeal]) {
      assert.deepEqual(links(c).map((l) => l.whose), ["Cy's", "Cy2's"], subject(c));
      assert.match(links(c)[0]!.link, page(2));
      assert.match(links(c)[1]!.link, page(3));
    }
    const [cy, cy2] = links(cyDeal).map((l) => l.link);
    assert.equal((await open(cy!)).status, 200);
    assert.equal((await open(cy2!)).status, 200);
    const cyToken = new URL(cy!).searchParams.get('token');
    assert.equal((await call(server.base, 'GET', `/api/races/${id}/seats/3?token=${cyToken}`)).status, 401, 'a seat\'s link opens that seat only');
    assert.equal((await call(server.base, 'GET', `/api/races/${id}/seats/0?token=${cyToken}`)).status, 401);
    // No mail to an address links a seat raced from another.
    const raced = ['ava@a.test', null, 'cy@c.test', 'cy@c.test'];
    for (const c of sink.mails) for (const { link } of links(c)) assert.deepEqual(c.to, [raced[Number(new URL(link).searchParams.get('seat'))]], `${subject(c)}: ${link}`);
  } finally {
    await gateway.stop();
    await sink.close();
    await server.close();
    await db.destroy();
  }
});

test('without the server\'s public address (MAIL_WEB_URL unset) the mails link no page', async () => {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const courses = shippedCourses();
  const service = new RaceService({ db, clock, course: (n) => courses.get(n) });
  const sink = await smtpSink();
  const gateway = new MailGateway({ service, db, clock, config: { from: FROM, relay: `smtp://127.0.0.1:${sink.port}`, smtpListen: '127.0.0.1:0', pumpMs: 3_600_000 } });
  await gateway.start();
  try {
    const made = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Cy', email: 'cy@c.test', player: 'cy' }, { name: 'Cy2', email: 'cy@c.test', player: 'cy' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(made.ok);
    await gateway.pump();
    assert.equal(sink.mails.filter((c) => /starts on|Turn 1: your instructions/.test(subject(c))).length, 4);
    for (const c of sink.mails) assert.doesNotMatch(text(c), /On the web|\/race\/|token=/, subject(c));
  } finally {
    await gateway.stop();
    await sink.close();
    await db.destroy();
  }
});
