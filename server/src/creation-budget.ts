/**
 * What one client address may create (docs/server.md, "Safety"): races a minute, and addresses
 * seated by e-mail that have never answered the server (strangers, whom the race then mails). Kept
 * in the process's memory, per client address in an LRU, as the request budget is. A creation
 * takes its share when it begins and gives it back when nothing was made (`release`), so a
 * creation the server refused (503: busy) and its retry count once; a retry with the same
 * Idempotency-Key counts no second time.
 */

const MINUTE = 60_000;
const DAY = 24 * 3_600_000;

/** A creation admitted: `release` gives its share back (nothing was made), `made` says it made its race. */
export type Taken = { ok: true; release: () => void; made: () => void } | { ok: false; retryAfterS: number };

/** An address's creations in the last minute, by their Idempotency-Key (or none), and whether each made its race. */
interface Made {
  readonly at: number;
  readonly key: string | undefined;
  made: boolean;
}

/** Holds at most `max` addresses, dropping the one used longest ago. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(k: string, fresh: () => V): V {
    let v = this.map.get(k);
    if (v === undefined) v = fresh();
    else this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return v;
  }
}

const retryAfter = (oldest: number, window: number, now: number) => Math.max(1, Math.ceil((oldest + window - now) / 1000));

/**
 * `perMinute` races a minute per address; a retry with the key of a creation that made its race
 * this minute counts no more (one sent while the first is still being answered counts: it may
 * still do a creation's work).
 */
export class RaceBudget {
  private readonly made: Lru<Made[]>;
  constructor(private readonly perMinute: number, addresses: number, private readonly now: () => number = Date.now) {
    this.made = new Lru(addresses);
  }

  take(address: string, key: string | undefined): Taken {
    const now = this.now();
    const list = this.made.get(address, () => []);
    while (list.length && list[0]!.at <= now - MINUTE) list.shift();
    if (key !== undefined && list.some((m) => m.made && m.key === key)) return { ok: true, release: () => undefined, made: () => undefined };
    if (list.length >= this.perMinute) return { ok: false, retryAfterS: retryAfter(list[0]!.at, MINUTE, now) };
    const mine: Made = { at: now, key, made: false };
    list.push(mine);
    return { ok: true, release: () => void (list.includes(mine) && list.splice(list.indexOf(mine), 1)), made: () => void (mine.made = true) };
  }
}

/** A stranger refused: the index of the address in those asked, and when one may be seated again. */
export type Seated = { ok: true; release: () => void } | { ok: false; index: number; retryAfterS: number; whose: 'address' | 'server' };

/**
 * Strangers (lower-cased addresses that never answered) seated in the last 24 hours: at most
 * `perAddress` different ones by one client address, and `perDay` different ones in all. An
 * address seated again within the day counts no second time.
 */
export class StrangerBudget {
  private readonly byAddress: Lru<Map<string, number>>;
  private readonly all = new Map<string, number>();
  constructor(private readonly perAddress: number, private readonly perDay: number, addresses: number, private readonly now: () => number = Date.now) {
    this.byAddress = new Lru(addresses);
  }

  seat(address: string, strangers: readonly string[]): Seated {
    const now = this.now();
    const mine = this.byAddress.get(address, () => new Map());
    for (const m of [mine, this.all]) for (const [a, at] of m) if (at <= now - DAY) m.delete(a);
    const added: [Map<string, number>, string][] = [];
    const release = () => added.forEach(([m, a]) => m.delete(a));
    for (const [index, a] of strangers.entries()) {
      const full = (m: Map<string, number>, max: number) => !m.has(a) && m.size >= max;
      const whose = full(mine, this.perAddress) ? 'address' : full(this.all, this.perDay) ? 'server' : null;
      if (whose) {
        release();
        const oldest = Math.min(...(whose === 'address' ? mine : this.all).values());
        return { ok: false, index, retryAfterS: retryAfter(oldest, DAY, now), whose };
      }
      for (const m of [mine, this.all]) if (!m.has(a)) (m.set(a, now), added.push([m, a]));
    }
    return { ok: true, release };
  }
}
