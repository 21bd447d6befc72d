import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { call, exitsWithin, spawnServer } from '../../server/src/testing.js';
import { mailConfigFromEnv } from './gateway.js';
import { freePort, sendMail, smtpSink, until } from './testing.js';

test('npm start races by mail when MAIL_FROM, MAIL_RELAY_URL and MAIL_SMTP_LISTEN are set: a race created over HTTP mails its seats, with the link to the seat\'s own page at MAIL_WEB_URL, and takes their orders', async () => {
  const sink = await smtpSink();
  const [port, smtp] = [await freePort(), await freePort()];
  let child: ChildProcess | null = null;
  try {
    child = await spawnServer({
      PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), 'rr-mail-')), DATABASE_URL: '',
      MAIL_FROM: 'RoboRally <race@rr.test>', MAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_SMTP_LISTEN: `127.0.0.1:${smtp}`, MAIL_WEB_URL: `http://127.0.0.1:${port}`,
    });
    const created = await call(`http://127.0.0.1:${port}`, 'POST', '/api/races', { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bolt', bot: 'random' }], deadline: { kind: 'live', seconds: 3600 } });
    assert.equal(created.status, 201);
    assert.equal(created.body.seats[0].email, 'ava@a.test');
    const deal = await until('the instructions of turn 1', () => sink.mails.find((c) => /Turn 1: your instructions/.test(c.mail.subject ?? '')));
    assert.deepEqual(deal.to, ['ava@a.test']);
    const link = /^On the web: (\S+) \(your seat's own page: keep it to yourself\)$/m.exec(deal.mail.text ?? '')?.[1];
    assert.match(link ?? '', new RegExp(`^http://127\\.0\\.0\\.1:${port}/race/${created.body.id}\\?seat=0&token=`));
    const seat = await call(`http://127.0.0.1:${port}`, 'GET', `/api/races/${created.body.id}/seats/0?token=${new URL(link!).searchParams.get('token')}`);
    assert.equal(seat.status, 200);
    assert.ok(seat.body.you.hand.length > 0, 'the link opens the seat, its hand with it');
    await sendMail(smtp, { from: 'ava@a.test', to: deal.mail.replyTo!.value[0]!.address!, subject: `Re: ${deal.mail.subject}`, text: 'random' });
    // Ava's orders are the last ones needed: the live race plays the turn, and its report follows.
    const ack = await until('the acknowledgement', () => sink.mails.find((c) => /^Re: /.test(c.mail.subject ?? '')));
    assert.match(ack.mail.text ?? '', /Every order was in, so the turn has been played; its report follows\./);
    await until('the report of turn 1', () => sink.mails.find((c) => /Turn 1: report/.test(c.mail.subject ?? '')));
  } finally {
    child?.kill('SIGTERM');
    if (child) await exitsWithin(child, 30_000);
    await sink.close();
  }
});

test('mail is off with no MAIL_ variables, and a half configuration is refused with what is missing', () => {
  assert.equal(mailConfigFromEnv({ PORT: '8080' }), null);
  assert.throws(() => mailConfigFromEnv({ MAIL_FROM: 'race@rr.test' }), /MAIL_FROM and MAIL_RELAY_URL are both needed/);
  assert.throws(() => mailConfigFromEnv({ MAIL_FROM: 'race@rr.test', MAIL_RELAY_URL: 'smtp://relay:25' }), /MAIL_SMTP_LISTEN \(host:port\) or MAIL_IMAP_URL is needed/);
  assert.deepEqual(mailConfigFromEnv({ MAIL_FROM: 'race@rr.test', MAIL_RELAY_URL: 'smtp://relay:25', MAIL_IMAP_URL: 'imap://u:p@h/INBOX', MAIL_REMIND_HOURS: '5' }),
    { from: 'race@rr.test', relay: 'smtp://relay:25', imapUrl: 'imap://u:p@h/INBOX', remindHours: 5 });
});

test('MAIL_WEB_URL, the server\'s public address for the links of the mails, is an http(s) URL; anything else is refused with what is expected', () => {
  const env = { MAIL_FROM: 'race@rr.test', MAIL_RELAY_URL: 'smtp://relay:25', MAIL_SMTP_LISTEN: '127.0.0.1:2525' };
  assert.equal(mailConfigFromEnv({ ...env, MAIL_WEB_URL: 'https://races.example.org/' })?.webUrl, 'https://races.example.org');
  assert.equal(mailConfigFromEnv({ ...env, MAIL_WEB_URL: 'http://example.org:8080/rr/' })?.webUrl, 'http://example.org:8080/rr');
  assert.equal(mailConfigFromEnv(env)?.webUrl, undefined);
  for (const bad of ['races.example.org', 'ftp://example.org', 'https://example.org/?x=1', 'https://example.org/#top', 'https://u:p@example.org', 'javascript:alert(1)', 'https://exa mple.org']) {
    assert.throws(() => mailConfigFromEnv({ ...env, MAIL_WEB_URL: bad }), /^Error: mail: MAIL_WEB_URL: expected the server's public address as its players open it, an http:\/\/ or https:\/\/ URL/, bad);
  }
  // Alone, it is a half configuration of the mail.
  assert.throws(() => mailConfigFromEnv({ MAIL_WEB_URL: 'https://races.example.org' }), /MAIL_FROM and MAIL_RELAY_URL are both needed \(found MAIL_WEB_URL\)/);
});
