import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { ImapFlow } from 'imapflow';
import { simpleParser, type ParsedMail } from 'mailparser';
import { shippedCourses, RaceService } from '../../server/src/index.js';
import { freshDb, TestClock, seatedRace } from '../../server/src/testing.js';
import { DEADLINE_LOOK_MS, MailGateway } from './gateway.js';
import { HANDLED, ImapPoller } from './imap.js';
import { firstLooks, mailDb, migrateMail } from './store.js';
import { dovecotMissing, freePort, smtpSink, startDovecot, until } from './testing.js';

const courses = shippedCourses();
const course = (n: string) => courses.get(n);
const missing = dovecotMissing();
if (missing) console.log(`# IMAP tests skipped: ${missing}`);

/**
 * A gateway polling a dovecot of its own every `pollSeconds` (its rounds every `pumpMs`), the relay
 * a sink, the race service on a fresh SQLite and a TestClock, and a mail client on the mailbox.
 */
async function imapGateway(pollSeconds: number, pumpMs: number) {
  const dovecot = await startDovecot();
  // dovecot is stopped if what follows cannot be had: no process is left to keep the runner waiting.
  const sink = await smtpSink().catch(async (e) => (await dovecot.stop(), Promise.reject(e)));
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course });
  const gateway = new MailGateway({
    service, db, clock,
    config: { from: 'race@rr.test', relay: `smtp://127.0.0.1:${sink.port}`, imapUrl: dovecot.url, imapPollSeconds: pollSeconds, pumpMs },
  });
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.pass }, logger: false });
  const close = async () => {
    await client.logout().catch(() => undefined);
    await gateway.stop();
    await sink.close();
    await db.destroy();
    await dovecot.stop();
  };
  try {
    await gateway.start();
    await client.connect();
  } catch (e) {
    await close();
    throw e;
  }
  return { dovecot, sink, db, clock, service, gateway, client, close };
}

test('orders delivered into an IMAP mailbox (dovecot on loopback) are polled, read, acknowledged and marked seen; one without the secret is refused', { skip: missing ?? false }, async () => {
  const { sink, service, client, close } = await imapGateway(0.1, 50);
  try {
    const created = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'scheduled', time: '22:00', zone: 'Europe/London' } });
    assert.ok(created.ok);
    const id = created.value.id;
    const deal = await until('the instructions of turn 1', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(c.mail.subject ?? '')));
    const address = deal.mail.replyTo!.value[0]!.address!;
    // The mail server delivers the players' mails into the mailbox the gateway polls.
    const deliver = (from: string, to: string, subject: string, text: string) =>
      client.append('INBOX', `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${Math.random().toString(36).slice(2)}@test>\r\n\r\n${text}\r\n`);
    await deliver('ava@a.test', address, `Re: ${deal.mail.subject}`, '1 2 3 4 5\npower down');
    await deliver('mallory@m.test', `race+${id}.1@rr.test`, 'orders', 'random');
    const ack = await until('the acknowledgement', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /^Re: /.test(c.mail.subject ?? '')));
    assert.match(ack.mail.text ?? '', /Your orders for turn 1 are in\. As understood:\n\n {2}Register 1: \S+/);
    assert.match(ack.mail.text ?? '', /Power down next turn: yes/);
    assert.match(ack.mail.text ?? '', /You can replace them by sending new orders until .*(GMT|BST|Europe\/London)/);
    const refusal = await until('the refusal', () => sink.mails.find((c) => c.to.includes('bob@b.test') && /was refused/.test(c.mail.text ?? '')));
    assert.match(refusal.mail.text ?? '', /It came from mallory@m\.test/);
    const v = await service.view(id);
    assert.ok(v.ok);
    assert.deepEqual(v.value.seats.map((s) => s.submitted), [true, false]);
    // Both mails were handled and marked seen, so the next look reads nothing again.
    await client.mailboxOpen('INBOX');
    const unseen = await client.search({ seen: false });
    assert.deepEqual(unseen, []);
  } finally {
    await close();
  }
});

test('a mail opened in a mail client before the poller looks is read all the same, once; a handled mail marked unread again is not read again', { skip: missing ?? false }, async () => {
  const dovecot = await startDovecot();
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.pass }, logger: false });
  const read: string[] = [];
  const poller = new ImapPoller(dovecot.url, async (raw) => void read.push(/^Subject: (.*)$/m.exec(raw.toString('latin1'))?.[1] ?? '?'), { log: (l) => assert.fail(l) });
  const mail = (subject: string) => `From: ava@a.test\r\nSubject: ${subject}\r\nMessage-ID: <${subject}@test>\r\n\r\n1 2 3 4 5\r\n`;
  try {
    await client.connect();
    await client.append('INBOX', mail('first'));
    await poller.poll();
    assert.deepEqual(read, ['first']);
    // A moderator glances at the mailbox: a new mail opened (seen) before the poller's look, and the
    // handled one marked unread again.
    await client.append('INBOX', mail('opened'), ['\\Seen']);
    await client.mailboxOpen('INBOX');
    await client.messageFlagsRemove({ all: true }, ['\\Seen']);
    await poller.poll();
    await poller.poll();
    assert.deepEqual(read, ['first', 'opened'], 'each mail read once');
    await client.mailboxOpen('INBOX');
    assert.deepEqual(await client.search({ keyword: HANDLED }), await client.search({ all: true }), 'every mail marked handled');
  } finally {
    await poller.stop();
    await client.logout().catch(() => undefined);
    await dovecot.stop();
  }
});

test('at its first look into a mailbox from which mails were read before, the poller takes the mails seen there as handled; into a new one it reads them; later looks read mails seen meanwhile', { skip: missing ?? false }, async () => {
  const dovecot = await startDovecot();
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.pass }, logger: false });
  const { db } = await freshDb('sqlite');
  const mdb = mailDb(db);
  const read: string[] = [];
  const looks = firstLooks(mdb, () => 0);
  const at = (url: string) => new ImapPoller(url, async (raw) => void read.push(/^Subject: (.*)$/m.exec(raw.toString('latin1'))?.[1] ?? '?'), { log: (l) => assert.fail(l), firstLooks: looks });
  const mail = (subject: string) => `From: ava@a.test\r\nSubject: ${subject}\r\nMessage-ID: <${subject}@test>\r\n\r\n1 2 3 4 5\r\n`;
  const older = at(dovecot.url);
  const fresh = at(dovecot.url.replace(/INBOX$/, 'Fresh'));
  try {
    await migrateMail(mdb);
    await client.connect();
    await client.mailboxCreate('Fresh');
    await client.append('Fresh', mail('fresh seen'), ['\\Seen']);
    await fresh.poll();
    assert.deepEqual(read, ['fresh seen'], 'no mail was answered before: a new mailbox');
    // The gateway has answered mails before (an earlier version, which marked what it read seen).
    await mdb.insertInto('mail_outbox').values({ key: 'reply:0123', race_id: 'r', seq: 1, created_at: 0, to: 'ava@a.test', body: '{}', sent_at: 0, claimed_until: null, attempts: 1, error: null }).execute();
    await client.append('INBOX', mail('read before'), ['\\Seen']);
    await client.append('INBOX', mail('unseen'));
    await older.poll();
    assert.deepEqual(read, ['fresh seen', 'unseen']);
    await client.append('INBOX', mail('opened later'), ['\\Seen']);
    await older.poll();
    await at(dovecot.url).poll();
    assert.deepEqual(read, ['fresh seen', 'unseen', 'opened later'], 'the first look is made once, kept in the database');
  } finally {
    await older.stop();
    await fresh.stop();
    await client.logout().catch(() => undefined);
    await db.destroy();
    await dovecot.stop();
  }
});

/**
 * A throwaway IMAP server on loopback: it greets, and `answer` answers each command line (its tag
 * and words) on the socket. `close` ends every connection and the timers `answer` kept in `timers`.
 */
async function imapServer(answer: (s: Socket, tag: string, words: string[], timers: Set<NodeJS.Timeout>) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    s.write('* OK [CAPABILITY IMAP4rev1] fake ready\r\n');
    let buf = '';
    s.on('data', (d) => {
      buf += d.toString('latin1');
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const [tag, ...words] = buf.slice(0, i).split(' ');
        buf = buf.slice(i + 2);
        answer(s, tag!, words, timers);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  return {
    port: typeof a === 'object' && a ? a.port : 0,
    close: () => new Promise<void>((r) => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

/**
 * An IMAP server that greets, accepts any LOGIN, and then drops the connection: with `reset`, by an
 * RST (the client sees ECONNRESET), else by closing it. It counts the logins.
 */
async function droppingImap(reset: boolean): Promise<{ port: number; logins: () => number; close(): Promise<void> }> {
  let logins = 0;
  const server = await imapServer((s, tag, [cmd]) => {
    if (/^LOGIN$/i.test(cmd ?? '')) {
      logins++;
      s.write(`${tag} OK LOGIN completed\r\n`, () => (reset ? s.resetAndDestroy() : s.destroy()));
    } else if (/^CAPABILITY$/i.test(cmd ?? '')) s.write(`* CAPABILITY IMAP4rev1\r\n${tag} OK done\r\n`);
    else s.write(`${tag} BAD unknown\r\n`);
  });
  return { ...server, logins: () => logins };
}

for (const reset of [false, true]) {
  test(`an IMAP server that drops the connection after login (${reset ? 'reset' : 'closed'}) is logged and tried again with backoff; the process stays up`, async () => {
    const server = await droppingImap(reset);
    const lines: string[] = [];
    const poller = new ImapPoller(`imap://u:p@127.0.0.1:${server.port}/INBOX`, async () => undefined, { log: (l) => lines.push(l), firstRetryMs: 20, maxRetryMs: 80 });
    try {
      poller.start(10);
      // An 'error' event without a listener would have ended this process at the first drop.
      await until('five logins, each dropped', () => server.logins() >= 5 && poller.faults >= 5);
      assert.match(lines[0]!, /^mail: IMAP: .+; trying again in 0\.02 s$/);
      // The pause doubles with each fault in a row, up to its limit.
      assert.deepEqual(lines.slice(0, 5).map((l) => /in ([\d.]+) s$/.exec(l)?.[1]), ['0.02', '0.04', '0.08', '0.08', '0.08']);
    } finally {
      await poller.stop();
      await server.close();
    }
  });
}

test('a refused connection is a fault like a dropped one: the look rejects, is counted, and nothing is thrown at the process', async () => {
  const server = await droppingImap(false);
  const poller = new ImapPoller(`imap://u:p@127.0.0.1:${server.port}/INBOX`, async () => undefined, { log: () => undefined });
  try {
    await assert.rejects(poller.poll());
    await assert.rejects(poller.poll());
    assert.equal(poller.faultsInRow, 2);
    await server.close();
    // Nothing listens now.
    await assert.rejects(poller.poll());
    assert.equal(poller.faults, 3);
  } finally {
    await poller.stop();
  }
});

test('of a mail larger than a mail may be, the header and text alone are read (orders with a photo attached, in ISO-8859-1 quoted-printable; HTML only), logged; one with no text within the bound is marked seen unread; the mails beside them are read', { skip: missing ?? false }, async () => {
  const dovecot = await startDovecot();
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.pass }, logger: false });
  const read: ParsedMail[] = [];
  const lines: string[] = [];
  const poller = new ImapPoller(dovecot.url, async (raw) => void read.push(await simpleParser(raw)), { log: (l) => lines.push(l), maxBytes: 100_000 });
  try {
    await client.connect();
    const head = (subject: string, type: string) => `From: ava@a.test\r\nTo: race@rr.test\r\nSubject: ${subject}\r\nMessage-ID: <${subject}@test>\r\nMIME-Version: 1.0\r\nContent-Type: ${type}\r\n\r\n`;
    const photo = `--b\r\nContent-Type: image/jpeg\r\nContent-Disposition: attachment; filename="cat.jpg"\r\nContent-Transfer-Encoding: base64\r\n\r\n${`${'A'.repeat(76)}\r\n`.repeat(2000)}--b--\r\n`;
    await client.append('INBOX', head('small', 'text/plain') + 'F F F F F\r\n');
    await client.append('INBOX', `${head('photo', 'multipart/mixed; boundary="b"')}--b\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n1 2 3 4 5\r\n\r\nGr=FC=DFe\r\n${photo}`);
    await client.append('INBOX', `${head('html', 'multipart/mixed; boundary="b"')}--b\r\nContent-Type: multipart/alternative; boundary="c"\r\n\r\n--c\r\nContent-Type: text/html; charset=UTF-8\r\n\r\n<div>random</div>\r\n--c--\r\n${photo}`);
    await client.append('INBOX', head('huge', 'text/plain') + `${'x'.repeat(999)}\r\n`.repeat(200));
    await client.append('INBOX', head('after', 'text/plain') + 'random\r\n');
    await poller.poll();
    assert.deepEqual(read.map((m) => m.subject), ['small', 'photo', 'html', 'after']);
    const [, p, h] = read;
    assert.equal(p!.text, '1 2 3 4 5\n\nGrüße');
    assert.equal(p!.messageId, '<photo@test>', 'its Message-ID kept, so that it is read once');
    assert.deepEqual([p!.attachments.length, h!.attachments.length], [0, 0]);
    assert.match(h!.text ?? '', /^random/);
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^mail: IMAP message 2: 15\d{4} bytes, more than the 100000 a mail may have; its header and text read \(\d{3} bytes\), the rest left$/);
    assert.match(lines[2]!, /^mail: IMAP message 4: 20\d{4} bytes, more than the 100000 a mail may have, and no text within it; marked handled, not read$/);
    await client.mailboxOpen('INBOX');
    assert.deepEqual(await client.search({ seen: false }), []);
  } finally {
    await poller.stop();
    await client.logout().catch(() => undefined);
    await dovecot.stop();
  }
});

test('mails that cannot be handled while the database is away are left unmarked and logged once, then once a minute, and once when they are handled again; not a line a mail a look', { skip: missing ?? false }, async () => {
  const dovecot = await startDovecot();
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.pass }, logger: false });
  const clock = new TestClock();
  const lines: string[] = [];
  const read: string[] = [];
  let away = true;
  const poller = new ImapPoller(dovecot.url, async (raw) => {
    if (away) throw new Error('Connection terminated unexpectedly');
    read.push(/^Subject: (.*)$/m.exec(raw.toString('latin1'))?.[1] ?? '?');
  }, { log: (l) => lines.push(l), clock });
  try {
    await client.connect();
    for (const n of [1, 2, 3]) await client.append('INBOX', `From: ava@a.test\r\nSubject: m${n}\r\nMessage-ID: <m${n}@test>\r\n\r\nrandom\r\n`);
    for (let look = 0; look < 5; look++) await poller.poll();
    assert.deepEqual(lines, ['mail: IMAP: handling the mails failed: message 1: Connection terminated unexpectedly (and 2 more); left unmarked, read again at the next look']);
    clock.t += 60_000;
    await poller.poll();
    assert.equal(lines.length, 2);
    assert.match(lines[1]!, /^mail: IMAP: handling the mails failed \(6 tries in a row\): message 1: /);
    away = false;
    await poller.poll();
    assert.deepEqual(lines.slice(2), ['mail: IMAP: handling the mails works again after 6 failed tries']);
    assert.deepEqual(read, ['m1', 'm2', 'm3']);
    assert.equal(poller.faults, 0, 'the mail server never failed');
  } finally {
    await poller.stop();
    await client.logout().catch(() => undefined);
    await dovecot.stop();
  }
});

test('a wrong password and a missing mailbox are logged with the step that failed and the server\'s own words', { skip: missing ?? false }, async () => {
  const dovecot = await startDovecot();
  const lines: string[] = [];
  const at = (url: string) => new ImapPoller(url, async () => undefined, { log: (l) => lines.push(l), firstRetryMs: 20, maxRetryMs: 20 });
  const wrong = at(dovecot.url.replace(':race-secret@', ':wrong@'));
  const missingBox = at(dovecot.url.replace(/INBOX$/, 'Races'));
  try {
    wrong.start(10);
    missingBox.start(10);
    await until('a fault of each logged', () => wrong.faults >= 1 && missingBox.faults >= 1, 20_000);
    assert.ok(lines.some((l) => /^mail: IMAP: connecting and logging in as rr: the server answered "Authentication failed\." \(AUTHENTICATIONFAILED\); trying again in 0\.02 s$/.test(l)), lines.join('\n'));
    assert.ok(lines.some((l) => /^mail: IMAP: opening the mailbox Races: the server answered "Mailbox doesn't exist: Races[^"]*"( \\(\\w+\\))?; trying again in 0\.02 s$/.test(l)), lines.join('\n'));
  } finally {
    await wrong.stop();
    await missingBox.stop();
    await dovecot.stop();
  }
});

test('a mailbox that keeps no keywords of ours is read as before, its unseen mails only, and that is logged once', async () => {
  const searches: string[] = [];
  const server = await imapServer((s, tag, words) => {
    const cmd = words.join(' ').toUpperCase();
    if (/^SELECT/.test(cmd)) s.write(`* 0 EXISTS\r\n* FLAGS (\\Seen \\Deleted)\r\n* OK [PERMANENTFLAGS (\\Seen \\Deleted)] ok\r\n* OK [UIDVALIDITY 1] ok\r\n${tag} OK [READ-WRITE] selected\r\n`);
    else if (/^UID SEARCH/.test(cmd)) s.write(`* SEARCH\r\n${tag} OK done\r\n`, () => searches.push(cmd));
    else if (/^LOGOUT/.test(cmd)) s.write(`* BYE\r\n${tag} OK done\r\n`, () => s.end());
    else s.write(`${tag} OK done\r\n`);
  });
  const lines: string[] = [];
  const poller = new ImapPoller(`imap://u:p@127.0.0.1:${server.port}/INBOX`, async () => undefined, { log: (l) => lines.push(l) });
  try {
    await poller.poll();
    await poller.poll();
    assert.deepEqual(searches, ['UID SEARCH UNSEEN', 'UID SEARCH UNSEEN']);
    assert.deepEqual(lines, [`mail: IMAP: the mailbox INBOX keeps no keywords of ours (${HANDLED}): only its unseen mails are read, and a mail opened in a mail client before the poller looks is not`]);
  } finally {
    await poller.stop();
    await server.close();
  }
});

/**
 * An IMAP server holding `mails` in INBOX, as much of the protocol as ImapPoller uses (any other
 * command answered OK). Its first FETCH of each mail's bytes goes wrong as `fault` says: the
 * literal cut short and then nothing more (`stall`), or a byte of it every 20 ms (`trickle`: the
 * socket is never idle for long).
 */
async function stallingImap(mails: { uid: number; raw: Buffer; seen: boolean }[], fault: 'stall' | 'trickle'): Promise<{ port: number; close(): Promise<void> }> {
  const faulted = new Set<number>();
  const uids = (set: string) => mails.filter((m) => set.split(',').some((r) => {
    const [a, b] = r.split(':');
    return m.uid >= Number(a) && (b === '*' || m.uid <= Number(b ?? a));
  }));
  return imapServer((s, tag, words, timers) => {
    const cmd = words.join(' ').toUpperCase();
    if (/^SELECT/.test(cmd)) s.write(`* ${mails.length} EXISTS\r\n* OK [UIDVALIDITY 1] ok\r\n* OK [UIDNEXT ${mails.length + 1}] ok\r\n${tag} OK [READ-WRITE] selected\r\n`);
    else if (/^UID SEARCH/.test(cmd)) s.write(`* SEARCH ${mails.filter((m) => !m.seen).map((m) => m.uid).join(' ')}\r\n${tag} OK done\r\n`);
    else if (/^UID FETCH .*BODY/.test(cmd)) {
      const m = uids(words[2]!)[0]!;
      const literal = Buffer.from(`* ${m.uid} FETCH (UID ${m.uid} BODY[] {${m.raw.length}}\r\n`, 'latin1');
      if (faulted.has(m.uid)) return void s.write(Buffer.concat([literal, m.raw, Buffer.from(`)\r\n${tag} OK done\r\n`, 'latin1')]));
      faulted.add(m.uid);
      if (fault === 'stall') return void s.write(Buffer.concat([literal, m.raw.subarray(0, m.raw.length >> 1)]));
      s.write(literal);
      let n = 0;
      const t = setInterval(() => (s.destroyed || n >= m.raw.length - 1 ? (clearInterval(t), timers.delete(t)) : s.write(m.raw.subarray(n, ++n))), 20);
      timers.add(t);
    } else if (/^UID FETCH/.test(cmd)) s.write(`${uids(words[2]!).map((m) => `* ${m.uid} FETCH (UID ${m.uid} RFC822.SIZE ${m.raw.length})\r\n`).join('')}${tag} OK done\r\n`);
    else if (/^UID STORE/.test(cmd)) {
      for (const m of uids(words[2]!)) m.seen = true;
      s.write(`${tag} OK done\r\n`);
    } else if (/^LOGOUT/.test(cmd)) s.write(`* BYE\r\n${tag} OK done\r\n`, () => s.end());
    else s.write(`${tag} OK done\r\n`);
  });
}

for (const fault of ['stall', 'trickle'] as const) {
  test(`an IMAP server that ${fault === 'stall' ? 'stops answering' : 'sends a byte now and then'} in the middle of a FETCH: the look is given up after its step's time and logged, the next reads every mail once, whole`, async () => {
    const mail = (uid: number) => ({ uid, seen: false, raw: Buffer.from(`From: ava@a.test\r\nSubject: orders\r\nMessage-ID: <m${uid}@a.test>\r\n\r\n1 2 3 4 5\r\n${'x'.repeat(400)}\r\n`, 'latin1') });
    const mails = [mail(1), mail(2)];
    const server = await stallingImap(mails, fault);
    const handled: string[] = [];
    const lines: string[] = [];
    const poller = new ImapPoller(`imap://u:p@127.0.0.1:${server.port}/INBOX`, async (raw) => void handled.push(raw.toString('latin1')), { log: (l) => lines.push(l), stepMs: 300, firstRetryMs: 20, maxRetryMs: 80 });
    try {
      poller.start(10);
      await until('both mails read and marked seen', () => mails.every((m) => m.seen) && handled.length >= 2, 10_000);
      assert.deepEqual(handled, mails.map((m) => m.raw.toString('latin1')), 'each mail handed over once, whole');
      // On a loaded machine another step may outrun its 0.3 s first: the fetch's own line is what counts.
      assert.ok(lines.some((l) => /^mail: IMAP: no answer to fetching message 1 within 0\.3 s; trying again in 0\.02 s$/.test(l)), lines.join('\n'));
    } finally {
      await poller.stop();
      await server.close();
    }
  });
}

test('orders delivered into the mailbox shortly before the deadline are read before it, however long the pause between looks', { skip: missing ?? false }, async () => {
  // A look an hour: without the look before the deadline, orders sent a little before it would be read after it.
  const { sink, clock, service, gateway, client, close } = await imapGateway(3600, 3_600_000);
  try {
    const created = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(created.ok);
    await gateway.pump();
    const deal = await until('the instructions of turn 1', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(c.mail.subject ?? '')));
    await client.append('INBOX', `From: ava@a.test\r\nTo: ${deal.mail.replyTo!.value[0]!.address!}\r\nSubject: Re: ${deal.mail.subject}\r\nMessage-ID: <just-before@a.test>\r\n\r\n1 2 3 4 5\r\n`);
    const view = await service.view(created.value.id);
    assert.ok(view.ok && view.value.deadlineAt !== null);
    clock.t = view.value.deadlineAt - DEADLINE_LOOK_MS;
    await gateway.pump();
    await until('Ava\'s orders read before the deadline', async () => (await service.ordersIn(created.value.id, 1)).includes(0), 5000);
    clock.t = view.value.deadlineAt;
    assert.equal(await service.tick(), 1);
    const turn = await service.playedTurn(created.value.id, 1);
    assert.ok(turn.ok);
    await gateway.pump();
    const ack = sink.mails.find((c) => c.to.includes('ava@a.test') && /^Re: /.test(c.mail.subject ?? ''));
    assert.match(ack?.mail.text ?? '', /Your orders for turn 1 are in/);
  } finally {
    await close();
  }
});

test('orders that reached the mailbox before the deadline are taken for its turn though read after it; orders that reached it after the deadline are refused as late', { skip: missing ?? false }, async () => {
  // A look an hour, and no round near the deadline: only the look the deadline's play waits for reads the mails.
  const { sink, clock, service, gateway, client, close } = await imapGateway(3600, 3_600_000);
  try {
    const created = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(created.ok);
    const id = created.value.id;
    await gateway.pump();
    const deals = await until('the instructions of turn 1', () => {
      const found = ['ava@a.test', 'bob@b.test'].map((to) => sink.mails.find((c) => c.to.includes(to) && /Turn 1: your instructions/.test(c.mail.subject ?? '')));
      return found.every(Boolean) ? found.map((c) => c!.mail) : null;
    });
    const view = await service.view(id);
    assert.ok(view.ok && view.value.deadlineAt !== null);
    const deadline = view.value.deadlineAt;
    // The mail server delivers Ava's mail 2 s before the deadline, Bob's 1 s after it (their INTERNALDATE, on the test's clock).
    const [ava, bob] = deals.map((d, i) => `From: ${['ava@a.test', 'bob@b.test'][i]}\r\nTo: ${d!.replyTo!.value[0]!.address!}\r\nSubject: Re: ${d!.subject}\r\nMessage-ID: <last-${i}@test>\r\n\r\n1 2 3 4 5\r\n`);
    await client.append('INBOX', ava!, [], new Date(deadline - 2000));
    await client.append('INBOX', bob!, [], new Date(deadline + 1000));
    clock.t = deadline + 1500;
    assert.equal(await service.tick(), 1);
    await gateway.pump();
    const to = (who: string, subject: RegExp) => sink.mails.find((c) => c.to.includes(who) && subject.test(c.mail.subject ?? ''))?.mail.text ?? '';
    assert.match(to('ava@a.test', /^Re: /), /Your orders for turn 1 are in\. As understood:[^]*They reached the mailbox before the deadline, which has passed since: the turn is played with them/);
    assert.match(to('bob@b.test', /^Re: /), /Your orders for turn 1 came too late: the deadline of turn 1 has passed/);
    const report = await until('the report of turn 1', () => to('ava@a.test', /Turn 1: report/));
    assert.doesNotMatch(report, /Ava: no program by the deadline/);
    assert.match(report, /Bob: no program by the deadline/);
  } finally {
    await close();
  }
});

for (const fault of ['does not answer', 'refuses the connection'] as const) {
  test(`a mailbox that ${fault} holds the play of a deadline no longer than the look's bound: the turn is played, and the fault logged`, async () => {
    const hung = fault === 'does not answer' ? await imapServer(() => undefined) : null;
    const port = hung ? hung.port : await freePort();
    const sink = await smtpSink();
    const { db } = await freshDb('sqlite');
    const clock = new TestClock();
    const service = new RaceService({ db, clock, course });
    const lines: string[] = [];
    // A hung exchange is given up after 60 s: the look's bound, not that, ends the wait.
    const gateway = new MailGateway({
      service, db, clock,
      config: { from: 'race@rr.test', relay: `smtp://127.0.0.1:${sink.port}`, imapUrl: `imap://u:p@127.0.0.1:${port}/INBOX`, imapPollSeconds: 3600, pumpMs: 3_600_000, lastLookMs: 300, log: (l) => lines.push(l) },
    });
    try {
      await gateway.start();
      const created = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 600 } });
      assert.ok(created.ok);
      const view = await service.view(created.value.id);
      assert.ok(view.ok && view.value.deadlineAt !== null);
      clock.t = view.value.deadlineAt;
      assert.equal(await service.tick(), 1);
      assert.ok((await service.playedTurn(created.value.id, 1)).ok);
      const said = hung ? /^mail: IMAP: the look for orders that came before the deadline of race \S+ took longer than 0\.3 s; the turn is played with the orders in$/
        : /^mail: IMAP: the look for orders that came before the deadline of race \S+ failed \(connecting and logging in as u: .*\); the turn is played with the orders in$/;
      assert.ok(lines.some((l) => said.test(l)), lines.join('\n'));
    } finally {
      await hung?.close();
      await gateway.stop();
      await sink.close();
      await db.destroy();
    }
  });
}

test('with an IMAP mailbox, a mail round lists the mail races once, for its mails, its look before a deadline and its reminders alike', { skip: missing ?? false }, async () => {
  const { sink, clock, service, gateway, client, close } = await imapGateway(3600, 3_600_000);
  const listMailRaces = service.mailRaces.bind(service);
  let listed = 0;
  service.mailRaces = () => (listed++, listMailRaces());
  try {
    const created = await seatedRace(service, {
      course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }],
      deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 },
    });
    assert.ok(created.ok);
    await gateway.pump();
    assert.equal(listed, 1, 'the round that wrote the start and the instructions');
    const deal = await until('the instructions of turn 1', () => sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(c.mail.subject ?? '')));
    await client.append('INBOX', `From: ava@a.test\r\nTo: ${deal.mail.replyTo!.value[0]!.address!}\r\nSubject: Re: ${deal.mail.subject}\r\nMessage-ID: <one-list@a.test>\r\n\r\n1 2 3 4 5\r\n`);
    const view = await service.view(created.value.id);
    assert.ok(view.ok && view.value.deadlineAt !== null);
    // Within the reminders' hours and the look before the deadline: the round does both from its one list.
    clock.t = view.value.deadlineAt - DEADLINE_LOOK_MS;
    await gateway.pump();
    assert.equal(listed, 2, 'one list in the second round');
    await until('Ava\'s orders read by the look before the deadline', async () => (await service.ordersIn(created.value.id, 1)).includes(0), 5000);
    await until('Bob reminded', () => sink.mails.some((c) => c.to.includes('bob@b.test') && /Turn 1: reminder/.test(c.mail.subject ?? '')));
  } finally {
    await close();
  }
});
