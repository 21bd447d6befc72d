/**
 * Incoming mails as a stranger or a careless client would write them: whatever the bytes, the
 * gateway answers with what became of the mail and never rejects (a rejection is an SMTP 451, which
 * the sender retries for days, or an IMAP mail left unseen and read again at every look), and what
 * it writes back is of bounded size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import nodemailer from 'nodemailer';
import { shippedCourses, RaceService } from '../../server/src/index.js';
import { freshDb, TestClock, seatedRace } from '../../server/src/testing.js';
import { MailGateway, WELCOMES_PER_HOUR, type Received } from './gateway.js';
import { UNANSWERED_PER_DAY } from './outbox.js';
import { mailDb } from './store.js';
import { sendMail, smtpSink } from './testing.js';

const courses = shippedCourses();
const course = (n: string) => courses.get(n);
const STATUSES: readonly Received[] = ['accepted', 'refused', 'unreadable', 'ignored', 'duplicate', 'automatic', 'stranger', 'malformed'];

async function setup() {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course });
  const sink = await smtpSink();
  const logged: string[] = [];
  const gateway = new MailGateway({ service, db, clock, config: { from: 'race@rr.test', relay: `smtp://127.0.0.1:${sink.port}`, smtpListen: '127.0.0.1:0', remindHours: 3, pumpMs: 3_600_000, log: (l) => logged.push(l) } });
  await gateway.start();
  const created = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC' } });
  assert.ok(created.ok);
  const id = created.value.id;
  await gateway.pump();
  const deal = sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(c.mail.subject ?? ''))!;
  const address = deal.mail.replyTo!.value[0]!.address!;
  /** The longest answer written back so far (the mail as the outbox keeps it). */
  const longestAnswer = async () => {
    const rows = await mailDb(db).selectFrom('mail_outbox').select('body').where('key', 'like', 'reply:%').execute();
    return Math.max(0, ...rows.map((r) => r.body.length));
  };
  return {
    id, address, subject: deal.mail.subject!, gateway, longestAnswer, logged, db, sink, clock, service,
    close: async () => {
      await gateway.stop();
      await sink.close();
      await db.destroy();
    },
  };
}

test('a megabyte of order lines, many lines of junk or an endless line, from the seat itself, are answered in a few kilobytes, not rejected', async () => {
  const t = await setup();
  try {
    const junk = Array.from({ length: 150 }, (_, k) => `Hello there ${k}`).join('\r\n');
    for (const [k, body] of ['F\r\n'.repeat(340_000), 'Hello there\r\n'.repeat(75_000), junk, `random\r\n${'x'.repeat(1_000_000)}`].entries()) {
      const raw = `Message-ID: <big${k}@a.test>\r\nFrom: ava@a.test\r\nTo: ${t.address}\r\nSubject: Re: ${t.subject}\r\n\r\n${body}\r\n`;
      const got = await t.gateway.receive(raw, []);
      assert.equal(got, k === 3 ? 'accepted' : 'unreadable', `mail ${k}`);
      assert.ok((await t.longestAnswer()) < 20_000, `mail ${k}: the answer has ${await t.longestAnswer()} characters`);
    }
  } finally {
    await t.close();
  }
});

test('a mail from the seat with a line of fifty thousand full stops or exclamation marks not at its end is answered in a moment, not after minutes of the server\'s time', async () => {
  const t = await setup();
  try {
    for (const [k, line] of [`${'.'.repeat(50_000)}x`, `${'!.'.repeat(25_000)}@`].entries()) {
      const began = performance.now();
      const got = await t.gateway.receive(`Message-ID: <stops${k}@a.test>\r\nFrom: ava@a.test\r\nTo: ${t.address}\r\nSubject: Re: ${t.subject}\r\n\r\n${line}\r\n`, []);
      const took = performance.now() - began;
      assert.equal(got, 'unreadable', `mail ${k}`);
      assert.ok(took < 3_000, `mail ${k}: ${Math.round(took)} ms`);
    }
  } finally {
    await t.close();
  }
});

test('a turn of twenty digits, in the subject replied to or in a \"Turn N\" line, is refused and quoted back as written, not as 1e+20 or Infinity', async () => {
  const t = await setup();
  try {
    const huge = '99999999999999999999';
    const send = (k: number, subject: string, body: string) => t.gateway.receive(`Message-ID: <turn${k}@a.test>\r\nFrom: ava@a.test\r\nTo: ${t.address}\r\nSubject: ${subject}\r\n\r\n${body}\r\n`, []);
    assert.equal(await send(1, `Re: ${t.subject.replace('Turn 1:', `Turn ${huge}:`)}`, 'F1 F1 F1 F1 F1'), 'refused');
    assert.equal(await send(2, `Re: ${t.subject}`, `Turn ${huge}\r\nF1 F1 F1 F1 F1`), 'unreadable');
    assert.equal(await send(3, `Re: ${t.subject.replace('Turn 1:', 'Turn 001:')}`, '1 2 3 4 5'), 'accepted', 'leading zeros name the same turn');
    const answers = (await mailDb(t.db).selectFrom('mail_outbox').select('body').where('key', 'like', 'reply:%').execute()).map((r) => r.body).join('\n');
    assert.match(answers, new RegExp(`turn ${huge}[^0-9]`));
    assert.doesNotMatch(answers, /1e\+20|100000000000000000000|Infinity/);
  } finally {
    await t.close();
  }
});

test('a mail whose MIME nests past its parser\'s bound is dropped and logged, and refused for good over SMTP (554), not left to be tried again for ever', async () => {
  const t = await setup();
  try {
    const nested = `From: ava@a.test\r\nTo: ${t.address}\r\nSubject: Re: ${t.subject}\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n${'--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n'.repeat(1_000)}random\r\n`;
    assert.equal(await t.gateway.receive(nested, []), 'malformed');
    assert.match(t.logged.join('\n'), /^mail: a mail that cannot be read was dropped \(.+\)$/m);
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: t.gateway.smtpPort, secure: false, ignoreTLS: true });
    try {
      await assert.rejects(client.sendMail({ envelope: { from: 'ava@a.test', to: [t.address] }, raw: nested }), (e: Error & { responseCode?: number }) => e.responseCode === 554);
    } finally {
      client.close();
    }
  } finally {
    await t.close();
  }
});

test('any mail, however malformed (broken MIME, unknown charsets and encodings, deep nesting, binary), is answered with what became of it, never rejected (property)', async () => {
  const t = await setup();
  try {
    const header = fc.constantFrom(
      `To: ${t.address}`, `Subject: Re: ${t.subject}`, 'From: ava@a.test', 'From: =?x-unknown?Q?=FF=FE?= <ava@a.test>', 'From: <>', 'From: "unterminated <ava@a.test',
      'Subject: =?utf-8?B?////?=', 'Subject: =?utf-8?Q?=ZZ?=', 'Content-Type: text/plain; charset=x-no-such', 'Content-Type: text/plain; charset="utf-7"',
      'Content-Transfer-Encoding: base64', 'Content-Transfer-Encoding: quoted-printable', 'Content-Transfer-Encoding: x-unheard-of',
      'Content-Type: multipart/mixed; boundary=b', 'Content-Type: multipart/mixed', 'Content-Type: message/rfc822', 'Content-Type: text/html; charset=utf-8',
      'Auto-Submitted: auto-replied', 'Delivered-To: race+x.9.y@rr.test', 'Message-ID:', 'Message-ID: <dup@x>', 'Reply-To: ,,,', `X-Long: ${'a'.repeat(20_000)}`,
    );
    const body = fc.oneof(
      fc.constantFrom('F3 F2 F B L', '1 2 3 4 5\npower down', 'random', '--b\r\nContent-Type: text/plain\r\n\r\nF F F F F\r\n--b--', '=E9=\r\n=', '<p>F3 F2<br>F B L</p>', 'help', 'follow'),
      fc.nat(3_000).map((n) => `${'--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n'.repeat(n)}F F F F F`),
      fc.nat(3_000).map((n) => `${'Content-Type: message/rfc822\r\n\r\n'.repeat(n)}F F F F F`),
      fc.string(), fc.string({ unit: 'binary' }),
      fc.uint8Array({ maxLength: 2_000 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    const mail = fc.tuple(fc.array(header, { maxLength: 8 }), fc.array(body, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([hs, bs, crlf]) => {
      const text = `${hs.join('\r\n')}\r\n\r\n${bs.join('\r\n')}\r\n`;
      return crlf ? text : text.replace(/\r\n/g, '\n');
    });
    await fc.assert(fc.asyncProperty(mail, async (raw) => {
      const got = await t.gateway.receive(Buffer.from(raw, 'latin1'), []);
      assert.ok(STATUSES.includes(got), got);
    }), { numRuns: 300, seed: 31 });
    assert.ok((await t.longestAnswer()) < 60_000, `the longest answer has ${await t.longestAnswer()} characters`);
  } finally {
    await t.close();
  }
});

test('a subject or sender of 400,000 characters, or a Message-ID of 100,000, is not echoed whole in any answer: to orders, to a forged code, to no code, to a stranger', async () => {
  const t = await setup();
  try {
    const long = 'A'.repeat(400_000);
    const forged = t.address.replace(/\.[a-z0-9]+@/, '.zzzzzzzzzzzz@');
    const send = (k: number, from: string, to: string, subject: string, body: string) => t.gateway.receive(`Message-ID: <${'m'.repeat(100_000)}${k}@a.test>\r\nFrom: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\n${body}\r\n`, []);
    assert.equal(await send(1, 'ava@a.test', t.address, `Re: ${t.subject} ${long}`, 'random'), 'accepted');
    assert.equal(await send(2, `"${long}" <mallory@m.test>`, forged, long, 'F1 F1 F1 F1 F1'), 'refused');
    assert.equal(await send(3, 'bob@b.test', 'race@rr.test', long, 'F1 F1 F1 F1 F1'), 'refused');
    assert.equal(await send(4, 'stranger@s.test', 'race@rr.test', long, 'hello'), 'stranger');
    const answers = await mailDb(t.db).selectFrom('mail_outbox').select(['key', 'body']).where((w) => w.or(['reply:%', 'refused:%', 'uncoded:%', 'stranger:%'].map((k) => w('key', 'like', k)))).execute();
    assert.deepEqual(answers.map((a) => a.key.split(':')[0]).sort(), ['refused', 'reply', 'stranger', 'uncoded']);
    for (const a of answers) {
      assert.ok(a.body.length < 10_000, `${a.key}: the answer has ${a.body.length} characters`);
      assert.match(a.body, /AAAA…/, `${a.key}: the long text is quoted, cut short`);
    }
  } finally {
    await t.close();
  }
});

test('a stranger is answered only at the address that sent it: never at a Reply-To naming somebody else, nor when the envelope names another sender or none (a bounce)', async () => {
  const t = await setup();
  try {
    const port = t.gateway.smtpPort;
    const hello = { to: 'race@rr.test', subject: 'Can I race?', text: 'Hello' };
    // Over SMTP: the Reply-To names a victim; the envelope's sender is another address; a null one.
    await sendMail(port, { ...hello, from: 'stranger@s.test', headers: { 'Reply-To': 'victim@v.test' } });
    await sendMail(port, { ...hello, from: 'victim2@v.test', envelope: { from: 'mallory@m.test', to: 'race@rr.test' } });
    await sendMail(port, { ...hello, from: 'victim3@v.test', envelope: { from: '', to: 'race@rr.test' } });
    // From IMAP, the Return-Path the delivering server wrote is the envelope's sender.
    const imap = (k: number, returnPath: string, from: string) => t.gateway.receive(`Return-Path: ${returnPath}\r\nMessage-ID: <rp${k}@s.test>\r\nFrom: ${from}\r\nReply-To: victim5@v.test\r\nTo: race@rr.test\r\nSubject: hi\r\n\r\nHello\r\n`, []);
    assert.equal(await imap(1, '<mallory@m.test>', 'victim4@v.test'), 'ignored');
    assert.equal(await imap(2, '<>', 'victim4@v.test'), 'ignored');
    assert.equal(await imap(3, '<Newcomer@N.test>', 'newcomer@n.test'), 'stranger');
    // Two addresses in From: whose would it be? None is answered.
    assert.equal(await t.gateway.receive('Message-ID: <two@s.test>\r\nFrom: victim6@v.test, victim7@v.test\r\nTo: race@rr.test\r\nSubject: hi\r\n\r\nHello\r\n', []), 'ignored');
    const n = t.sink.mails.length;
    await t.gateway.pump();
    const answered = t.sink.mails.slice(n).flatMap((c) => c.to);
    assert.deepEqual(answered.sort(), ['newcomer@n.test', 'stranger@s.test'], 'the two who wrote from their own address, at that address');
    assert.match(t.sink.mails.at(-1)!.mail.text ?? '', /Your mail named no seat of a race/);
  } finally {
    await t.close();
  }
});

test('a seated player\'s Reply-To changes nothing: its orders, a mail without a code from its address and a forged code are each answered at the seat\'s address only', async () => {
  const t = await setup();
  try {
    const port = t.gateway.smtpPort;
    const n = t.sink.mails.length;
    const elsewhere = { 'Reply-To': 'victim@v.test' };
    await sendMail(port, { from: 'ava@a.test', to: t.address, subject: `Re: ${t.subject}`, text: 'random', headers: elsewhere });
    await sendMail(port, { from: 'ava@a.test', to: 'race@rr.test', subject: 'my orders', text: 'random', headers: elsewhere });
    await sendMail(port, { from: 'ava@a.test', to: t.address.replace(/\.[a-z0-9]+@/, '.zzzzzzzzzzzz@'), subject: 'orders', text: 'random', headers: elsewhere });
    await t.gateway.pump();
    const sent = t.sink.mails.slice(n);
    assert.deepEqual(sent.map((c) => c.to), [['ava@a.test'], ['ava@a.test'], ['ava@a.test']]);
    assert.deepEqual(sent.map((c) => (c.mail.text ?? '').split('\n')[0]!.replace(/ \(.*$|:.*$/, '')).sort(), [
      `A mail for your seat in race ${t.id}`,
      'Your mail "my orders" carried no seat code, so it counted for no seat',
      'Your orders for turn 1 are in. As understood',
    ]);
  } finally {
    await t.close();
  }
});

test(`strangers are answered ${WELCOMES_PER_HOUR} an hour at most, all together: the next new address in the hour gets nothing (the log says so once), and is answered when it writes again after the hour`, async () => {
  const t = await setup();
  try {
    const hello = (k: number, from: string) => t.gateway.receive(`Message-ID: <hello${k}@s.test>\r\nFrom: ${from}\r\nTo: race@rr.test\r\nSubject: hi\r\n\r\nHello\r\n`, [], from);
    for (let k = 0; k < WELCOMES_PER_HOUR; k++) {
      assert.equal(await hello(k, `s${k}@s.test`), 'stranger', `stranger ${k}`);
      t.clock.advance(60_000);
    }
    assert.equal(await hello(100, 'late@s.test'), 'ignored');
    assert.equal(await hello(101, 'later@s.test'), 'ignored');
    assert.deepEqual(t.logged.filter((l) => /strangers were answered in the last hour/.test(l)).length, 1);
    // An hour after the first answer, one more may go.
    t.clock.t += 3600_000 - WELCOMES_PER_HOUR * 60_000;
    assert.equal(await hello(102, 'late@s.test'), 'stranger');
    assert.equal(await hello(103, 'later@s.test'), 'ignored');
    const n = t.sink.mails.length;
    await t.gateway.pump();
    assert.equal(t.sink.mails.length - n, WELCOMES_PER_HOUR + 1);
  } finally {
    await t.close();
  }
});

test(`an address seated by whoever creates races, that never answers, is sent ${UNANSWERED_PER_DAY} mails in 24 hours at most: the rest are withheld (logged once), holding back nothing; once it answers with its secret, its mails go out`, async () => {
  const t = await setup();
  try {
    const to = (a: string) => t.sink.mails.filter((c) => c.to.some((x) => x.toLowerCase() === a));
    // Twelve races seat a victim (two mails each: the start and the instructions), some in another case.
    const ids = [];
    for (let k = 0; k < 12; k++) {
      const r = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'V', email: k % 2 ? 'Victim@V.test' : 'victim@v.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC' } });
      assert.ok(r.ok);
      ids.push(r.value.id);
    }
    await t.gateway.pump();
    const victim = to('victim@v.test');
    assert.equal(victim.length, UNANSWERED_PER_DAY);
    assert.equal(t.logged.filter((l) => /^mail: (v|V)ictim@(v|V)\.test has been sent 20 mails in 24 hours and has never answered one/.test(l)).length, 1, t.logged.join('\n'));
    // Bob never answered either (two mails of the first race, two of each of these): twenty, the rest withheld, each race's other mails not held back.
    assert.equal(to('bob@b.test').length, UNANSWERED_PER_DAY);
    const withheld = await mailDb(t.db).selectFrom('mail_outbox').select('to').where('error', 'like', 'withheld:%').execute();
    assert.deepEqual(withheld.map((w) => w.to.toLowerCase()).sort(), [...Array(6).fill('bob@b.test'), ...Array(4).fill('victim@v.test')]);
    // The victim answers one of its mails with the secret: from then on its mails go out.
    const deal = victim.find((c) => /Turn 1: your instructions/.test(c.mail.subject ?? ''))!;
    await sendMail(t.gateway.smtpPort, { from: 'victim@v.test', to: deal.mail.replyTo!.value[0]!.address!, subject: `Re: ${deal.mail.subject}`, text: 'random' });
    const more = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'V', email: 'victim@v.test' }, { name: 'Bolt', bot: 'random' }], deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC' } });
    assert.ok(more.ok);
    await t.gateway.pump();
    assert.equal(to('victim@v.test').length, UNANSWERED_PER_DAY + 3, 'its answer, the start and the instructions of the new race');
    // A day later, an address that never answered is sent mails again.
    t.clock.advance(24 * 3600_000);
    assert.ok((await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Bob', email: 'bob@b.test' }, { name: 'Bolt', bot: 'random' }], deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC' } })).ok);
    await t.gateway.pump();
    assert.equal(to('bob@b.test').length, UNANSWERED_PER_DAY + 2);
  } finally {
    await t.close();
  }
});
