/**
 * A race as its players by mail see it, from outside: set up over the HTTP API with teams,
 * handicaps and one player racing two robots, played through the gateway's SMTP listener, and
 * read from what the relay was given (issue 16, Deliver 1-4 and 5's mail).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, freshDb, startServer, TestClock } from '../../server/src/testing.js';
import { MailGateway } from './gateway.js';
import { mailDb } from './store.js';
import { sendMail, stoppableRelay, until, type Caught } from './testing.js';

const FROM = 'RoboRally <race@rr.test>';
const HOUR = 3600_000;
const text = (c: Caught) => c.mail.text ?? '';
const subject = (c: Caught) => c.mail.subject ?? '';
const replyTo = (c: Caught) => c.mail.replyTo!.value[0]!.address!;
const refs = (c: Caught): string[] => (c.mail.references === undefined ? [] : Array.isArray(c.mail.references) ? c.mail.references : [c.mail.references]);

test('a race set up over HTTP with teams, handicaps and a player racing two robots, played by mail: a reminder an hour or more after the instructions and before the deadline, a vacation reply unanswered, "Thanks, Bob" answered with how to mark a signature, a mail with no seat code answered, a relay stopped mid-race logged and caught up, the race never stopped', async () => {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const server = await startServer(db, clock);
  const relay = await stoppableRelay();
  const logged: string[] = [];
  const gateway = new MailGateway({
    service: server.service, db, clock,
    config: { from: FROM, relay: `smtp://127.0.0.1:${relay.port}`, smtpListen: '127.0.0.1:0', remindHours: 3, pumpMs: 3_600_000, log: (l) => logged.push(l) },
  });
  await gateway.start();
  try {
    const created = await call(server.base, 'POST', '/api/races', {
      course: 'first-shift', rules: 'classic', settings: { turnLimit: 2 },
      seats: [
        { name: 'Ava', email: 'ava@a.test', player: 'ava', team: 'red' },
        { name: 'Ava2', email: 'ava@a.test', player: 'ava', team: 'red', lives: 2, damage: 2 },
        { name: 'Bob', email: 'bob@b.test', team: 'blue', options: ['Brakes'] },
        { name: 'Bolt', bot: 'random', team: 'blue' },
      ],
      deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: string = created.body.id;
    await gateway.pump();
    const to = (email: string, what?: RegExp) => relay.mails.filter((c) => c.to.includes(email) && (!what || what.test(subject(c))));

    // The start: one mail an address; the teams and handicaps as each may know them.
    const [avaStart] = to('ava@a.test', /starts on/);
    assert.equal(to('ava@a.test', /starts on/).length, 1);
    assert.match(text(avaStart!), /Robots: Ava \(team red\), Ava2 \(team red; 2 lives; starts with 2 damage\), Bob \(team blue; holds Brakes\), Bolt \(team blue; a bot\)\./);
    assert.match(text(to('bob@b.test', /starts on/)[0]!), /Your robot holds Brakes\. How to order it:/);

    // The instructions, then a reminder: not within the hour after them, before the deadline, and only to who has sent nothing.
    const view = await call(server.base, 'GET', `/api/races/${id}`);
    const deadline: number = view.body.deadlineAt;
    const dealt = clock.now();
    clock.t = deadline - 2 * HOUR;
    // A vacation reply to Ava's instructions (RFC 3834) is not answered, nor read as orders.
    const avaDeal = to('ava@a.test', /Turn 1: your instructions/)[0]!;
    const before = relay.mails.length;
    await sendMail(gateway.smtpPort, { from: 'ava@a.test', to: replyTo(avaDeal), subject: `Auto: ${subject(avaDeal)}`, text: 'I am away until Monday.\nF1 F1 F1 F1 F1', headers: { 'Auto-Submitted': 'auto-replied' } });
    // Bob's orders signed "Thanks, Bob" with no "-- " line: stored, and the answer says how to mark a signature.
    const bobDeal = to('bob@b.test', /Turn 1: your instructions/)[0]!;
    await sendMail(gateway.smtpPort, { from: 'bob@b.test', to: replyTo(bobDeal), subject: `Re: ${subject(bobDeal)}`, text: '1 2 3 4 5\n\nThanks, Bob' });
    // A mail to the race's own address with no seat code: answered once with how to join.
    await sendMail(gateway.smtpPort, { from: 'newcomer@n.test', to: 'race@rr.test', subject: 'Can I race?', text: 'Hello, can I join a race?' });
    await gateway.pump();
    const bobAck = to('bob@b.test', /^Re: /).at(-1)!;
    assert.match(text(bobAck), /Your orders for turn 1 are in/, text(bobAck));
    assert.match(text(bobAck), /Not read as orders \(taken for a signature or a comment\): "Thanks, Bob"\. Next time, to add a comment or a signature, put it after a line "-- "/);
    assert.match(text(to('newcomer@n.test')[0]!), /Your mail named no seat of a race/);
    assert.equal(to('ava@a.test', /^(Re|Auto): /).length, 0, 'the vacation reply is not answered');
    const reminders = to('ava@a.test', /Turn 1: reminder/);
    assert.equal(reminders.length, 1, 'one reminder for both robots');
    assert.equal(to('bob@b.test', /reminder/).length, 0, 'Bob\'s orders are in');
    assert.equal(relay.mails.length - before, 3, 'Bob\'s answer, the newcomer\'s and Ava\'s reminder');
    const rows = await mailDb(db).selectFrom('mail_outbox').select(['key', 'created_at']).where('race_id', '=', id).execute();
    const at = (k: RegExp) => Number(rows.find((r) => k.test(r.key))!.created_at);
    assert.equal(at(/:turnBegan:/), dealt);
    assert.ok(at(/^remind:/) - at(/:turnBegan:/) >= HOUR, 'a reminder an hour or more after the instructions');
    assert.ok(at(/^remind:/) < deadline && at(/^remind:/) >= deadline - 3 * HOUR, 'within MAIL_REMIND_HOURS before the deadline');

    // The relay stops mid-race: the deadline plays the turn all the same, and each failure is logged.
    await relay.stop();
    clock.t = deadline + 60_000;
    await server.service.tick();
    await gateway.pump();
    assert.ok(logged.length >= 1, 'the failure is logged');
    assert.match(logged[0]!, new RegExp(`^mail: the relay refused ".*Turn 1: report.*" to (ava@a|bob@b)\\.test \\(attempt 1\\): .*ECONNREFUSED.*; trying again in 5 s$`));
    const now = await call(server.base, 'GET', `/api/races/${id}`);
    assert.deepEqual([now.status, now.body.turn], [200, 2], 'the race went on');
    // The relay back, the held mails go out in their order.
    await relay.start();
    await mailDb(db).updateTable('mail_outbox').set({ claimed_until: 0 }).execute();
    await until('the held mails sent', async () => {
      await gateway.pump();
      return to('ava@a.test', /Turn 2: your instructions/).length === 1 && to('bob@b.test', /Turn 2: your instructions/).length === 1;
    });
    for (const email of ['ava@a.test', 'bob@b.test']) {
      const order = to(email).map(subject).filter((x) => /Turn (1: report|2: your instructions)/.test(x));
      assert.equal(order.length, 1, email);
      assert.match(order[0]!, /Turn 2: your instructions; Turn 1: report/, `${email}: the report with the next instructions, in one mail`);
    }
    // Ava's report says her robots' programs were filled in 001's moderator's words.
    assert.match(text(to('ava@a.test', /Turn 1: report/)[0]!), /Ava: no program by the deadline, so registers 1, 2, 3, 4 and 5 are programmed randomly/);

    // Turn 2 plays out; the end mail lists the teams.
    clock.t = (await call(server.base, 'GET', `/api/races/${id}`)).body.deadlineAt + 60_000;
    await server.service.tick();
    await until('the end mails', async () => {
      await gateway.pump();
      return to('ava@a.test', /Race over/).length === 1 && to('bob@b.test', /Race over/).length === 1;
    });
    assert.match(text(to('ava@a.test', /Race over/)[0]!), /^ {2}1\. .*(red|blue)/m);
    // Every mail of the race is threaded in its address's thread and marked for RFC 3834.
    for (const c of relay.mails.filter((x) => !x.to.includes('newcomer@n.test'))) {
      const root = `<${id}.s${c.to.includes('ava@a.test') ? 0 : 2}.race@rr.test>`;
      if (c.mail.messageId !== root) assert.equal(refs(c)[0], root, subject(c));
      assert.match(String(c.mail.headers.get('auto-submitted')), /^auto-(generated|replied)$/, subject(c));
    }
  } finally {
    await gateway.stop();
    await relay.stop();
    await server.close();
    await db.destroy();
  }
});
