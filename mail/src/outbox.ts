/**
 * The outbox: mails written from the race's entries log, and sent through the relay. A race's
 * mails are written in one transaction that also moves its cursor past the entries they come
 * from, and each mail has a key of its own; a mail is marked sent once the relay has taken it.
 * So no mail is lost across a restart, and none is written twice. (A process that dies between
 * the relay's answer and the mark sends that mail again after its claim expires, with the same
 * Message-ID, so the receiving side can tell.)
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Transporter } from 'nodemailer';
import {
  facingChoosable, goalLine, nextFlag, awards, cardName, formatStandings, writeProgram, needsProgram, optionName, optionOrders, openRegisters, rulesLines, raceStats, startingLives, startingPicks, type Course, type GameState, type NotationContext, type RuleSet, type Setup,
} from '../../engine/src/index.js';
import { renderPng, renderSvg } from '../../render/src/index.js';
import { type DeadlinePolicy, type Entry, type MailRaceHead, type RaceService, dressed, visibleOptions } from '../../server/src/index.js';
import { seatAddress, seatCode, type Addressing } from './address.js';
import type { MailDb, OutboxRow } from './store.js';
import { clockMail, correctedMail, correctionNoticeMail, dealMail, endMail, playerDealMail, reportAndDeal, reportMail, robotLine, seriesLines, startMail, startSubject, type Attachment, type Mail, type SeatMailContext } from './templates.js';

export interface OutboxOptions {
  readonly db: MailDb;
  readonly service: RaceService;
  readonly addressing: Addressing;
  /** The race clock (the server's): when mails are written, when reminders fall due. */
  readonly now: () => number;
  /** Hours before a deadline at which seats without orders are reminded. */
  readonly remindHours: number;
  /** Where a relay's failure is told (the server's log); default: nowhere. */
  readonly log?: (line: string) => void;
  /** The server's public address (MAIL_WEB_URL): the mails to a seat then link its own page. */
  readonly webUrl?: string;
}

/** What the outbox knows of a race while it writes its mails. */
interface RaceMail {
  readonly id: string;
  /** The robot each seat races (render/src/robots.ts's designs), by seat, for the pictures. */
  readonly designs: readonly number[];
  /** Each seat's kind (human or bot), by seat. */
  readonly kinds: readonly string[];
  readonly state: GameState;
  readonly status: string;
  readonly deadlineAt: number | null;
  /** The race's last entry: replies are sent in the order they were written. */
  readonly lastSeq: number;
  readonly policy: DeadlinePolicy;
  readonly rules: string;
  readonly course: Course;
  readonly setup: Setup;
  readonly seed: number;
  /** The series it belongs to (its first race's id), or null. */
  readonly series: string | null;
  /** `follow`: keeps receiving the turn mails once its robot is out (else they stop). */
  readonly seats: { seat: number; kind: string; follow: boolean; email: string; secret: string; ctx: SeatMailContext }[];
}

/** What the notation reader needs to know of a seat now. */
export function notationContext(rules: RuleSet, st: GameState, seat: number): NotationContext {
  const r = st.robots[seat]!;
  return {
    rules, hand: r.hand.map(cardName), openRegisters: openRegisters(r.locked), needsProgram: needsProgram(st, seat), poweredDown: r.poweredDown, options: r.options, name: r.name,
    choosesFacing: facingChoosable(st, seat),
  };
}

/**
 * Seats by the address they are raced from, in seat order: a player racing several robots (000 L40)
 * gets one mail a turn for them all, under its first robot's seat.
 */
export function byPlayer<S extends { email: string }>(seats: readonly S[]): S[][] {
  const out = new Map<string, S[]>();
  for (const s of seats) {
    const k = s.email.toLowerCase();
    out.set(k, [...(out.get(k) ?? []), s]);
  }
  return [...out.values()];
}

/**
 * The Message-ID of a seat's start mail, the root of the thread every later mail of the race to
 * that seat's address (reports, instructions, answers) refers to, so a mail client shows one thread a race.
 */
export const threadRoot = (domain: string, race: string, seat: number): string => `<${race}.s${seat}.race@${domain}>`;

/** The seat whose start mail roots the thread of an address: the first seat raced from it (a player racing several robots has one thread). */
export const rootSeat = (seats: readonly { seat: number; email: string }[], email: string): number =>
  seats.find((x) => x.email.toLowerCase() === email.toLowerCase())!.seat;

/** The context of a mail for all the robots raced from an address (`seats`, in seat order): its first seat's, marked `whole`. */
export const playerContext = (seats: readonly { ctx: SeatMailContext }[]): SeatMailContext => (seats.length > 1 ? { ...seats[0]!.ctx, whole: true } : seats[0]!.ctx);

/** A mail of a seat's thread: it answers the mail it answers, or else the start mail. */
export function threaded(mail: Mail, root: string): Mail {
  return { ...mail, inReplyTo: mail.inReplyTo ?? root, references: [root, ...(mail.inReplyTo && mail.inReplyTo !== root ? [mail.inReplyTo] : [])] };
}

/**
 * The options a seat's robot gained in a turn, each with how to order it and examples (003 L12);
 * none, no lines.
 */
export function gainedLines(before: readonly string[], after: readonly string[], setup: Setup, verb = 'gained'): string[] {
  const had = new Set(before.map(optionName));
  return [...new Set(after.map(optionName))].filter((o) => !had.has(o)).flatMap((o) => {
    const h = optionOrders(o, setup.rules);
    return [`Your robot ${verb} ${o}. How to order it: ${h.how}`, ...(h.examples.length ? ['For example:', ...h.examples.map((x) => `  ${x}`)] : [])];
  });
}

/** A turn's instructions to one player: its one robot's as ever, or a section for each of its robots. */
function dealFor(race: RaceMail, seats: readonly RaceMail['seats'][number][], st: GameState, deadlineAt: number | null, picture: Attachment, reminder = false): Mail {
  const lead = seats[0]!;
  // The start mail went out once to the address, under its first seat's context, whichever of its robots still race.
  const start = startSubject(playerContext(race.seats.filter((s) => s.email.toLowerCase() === lead.email.toLowerCase())));
  const deal = (seat: number) => ({ ctx: notationContext(race.setup.rules, st, seat), next: nextFlag(race.setup, st, seat)?.text ?? null, web: seats.find((s) => s.seat === seat)!.ctx.web });
  if (seats.length === 1) return dealMail(lead.ctx, start, st.turn, st, deal(lead.seat), deadlineAt, reminder, picture);
  return playerDealMail(lead.ctx, start, st.turn, st, seats.map((s) => ({ seat: s.seat, ...deal(s.seat) })), deadlineAt, reminder, picture);
}

/** The board as a turn begins, for its instructions: one picture for every seat, under a Content-ID naming the race and the entry (or reminder) it is for. */
const dealPicture = (race: RaceMail, st: GameState, unique: string, domain: string): Attachment =>
  png(renderSvg(race.course.board, { state: dressed(st, race.designs), title: `Race ${race.id}, turn ${st.turn} begins` }), `turn-${st.turn}-begins`, `turn-${st.turn}-begins.${race.id}.${unique}@${domain}`);

/** No reminder sooner than this after the instructions it repeats. */
const REMIND_AFTER = 3600_000;

/**
 * The mails sent in any 24 hours to an address that has never written to the race server with its
 * seat's secret: whoever creates races can seat any address, and this bounds what they can make the
 * server send it (a player who answers once is no longer counted).
 */
export const UNANSWERED_PER_DAY = 20;
const DAY = 24 * 3600_000;

/** After this many failed attempts a mail no longer holds back the later mails of its race. */
const GIVE_WAY = 8;

/**
 * Whether the relay refused the mail's address for good: a 5xx answer to RCPT TO (RFC 5321 4.2.1,
 * "no such user"), which no later attempt changes. Any other failure (the relay down, busy, slow,
 * or refusing the sender or the data) is tried again.
 */
const refusedForGood = (e: unknown): boolean => {
  const x = e as { code?: unknown; command?: unknown; responseCode?: unknown };
  return x.code === 'EENVELOPE' && x.command === 'RCPT TO' && typeof x.responseCode === 'number' && x.responseCode >= 500 && x.responseCode < 600;
};

/**
 * A picture for a mail's HTML, under a Content-ID of its own (`cid`, RFC 2045 7: world-unique). A
 * turn's was `turn-N@roborally` in every race, and the same in a turn's first report and its
 * corrected one, two different pictures in one thread.
 */
const png = (svg: string, name: string, cid: string): Attachment => ({
  filename: `${name}.png`, contentType: 'image/png', cid, content: Buffer.from(renderPng(svg)).toString('base64'),
});

export class Outbox {
  constructor(private readonly o: OutboxOptions) {}

  /** The race and its mail seats, or null if it has none. */
  async race(id: string): Promise<RaceMail | null> {
    const race = await this.o.service.mailRace(id);
    if (!race) return null;
    const { policy, setup } = race;
    // The robots each address races here: a player with several (000 L40) is told in each mail whose it is.
    const byAddress = (email: string) => race.mail.filter((m) => m.email.toLowerCase() === email.toLowerCase()).map((m) => race.seats[m.seat]!.name);
    return {
      designs: race.seats.map((x) => x.robot), kinds: race.seats.map((x) => x.kind),
      id, state: race.state, status: race.status, deadlineAt: race.deadlineAt, lastSeq: race.lastSeq, policy, rules: race.rules, course: race.courseData, setup, seed: race.seed, series: race.series,
      seats: race.mail.map((m) => ({
        seat: m.seat, kind: race.seats[m.seat]!.kind, follow: race.seats[m.seat]!.follow, email: m.email, secret: m.secret,
        ctx: {
          race: id, course: race.course, rules: race.rules, policy, seat: m.seat, name: race.seats[m.seat]!.name, code: seatCode(id, m.seat, m.secret), replyTo: seatAddress(this.o.addressing, id, m.seat, m.secret), robots: byAddress(m.email),
          // The seat's own page, opened by the token its mail secret makes: nobody else, the race's creator included, is given it.
          ...(this.o.webUrl ? { web: `${this.o.webUrl}/race/${id}?seat=${m.seat}&token=${m.webToken}` } : {}),
        },
      })),
    };
  }

  /** Puts mails in the outbox (a mail whose key is there already is not written again). */
  async enqueue(rows: { key: string; race: string; seq: number; to: string; mail: Mail }[]): Promise<void> {
    if (!rows.length) return;
    const now = this.o.now();
    await this.o.db.insertInto('mail_outbox')
      .values(rows.map((r) => ({ key: r.key, race_id: r.race, seq: r.seq, created_at: now, to: r.to, body: JSON.stringify(r.mail), sent_at: null, claimed_until: null, attempts: 0, error: null })))
      .onConflict((oc) => oc.column('key').doNothing()).execute();
  }

  /** How many mails of a race (`''`: the answers to strangers) were written after `since`. */
  async written(race: string, since: number): Promise<number> {
    const row = await this.o.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('race_id', '=', race).where('created_at', '>', since).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Whether a mail with this key was ever written. */
  async has(key: string): Promise<boolean> {
    return !!(await this.o.db.selectFrom('mail_outbox').select('key').where('key', '=', key).executeTakeFirst());
  }

  /**
   * Writes the mails of every race of `races` (the mail races, as the round listed them) whose
   * entries have moved past its cursor; returns how many.
   */
  async compose(races: readonly MailRaceHead[]): Promise<number> {
    const cursors = new Map((await this.o.db.selectFrom('mail_cursor').selectAll().execute()).map((c) => [c.race_id, c.seq]));
    let n = 0;
    for (const r of races) {
      const seq = cursors.get(r.id) ?? 0;
      if (seq < r.lastSeq) n += await this.composeRace(r.id, seq);
    }
    return n;
  }

  private async composeRace(id: string, from: number): Promise<number> {
    const race = await this.race(id);
    const got = await this.o.service.entries(id, from);
    if (!race || !got.ok || !got.value.length) return 0;
    const entries = got.value;
    const rows: { key: string; race: string; seq: number; to: string; mail: Mail }[] = [];
    // The reports of a turn written here, by address: the next turn's instructions to the same
    // address, written with them, go in the same mail (001's moderator sent the turn's table and
    // picture with the instructions), under the instructions' key.
    const reports = new Map<string, { at: number; turn: number }>();
    for (const [k, e] of entries.entries()) {
      for (const { seat, to, mail } of await this.mailsFor(race, e, entries[k - 1])) {
        const key = `${id}:${e.seq}:${e.event.type}:${seat}`;
        const report = e.event.type === 'turnBegan' ? reports.get(to.toLowerCase()) : undefined;
        if (report && e.event.type === 'turnBegan' && report.turn + 1 === e.event.turn) {
          const r = rows[report.at]!;
          rows[report.at] = { ...r, key, mail: reportAndDeal(r.mail, mail) };
          reports.delete(to.toLowerCase());
          continue;
        }
        if (e.event.type === 'turnEnded') reports.set(to.toLowerCase(), { at: rows.length, turn: e.event.turn });
        rows.push({ key, race: id, seq: e.seq, to, mail });
      }
    }
    const last = entries[entries.length - 1]!.seq;
    const now = this.o.now();
    const { db } = this.o;
    await db.insertInto('mail_cursor').values({ race_id: id, seq: 0 }).onConflict((oc) => oc.column('race_id').doNothing()).execute();
    // Only the process that moves the cursor from where it found it writes the mails.
    const written = await db.transaction().execute(async (trx) => {
      const moved = await trx.updateTable('mail_cursor').set({ seq: last }).where('race_id', '=', id).where('seq', '=', from).executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return 0;
      for (const r of rows)
        await trx.insertInto('mail_outbox')
          .values({ key: r.key, race_id: r.race, seq: r.seq, created_at: now, to: r.to, body: JSON.stringify(r.mail), sent_at: null, claimed_until: null, attempts: 0, error: null })
          .onConflict((oc) => oc.column('key').doNothing()).execute();
      return rows.length;
    });
    return written;
  }

  /** The mails one entry calls for (`prev`: the entry before it, if read with it). */
  private async mailsFor(race: RaceMail, e: Entry, prev: Entry | undefined): Promise<{ seat: number; to: string; mail: Mail }[]> {
    const st = race.state;
    const domain = this.o.addressing.domain;
    const one = (s: RaceMail['seats'][number], mail: Mail | null) => {
      const root = threadRoot(domain, race.id, rootSeat(race.seats, s.email));
      return mail ? [{ seat: s.seat, to: s.email, mail: e.kind === 'race' && e.event.type === 'raceCreated' ? { ...mail, messageId: root } : threaded(mail, root) }] : [];
    };
    /** One mail an address (000 L40: a player racing several robots gets one for them all, `playerContext`). */
    const each = (f: (seats: RaceMail['seats'][number][], c: SeatMailContext) => Mail | null, people = false) =>
      byPlayer(race.seats.filter((s) => !people || s.kind === 'human')).flatMap((seats) => one(seats[0]!, f(seats, playerContext(seats))));
    const secret = !!race.setup.settings.secretOptions;
    /** The robots as the player of seats `viewers` may see them: its own options all, the others' under Secret Options only once used. */
    const robotsFor = (at: GameState, viewers: readonly number[]) =>
      at.robots.map((r, i) => robotLine(at, i, viewers.includes(i) ? { options: r.options, hiddenOptions: 0 } : visibleOptions(r, secret)));
    if (e.kind === 'race' && e.event.type === 'raceCreated') {
      const turn1 = await this.o.service.playedTurn(race.id, 1);
      const start = turn1.ok ? turn1.value.before : st;
      const picture = png(renderSvg(race.course.board, { state: dressed(start, race.designs), title: race.course.name }), `course-${race.id}`, `course.${race.id}@${domain}`);
      const lives = startingLives(race.setup.settings, st.robots.length, race.course.boards.length);
      const teams = Object.entries(race.setup.settings.teams ?? {});
      /** The robots as the player of seats `viewers` may know them at the start: team, bot, and handicaps (004 L174), options as Secret Options lets it see them. */
      const roster = (viewers: readonly number[]) => start.robots.map((r, i) => {
        const seen = viewers.includes(i) ? { options: r.options, hiddenOptions: 0 } : visibleOptions(r, secret);
        const notes = [
          ...teams.filter(([, names]) => names.includes(r.name)).map(([team]) => `team ${team}`),
          ...(race.kinds[i] === 'bot' ? ['a bot'] : []),
          ...(r.lives !== lives && !race.setup.settings.infiniteLives ? [`${r.lives} ${r.lives === 1 ? 'life' : 'lives'}`] : []),
          ...(r.damage ? [`starts with ${r.damage} damage`] : []),
          ...(seen.options.length ? [`holds ${seen.options.join(', ')}`] : []),
          ...(seen.hiddenOptions ? [`holds ${seen.hiddenOptions} secret option${seen.hiddenOptions === 1 ? '' : 's'}`] : []),
        ];
        return `${r.name}${notes.length ? ` (${notes.join('; ')})` : ''}`;
      });
      const goal = (seat: number) => goalLine(race.setup.settings, race.course.flags.length, start.robots[seat]!);
      const holds = (seat: number) => gainedLines([], start.robots[seat]?.options ?? [], race.setup, 'holds');
      return each((seats, c) => startMail(c, {
        description: race.course.description, goal: goal(seats[0]!.seat), robots: roster(seats.map((s) => s.seat)), picture,
        rules: rulesLines(race.setup.rules, race.setup.settings), holds: holds(seats[0]!.seat),
        own: seats.map((s) => ({ name: s.ctx.name, goal: goal(s.seat), holds: holds(s.seat), web: s.ctx.web })),
      }));
    }
    if (e.kind === 'game' && e.event.type === 'turnBegan') {
      // Instructions only for the turn being programmed now: an old deal found late is no use.
      if (e.event.turn !== st.turn || race.status !== 'running' || st.phase !== 'programming') return [];
      // A player racing several robots gets one mail with a section a robot (000 L40).
      const playing = race.seats.filter((s) => s.kind === 'human' && st.robots[s.seat]!.status !== 'out');
      if (!playing.length) return [];
      const picture = dealPicture(race, st, String(e.seq), domain);
      return byPlayer(playing).flatMap((seats) => one(seats[0]!, dealFor(race, seats, st, race.deadlineAt, picture)));
    }
    if (e.kind === 'game' && e.event.type === 'turnEnded') {
      const turn = e.event.turn;
      const played = await this.o.service.playedTurn(race.id, turn);
      const rep = await this.o.service.report(race.id, turn);
      if (!played.ok || !rep.ok) return [];
      const { setup, before, after, events, designs } = played.value;
      // A turn the moderator took back and that was played again: its report says it replaces the first.
      const all = await this.o.service.entries(race.id, 0);
      const corrected = all.ok && all.value.some((x) => x.seq < e.seq && x.kind === 'race' && x.event.type === 'rewound' && x.event.turn === turn);
      const picture = png(renderSvg(setup.board, { state: dressed(after, designs), events, title: `Race ${race.id}, turn ${turn}` }), `turn-${turn}`, `turn-${turn}.${race.id}.${e.seq}@${domain}`);
      // The eliminated get the report of the turn they went out in, then no more unless they asked;
      // a player's other robots still racing (000 L40) keep the reports coming to its address.
      const racing = (s: RaceMail['seats'][number]) =>
        race.seats.filter((x) => x.seat !== s.seat && x.email.toLowerCase() === s.email.toLowerCase() && after.robots[x.seat]!.status !== 'out').map((x) => x.ctx.name);
      const news = (s: RaceMail['seats'][number]) => ({
        gained: gainedLines(before.robots[s.seat]?.options ?? [], after.robots[s.seat]?.options ?? [], race.setup),
        ...(after.robots[s.seat]!.status === 'out' && race.status === 'running' ? { out: s.follow ? 'following' as const : 'last' as const, racing: racing(s) } : {}),
      });
      const told = race.seats.filter((s) => before.robots[s.seat]!.status !== 'out' || s.follow);
      // A player racing several robots gets one report, with the news of each robot (000 L40).
      return byPlayer(told).flatMap((seats) => one(seats[0]!, reportMail(seats[0]!.ctx, rep.value.report, rep.value.text, robotsFor(after, seats.map((s) => s.seat)), picture, seats.length === 1
        ? { corrected, ...news(seats[0]!) }
        : { corrected, player: seats.map((s) => ({ name: s.ctx.name, news: news(s) })) })));
    }
    if (e.kind === 'race' && e.event.type === 'corrected') {
      // The seat whose orders the moderator replaced is told what they are now; the others, only that it happened.
      const seat = e.event.seat;
      const program = (await this.o.service.ordersOf(race.id, e.turn, seat))?.orders.program ?? null;
      const name = st.robots[seat]!.name;
      return each((seats, c) => (seats.some((s) => s.seat === seat) ? correctedMail(c.whole ? c : seats.find((s) => s.seat === seat)!.ctx, e.turn, program && program.some((x) => x !== null) ? writeProgram(program) : null, name) : correctionNoticeMail(c, e.turn, name)), true);
    }
    // The moderator's changes of the clock. A turn's own deadline follows the events that begin the
    // turn, in the same commit; any other is the moderator's (extend, resume).
    const current = e.turn === st.turn && race.status === 'running';
    if (e.kind === 'race' && current && (e.event.type === 'paused' || e.event.type === 'resumed' || e.event.type === 'rewound' || (e.event.type === 'deadline' && prev?.kind !== 'game'))) {
      const news = e.event.type === 'paused' ? 'The moderator has paused the race: the deadline is off until it resumes.'
        : e.event.type === 'rewound' ? `The moderator has taken turn ${e.event.turn} back to correct it; it will be played again.`
          : `The moderator has ${e.event.type === 'resumed' ? 'resumed the race' : 'moved the deadline'}.`;
      return each((_, c) => clockMail(c, st.turn, news, race.deadlineAt, e.event.type === 'rewound' ? 'taken back by the moderator' : undefined), true);
    }
    if (e.kind === 'race' && e.event.type === 'raceOver') {
      const names = st.robots.map((r) => r.name);
      const stats = raceStats(names, await this.o.service.gameEvents(race.id));
      const picks = startingPicks(stats, [], race.seed);
      // In a series, its standings across the races over so far (the race service's, as GET /api/series gives them).
      const series = race.series ? await this.o.service.series(race.series) : null;
      const across = series?.ok ? { id: race.series!, races: series.value.standings[0]?.places.length ?? 0, lines: seriesLines(series.value.standings) } : undefined;
      // The engine's standings: a line per team and per robot racing alone, best first; 001's awards where the rule set gives them.
      // A race that ends again after the moderator took its last turn back: these standings replace the first.
      const all = await this.o.service.entries(race.id, 0);
      const again = all.ok && all.value.some((x) => x.seq < e.seq && x.kind === 'race' && x.event.type === 'raceOver');
      return each((_, c) => endMail(c, formatStandings(race.setup, st), race.setup.rules.awards ? awards(stats) : [], picks, across, again));
    }
    return [];
  }

  /**
   * Writes reminders to the seats of scheduled races with no orders in when the deadline is near
   * (of `races`, the mail races as the round listed them); returns how many.
   */
  async remind(races: readonly MailRaceHead[]): Promise<number> {
    const { db } = this.o;
    const now = this.o.now();
    const near = (r: { status: string; deadlineAt: number | null }) => r.status === 'running' && r.deadlineAt !== null && r.deadlineAt > now && r.deadlineAt <= now + this.o.remindHours * 3600_000;
    let n = 0;
    for (const { id } of races.filter(near)) {
      // Read now: a deadline moved since the round listed the races (the moderator's extension, a pause) is reminded of under its own, when near.
      const race = await this.race(id);
      // A live race's turn lasts minutes: no time for reminders.
      if (!race || !near(race) || race.state.phase !== 'programming' || race.policy.kind !== 'scheduled') continue;
      const st = race.state;
      // Never sooner than an hour after the instructions it repeats.
      const dealt = await db.selectFrom('mail_outbox').select((eb) => eb.fn.max('created_at').as('at')).where('race_id', '=', id).where('key', 'like', `${id}:%:turnBegan:%`).executeTakeFirst();
      if (dealt?.at != null && now - Number(dealt.at) < REMIND_AFTER) continue;
      const sent = new Set(await this.o.service.ordersIn(id, st.turn));
      const late = race.seats.filter((s) => s.kind === 'human' && !sent.has(s.seat) && needsProgram(st, s.seat));
      if (!late.length) continue;
      const picture = dealPicture(race, st, `remind-${race.deadlineAt}`, this.o.addressing.domain);
      const rows = byPlayer(late).map((seats) => ({
        key: `remind:${id}:${st.turn}:${seats[0]!.seat}:${race.deadlineAt}`, race: id, seq: race.lastSeq, to: seats[0]!.email,
        mail: threaded(dealFor(race, seats, st, race.deadlineAt, picture, true), threadRoot(this.o.addressing.domain, id, rootSeat(race.seats, seats[0]!.email))),
      }));
      const fresh = [];
      for (const r of rows) if (!(await this.has(r.key))) fresh.push(r);
      await this.enqueue(fresh);
      n += fresh.length;
    }
    return n;
  }

  /**
   * Whether a mail is withheld: its address never wrote to the race server with its seat's secret
   * (no answer to a mail of its was ever written, `reply:…`), and was sent `UNANSWERED_PER_DAY`
   * mails in the last 24 hours. A withheld mail is marked sent, with why, so it holds back nothing;
   * the first of an address's day is logged.
   */
  private async withhold(row: OutboxRow, m: Mail): Promise<boolean> {
    const { db } = this.o;
    const to = sql<string>`lower(${sql.ref('to')})`;
    const address = row.to.toLowerCase();
    if (await db.selectFrom('mail_outbox').select('key').where(to, '=', address).where('key', 'like', 'reply:%').executeTakeFirst()) return false;
    const now = this.o.now();
    const day = (withheld: boolean) => db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where(to, '=', address).where('sent_at', '>', now - DAY)
      .where('error', withheld ? 'like' : 'is', withheld ? 'withheld:%' : null).executeTakeFirst().then((r) => Number(r?.n ?? 0));
    if ((await day(false)) < UNANSWERED_PER_DAY) return false;
    if (!(await day(true))) this.o.log?.(`mail: ${row.to} has been sent ${UNANSWERED_PER_DAY} mails in 24 hours and has never answered one; its mails are withheld until it does or the day has passed ("${m.subject}" the first)`);
    await db.updateTable('mail_outbox').set({ sent_at: now, claimed_until: null, error: `withheld: ${UNANSWERED_PER_DAY} mails in 24 hours to an address that never answered` }).where('key', '=', row.key).execute();
    return true;
  }

  /**
   * Sends what is waiting, oldest first, through the transport; returns how many were sent. Each
   * mail is claimed first, so two processes never send the same one at once, and a race's mails go
   * out in order: one that another process holds, or that failed, holds back the later ones of its
   * race (once it has failed often, it no longer does). A failed one is tried again later.
   */
  async deliver(transport: Transporter, limit = 200): Promise<number> {
    const { db } = this.o;
    const waiting = await db.selectFrom('mail_outbox').selectAll().where('sent_at', 'is', null)
      .orderBy('created_at').orderBy('race_id').orderBy('seq').orderBy('key').limit(limit).execute();
    const held = new Set<string>();
    let sent = 0;
    for (const row of waiting) {
      if (held.has(row.race_id)) continue;
      const hold = () => row.attempts < GIVE_WAY && held.add(row.race_id);
      const claimed = await db.updateTable('mail_outbox').set({ claimed_until: Date.now() + 60_000 }).where('key', '=', row.key).where('sent_at', 'is', null)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', Date.now())])).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) {
        hold();
        continue;
      }
      const m: Mail = JSON.parse(row.body);
      if (await this.withhold(row, m)) continue;
      try {
        await transport.sendMail({
          from: this.o.addressing.from, to: row.to, subject: m.subject, text: m.text, ...(m.html ? { html: m.html } : {}),
          ...(m.replyTo ? { replyTo: m.replyTo } : {}), ...(m.inReplyTo ? { inReplyTo: m.inReplyTo, references: m.references ?? [m.inReplyTo] } : {}),
          messageId: m.messageId ?? `<${createHash('sha256').update(row.key).digest('hex').slice(0, 32)}@${this.o.addressing.domain}>`,
          // RFC 3834: no vacation responder answers these.
          headers: { 'Auto-Submitted': m.autoSubmitted ?? 'auto-generated' },
          attachments: (m.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, cid: a.cid, content: a.content, encoding: 'base64' })),
        });
        // What was sent stays on record, less its pictures (they can be drawn again from the log).
        const kept = JSON.stringify({ ...m, attachments: (m.attachments ?? []).map((a) => ({ ...a, content: '' })) });
        await db.updateTable('mail_outbox').set({ sent_at: this.o.now(), claimed_until: null, attempts: row.attempts + 1, error: null, body: kept }).where('key', '=', row.key).execute();
        sent++;
      } catch (e) {
        if (refusedForGood(e)) {
          // Marked done, with why, so it holds back nothing.
          this.o.log?.(`mail: the relay refused "${m.subject}" to ${row.to} for good: ${(e as Error).message}; not sent again`);
          await db.updateTable('mail_outbox').set({ sent_at: this.o.now(), claimed_until: null, attempts: row.attempts + 1, error: `refused for good: ${String((e as Error).message).slice(0, 480)}` }).where('key', '=', row.key).execute();
          continue;
        }
        // Tried again after a pause that grows with the attempts, up to an hour.
        const pause = Math.min(3600_000, 5_000 * 2 ** row.attempts);
        this.o.log?.(`mail: the relay refused "${m.subject}" to ${row.to} (attempt ${row.attempts + 1}): ${(e as Error).message}; trying again in ${Math.round(pause / 1000)} s`);
        await db.updateTable('mail_outbox').set({ claimed_until: Date.now() + pause, attempts: row.attempts + 1, error: String((e as Error).message).slice(0, 500) }).where('key', '=', row.key).execute();
        hold();
      }
    }
    return sent;
  }
}
