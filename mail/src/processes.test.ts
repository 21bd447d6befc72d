/**
 * Several server processes on one PostgreSQL database, one of them with the mail gateway's IMAP
 * mailbox (dovecot on loopback): the deadline of a race raced by e-mail is played by that one,
 * after its last look, whichever process's deadline check finds it first (docs/mail.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImapFlow } from 'imapflow';
import { shippedCourses, RaceService } from '../../server/src/index.js';
import { call, dropSchema, exited, freshDb, postgresAnswers, seatedRace, spawnServer, TestClock } from '../../server/src/testing.js';
import { MailGateway } from './gateway.js';
import { dovecotMissing, freePort, smtpSink, startDovecot, until } from './testing.js';

const courses = shippedCourses();
const course = (n: string) => courses.get(n);
const missing = dovecotMissing() ?? (!(await postgresAnswers()) ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : null);
if (missing) console.log(`# tests of several processes with a mailbox skipped: ${missing}`);

test('with two processes on PostgreSQL, the one without the IMAP mailbox leaves a mail race\'s deadline to the one with it, which plays it after its last look: orders mailed just before the deadline are played; once that gateway stops, the other plays the deadlines at once', { skip: missing ?? false }, async () => {
  const dovecot = await startDovecot();
  const sink = await smtpSink().catch(async (e) => (await dovecot.stop(), Promise.reject(e)));
  const { db, url } = await freshDb('postgres');
  // Two processes, each its own service and clock; the gateway (its mailbox looked into once an hour) runs on the first only.
  const clocks = [new TestClock(), new TestClock()] as const;
  const withMail = new RaceService({ db, clock: clocks[0], course });
  const without = new RaceService({ db, clock: clocks[1], course });
  const at = (t: number) => clocks.forEach((c) => (c.t = t));
  const gateway = new MailGateway({
    service: withMail, db, clock: clocks[0],
    config: { from: 'race@rr.test', relay: `smtp://127.0.0.1:${sink.port}`, imapUrl: dovecot.url, imapPollSeconds: 3600, pumpMs: 3_600_000 },
  });
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.pass }, logger: false });
  let stopped = false;
  try {
    await gateway.start();
    await client.connect();
    const created = await seatedRace(without, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(created.ok);
    const id = created.value.id;
    await gateway.pump();
    const deal = await until('the instructions of turn 1', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(c.mail.subject ?? '')));
    const deadline = (await without.mailRace(id))!.deadlineAt!;
    // The gateway's process ticks before the deadline (saying it looks before mail races' deadlines).
    at(deadline - 1000);
    assert.equal(await withMail.tick(), 0);
    // Ava's mail reaches the mailbox 2 s before the deadline; nobody has read it when the deadline passes.
    await client.append('INBOX', `From: ava@a.test\r\nTo: ${deal.mail.replyTo!.value[0]!.address!}\r\nSubject: Re: ${deal.mail.subject}\r\nMessage-ID: <just-before@a.test>\r\n\r\n1 2 3 4 5\r\n`, [], new Date(deadline - 2000));
    at(deadline + 600);
    // The process without the mailbox finds the deadline first: it leaves it.
    assert.equal(await without.tick(), 0);
    assert.equal((await without.playedTurn(id, 1)).ok, false, 'not played without the last look');
    assert.equal(await withMail.tick(), 1);
    assert.deepEqual(await without.ordersIn(id, 1), [0], 'Ava\'s mailed orders, read in the last look, played with the turn');
    await gateway.pump();
    const report = await until('the report of turn 1', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: report/.test(c.mail.subject ?? ''))?.mail.text);
    assert.doesNotMatch(report, /Ava: no program by the deadline/);
    assert.match(report, /Bob: no program by the deadline/);
    // The gateway stops (its process goes): the other plays the next deadline at once.
    await gateway.stop();
    stopped = true;
    const next = (await without.mailRace(id))!.deadlineAt!;
    at(next);
    assert.equal(await without.tick(), 1);
    assert.ok((await without.playedTurn(id, 2)).ok);
  } finally {
    await client.logout().catch(() => undefined);
    if (!stopped) await gateway.stop();
    await sink.close();
    await db.destroy();
    await dropSchema(url);
    await dovecot.stop();
  }
});

test('two real server processes on PostgreSQL, the mail gateway with its IMAP mailbox on one only: orders delivered into the mailbox 3 s before a deadline, read by nobody before it, are played with its turn', { skip: missing ?? false, timeout: 180_000 }, async () => {
  const dovecot = await startDovecot();
  const sink = await smtpSink().catch(async (e) => (await dovecot.stop(), Promise.reject(e)));
  const { db, url } = await freshDb('postgres');
  await db.destroy();
  const procs: Awaited<ReturnType<typeof spawnServer>>[] = [];
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.pass }, logger: false });
  try {
    const [portA, portB] = [await freePort(), await freePort()];
    // A with the mailbox (looked into once a day, besides the looks before and after each deadline); B without mail.
    procs.push(await spawnServer({ PORT: String(portA), DATABASE_URL: url!, MAIL_FROM: 'race@rr.test', MAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_IMAP_URL: dovecot.url, MAIL_IMAP_POLL_SECONDS: '86400' }));
    procs.push(await spawnServer({ PORT: String(portB), DATABASE_URL: url! }));
    const [A, B] = [portA, portB].map((p) => `http://127.0.0.1:${p}`);
    await client.connect();
    const made = await call(A!, 'POST', '/api/races', { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 10 } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id as string;
    const deal = await until('the instructions of turn 1', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(c.mail.subject ?? '')), 30_000);
    const deadline = (await call(B!, 'GET', `/api/races/${id}`)).body.deadlineAt as number;
    // After the look 15 s before the deadline (at the gateway's first round), 3 s before it.
    await until('3 s before the deadline', () => Date.now() >= deadline - 3000, 30_000);
    assert.ok(Date.now() < deadline - 1000, 'the mail is delivered before the deadline');
    await client.append('INBOX', `From: ava@a.test\r\nTo: ${deal.mail.replyTo!.value[0]!.address!}\r\nSubject: Re: ${deal.mail.subject}\r\nMessage-ID: <three-before@a.test>\r\n\r\n1 2 3 4 5\r\n`);
    const ack = await until('Ava\'s answer', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /^Re: /.test(c.mail.subject ?? ''))?.mail.text, 60_000);
    // Read once the deadline had passed (no look came between), and played: not too late.
    assert.match(ack, /Your orders for turn 1 are in\.[^]*They reached the mailbox before the deadline, which has passed since: the turn is played with them/);
    const report = await until('the report of turn 1', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: report/.test(c.mail.subject ?? ''))?.mail.text, 60_000);
    assert.doesNotMatch(report, /Ava: no program by the deadline/);
  } finally {
    await client.logout().catch(() => undefined);
    procs.forEach((p) => p.kill('SIGKILL'));
    await Promise.all(procs.map(exited));
    await dropSchema(url);
    await sink.close();
    await dovecot.stop();
  }
});
