/**
 * The races this process has read or changed lately, kept parsed: a request that finds its race
 * here reads neither the race row (its state, a few KB of JSON) nor its seats. An entry stands for
 * one version of the race: a change committed by this process replaces it with the next version
 * once its transaction has committed (repository.ts `commitChange`). A change that another
 * process made is followed the same way when its NOTIFY tells it (`ChangeNote`: the next version
 * of the one kept here; repository.ts `follow`, `followPlay`), else the entry is let go when the
 * NOTIFY arrives (`olderThan`); either way the version itself is the check (the repository looks
 * at it, unless this process is the database's only writer). A stale entry is never written from:
 * every change commits only on the version it read.
 *
 * With an entry, the current turn's log as far as this process knows it (`TurnLog`): the entries
 * that tell the replay clock (ready.ts), and, for a turn this process dealt or saw dealt, the state
 * the turn began from and its game events so far, from which the turn's replay and report are made
 * when it is played, here or elsewhere (no read back).
 */
import type { Selectable } from 'kysely';
import type { GameEvent, GameState } from '../../engine/src/index.js';
import type { RaceRow, SeatRow } from './db.js';
import type { Entry } from './races.js';

/** What a turn's entries tell, kept with a cached race. */
export interface TurnLog {
  readonly turn: number;
  /**
   * The turn's race entries from its last `deadline` entry on (or all of them when it has none):
   * the replay clock (ready.ts `waitingClock`) starts over at each `deadline`, so these give the
   * same clock as all of the turn's entries.
   */
  readonly clock: readonly Pick<Entry, 'kind' | 'event'>[];
  /**
   * For a turn this process dealt, or followed the deal of (repository.ts `followPlay`): the state
   * it began from (the turns row's `before`, as stored) and its game events so far, those a read of
   * the turn's entries (less the rewound) would give.
   */
  readonly dealt?: { readonly before: string; readonly events: readonly GameEvent[] };
}

export interface CachedRace {
  readonly race: Selectable<RaceRow>;
  readonly seats: Selectable<SeatRow>[];
  readonly log?: TurnLog;
  /** The orders of a turn (the current one) at this version, by seat, as a read would give them. */
  readonly orders?: { readonly turn: number; readonly sent: ReadonlyMap<number, unknown> };
}

/**
 * A committed change as the other processes are told of it (fanout.ts), so that they can follow it
 * in the copy they keep rather than read the race again: the version it committed and, as far as a
 * notification holds them, its entries and what else it wrote.
 */
export interface ChangeNote {
  /** The race's version once the change committed. */
  readonly version: number;
  /** Its entries, in order (the last at the notification's seq); absent when too long to be told. */
  readonly entries?: readonly Omit<Entry, 'seq'>[];
  /** The race's columns it set (told with `entries`). */
  readonly set?: NoteSet;
  /** The orders it stored (its only write besides the race and entries, unless `opaque`). */
  readonly orders?: { readonly turn: number; readonly seat: number; readonly body: string };
  /** It dealt this turn (it played the one before). */
  readonly dealt?: number;
  /**
   * A turn played (with `dealt` and `entries`): the seq of the played turn's first entry (its turns
   * row's `first_seq`) and the state the dealt turn begins from (the dealt turn's row's `before`, as
   * stored), so that the others follow the play without reading it back.
   */
  readonly played?: { readonly first: number; readonly before: string };
  /** It changed the race's seats. */
  readonly seatsChanged?: true;
  /** It wrote more than `orders` tells (orders withdrawn or filled, turns rewritten). */
  readonly opaque?: true;
}

/** The race columns a change may set, as a note tells them. */
export type NoteSet = Partial<Pick<RaceRow, 'state' | 'status' | 'deadline_at' | 'paused_left' | 'play_by'>>;

/** Races kept at most; the least recently used goes first. */
const KEPT = 5000;

export class RaceCache {
  private readonly races = new Map<string, CachedRace>();

  /**
   * @param isAlone whether this process is the database's only writer now (SQLite; PostgreSQL while
   * no other process is heard, fanout.ts): an entry is then used without a look at the race's version.
   */
  constructor(private readonly isAlone: () => boolean) {}

  get alone(): boolean {
    return this.isAlone();
  }

  get(id: string): CachedRace | undefined {
    const c = this.races.get(id);
    if (c) {
      // Most recently used last.
      this.races.delete(id);
      this.races.set(id, c);
    }
    return c;
  }

  /** Keeps `c` unless a later version of the race is kept already. */
  put(c: CachedRace): void {
    const id = c.race.id;
    const had = this.races.get(id);
    if (had && had.race.version > c.race.version) return;
    // The same version: what else is known of it is kept too.
    if (had && had.race.version === c.race.version) {
      const log = c.log ?? had.log;
      const orders = c.orders ?? had.orders;
      c = { race: c.race, seats: c.seats, ...(log ? { log } : {}), ...(orders ? { orders } : {}) };
    }
    this.races.delete(id);
    this.races.set(id, freezeRace(c));
    if (this.races.size > KEPT) this.races.delete(this.races.keys().next().value!);
  }

  /** Entries of the race up to `lastSeq` are committed: a kept version that ends before them is let go. */
  olderThan(id: string, lastSeq: number): void {
    const c = this.races.get(id);
    if (c && c.race.last_seq < lastSeq) this.races.delete(id);
  }

  drop(id: string): void {
    this.races.delete(id);
  }

  /** Lets every race go (commits of other processes may have gone unheard). */
  clear(): void {
    this.races.clear();
  }
}

function freezeRace(c: CachedRace): CachedRace {
  Object.freeze(c.race);
  for (const s of c.seats) Object.freeze(s);
  Object.freeze(c.seats);
  if (c.orders) for (const o of c.orders.sent.values()) deepFreeze(o);
  return Object.freeze(c);
}

/** Frozen through and through: what is shared between requests cannot be changed by one of them. */
function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

const states = new WeakMap<object, GameState>();

/** A race row's state, parsed once per row read or kept (frozen: a change makes a new state). */
export function stateOf(race: Pick<RaceRow, 'state'>): GameState {
  let st = states.get(race);
  if (!st) {
    st = deepFreeze(JSON.parse(race.state) as GameState);
    states.set(race, st);
  }
  return st;
}

/** The log of the next version, once `entries` are committed on top of `log` (leaving the race at `turn`); undefined: not known. */
export function nextLog(log: TurnLog | undefined, entries: readonly Omit<Entry, 'seq'>[], turn: number, dealt?: { turn: number; before: string }): TurnLog | undefined {
  // A rewind takes entries back: what a read would give is not followed here.
  if (entries.some((e) => e.kind === 'race' && e.event.type === 'rewound')) return undefined;
  let base: TurnLog;
  let mine: readonly Omit<Entry, 'seq'>[];
  if (dealt && dealt.turn === turn) {
    // The turn this commit dealt: its entries begin here (anything of the turn from before a rewind
    // was taken back), and its clock with its `deadline` entry.
    mine = entries.filter((e) => e.turn === turn);
    if (!mine.some((e) => e.kind === 'race' && e.event.type === 'deadline')) return undefined;
    base = { turn, clock: [], dealt: { before: dealt.before, events: [] } };
  } else {
    if (!log || log.turn !== turn) return undefined;
    base = log;
    mine = entries.filter((e) => e.turn === turn);
  }
  let clock = [...base.clock];
  const events = base.dealt ? [...base.dealt.events] : null;
  for (const e of mine) {
    if (e.kind === 'game') events?.push(e.event as GameEvent);
    else if (e.event.type === 'deadline') clock = [e];
    else clock.push(e);
  }
  return { turn, clock, ...(base.dealt ? { dealt: { before: base.dealt.before, events: events! } } : {}) };
}

/** A turn log from the turn's entries as read (all of them, in seq order): the clock only. */
export function logFromEntries(turn: number, entries: readonly Entry[]): TurnLog {
  let clock: Pick<Entry, 'kind' | 'event'>[] = [];
  for (const e of entries) {
    if (e.kind !== 'race') continue;
    if (e.event.type === 'deadline') clock = [e];
    else clock.push(e);
  }
  return { turn, clock };
}
