/**
 * The race referee: creates races, takes orders until the deadline, plays each turn exactly once
 * with the race driver, and stores everything. This file is the orchestration; each job has a home
 * of its own: who may do what (auth.ts), the rows and the one versioned commit (repository.ts), the
 * moderator's tools (moderation.ts), what readers see (readmodels.ts), the bots' decisions
 * (planner.ts: the `BotPlanner` seam), the turn itself (the driver's pure `adjudicate`). Every
 * change of a race is one transaction that also bumps its version, so two requests (or two
 * processes) racing each other cannot both play a turn, and a process killed mid-turn leaves the
 * turn undone, never half done.
 */
import { EventEmitter } from 'node:events';
import {
  cardName, readCorrection, readOrders, recompile, needsProgram, raceStats, shownCards, startingPicks, storedOrders, storedTurn,
  type Card, type CheckedTurn, type Course, type GameEvent, type GameState, type Result, type SeatOrders, type Setup,
} from '../../engine/src/index.js';
import { adjudicate as adjudicateTurn, entrants, startRace, type BotSeat, type BotTurn } from '../../driver/src/index.js';
import type { Kysely, Selectable } from 'kysely';
import type { Db, RaceRow, SeatRow, Tables } from './db.js';
import { dealNumber, dealSeed, storedDeal } from './deal.js';
import { replayWaitMs, type Clock, type DeadlinePolicy } from './deadline.js';
import { clockView, waitingClock } from './ready.js';
import { DESIGNS, namedDesign, readRaceRequest } from './setup.js';
import { firstTimersDeadline, turnDeadline } from './timing.js';
import { courseFromJson } from '../../boards/src/index.js';
import { no, yes, type Answer } from './errors.js';
import { isLevel, type Level } from '../../bots/src/index.js';
import { publicEvent, publicRobots } from './views.js';
import { replayMs } from '../../web/src/pace.js';
import { Auth, BROWSER_KEY, badBrowserKey, claimToken, hashSecret, mailWebToken, newMailSecret, newToken, type SeatCredentials } from './auth.js';
import { KeyTaken, RaceRepository, RematchTaken, StaleChange, revisionOf, rowBody, rowUnread, type Change, type OtherPlay, type StoredOrders } from './repository.js';
import { Moderation, type Moderated } from './moderation.js';
import { KEY_TTL_MS, bodyHash, keyHash, seal, unseal } from './race-keys.js';
import { ReadModels } from './readmodels.js';
import { RaceSetups } from './setups.js';
import { inProcessPlanner, type BotPlanner } from './planner.js';
import { DraftGate, DraftTable, type Draft, type DraftLimits } from './drafts.js';
import { RaceCache, stateOf, type ChangeNote, type NoteSet } from './race-cache.js';
import { inSlices } from './slices.js';
import { TurnsInLine } from './turns-in-line.js';
import { MAX_INT32 } from './schemas.js';
import type { PlayedTurn } from './readmodels.js';

/** What happens to a race, besides the engine's events. */
export type RaceEvent =
  | { type: 'raceCreated'; course: string; rules: string }
  | { type: 'submitted'; seat: number }
  /** A seat chose its robot (render/src/robots.ts's designs) before the first turn was played. */
  | { type: 'robotChosen'; seat: number; robot: number }
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
  /** The moderator made a new invite for these seats (`invite`): the token that opened them opens them no more. */
  | { type: 'invited'; seats: number[] }
  /** A seat's person made their link the only one: the token that opened these seats opens them no more. */
  | { type: 'tokenRenewed'; seats: number[] }
  /** A person took these seats with their invite: the token that opens them is theirs alone. */
  | { type: 'seatTaken'; seats: number[] }
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
  /**
   * `invite`: the code a person takes the seat with (`claim`), once: the seat's token is made then,
   * for them alone. Null for a bot's seat and for a seat raced by e-mail (its person's mails carry
   * its secret and its page's link; nobody else is given a way in).
   */
  readonly seats: { seat: number; name: string; kind: 'human' | 'bot'; invite: string | null; email: string | null; player?: string; team?: string }[];
}

/**
 * What a race over is raced again with (`rematch`): its id, the course it was read on (a course of
 * its own, not read again), its moderator key's hash (its moderator's key moderates the rematch
 * too) and each seat's invite's hash, its person's token's (or, for a seat nobody took, its
 * invite's): the link that opened the seat takes the seat in the rematch, and no other.
 */
interface RematchOf {
  readonly id: string;
  readonly course: Course | undefined;
  readonly moderatorHash: string;
  readonly invites: readonly string[];
}

/** A race over's rematch, as a person of the race (or its moderator) asked for it (`rematch`). */
export interface Rematched {
  /** The rematch's id. */
  readonly id: string;
  /** Whether this request made it (else an earlier one did: everyone is answered the same race). */
  readonly made: boolean;
}

/** A seat taken with its invite or its mail secret: the token of its person's browser, and every seat it opens. */
export interface Claimed {
  readonly token: string;
  readonly seats: number[];
  /**
   * Each time before that another token held one of these seats (taken with an invite, then made
   * void by the moderator's new invite): from the turn it was taken to the turn it was made void,
   * so that whoever held it saw the seat's hand in those turns (the race's creator, who holds the
   * invites, may have taken the seat first and then sent its person the new invite). Oldest first.
   */
  readonly openedBefore: { seat: number; from: number; to: number }[];
}

/** A race's head as the mail gateway lists races (RaceService.mailRaces). */
export interface MailRaceHead {
  readonly id: string;
  /** The seq of its last committed entry. */
  readonly lastSeq: number;
  readonly status: string;
  readonly deadlineAt: number | null;
}

/** A race as the mail gateway reads it (RaceService.mailRace). */
export interface MailRace extends MailRaceHead {
  readonly state: GameState;
  readonly policy: DeadlinePolicy;
  /** The name of its rule set (engine RULE_SETS). */
  readonly rules: string;
  /** The course's name (a shipped course's, or the race's own course's). */
  readonly course: string;
  readonly courseData: Course;
  readonly setup: Setup;
  readonly seed: number;
  /** The series it belongs to (its first race's id), or null for a race on its own or a series' first race. */
  readonly series: string | null;
  /** `follow`: keeps receiving the turn mails once its robot is out; `robot`: the design it races (render/src/robots.ts). */
  readonly seats: readonly { seat: number; name: string; kind: 'human' | 'bot'; follow: boolean; robot: number }[];
  /** The seats raced by e-mail: the player's address, and the secret its orders must carry. */
  /** `webToken`: the token of the seat's page, for a link in its person's mails (auth.ts `mailWebToken`). */
  readonly mail: readonly { seat: number; email: string; secret: string; webToken: string }[];
}

export interface RaceServiceOptions {
  readonly db: Db;
  readonly clock: Clock;
  /** Finds a course by name. */
  readonly course: (name: string) => Course | undefined;
  /**
   * Reads a course of a race's own, sent in its creation (the boards' `courseFromJson`: checking
   * that each flag can be reached takes up to a second on cube-works); the server's reads it on the
   * bot pool's urgent thread (`BotPool.course`). By default in this process. Null when it cannot
   * be read just now (the pool busy): the creation is refused 503, with Retry-After.
   */
  readonly readCourse?: (json: unknown) => Promise<Result<Course> | null>;
  /**
   * Called after a race's entries up to `lastSeq` are committed (fan-out to other processes), with
   * what this process's commit changed (`note`: the other processes follow it in what they keep).
   */
  readonly published?: (raceId: string, lastSeq: number, note?: ChangeNote) => void;
  /** Called with a seat's draft once this process's streams have it (fan-out to other processes; drafts.ts). */
  readonly drafted?: (raceId: string, draft: Draft) => void;
  /** The per-seat rate of drafts (drafts.ts). */
  readonly drafts?: Partial<DraftLimits>;
  /** Decides the bots' orders of a dealt turn (planner.ts); by default in this process. */
  readonly planner?: BotPlanner;
  /**
   * A live turn whose people's orders are all in but whose bots have not decided is played by the
   * process that took the last orders; past this long after them, by any process (its deadline
   * tick), in case that one went away. By default the planner's budget and 5 s.
   */
  readonly takeoverMs?: number;
  /**
   * Other processes share the database (fan-out.ts): a live turn whose last orders this process
   * took but whose bots' decision another process makes (the one that dealt the turn) is asked of
   * that one (`botsWanted` there), rather than decided here a second time. Called with the race
   * and the turn.
   */
  readonly wantBots?: (raceId: string, turn: number) => void;
  /** Tells the other processes that this one plays the turn once its bots have decided (`botsTaken` there). */
  readonly tookBots?: (raceId: string, turn: number) => void;
  /**
   * Tells the other processes the orders this process's planner decided for the bots of a turn it
   * dealt (`botsDecided` there), as soon as they are decided: whichever process takes the turn's
   * last orders plays it at once, in the transaction that stores them, as the dealer would.
   */
  readonly sharedBots?: (raceId: string, turn: number, bots: readonly BotSeat[], orders: Readonly<Record<number, BotTurn>>) => void;
  /**
   * This process is the database's only writer (SQLite; PostgreSQL while no other process is
   * heard: a function asked at each request): a race kept in memory (race-cache.ts) is used
   * without a look at its version. Else (other processes may change a race, and their commits'
   * notifications may not have come yet) each request reads the race's version first.
   */
  readonly alone?: boolean | (() => boolean);
}

/**
 * A look for orders that reached the server before a deadline but are not in yet (the mail
 * gateway's mailbox), awaited before the deadline's play of a race with a seat raced by e-mail
 * (`RaceService.beforeDeadlinePlay`): for at most `withinMs`; a fault or a longer look is logged,
 * and the turn is played with the orders in.
 */
export interface DeadlineLook {
  /** Called with the ids of the races whose deadline is to be played; resolves once the look is done. */
  readonly look: (raceIds: readonly string[]) => Promise<void>;
  readonly withinMs: number;
  /** Where a fault or a look that took too long is told (console.error by default). */
  readonly log?: (line: string) => void;
}

/**
 * With several processes on one database, the deadline of a race with a seat raced by e-mail is
 * played by a process that looks before it (`beforeDeadlinePlay`: the one with the mail gateway's
 * mailbox), so that orders mailed just before the deadline are read first. Such a process says so
 * in the database (`deadline_lookers`) every `LOOKER_SAYS_MS`, for `LOOKER_ALIVE_MS` (gone without
 * taking it back, it is counted there no longer after that); while one is there, the others leave
 * such a deadline to it for `LEFT_TO_LOOKER_MS` after the deadline, then play it themselves (a
 * looker that does not play it is not waited for longer: the race goes on, without the last look).
 */
export const LOOKER_SAYS_MS = 10_000;
export const LOOKER_ALIVE_MS = 60_000;
export const LEFT_TO_LOOKER_MS = 30_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A turn played, not yet committed: its entries, the change that stores it, the next turn dealt (null: the race is over). */
interface Play {
  readonly entries: Omit<Entry, 'seq'>[];
  readonly change: Required<Pick<Change, 'set' | 'writes'>> & Pick<Change, 'dealt'>;
  readonly next: GameState | null;
  /**
   * The turn as played, for its replay and report, when this process knows all of it (it dealt
   * the turn: race-cache.ts `TurnLog`); the stream and the read models need not read it back.
   */
  readonly played: PlayedTurn | null;
}

/** What the stream sends with a played turn's entries: the turn's replay and report (stream.ts). */
export interface PlayedFrame {
  readonly turn: number;
  readonly replay: unknown;
  readonly report: unknown;
}

/** A committed play handed to the streams with its announcement: the seq of its `turnEnded` entry and its frame, made when asked for. */
export interface HandedPlay {
  readonly endedSeq: number;
  readonly frame: () => PlayedFrame;
}

/** Stored orders the Three Minute Rule filled at random (004 L188): they stand, the seat cannot replace them. */
interface HurriedFill {
  readonly hurried: true;
}
const hurriedFill = (o: unknown): o is HurriedFill => isObject(o) && o.hurried === true;

/**
 * The versioned commit of a change (RaceService.versioned): the seq the race's entries now end at;
 * a change that came first makes the whole work `STALE`.
 */
type Committer = (race: Pick<RaceRow, 'id' | 'version' | 'last_seq'>, entries: readonly Omit<Entry, 'seq'>[], change?: Change, play?: Play) => Promise<number>;

/**
 * How long a process that asked another for a turn's bots (`wantBots`) waits for its answer before
 * it decides them itself. An answer comes by NOTIFY within milliseconds; the turn is played once
 * the bots have decided, by whichever process answered.
 */
const HAND_OVER_MS = 2000;

/** Races whose bots' orders of another process are kept at most (`botsDecided`). */
const BOTS_OF_OTHERS = 5000;

/** Which bots decide, at which level: a decision is for these. */
const botsKey = (bots: readonly BotSeat[]): string => bots.map((b) => `${b.seat}${b.level}`).join(',');

/** The race columns a note may tell (`noteOf`): a change that sets any other is told without them. */
const NOTE_SET = new Set(['state', 'status', 'deadline_at', 'paused_left', 'play_by']);

/**
 * What the other processes are told of a change this process committed (fanout.ts), `version` the
 * race's version it committed: its entries and writes, unless it set columns a note does not tell.
 * A change that dealt a turn is told whole when it played one (`first`: the seq of the play's first
 * entry): its entries, its new state and the state the dealt turn begins from (fanout.ts sends it
 * compressed, and only that it dealt the turn when even so it is too long: the others read it).
 */
function noteOf(version: number, entries: readonly Omit<Entry, 'seq'>[], change: Change = {}, first?: number): ChangeNote {
  const base = { version, ...(change.seatsChanged ? { seatsChanged: true as const } : {}) };
  if (Object.keys(change.set ?? {}).some((k) => !NOTE_SET.has(k))) return change.dealt ? { ...base, dealt: change.dealt.turn } : base;
  if (change.dealt) {
    if (first === undefined) return { ...base, dealt: change.dealt.turn };
    return { ...base, dealt: change.dealt.turn, entries, ...(change.set ? { set: change.set as NoteSet } : {}), played: { first, before: change.dealt.before } };
  }
  return {
    ...base, entries, ...(change.set ? { set: change.set as NoteSet } : {}), ...(change.orders ? { orders: change.orders } : {}),
    ...(change.writes && !change.orders ? { opaque: true as const } : {}),
  };
}

/** What `versioned` gives when another change of the race came first: nothing of the work was kept. */
const STALE = Symbol('stale');

/** Reads of a race's last seq after a commit in doubt, before it is given up (`inDoubt`: pauses of up to 5 s, about 5 minutes). */
const DOUBT_TRIES = 64;

/** Whether every person whose robot plays cards this turn has sent orders. */
const allIn = (seats: readonly Pick<SeatRow, 'seat' | 'kind'>[], st: GameState, sent: ReadonlyMap<number, unknown>): boolean =>
  seats.every((s) => s.kind === 'bot' || sent.has(s.seat) || !needsProgram(st, s.seat));

/** The turn the orders are for: `turn`, a whole number. */
function readTurn(body: unknown): Answer<number> {
  const turn = isObject(body) ? body.turn : undefined;
  if (!Number.isSafeInteger(turn) || (turn as number) < 1) return no(422, 'turn', 'expected the number of the turn the orders are for (the seat view\'s "turn")');
  return yes(turn as number);
}

/**
 * The orders' `revision` (the order of the seat's sends, the server's and not the engine's: it is
 * taken out of the orders the engine reads), undefined without one.
 */
function readRevision(body: unknown): Answer<{ revision: number | undefined; orders: unknown }> {
  if (!isObject(body) || body.revision === undefined) return yes({ revision: undefined, orders: body });
  const { revision, ...orders } = body;
  if (!Number.isSafeInteger(revision) || (revision as number) < 1 || (revision as number) > MAX_INT32) return no(422, 'revision', `expected a whole number from 1 to ${MAX_INT32}: the order of this seat's sends`);
  return yes({ revision: revision as number, orders });
}

type Loaded = { race: Selectable<RaceRow>; seats: Selectable<SeatRow>[] };

/** A commit's entries as they are stored and read back (`{seq, turn, kind, event}`), the last at `last`. */
const withSeqs = (entries: readonly Omit<Entry, 'seq'>[], last: number): Entry[] =>
  entries.map((e, k) => ({ seq: last - entries.length + 1 + k, turn: e.turn, kind: e.kind, event: e.event }));

export class RaceService {
  /**
   * `committed` fires with (race id, seq, entries?) once a race's entries up to seq are committed
   * (the entries when this process committed them); `draft`
   * with (race id, draft) when a seat's draft is to be relayed (drafts.ts).
   */
  readonly bus = new EventEmitter();
  private readonly clock: Clock;
  private readonly published: RaceServiceOptions['published'];
  private readonly drafted: RaceServiceOptions['drafted'];
  private readonly draftGate: DraftGate;
  /** The latest drafts of each race's turn, for a stream opened mid-turn. */
  private readonly draftTable = new DraftTable();
  /** A race's changes asked of this process at once, one after the other (turns-in-line.ts). */
  private readonly inLine = new TurnsInLine();
  private readonly planner: BotPlanner;
  private readonly readCourse: (json: unknown) => Promise<Result<Course> | null>;
  private readonly takeoverMs: number;
  private readonly repo: RaceRepository;
  /**
   * Races with a commit in doubt (`inDoubt`): the lowest last seq one of them was read at, and how
   * many there were. One look a race, however many of its requests failed so during an outage.
   */
  private readonly doubted = new Map<string, { before: number; count: number }>();
  private readonly auth: Auth;
  private readonly setups: RaceSetups;
  private readonly reads: ReadModels;
  private readonly moderation: Moderation;
  /** Races whose turn is to be played once its bots have decided (playWhenDecided). */
  private readonly waitingForBots = new Map<string, { turn: number; force: boolean }>();
  /** Races whose turn waited for its bots and then failed to be played (the database away): the next tick tries again. */
  private readonly retry = new Map<string, { turn: number; force: boolean }>();
  private readonly wantBots: RaceServiceOptions['wantBots'];
  private readonly tookBots: RaceServiceOptions['tookBots'];
  /** Races whose turn waits for the bots of another process (`wantBots`): decided here too once the timer fires, unless one took it. */
  private readonly askedForBots = new Map<string, { turn: number; timer: NodeJS.Timeout }>();
  private readonly sharedBots: RaceServiceOptions['sharedBots'];
  /** Races whose last note from another process is being followed (a play read back): the next note waits for it (`committedElsewhere`). */
  private readonly following = new Map<string, Promise<void>>();
  /** The bots' orders another process decided (`botsDecided`), by race: its latest turn's. */
  private readonly botsOfOthers = new Map<string, { turn: number; bots: string; orders: Record<number, BotTurn> }>();
  /**
   * With other processes: turns played here with the bots' orders the dealing process shared
   * (`withShared`), and turns whose bots were asked of it (`askedFor`: they were not shared yet), for the metrics.
   */
  readonly handOvers = { withShared: 0, askedFor: 0 };
  /** The look for orders that came before a deadline, awaited before its play (`beforeDeadlinePlay`). */
  private deadlineLook: DeadlineLook | null = null;
  /** The deadline each due race was looked before (`lookBeforePlaying`): once a deadline, however many ticks find it due. */
  private readonly lookedBefore = new Map<string, number>();
  /** This process's name among the processes that look before mail races' deadlines (`deadline_lookers`). */
  private readonly looker = newToken();
  /** When this process last said it looks before mail races' deadlines; and the saying under way. */
  private lookingSaidAt = -Infinity;
  private sayingLooking: Promise<void> | null = null;
  /** The deadline of each mail race left to a looker that this process played past `LEFT_TO_LOOKER_MS` (told once). */
  private readonly playedWithoutLooker = new Map<string, number>();
  /** The database's only writer for ever (SQLite): no other process to leave a deadline to, nor to tell. */
  private readonly onlyWriter: boolean;

  constructor(o: RaceServiceOptions) {
    this.clock = o.clock;
    this.published = o.published;
    this.drafted = o.drafted;
    this.draftGate = new DraftGate(o.drafts);
    this.planner = o.planner ?? inProcessPlanner;
    this.readCourse = o.readCourse ?? (async (json) => courseFromJson(json));
    this.takeoverMs = o.takeoverMs ?? (this.planner.budgetMs ?? 0) + 5000;
    this.wantBots = o.wantBots;
    this.tookBots = o.tookBots;
    this.sharedBots = o.sharedBots;
    this.repo = new RaceRepository(o.db, new RaceCache(typeof o.alone === 'function' ? o.alone : () => o.alone === true));
    this.onlyWriter = o.alone === true;
    this.auth = new Auth(this.repo);
    this.setups = new RaceSetups(o.course);
    this.reads = new ReadModels(this.repo, this.setups);
    this.moderation = new Moderation({
      repo: this.repo, auth: this.auth, clock: this.clock,
      commit: (race, entries, change) => this.commit(race, entries, change),
      playNow: (id, turn) => this.adjudicate(id, true, turn),
      rematch: (got) => this.rematchOf(got),
    });
    this.bus.setMaxListeners(0);
  }

  /** A race's course: a shipped one by name, or the race's own (kept as JSON with the race). */
  courseOf(row: Pick<RaceRow, 'course'> & Partial<Pick<RaceRow, 'id' | 'course_json'>>): Course {
    return this.setups.courseOf(row);
  }

  /** The engine's setup of a race: its board, rule set and settings. */
  setupOf(row: Pick<RaceRow, 'course' | 'rules' | 'settings'> & Partial<Pick<RaceRow, 'id' | 'course_json'>>): Setup {
    return this.setups.setupOf(row);
  }

  /** The repository's versioned commit, then the announcement of what it committed. */
  private async commit(race: Pick<RaceRow, 'id' | 'version' | 'last_seq'>, entries: readonly Omit<Entry, 'seq'>[], change?: Change): Promise<number | null> {
    const last = await this.commitOrDoubt(race, entries, change);
    if (last !== null && entries.length) this.announce(race.id, last, withSeqs(entries, last), undefined, noteOf(race.version + 1, entries, change));
    return last;
  }

  /**
   * The repository's versioned commit. One that fails other than by another change coming first
   * may have committed all the same: the connection was lost after its commit went out (PostgreSQL
   * restarting, a network cut, a statement timeout while PostgreSQL's answer is on its way), and
   * the request is answered 503 with the change in the database, announced to no stream and no
   * other process. `inDoubt` looks once the database answers.
   */
  private async commitOrDoubt(race: Pick<RaceRow, 'id' | 'version' | 'last_seq'>, entries: readonly Omit<Entry, 'seq'>[], change?: Change): Promise<number | null> {
    try {
      return await this.repo.commitChange(race, entries, change);
    } catch (e) {
      if (!(e instanceof StaleChange)) this.inDoubt(race.id, race.last_seq);
      throw e;
    }
  }

  /**
   * A commit of race `id` after `before` whose outcome is unknown (`commitOrDoubt`): the race's last
   * seq is read, again with a growing pause while the database is away (for about 5 minutes), and
   * when the race went past `before` it is announced (without its entries: the streams and the other
   * processes read them). Before 2026-11-30 such a commit stayed unannounced until the race's next
   * one: a seat's orders taken in the database but answered 503 were shown to nobody, nor was a turn
   * played by such a commit, for as long as the race then waited (its deadline).
   */
  private inDoubt(id: string, before: number): void {
    const looking = this.doubted.get(id);
    if (looking) {
      looking.before = Math.min(looking.before, before);
      looking.count++;
      return;
    }
    const doubt = { before, count: 1 };
    this.doubted.set(id, doubt);
    void (async () => {
      try {
        for (let tries = 1; tries <= DOUBT_TRIES; tries++) {
          await new Promise<void>((resolve) => setTimeout(resolve, Math.min(100 * 2 ** (tries - 1), 5000)).unref());
          const count = doubt.count;
          const last = await this.repo.lastSeq(id).catch(() => null);
          if (last === null) continue;
          if (last > doubt.before) {
            this.announce(id, last);
            doubt.before = last;
          }
          // Another commit fell in doubt while this read was on its way: read once more for it.
          if (doubt.count === count) return;
        }
      } finally {
        this.doubted.delete(id);
      }
    })();
  }

  /**
   * A play this process committed, ending at `last`, as the streams are handed it: its replay and
   * report made from what this process had (the read models keep them too), when it had all of it.
   */
  private handOver(id: string, play: Play | undefined, last: number, entries: readonly Entry[]): HandedPlay | undefined {
    const played = play?.played;
    if (!played) return undefined;
    const first = last - play.entries.length + 1;
    const ended = [...entries].reverse().find((e) => e.kind === 'game' && e.event.type === 'turnEnded');
    if (!ended) return undefined;
    const turn = ended.turn;
    return { endedSeq: ended.seq, frame: () => ({ turn, ...this.reads.handOver(id, turn, first, played) }) };
  }

  /**
   * Runs `work`, which reads through `repo` and makes at most one change, through `commit` (the
   * versioned commit, its own short transaction): what it commits is announced at once. If another
   * change of the race came first, nothing is committed and `STALE` given. The reads are not part
   * of the commit's transaction: the commit is checked against the version they read, so it cannot
   * build on anything older, and no pool connection is held while the work reads, or plays a turn
   * on the event loop, or waits for it.
   *
   * A race kept in memory is taken as it is, without a look at its version, even while other
   * processes share the database (repository.ts `trusting`): a change made from a copy gone stale
   * commits nothing (`STALE`, and the caller makes it again from a fresh read). Work that ends
   * without a commit (a refusal, nothing to do) may have judged from a stale copy, so its answer
   * stands only once the version is seen unchanged; else the work runs again, reading the race.
   */
  private async versioned<T>(work: (repo: RaceRepository, commit: Committer) => Promise<T>): Promise<T | typeof STALE> {
    let committed = false;
    const run = (repo: RaceRepository) => work(repo, async (race, entries, change, play) => {
      committed = true;
      const last = await this.commitOrDoubt(race, entries, change);
      if (last === null) throw new StaleChange();
      if (entries.length) {
        const stored = withSeqs(entries, last);
        this.announce(race.id, last, stored, this.handOver(race.id, play, last, stored), noteOf(race.version + 1, entries, change, play && last - play.entries.length + 1));
      }
      return last;
    });
    try {
      const trusting = this.repo.trusting();
      const out = await run(trusting);
      if (committed || !(await trusting.uncheckedMoved())) return out;
      return await run(this.repo);
    } catch (e) {
      if (e instanceof StaleChange) return STALE;
      throw e;
    }
  }

  /** The race's bots and their levels. */
  private static bots(seats: readonly Pick<SeatRow, 'seat' | 'kind' | 'level'>[]): BotSeat[] {
    return seats.filter((x) => x.kind === 'bot').map((x) => ({ seat: x.seat, level: (x.level && isLevel(x.level) ? x.level : 'random') as Level }));
  }

  /** Tells the planner a turn was dealt, so that the bots may start deciding. */
  private dealt(id: string, setup: Setup, st: GameState, seats: readonly Pick<SeatRow, 'seat' | 'kind' | 'level'>[], race: Pick<RaceRow, 'deal' | 'seed'>): void {
    const bots = RaceService.bots(seats);
    if (!bots.length || st.phase !== 'programming') return;
    const seed = dealSeed(storedDeal(race));
    this.planner.dealt?.(id, st.turn, setup, st, bots, seed);
    const share = this.sharedBots;
    if (!share) return;
    void this.planner.whenMade?.(id, st.turn)?.then(() => {
      // Unless a later turn (or a rewind) came meanwhile: `decided` then would start another decision.
      const orders = this.planner.has?.(id, st.turn) ? this.planner.decided(id, st.turn, setup, st, bots, seed) : null;
      if (orders) share(id, st.turn, bots, orders);
    });
  }

  /**
   * Another process decided the orders of bots `bots` for turn `turn` of race `id` (it dealt the
   * turn): kept, so that the turn's last orders, if they arrive here, play it at once.
   */
  botsDecided(id: string, turn: number, bots: readonly BotSeat[], orders: Record<number, BotTurn>): void {
    this.botsOfOthers.delete(id);
    this.botsOfOthers.set(id, { turn, bots: botsKey(bots), orders });
    // A race's latest only, and so many races at most (the least recently decided go first).
    if (this.botsOfOthers.size > BOTS_OF_OTHERS) this.botsOfOthers.delete(this.botsOfOthers.keys().next().value!);
  }

  /** The bots' orders for the dealt turn `st` that another process decided (`botsDecided`), if they are in. */
  private othersBots(race: Pick<RaceRow, 'id'>, seats: readonly Pick<SeatRow, 'seat' | 'kind' | 'level'>[], st: GameState): Record<number, BotTurn> | null {
    const d = this.botsOfOthers.get(race.id);
    return d && d.turn === st.turn && d.bots === botsKey(RaceService.bots(seats)) ? d.orders : null;
  }

  /**
   * Creates a race and begins its first turn. Seats of one `player` share one invite link. A race
   * that follows another (`after`, its moderator key) joins its series and seats its robots by
   * 001's picks from that race (001 L333-351): a start per robot goes in pick order. With an
   * `idempotencyKey` (race-keys.ts), a request sent again is answered as the first was, making no
   * second race; the key is stored with the race, in its transaction.
   */
  async create(body: unknown, idempotencyKey?: string): Promise<Answer<Created>> {
    if (idempotencyKey === undefined) return this.createRace(body);
    const keyed = { key: idempotencyKey, hash: keyHash(idempotencyKey), body: bodyHash(body) };
    const earlier = await this.createdWith(keyed);
    if (earlier) return earlier;
    try {
      return await this.createRace(body, keyed);
    } catch (e) {
      if (!(e instanceof KeyTaken)) throw e;
      // Another request with the key came first (a retry sent while this one was in flight).
      return (await this.createdWith(keyed)) ?? no(409, 'idempotency-key', 'another request with this Idempotency-Key is being answered; try again');
    }
  }

  /**
   * What the creation first sent with an Idempotency-Key answered, while the key is kept
   * (race-keys.ts): for the same body, the same answer; for another, a refusal (422: the key is
   * the first request's, not this one's); null for a key not kept.
   */
  private async createdWith(k: { key: string; hash: string; body: string }): Promise<Answer<Created> | null> {
    const row = await this.repo.raceKey(k.hash, this.clock.now() - KEY_TTL_MS);
    if (!row) return null;
    if (row.body_hash !== k.body) return no(422, 'idempotency-key', 'this Idempotency-Key came with another body: a key is for one race (send the same body again, or a new key for a new race)');
    return yes(unseal<Created>(k.key, row.answer));
  }

  private async createRace(body: unknown, keyed?: { key: string; hash: string; body: string }, rematch?: RematchOf): Promise<Answer<Created>> {
    // A course of the race's own is read first, off the event loop (`readCourse`), and the request
    // then as a whole, in its order (its refusals come as they would with the course read in it).
    // A rematch's was read for the race it follows.
    const own = rematch?.course ? { ok: true as const, value: rematch.course } : isObject(body) && isObject(body.course) ? await this.readCourse(body.course) : undefined;
    if (own === null) return no(503, 'course', 'the server is busy checking other courses of races\' own: nothing was created; send the race again in a few seconds');
    const read = readRaceRequest(body, (name) => this.setups.shippedCourse(name), () => (own!.ok ? yes(own!.value) : no(422, own!.error.field, own!.error.message)));
    if (!read.ok) return read;
    const req = read.value;
    const course = req.course;
    const deal = req.deal;
    const seed = dealSeed(deal);
    let seats = req.seats;
    let series: string | null = null;
    if (req.after) {
      const prev = await this.auth.moderator(req.after.race, req.after.moderatorKey);
      if (!prev.ok) return no(prev.refusal.status === 404 ? 422 : prev.refusal.status, 'after', prev.refusal.message);
      if (prev.value.race.status !== 'over') return no(409, 'after', `race "${req.after.race}" is not over yet`);
      series = prev.value.race.series ?? prev.value.race.id;
      const names = stateOf(prev.value.race).robots.map((r) => r.name);
      const stats = raceStats(names, await this.repo.gameEvents(req.after.race));
      // The picks as the last race's end announced them (its own seed breaks the ties: the end mail
      // lists them), less those not racing again; the newcomers after them.
      const picks = startingPicks(stats, seats.filter((s) => !names.includes(s.name)).map((s) => s.name), prev.value.race.seed);
      seats = picks.filter((name) => seats.some((s) => s.name === name)).map((name) => seats.find((s) => s.name === name)!);
    }
    const row0 = { id: '', course: req.courseName ?? '', course_json: req.courseJson === null ? null : JSON.stringify(req.courseJson), rules: req.rules, settings: JSON.stringify(req.settings) };
    // The course as the request was read (a course of the race's own parsed once, not again here).
    const setup = RaceSetups.setupOn(course, row0);
    const plans = seats.map((s) => ({
      name: s.name, ...(s.dir !== undefined ? { dir: s.dir } : {}), ...(s.level ? { level: s.level } : {}),
      ...(s.options ? { options: s.options } : {}), ...(s.lives !== undefined ? { lives: s.lives } : {}), ...(s.damage !== undefined ? { damage: s.damage } : {}), ...(s.start ? { start: s.start } : {}),
    }));
    // The bots' starting facings are chosen by the planner (the pool: on a thread, off the event
    // loop; the strong bots' choice builds the course's maps) and given to the driver as their `dir`.
    const faced = this.planner.facings ? await this.planner.facings(setup, course, plans, seed) : {};
    const placed = entrants(setup, course, plans.map((p, i) => (faced[i] !== undefined ? { ...p, dir: faced[i] } : p)), seed);
    if (!placed.ok) return no(422, placed.error.field, `course "${course.name}": ${placed.error.message}`);
    const started = startRace(setup, placed.value, seed);
    if (!started.ok) return no(422, started.error.field.replace(/^(?:robots|entrants)\[/, 'seats['), started.error.message);
    const { created, dealt: begun } = started.value;
    const id = newToken().slice(0, 12);
    const moderatorKey = newToken();
    // One invite per person: seats of one player share it (000 L40). A seat raced by e-mail has
    // none: whoever holds an invite could take the seat and read its hand, so nobody is given one
    // but its person, whose mails carry the seat's secret.
    const byPlayer = new Map<string, string>();
    const invites = seats.map((s) => {
      if (s.kind !== 'human' || s.email) return null;
      if (!s.player) return newToken();
      if (!byPlayer.has(s.player)) byPlayer.set(s.player, newToken());
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
    const race: RaceRow = {
      id, created_at: now, course: courseLabel, rules: req.rules, settings: row0.settings, policy: JSON.stringify(req.policy),
      moderator_hash: rematch ? rematch.moderatorHash : hashSecret(moderatorKey), state: JSON.stringify(begun.state), version: 1, last_seq: entries.length,
      deadline_at: deadlineAt, paused_left: null, status: 'running', seed: dealNumber(deal), deal: JSON.stringify(deal),
      course_json: row0.course_json, unattended: req.unattended, series, series_seq: null, play_by: null,
    };
    const mail = seats.flatMap((s, i) => (s.email ? [{ race_id: id, seat: i, email: s.email, secret: newMailSecret() }] : []));
    const webTokens = new Map(mail.map((m) => [m.seat, mailWebToken(m.secret)]));
    const seatRows = seats.map((s, i) => ({
      race_id: id, seat: i, name: s.name, kind: s.kind, level: s.level, token_hash: webTokens.has(i) ? hashSecret(webTokens.get(i)!) : '', invite_hash: rematch ? rematch.invites[i]! : invites[i] ? hashSecret(invites[i]!) : '',
      first_timer: s.firstTimer ? 1 : 0, follow: s.followWhenOut ? 1 : 0, robot: s.robot,
    }));
    const answer: Created = { id, moderatorKey, ...(series ? { series } : {}), seats: seats.map((s, i) => ({ seat: i, name: s.name, kind: s.kind, invite: invites[i]!, email: s.email, ...(s.player ? { player: s.player } : {}), ...(s.team ? { team: s.team } : {}) })) };
    const key = keyed ? { row: { key_hash: keyed.hash, body_hash: keyed.body, race_id: id, answer: seal(keyed.key, answer), created_at: now }, expired: now - KEY_TTL_MS } : undefined;
    await this.repo.insertRace(race, seatRows, mail, entries, { race_id: id, turn: 1, before: JSON.stringify(created), dealt: JSON.stringify(begun.state), first_seq: null }, key, rematch?.id);
    if (row0.course_json !== null) this.setups.keep(id, course);
    // Its seats raced by e-mail, as stored: its seats' views read nothing for them.
    void this.reads.mailSeats(id, mail.map((m) => m.seat));
    this.dealt(id, setup, begun.state, seatRows, race);
    return yes(answer);
  }

  /**
   * A race over raced again: the same course, rules, settings, deadline and seats (names, bots,
   * robots, teams, first-timers), on a new deal, on its own (no series). Made once: the first to ask
   * (a seat's person, with the seat's token; or its moderator) makes it, and everyone after, on any
   * process, at once too, is answered the same race (`rematches`, keyed by the race: the second
   * insert finds the first's row and stores nothing). Nobody is given a way into another's seat:
   * each person's seats in the rematch are taken with the token of their seats in this race
   * (`rematchSeat`), and the moderator key of this race moderates the rematch.
   */
  private async rematchOf({ race, seats }: Loaded): Promise<Answer<Rematched>> {
    if (race.status !== 'over') return no(409, 'race', 'the race is not over yet: it is raced again once it is');
    const earlier = await this.repo.rematchOf(race.id);
    if (earlier !== undefined) return yes({ id: earlier, made: false });
    const { teams = {}, ...settings } = JSON.parse(race.settings) as { teams?: Record<string, string[]> };
    const teamOf = new Map(Object.entries(teams).flatMap(([team, names]) => names.map((name) => [name, team] as const)));
    const body = {
      course: race.course_json === null ? race.course : JSON.parse(race.course_json), rules: race.rules, settings,
      deadline: JSON.parse(race.policy), whenNoPersonLeft: race.unattended ?? 'play',
      seats: seats.map((s) => ({
        name: s.name, ...(s.kind === 'bot' ? { bot: s.level } : {}), ...(s.robot !== null ? { robot: s.robot } : {}),
        ...(teamOf.has(s.name) ? { team: teamOf.get(s.name) } : {}), ...(s.first_timer ? { firstTimer: true } : {}),
      })),
    };
    const of: RematchOf = {
      id: race.id, course: race.course_json === null ? undefined : this.courseOf(race), moderatorHash: race.moderator_hash,
      invites: seats.map((s) => (s.kind === 'human' ? s.token_hash || s.invite_hash : '')),
    };
    try {
      const made = await this.createRace(body, undefined, of);
      return made.ok ? yes({ id: made.value.id, made: true }) : made;
    } catch (e) {
      if (!(e instanceof RematchTaken)) throw e;
      // Another request came first (another seat's person, on this process or another).
      return yes({ id: (await this.repo.rematchOf(race.id))!, made: false });
    }
  }

  /**
   * A seat's person of a race over asks for its rematch (`rematchOf`: made by the first to ask) and
   * takes their seats in it, as a claim would (the same answer), with the token of their seats in
   * this race as the invite and the browser's own key: sent again, its answer lost, the same token.
   */
  rematch(id: string, seat: number, token: string | undefined, body: unknown): Promise<Answer<Rematched & Claimed>> {
    return this.inLine.run(id, async () => {
      if (!isObject(body) || Object.keys(body).join() !== 'browser') return no(422, 'body', 'expected {"browser": the browser\'s own key}');
      if (typeof body.browser !== 'string' || !BROWSER_KEY.test(body.browser)) return badBrowserKey();
      const got = await this.auth.seat(id, seat, { token });
      if (!got.ok) return got;
      const made = await this.rematchOf(got.value);
      if (!made.ok) return made;
      const claimed = await this.claim(made.value.id, { invite: token, browser: body.browser });
      if (claimed.ok) return yes({ ...made.value, ...claimed.value });
      // The seat's token opened its seat here, so its invite there is spent: by another browser.
      if (claimed.refusal.status === 401 && claimed.refusal.field === 'invite') return no(401, 'browser', `this seat's place in the rematch (race ${made.value.id}) was taken already, by the browser that pressed Rematch first with this seat's link: a seat is taken once, so open the rematch from that browser`);
      return claimed;
    });
  }

  /**
   * What anybody may see of a race, with its clock while it waits for the replay (ready.ts).
   * `seen`: the last seq the asker has seen (its stream's); a race kept here that reaches it is
   * answered without a look at its version (repository.ts `load`).
   */
  async view(id: string, seen?: number) {
    const got = await this.repo.load(id, seen === undefined ? {} : { seen });
    if (!got) return no(404, 'race', `no race "${id}"`);
    return yes({ ...(await this.reads.view(got)), clock: await this.replayClock(got) });
  }

  /** The current turn's clock while it waits for the people to watch the replay (ready.ts); null when it runs. */
  private async replayClock(got: Loaded) {
    const { race, seats } = got;
    if (race.status !== 'running' || JSON.parse(race.policy).kind !== 'live') return null;
    const st = stateOf(race);
    const people = seats.filter((x) => x.kind === 'human' && st.robots[x.seat]?.status !== 'out').map((x) => x.seat);
    // The turn's entries as far as they tell the clock: kept with the race, read when not.
    return clockView(waitingClock((await this.repo.turnLog(got, st.turn)).clock, this.clock.now()), people);
  }

  /**
   * A seat's person has watched (or skipped) the replay of the turn just played (`turn` is the turn
   * now being programmed). In a live race the programming clock starts once every person still
   * racing has, or at the latest when the wait runs out (ready.ts). The seats of the same player are
   * ready together. Saying it again, or when the clock runs already, changes nothing.
   */
  ready(id: string, seat: number, token: string | undefined, body: unknown): Promise<Answer<{ turn: number; clockStarted: boolean; deadlineAt: number | null }>> {
    return this.inLine.run(id, () => this.readyNow(id, seat, token, body));
  }

  private async readyNow(id: string, seat: number, token: string | undefined, body: unknown, attempt = 1): Promise<Answer<{ turn: number; clockStarted: boolean; deadlineAt: number | null }>> {
    const got = await this.auth.seat(id, seat, { token });
    if (!got.ok) return got;
    const { race, seats } = got.value;
    if (!isObject(body) || !Number.isInteger(body.turn)) return no(422, 'turn', 'expected {"turn": N}: the turn the seat is ready to program');
    const extra = Object.keys(body).find((k) => k !== 'turn');
    if (extra) return no(422, extra, 'unknown field (expected turn)');
    if (race.status !== 'running') return no(409, 'race', 'the race is over');
    const st = stateOf(race);
    if (body.turn !== st.turn) return no(409, 'turn', `the race is at turn ${st.turn}`);
    const clock = await this.replayClock(got.value);
    if (!clock) return yes({ turn: st.turn, clockStarted: true, deadlineAt: race.deadline_at });
    const mine = seats.filter((x) => x.token_hash === seats[seat]!.token_hash).map((x) => x.seat).filter((x) => clock.waitingFor.includes(x));
    if (!mine.length) return yes({ turn: st.turn, clockStarted: false, deadlineAt: race.deadline_at });
    const all = clock.waitingFor.every((x) => mine.includes(x));
    const left = seats.filter((x) => x.kind === 'human' && st.robots[x.seat]!.status !== 'out').map((x) => ({ firstTimer: x.first_timer === 1 }));
    const deadlineAt = all ? turnDeadline(JSON.parse(race.policy), this.setupOf(race).settings, left, this.clock.now()) : race.deadline_at;
    const events: RaceEvent[] = [{ type: 'ready', seats: mine }, ...(all ? [{ type: 'clockStarted' as const, at: deadlineAt! }] : [])];
    const committed = await this.commit(race, events.map((event) => ({ turn: st.turn, kind: 'race' as const, event })), { set: { deadline_at: deadlineAt } });
    if (committed === null) {
      if (attempt < 5) return this.readyNow(id, seat, token, body, attempt + 1);
      return no(409, 'race', 'the race is changing too fast; try again');
    }
    return yes({ turn: st.turn, clockStarted: all, deadlineAt });
  }

  /**
   * A seat's draft while its person programs: how many of its open registers are filled (a count,
   * never a card), relayed to every stream of the race and stored in no database (drafts.ts). Refused once
   * the seat's orders are in or the turn has moved on, and beyond a few a second.
   */
  async draft(id: string, seat: number, token: string | undefined, body: { turn: number; filled: number }): Promise<Answer<Draft>> {
    const got = await this.auth.seat(id, seat, { token });
    if (!got.ok) return got;
    const { race } = got.value;
    if (race.status !== 'running') return no(409, 'race', 'the race is over');
    const st = stateOf(race);
    if (body.turn !== st.turn) return no(409, 'turn', `the race is at turn ${st.turn}`);
    if (!needsProgram(st, seat)) return no(409, 'draft', 'this seat programs no register this turn');
    const open = [1, 2, 3, 4, 5].filter((reg) => !(st.robots[seat]!.locked & (1 << (reg - 1)))).length;
    if (body.filled > open) return no(422, 'filled', `this seat has ${open} open register${open === 1 ? '' : 's'}`);
    if ((await this.repo.seatOrders(id, st.turn, seat)) !== null) return no(409, 'orders', 'this seat\'s orders for the turn are in: the others see its registers full');
    if (!this.draftGate.take(id, seat, st.turn, this.clock.now())) return no(429, 'draft', 'too many drafts from this seat; send one when the program changes');
    const draft: Draft = { turn: st.turn, seat, filled: body.filled };
    this.relayDraft(id, draft);
    this.drafted?.(id, draft);
    return yes(draft);
  }

  /** Hands a seat's draft to this process's streams (drafts of other processes come here by NOTIFY). */
  relayDraft(id: string, draft: Draft): void {
    this.draftTable.note(id, draft);
    this.bus.emit('draft', id, draft);
  }

  /** The latest draft of each seat of race `id`, of the turn drafted last (kept in memory: drafts.ts). */
  drafts(id: string): Draft[] {
    return this.draftTable.of(id);
  }

  /** A race's course, shipped or its own, with its composed board for drawing. */
  raceCourse(id: string) {
    return this.reads.raceCourse(id);
  }

  /** A series of races: its races in order and the standings across those that are over. */
  series(id: string) {
    return this.reads.series(id);
  }

  /** What a seat may see: the race, its own hand and its own orders; `seen` as for `view`. */
  async seat(id: string, seat: number, secret: string | undefined, seen?: number) {
    const got = await this.auth.seat(id, seat, { token: secret }, undefined, seen);
    if (!got.ok) return got;
    const v = await this.reads.seat(got.value, seat);
    return v.ok ? yes({ ...v.value, clock: await this.replayClock(got.value) }) : v;
  }

  /**
   * A seat chooses its robot (one of the eight designs, none another seat races) while the first
   * turn is programmed; everybody's page hears of it (`robotChosen`).
   */
  chooseRobot(id: string, seat: number, secret: string | undefined, body: unknown): Promise<Answer<{ seat: number; robot: number }>> {
    return this.inLine.run(id, () => this.chooseRobotNow(id, seat, secret, body));
  }

  private async chooseRobotNow(id: string, seat: number, secret: string | undefined, body: unknown): Promise<Answer<{ seat: number; robot: number }>> {
    const robot = isObject(body) ? body.robot : undefined;
    if (!isObject(body) || Object.keys(body).some((k) => k !== 'robot')) return no(422, 'body', 'expected {"robot": a design, 0 to 7}');
    if (!Number.isInteger(robot) || (robot as number) < 0 || (robot as number) >= DESIGNS) return no(422, 'robot', `expected a robot design, 0 to ${DESIGNS - 1}`);
    const got = await this.auth.seat(id, seat, { token: secret });
    if (!got.ok) return got;
    const { race, seats } = got.value;
    const st = stateOf(race);
    if (race.status !== 'running' || st.turn !== 1 || st.phase !== 'programming') return no(409, 'robot', 'a robot is chosen before the first turn is played');
    const holder = seats.find((x) => x.seat !== seat && (x.robot ?? x.seat) === robot);
    if (holder) return no(409, 'robot', `${holder.name} races that robot`);
    const named = namedDesign(seats.find((x) => x.seat === seat)!.name);
    if (named !== null && named !== robot) return no(409, 'robot', `a seat named after robot ${named} races it`);
    const committed = await this.commit(race, [{ turn: st.turn, kind: 'race', event: { type: 'robotChosen', seat, robot: robot as number } }], {
      writes: (q) => [q.updateTable('seats').set({ robot: robot as number }).where('race_id', '=', id).where('seat', '=', seat)],
      seatsChanged: true,
    });
    if (committed === null) return no(409, 'race', 'the race changed meanwhile; try again');
    return yes({ seat, robot: robot as number });
  }

  /**
   * A person takes their seats with the invite of their link and gets a token of their own, which
   * nobody else is given. The invite is spent then: a second use, anybody's, is refused, so a
   * person who took their seat knows nobody else holds it. A claim sent with the browser's own key
   * (`browser`) may be sent again by that browser (its answer lost): it gets the same token.
   * (A seat raced by e-mail has no invite: its person's mails link its page with its own token,
   * auth.ts `mailWebToken`.)
   */
  claim(id: string, body: unknown): Promise<Answer<Claimed>> {
    return this.inLine.run(id, () => this.claimNow(id, body));
  }

  private async claimNow(id: string, body: unknown, attempt = 1): Promise<Answer<Claimed>> {
    const got = await this.auth.claimable(id, body);
    if (!got.ok) return got;
    const { race, opened: seats, token, taken } = got.value;
    if (taken) return yes({ token, seats, openedBefore: await this.openedBefore(id, seats) });
    const turn = stateOf(race).turn;
    const committed = await this.commit(race, [{ turn, kind: 'race', event: { type: 'seatTaken', seats } }], {
      writes: (q) => [
        q.updateTable('seats').set({ token_hash: hashSecret(token), invite_hash: '' }).where('race_id', '=', id).where('seat', 'in', seats),
        q.insertInto('seat_holds').values(seats.map((seat) => ({ race_id: id, seat, from_turn: turn, to_turn: null, to_seq: null }))),
      ],
      seatsChanged: true,
      seats: (kept) => kept.map((x) => (seats.includes(x.seat) ? { ...x, token_hash: hashSecret(token), invite_hash: '' } : x)),
    });
    // Another change of the race came first (another seat's claim or orders, a turn played, on
    // another process): the claim is judged again from the race as it is now (its invite may be
    // spent meanwhile: 401; the same browser's claim taken there: its token). Before 2026-12-01
    // it was refused 409, a third of the claims of eight people at once on two processes.
    if (committed === null) return attempt < 5 ? this.claimNow(id, body, attempt + 1) : no(409, 'race', 'the race is changing too fast; send the claim again');
    return yes({ token, seats, openedBefore: await this.openedBefore(id, seats) });
  }

  /**
   * A seat's person makes their link the seat's only one: a new token for the seats their token
   * opens, and the old one opens them no more (the link on their other devices, or a link somebody
   * gave them instead of an invite, which that somebody holds too). The new token is made from the
   * old one and the browser's own key, so the request sent again, its answer lost, gets the same.
   * Not for a seat raced by e-mail: its mails' link is made from its mail secret.
   */
  renewToken(id: string, seat: number, token: string | undefined, body: unknown): Promise<Answer<{ token: string; seats: number[] }>> {
    return this.inLine.run(id, () => this.renewTokenNow(id, seat, token, body));
  }

  private async renewTokenNow(id: string, seat: number, token: string | undefined, body: unknown, attempt = 1): Promise<Answer<{ token: string; seats: number[] }>> {
    const browser = isObject(body) ? body.browser : undefined;
    if (!isObject(body) || Object.keys(body).join() !== 'browser') return no(422, 'body', 'expected {"browser": the browser\'s own key}');
    if (typeof browser !== 'string' || !BROWSER_KEY.test(browser)) return badBrowserKey();
    const renewed = token === undefined ? undefined : claimToken(token, browser);
    const got = await this.auth.seat(id, seat, { token });
    if (!got.ok) {
      // Sent again, its first answer lost: the token it made opens the seat now.
      const again = renewed === undefined ? got : await this.auth.seat(id, seat, { token: renewed });
      if (!again.ok) return got;
      const hash = again.value.seats[seat]!.token_hash;
      return yes({ token: renewed!, seats: again.value.seats.filter((x) => x.token_hash === hash).map((x) => x.seat) });
    }
    const { race, seats } = got.value;
    if (race.status !== 'running') return no(409, 'race', 'the race is over');
    if ((await this.repo.mailSecret(id, seat)) !== null) return no(409, 'seat', 'this seat is raced by e-mail: its link comes in its mails, made from its mail secret');
    const hash = seats[seat]!.token_hash;
    const mine = seats.filter((x) => x.token_hash === hash).map((x) => x.seat);
    const next = hashSecret(renewed!);
    const committed = await this.commit(race, [{ turn: stateOf(race).turn, kind: 'race', event: { type: 'tokenRenewed', seats: mine } }], {
      writes: (q) => [q.updateTable('seats').set({ token_hash: next }).where('race_id', '=', id).where('seat', 'in', mine)],
      seatsChanged: true,
      seats: (kept) => kept.map((x) => (mine.includes(x.seat) ? { ...x, token_hash: next } : x)),
    });
    if (committed === null) return attempt < 5 ? this.renewTokenNow(id, seat, token, body, attempt + 1) : no(409, 'race', 'the race is changing too fast; send it again');
    return yes({ token: renewed!, seats: mine });
  }

  /**
   * When tokens now void held these seats (Claimed `openedBefore`): their holds ended by the
   * moderator's new invite, in the order of those invites (`seat_holds`, read by seat: before
   * 2026-12-01 the claim read the race's whole log for them).
   */
  private async openedBefore(id: string, seats: readonly number[]): Promise<Claimed['openedBefore']> {
    return (await this.repo.endedHolds(id, seats)).map((r) => ({ seat: r.seat, from: r.from_turn, to: r.to_turn! }));
  }

  /**
   * A seat says whether it keeps receiving the turn reports once its robot is out of the race
   * (the mail word `follow` / `stop following`; a seat created with `followWhenOut` starts
   * following). Only while the race runs; nothing of the game changes, so no entry is logged.
   */
  async follow(id: string, seat: number, who: SeatCredentials, follow: boolean): Promise<Answer<{ seat: number; follow: boolean; out: boolean }>> {
    const got = await this.auth.seat(id, seat, who);
    if (!got.ok) return got;
    const { race } = got.value;
    if (race.status !== 'running') return no(409, 'race', 'the race is over');
    if ((await this.repo.mailSecret(id, seat)) === null) return no(409, 'follow', 'this seat has no e-mail address, so no turn mails come to it');
    await this.repo.setFollow(id, seat, follow);
    const st = stateOf(race);
    return yes({ seat, follow, out: st.robots[seat]?.status === 'out' });
  }

  /**
   * A race as the mail gateway (mail/) writes its mails from it: as it stands, with its seats and
   * its seats raced by e-mail (each one's address and secret); null for no race.
   */
  async mailRace(id: string): Promise<MailRace | null> {
    // Read afresh: a seat's `follow` changes without a new version of the race.
    const got = await this.repo.load(id, { fresh: true });
    if (!got) return null;
    const { race, seats } = got;
    return {
      id, state: JSON.parse(race.state) as GameState, status: race.status, deadlineAt: race.deadline_at, lastSeq: race.last_seq, policy: JSON.parse(race.policy),
      rules: race.rules, course: race.course, courseData: this.courseOf(race), setup: this.setupOf(race), seed: race.seed, series: race.series,
      seats: seats.map((x) => ({ seat: x.seat, name: x.name, kind: x.kind as 'human' | 'bot', follow: x.follow === 1, robot: x.robot ?? x.seat })),
      mail: (await this.repo.mailSeats(id)).map((m) => ({ seat: m.seat, email: m.email, secret: m.secret, webToken: mailWebToken(m.secret) })),
    };
  }

  /**
   * The races with a seat raced by e-mail, over or not, each with the seq its entries end at, its
   * status and its deadline: the races the mail gateway writes mails for (one list a round).
   */
  mailRaces(): Promise<MailRaceHead[]> {
    return this.repo.mailRaces();
  }

  /** The running races with a seat raced from address `email`, whatever its case (a player who wrote without a seat code). */
  mailRacesOf(email: string): Promise<string[]> {
    return this.repo.mailRacesOf(email);
  }

  /** The races whose seat `seat` is raced by e-mail and whose id is `id` regardless of case (a mail's address may change its case). */
  mailSeatRaces(id: string, seat: number): Promise<string[]> {
    return this.repo.mailSeatRaces(id, seat);
  }

  /** The seats whose orders for a turn are in, in order. */
  async ordersIn(id: string, turn: number): Promise<number[]> {
    return [...(await this.repo.orders(id, turn)).keys()].sort((a, b) => a - b);
  }

  /**
   * A seat's orders for a turn as they stand (sent, corrected by the moderator, or filled), read by
   * the engine against the turn as dealt as the seat's own view reads them (`storedOrders`): what no
   * longer reads is shown as it will be played and named in `unread`. Null for none.
   */
  async ordersOf(id: string, turn: number, seat: number): Promise<{ orders: SeatOrders; unread: readonly { field: string; message: string }[] } | null> {
    const stored = await this.repo.seatOrders(id, turn, seat);
    if (stored === null) return null;
    const race = await this.repo.race(id);
    const dealt = await this.repo.turn(id, turn);
    if (!race || !dealt) return null;
    const read = storedOrders(this.setups.setupOf(race), JSON.parse(dealt.before) as GameState, seat, rowBody(stored));
    return { orders: read.orders, unread: rowUnread(stored, read.unread) };
  }

  /**
   * A seat's orders for the turn they name (`turn`), or the moderator's correction: checked, stored
   * and answered with what was understood. Orders for another turn than the current one, or that
   * arrive once the deadline has passed (decided when they commit), are refused and change nothing;
   * mailed orders (`mailSecret`) arrive when their mail reached the mailbox (`arrivedAt`), so those
   * read after the deadline, before its turn is played, are taken.
   * They can be replaced until the turn is played. In a live race the last person's orders play the
   * turn in the same transaction that stores them.
   */
  submit(id: string, seat: number, who: { token?: string; moderatorKey?: string; mailSecret?: string; arrivedAt?: number }, body: unknown): Promise<Answer<{ turn: number; orders: SeatOrders }>> {
    return this.inLine.run(id, () => this.submitNow(id, seat, who, body));
  }

  private async submitNow(id: string, seat: number, who: { token?: string; moderatorKey?: string; mailSecret?: string; arrivedAt?: number }, body: unknown, attempt = 1): Promise<Answer<{ turn: number; orders: SeatOrders }>> {
    // Everything the PUT writes is one transaction, checked against the version of the race it
    // read: another change first, and it is checked again (server/src/lean.test.ts counts its statements).
    const done = await this.versioned(async (repo, commit) => {
      const got = who.moderatorKey ? await this.auth.moderator(id, who.moderatorKey, repo) : await this.auth.seat(id, seat, who, repo);
      if (!got.ok) return got;
      const { race, seats } = got.value;
      if (!seats[seat]) return no(404, 'seat', `race "${id}" has no seat ${seat}`);
      const turn = readTurn(body);
      if (!turn.ok) return turn;
      const revised = readRevision(body);
      if (!revised.ok) return revised;
      const { revision } = revised.value;
      if (race.status !== 'running') return no(409, 'race', 'the race is over');
      const st = stateOf(race);
      // The cards the turn showed of the seat's hand, for a correction (null: the seat's own orders).
      let shown: Card[] | null = null;
      if (who.moderatorKey !== undefined) {
        // The moderator key opens no seat: it corrects a seat's orders only on a turn taken back
        // (a rewound turn has been played before), and the correction is logged for everybody.
        const at = await repo.turnPlayedAt(id, st.turn);
        if (at === undefined || at === null) return no(403, 'moderatorKey', `the moderator key opens no seat; a seat's orders may be corrected only on a turn taken back with rewind, and turn ${st.turn} has not been played yet`);
        // Nor a hand: a correction uses only cards the turn showed when it was played (readCorrection).
        const events = (await repo.turnEntries(id, st.turn)).flatMap((e) => (e.kind === 'game' ? [e.event as GameEvent] : []));
        shown = shownCards(st, seat, events);
      }
      if (turn.value !== st.turn) return no(409, 'turn', `these orders are for turn ${turn.value}, but the race is at turn ${st.turn}`);
      if (st.phase !== 'programming') return no(409, 'turn', 'the turn is being played');
      const now = this.clock.now();
      // Mailed orders count from when they reached the mailbox (`arrivedAt`), read after the deadline
      // while its turn is not played yet (the look `beforeDeadlinePlay`); any other, from now.
      const arrived = who.mailSecret !== undefined && who.arrivedAt !== undefined ? Math.min(who.arrivedAt, now) : now;
      if (race.deadline_at !== null && race.deadline_at <= arrived) return no(409, 'deadline', `the deadline of turn ${st.turn} has passed; the turn is played with the orders that were in`);
      const setup = this.setups.setupOf(race);
      const orders = shown ? readCorrection(setup, st, seat, revised.value.orders, shown) : readOrders(setup, st, seat, revised.value.orders);
      if (!orders.ok) return no(422, orders.error.field, orders.error.message);
      // The orders held for the seat this turn, read with the race: the revision is checked against
      // them, and the commit only goes through at the race's version they were read at, so orders
      // another request (or process) stored meanwhile make it read and check again (`versioned`).
      const sent = await repo.turnOrders(got.value, st.turn);
      const held = revisionOf(sent.get(seat));
      // Without a revision (mail, the moderator's correction, a script) the orders replace those held
      // as the next revision: a page of the seat sees it pass its own and shows them (changed
      // elsewhere), and a late request of the web client, which always sends one, is still refused.
      // The orders held sent again are a repeat: they keep their revision.
      const at = (r: number): SeatOrders & { revision?: number } => (r ? { ...orders.value.written, revision: r } : orders.value.written);
      const heldJson = sent.has(seat) ? JSON.stringify(sent.get(seat)) : undefined;
      const kept = revision ?? (heldJson === JSON.stringify(at(held)) ? held : Math.min(held + 1, MAX_INT32));
      const mine = at(kept);
      const stored = JSON.stringify(mine);
      if (revision !== undefined && (revision < held || (revision === held && heldJson !== stored))) {
        return no(409, 'revision', `orders of revision ${held} for turn ${st.turn} are held for this seat, sent after these (revision ${revision}): these are not stored`);
      }
      const event: RaceEvent = who.moderatorKey !== undefined ? { type: 'corrected', seat, by: 'moderator' } : { type: 'submitted', seat };
      const store = (q: Kysely<Tables>) => q.insertInto('orders').values({ race_id: id, turn: st.turn, seat, body: stored, submitted_at: now })
        .onConflict((oc) => oc.columns(['race_id', 'turn', 'seat']).doUpdateSet({ body: stored, submitted_at: now }));
      const entries: Omit<Entry, 'seq'>[] = [{ turn: st.turn, kind: 'race', event }];
      let change: Change = { beforeDeadline: arrived, writes: (q) => [store(q)], orders: { turn: st.turn, seat, body: stored } };
      let play: Play | null = null;
      let waitForBots = false;
      if (JSON.parse(race.policy).kind === 'live') {
        // The Three Minute Rule filled this seat's program at random (004 L188): that stands.
        if (hurriedFill(sent.get(seat)) && who.moderatorKey === undefined) return no(409, 'deadline', `the Three Minute Rule's time for turn ${st.turn} is up: ${seats[seat]!.name}'s program was filled at random and stands`);
        sent.set(seat, mine);
        if (race.paused_left === null && allIn(seats, st, sent)) {
          // The last person's orders in: the turn is played and stored with them, in one
          // transaction, if the bots have decided; else the orders are stored and the turn is
          // played as soon as they have (no request waits on a bot).
          // Bots another process decides are not decided here too (botsElsewhere).
          const bots = this.botsElsewhere(race, seats, st) ? null : this.decidedBots(race, seats, setup, st);
          if (bots) {
            play = this.play(got.value, st, setup, sent, now, bots);
            const { set, writes, dealt } = play.change;
            entries.push(...play.entries);
            change = { beforeDeadline: arrived, set, ...(dealt ? { dealt } : {}), writes: (q, first) => [store(q), ...writes(q, first + 1)] };
          } else {
            // Played by this process once they have; by any process past play_by (this one may go away).
            waitForBots = true;
            change = { ...change, set: { play_by: now + this.takeoverMs } };
          }
        }
      }
      await commit(race, entries, change, play ?? undefined);
      return yes({ play, waitForBots, loaded: got.value, setup, st, mine });
    });
    if (done === STALE) {
      // Something else changed the race meanwhile (or its deadline passed): check the orders again against what it is now.
      if (attempt < 5) return this.submitNow(id, seat, who, body, attempt + 1);
      return no(409, 'race', 'the race is changing too fast; send the orders again');
    }
    if (!done.ok) return done;
    const { play, waitForBots, loaded, setup, st, mine } = done.value;
    if (play?.next) this.dealt(id, setup, play.next, loaded.seats, loaded.race);
    if (waitForBots) {
      if (this.botsElsewhere(loaded.race, loaded.seats, st)) this.askForBots(loaded, setup, st);
      else this.playWhenDecided(loaded, setup, st, false);
    }
    return yes({ turn: st.turn, orders: mine });
  }

  /**
   * Recompile (OPTIONS.md 2.22; 001 L227): before programming, the seat's robot discards its hand
   * for a new one and takes the damage. Orders already sent for the turn named the old cards, so
   * they are withdrawn. The deadline stays. The turn's dealt state becomes the one with the new
   * hand, so that a rewind of the turn plays it again from there.
   */
  recompile(id: string, seat: number, who: { token?: string; mailSecret?: string }): Promise<Answer<{ turn: number; hand: string[] }>> {
    return this.inLine.run(id, () => this.recompileNow(id, seat, who));
  }

  private async recompileNow(id: string, seat: number, who: { token?: string; mailSecret?: string }): Promise<Answer<{ turn: number; hand: string[] }>> {
    const got = await this.auth.seat(id, seat, who);
    if (!got.ok) return got;
    const { race } = got.value;
    if (race.status !== 'running') return no(409, 'race', 'the race is over');
    const st = stateOf(race);
    if (st.phase !== 'programming') return no(409, 'turn', 'the turn is being played');
    if (race.deadline_at !== null && race.deadline_at <= this.clock.now()) return no(409, 'deadline', `the deadline of turn ${st.turn} has passed`);
    // A program the Three Minute Rule filled at random stands: no new hand withdraws it.
    if (hurriedFill(await this.repo.seatOrders(id, st.turn, seat))) return no(409, 'deadline', `the Three Minute Rule's time for turn ${st.turn} is up: the program was filled at random and stands`);
    const setup = this.setups.setupOf(race);
    const res = recompile(setup, st, seat);
    if (!res.ok) return no(422, res.error.field, res.error.message);
    const entries = res.value.events.map((e) => ({ turn: st.turn, kind: 'game' as const, event: publicEvent(e, setup.settings) }));
    const committed = await this.commit(race, entries, {
      set: { state: JSON.stringify(res.value.state), play_by: null },
      writes: (q) => [
        q.deleteFrom('orders').where('race_id', '=', id).where('turn', '=', st.turn).where('seat', '=', seat),
        // The programs of the turn are written against the new hand: a rewind comes back to it.
        q.updateTable('turns').set({ dealt: JSON.stringify(res.value.state) }).where('race_id', '=', id).where('turn', '=', st.turn),
      ],
    });
    if (committed === null) return no(409, 'race', 'the race changed meanwhile; try again');
    return yes({ turn: st.turn, hand: res.value.state.robots[seat]!.hand.map(cardName) });
  }

  /**
   * The Three Minute Rule at its limit (004 L188): when first-timers are still programming, the
   * other late seats are filled at random (their orders are stored as "random", marked `hurried`:
   * they stand), and the turn waits for the first-timers until the policy's own deadline. Returns
   * true once that is committed (the transaction is `STALE` if another change came first), or
   * null when the turn is to be played now.
   */
  private async hurry(repo: RaceRepository, commit: Committer, race: RaceRow, seats: readonly Selectable<SeatRow>[], st: GameState, sent: ReadonlyMap<number, StoredOrders>, setup: Setup, policy: DeadlinePolicy): Promise<true | null> {
    const until = firstTimersDeadline(policy, setup.settings, race.deadline_at!);
    if (until === null) return null;
    const late = seats.filter((x) => x.kind === 'human' && !sent.has(x.seat) && needsProgram(st, x.seat));
    if (!late.some((x) => x.first_timer === 1)) return null;
    const earlier = await repo.turnEntries(race.id, st.turn);
    if (earlier.some((e) => e.event.type === 'hurried')) return null;
    const hurried = late.filter((x) => x.first_timer !== 1);
    const now = this.clock.now();
    const event: RaceEvent = { type: 'hurried', seats: hurried.map((x) => x.seat), at: until };
    await commit(race, [{ turn: st.turn, kind: 'race', event }], {
      set: { deadline_at: until },
      writes: (q) => hurried.map((x) => {
        // Orders with no program: every open register left to the random fill, read as any orders are.
        const read = readOrders(setup, st, x.seat, { turn: st.turn });
        if (!read.ok) throw new Error(`race ${race.id}, seat ${x.seat}: the Three Minute Rule's random fill was refused (${read.error.field}: ${read.error.message})`);
        const random: SeatOrders & HurriedFill = { ...read.value.written, hurried: true };
        return q.insertInto('orders').values({ race_id: race.id, turn: st.turn, seat: x.seat, body: JSON.stringify(random), submitted_at: now });
      }),
    });
    return true;
  }

  /**
   * Plays the current turn if it is due: its deadline has passed, or (live races) every person has
   * sent orders; with `force`, now; with `onlyTurn`, only if that is still the current turn (a
   * repeated request plays nothing more). Returns true if this call played it, `'soon'` when it is
   * to be played once the bots have decided (it never waits for them), false otherwise. Safe to
   * call from anywhere, at any time, from any number of processes: only one of them commits.
   */
  async adjudicate(id: string, force: boolean, onlyTurn?: number, attempt = 1): Promise<boolean | 'soon'> {
    const done = await this.versioned(async (repo, commit) => {
      const got = await repo.load(id);
      if (!got) return null;
      const { race, seats } = got;
      if (race.status !== 'running' || race.paused_left !== null) return null;
      const st = stateOf(race);
      if (st.phase !== 'programming') return null;
      // A request to play a given turn does nothing once that turn has been played.
      if (onlyTurn !== undefined && st.turn !== onlyTurn) return null;
      const now = this.clock.now();
      const sent = await repo.turnOrders(got, st.turn);
      const due = force || (race.deadline_at !== null && race.deadline_at <= now);
      if (!due && !(allIn(seats, st, sent) && JSON.parse(race.policy).kind === 'live')) return null;
      const setup = this.setups.setupOf(race);
      if (due && !force && race.deadline_at !== null) {
        const hurried = await this.hurry(repo, commit, race, seats, st, sent, setup, JSON.parse(race.policy));
        if (hurried !== null) return { kind: 'hurried' as const, hurried };
      }
      const bots = this.decidedBots(race, seats, setup, st);
      if (!bots) return { kind: 'wait' as const, got, setup, st };
      const play = this.play(got, st, setup, sent, now, bots);
      await commit(race, play.entries, play.change, play);
      return { kind: 'played' as const, play, got, setup };
    });
    // Another change came first (a ready, a moderator's, another process): look again.
    if (done === STALE) return attempt < 5 ? this.adjudicate(id, force, onlyTurn, attempt + 1) : false;
    if (!done) return false;
    if (done.kind === 'hurried') return done.hurried;
    if (done.kind === 'wait') {
      this.playWhenDecided(done.got, done.setup, done.st, force);
      return 'soon';
    }
    if (done.play.next) this.dealt(id, done.setup, done.play.next, done.got.seats, done.got.race);
    return true;
  }

  /**
   * Whether the race's bots for the dealt turn `st` are (most likely) decided by another process:
   * there are others (`wantBots`), the race has bots, and this process's planner is not deciding
   * them (the process that dealt the turn started them).
   */
  private botsElsewhere(race: Pick<RaceRow, 'id'>, seats: readonly Selectable<SeatRow>[], st: GameState): boolean {
    return !!this.wantBots && seats.some((x) => x.kind === 'bot') && !(this.planner.has?.(race.id, st.turn) ?? true) && !this.othersBots(race, seats, st);
  }

  /**
   * A turn to be played once its bots have decided, which another process decides: that one is
   * asked to play it (`botsWanted` there). With no answer (`botsTaken`) within HAND_OVER_MS (none
   * decides them: a process that restarted, or went away), they are decided and played here.
   */
  private askForBots(loaded: Loaded, setup: Setup, st: GameState): void {
    const id = loaded.race.id;
    if (this.askedForBots.get(id)?.turn === st.turn) return;
    clearTimeout(this.askedForBots.get(id)?.timer);
    const timer = setTimeout(() => {
      if (this.askedForBots.get(id)?.turn !== st.turn) return;
      this.askedForBots.delete(id);
      this.playWhenDecided(loaded, setup, st, false);
    }, HAND_OVER_MS);
    timer.unref();
    this.askedForBots.set(id, { turn: st.turn, timer });
    this.handOvers.askedFor++;
    this.wantBots!(id, st.turn);
  }

  /**
   * Another process took the last orders of turn `turn` of race `id` and asks for its bots
   * (`wantBots`): if this process's planner decides them, it says so (`tookBots`) and plays the
   * turn once they have decided.
   */
  botsWanted(id: string, turn: number): void {
    const ready = this.planner.whenDecided?.(id, turn);
    if (!ready) return;
    this.tookBots?.(id, turn);
    void ready.then(() => this.playLater(id, false, turn));
  }

  /** Another process plays turn `turn` of race `id` once its bots have decided: this one need not decide them. */
  botsTaken(id: string, turn: number): void {
    const asked = this.askedForBots.get(id);
    if (asked?.turn !== turn) return;
    clearTimeout(asked.timer);
    this.askedForBots.delete(id);
  }

  /** The bots' orders for the dealt turn `st`, if the planner has them (it never waits). */
  private decidedBots(race: Selectable<RaceRow>, seats: readonly Selectable<SeatRow>[], setup: Setup, st: GameState) {
    // Decided by the process that dealt the turn (`botsDecided`): not decided here a second time.
    const others = (this.planner.has?.(race.id, st.turn) ?? true) ? null : this.othersBots(race, seats, st);
    if (others) {
      this.handOvers.withShared++;
      return others;
    }
    return this.planner.decided(race.id, st.turn, setup, st, RaceService.bots(seats), dealSeed(storedDeal(race)));
  }

  /**
   * The turn `st` is to be played (every person's orders are in, its deadline passed, or the
   * moderator asked) but the bots have not decided: it is played once they have, or their budget
   * is over (the planner then gives the fallback). Asked again for the same turn, nothing more.
   */
  private playWhenDecided({ race, seats }: Loaded, setup: Setup, st: GameState, force: boolean): void {
    const waiting = this.waitingForBots.get(race.id);
    if (waiting && waiting.turn === st.turn && (waiting.force || !force)) return;
    this.waitingForBots.set(race.id, { turn: st.turn, force });
    void this.planner.ready(race.id, st.turn, setup, st, RaceService.bots(seats), dealSeed(storedDeal(race))).then(async () => {
      const w = this.waitingForBots.get(race.id);
      if (w?.turn !== st.turn) return;
      this.waitingForBots.delete(race.id);
      await this.playLater(race.id, w.force, st.turn);
    });
  }

  /** Plays a turn that waited for its bots; a failure (the database away) is tried again at the next tick. */
  private async playLater(id: string, force: boolean, turn: number): Promise<void> {
    try {
      await this.adjudicate(id, force, turn);
    } catch (e) {
      console.error(`race ${id}, turn ${turn}: playing it once the bots decided failed (${(e as Error).message}); tried again at the next tick`);
      this.retry.set(id, { turn, force });
    }
  }

  /**
   * After a start: plays (or, with bots, plays once they have decided) every live race's turn
   * whose people's orders are all in, which a process stopped before it could. Returns how many
   * were played at once.
   */
  async resume(): Promise<number> {
    let played = 0;
    for (const id of await this.repo.withOrdersIn()) if ((await this.adjudicate(id, false)) === true) played++;
    return played;
  }

  /**
   * The dealt turn `st` played with the orders `sent` and the bots' orders: its entries and the
   * change that stores it (the new state, the turn's first seq, the next turn), to be committed.
   */
  private play({ race, seats }: Loaded, st: GameState, setup: Setup, sent: ReadonlyMap<number, StoredOrders>, now: number, bots: Record<number, BotTurn>): Play {
    const id = race.id;
    const turn = st.turn;
    const policy: DeadlinePolicy = JSON.parse(race.policy);
    // Checked by the engine when they were sent (readOrders): entered as they are.
    const people: Record<number, CheckedTurn> = {};
    for (const [seat, o] of sent) {
      const t = storedTurn(setup, st, seat, rowBody(o));
      // Stored orders that no longer read (a corrupt row, an older format) are filled at random as
      // `unreadable` (the turn's programmed event and report say so), never in silence.
      const unread = rowUnread(o, t.unread);
      for (const u of unread) console.error(`race ${id}, seat ${seat}, turn ${turn}: stored orders unreadable: ${u.field}: ${u.message}; ${t.unreadable ? 'filled at random' : 'left out'}`);
      // The Three Minute Rule's fill of a late seat (`hurry`) is no choice of its player: nothing was sent (the engine's reason `missing`).
      people[seat] = hurriedFill(o) ? { ...t, orders: { ...t.orders, program: [] } } : t;
    }
    // The bots decided from the turn as dealt (nobody's orders in it) and the race's seed.
    const seed = dealSeed(storedDeal(race));
    const played = adjudicateTurn(setup, st, people, bots, seed);
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
      // The replay's length as the web client plays it: the robots as the registers began, the turn's events since.
      const wait = policy.kind === 'live' && left.length
        ? replayWaitMs(replayMs(publicRobots(st, setup.settings), entries.flatMap((e) => (e.kind === 'game' ? [e.event as GameEvent] : []))))
        : 0;
      deadlineAt = turnDeadline(policy, setup.settings, left, now + wait);
      entries.push({ turn: s.turn, kind: 'race', event: { type: 'deadline', at: deadlineAt, ...(wait ? { clockStartsBy: now + wait } : {}) } });
    }
    const next = s;
    const state = JSON.stringify(next);
    // A turn taken back and played again deals its next turn again.
    const row = { before: JSON.stringify(before), dealt: state, first_seq: null };
    // This process dealt the turn (its log has the turn's beginning and game events so far): the
    // play is known whole, as a read of the turn would give it.
    const log = this.repo.keptLog(race);
    const whole: PlayedTurn | null = log?.turn === turn && log.dealt
      ? {
          before: JSON.parse(log.dealt.before), events: [...log.dealt.events, ...entries.filter((e) => e.kind === 'game' && e.turn === turn).map((e) => e.event as GameEvent)],
          after: before, setup, designs: seats.map((x) => x.robot ?? x.seat),
        }
      : null;
    return {
      entries,
      next: status === 'running' ? next : null,
      played: whole,
      change: {
        set: { state, deadline_at: deadlineAt, status, play_by: null },
        ...(status === 'running' ? { dealt: { turn: next.turn, before: row.before } } : {}),
        writes: (q, first) => {
          const played = q.updateTable('turns').set({ first_seq: first }).where('race_id', '=', id).where('turn', '=', turn);
          if (status !== 'running') return [played];
          return [played, q.insertInto('turns').values({ race_id: id, turn: next.turn, ...row }).onConflict((oc) => oc.columns(['race_id', 'turn']).doUpdateSet(row))];
        },
      },
    };
  }

  /**
   * The moderator's tools (moderation.ts): pause and resume the clock, extend the deadline, hand a
   * seat to a bot, play the turn now, and rewind the last turn played so that it is played again.
   */
  moderate(id: string, key: string | undefined, action: string, body: unknown): Promise<Answer<Moderated>> {
    return this.inLine.run(id, () => this.moderation.moderate(id, key, action, body));
  }

  /**
   * Plays every race whose deadline has passed; returns how many turns were played. Those with a
   * seat raced by e-mail are played after the look `beforeDeadlinePlay` (the others meanwhile).
   */
  async tick(): Promise<number> {
    let played = 0;
    // One race a task: on SQLite the plays of all due races would otherwise be one long task.
    await inSlices(this.retry, 1, async ([id, { turn, force }]) => {
      this.retry.delete(id);
      await this.playLater(id, force, turn);
    });
    await this.sayLooking();
    const due = await this.repo.due(this.clock.now());
    const left = await this.leftToLooker(due);
    const looking = await this.lookBeforePlaying(due);
    const play = (ids: readonly string[]) => inSlices(ids, 1, async (id) => {
      if ((await this.adjudicate(id, false)) === true) played++;
    });
    await play(due.filter((id) => !looking.ids.has(id) && !left.has(id)));
    await looking.done;
    await play(due.filter((id) => looking.ids.has(id)));
    return played;
  }

  /**
   * Registers the look awaited before the deadline's play of a race with a seat raced by e-mail
   * (the mail gateway's look into its mailbox, for orders that reached it before the deadline);
   * returns what takes it back. One at a time. From the next tick on, the other processes on the
   * database leave such deadlines to this one (`LEFT_TO_LOOKER_MS`), until it is taken back.
   */
  beforeDeadlinePlay(look: DeadlineLook): () => Promise<void> {
    this.deadlineLook = look;
    this.lookingSaidAt = -Infinity;
    return async () => {
      if (this.deadlineLook !== look) return;
      this.deadlineLook = null;
      if (this.onlyWriter) return;
      // After a saying under way, which would count this process there again.
      await this.sayingLooking?.catch(() => undefined);
      // Not said: it is counted there until its last saying runs out.
      await this.repo.lookingNoMore(this.looker).catch((e: Error) => console.error(`saying that this process looks before mail races' deadlines no more failed (${e.message}); the others wait for it ${LOOKER_ALIVE_MS / 1000} s at most`));
    };
  }

  /** A process that looks before mail races' deadlines says so to the others, every `LOOKER_SAYS_MS`. */
  private async sayLooking(): Promise<void> {
    const now = this.clock.now();
    if (!this.deadlineLook || this.onlyWriter || now - this.lookingSaidAt < LOOKER_SAYS_MS) return;
    const saying = this.repo.looking(this.looker, now + LOOKER_ALIVE_MS);
    this.sayingLooking = saying;
    try {
      await saying;
      this.lookingSaidAt = now;
    } finally {
      if (this.sayingLooking === saying) this.sayingLooking = null;
    }
  }

  /**
   * Of the races `due`, those left to another process, which looks before their deadline's play:
   * they have a seat raced by e-mail, their deadline passed less than `LEFT_TO_LOOKER_MS` ago, and
   * such a process is there (`deadline_lookers`). None when this process looks itself.
   */
  private async leftToLooker(due: readonly string[]): Promise<ReadonlySet<string>> {
    for (const id of this.playedWithoutLooker.keys()) if (!due.includes(id)) this.playedWithoutLooker.delete(id);
    if (this.deadlineLook || this.onlyWriter || !due.length) return new Set();
    const now = this.clock.now();
    const heads = (await this.repo.mailRaces(due)).filter((r) => r.status === 'running' && r.deadlineAt !== null && r.deadlineAt <= now);
    if (!heads.length || !(await this.repo.lookerThere(now))) return new Set();
    for (const r of heads) {
      if (now < r.deadlineAt! + LEFT_TO_LOOKER_MS || this.playedWithoutLooker.get(r.id) === r.deadlineAt) continue;
      this.playedWithoutLooker.set(r.id, r.deadlineAt!);
      console.error(`race ${r.id}: the process that looks into the mailbox did not play its deadline within ${LEFT_TO_LOOKER_MS / 1000} s; played here, without the last look for mailed orders`);
    }
    return new Set(heads.filter((r) => now < r.deadlineAt! + LEFT_TO_LOOKER_MS).map((r) => r.id));
  }

  /**
   * Of the races `due`, those whose deadline has passed and that have a seat raced by e-mail, not
   * looked before at this deadline yet, and the look for them (`beforeDeadlinePlay`), which ends by
   * its bound: it never rejects, its fault or lateness is logged.
   */
  private async lookBeforePlaying(due: readonly string[]): Promise<{ ids: ReadonlySet<string>; done: Promise<void> }> {
    const hook = this.deadlineLook;
    for (const id of this.lookedBefore.keys()) if (!due.includes(id)) this.lookedBefore.delete(id);
    if (!hook || !due.length) return { ids: new Set(), done: Promise.resolve() };
    const now = this.clock.now();
    // The due races with a seat raced by e-mail (not every mail race: a deadline's tick reads only its own).
    const heads = (await this.repo.mailRaces(due))
      .filter((r) => r.status === 'running' && r.deadlineAt !== null && r.deadlineAt <= now && this.lookedBefore.get(r.id) !== r.deadlineAt);
    if (!heads.length) return { ids: new Set(), done: Promise.resolve() };
    for (const r of heads) this.lookedBefore.set(r.id, r.deadlineAt!);
    const ids = heads.map((r) => r.id);
    const log = hook.log ?? ((line: string) => console.error(line));
    const what = `the look for orders that came before the deadline of race ${ids.join(', ')}`;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), hook.withinMs);
    });
    const looked = Promise.resolve().then(() => hook.look(ids)).then(() => 'done' as const, (e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    const done = Promise.race([looked, late]).then((got) => {
      clearTimeout(timer);
      if (got === 'late') log(`${what} took longer than ${hook.withinMs / 1000} s; the turn is played with the orders in`);
      else if (got !== 'done') log(`${what} failed (${got.message}); the turn is played with the orders in`);
    });
    return { ids: new Set(ids), done };
  }

  /** Entries after `after`, in order (at most `limit` of them). */
  async entries(id: string, after: number, limit?: number): Promise<Answer<Entry[]>> {
    const got = await this.repo.entries(id, after, limit);
    return got ? yes(got) : no(404, 'race', `no race "${id}"`);
  }

  /** `entries` as the JSON text of its array (the log route's answer, read as stored). */
  async entriesJson(id: string, after: number): Promise<Answer<string>> {
    const got = await this.repo.entriesJson(id, after);
    return got !== null ? yes(got) : no(404, 'race', `no race "${id}"`);
  }

  /** The seq of a race's last committed entry (0 for no race). */
  lastSeq(id: string): Promise<number> {
    return this.repo.lastSeq(id);
  }

  /**
   * Tells this process's streams (the bus's `committed`) and the other processes (`published`)
   * that race `id`'s entries up to `lastSeq` are committed. With `entries` (what this process's
   * commit wrote, ending at `lastSeq`) the streams send those as they are; else they read them
   * from the database. Each client gets each entry once, in order, whichever process wrote it.
   */
  announce(id: string, lastSeq: number, entries?: readonly Entry[], played?: HandedPlay, note?: ChangeNote): void {
    this.bus.emit('committed', id, lastSeq, entries, played);
    this.published?.(id, lastSeq, note);
  }

  /**
   * Another process committed race `id`'s entries up to `lastSeq` (its NOTIFY), with `note` telling
   * what the commit changed. When the race is kept here at the version before it, the kept copy
   * follows the change and this process's streams are handed its entries: as the note tells them
   * (a small change: nothing is read), or, for a turn played there, read with the race and the
   * dealt turn in one round trip, the played turn's frame made from the turn's log kept here.
   * Otherwise the kept race is let go (the next request reads it at once rather than look at its
   * version first) and the streams read the entries.
   *
   * A race's notes are followed one after the other: one that comes while the play before it is
   * being read waits for that read (`following`). Else it would find the copy kept at the version
   * before the play and let it go, and the read, coming back, would keep the play's version, older
   * than the database's, and hand the streams the play after the later commit.
   */
  committedElsewhere(id: string, lastSeq: number, note?: ChangeNote): void {
    const before = this.following.get(id);
    const now = before ? before.then(() => this.followNote(id, lastSeq, note)) : this.followNote(id, lastSeq, note);
    if (!now) return;
    this.following.set(id, now);
    void now.then(() => {
      if (this.following.get(id) === now) this.following.delete(id);
    });
  }

  /** One note of another process's commit, followed (`committedElsewhere`); a promise while its play is read, settled (never rejected) once followed. */
  private followNote(id: string, lastSeq: number, note?: ChangeNote): Promise<void> | undefined {
    // A play the note tells whole (its entries, its state, the dealt turn's beginning) is followed
    // from it, as a small change is: nothing is read. One too long to be told is read back.
    const told = note ? this.repo.follow(id, lastSeq, note) : null;
    if (told) return void this.bus.emit('committed', id, lastSeq, told.entries, told.play && this.playedElsewhere(id, told.entries, told.play));
    if (note?.dealt === undefined || note.entries) return void this.letGo(id, lastSeq);
    return this.repo.followPlay(id, lastSeq, note).then((got) => {
      if (!got) return this.letGo(id, lastSeq);
      this.bus.emit('committed', id, lastSeq, got.entries, this.playedElsewhere(id, got.entries, got.play));
    }).catch((e: Error) => {
      console.error(`race ${id}: following the turn another process played failed (${e.message}); its streams read it`);
      this.letGo(id, lastSeq);
    });
  }

  /**
   * The notifications of the other processes may have been missed (the listener was lost, and is
   * back): each race kept here is let go, since a commit made meanwhile would go unseen while this
   * process counts itself alone, and the streams look again at each race's last seq.
   */
  missedNotes(): void {
    this.repo.cache.clear();
    this.bus.emit('resync');
  }

  /** Another process's commit that this one does not follow: the kept race is let go and the streams read its entries. */
  private letGo(id: string, lastSeq: number): void {
    this.repo.cache.olderThan(id, lastSeq);
    this.bus.emit('committed', id, lastSeq);
  }

  /**
   * The turn another process played, as the streams are handed it, when this process knows all of
   * it: the turn's log as kept here before the play (it began with the turn's deal) and the play's
   * entries, the turn played and its first seq, and the state the play left (the dealt turn's
   * `before`), as its note told them or as read back.
   */
  private playedElsewhere(id: string, entries: readonly Entry[], play: OtherPlay): HandedPlay | undefined {
    const { kept, race, first, after } = play;
    const ended = [...entries].reverse().find((e) => e.kind === 'game' && e.event.type === 'turnEnded');
    const log = kept.log;
    if (!ended || ended.turn !== play.turn || log?.turn !== ended.turn || !log.dealt) return undefined;
    const turn = ended.turn;
    const dealt = log.dealt;
    return {
      endedSeq: ended.seq,
      frame: () => ({
        turn,
        ...this.reads.handOver(id, turn, first, {
          before: JSON.parse(dealt.before), events: [...dealt.events, ...entries.filter((e) => e.kind === 'game' && e.turn === turn).map((e) => e.event as GameEvent)],
          after: JSON.parse(after), setup: this.setups.setupOf(race), designs: kept.seats.map((x) => x.robot ?? x.seat),
        }),
      }),
    };
  }

  /** A turn played, for its report and picture: the state it began from, its events, the state after it. */
  playedTurn(id: string, turn: number) {
    return this.reads.playedTurn(id, turn);
  }

  /** A turn played, as anybody may replay it: the robots as the turn began and its events. */
  replay(id: string, turn: number) {
    return this.reads.replay(id, turn);
  }

  /** The engine's events of a race (or of one turn), less any the moderator rewound. */
  gameEvents(id: string, turn?: number): Promise<GameEvent[]> {
    return this.repo.gameEvents(id, turn);
  }

  /** The report of a turn played: 001's table per register, from its events. */
  report(id: string, turn: number) {
    return this.reads.report(id, turn);
  }

  /** A turn played, its replay and its report together (the stream's `played` frame). */
  played(id: string, turn: number) {
    return this.reads.played(id, turn);
  }
}
