/**
 * Orders from an IMAP mailbox: every so often the gateway logs in, reads the unseen mails, hands
 * each to the gateway, and marks it seen once it has been handled (a mail whose handling fails
 * stays unseen and is read again at the next look).
 */
import { ImapFlow } from 'imapflow';

export class ImapPoller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly url: URL;

  constructor(url: string, private readonly handle: (raw: Buffer) => Promise<void>) {
    this.url = new URL(url);
    if (this.url.protocol !== 'imap:' && this.url.protocol !== 'imaps:') throw new Error(`MAIL_IMAP_URL: expected imap://user:password@host:port/MAILBOX or imaps://…, found ${this.url.protocol}`);
  }

  start(everyMs: number): void {
    this.timer = setInterval(() => void this.poll().catch((e: Error) => console.error('mail: IMAP:', e.message)), everyMs);
  }

  /** One look into the mailbox; looks never overlap. */
  poll(): Promise<void> {
    this.running ??= this.look().finally(() => (this.running = null));
    return this.running;
  }

  private async look(): Promise<void> {
    const u = this.url;
    const client = new ImapFlow({
      host: u.hostname, port: Number(u.port || (u.protocol === 'imaps:' ? 993 : 143)), secure: u.protocol === 'imaps:',
      auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) }, logger: false,
    });
    await client.connect();
    try {
      const lock = await client.getMailboxLock(decodeURIComponent(u.pathname.slice(1)) || 'INBOX');
      try {
        const found: { uid: number; source: Buffer }[] = [];
        for await (const m of client.fetch({ seen: false }, { uid: true, source: true }, { uid: true })) if (m.source) found.push({ uid: m.uid, source: m.source });
        for (const m of found) {
          try {
            await this.handle(m.source);
          } catch (e) {
            // Left unseen, to be read again at the next look; the others are read now.
            console.error(`mail: IMAP message ${m.uid}:`, (e as Error).message);
            continue;
          }
          await client.messageFlagsAdd(String(m.uid), ['\\Seen'], { uid: true });
        }
      } finally {
        lock.release();
      }
    } finally {
      await client.logout().catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
