import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardName, type GameState } from '../../engine/src/index.js';
import { chooseOrders } from '../../bots/src/index.js';
import { shippedCourses, RaceService } from '../../server/src/index.js';
import { freshDb, postgresAnswers, TestClock, seatedRace } from '../../server/src/testing.js';
import { MailGateway, type MailConfig } from './gateway.js';
import { mailDb } from './store.js';
import { sendMail, smtpSink, type Caught } from './testing.js';

const courses = shippedCourses();
const course = (n: string) => courses.get(n);
const FROM = 'RoboRally <race@rr.test>';
const HOUR = 3600_000;

async function setup(config: Partial<MailConfig> = {}, dialect: 'sqlite' | 'postgres' = 'sqlite') {
  const { db } = await freshDb(dialect);
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course });
  const sink = await smtpSink();
  // pumpMs is long: the test runs each round itself, so what it sees follows from what it did.
  const gateway = new MailGateway({ service, db, clock, config: { from: FROM, relay: `smtp://127.0.0.1:${sink.port}`, smtpListen: '127.0.0.1:0', remindHours: 3, pumpMs: 3_600_000, ...config } });
  await gateway.start();
  return {
    db, clock, service, sink, gateway,
    close: async () => {
      await gateway.stop();
      await sink.close();
      await db.destroy();
    },
  };
}

const text = (c: Caught) => c.mail.text ?? '';
const subject = (c: Caught) => c.mail.subject ?? '';
const replyTo = (c: Caught) => c.mail.replyTo!.value[0]!.address!;

/** Every inline picture of a mail is a non-empty PNG that its HTML shows. */
function assertPictures(c: Caught, n: number): void {
  const pngs = c.mail.attachments.filter((a) => a.contentType === 'image/png');
  assert.equal(pngs.length, n, `${subject(c)}: ${n} picture(s)`);
  for (const a of pngs) {
    assert.ok(a.content.length > 1000);
    assert.deepEqual([...a.content.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.ok(a.cid && String(c.mail.html).includes(`cid:${a.cid}`), 'the HTML shows the picture');
  }
}

test('a whole race of three seats played only by mail, one a day: instructions and reminders with the picture of the board as the turn begins, acknowledgements, a reminder and a random fill for the late seat, reports with pictures, standings', async () => {
  const t = await setup();
  const { sink, clock, service, gateway } = t;
  try {
    const emails = ['ava@a.test', 'bob@b.test', 'cy@c.test'];
    const created = await seatedRace(service, {
      course: 'first-shift', rules: 'classic', deal: { secret: false, seed: 11 },
      seats: emails.map((email, i) => ({ name: ['Ava', 'Bob', 'Cy'][i], email })),
      deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 },
    });
    assert.ok(created.ok);
    const id = created.value.id;
    await gateway.pump();
    const to = (email: string, re: RegExp) => sink.mails.filter((c) => c.to.includes(email) && re.test(subject(c)));

    // The start: each seat, the course picture and the rules, its own reply address.
    for (const [i, email] of emails.entries()) {
      const [start] = to(email, /starts on first-shift/);
      assert.ok(start, `start mail to ${email}`);
      assertPictures(start, 1);
      assert.match(text(start), /Rules: classic/);
      assert.match(text(start), /orders are due at 22:00 \(UTC\) on the day of the deadline, which leaves at least 20 hours/);
      assert.match(replyTo(start), new RegExp(`^race\\+${id}\\.${i}\\.[a-z0-9]{12}@rr\\.test$`));
    }

    let turn = 1;
    const late = 2;
    for (; turn <= 30; turn++) {
      const race = (await service.view(id));
      assert.ok(race.ok);
      if (race.value.status === 'over') break;
      const st: GameState = (await service.mailRace(id))!.state;
      const deadline = race.value.deadlineAt!;
      // 001 L389-391: due at 10PM on the day of the deadline, at least 20 hours away.
      assert.equal(new Date(deadline).getUTCHours(), 22);
      assert.ok(deadline - clock.now() >= 20 * HOUR);
      const setupOf = service.setupOf({ course: 'first-shift', rules: 'classic', settings: '{}' });
      for (const [seat, email] of emails.entries()) {
        const deal = to(email, new RegExp(`^\\[RR [^\\]]+\\] Turn ${turn}: your instructions`));
        assert.equal(deal.length, 1, `one deal of turn ${turn} to ${email}`);
        // The board as the turn begins, inline, as the reports show it; from turn 2 on, the last
        // turn's report comes in the same mail (001's moderator sent them together), with its picture.
        assertPictures(deal[0]!, turn === 1 ? 1 : 2);
        if (turn > 1) assert.match(subject(deal[0]!), new RegExp(`Turn ${turn}: your instructions; Turn ${turn - 1}: report$`));
        const r = st.robots[seat]!;
        // Only its own hand, numbered as dealt.
        const hand = [...text(deal[0]!).matchAll(/^ +(\d+)\. (\S+)(?: P(\d+))?$/gm)].map((m) => (m[3] ? `${m[2]}:${m[3]}` : m[2]));
        assert.deepEqual(hand, r.hand.map(cardName));
        if (seat === late && turn === 1) continue;
        if (!hand.length) continue;
        const orders = chooseOrders(setupOf, st, seat, turn * 7 + seat, 'strong');
        const names = (orders.program ?? []).map(cardName);
        // Ava writes 003's priorities on one line, Bob and Cy the numbers of their cards, one register a line.
        const body = seat === 0
          ? names.map((n) => n.replace(':', ' P')).join(' ')
          : names.map((n, k) => `${k + 1}: ${hand.indexOf(n) + 1}`).join('\n');
        await sendMail(gateway.smtpPort, { from: email, to: replyTo(deal[0]!), subject: `Re: ${subject(deal[0]!)}`, text: `${body}${orders.powerDown ? '\npower down' : ''}\n\n-- \nsent by a test` });
        await gateway.pump();
        const ack = to(email, new RegExp(`Re: .*Turn ${turn}: your instructions`)).pop();
        assert.ok(ack, `acknowledgement of turn ${turn} to ${email}`);
        assert.match(text(ack), new RegExp(`Your orders for turn ${turn} are in`));
        assert.ok(text(ack).includes(`Register 1: ${names[0]!.replace(':', ' P')}`), text(ack));
      }
      // Three hours before the deadline, the seat that has sent nothing is reminded; nobody else.
      clock.t = deadline - 2 * HOUR;
      await gateway.pump();
      const reminders = sink.mails.filter((c) => new RegExp(`Turn ${turn}: reminder`).test(subject(c)));
      if (turn === 1) {
        assert.deepEqual(reminders.map((c) => c.to), [[emails[late]]]);
        // Cy's answer comes after the turn: refused, not used for the next one.
        assert.match(text(reminders[0]!), /Without them, your program is filled at random/);
        assertPictures(reminders[0]!, 1);
      } else assert.equal(reminders.length, 0);
      clock.t = deadline + 60_000;
      assert.equal(await service.tick(), 1);
      await gateway.pump();
      const reports = sink.mails.filter((c) => new RegExp(`Turn ${turn}: report$`).test(subject(c)));
      assert.deepEqual(reports.map((c) => c.to[0]).sort(), [...emails].sort(), `turn ${turn} reported to every seat`);
      for (const rep of reports) {
        assertPictures(rep, /your instructions/.test(subject(rep)) ? 2 : 1);
        assert.match(text(rep), /Register 1\nDmg +Name +Move +Notes/);
        assert.match(String(rep.mail.html), /<th>Dmg<\/th><th>Name<\/th><th>Move<\/th><th>Notes<\/th>/);
      }
      if (turn === 1) {
        assert.match(text(reports[0]!), /Cy: no program by the deadline, so registers 1, 2, 3, 4 and 5 are programmed randomly/);
        const old = to(emails[late]!, /Turn 1: reminder/)[0]!;
        await sendMail(gateway.smtpPort, { from: emails[late]!, to: replyTo(old), subject: `Re: ${subject(old)}`, text: 'random' });
        await gateway.pump();
        assert.match(text(to(emails[late]!, /Re: .*Turn 1: reminder/)[0]!), /These orders are for turn 1, but race \S+ is at turn 2; they were not used/);
      }
    }
    const over = await service.view(id);
    assert.ok(over.ok && over.value.status === 'over', `the race ends (turn ${turn})`);
    for (const email of emails) {
      const [end] = to(email, /Race over: standings$/);
      assert.ok(end, `end mail to ${email}`);
      assert.match(text(end), /Standings:\n {2}1\. /);
      assert.doesNotMatch(text(end), /Awards|Terminator robot/, 'classic gives no awards (001\'s are pbem\'s, as on the web)');
      assert.match(text(end), /Starting picks for the next race/);
    }
    // Nothing was sent twice.
    const ids = sink.mails.map((c) => c.mail.messageId);
    assert.equal(new Set(ids).size, ids.length);
  } finally {
    await t.close();
  }
});

test('seat addresses are checked at creation; mails without the seat\'s secret are refused, with one notice a turn to the seat\'s own address only; unreadable orders are answered with what was expected; a replacement is kept', async () => {
  const t = await setup();
  const { sink, service, gateway } = t;
  try {
    const bad = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava at a.test' }] });
    assert.deepEqual(!bad.ok && bad.refusal, { status: 422, field: 'seats[0].email', message: 'expected an e-mail address such as "ava@example.org"' });
    const bot = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Bolt', bot: 'random', email: 'bolt@b.test' }] });
    assert.equal(!bot.ok && bot.refusal.message, 'a bot has no e-mail address');
    const created = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }] });
    assert.ok(created.ok);
    const id = created.value.id;
    await gateway.pump();
    const deal = sink.mails.find((c) => c.to.includes('bob@b.test') && /Turn 1: your instructions/.test(subject(c)))!;
    const n = sink.mails.length;
    // Forged: a wrong secret in the address; and the seat named in the subject, without its secret.
    await sendMail(gateway.smtpPort, { from: 'mallory@m.test', to: `race+${id}.1.aaaaaaaaaaaa@rr.test`, subject: 'orders', text: 'F F F F F' });
    await sendMail(gateway.smtpPort, { from: 'bob@b.test', to: 'race@rr.test', subject: `Re: [RR ${id} s1] Turn 1`, text: 'F F F F F' });
    // Naming no seat at all: answered once per sender with how to join, then dropped.
    await sendMail(gateway.smtpPort, { from: 'newcomer@m.test', to: 'race@rr.test', subject: 'hello', text: 'can I play?' });
    await sendMail(gateway.smtpPort, { from: 'newcomer@m.test', to: 'race@rr.test', subject: 'hello again', text: 'can I play?' });
    await gateway.pump();
    const welcome = sink.mails.slice(n).filter((c) => c.to.includes('newcomer@m.test'));
    assert.equal(welcome.length, 1, 'one answer to a newcomer, however often it writes');
    assert.match(text(welcome[0]!), /Your mail named no seat of a race[\s\S]*Ask a race's moderator for a seat with your address/);
    assert.equal(welcome[0]!.mail.headers.get('auto-submitted'), 'auto-replied');
    // One notice a turn, to the seat's own address only.
    const refusals = sink.mails.slice(n).filter((c) => !c.to.includes('newcomer@m.test'));
    assert.equal(refusals.length, 1);
    assert.deepEqual(refusals[0]!.to, ['bob@b.test']);
    assert.match(text(refusals[0]!), /was refused: it did not carry your seat's secret code/);
    assert.match(text(refusals[0]!), /It came from mallory@m\.test/);
    assert.equal(gateway.ignored, 2);
    const v = await service.view(id);
    assert.ok(v.ok && v.value.seats.every((s) => !s.submitted), 'no orders were taken');

    // With the secret, but unreadable: each line answered with what was expected, nothing taken.
    await sendMail(gateway.smtpPort, { from: 'bob@b.test', to: replyTo(deal), subject: `Re: ${subject(deal)}`, text: 'Hi there\nF F F F\npower dwn' });
    await gateway.pump();
    const answer = text(sink.mails.at(-1)!);
    assert.match(answer, /could not be read, so nothing was changed/);
    assert.match(answer, /Line 1 "Hi there": expected a program/);
    assert.match(answer, /Line 3 "power dwn": expected/);
    // The same mail again (same Message-ID, as a retrying sender would): not read twice.
    const mail = { from: 'bob@b.test', to: replyTo(deal), subject: `Re: ${subject(deal)}`, text: 'random\npower down' };
    const raw = `Message-ID: <once@b.test>\r\nFrom: ${mail.from}\r\nTo: ${mail.to}\r\nSubject: ${mail.subject}\r\n\r\n${mail.text}\r\n`;
    assert.equal(await gateway.receive(raw, []), 'accepted');
    assert.equal(await gateway.receive(raw, []), 'duplicate');
    await gateway.pump();
    assert.match(text(sink.mails.at(-1)!), /Register 5: left to the random fill\n {2}Power down next turn: yes/);
    const after = await service.view(id);
    assert.ok(after.ok && after.value.seats[1]!.submitted);
    // Replaced before the deadline: the new orders are the ones kept, and acknowledged as such; a
    // signature without a "-- " line is not read, and the answer says how to mark one.
    await sendMail(gateway.smtpPort, { from: 'bob@b.test', to: replyTo(deal), subject: `Re: ${subject(deal)}`, text: '1\n2\n3\n4\n5\n\nThanks,\nBob' });
    await gateway.pump();
    assert.match(text(sink.mails.at(-1)!), /Your orders for turn 1 are in[^]*Register 5: \S+\n {2}Power down next turn: no/);
    assert.match(text(sink.mails.at(-1)!), /Not read as orders \(taken for a signature or a comment\): "Thanks,", "Bob"\. Next time, to add a comment or a signature, put it after a line "-- "/);
    assert.equal((await service.ordersOf(id, 1, 1))?.orders.powerDown, false);
  } finally {
    await t.close();
  }
});

const pg = await postgresAnswers();
for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] mails are written once from the entries log and survive a relay that is down and a restart`, { skip: dialect === 'postgres' && !pg ? 'no PostgreSQL answers' : false }, async () => {
    const t = await setup({ relay: 'smtp://127.0.0.1:1' }, dialect);
    const { sink, service, db, clock } = t;
    try {
      const created = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bolt', bot: 'random' }] });
      assert.ok(created.ok);
      // The relay refuses the connection: nothing is sent, nothing is lost.
      await t.gateway.pump();
      await t.gateway.stop();
      const outbox = mailDb(db);
      const waiting = await outbox.selectFrom('mail_outbox').selectAll().execute();
      // The first failed; it holds back the second, so that a race's mails arrive in order.
      assert.deepEqual(waiting.sort((x, y) => x.seq - y.seq).map((w) => [w.sent_at, w.attempts, !!w.error]), [[null, 1, true], [null, 0, false]]);
      // Two gateways over the same database, the relay back: each mail goes out once.
      const a = new MailGateway({ service, db, clock, config: { from: FROM, relay: `smtp://127.0.0.1:${sink.port}`, pumpMs: 3_600_000 } });
      const b = new MailGateway({ service, db, clock, config: { from: FROM, relay: `smtp://127.0.0.1:${sink.port}`, pumpMs: 3_600_000 } });
      // The failed attempt waits a few seconds before the next; a restart after that finds it due.
      await outbox.updateTable('mail_outbox').set({ claimed_until: null }).execute();
      await Promise.all([a.pump(), b.pump(), a.pump(), b.pump()]);
      assert.deepEqual(sink.mails.map((c) => subject(c).replace(/^\[RR \S+ s0 \w+\] /, '')), [`Race ${created.value.id} starts on first-shift`, 'Turn 1: your instructions']);
      await a.stop();
      await b.stop();
    } finally {
      await sink.close();
      await db.destroy();
    }
  });
}

test("the moderator's pause, resume and extension of the deadline are told to each person's seat by mail", async () => {
  const t = await setup();
  const { sink, service, gateway } = t;
  try {
    const created = await seatedRace(service, {
      course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bolt', bot: 'random' }],
      deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 },
    });
    assert.ok(created.ok);
    const { id, moderatorKey } = created.value;
    await gateway.pump();
    const before = sink.mails.length;
    for (const [action, body] of [['extend', { seconds: 3600 }], ['pause', {}], ['resume', {}]] as const) {
      const done = await service.moderate(id, moderatorKey, action, body);
      assert.ok(done.ok, action);
      await gateway.pump();
    }
    const told = sink.mails.slice(before).map((c) => [c.to[0], subject(c).replace(/^\[RR [^\]]+\] /, ''), text(c).split('\n')[0]]);
    assert.deepEqual(told, [
      ['ava@a.test', 'Turn 1: the deadline has changed', 'The moderator has moved the deadline.'],
      ['ava@a.test', 'Turn 1: the deadline has changed', 'The moderator has paused the race: the deadline is off until it resumes.'],
      ['ava@a.test', 'Turn 1: the deadline has changed', 'The moderator has resumed the race.'],
    ]);
    const v = await service.view(id);
    assert.ok(v.ok);
    assert.match(text(sink.mails.at(-1)!), new RegExp(`Orders for turn 1 are now due .*${new Date(v.value.deadlineAt!).toISOString().slice(11, 16)} UTC`));
  } finally {
    await t.close();
  }
});

test('a deadline the moderator moved after a mail round listed the races is not reminded of by that round under the deadline it had', async () => {
  const t = await setup();
  const { sink, clock, service, gateway } = t;
  try {
    const created = await seatedRace(service, {
      course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }],
      deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 },
    });
    assert.ok(created.ok);
    const { id, moderatorKey } = created.value;
    await gateway.pump();
    // The list a round takes first, as it stands before the moderator moves the deadline.
    const listed = await service.mailRaces();
    const first = listed[0]!.deadlineAt!;
    clock.t = first - 2 * HOUR;
    const moved = await service.moderate(id, moderatorKey, 'extend', { seconds: 24 * 3600 });
    assert.ok(moved.ok);
    const listMailRaces = service.mailRaces.bind(service);
    service.mailRaces = async () => listed;
    await gateway.pump();
    service.mailRaces = listMailRaces;
    await gateway.pump();
    assert.deepEqual(sink.mails.filter((c) => /reminder/.test(subject(c))).map(subject), [], 'no reminder: the deadline is a day away now');
    const told = sink.mails.filter((c) => /Turn 1: the deadline has changed/.test(subject(c)));
    assert.equal(told.length, 2);
    assert.match(text(told[0]!), new RegExp(`now due .*${new Date(first + 24 * HOUR).toISOString().slice(0, 16).replace('T', ' ')} UTC`));
  } finally {
    await t.close();
  }
});
