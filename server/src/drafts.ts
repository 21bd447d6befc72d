/**
 * A seat's draft: how many of its registers its person has filled so far while programming, a
 * count and never a card, relayed on the race's stream so that the others see the registers fill
 * face down (`PUT …/seats/{seat}/draft`, docs/server.md). Nothing of it is stored in the database:
 * it goes to this process's streams and, with PostgreSQL, to the other processes by NOTIFY
 * (fanout.ts). Each process keeps in memory the latest count of each seat of the turn being drafted
 * (`DraftTable`), so that a stream opened mid-turn begins with them.
 *
 * Each seat may send a few a second: a bucket of `burst` drafts that refills at `perSecond`,
 * started full on each new turn. The buckets kept are bounded (the oldest dropped first).
 */

/** What the stream relays: `{"draft": {turn, seat, filled}}`. */
export interface Draft {
  readonly turn: number;
  readonly seat: number;
  readonly filled: number;
}

export interface DraftLimits {
  /** Drafts a seat may send at once (default 10). */
  readonly burst: number;
  /** Drafts a second a seat may send in the long run (default 4). */
  readonly perSecond: number;
  /** Seats whose buckets are kept (default 10,000). */
  readonly seats: number;
}

export const DRAFT_DEFAULTS: DraftLimits = { burst: 10, perSecond: 4, seats: 10_000 };

interface Bucket {
  turn: number;
  tokens: number;
  at: number;
}

/** The per-seat rate of drafts. */
export class DraftGate {
  private readonly buckets = new Map<string, Bucket>();
  private readonly limits: DraftLimits;

  constructor(limits: Partial<DraftLimits> = {}) {
    this.limits = { ...DRAFT_DEFAULTS, ...limits };
  }

  /** Whether seat `seat` of race `id` may send a draft for `turn` at `now` (ms); takes one if so. */
  take(id: string, seat: number, turn: number, now: number): boolean {
    const key = `${id}:${seat}`;
    let b = this.buckets.get(key);
    if (b) this.buckets.delete(key);
    if (!b || b.turn !== turn) b = { turn, tokens: this.limits.burst, at: now };
    b.tokens = Math.min(this.limits.burst, b.tokens + ((now - b.at) / 1000) * this.limits.perSecond);
    b.at = now;
    // Kept in the order last used: the first is the one longest unused.
    this.buckets.set(key, b);
    if (this.buckets.size > this.limits.seats) this.buckets.delete(this.buckets.keys().next().value!);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

/**
 * The latest draft of each seat of a race, for the turn drafted last (a draft of another turn starts
 * the race's table anew): what a stream opened mid-turn is sent first. In memory only, every
 * process its own (drafts of other processes come by NOTIFY); the races kept are bounded, the one
 * drafted longest ago dropped first.
 */
export class DraftTable {
  private readonly races = new Map<string, { turn: number; seats: Map<number, number> }>();

  constructor(private readonly maxRaces = 10_000) {}

  /** Keeps a draft relayed (this process's or another's). */
  note(id: string, draft: Draft): void {
    let r = this.races.get(id);
    if (r) this.races.delete(id);
    if (!r || r.turn !== draft.turn) r = { turn: draft.turn, seats: new Map() };
    r.seats.set(draft.seat, draft.filled);
    this.races.set(id, r);
    if (this.races.size > this.maxRaces) this.races.delete(this.races.keys().next().value!);
  }

  /** The latest draft of each seat of race `id`, in seat order (none kept: empty). */
  of(id: string): Draft[] {
    const r = this.races.get(id);
    if (!r) return [];
    return [...r.seats].sort(([a], [b]) => a - b).map(([seat, filled]) => ({ turn: r.turn, seat, filled }));
  }
}
