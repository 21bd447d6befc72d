/**
 * The race referee: creates races, keeps the hands secret, takes orders until the deadline,
 * adjudicates each turn exactly once with the engine, and stores everything. Every change of a race
 * is one transaction that also bumps its version, so two requests (or two processes) racing each
 * other cannot both adjudicate a turn, and a process killed mid-turn leaves the turn undone, never
 * half done.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  cardName, courseFile, openRegisters, seriesStandings, standings, type SeriesLine, type Standing, recompile, makeSetup, needsProgram, raceStats, startingPicks, turnReport, formatTurnReport, type Course, type GameEvent, type GameState, type Setup,
} from '../../engine/src/index.js';
import { adjudicate as adjudicateTurn, decideBots, entrants, startRace, type PersonTurn } from '../../driver/src/index.js';
import type { Selectable } from 'kysely';
import type { Db, RaceRow, SeatRow } from './db.js';
import { dealNumber, dealSeed, publicDeal, storedDeal } from './deal.js';
import { nextDeadline, replayWaitMs, type Clock, type DeadlinePolicy } from './deadline.js';
import { clockView, waitingClock } from './ready.js';
import { readRaceRequest } from './setup.js';
import { firstTimersDeadline, turnDeadline } from './timing.js';
import { courseFromJson } from '../../boards/src/index.js';
import { no, yes, type Answer } from './errors.js';
import { LEVELS, isLevel, type Level } from '../../bots/src/index.js';
import { engineOrders, readOrders, type SeatOrders } from './orders.js';
import { publicEvent, publicRobots, publicView, seatView, type RaceSummary, type SeatInfo } from './views.js';

/** What happens to a race, besides the engine's events. */
export type RaceEvent =
  | { type: 'raceCreated'; course: string; rules: string }
  | { type: 'submitted'; seat: number }
  /** The moderator replaced a seat's orders on a turn taken back (rewind): everybody, the seat first, is told. */
  | { type: 'corrected'; seat: number; by: 'moderator' }
  /** `clockStartsBy`: the clock waits for the replay until every person is ready, at the latest until then (ready.ts). */
  | { type: 'deadline'; at: number | null; clockStartsBy?: number }
  /** These seats' person has watched or skipped the replay (ready.ts). */
  | { type: 'ready'; seats: number[] }
  /** Every person is ready: the programming clock runs, to `at`. */
  | { type: 'clockStarted'; at: number }
  | { type: 'paused' }
  | { type: 'resumed' }
  | { type: 'seatReplaced'; seat: number; level: string }
  | { type: 'rewound'; turn: number; from: number; to: number }
  | { type: 'filled'; seat: number; registers: number[] }
  /** The Three Minute Rule's time is up (004 L188): these late seats get the random fill; first-timers program until `at`. */
  | { type: 'hurried'; seats: number[]; at: number }
  /** `noPersonLeft`: every person's robot is out and the race was set to end then. */
  | { type: 'raceOver'; reason?: 'noPersonLeft' };

export interface Entry {
  readonly seq: number;
  readonly turn: number;
  readonly kind: 'game' | 'race';
  readonly event: GameEvent | RaceEvent;
}

export interface Created {
  readonly id: string;
  readonly moderatorKey: string;
  /** The series the race belongs to (created `after` another race). */
  readonly series?: string;
  readonly seats: { seat: number; name: string; kind: 'human' | 'bot'; token: string | null; email: string | null; player?: string; team?: string }[];
}


const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const token = () => randomBytes(18).toString('base64url');
/** A seat's mail secret: lower case letters and digits, which survive mail systems that fold case. */
const mailSecret = () => [...randomBytes(12)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface RaceServiceOptions {
  readonly db: Db;
  readonly clock: Clock;
  /** Finds a course by name. */
  readonly course: (name: string) => Course | undefined;
  /** Called after a race's entries up to `lastSeq` are committed (fan-out to other processes). */
  readonly published?: (raceId: string, lastSeq: number) => void;
}

export class RaceService {
  /** `committed` fires with (race id, seq) once a race's entries up to seq are committed. */
  readonly bus = new EventEmitter();
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly course: RaceServiceOptions['course'];
  private readonly published: RaceServiceOptions['published'];

  constructor(o: RaceServiceOptions) {
    this.db = o.db;
    this.clock = o.clock;
    this.course = o.course;
    this.published = o.published;
    this.bus.setMaxListeners(0);
  }

  /** Custom courses parsed, by race id (a few hundred at most). */
  private readonly customCourses = new Map<string, Course>();

  /** A race's course: a shipped one by name, or the race's own (kept as JSON with the race). */
  courseOf(row: Pick<RaceRow, 'course'> & Partial<Pick<RaceRow, 'id' | 'course_json'>>): Course {
    if (!row.course_json) {
      const course = this.course(row.course);
      if (!course) throw new Error(`course ${row.course} has gone`);
      return course;
    }
    const cached = row.id ? this.customCourses.get(row.id) : undefined;
    if (cached) return cached;
    const parsed = courseFromJson(JSON.parse(row.course_json));
    if (!parsed.ok) throw new Error(`race ${row.id}'s course: ${parsed.error.field}: ${parsed.error.message}`);
    if (!row.id) return parsed.value;
    if (this.customCourses.size >= 500) this.customCourses.delete(this.customCourses.keys().next().value!);
    this.customCourses.set(row.id, parsed.value);
    return parsed.value;
  }

  /** The engine's setup of a race: its board, rule set and settings. */
  setupOf(row: Pick<RaceRow, 'course' | 'rules' | 'settings'> & Partial<Pick<RaceRow, 'id' | 'course_json'>>): Setup {
    const course = this.courseOf(row);
    const setup = makeSetup(course.board, row.rules, JSON.parse(row.settings), course.boards.length);
    if (!setup.ok) throw new Error(setup.error.message);
    return setup.value;
  }

  /**
   * Creates a race and begins its first turn. Seats of one `player` share one invite link. A race
   * that follows another (`after`, its moderator key) joins its series and seats its robots by
   * 001's picks from that race (001 L333-351): a start per robot goes in pick order.
   */
  async create(body: unknown): Promise<Answer<Created>> {
    const read = readRaceRequest(body, (name) => this.course(name), (json) => {
      const c = courseFromJson(json);
      return c.ok ? yes(c.value) : no(422, c.error.field, c.error.message);
    });
    if (!read.ok) return read;
    const req = read.value;
    const course = req.course;
    const deal = req.deal;
    const seed = dealSeed(deal);
    let seats = req.seats;
    let series: string | null = null;
    if (req.after) {
      const prev = await this.authModerator(req.after.race, req.after.moderatorKey);
      if (!prev.ok) return no(prev.refusal.status === 404 ? 422 : prev.refusal.status, 'after', prev.refusal.message);
      if (prev.value.race.status !== 'over') return no(409, 'after', `race "${req.after.race}" is not over yet`);
      series = prev.value.race.series ?? prev.value.race.id;
      const names = (JSON.parse(prev.value.race.state) as GameState).robots.map((r) => r.name);
      const stats = raceStats(names, await this.gameEvents(req.after.race));
      const picks = startingPicks(stats.filter((x) => seats.some((s) => s.name === x.name)), seats.filter((s) => !names.includes(s.name)).map((s) => s.name), dealNumber(deal));
      seats = picks.map((name) => seats.find((s) => s.name === name)!);
    }
    const row0 = { id: '', course: req.courseName ?? '', course_json: req.courseJson === null ? null : JSON.stringify(req.courseJson), rules: req.rules, settings: JSON.stringify(req.settings) };
    const setup = this.setupOf(row0);
    const plans = seats.map((s) => ({
      name: s.name, ...(s.dir !== undefined ? { dir: s.dir } : {}), ...(s.level ? { level: s.level } : {}),
      ...(s.options ? { options: s.options } : {}), ...(s.lives !== undefined ? { lives: s.lives } : {}), ...(s.damage !== undefined ? { damage: s.damage } : {}), ...(s.start ? { start: s.start } : {}),
    }));
    const placed = entrants(setup, course, plans, seed);
    if (!placed.ok) return no(422, placed.error.field, `course "${course.name}": ${placed.error.message}`);
    const started = startRace(setup, placed.value, seed);
    if (!started.ok) return no(422, started.error.field.replace(/^(?:robots|entrants)\[/, 'seats['), started.error.message);
    const { created, dealt: begun } = started.value;
    const id = token().slice(0, 12);
    const moderatorKey = token();
    // One link per person: seats of one player share it (000 L40).
    const byPlayer = new Map<string, string>();
    const tokens = seats.map((s) => {
      if (s.kind !== 'human') return null;
      if (!s.player) return token();
      if (!byPlayer.has(s.player)) byPlayer.set(s.player, token());
      return byPlayer.get(s.player)!;
    });
    const now = this.clock.now();
    const courseLabel = req.courseName ?? course.name;
    const entries: Omit<Entry, 'seq'>[] = [
      { turn: 0, kind: 'race', event: { type: 'raceCreated', course: courseLabel, rules: req.rules } },
      ...begun.events.map((event) => ({ turn: 1, kind: 'game' as const, event: publicEvent(event, setup.settings) })),
    ];
    const deadlineAt = turnDeadline(req.policy, setup.settings, seats.filter((s) => s.kind === 'human'), now);
    entries.push({ turn: 1, kind: 'race', event: { type: 'deadline', at: deadlineAt } });
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('races').values({
        id, created_at: now, course: courseLabel, rules: req.rules, settings: row0.settings, policy: JSON.stringify(req.policy),
        moderator_hash: hash(moderatorKey), state: JSON.stringify(begun.state), version: 1, last_seq: entries.length,
        deadline_at: deadlineAt, paused_left: null, status: 'running', seed: dealNumber(deal), deal: JSON.stringify(deal),
        course_json: row0.course_json, unattended: req.unattended, series,
      }).execute();
      await trx.insertInto('seats').values(seats.map((s, i) => ({
        race_id: id, seat: i, name: s.name, kind: s.kind, level: s.level, token_hash: tokens[i] ? hash(tokens[i]!) : '',
        first_timer: s.firstTimer ? 1 : 0, follow: s.followWhenOut ? 1 : 0,
      }))).execute();
      const mail = seats.flatMap((s, i) => (s.email ? [{ race_id: id, seat: i, email: s.email, secret: mailSecret() }] : []));
      if (mail.length) await trx.insertInto('seat_mail').values(mail).execute();
      await trx.insertInto('events').values(entries.map((e, k) => ({ race_id: id, seq: k + 1, turn: e.turn, body: JSON.stringify({ kind: e.kind, event: e.event }) }))).execute();
      await trx.insertInto('turns').values({ race_id: id, turn: 1, before: JSON.stringify(created), dealt: JSON.stringify(begun.state), first_seq: null }).execute();
    });
    return yes({ id, moderatorKey, ...(series ? { series } : {}), seats: seats.map((s, i) => ({ seat: i, name: s.name, kind: s.kind, token: tokens[i]!, email: s.email, ...(s.player ? { player: s.player } : {}), ...(s.team ? { team: s.team } : {}) })) });
  }

  private async load(id: string) {
    const race = await this.db.selectFrom('races').selectAll().where('id', '=', id).executeTakeFirst();
    if (!race) return null;
    const seats = await this.db.selectFrom('seats').selectAll().where('race_id', '=', id).orderBy('seat').execute();
    return { race, seats };
  }

  private summary(r: RaceRow): RaceSummary {
    return {
      id: r.id, course: r.course, rules: r.rules, settings: JSON.parse(r.settings), deadline: JSON.parse(r.policy),
      status: r.status, paused: r.paused_left !== null, deadlineAt: r.deadline_at, lastSeq: r.last_seq, deal: publicDeal(storedDeal(r)),
    };
  }

  private async submittedSeats(id: string, turn: number): Promise<Set<number>> {
    const rows = await this.db.selectFrom('orders').select('seat').where('race_id', '=', id).where('turn', '=', turn).execute();
    return new Set(rows.map((r) => r.seat));
  }

  private seatInfo = (s: { seat: number; name: string; kind: string; level: string | null }): SeatInfo => ({
    seat: s.seat, name: s.name, kind: s.kind as 'human' | 'bot', level: s.level,
  });

  /** What anybody may see of a race. */
  async view(id: string): Promise<Answer<ReturnType<typeof publicView> & { standings: Standing[]; series: string | null }>> {
    const got = await this.load(id);
    if (!got) return no(404, 'race', `no race "${id}"`);
    const st: GameState = JSON.parse(got.race.state);
    // The standings as they stand (teams listed as teams, 000 L21); final once the race is over.
    const view = publicView(this.summary(got.race), st, got.seats.map(this.seatInfo), await this.submittedSeats(id, st.turn));
    return yes({ ...view, standings: standings(this.setupOf(got.race), st), series: got.race.series, clock: await this.replayClock(got.race, got.seats, st) });
  }

  /** The current turn's clock while it waits for the people to watch the replay (ready.ts); null when it runs. */
  private async replayClock(race: RaceRow, seats: readonly Selectable<SeatRow>[], st: GameState) {
    if (race.status !== 'running' || JSON.parse(race.policy).kind !== 'live') return null;
    const rows = await this.db.selectFrom('events').select('body').where('race_id', '=', race.id).where('turn', '=', st.turn).orderBy('seq').execute();
    const people = seats.filter((x) => x.kind === 'human' && st.robots[x.seat]?.status !== 'out').map((x) => x.seat);
    return clockView(waitingClock(rows.map((r) => JSON.parse(r.body)), this.clock.now()), people);
  }

  /**
   * A seat's person has watched (or skipped) the replay of the turn just played (`turn` is the turn
   * now being programmed). In a live race the programming clock starts once every person still
   * racing has, or at the latest when the wait runs out (ready.ts). The seats of the same player are
   * ready together. Saying it again, or when the clock runs already, changes nothing.
   */
  async ready(id: string, seat: number, token: string | undefined, body: unknown, attempt = 1): Promise<Answer<{ turn: number; clockStarted: boolean; deadlineAt: number | null }>> {
    const got = await this.authSeat(id, seat, token);
    if (!got.ok) return got;
    const { race, seats } = got.value;
    if (!isObject(body) || !Number.isInteger(body.turn)) return no(422, 'turn', 'expected {"turn": N}: the turn the seat is ready to program');
    const extra = Object.keys(body).find((k) => k !== 'turn');
    if (extra) return no(422, extra, 'unknown field (expected turn)');
    if (race.status !== 'running') return no(409, 'race', 'the race is over');
    const st: GameState = JSON.parse(race.state);
    if (body.turn !== st.turn) return no(409, 'turn', `the race is at turn ${st.turn}`);
    const clock = await this.replayClock(race, seats, st);
    if (!clock) return yes({ turn: st.turn, clockStarted: true, deadlineAt: race.deadline_at });
    const mine = seats.filter((x) => x.token_hash === seats[seat]!.token_hash).map((x) => x.seat).filter((x) => clock.waitingFor.includes(x));
    if (!mine.length) return yes({ turn: st.turn, clockStarted: false, deadlineAt: race.deadline_at });
    const now = this.clock.now();
    const all = clock.waitingFor.every((x) => mine.includes(x));
    const left = seats.filter((x) => x.kind === 'human' && st.robots[x.seat]!.status !== 'out').map((x) => ({ firstTimer: x.first_timer === 1 }));
    const deadlineAt = all ? turnDeadline(JSON.parse(race.policy), this.setupOf(race).settings, left, now) : race.deadline_at;
    const events: RaceEvent[] = [{ type: 'ready', seats: mine }, ...(all ? [{ type: 'clockStarted' as const, at: deadlineAt! }] : [])];
    const committed = await this.db.transaction().execute(async (trx) => {
      const bumped = await trx.updateTable('races').set({ version: race.version + 1, last_seq: race.last_seq + events.length, deadline_at: deadlineAt })
        .where('id', '=', id).where('version', '=', race.version).executeTakeFirst();
      if (Number(bumped.numUpdatedRows) !== 1) return false;
      await trx.insertInto('events').values(events.map((event, k) => ({ race_id: id, seq: race.last_seq + 1 + k, turn: st.turn, body: JSON.stringify({ kind: 'race', event }) }))).execute();
      return true;
    });
    if (!committed) {
      if (attempt < 5) return this.ready(id, seat, token, body, attempt + 1);
      return no(409, 'race', 'the race is changing too fast; try again');
    }
    this.announce(id, race.last_seq + events.length);
    return yes({ turn: st.turn, clockStarted: all, deadlineAt });
  }

  /** A race's course, shipped or its own, with its composed board for drawing. */
  async raceCourse(id: string): Promise<Answer<{ name: string | null; title: string; description: string; flags: number; starts: number; layout: Course['layout']; file: Record<string, unknown> }>> {
    const race = await this.db.selectFrom('races').select(['id', 'course', 'course_json']).where('id', '=', id).executeTakeFirst();
    if (!race) return no(404, 'race', `no race "${id}"`);
    const c = this.courseOf(race);
    // `name`: the shipped course's, or null for a course of the race's own; `file`: the course as a file has it (for a rematch).
    return yes({ name: race.course_json ? null : race.course, title: c.name, description: c.description, flags: c.flags.length, starts: c.starts.length, layout: c.layout, file: courseFile(c) });
  }

  /**
   * A series of races (each created `after` the one before): its races in order and the standings
   * across those that are over (the engine's seriesStandings).
   */
  async series(id: string): Promise<Answer<{ races: string[]; standings: SeriesLine[] }>> {
    const rows = await this.db.selectFrom('races').selectAll().where((eb) => eb.or([eb('id', '=', id), eb('series', '=', id)])).orderBy('created_at').orderBy('id').execute();
    const first = rows.find((r) => r.id === id);
    if (!first || first.series) return no(404, 'series', `no series "${id}" (a series is named by its first race)`);
    const over = rows.filter((r) => r.status === 'over');
    return yes({
      races: rows.map((r) => r.id),
      standings: seriesStandings(over.map((r) => ({ standings: standings(this.setupOf(r), JSON.parse(r.state), { byTeam: false }) }))),
    });
  }

  private async authSeat(id: string, seat: number, secret: string | undefined, by: 'token' | 'mail' = 'token') {
    const got = await this.load(id);
    if (!got) return no(404, 'race', `no race "${id}"`);
    const s = got.seats[seat];
    if (!s) return no(404, 'seat', `race "${id}" has no seat ${seat}`);
    if (s.kind !== 'human') return no(403, 'seat', `seat ${seat} is played by a bot`);
    if (by === 'mail') {
      const m = await this.db.selectFrom('seat_mail').select('secret').where('race_id', '=', id).where('seat', '=', seat).executeTakeFirst();
      const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
      if (!m || !secret || !same(secret, m.secret)) return no(401, 'mailSecret', 'this seat\'s mail secret is needed (its reply address or subject code)');
      return yes(got);
    }
    if (!secret || hash(secret) !== s.token_hash) return no(401, 'token', 'this seat\'s secret link is needed (the token of its invite link)');
    return yes(got);
  }

  /** What a seat may see: the race, its own hand and its own orders. */
  async seat(id: string, seat: number, secret: string | undefined) {
    const got = await this.authSeat(id, seat, secret);
    if (!got.ok) return got;
    const { race, seats } = got.value;
    const st: GameState = JSON.parse(race.state);
    const mine = await this.db.selectFrom('orders').select('body').where('race_id', '=', id).where('turn', '=', st.turn).where('seat', '=', seat).executeTakeFirst();
    // The other seats of the same player, opened by the same link (000 L40).
    const playerSeats = seats.filter((x) => x.token_hash && x.token_hash === seats[seat]!.token_hash).map((x) => x.seat);
    return yes({ ...seatView(this.summary(race), st, seats.map(this.seatInfo), await this.submittedSeats(id, st.turn), seat, mine ? JSON.parse(mine.body) : null, this.setupOf(race).rules.options.choiceKeys), playerSeats, clock: await this.replayClock(race, seats, st) });
  }

  /**
   * A seat's orders for the current turn (or the moderator's correction): checked, stored, and
   * answered with what was understood. They can be replaced until the turn is played. In a live
   * race the turn is played as soon as every person's orders are in.
   */
  async submit(id: string, seat: number, who: { token?: string; moderatorKey?: string; mailSecret?: string }, body: unknown, attempt = 1): Promise<Answer<{ turn: number; orders: SeatOrders }>> {
    const got = who.moderatorKey ? await this.authModerator(id, who.moderatorKey)
      : who.mailSecret !== undefined ? await this.authSeat(id, seat, who.mailSecret, 'mail') : await this.authSeat(id, seat, who.token);
    if (!got.ok) return got;
    const { race, seats } = got.value;
    if (!seats[seat]) return no(404, 'seat', `race "${id}" has no seat ${seat}`);
    if (race.status !== 'running') return no(409, 'race', 'the race is over');
    const st: GameState = JSON.parse(race.state);
    if (st.phase !== 'programming') return no(409, 'turn', 'the turn is being played');
    if (who.moderatorKey !== undefined) {
      // The moderator key opens no seat: it corrects a seat's orders only on a turn taken back
      // (a rewound turn has been played before), and the correction is logged for everybody.
      const row = await this.db.selectFrom('turns').select('first_seq').where('race_id', '=', id).where('turn', '=', st.turn).executeTakeFirst();
      if (!row || row.first_seq === null) return no(403, 'moderatorKey', `the moderator key opens no seat; a seat's orders may be corrected only on a turn taken back with rewind, and turn ${st.turn} has not been played yet`);
    }
    const setup = this.setupOf(race);
    const orders = readOrders(setup, st, seat, body);
    if (!orders.ok) return orders;
    const now = this.clock.now();
    const committed = await this.db.transaction().execute(async (trx) => {
      // The race must still be at the turn the orders were checked against.
      const bumped = await trx.updateTable('races').set({ version: race.version + 1, last_seq: race.last_seq + 1 })
        .where('id', '=', id).where('version', '=', race.version).executeTakeFirst();
      if (Number(bumped.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('orders').where('race_id', '=', id).where('turn', '=', st.turn).where('seat', '=', seat).execute();
      await trx.insertInto('orders').values({ race_id: id, turn: st.turn, seat, body: JSON.stringify(orders.value), submitted_at: now }).execute();
      await trx.insertInto('events').values({ race_id: id, seq: race.last_seq + 1, turn: st.turn, body: JSON.stringify({ kind: 'race', event: who.moderatorKey !== undefined ? { type: 'corrected', seat, by: 'moderator' } : { type: 'submitted', seat } }) }).execute();
      return true;
    });
    if (!committed) {
      // Something else changed the race meanwhile: check the orders again against what it is now.
      if (attempt < 5) return this.submit(id, seat, who, body, attempt + 1);
      return no(409, 'race', 'the race is changing too fast; send the orders again');
    }
    this.announce(id, race.last_seq + 1);
    if (JSON.parse(race.policy).kind === 'live') await this.adjudicate(id, false);
    return yes({ turn: st.turn, orders: orders.value });
  }

  /**
   * Recompile (OPTIONS.md 2.22; 001 L227): before programming, the seat's robot discards its hand
   * for a new one and takes the damage. Orders already sent for the turn named the old cards, so
   * they are withdrawn. The deadline stays.
   */
  async recompile(id: string, seat: number, who: { token?: string; mailSecret?: string }): Promise<Answer<{ turn: number; hand: string[] }>> {
    const got = who.mailSecret !== undefined ? await this.authSeat(id, seat, who.mailSecret, 'mail') : await this.authSeat(id, seat, who.token);
    if (!got.ok) return got;
    const { race } = got.value;
    if (race.status !== 'running') return no(409, 'race', 'the race is over');
    const st: GameState = JSON.parse(race.state);
    if (st.phase !== 'programming') return no(409, 'turn', 'the turn is being played');
    const setup = this.setupOf(race);
    const res = recompile(setup, st, seat);
    if (!res.ok) return no(422, res.error.field, res.error.message);
    const entries = res.value.events.map((e) => ({ turn: st.turn, kind: 'game' as const, event: publicEvent(e, setup.settings) }));
    const committed = await this.db.transaction().execute(async (trx) => {
      const bumped = await trx.updateTable('races').set({ state: JSON.stringify(res.value.state), version: race.version + 1, last_seq: race.last_seq + entries.length })
        .where('id', '=', id).where('version', '=', race.version).executeTakeFirst();
      if (Number(bumped.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('orders').where('race_id', '=', id).where('turn', '=', st.turn).where('seat', '=', seat).execute();
      await trx.insertInto('events').values(entries.map((e, k) => ({ race_id: id, seq: race.last_seq + 1 + k, turn: e.turn, body: JSON.stringify({ kind: e.kind, event: e.event }) }))).execute();
      return true;
    });
    if (!committed) return no(409, 'race', 'the race changed meanwhile; try again');
    this.announce(id, race.last_seq + entries.length);
    return yes({ turn: st.turn, hand: res.value.state.robots[seat]!.hand.map(cardName) });
  }

  private async authModerator(id: string, key: string | undefined) {
    const got = await this.load(id);
    if (!got) return no(404, 'race', `no race "${id}"`);
    if (!key || hash(key) !== got.race.moderator_hash) return no(401, 'moderatorKey', 'the race\'s moderator key is needed');
    return yes(got);
  }

  /**
   * The Three Minute Rule at its limit (004 L188): when first-timers are still programming, the
   * other late seats are filled at random (their orders are stored as "random"), and the turn waits
   * for the first-timers until the policy's own deadline. Returns whether that was committed, or
   * null when the turn is to be played now.
   */
  private async hurry(race: RaceRow, seats: readonly Selectable<SeatRow>[], st: GameState, sent: ReadonlyMap<number, SeatOrders>, setup: Setup, policy: DeadlinePolicy): Promise<boolean | null> {
    const until = firstTimersDeadline(policy, setup.settings, race.deadline_at!);
    if (until === null) return null;
    const late = seats.filter((x) => x.kind === 'human' && !sent.has(x.seat) && needsProgram(st, x.seat));
    if (!late.some((x) => x.first_timer === 1)) return null;
    const earlier = await this.db.selectFrom('events').select('body').where('race_id', '=', race.id).where('turn', '=', st.turn).execute();
    if (earlier.some((e) => (JSON.parse(e.body) as { event: { type: string } }).event.type === 'hurried')) return null;
    const hurried = late.filter((x) => x.first_timer !== 1);
    const now = this.clock.now();
    const committed = await this.db.transaction().execute(async (trx) => {
      const bumped = await trx.updateTable('races').set({ version: race.version + 1, last_seq: race.last_seq + 1, deadline_at: until })
        .where('id', '=', race.id).where('version', '=', race.version).executeTakeFirst();
      if (Number(bumped.numUpdatedRows) !== 1) return false;
      for (const x of hurried) {
        const open = openRegisters(st.robots[x.seat]!.locked);
        const random: SeatOrders = { program: open.map(() => null), powerDown: false, stayDown: false, takeOption: false, unlock: [], reenter: null, choices: null };
        await trx.insertInto('orders').values({ race_id: race.id, turn: st.turn, seat: x.seat, body: JSON.stringify(random), submitted_at: now }).execute();
      }
      const event: RaceEvent = { type: 'hurried', seats: hurried.map((x) => x.seat), at: until };
      await trx.insertInto('events').values({ race_id: race.id, seq: race.last_seq + 1, turn: st.turn, body: JSON.stringify({ kind: 'race', event }) }).execute();
      return true;
    });
    if (committed) await this.announce(race.id, race.last_seq);
    return committed;
  }

  /**
   * Plays the current turn if it is due: its deadline has passed, or (`early`, live races) every
   * person has sent orders; with `onlyTurn`, only if that is still the current turn (a repeated
   * request plays nothing more). Returns true if this call played it. Safe to call from anywhere, at
   * any time, from any number of processes: only one of them commits.
   */
  async adjudicate(id: string, force: boolean, onlyTurn?: number): Promise<boolean> {
    const got = await this.load(id);
    if (!got) return false;
    const { race, seats } = got;
    if (race.status !== 'running' || race.paused_left !== null) return false;
    const st: GameState = JSON.parse(race.state);
    if (st.phase !== 'programming') return false;
    // A request to play a given turn does nothing once that turn has been played.
    if (onlyTurn !== undefined && st.turn !== onlyTurn) return false;
    const now = this.clock.now();
    const rows = await this.db.selectFrom('orders').selectAll().where('race_id', '=', id).where('turn', '=', st.turn).execute();
    const sent = new Map(rows.map((r) => [r.seat, JSON.parse(r.body) as SeatOrders]));
    const due = force || (race.deadline_at !== null && race.deadline_at <= now);
    const allIn = seats.every((s) => s.kind === 'bot' || sent.has(s.seat) || !needsProgram(st, s.seat));
    if (!due && !(allIn && JSON.parse(race.policy).kind === 'live')) return false;

    const setup = this.setupOf(race);
    const policy: DeadlinePolicy = JSON.parse(race.policy);
    if (due && !force && race.deadline_at !== null) {
      const hurried = await this.hurry(race, seats, st, sent, setup, policy);
      if (hurried !== null) return hurried;
    }
    const turn = st.turn;
    const people: Record<number, PersonTurn> = {};
    for (const [seat, o] of sent) {
      const eo = engineOrders(setup, st, seat, o);
      people[seat] = { orders: { ...eo.orders, program: eo.partial, joined: eo.joined }, reserved: eo.reserved, reentry: eo.reentry, facing: eo.facing };
    }
    // The bots decide from the turn as dealt (nobody's orders in it) and the race's seed.
    const botSeats = seats.filter((x) => x.kind === 'bot').map((x) => ({ seat: x.seat, level: (x.level && isLevel(x.level) ? x.level : 'random') as Level }));
    const played = adjudicateTurn(setup, st, people, decideBots(setup, st, botSeats, dealSeed(storedDeal(race))), dealSeed(storedDeal(race)));
    if (!played.ok) throw new Error(`${played.error.field}: ${played.error.message}`);
    const entries: Omit<Entry, 'seq'>[] = [];
    for (const f of played.value.fills) {
      for (const e of f.events) entries.push({ turn, kind: 'game', event: e });
      if (f.registers.length || f.missing) entries.push({ turn, kind: 'race', event: { type: 'filled', seat: f.seat, registers: f.registers } });
    }
    for (const e of played.value.played) entries.push({ turn, kind: 'game', event: publicEvent(e, setup.settings) });
    const before = played.value.ended;
    let s = played.value.state;
    let deadlineAt: number | null = null;
    let status = 'running';
    // People still racing: human seats whose robot is not out. With none left (and some there were),
    // the race plays out at bot speed or ends, as its creator chose (whenNoPersonLeft).
    const left = seats.filter((x) => x.kind === 'human' && before.robots[x.seat]!.status !== 'out').map((x) => ({ firstTimer: x.first_timer === 1 }));
    const deserted = !left.length && seats.some((x) => x.kind === 'human') && race.unattended === 'end';
    if (played.value.over || deserted) {
      status = 'over';
      s = before;
      entries.push({ turn, kind: 'race', event: played.value.over ? { type: 'raceOver' } : { type: 'raceOver', reason: 'noPersonLeft' } });
    } else {
      for (const e of played.value.next!.events) entries.push({ turn: s.turn, kind: 'game', event: publicEvent(e, setup.settings) });
      // A race with no person left plays on at once; people get the policy's time (or the Three Minute
      // Rule's), in a live race once they have watched the replay (ready.ts), at the latest after its length.
      const wait = policy.kind === 'live' && left.length ? replayWaitMs(played.value.played.length) : 0;
      deadlineAt = turnDeadline(policy, setup.settings, left, now + wait);
      entries.push({ turn: s.turn, kind: 'race', event: { type: 'deadline', at: deadlineAt, ...(wait ? { clockStartsBy: now + wait } : {}) } });
    }
    const first = race.last_seq + 1;
    const committed = await this.db.transaction().execute(async (trx) => {
      const bumped = await trx.updateTable('races')
        .set({ state: JSON.stringify(s), version: race.version + 1, last_seq: race.last_seq + entries.length, deadline_at: deadlineAt, status })
        .where('id', '=', id).where('version', '=', race.version).executeTakeFirst();
      if (Number(bumped.numUpdatedRows) !== 1) return false;
      for (let k = 0; k < entries.length; k += 200)
        await trx.insertInto('events').values(entries.slice(k, k + 200).map((e, m) => ({ race_id: id, seq: first + k + m, turn: e.turn, body: JSON.stringify({ kind: e.kind, event: e.event }) }))).execute();
      await trx.updateTable('turns').set({ first_seq: first }).where('race_id', '=', id).where('turn', '=', turn).execute();
      if (status === 'running') {
        await trx.deleteFrom('turns').where('race_id', '=', id).where('turn', '=', s.turn).execute();
        await trx.insertInto('turns').values({ race_id: id, turn: s.turn, before: JSON.stringify(before), dealt: JSON.stringify(s), first_seq: null }).execute();
      }
      return true;
    });
    if (committed) this.announce(id, race.last_seq + entries.length);
    return committed;
  }

  /**
   * The moderator's tools: pause and resume the clock, extend the deadline, hand a seat to a bot,
   * play the turn now, and rewind the last turn played so that it is played again (after a
   * correction of someone's orders, sent with the moderator key).
   */
  async moderate(id: string, key: string | undefined, action: string, body: unknown): Promise<Answer<{ done: string }>> {
    const got = await this.authModerator(id, key);
    if (!got.ok) return got;
    const { race, seats } = got.value;
    const b = isObject(body) ? body : {};
    const now = this.clock.now();
    let set: Partial<RaceRow> = {};
    let event: RaceEvent;
    let rewindTo: { turn: number; dealt: string; from: number } | null = null;
    switch (action) {
      case 'pause':
        if (race.paused_left !== null) return no(409, 'race', 'already paused');
        if (race.status !== 'running') return no(409, 'race', 'the race is over');
        set = { paused_left: Math.max(0, (race.deadline_at ?? now) - now), deadline_at: null };
        event = { type: 'paused' };
        break;
      case 'resume':
        if (race.paused_left === null) return no(409, 'race', 'not paused');
        set = { paused_left: null, deadline_at: now + race.paused_left };
        event = { type: 'resumed' };
        break;
      case 'extend': {
        const sec = b.seconds;
        if (!Number.isInteger(sec) || (sec as number) < 1 || (sec as number) > 30 * 86400) return no(422, 'seconds', 'expected whole seconds, 1 to 2592000');
        if (race.status !== 'running') return no(409, 'race', 'the race is over');
        if (race.paused_left !== null) set = { paused_left: race.paused_left + (sec as number) * 1000 };
        else set = { deadline_at: (race.deadline_at ?? now) + (sec as number) * 1000 };
        event = { type: 'deadline', at: set.deadline_at ?? null };
        break;
      }
      case 'replace': {
        const seat = b.seat;
        if (!Number.isInteger(seat) || !seats[seat as number]) return no(422, 'seat', `expected a seat number 0 to ${seats.length - 1}`);
        const level = b.level ?? 'random';
        if (typeof level !== 'string' || !isLevel(level)) return no(422, 'level', `expected a bot level: ${LEVELS.join(', ')}`);
        event = { type: 'seatReplaced', seat: seat as number, level };
        break;
      }
      case 'adjudicate':
        if (b.turn !== undefined && !Number.isInteger(b.turn)) return no(422, 'turn', 'expected the number of the turn to play (optional: without it, the current turn)');
        return (await this.adjudicate(id, true, b.turn as number | undefined)) ? yes({ done: 'the turn was played' }) : no(409, 'turn', 'the turn could not be played now (paused, over, or played meanwhile)');
      case 'rewind': {
        const st: GameState = JSON.parse(race.state);
        const last = race.status === 'over' ? st.turn : st.turn - 1;
        const row = await this.db.selectFrom('turns').selectAll().where('race_id', '=', id).where('turn', '=', last).executeTakeFirst();
        if (!row || row.first_seq === null) return no(409, 'turn', 'no turn has been played yet');
        rewindTo = { turn: last, dealt: row.dealt, from: row.first_seq };
        set = { state: row.dealt, status: 'running', paused_left: null, deadline_at: nextDeadline(JSON.parse(race.policy), now) };
        event = { type: 'rewound', turn: last, from: row.first_seq, to: race.last_seq };
        break;
      }
      default:
        return no(404, 'action', 'expected pause, resume, extend, replace, adjudicate or rewind');
    }
    const committed = await this.db.transaction().execute(async (trx) => {
      const bumped = await trx.updateTable('races').set({ ...set, version: race.version + 1, last_seq: race.last_seq + 1 })
        .where('id', '=', id).where('version', '=', race.version).executeTakeFirst();
      if (Number(bumped.numUpdatedRows) !== 1) return false;
      const turn = rewindTo ? rewindTo.turn : (JSON.parse(race.state) as GameState).turn;
      await trx.insertInto('events').values({ race_id: id, seq: race.last_seq + 1, turn, body: JSON.stringify({ kind: 'race', event }) }).execute();
      if (event.type === 'seatReplaced') await trx.updateTable('seats').set({ kind: 'bot', level: event.level, token_hash: '' }).where('race_id', '=', id).where('seat', '=', event.seat).execute();
      if (rewindTo) await trx.deleteFrom('turns').where('race_id', '=', id).where('turn', '>', rewindTo.turn).execute();
      return true;
    });
    if (!committed) return no(409, 'race', 'the race changed meanwhile; try again');
    this.announce(id, race.last_seq + 1);
    return yes({ done: event.type });
  }

  /** Plays every race whose deadline has passed; returns how many turns were played. */
  async tick(): Promise<number> {
    const due = await this.db.selectFrom('races').select('id').where('status', '=', 'running').where('deadline_at', '<=', this.clock.now()).execute();
    let played = 0;
    for (const { id } of due) if (await this.adjudicate(id, false)) played++;
    return played;
  }

  /** Entries after `after`, in order (at most `limit` of them). */
  async entries(id: string, after: number, limit?: number): Promise<Answer<Entry[]>> {
    const race = await this.db.selectFrom('races').select('id').where('id', '=', id).executeTakeFirst();
    if (!race) return no(404, 'race', `no race "${id}"`);
    let q = this.db.selectFrom('events').selectAll().where('race_id', '=', id).where('seq', '>', after).orderBy('seq');
    if (limit !== undefined) q = q.limit(limit);
    const rows = await q.execute();
    return yes(rows.map((r) => ({ seq: r.seq, turn: r.turn, ...JSON.parse(r.body) })));
  }

  /** The seq of a race's last committed entry (0 for no race). */
  async lastSeq(id: string): Promise<number> {
    const race = await this.db.selectFrom('races').select('last_seq').where('id', '=', id).executeTakeFirst();
    return race?.last_seq ?? 0;
  }

  /**
   * Tells this process's streams (the bus's `committed`) and the other processes (`published`)
   * that race `id`'s entries up to `lastSeq` are committed. The streams read them from the
   * database, so each client gets each entry once, in order, whichever process wrote it.
   */
  announce(id: string, lastSeq: number): void {
    this.bus.emit('committed', id, lastSeq);
    this.published?.(id, lastSeq);
  }

  /**
   * A turn played, for its report and picture: the state it began from, its events (less any the
   * moderator rewound), and the state after it.
   */
  async playedTurn(id: string, turn: number): Promise<Answer<{ before: GameState; events: GameEvent[]; after: GameState; setup: Setup }>> {
    const race = await this.db.selectFrom('races').selectAll().where('id', '=', id).executeTakeFirst();
    if (!race) return no(404, 'race', `no race "${id}"`);
    const row = await this.db.selectFrom('turns').selectAll().where('race_id', '=', id).where('turn', '=', turn).executeTakeFirst();
    if (!row || row.first_seq === null) return no(404, 'turn', `turn ${turn} of race "${id}" has not been played`);
    const next = await this.db.selectFrom('turns').select('before').where('race_id', '=', id).where('turn', '=', turn + 1).executeTakeFirst();
    const events = await this.gameEvents(id, turn);
    return yes({ before: JSON.parse(row.before), events, after: JSON.parse(next?.before ?? race.state), setup: this.setupOf(race) });
  }

  /**
   * A turn played, as anybody may replay it: the robots as the turn began (public view) and its
   * events, all revealed by now.
   */
  async replay(id: string, turn: number): Promise<Answer<{ turn: number; robots: ReturnType<typeof publicRobots>; events: GameEvent[] }>> {
    const played = await this.playedTurn(id, turn);
    if (!played.ok) return played;
    return yes({ turn, robots: publicRobots(played.value.before, played.value.setup.settings), events: played.value.events });
  }

  /** The engine's events of a race (or of one turn), less any the moderator rewound. */
  async gameEvents(id: string, turn?: number): Promise<GameEvent[]> {
    let q = this.db.selectFrom('events').selectAll().where('race_id', '=', id);
    if (turn !== undefined) q = q.where('turn', '=', turn);
    const entries = (await q.orderBy('seq').execute()).map((r) => ({ seq: r.seq, ...JSON.parse(r.body) }) as Entry);
    const undone = entries.flatMap((e) => (e.kind === 'race' && e.event.type === 'rewound' ? [[e.event.from, e.event.to] as const] : []));
    return entries.filter((e) => e.kind === 'game' && !undone.some(([a, b]) => e.seq >= a && e.seq <= b)).map((e) => e.event as GameEvent);
  }

  /** The report of a turn played: 001's table per register, from its events. */
  async report(id: string, turn: number): Promise<Answer<{ turn: number; report: ReturnType<typeof turnReport>; text: string }>> {
    const played = await this.playedTurn(id, turn);
    if (!played.ok) return played;
    const rep = turnReport(played.value.before, played.value.events);
    return yes({ turn, report: rep, text: formatTurnReport(rep) });
  }
}
