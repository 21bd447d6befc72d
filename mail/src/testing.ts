/**
 * For the mail tests: an SMTP sink on loopback that keeps every mail the relay is given, a
 * player's mail client, a dovecot IMAP server of the test's own, and a bounded wait on a condition.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { until } from '../../server/src/testing.js';
export { until };

export interface Caught {
  readonly to: string[];
  readonly mail: ParsedMail;
}

/** An SMTP server on 127.0.0.1 that keeps what it is sent. */
export async function smtpSink(): Promise<{ port: number; mails: Caught[]; close(): Promise<void> }> {
  const mails: Caught[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], disableReverseLookup: true, logger: false,
    onData(stream, session, done) {
      simpleParser(stream, { keepCidLinks: true }).then((mail) => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
        done();
      }, done);
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.server.address();
  return { port: typeof a === 'object' && a ? a.port : 0, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A relay on loopback that can be stopped mid-race and started again on the same port (its open
 * connections dropped at once), keeping what it is sent while it runs.
 */
export async function stoppableRelay(): Promise<{ port: number; mails: Caught[]; stop(): Promise<void>; start(): Promise<void> }> {
  const mails: Caught[] = [];
  let port = 0;
  let server: SMTPServer | null = null;
  const start = async () => {
    const s = new SMTPServer({
      authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], disableReverseLookup: true, logger: false, closeTimeout: 50,
      onData(stream, session, done) {
        simpleParser(stream, { keepCidLinks: true }).then((mail) => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
          done();
        }, done);
      },
    });
    await new Promise<void>((r) => s.listen(port, '127.0.0.1', () => r()));
    const a = s.server.address();
    port = typeof a === 'object' && a ? a.port : 0;
    server = s;
  };
  await start();
  return {
    get port() { return port; }, mails, start,
    stop: () => new Promise<void>((r) => (server ? server.close(() => r()) : r())),
  };
}

/** Sends a mail as a player's mail client would, to an SMTP server on loopback. */
export async function sendMail(port: number, m: { from: string; to: string; subject: string; text: string; inReplyTo?: string; headers?: Record<string, string>; envelope?: { from: string; to: string } }): Promise<void> {
  const t = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    await t.sendMail(m);
  } finally {
    t.close();
  }
}

const DOVECOT = '/usr/sbin/dovecot';

/** Why the IMAP tests cannot run here, or null if they can (Debian's dovecot-imapd, installed by .ci/run). */
export function dovecotMissing(): string | null {
  return existsSync(DOVECOT) ? null : `${DOVECOT} not found: install Debian's dovecot-imapd (apt-get install dovecot-imapd; .ci/run does)`;
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

/**
 * A dovecot of the test's own, not the system's service: its own configuration, run and mail
 * directories under a temporary directory, IMAP without TLS on a free loopback port, one user
 * with a plain password and a maildir.
 */
export async function startDovecot(): Promise<{ url: string; port: number; user: string; pass: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'rr-dovecot-'));
  const port = await freePort();
  const root = process.getuid?.() === 0;
  // As root, dovecot drops to its own users; otherwise everything runs as the current user.
  const me = userInfo().username;
  const [login, internal, owner] = root ? ['dovenull', 'dovecot', 'dovecot'] : [me, me, me];
  for (const d of ['run', 'state', 'mail']) mkdirSync(join(dir, d));
  chmodSync(dir, 0o755);
  if (root) {
    const ids = spawnSync('id', ['-u', owner]).stdout.toString().trim();
    const gid = spawnSync('id', ['-g', owner]).stdout.toString().trim();
    chownSync(join(dir, 'mail'), Number(ids), Number(gid));
  }
  writeFileSync(join(dir, 'passwd'), 'rr:{PLAIN}race-secret\n');
  writeFileSync(join(dir, 'dovecot.conf'), [
    'protocols = imap', 'listen = 127.0.0.1', `base_dir = ${dir}/run`, `state_dir = ${dir}/state`, `log_path = ${dir}/dovecot.log`,
    `instance_name = rr-test-${port}`, 'ssl = no', 'disable_plaintext_auth = no', 'auth_mechanisms = plain login', 'first_valid_uid = 1',
    `mail_location = maildir:${dir}/mail/%u`, `default_login_user = ${login}`, `default_internal_user = ${internal}`,
    `passdb {\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u ${dir}/passwd\n}`,
    `userdb {\n  driver = static\n  args = uid=${owner} gid=${owner} home=${dir}/mail/%u\n}`,
    `service imap-login {\n  chroot =\n  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
    'service anvil {\n  chroot =\n}', 'service pop3-login {\n  inet_listener pop3 {\n    port = 0\n  }\n}',
  ].join('\n'));
  const child = spawn(DOVECOT, ['-F', '-c', join(dir, 'dovecot.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const log = () => (existsSync(join(dir, 'dovecot.log')) ? readFileSync(join(dir, 'dovecot.log'), 'utf8') : '');
  try {
    await until('dovecot to listen', async () => {
      if (child.exitCode !== null) throw new Error(`dovecot exited: ${out}${log()}`);
      return new Promise<boolean>((resolve) => {
        const c = createConnection(port, '127.0.0.1');
        c.once('data', () => (c.end(), resolve(true)));
        c.once('error', () => resolve(false));
      });
    });
  } catch (e) {
    // A dovecot that never listened is not left running to keep the test runner waiting.
    child.kill('SIGKILL');
    await exited;
    throw e;
  }
  return {
    url: `imap://rr:race-secret@127.0.0.1:${port}/INBOX`, port, user: 'rr', pass: 'race-secret',
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
