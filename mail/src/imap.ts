/**
 * Orders from an IMAP mailbox: every so often the gateway logs in, reads the mails not handled
 * yet, hands each to the gateway, and marks it handled (the keyword `$RoborallyHandled`) and seen
 * once it has been (a mail whose handling fails stays unmarked and is read again at the next look).
 * A mail opened by a person before the poller looks is read all the same: only unseen mails were
 * read, and one a moderator glanced at was never. A mailbox that keeps no keywords of ours
 * (its PERMANENTFLAGS) is read as before, its unseen mails only, and that is logged once. The
 * first look into a mailbox (`firstLook`) takes the mails seen there then, an earlier version's
 * reading, as handled. Of a mail larger than `maxBytes` (orders with a
 * photo or a video attached) only the header and the text are read; one with no text small enough
 * is marked handled unread. Each mail is handed over with when it reached the mailbox (its
 * INTERNALDATE), and `lookAfresh` makes a look that begins no sooner than it is asked for (the look
 * a deadline's play waits for: every mail delivered before the deadline is in its list).
 *
 * A fault of the mail server (refused connection, a connection dropped after login or mid-FETCH, a
 * protocol error, or no answer: each exchange has `stepMs`) is never fatal: the client's `'error'` events are caught, the fault is logged, and the
 * next look comes after a pause that doubles with each fault in a row (from `firstRetryMs` up to
 * `maxRetryMs`), back to the usual interval after a look that works.
 */
import { ImapFlow, type MessageStructureObject, type SearchObject } from 'imapflow';
import { quietFailures, systemClock, type Clock } from '../../server/src/index.js';

/** The keyword a mail handled is marked with (RFC 3501 keywords: the mailbox keeps it with the mail). */
export const HANDLED = '$RoborallyHandled';

/**
 * What the poller is told of its mailboxes' first looks: whether it has looked into `mailbox` with
 * the keyword before (`begun`), and, if not, whether mails were read from it before it did (by an
 * earlier version, which marked them seen only); `begin` records the first look once it is made.
 */
export interface FirstLooks {
  begun(mailbox: string): Promise<'begun' | 'read before' | 'new'>;
  begin(mailbox: string): Promise<void>;
}

export interface ImapPollerOptions {
  /** Where faults are written (console.error by default). */
  readonly log?: (line: string) => void;
  /** The pause after a first fault (1 s by default); it doubles with each fault in a row. */
  readonly firstRetryMs?: number;
  /** The longest pause between two tries after faults (5 minutes by default). */
  readonly maxRetryMs?: number;
  /**
   * The largest mail read, in bytes (1 MiB by default, as the SMTP listener's): of a larger one only
   * the header and its first text part (plain, else HTML) that is not an attachment are fetched and
   * handed over as a mail of their own, so a mailbox of huge mails costs no memory and orders sent
   * with a photo attached are read (they were marked seen unread, and the player never heard); a
   * larger mail without such a part within `maxBytes` is marked handled without being read, and logged.
   */
  readonly maxBytes?: number;
  /**
   * How long one exchange with the mail server may take (connecting, opening the mailbox, listing
   * the mails not handled yet, fetching one mail, marking it handled, logging out): 60 s by default. Past it the
   * connection is closed and the look is a fault. A server that stops answering mid-FETCH (a
   * literal cut short) held the look until the socket had been idle for 5 minutes (imapflow's
   * `socketTimeout`), and one sending a byte now and then held it for ever: no mail was read
   * meanwhile, nothing was logged, and the gateway's stop waited on it.
   */
  readonly stepMs?: number;
  /** The clock the failures to handle a mail are logged by (once, then once a minute). */
  readonly clock?: Clock;
  /**
   * The mailboxes' first looks (the gateway keeps them in the database): at the first look into a
   * mailbox from which mails were read before, the mails seen there are taken as handled (an earlier
   * version marked what it handled seen only). Without it every mail not marked is read.
   */
  readonly firstLooks?: FirstLooks;
}

export class ImapPoller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly url: URL;
  private readonly log: (line: string) => void;
  /**
   * Looks in which a mail could not be handled (the database away, say): the first logged, then
   * one line a minute while they go on, and one when a look handles every mail again. Each mail
   * was logged at each look: 13 mails left unseen while the database was away for a minute, with
   * looks every 2 s, made 325 lines.
   */
  private readonly handling: ReturnType<typeof quietFailures>;
  /** The mailboxes whose first look (`firstLooks`) is made. */
  private readonly begun = new Set<string>();
  /** Whether it was logged that the mailbox keeps no keywords of ours. */
  private keywordless = false;
  /** Faults in a row (0 after a look that worked). */
  faultsInRow = 0;
  /** Looks that ended in a fault, since the start. */
  faults = 0;

  /** The look asked for by `lookAfresh` while another ran, begun once that one ends. */
  private fresh: Promise<void> | null = null;

  /**
   * `handle` is given each mail with when it reached the mailbox (its INTERNALDATE, to the second
   * the mail server keeps; undefined if the server gave none).
   */
  constructor(url: string, private readonly handle: (raw: Buffer, arrivedAt?: number) => Promise<void>, private readonly options: ImapPollerOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== 'imap:' && this.url.protocol !== 'imaps:') throw new Error(`MAIL_IMAP_URL: expected imap://user:password@host:port/MAILBOX or imaps://…, found ${this.url.protocol}`);
    this.log = options.log ?? ((line) => console.error(line));
    this.handling = quietFailures('mail: IMAP: handling the mails', this.log, options.clock ?? systemClock);
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

  /**
   * A look begun now or later, never one already under way (which may have listed the mailbox
   * before a mail came): the one running is let end, then another is made, one for all who ask
   * meanwhile. Rejects on a fault of the mail server.
   */
  lookAfresh(): Promise<void> {
    if (!this.running) return this.poll();
    this.fresh ??= this.running.catch(() => undefined).then(() => {
      this.fresh = null;
      return this.poll();
    });
    return this.fresh;
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
    // One exchange, given up (the connection closed, what was in flight refused) once it takes longer
    // than `stepMs`. Its failure names it, with the server's own words when it refused: imapflow's
    // "Command failed" alone left a wrong password and a missing mailbox alike, and unexplained.
    const step = <T>(what: string, work: Promise<T>): Promise<T> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          client.close();
          reject(new Error(`no answer to ${what} within ${stepMs / 1000} s`));
        }, stepMs);
      });
      const failed = work.catch((e: Error & { responseText?: string; serverResponseCode?: string }) => {
        throw new Error(`${what}: ${e.responseText ? `the server answered "${e.responseText}"${e.serverResponseCode ? ` (${e.serverResponseCode})` : ''}` : e.message}`);
      });
      return Promise.race([failed, late]).finally(() => clearTimeout(timer));
    };
    const user = decodeURIComponent(u.username);
    const mailbox = decodeURIComponent(u.pathname.slice(1)) || 'INBOX';
    try {
      await step(`connecting and logging in as ${user}`, client.connect());
      const lock = await step(`opening the mailbox ${mailbox}`, client.getMailboxLock(mailbox));
      try {
        // The mailbox keeps our keyword (any keyword, `\*`, or ours named): else its unseen mails only.
        const kept = client.mailbox ? client.mailbox.permanentFlags : undefined;
        const keywords = !kept || kept.has('\\*') || kept.has(HANDLED);
        if (!keywords && !this.keywordless) this.log(`mail: IMAP: the mailbox ${mailbox} keeps no keywords of ours (${HANDLED}): only its unseen mails are read, and a mail opened in a mail client before the poller looks is not`);
        this.keywordless = !keywords;
        const marks = keywords ? ['\\Seen', HANDLED] : ['\\Seen'];
        const unhandled: SearchObject = keywords ? { unKeyword: HANDLED } : { seen: false };
        const where = `${user}@${u.host}/${mailbox}`;
        const first = keywords && this.options.firstLooks && !this.begun.has(where) ? await this.options.firstLooks.begun(where) : 'begun';
        if (first === 'read before') await step('marking the mails seen before as handled', client.messageFlagsAdd({ seen: true, unKeyword: HANDLED }, [HANDLED], { uid: true }));
        if (first !== 'begun') await this.options.firstLooks!.begin(where);
        if (keywords) this.begun.add(where);
        // The unhandled mails' sizes first, then each mail's bytes one at a time: never more than one mail in memory.
        const found: { uid: number; size: number; arrivedAt: number | undefined }[] = [];
        await step('the list of mails not handled yet', (async () => {
          for await (const m of client.fetch(unhandled, { uid: true, size: true, internalDate: true }, { uid: true })) {
            const at = m.internalDate === undefined ? NaN : new Date(m.internalDate).getTime();
            found.push({ uid: m.uid, size: m.size ?? 0, arrivedAt: Number.isFinite(at) ? at : undefined });
          }
        })());
        const most = this.options.maxBytes ?? 1024 * 1024;
        const failed: string[] = [];
        for (const m of found) {
          let raw: Buffer | null;
          if (m.size > most) {
            raw = await step(`fetching the text of message ${m.uid}`, textOf(client, m.uid, most));
            const said = `mail: IMAP message ${m.uid}: ${m.size} bytes, more than the ${most} a mail may have`;
            this.log(raw ? `${said}; its header and text read (${raw.length} bytes), the rest left` : `${said}, and no text within it; marked handled, not read`);
            if (!raw) {
              await step(`marking message ${m.uid} handled`, client.messageFlagsAdd(String(m.uid), marks, { uid: true }));
              continue;
            }
          } else {
            const one = await step(`fetching message ${m.uid}`, client.fetchOne(String(m.uid), { source: true }, { uid: true }));
            raw = one ? one.source ?? null : null;
          }
          // Gone meanwhile (another client expunged it): nothing to read.
          if (!raw) continue;
          try {
            await this.handle(raw, m.arrivedAt);
          } catch (e) {
            // Left unmarked, to be read again at the next look; the others are read now.
            failed.push(`message ${m.uid}: ${(e as Error).message}`);
            continue;
          }
          await step(`marking message ${m.uid} handled`, client.messageFlagsAdd(String(m.uid), marks, { uid: true }));
        }
        if (failed.length) this.handling.failed(`${failed[0]}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}; left unmarked, read again at the next look`);
        else this.handling.worked();
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

/** The first part under `node` of `type` that is not an attachment, depth first. */
function partOf(node: MessageStructureObject, type: string): MessageStructureObject | null {
  if (node.childNodes) {
    for (const c of node.childNodes) {
      const found = partOf(c, type);
      if (found) return found;
    }
    return null;
  }
  return node.part && node.type.toLowerCase() === type && node.disposition?.toLowerCase() !== 'attachment' ? node : null;
}

/**
 * A mail too large to read whole, as the mail its writer meant: its header (less its own MIME
 * fields) over its first text part (plain, else HTML) that is not an attachment, with that part's
 * MIME header, so its charset and transfer encoding stand. Null if it has no such part, or if the
 * two would be more than `most` bytes.
 */
async function textOf(client: ImapFlow, uid: number, most: number): Promise<Buffer | null> {
  const head = await client.fetchOne(String(uid), { headers: true, bodyStructure: true }, { uid: true });
  if (!head || !head.headers || !head.bodyStructure) return null;
  const part = partOf(head.bodyStructure, 'text/plain') ?? partOf(head.bodyStructure, 'text/html');
  if (!part || head.headers.length + (part.size ?? 0) > most) return null;
  const got = await client.fetchOne(String(uid), { bodyParts: [`${part.part}.mime`, part.part!] }, { uid: true });
  const mime = got ? got.bodyParts?.get(`${part.part}.mime`) : undefined;
  const body = got ? got.bodyParts?.get(part.part!) : undefined;
  if (!mime || !body) return null;
  // The header's fields, each with its folded lines; those that describe the whole mail's MIME structure left out.
  const fields = head.headers.toString('latin1').replace(/(\r?\n)+$/, '').split(/\r?\n(?![ \t])/);
  const kept = fields.filter((f) => !/^(content-[\w-]+|mime-version)\s*:/i.test(f));
  return Buffer.concat([Buffer.from(`${kept.join('\r\n')}\r\nMIME-Version: 1.0\r\n`, 'latin1'), mime, body]);
}
