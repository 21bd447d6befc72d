/**
 * What readers see of races: the public view, a seat's view, a race's course, a series, and the
 * turns played (replay, report). A played turn never changes once played (a rewound turn played
 * again is another play, with another first seq), so its replay and report are made once and kept.
 */
import type { Selectable } from 'kysely';
import {
  courseFile,
  seriesStandings, standings, storedOrders, turnReport, formatTurnReport, type Course, type GameEvent, type GameState, type SeriesLine, type Setup, type Standing,
} from '../../engine/src/index.js';
import type { RaceRow, SeatRow } from './db.js';
import { publicDeal, storedDeal } from './deal.js';
import { no, yes, type Answer } from './errors.js';
import { revisionOf, rowBody, rowUnread, submittedCounts, type LoadedRace, type RaceRepository } from './repository.js';
import type { RaceSetups } from './setups.js';
import { stateOf } from './race-cache.js';
import { finishOrder, publicRobots, publicView, seatView, type RaceSummary, type SeatInfo } from './views.js';

export interface PlayedTurn {
  readonly before: GameState;
  readonly events: GameEvent[];
  readonly after: GameState;
  readonly setup: Setup;
  /** Each seat's robot design, for pictures. */
  readonly designs: number[];
}
/**
 * A played turn for its replay: the robots as it began, the finishing order as it stood then (the
 * public view's `finished`: robots' names, in groups tied for a place; a pbem race plays on after its
 * first finisher), and the turn's events.
 */
export type Replay = { turn: number; robots: ReturnType<typeof publicRobots>; finished: string[][]; events: GameEvent[] };
export type Report = { turn: number; report: ReturnType<typeof turnReport>; text: string };

/** Played turns kept, with their replay and report once asked for. */
const PLAYED_KEPT = 2000;
/** Races whose seats raced by e-mail are kept (`mailSeats`). */
const MAIL_SEATS_KEPT = 10_000;

interface Kept {
  readonly played: PlayedTurn;
  replay?: Replay;
  report?: Report;
}

export const raceSummary = (r: RaceRow): RaceSummary => ({
  id: r.id, course: r.course, rules: r.rules, settings: JSON.parse(r.settings), deadline: JSON.parse(r.policy),
  status: r.status, paused: r.paused_left !== null, deadlineAt: r.deadline_at, lastSeq: r.last_seq, deal: publicDeal(storedDeal(r)),
});

export const seatInfo = (s: Pick<Selectable<SeatRow>, 'seat' | 'name' | 'kind' | 'level' | 'robot' | 'invite_hash'>): SeatInfo => ({
  seat: s.seat, name: s.name, kind: s.kind as 'human' | 'bot', level: s.level, robot: s.robot ?? s.seat, invited: s.invite_hash !== '',
});

/** A kept play's replay, made once. */
function replayOf(k: Kept, turn: number): Replay {
  const p = k.played;
  k.replay ??= { turn, robots: publicRobots(p.before, p.setup.settings), finished: finishOrder(p.before), events: p.events };
  return k.replay;
}

/** A kept play's report, made once. */
function reportOf(k: Kept, turn: number): Report {
  if (!k.report) {
    const rep = turnReport(k.played.before, k.played.events);
    k.report = { turn, report: rep, text: formatTurnReport(rep) };
  }
  return k.report;
}

export class ReadModels {
  /** By `race:turn:firstSeq`: the play of a turn, which never changes. */
  private readonly kept = new Map<string, Promise<Answer<Kept>>>();
  /** How many plays of each turn (`race:turn`) are kept. */
  private readonly turnsKept = new Map<string, number>();
  /**
   * By race: its seats raced by e-mail. They are stored with the race and never change, so they
   * are read once (a seat's view kept in memory otherwise reads nothing).
   */
  private readonly mailKept = new Map<string, Promise<ReadonlySet<number>>>();

  constructor(private readonly repo: RaceRepository, private readonly setups: RaceSetups) {}

  /** What anybody may see of a race, as loaded. */
  async view(got: LoadedRace): Promise<ReturnType<typeof publicView> & { standings: Standing[]; series: string | null }> {
    const st = stateOf(got.race);
    // The standings as they stand (teams listed as teams, 000 L21); final once the race is over.
    const view = publicView(raceSummary(got.race), st, got.seats.map(seatInfo), submittedCounts(await this.repo.turnOrders(got, st.turn)));
    return { ...view, standings: standings(this.setups.setupOf(got.race), st), series: got.race.series };
  }

  /** What a seat may see, once it has shown it holds the seat: the race, its own hand and its own orders. */
  async seat(got: LoadedRace, seat: number) {
    const { race, seats } = got;
    const st = stateOf(race);
    // One read for the seat's own orders and who else has sent theirs.
    const sent = await this.repo.turnOrders(got, st.turn);
    const stored = sent.get(seat);
    const setup = this.setups.setupOf(race);
    // Its orders as they will be played: what no longer reads shown as it will be (filled at random, left out) and named.
    const read = stored ? storedOrders(setup, st, seat, rowBody(stored)) : null;
    // With the revision they were sent with (`revision`, also when they no longer read): the web client counts its sends on from it.
    const revision = revisionOf(stored);
    const mine = stored && read ? { orders: revision ? { ...read.orders, revision } : read.orders, unread: rowUnread(stored, read.unread) } : null;
    // The other seats of the same player, opened by the same link (000 L40).
    const playerSeats = seats.filter((x) => x.token_hash && x.token_hash === seats[seat]!.token_hash).map((x) => x.seat);
    const byMail = (await this.mailSeats(race.id)).has(seat);
    const view = seatView(raceSummary(race), st, seats.map(seatInfo), submittedCounts(sent), seat, mine, setup.rules.options.choiceKeys, byMail);
    return yes({ ...view, playerSeats, series: race.series });
  }

  /** A race's seats raced by e-mail, read once (`mailKept`); `known`: as its creation stored them, nothing read. */
  mailSeats(id: string, known?: readonly number[]): Promise<ReadonlySet<number>> {
    let got = this.mailKept.get(id);
    if (!got) {
      if (this.mailKept.size >= MAIL_SEATS_KEPT) this.mailKept.delete(this.mailKept.keys().next().value!);
      got = known ? Promise.resolve(new Set(known)) : this.repo.mailSeats(id).then((rows) => new Set(rows.map((m) => m.seat)));
      this.mailKept.set(id, got);
      // A failed read is not kept: the next view reads again.
      got.catch(() => this.mailKept.get(id) === got && this.mailKept.delete(id));
    }
    return got;
  }

  /** A race's course, shipped or its own, with its composed board for drawing. */
  async raceCourse(id: string): Promise<Answer<{ name: string | null; title: string; description: string; flags: number; starts: number; layout: Course['layout']; file: Record<string, unknown> }>> {
    const race = await this.repo.race(id);
    if (!race) return no(404, 'race', `no race "${id}"`);
    const c = this.setups.courseOf(race);
    // `name`: the shipped course's, or null for a course of the race's own; `file`: the course as a file has it (for a rematch).
    return yes({ name: race.course_json ? null : race.course, title: c.name, description: c.description, flags: c.flags.length, starts: c.starts.length, layout: c.layout, file: courseFile(c) });
  }

  /**
   * A series of races (each created `after` the one before): its races in order and the standings
   * across those that are over (the engine's seriesStandings).
   */
  async series(id: string): Promise<Answer<{ races: string[]; standings: SeriesLine[] }>> {
    const rows = await this.repo.seriesRaces(id);
    const first = rows.find((r) => r.id === id);
    if (!first || first.series) return no(404, 'series', `no series "${id}" (a series is named by its first race)`);
    const over = rows.filter((r) => r.status === 'over');
    return yes({
      races: rows.map((r) => r.id),
      standings: seriesStandings(over.map((r) => ({ standings: standings(this.setups.setupOf(r), JSON.parse(r.state), { byTeam: false }) }))),
    });
  }

  /**
   * A turn played, for its report and picture: the state it began from, its events (less any the
   * moderator rewound), and the state after it.
   */
  async playedTurn(id: string, turn: number): Promise<Answer<PlayedTurn>> {
    const k = await this.keep(id, turn);
    return k.ok ? yes(k.value.played) : k;
  }

  /** A turn played, as anybody may replay it: the robots as the turn began (public view) and its events, all revealed by now. */
  async replay(id: string, turn: number): Promise<Answer<Replay>> {
    const k = await this.keep(id, turn);
    return k.ok ? yes(replayOf(k.value, turn)) : k;
  }

  /** The report of a turn played: 001's table per register, from its events. */
  async report(id: string, turn: number): Promise<Answer<Report>> {
    const k = await this.keep(id, turn);
    return k.ok ? yes(reportOf(k.value, turn)) : k;
  }

  /** A turn played, its replay and its report together (the stream's `played` frame): one look-up of the play. */
  async played(id: string, turn: number): Promise<Answer<{ replay: Replay; report: Report }>> {
    const k = await this.keep(id, turn);
    return k.ok ? yes({ replay: replayOf(k.value, turn), report: reportOf(k.value, turn) }) : k;
  }

  /**
   * A play this process committed, known whole (race-cache.ts `TurnLog`): kept as a read of it
   * would give it (`first`: its first seq), and its replay and report made, for the stream.
   */
  handOver(id: string, turn: number, first: number, played: PlayedTurn): { replay: Replay; report: Report } {
    const key = `${id}:${turn}:${first}`;
    const k: Kept = { played };
    if (!this.kept.has(key)) this.remember(key, Promise.resolve(yes(k)));
    else this.kept.set(key, Promise.resolve(yes(k)));
    return { replay: replayOf(k, turn), report: reportOf(k, turn) };
  }

  /**
   * The play of a turn, read once per play. A turn none of whose plays is kept is read at once
   * (one round trip on PostgreSQL: the stream's first ask, in the process that did not play it);
   * else its latest play's first seq is looked at first (a rewind plays it again).
   */
  private async keep(id: string, turn: number): Promise<Answer<Kept>> {
    if (!Number.isSafeInteger(turn)) return this.notPlayed(id, turn);
    if (!this.turnsKept.has(`${id}:${turn}`)) {
      const got = this.read(id, turn);
      const a = await got;
      if (!a.ok) return a;
      const key = `${id}:${turn}:${a.value.at}`;
      // Another ask may have kept it meanwhile.
      const had = this.kept.get(key);
      if (had) return had;
      this.remember(key, got);
      return a;
    }
    const at = await this.repo.turnPlayedAt(id, turn);
    if (at === undefined || at === null) return this.notPlayed(id, turn);
    const key = `${id}:${turn}:${at}`;
    let got = this.kept.get(key);
    if (!got) {
      got = this.read(id, turn);
      this.remember(key, got);
    }
    return got;
  }

  private async notPlayed(id: string, turn: number): Promise<Answer<never>> {
    if (!(await this.repo.exists(id))) return no(404, 'race', `no race "${id}"`);
    return no(404, 'turn', `turn ${turn} of race "${id}" has not been played`);
  }

  /** Keeps a play (by `race:turn:firstSeq`) unless its read fails (a database fault, a race gone). */
  private remember(key: string, got: Promise<Answer<Kept>>): void {
    if (this.kept.size >= PLAYED_KEPT) this.forget(this.kept.keys().next().value!);
    this.kept.set(key, got);
    this.turnsKept.set(key.slice(0, key.lastIndexOf(':')), (this.turnsKept.get(key.slice(0, key.lastIndexOf(':'))) ?? 0) + 1);
    got.then((a) => (a.ok ? undefined : this.forget(key)), () => this.forget(key));
  }

  private forget(key: string): void {
    if (!this.kept.delete(key)) return;
    const turn = key.slice(0, key.lastIndexOf(':'));
    const n = (this.turnsKept.get(turn) ?? 1) - 1;
    if (n > 0) this.turnsKept.set(turn, n);
    else this.turnsKept.delete(turn);
  }

  private async read(id: string, turn: number): Promise<Answer<Kept & { at: number }>> {
    // One read (one round trip on PostgreSQL). Robots are chosen before the first turn is played: a played turn's designs stay.
    const got = await this.repo.playRead(id, turn);
    if (!got) return no(404, 'race', `no race "${id}"`);
    const { race, turn: row, next, events, designs } = got;
    if (!row || row.first_seq === null) return no(404, 'turn', `turn ${turn} of race "${id}" has not been played`);
    return yes({ at: row.first_seq, played: { before: JSON.parse(row.before), events, after: JSON.parse(next?.before ?? race.state), setup: this.setups.setupOf(race), designs } });
  }
}
