/**
 * For the mail tests: an SMTP sink on loopback that keeps every mail the relay is given, a
 * player's mail client, and a bounded wait on a condition.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';

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

/** Sends a mail as a player's mail client would, to an SMTP server on loopback. */
export async function sendMail(port: number, m: { from: string; to: string; subject: string; text: string; inReplyTo?: string }): Promise<void> {
  const t = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    await t.sendMail(m);
  } finally {
    t.close();
  }
}

/** Waits until `cond` holds, checking every 20 ms, for at most `ms`. */
export async function until<T>(what: string, cond: () => T | Promise<T>, ms = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
