/**
 * Orders from an IMAP mailbox: every so often the gateway logs in, reads the unseen mails, hands
 * each to the gateway, and marks it seen once it has been handled (a mail whose handling fails
 * stays unseen and is read again at the next look). A mail larger than `maxBytes` is marked seen
 * unread.
 *
 * A fault of the mail server (refused connection, a connection dropped after login or mid-FETCH, a
 * protocol error, or no answer: each exchange has `stepMs`) is never fatal: the client's `'error'` events are caught, the fault is logged, and the
 * next look comes after a pause that doubles with each fault in a row (from `firstRetryMs` up to
 * `maxRetryMs`), back to the usual interval after a look that works.
 */
import { ImapFlow } from 'imapflow';

export interface ImapPollerOptions {
  /** Where faults are written (console.error by default). */
  readonly log?: (line: string) => void;
  /** The pause after a first fault (1 s by default); it doubles with each fault in a row. */
  readonly firstRetryMs?: number;
  /** The longest pause between two tries after faults (5 minutes by default). */
  readonly maxRetryMs?: number;
  /**
   * The largest mail read, in bytes (1 MiB by default, as the SMTP listener's): a larger one is
   * marked seen without being fetched, and logged, so a mailbox of huge mails costs no memory.
   */
  readonly maxBytes?: number;
  /**
   * How long one exchange with the mail server may take (connecting, opening the mailbox, listing
   * the unseen mails, fetching one mail, marking it seen, logging out): 60 s by default. Past it the
   * connection is closed and the look is a fault. A server that stops answering mid-FETCH (a
   * literal cut short) held the look until the socket had been idle for 5 minutes (imapflow's
   * `socketTimeout`), and one sending a byte now and then held it for ever: no mail was read
   * meanwhile, nothing was logged, and the gateway's stop waited on it.
   */
  readonly stepMs?: number;
}

export class ImapPoller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly url: URL;
  private readonly log: (line: string) => void;
  /** Faults in a row (0 after a look that worked). */
  faultsInRow = 0;
  /** Looks that ended in a fault, since the start. */
  faults = 0;

  constructor(url: string, private readonly handle: (raw: Buffer) => Promise<void>, private readonly options: ImapPollerOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== 'imap:' && this.url.protocol !== 'imaps:') throw new Error(`MAIL_IMAP_URL: expected imap://user:password@host:port/MAILBOX or imaps://…, found ${this.url.protocol}`);
    this.log = options.log ?? ((line) => console.error(line));
  }

  /** Looks now, then every `everyMs`, or sooner after a fault (with backoff). */
  start(everyMs: number): void {
    this.stopped = false;
    const next = (ms: number) => {
      if (!this.stopped) this.timer = setTimeout(run, ms);
    };
    const run = () => {
      this.timer = null;
      this.poll().then(
        () => next(everyMs),
        (e: Error) => {
          const pause = this.retryPause();
          this.log(`mail: IMAP: ${e.message}; trying again in ${pause / 1000} s`);
          next(pause);
        },
      );
    };
    next(everyMs);
  }

  private retryPause(): number {
    const first = this.options.firstRetryMs ?? 1000;
    const max = this.options.maxRetryMs ?? 300_000;
    return Math.min(max, first * 2 ** Math.min(30, this.faultsInRow - 1));
  }

  /** One look into the mailbox; looks never overlap. Rejects on a fault of the mail server. */
  poll(): Promise<void> {
    this.running ??= this.look().then(
      () => {
        this.faultsInRow = 0;
      },
      (e: unknown) => {
        this.faultsInRow++;
        this.faults++;
        throw e instanceof Error ? e : new Error(String(e));
      },
    ).finally(() => (this.running = null));
    return this.running;
  }

  private async look(): Promise<void> {
    const u = this.url;
    const client = new ImapFlow({
      host: u.hostname, port: Number(u.port || (u.protocol === 'imaps:' ? 993 : 143)), secure: u.protocol === 'imaps:',
      auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) }, logger: false,
    });
    // Without a listener an 'error' event (a connection dropped mid-session) would end the process;
    // the command in flight is rejected as well, so the look fails and is tried again.
    let fault: Error | null = null;
    client.on('error', (e: Error) => {
      fault ??= e;
    });
    const stepMs = this.options.stepMs ?? 60_000;
    // One exchange, given up (the connection closed, what was in flight refused) once it takes longer than `stepMs`.
    const step = <T>(what: string, work: Promise<T>): Promise<T> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          client.close();
          reject(new Error(`no answer to ${what} within ${stepMs / 1000} s`));
        }, stepMs);
      });
      return Promise.race([work, late]).finally(() => clearTimeout(timer));
    };
    try {
      await step('the connection', client.connect());
      const lock = await step('opening the mailbox', client.getMailboxLock(decodeURIComponent(u.pathname.slice(1)) || 'INBOX'));
      try {
        // The unseen mails' sizes first, then each mail's bytes one at a time: never more than one mail in memory.
        const found: { uid: number; size: number }[] = [];
        await step('the list of unseen mails', (async () => {
          for await (const m of client.fetch({ seen: false }, { uid: true, size: true }, { uid: true })) found.push({ uid: m.uid, size: m.size ?? 0 });
        })());
        const most = this.options.maxBytes ?? 1024 * 1024;
        for (const m of found) {
          if (m.size > most) {
            this.log(`mail: IMAP message ${m.uid}: ${m.size} bytes, more than the ${most} a mail may have; marked seen, not read`);
            await step(`marking message ${m.uid} seen`, client.messageFlagsAdd(String(m.uid), ['\\Seen'], { uid: true }));
            continue;
          }
          const one = await step(`fetching message ${m.uid}`, client.fetchOne(String(m.uid), { source: true }, { uid: true }));
          // Gone meanwhile (another client expunged it): nothing to read.
          if (!one || !one.source) continue;
          try {
            await this.handle(one.source);
          } catch (e) {
            // Left unseen, to be read again at the next look; the others are read now.
            this.log(`mail: IMAP message ${m.uid}: ${(e as Error).message}`);
            continue;
          }
          await step(`marking message ${m.uid} seen`, client.messageFlagsAdd(String(m.uid), ['\\Seen'], { uid: true }));
        }
      } finally {
        lock.release();
      }
    } catch (e) {
      const f = fault as Error | null;
      throw f && f !== e ? new Error(`${(e as Error).message} (${f.message})`) : e;
    } finally {
      await step('the logout', client.logout()).catch(() => undefined);
      client.close();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
