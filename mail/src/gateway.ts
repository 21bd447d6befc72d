/**
 * The mail gateway: orders come in by a built-in SMTP listener or from an IMAP mailbox it polls,
 * are read in the order notation and sent to the race as the seat's orders; every mail the race
 * sends goes out through the configured SMTP relay from the outbox. Started by the server's main
 * when MAIL_FROM and MAIL_RELAY_URL are set (docs/mail.md).
 */
import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import nodemailer, { type Transporter } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { COMMENT_HINT, apiOrders, describeOrders, needsProgram, orderLines, parseOrders } from '../../engine/src/index.js';
import { serialTicker, type Db, type Clock, type MailRaceHead, type RaceService } from '../../server/src/index.js';
import { addressing, claims, type Addressing, type Claim } from './address.js';
import { ImapPoller } from './imap.js';
import { Outbox, notationContext, rootSeat, threadRoot, threaded } from './outbox.js';
import { firstLooks, mailDb, migrateMail, type MailDb } from './store.js';
import { followWord, handLines, heldOptionLines, helpWord, lockedLines, notationHelp, replyMail, sectionHeading, sectionHelp, when } from './templates.js';

export interface MailConfig {
  /** The From of every mail; seats reply to its plus-tagged forms. */
  readonly from: string;
  /** Where mail goes out: an smtp:// or smtps:// URL (nodemailer's), or a transport (tests). */
  readonly relay: string | Transporter;
  /** host:port for the built-in SMTP listener, if mail comes in that way. */
  readonly smtpListen?: string;
  /** imap://user:password@host:port/MAILBOX (imaps:// with TLS), if mail comes in that way. */
  readonly imapUrl?: string;
  /** Seconds between looks into the IMAP mailbox (default 60). */
  readonly imapPollSeconds?: number;
  /**
   * How long the play of a deadline waits for the look into the IMAP mailbox begun after it
   * (default `LAST_LOOK_MS`): past it, or on a fault of the mail server, the turn is played with the
   * orders in, and that is logged.
   */
  readonly lastLookMs?: number;
  /** Hours before a deadline at which seats without orders are reminded (default 3). */
  readonly remindHours?: number;
  /** Milliseconds between rounds of writing and sending mail (default 1000). */
  readonly pumpMs?: number;
  /**
   * Seconds the relay may take to connect, to greet, and to answer each command, the mail's data
   * included (default 20; nodemailer's own are 2 and 10 minutes): a relay that hangs fails the mail,
   * which is tried again later, well before its claim in the outbox (a minute) lapses.
   */
  readonly relayTimeoutSeconds?: number;
  /**
   * The server's public address (`https://races.example.org`, no trailing slash): with it, the
   * mails to a seat raced by e-mail carry the link to the seat's own page; without it, no link.
   */
  readonly webUrl?: string;
  /** Where the relay's failures are told (default: the server's standard error). */
  readonly log?: (line: string) => void;
}

/** The bounds of the mail's numbers in the environment, and their unit. */
const MAIL_NUMBERS = {
  MAIL_IMAP_POLL_SECONDS: [1, 86_400, 'seconds'],
  MAIL_REMIND_HOURS: [0.1, 8_760, 'hours'],
  MAIL_RELAY_TIMEOUT_SECONDS: [1, 3_600, 'seconds'],
} as const;

/** The mail configuration from the environment, or null when mail is off (docs/mail.md). */
export function mailConfigFromEnv(env: NodeJS.ProcessEnv): MailConfig | null {
  const set = Object.keys(env).filter((k) => k.startsWith('MAIL_') && env[k]);
  if (!set.length) return null;
  if (!env.MAIL_FROM || !env.MAIL_RELAY_URL) throw new Error(`mail: MAIL_FROM and MAIL_RELAY_URL are both needed (found ${set.join(', ')})`);
  if (!env.MAIL_SMTP_LISTEN && !env.MAIL_IMAP_URL) throw new Error('mail: MAIL_SMTP_LISTEN (host:port) or MAIL_IMAP_URL is needed for the orders to come in');
  // A number written in digits (a fraction allowed), within bounds a timer can wait (2^31-1 ms).
  const num = (k: keyof typeof MAIL_NUMBERS) => {
    const v = env[k];
    if (v === undefined || v === '') return undefined;
    const [min, max, unit] = MAIL_NUMBERS[k];
    const n = /^[0-9]{1,9}(\.[0-9]{1,6})?$/.test(v) ? Number(v) : NaN;
    if (!(n >= min && n <= max)) throw new Error(`mail: ${k}: expected a number of ${unit} from ${min} to ${max}, written in digits; got ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`);
    return n;
  };
  return {
    from: env.MAIL_FROM, relay: env.MAIL_RELAY_URL,
    ...(env.MAIL_SMTP_LISTEN ? { smtpListen: env.MAIL_SMTP_LISTEN } : {}),
    ...(env.MAIL_IMAP_URL ? { imapUrl: env.MAIL_IMAP_URL } : {}),
    ...(num('MAIL_IMAP_POLL_SECONDS') ? { imapPollSeconds: num('MAIL_IMAP_POLL_SECONDS')! } : {}),
    ...(num('MAIL_REMIND_HOURS') ? { remindHours: num('MAIL_REMIND_HOURS')! } : {}),
    ...(num('MAIL_RELAY_TIMEOUT_SECONDS') ? { relayTimeoutSeconds: num('MAIL_RELAY_TIMEOUT_SECONDS')! } : {}),
    ...(env.MAIL_WEB_URL ? { webUrl: readWebUrl(env.MAIL_WEB_URL) } : {}),
  };
}

/**
 * MAIL_WEB_URL as the mails' links begin: an http:// or https:// address with a host, and a path
 * if the server is served under one, but no query, fragment or password (a link is written after it).
 */
function readWebUrl(v: string): string {
  let u: URL | null = null;
  try {
    u = new URL(v);
  } catch {
    // said below
  }
  if (!u || !/^https?:$/.test(u.protocol) || !u.hostname || u.search || u.hash || u.username || u.password || /\s/.test(v)) {
    throw new Error(`mail: MAIL_WEB_URL: expected the server's public address as its players open it, an http:// or https:// URL such as https://races.example.org (a path allowed, no query, fragment or password); got ${JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v)}`);
  }
  return u.toString().replace(/\/+$/, '');
}

/**
 * What became of an incoming mail. `malformed`: not a mail its parser can read (MIME nested past
 * its bound, say): dropped and logged, never read again; the SMTP listener refuses it for good (554).
 */
export type Received = 'accepted' | 'refused' | 'unreadable' | 'ignored' | 'duplicate' | 'automatic' | 'stranger' | 'malformed';

/**
 * Whether a mail was sent by a machine on its own (RFC 3834 and the headers responders use in
 * practice): a vacation notice, a bounce, a list's mail. These are never answered, so two
 * responders cannot answer each other forever, and never read as orders.
 */
export function automatic(m: ParsedMail): string | null {
  const h = (k: string) => {
    const v = m.headers.get(k);
    return v === undefined ? null : String(typeof v === 'object' && v && 'value' in v ? (v as { value: unknown }).value : v).trim().toLowerCase();
  };
  const auto = h('auto-submitted');
  if (auto !== null && auto !== 'no' && !auto.startsWith('no;')) return `Auto-Submitted: ${auto}`;
  const prec = h('precedence');
  if (prec && /^(bulk|list|junk|auto_reply)$/.test(prec)) return `Precedence: ${prec}`;
  for (const k of ['x-autoreply', 'x-autorespond', 'x-auto-response-suppress', 'list-id', 'list-unsubscribe']) if (h(k) !== null && (k !== 'x-auto-response-suppress' || /all|oof|autoreply/.test(h(k)!))) return k;
  const from = m.from?.value[0]?.address?.toLowerCase() ?? '';
  if (!from || /^(mailer-daemon|postmaster)@/.test(from) || /^(no-?reply|do-?not-?reply)@/.test(from)) return `From: ${from || 'nobody'}`;
  return null;
}

const MAX_MAIL = 1024 * 1024;

/**
 * How long before a mail race's deadline the IMAP mailbox is looked into, whatever
 * MAIL_IMAP_POLL_SECONDS: the orders delivered into it by then are read before the deadline, so the
 * look after it (`LAST_LOOK_MS`), which the turn's play waits for, has only the last seconds' to read.
 */
export const DEADLINE_LOOK_MS = 15_000;
/**
 * How long the play of a mail race's deadline waits, at most, for the look into the IMAP mailbox
 * begun once the deadline has passed (a mail server a continent away logs in within a second or two).
 */
export const LAST_LOOK_MS = 5_000;
const HOUR = 3600_000;
/**
 * The strangers answered in an hour, all together (each once ever): a person asking how to join is
 * answered at once, and a flood of mails under forged senders makes at most this many mails an hour.
 */
export const WELCOMES_PER_HOUR = 30;
/** The unreadable lines an answer lists (the first ones; the others are counted). */
const SHOWN_ERRORS = 10;

export class MailGateway {
  private readonly outbox: Outbox;
  private readonly db: MailDb;
  private readonly addr: Addressing;
  private readonly transport: Transporter;
  private smtp: SMTPServer | null = null;
  private imap: ImapPoller | null = null;
  /** Takes back the look before each deadline's play (`RaceService.beforeDeadlinePlay`). */
  private lastLook: (() => Promise<void>) | null = null;
  /** The deadlines (`race:time`) the mailbox has been looked into before, each once. */
  private readonly lookedBefore = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  /** Mails that claimed no known seat, dropped without an answer. */
  ignored = 0;
  /** When the log last said that strangers are no longer answered this hour. */
  private welcomesFullSince = -Infinity;
  private readonly now: () => number;

  private readonly service: RaceService;
  private readonly config: MailConfig;
  private readonly log: (line: string) => void;

  constructor(o: { service: RaceService; db: Db; clock: Clock; config: MailConfig }) {
    const { service, db, clock, config } = o;
    this.service = service;
    this.config = config;
    this.now = clock.now;
    this.db = mailDb(db);
    this.addr = addressing(config.from);
    // One pooled connection to the relay, kept open between mails; a relay that hangs is given up
    // on (options in the URL, such as ?socketTimeout=, win).
    const ms = (config.relayTimeoutSeconds ?? 20) * 1000;
    this.transport = typeof config.relay === 'string'
      ? nodemailer.createTransport({ url: config.relay, pool: true, maxConnections: 1, connectionTimeout: ms, greetingTimeout: ms, socketTimeout: ms })
      : config.relay;
    this.log = config.log ?? ((line) => console.error(line));
    this.outbox = new Outbox({ db: this.db, service, addressing: this.addr, now: clock.now, remindHours: config.remindHours ?? 3, log: this.log, ...(config.webUrl ? { webUrl: readWebUrl(config.webUrl) } : {}) });
  }

  /** Creates its tables, opens the listener and the mailbox, and starts writing and sending mail. */
  async start(): Promise<void> {
    await migrateMail(this.db);
    if (this.config.smtpListen) {
      const [host, port] = splitHostPort(this.config.smtpListen);
      this.smtp = new SMTPServer({
        authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], disableReverseLookup: true, logger: false, size: MAX_MAIL, banner: 'roborally orders',
        onData: (stream, session, done) => {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            if (stream.sizeExceeded) return done(Object.assign(new Error('mail too large'), { responseCode: 552 }));
            const rcpt = session.envelope.rcptTo.map((r) => r.address);
            // The envelope's sender: '' for a null one (MAIL FROM:<>, a bounce).
            const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
            // The sender hears 250 only once the orders and the answer are stored; else it tries again.
            this.receive(Buffer.concat(chunks), rcpt, sender).then(
              (got) => done(got === 'malformed' ? Object.assign(new Error('not a mail that can be read (its MIME structure is broken or nested too deep)'), { responseCode: 554 }) : undefined),
              (e: Error) => done(Object.assign(new Error(`try again later: ${e.message}`), { responseCode: 451 })),
            );
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        this.smtp!.once('error', reject);
        this.smtp!.listen(port, host, () => resolve());
      });
    }
    if (this.config.imapUrl) {
      const imap = new ImapPoller(this.config.imapUrl, (raw, arrivedAt) => this.receive(raw, [], undefined, arrivedAt).then(() => undefined), { maxBytes: MAX_MAIL, firstLooks: firstLooks(this.db, this.now) });
      this.imap = imap;
      imap.start((this.config.imapPollSeconds ?? 60) * 1000);
      // Once a mail race's deadline has passed, its turn is played after a look into the mailbox
      // begun then: orders that reached the mailbox before the deadline are read, and taken.
      this.lastLook = this.service.beforeDeadlinePlay({ look: () => imap.lookAfresh(), withinMs: this.config.lastLookMs ?? LAST_LOOK_MS, log: (line) => this.log(`mail: IMAP: ${line}`) });
    }
    // A round still running (a slow relay, a database away) is not queued behind; failures are
    // logged once, then once a minute while they last.
    const round = serialTicker('mail round', () => this.pump(), this.log, { now: this.now });
    this.timer = setInterval(() => void round(), this.config.pumpMs ?? 1000);
  }

  /** The port the SMTP listener took (when asked for port 0). */
  get smtpPort(): number {
    const a = this.smtp?.server.address();
    return typeof a === 'object' && a ? a.port : 0;
  }

  /** One round: write the mails of new entries and due reminders, and send what waits. */
  pump(): Promise<void> {
    // Rounds never overlap; a caller during one waits for it, then runs its own.
    const run = async () => {
      // The mail races are listed once a round, for all that reads them.
      const races = await this.service.mailRaces();
      await this.outbox.compose(races);
      this.lookBeforeDeadlines(races);
      await this.outbox.remind(races);
      await this.outbox.deliver(this.transport);
    };
    const next: Promise<void> = (this.pumping ?? Promise.resolve()).catch(() => undefined).then(run).finally(() => {
      if (this.pumping === next) this.pumping = null;
    });
    this.pumping = next;
    return next;
  }

  /**
   * Looks into the IMAP mailbox once `DEADLINE_LOOK_MS` before each deadline of a running mail
   * race (of `races`, as the round listed them), without waiting for the look (a fault is logged,
   * and the regular looks go on).
   */
  private lookBeforeDeadlines(races: readonly MailRaceHead[]): void {
    if (!this.imap) return;
    const now = this.now();
    for (const [k, at] of this.lookedBefore) if (at <= now) this.lookedBefore.delete(k);
    const due = races
      .filter((r) => r.status === 'running' && r.deadlineAt !== null && r.deadlineAt > now && r.deadlineAt - DEADLINE_LOOK_MS <= now && !this.lookedBefore.has(`${r.id}:${r.deadlineAt}`));
    if (!due.length) return;
    for (const r of due) this.lookedBefore.set(`${r.id}:${r.deadlineAt}`, r.deadlineAt!);
    this.imap.poll().catch((e: Error) => this.log(`mail: IMAP: the look before the deadline of race ${due[0]!.id}: ${e.message}`));
  }

  async stop(): Promise<void> {
    await this.lastLook?.();
    if (this.timer) clearInterval(this.timer);
    await this.pumping?.catch(() => undefined);
    await this.imap?.stop();
    if (this.smtp) await new Promise<void>((r) => this.smtp!.close(() => r()));
    this.transport.close();
  }

  /**
   * One incoming mail: which seat it claims, whether it carries the seat's secret, its orders read
   * and sent to the race; the answer (acknowledgement or refusal) goes to the seat's own address
   * through the outbox. A mail seen before (same Message-ID) is not read again. `envelope`: the
   * envelope's recipients; `sender`: its sender (MAIL FROM, '' for a null sender), when the mail
   * came over SMTP (from IMAP, the mail's Return-Path says it). `arrivedAt`: when it reached the
   * IMAP mailbox (its orders count from then: read after the deadline, before the turn is played,
   * they are taken); by SMTP, now.
   */
  async receive(raw: Buffer | string, envelope: readonly string[], sender?: string, arrivedAt?: number): Promise<Received> {
    let mail: ParsedMail;
    try {
      mail = await simpleParser(raw);
    } catch (e) {
      // The same bytes fail the same way every time: tried again (SMTP 451, an IMAP mail left unseen) they would be for ever.
      this.ignored++;
      this.log(`mail: a mail that cannot be read was dropped (${(e as Error).message})`);
      return 'malformed';
    }
    const id = createHash('sha256').update(mail.messageId ?? raw).digest('hex').slice(0, 32);
    const key = `reply:${id}`;
    if (await this.outbox.has(key)) return 'duplicate';
    const subject = mail.subject ?? '';
    if (automatic(mail)) {
      // RFC 3834: no answer to an answering machine, and nothing it says is taken for orders.
      this.ignored++;
      return 'automatic';
    }
    const seat = await this.seatOf(claims([...envelope, ...recipients(mail)], subject));
    if (!seat) {
      this.ignored++;
      if (await this.uncoded(mail)) return 'refused';
      return (await this.welcome(mail, sender)) ? 'stranger' : 'ignored';
    }
    const race = await this.outbox.race(seat.race);
    const s = race?.seats.find((x) => x.seat === seat.seat);
    if (!race || !s) {
      this.ignored++;
      return 'ignored';
    }
    const from = mail.from?.text ?? 'an unknown sender';
    // `player`: an answer about all the robots of the seat's player, not marked as its robot's alone.
    const answer = async (lines: string[], as = key, player = false) =>
      this.outbox.enqueue([{ key: as, race: race.id, seq: race.lastSeq, to: s.email, mail: threaded(replyMail(player ? { ...s.ctx, robots: [] } : s.ctx, { subject: quoted(subject), messageId: answered(mail) }, lines), threadRoot(this.addr.domain, race.id, rootSeat(race.seats, s.email))) }]);
    if (seat.secret !== s.secret) {
      // Told to the seat's own address, never to the sender: a forger learns nothing, the player
      // learns of it; once a turn at most, so that forged mails cannot flood the player.
      await answer([
        `A mail for your seat in race ${race.id} (${s.ctx.name}) was refused: it did not carry your seat's secret code.`,
        `It came from ${quoted(from)}, subject "${quoted(subject)}".`,
        `Orders count only when sent to ${s.ctx.replyTo} or with ${s.ctx.code} in the subject: reply to a mail of the race. Nothing was changed.`,
        'Other such mails this turn are refused without a notice.',
      ], `refused:${race.id}:${s.seat}:${race.state.turn}`);
      return 'refused';
    }
    const st = race.state;
    if (race.status !== 'running') {
      await answer([`Race ${race.id} is over; no orders are taken any more.`], key, true);
      return 'refused';
    }
    // The robots raced from this seat's address (000 L40), out or not: its player writes a section for each.
    const mine = race.seats.filter((x) => x.kind === 'human' && x.email.toLowerCase() === s.email.toLowerCase());
    const follow = followWord(mail.text ?? '');
    if (follow !== null) {
      // The mail's own word, not an order: whether the player keeps receiving the turn reports once its robots are out (all of them: one mail a turn comes to the address).
      const word = follow ? 'follow' : 'stop following';
      const set = [];
      for (const x of mine) {
        const one = await this.service.follow(race.id, x.seat, { mailSecret: x.secret }, follow);
        if (!one.ok) {
          await answer([`Your "${word}" for race ${race.id} was refused by the race, so nothing was changed${mine.length > 1 ? ` for ${x.ctx.name}` : ''}: ${one.refusal.field}: ${one.refusal.message}.`], key, true);
          return 'refused';
        }
        set.push(one.value);
      }
      const out = set.every((x) => x.out);
      const robot = mine.length > 1 ? 'robots are' : 'robot is';
      await answer([
        follow ? `You follow race ${race.id}: ${out ? 'the turn reports come to you again from the next turn on,' : `once your ${robot} out of the race, the turn reports keep coming`} until the race is over.`
          : `You stop following race ${race.id}: ${out ? 'no more turn reports come to you' : `once your ${robot} out of the race, no more turn reports come to you`}; the standings come at the end.`,
        `Write "${follow ? 'stop following' : 'follow'}" to change your mind. Nothing else in this mail was read as orders.`,
      ], key, true);
      return 'accepted';
    }
    const ctx = notationContext(race.setup.rules, st, s.seat);
    if (helpWord(mail.text ?? '')) {
      // The mail's own word: the notation again (the turn's instructions only point to it), nothing read as orders.
      const held = mine.length > 1 ? mine.flatMap((x) => {
        const lines = heldOptionLines(notationContext(race.setup.rules, st, x.seat));
        return lines.length ? ['', `${sectionHeading(x.ctx.name)}:`, ...lines] : [];
      }) : ctx.options.length ? ['', ...heldOptionLines(ctx)] : [];
      await answer([...notationHelp(race.setup.rules), ...(mine.length > 1 ? ['', ...sectionHelp(race.setup.rules, mine.map((x) => x.ctx.name))] : []), ...held, '', 'Nothing in this mail was read as orders.']);
      return 'accepted';
    }
    const finalLine = async (): Promise<string> => {
      // A live race plays the turn as soon as the last orders are in.
      const now = await this.service.view(race.id);
      const played = now.ok && (now.value.turn !== st.turn || now.value.status !== 'running');
      return played ? 'Every order was in, so the turn has been played; its report follows.'
        // Read after the deadline, from a mail that reached the mailbox before it.
        : race.deadlineAt !== null && race.deadlineAt <= this.now() ? 'They reached the mailbox before the deadline, which has passed since: the turn is played with them, and its report follows.'
        : race.deadlineAt !== null ? `You can replace them by sending new orders until ${when(race.deadlineAt, race.policy)}.` : 'You can replace them by sending new orders until the deadline.';
    };
    if (mine.length <= 1) {
      const one = await this.robotOrders(race, s, mail.text ?? '', subject, arrivedAt);
      await answer(one.final ? [...one.lines, await finalLine()] : one.lines);
      return one.status;
    }
    // Several robots: the body split at its "Robot NAME" lines, each section read by the engine's notation for its robot.
    const split = splitSections(mail.text ?? '', mine.map((x) => x.ctx.name));
    if ('unknown' in split) {
      await answer([`Your orders for turn ${st.turn} were not used: "${sectionHeading(split.unknown)}" names no robot of yours (you race ${mine.map((x) => x.ctx.name).join(', ')}), so nothing was changed.`, '',
        ...sectionHelp(race.setup.rules, mine.map((x) => x.ctx.name))], key, true);
      return 'refused';
    }
    // A mail with no heading programs the robot whose seat it was sent to.
    const sections = split.sections.size ? split.sections : new Map([[s.ctx.name, split.preamble]]);
    const results: { name: string; status: Received; lines: string[]; final?: boolean }[] = [];
    for (const x of mine) {
      const body = sections.get(x.ctx.name);
      if (body) results.push({ name: x.ctx.name, ...(await this.robotOrders(race, x, [...(split.sections.size ? split.preamble : []), ...body].join('\n'), subject, arrivedAt)) });
    }
    const missing = mine.filter((x) => !sections.has(x.ctx.name) && needsProgram(st, x.seat)).map((x) => x.ctx.name);
    const lines = results.flatMap((r) => [`${sectionHeading(r.name)}:`, ...r.lines.map((l) => (l ? `  ${l}` : l)), '']);
    if (missing.length) lines.push(`No section for ${missing.map(sectionHeading).map((h) => `"${h}"`).join(', ')}: ${missing.length === 1 ? 'its' : 'their'} orders stand as they were (none: the program is filled at random at the deadline). Send a section headed "${sectionHeading(missing[0]!)}" to program it.`, '');
    if (results.some((r) => r.final)) lines.push(await finalLine());
    // A refused section's answer holds the notation already; the sections' form is told once.
    if (results.some((r) => r.status !== 'accepted')) lines.push('', ...sectionHelp(race.setup.rules, mine.map((x) => x.ctx.name)));
    await answer(lines, key, true);
    return results.find((r) => r.status !== 'accepted')?.status ?? 'accepted';
  }

  /**
   * One robot's orders of a mail, read by the engine's notation and sent to the race with the
   * seat's mail secret and when the mail arrived (`receive`): what the answer says of them (the
   * acknowledgement without its last line, which the caller adds once, or the refusal).
   */
  private async robotOrders(race: NonNullable<Awaited<ReturnType<Outbox['race']>>>, s: NonNullable<Awaited<ReturnType<Outbox['race']>>>['seats'][number], text: string, subject: string, arrivedAt: number | undefined): Promise<{ status: Received; lines: string[]; final?: boolean }> {
    const st = race.state;
    const ctx = notationContext(race.setup.rules, st, s.seat);
    const parsed = parseOrders(text, ctx);
    // The turn named by a "Turn N" line, or by the subject of the instructions or reminder replied to
    // (not by a report's: the report of turn N comes with the instructions of turn N + 1).
    // Kept as written (leading zeros dropped): a number of 20 digits is quoted back as it came, not as 1e+20 or Infinity.
    const fromSubject = /\bTurn (\d+): (?:your instructions|reminder)/i.exec(subject)?.[1]?.replace(/^0+(?=\d)/, '');
    const named = parsed.ok && parsed.orders.turn !== null ? String(parsed.orders.turn) : fromSubject ?? String(st.turn);
    if (named !== String(st.turn)) {
      return { status: 'refused', lines: [`These orders are for turn ${named}, but race ${race.id} is at turn ${st.turn}; they were not used. The instructions of turn ${st.turn} came in the mail whose subject says "Turn ${st.turn}: your instructions": reply to that one.`] };
    }
    if (!parsed.ok) {
      return {
        status: 'unreadable',
        lines: [
          `Your orders for turn ${st.turn} could not be read, so nothing was changed (orders you sent before stand).`, '',
          ...parsed.errors.slice(0, SHOWN_ERRORS).map((e) => (e.line ? `Line ${e.line} "${e.text}": expected ${e.expected}.` : `Expected ${e.expected}.`)),
          ...(parsed.errors.length > SHOWN_ERRORS ? [`And ${parsed.errors.length - SHOWN_ERRORS} more that could not be read.`] : []), '',
          ...withBlank(lockedLines(st, s.seat)),
          ...ignoredLines(parsed.ignored),
          'Your instructions:', ...handLines(ctx), '',
          ...notationHelp(race.setup.rules),
          ...(ctx.options.length ? ['', ...heldOptionLines(ctx)] : []),
        ],
      };
    }
    if (parsed.orders.choices.recompile) {
      // 2.22: a new hand first; the program comes in a later mail, from the new cards.
      const re = await this.service.recompile(race.id, s.seat, { mailSecret: s.secret });
      if (!re.ok) return { status: 'refused', lines: [`Your Recompile for turn ${st.turn} was refused by the race, so nothing was changed: ${re.refusal.field}: ${re.refusal.message}.`] };
      const fresh = await this.outbox.race(race.id);
      const now = notationContext(race.setup.rules, fresh!.state, s.seat);
      return {
        status: 'accepted',
        lines: [
          `Recompiled: your hand for turn ${st.turn} is new, and your robot took the damage Recompile costs. Orders sent before were withdrawn;`,
          'send your program from these cards (any program in the Recompile mail was not used):', '', ...handLines(now),
        ],
      };
    }
    // For the turn the mail is for: if that turn is played meanwhile, the race refuses them (409
    // turn or deadline) and the answer says so; they never land on the next turn.
    const done = await this.service.submit(race.id, s.seat, { mailSecret: s.secret, ...(arrivedAt !== undefined ? { arrivedAt } : {}) }, { ...apiOrders(parsed.orders), turn: st.turn });
    if (!done.ok) {
      const late = done.refusal.field === 'turn' || done.refusal.field === 'deadline';
      return {
        status: 'refused',
        lines: late
          ? [`Your orders for turn ${st.turn} came too late: ${done.refusal.message}. They were not used. The instructions of the next turn come in the mail whose subject says "Turn ${st.turn + 1}: your instructions": reply to that one.`]
          : [`Your orders for turn ${st.turn} were read but refused by the race, so nothing was changed: ${done.refusal.field}: ${done.refusal.message}.`, ...lockedLines(st, s.seat), '',
            ...notationHelp(race.setup.rules), ...(ctx.options.length ? ['', ...heldOptionLines(ctx)] : [])],
      };
    }
    return {
      status: 'accepted', final: true,
      lines: [
        `Your orders for turn ${done.value.turn} are in. As understood:`, '', ...describeOrders(parsed.orders, ctx).map((x) => `  ${x}`), '',
        ...withBlank(lockedLines(st, s.seat)),
        ...ignoredLines(parsed.ignored),
      ],
    };
  }

  /**
   * A mail that names no seat from the address of a seat of a running race (a player who wrote a
   * new mail instead of replying): nothing in it is read as orders, and the player is told so, once
   * a turn, at the address the race has for it (never a Reply-To: a forger learns nothing), with the
   * reply address and code of each of its races. Returns whether the sender races here.
   */
  private async uncoded(mail: ParsedMail): Promise<boolean> {
    const from = (mail.from?.value[0]?.address ?? '').toLowerCase();
    if (!from.includes('@')) return false;
    const races = [];
    for (const id of await this.service.mailRacesOf(from)) {
      const race = await this.outbox.race(id);
      const mine = race?.seats.filter((x) => x.email.toLowerCase() === from) ?? [];
      if (race && mine.length) races.push({ race, mine });
    }
    if (!races.length) return false;
    const key = `uncoded:${createHash('sha256').update(from).digest('hex').slice(0, 32)}:${races.map((r) => `${r.race.id}.${r.race.state.turn}`).join(',')}`;
    if (await this.outbox.has(key)) return true;
    const { race, mine } = races[0]!;
    const lines = races.map((r) => {
      const lead = r.mine[0]!;
      return `  Race ${r.race.id} on ${lead.ctx.course}, turn ${r.race.state.turn} (${r.mine.map((x) => x.ctx.name).join(', ')}): reply to ${lead.ctx.replyTo}, or keep ${lead.ctx.code} in the subject.`;
    });
    await this.outbox.enqueue([{
      key, race: race.id, seq: race.lastSeq, to: mine[0]!.email,
      mail: threaded({
        subject: answerSubject(mail),
        text: [
          `Your mail "${quoted(mail.subject ?? '')}" carried no seat code, so it counted for no seat: nothing in it was read as orders, and nothing was changed.`, '',
          `You race by mail in ${races.length === 1 ? 'this race' : 'these races'}:`, ...lines, '',
          'The easiest is to reply to the latest mail of your race: its address and subject carry the code.',
          'Other mails without a code this turn are not answered.',
        ].join('\n'),
        autoSubmitted: 'auto-replied',
        ...inReplyTo(mail),
      }, threadRoot(this.addr.domain, race.id, rootSeat(race.seats, mine[0]!.email))),
    }]);
    return true;
  }

  /**
   * A mail that names no seat (a newcomer writing to the race address): answered once per sender,
   * ever, with how to join; later ones are dropped. Answered only at the address that sent it (its
   * From, when the envelope's sender is that same address), never at a Reply-To, and no more than
   * `WELCOMES_PER_HOUR` strangers an hour all together: whoever forges a sender cannot make the
   * server mail an address of their choosing more than once, nor many addresses fast. Returns
   * whether it was answered.
   */
  private async welcome(mail: ParsedMail, sender: string | undefined): Promise<boolean> {
    const from = strangerAddress(mail, sender);
    if (!from) return false;
    const key = `stranger:${createHash('sha256').update(from).digest('hex').slice(0, 32)}`;
    if (await this.outbox.has(key)) return false;
    if (await this.outbox.written('', this.now() - HOUR) >= WELCOMES_PER_HOUR) {
      // Told once an hour at most, so that a flood of strangers does not flood the log too.
      if (this.now() - this.welcomesFullSince >= HOUR) {
        this.welcomesFullSince = this.now();
        this.log(`mail: ${WELCOMES_PER_HOUR} strangers were answered in the last hour; more mails that name no seat are dropped unanswered until the hour has passed`);
      }
      return false;
    }
    const me = `${this.addr.local}@${this.addr.domain}`;
    await this.outbox.enqueue([{
      key, race: '', seq: 0, to: from,
      mail: {
        subject: answerSubject(mail),
        text: [
          `This is the RoboRally race server at ${me}. Your mail named no seat of a race, so nothing was done with it.`, '',
          'To race by mail:',
          '  - Ask a race\'s moderator for a seat with your address: the moderator creates the race with',
          '    {"name": "Your name", "email": "you@example.org"} among its seats (POST /api/races, docs/mail.md).',
          '  - The race then mails you its start and your instructions each turn, each with your seat\'s code',
          '    ([RR race s1 code]) in the subject and your seat\'s own reply address.',
          '  - Reply to those mails with your orders: a mail without the code in its subject or address counts for no seat.', '',
          'If you already have a seat, reply to a mail of your race instead of writing a new one.',
          'This answer is sent once: later mails from you that name no seat are not answered.',
        ].join('\n'),
        autoSubmitted: 'auto-replied',
        ...inReplyTo(mail),
      },
    }]);
    return true;
  }

  /** The first claim naming a seat of a race that races by mail (race ids are matched regardless of case). */
  private async seatOf(cs: Claim[]): Promise<Claim | null> {
    for (const c of cs) {
      const ids = await this.service.mailSeatRaces(c.race, c.seat);
      const exact = ids.includes(c.race) ? c.race : ids.length === 1 ? ids[0] : undefined;
      if (exact) return { ...c, race: exact };
    }
    return null;
  }
}

/**
 * The most of an incoming mail's subject or sender an answer quotes back (a header may run to the
 * mail's 1 MiB): above the longest subject of our own mails (8 robots of 64-character names, some 600).
 */
const QUOTED = 1_000;

/** An incoming mail's subject or sender as an answer quotes it: cut after `QUOTED` characters (never inside one), with an ellipsis. */
function quoted(text: string): string {
  const chars = Array.from(text.slice(0, 2 * QUOTED + 1));
  return chars.length > QUOTED ? `${chars.slice(0, QUOTED).join('')}…` : text;
}

/**
 * The Message-ID an answer names as the one it answers (In-Reply-To, References): none when it is
 * longer than a header line may be (998 characters, RFC 5322 2.1.1), rather than echo it whole.
 */
const answered = (mail: ParsedMail): string | null => (mail.messageId && mail.messageId.length <= 998 ? mail.messageId : null);

/** An answer's In-Reply-To header: the Message-ID it answers (`answered`), or none. */
function inReplyTo(mail: ParsedMail): { inReplyTo?: string } {
  const id = answered(mail);
  return id ? { inReplyTo: id } : {};
}

/**
 * The address a stranger's mail may be answered at: its From, when it names one address and the
 * envelope's sender (`sender` over SMTP, else the Return-Path the delivering server wrote) is
 * unknown or that same address; none for a null sender (a bounce), and never its Reply-To, which
 * names whomever its writer likes.
 */
export function strangerAddress(mail: ParsedMail, sender: string | undefined): string | null {
  const froms = mail.from?.value.filter((v) => v.address) ?? [];
  const from = froms.length === 1 ? froms[0]!.address!.toLowerCase() : '';
  if (!/^[^@\s]+@[^@\s]+$/.test(from)) return null;
  const path = mail.headers.get('return-path');
  const envelope = sender ?? (path && typeof path === 'object' && 'value' in path ? (path as AddressObject).value[0]?.address ?? '' : undefined);
  return envelope === undefined || envelope.toLowerCase() === from ? from : null;
}

/** The subject of an answer to a mail that named no seat: its own, quoted, as a reply. */
const answerSubject = (mail: ParsedMail): string => {
  const subject = quoted(mail.subject ?? '');
  return /^re:/i.test(subject) ? subject : `Re: ${subject || 'your mail to the RoboRally races'}`;
};

/**
 * A mail of a player racing several robots, split at its "Robot NAME" lines (read by the engine's
 * orderLines, so quotes, comments and what follows a signature or a reply header are left out): the
 * lines of each robot's section, and those before the first (for every robot); or the name of a
 * heading that names none of `robots`.
 */
export function splitSections(body: string, robots: readonly string[]): { sections: Map<string, string[]>; preamble: string[] } | { unknown: string } {
  const sections = new Map<string, string[]>();
  const preamble: string[] = [];
  let at: string[] = preamble;
  for (const l of orderLines(body)) {
    const m = /^robot (.+?):?$/i.exec(l.text);
    if (!m) {
      at.push(l.text);
      continue;
    }
    const name = robots.find((r) => r.toLowerCase() === m[1]!.trim().toLowerCase());
    if (!name) return { unknown: m[1]!.trim() };
    at = sections.get(name) ?? [];
    sections.set(name, at);
  }
  return { sections, preamble };
}

const withBlank = (lines: string[]): string[] => (lines.length ? [...lines, ''] : []);

/** The lines after the orders that were taken for a signature or a comment, and how to mark one. */
function ignoredLines(ignored: readonly string[]): string[] {
  if (!ignored.length) return [];
  return [`Not read as orders (taken for a signature or a comment): ${ignored.map((l) => `"${l}"`).join(', ')}. Next time, ${COMMENT_HINT}.`, ''];
}

function recipients(m: ParsedMail): string[] {
  const list = (a: AddressObject | AddressObject[] | undefined) => (a ? (Array.isArray(a) ? a : [a]).flatMap((x) => x.value.map((v) => v.address ?? '')) : []);
  const header = (k: string) => {
    const v = m.headers.get(k);
    return typeof v === 'string' ? [v.replace(/^.*<|>.*$/g, '')] : v && typeof v === 'object' && 'value' in v ? list(v as AddressObject) : [];
  };
  return [...list(m.to), ...list(m.cc), ...header('delivered-to'), ...header('x-original-to')].filter(Boolean);
}

function splitHostPort(s: string): [string, number] {
  const m = /^(.*):(\d+)$/.exec(s);
  if (!m) throw new Error(`mail: expected host:port, found "${s}"`);
  return [m[1] || '127.0.0.1', Number(m[2])];
}

