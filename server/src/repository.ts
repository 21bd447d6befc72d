/**
 * A race's rows: reading them, and changing them the one way a race changes. Every change is one
 * transaction through `commitChange`: it bumps the race's version (a change computed from an older
 * version commits nothing), appends the change's entries after the race's last seq, and applies
 * whatever else the change writes, all or nothing.
 */
import { sql, type Compilable, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { GameEvent } from '../../engine/src/index.js';
import { changeTogether, together, type Db, type EventRow, type RaceKeyRow, type RaceRow, type SeatHoldRow, type SeatMailRow, type SeatRow, type Tables, type TurnRow } from './db.js';
import type { SeatOrders } from '../../engine/src/index.js';
import type { Entry } from './races.js';
import { logFromEntries, nextLog, stateOf, type CachedRace, type ChangeNote, type RaceCache, type TurnLog } from './race-cache.js';
import { MAX_INT32 } from './schemas.js';

/** A race and its seats, as read (or kept: race-cache.ts; then frozen). */
export interface LoadedRace {
  readonly race: Selectable<RaceRow>;
  readonly seats: Selectable<SeatRow>[];
}

/**
 * A turn another process played, as this one followed it (`follow`, `followPlay`): the race kept
 * before the play, the race after it, the turn played and the seq of its first entry, and the state
 * the play left (the dealt turn's `before`, as stored).
 */
export interface OtherPlay {
  readonly kept: CachedRace;
  readonly race: Selectable<RaceRow>;
  readonly turn: number;
  readonly first: number;
  readonly after: string;
}

/** What a change writes besides its entries. */
export interface Change {
  /** Columns of the race row to set (version and last_seq are the helper's). */
  readonly set?: Partial<RaceRow>;
  /** Commit only while the race's deadline is after this instant (or there is none: paused). */
  readonly beforeDeadline?: number;
  /**
   * The change's other writes, built on `q` (not run: they are sent with the version bump and the
   * entries, all at once); `first` is the seq of its first entry.
   */
  readonly writes?: (q: Kysely<Tables>, first: number) => readonly Compilable[];
  /**
   * `writes` change the race's seats: a kept copy of the race is dropped, not carried on to the
   * next version (in other processes always; in this one unless `seats` says what they become).
   */
  readonly seatsChanged?: true;
  /**
   * The seats as `writes` leave them, from the kept ones, for writes that change nothing but the
   * seats: this process's kept copy (its orders and log included) is carried on with them.
   */
  readonly seats?: (seats: readonly Selectable<SeatRow>[]) => Selectable<SeatRow>[];
  /**
   * The change deals turn `turn`, which begins from `before` (its turns row's, as stored): the kept
   * turn log starts there, and the turn has no orders yet.
   */
  readonly dealt?: { readonly turn: number; readonly before: string };
  /** The orders `writes` store (the only orders they write; `body` as stored): kept orders of the turn are carried on with them. */
  readonly orders?: { readonly turn: number; readonly seat: number; readonly body: string };
}

/**
 * A change computed from another version of its race than the one stored (another change came
 * first): nothing of its transaction may be kept (`commitChange`, `transaction`).
 */
export class StaleChange extends Error {
  constructor() {
    super('the race changed meanwhile');
  }
}

/** A race's Idempotency-Key is another creation's (stored, or being stored): nothing was stored (`insertRace`). */
export class KeyTaken extends Error {
  constructor() {
    super('the Idempotency-Key is taken');
  }
}

/** A race over has its rematch already (stored, or being stored): nothing was stored (`insertRace`). */
export class RematchTaken extends Error {
  constructor() {
    super('the race has its rematch');
  }
}

/** Entries are inserted this many rows a statement. */
const ROWS_PER_INSERT = 200;

export class RaceRepository {
  /**
   * @param cache the races kept in this process (race-cache.ts), shared by the repositories of its transactions
   * @param tried in a transaction, the races and versions its changes were computed from
   * @param committed what to do once the transaction this repository is part of has committed
   * @param unchecked for a repository of `trusting`: the races it took as kept, and their versions
   */
  constructor(
    readonly db: Db, readonly cache: RaceCache, private readonly tried: Pick<RaceRow, 'id' | 'version'>[] = [], private readonly committed: (() => void)[] = [],
    private readonly unchecked?: Map<string, number>,
  ) {}

  /**
   * A repository whose `load` takes a kept race as it is, without a look at its version, and notes
   * it (`uncheckedMoved`): for work that changes the race, whose commit is checked against the
   * version it read anyway (a change from a copy gone stale commits nothing, and is made again from
   * a fresh read). What such work answers without a commit (a refusal, nothing to do) may come from
   * a stale copy: its caller looks at `uncheckedMoved` before it answers.
   */
  trusting(): RaceRepository {
    return new RaceRepository(this.db, this.cache, this.tried, this.committed, new Map());
  }

  /**
   * Whether a race that `load` took unchecked (`trusting`) is at another version now (one read
   * each): such a race is let go, so that the next load reads it at once.
   */
  async uncheckedMoved(): Promise<boolean> {
    let moved = false;
    for (const [id, version] of this.unchecked ?? []) {
      if ((await this.db.selectFrom('races').select('version').where('id', '=', id).executeTakeFirst())?.version === version) continue;
      this.cache.drop(id);
      moved = true;
    }
    this.unchecked?.clear();
    return moved;
  }

  /**
   * Runs `work` in one transaction, with a repository whose every read and write is part of it:
   * what it reads is what its writes are checked against (a change still commits only on the
   * version it read), and nothing of it is kept if it throws. It throws `StaleChange` when a change
   * in it came after another (a statement that failed then counts as that: an entry's seq taken
   * meanwhile).
   */
  async transaction<T>(work: (repo: RaceRepository) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    const tried: Pick<RaceRow, 'id' | 'version'>[] = [];
    const committed: (() => void)[] = [];
    try {
      const out = await this.db.transaction().execute((trx) => work(new RaceRepository(trx, this.cache, tried, committed)));
      for (const f of committed) f();
      return out;
    } catch (e) {
      if (!(e instanceof StaleChange) && (await this.movedSince(tried).catch(() => false))) throw new StaleChange();
      throw e;
    }
  }

  /** Whether any of these races is at another version now. */
  private async movedSince(tried: readonly Pick<RaceRow, 'id' | 'version'>[]): Promise<boolean> {
    for (const r of tried) if ((await this.db.selectFrom('races').select('version').where('id', '=', r.id).executeTakeFirst())?.version !== r.version) return true;
    return false;
  }

  /**
   * A race and its seats: as kept, when this process is the database's only writer or the race's
   * version says the kept one still stands (one small read); else read together with the orders
   * and the entries of its current turn (one round trip on PostgreSQL) and kept. `fresh`: read, whatever is kept.
   * `seen`: the last seq the asker has seen (a client's stream gave it); a kept race whose entries
   * reach it is as new as the asker needs, and is taken without a look at its version (every change
   * appends an entry, so a version the asker has seen ends at or before `seen`).
   */
  async load(id: string, o: { fresh?: boolean; seen?: number } = {}): Promise<LoadedRace | null> {
    const kept = o.fresh ? undefined : this.cache.get(id);
    if (kept) {
      if (this.cache.alone || (o.seen !== undefined && kept.race.last_seq >= o.seen)) return kept;
      if (this.unchecked) {
        if (!this.unchecked.has(id)) this.unchecked.set(id, kept.race.version);
        return kept;
      }
      const now = await this.db.selectFrom('races').select('version').where('id', '=', id).executeTakeFirst();
      if (!now) return (this.cache.drop(id), null);
      if (Number(now.version) === kept.race.version) return kept;
    }
    // With the orders and the entries of the race's last dealt turn (its current one, unless a
    // rewind took turns back): the next request most often wants them (turnOrders, turnLog).
    const current = sql<number>`(select max(turn) from turns where race_id = ${id})`;
    const [races, seats, orders, entries] = await together(this.db, [
      this.db.selectFrom('races').selectAll().where('id', '=', id).compile(),
      this.db.selectFrom('seats').selectAll().where('race_id', '=', id).orderBy('seat').compile(),
      sql<{ turn: number | null; seat: number | null; body: string | null }>`select t.turn, o.seat, o.body from (select ${current} as turn) t left join orders o on o.race_id = ${id} and o.turn = t.turn`.compile(this.db),
      this.db.selectFrom('events').selectAll().where('race_id', '=', id).where('turn', '=', current).orderBy('seq').compile(),
    ]);
    const race = races!.rows[0] as Selectable<RaceRow> | undefined;
    if (!race) return null;
    const rows = orders!.rows as { turn: number | null; seat: number | null; body: string | null }[];
    const turn = stateOf(race).turn;
    const known = rows[0]?.turn === turn;
    const sent = known ? new Map(rows.flatMap((r) => (r.seat === null ? [] : [[r.seat, storedOrders(r.body!)] as const]))) : null;
    const log = known ? logFromEntries(turn, (entries!.rows as Selectable<EventRow>[]).map((r) => ({ seq: r.seq, turn: r.turn, ...JSON.parse(r.body) }))) : null;
    const read: CachedRace = { race, seats: seats!.rows as Selectable<SeatRow>[], ...(sent ? { orders: { turn, sent } } : {}), ...(log ? { log } : {}) };
    this.cache.put(read);
    return read;
  }

  /**
   * The current turn's log as far as this process knows it (race-cache.ts), read from the turn's
   * entries when it is not kept; `loaded` is the race as loaded (the log is of its version).
   */
  async turnLog(loaded: LoadedRace, turn: number): Promise<TurnLog> {
    const kept = this.cache.get(loaded.race.id);
    if (kept?.log?.turn === turn && kept.race.version === loaded.race.version) return kept.log;
    const log = logFromEntries(turn, await this.turnEntries(loaded.race.id, turn));
    if (kept && kept.race.version === loaded.race.version) this.cache.put({ ...kept, log });
    return log;
  }

  /** The log kept with this version of the race, if any (never read). */
  keptLog(race: Pick<RaceRow, 'id' | 'version'>): TurnLog | undefined {
    const kept = this.cache.get(race.id);
    return kept && kept.race.version === race.version ? kept.log : undefined;
  }

  /**
   * The orders sent for the current turn of a race as loaded, by seat (a map of the caller's own):
   * as kept with its version, else read (and kept).
   */
  async turnOrders(loaded: LoadedRace, turn: number): Promise<Map<number, StoredOrders>> {
    const kept = this.cache.get(loaded.race.id);
    const same = kept && kept.race.version === loaded.race.version;
    if (same && kept.orders?.turn === turn) return new Map(kept.orders.sent as ReadonlyMap<number, StoredOrders>);
    const sent = await this.orders(loaded.race.id, turn);
    if (same) this.cache.put({ ...kept, orders: { turn, sent: new Map(sent) } });
    return sent;
  }

  race(id: string): Promise<Selectable<RaceRow> | undefined> {
    return this.db.selectFrom('races').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * A race's creation: its row, seats, mail seats, first entries and first turn, in one
   * transaction; with `key`, the Idempotency-Key it was created with too (keys older than
   * `expired` are deleted first). Throws `KeyTaken`, storing nothing, when another creation holds
   * the key (in PostgreSQL, one still in flight is waited for). With `rematchOf`, the race is that
   * race's rematch: throws `RematchTaken`, storing nothing, when it has one (or one being stored).
   */
  async insertRace(race: RaceRow, seats: Insertable<SeatRow>[], mail: { race_id: string; seat: number; email: string; secret: string }[], entries: readonly Omit<Entry, 'seq'>[], turn: TurnRow, key?: { row: RaceKeyRow; expired: number }, rematchOf?: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (rematchOf !== undefined) {
        const put = await trx.insertInto('rematches').values({ race_id: rematchOf, rematch_id: race.id }).onConflict((oc) => oc.column('race_id').doNothing()).executeTakeFirst();
        if (Number(put.numInsertedOrUpdatedRows ?? 0) === 0) throw new RematchTaken();
      }
      if (key) {
        await trx.deleteFrom('race_keys').where('created_at', '<', key.expired).execute();
        const put = await trx.insertInto('race_keys').values(key.row).onConflict((oc) => oc.column('key_hash').doNothing()).executeTakeFirst();
        if (Number(put.numInsertedOrUpdatedRows ?? 0) === 0) throw new KeyTaken();
      }
      let seq = race.series_seq;
      if (race.series) {
        // Its place in the series, after every race of it stored so far. Touching the series' first
        // race first holds off another race of the series until this one is stored (a row lock in
        // PostgreSQL, the write lock in SQLite), so two never take the same place.
        await trx.updateTable('races').set((eb) => ({ series: eb.ref('series') })).where('id', '=', race.series).execute();
        const last = await trx.selectFrom('races').select((eb) => eb.fn.max('series_seq').as('seq')).where('series', '=', race.series).executeTakeFirst();
        seq = Number(last?.seq ?? 0) + 1;
      }
      const row = { ...race, series_seq: seq };
      await trx.insertInto('races').values(row).execute();
      await trx.insertInto('seats').values(seats).execute();
      if (mail.length) await trx.insertInto('seat_mail').values(mail).execute();
      for (const q of entryInserts(trx, race.id, 1, entries)) await trx.executeQuery(q.compile());
      await trx.insertInto('turns').values(turn).execute();
      return row;
    }).then((row) => {
      // Kept as created, with its first turn's log and no orders yet: the first requests need not read it.
      const log = nextLog(undefined, entries, turn.turn, { turn: turn.turn, before: turn.before });
      this.cache.put({ race: row, seats: seats as Selectable<SeatRow>[], ...(log ? { log } : {}), orders: { turn: turn.turn, sent: new Map() } });
    });
  }

  /** The holds of these seats of race `id` that a new invite ended, in the order of those invites. */
  endedHolds(id: string, seats: readonly number[]): Promise<Pick<Selectable<SeatHoldRow>, 'seat' | 'from_turn' | 'to_turn'>[]> {
    return this.db.selectFrom('seat_holds').select(['seat', 'from_turn', 'to_turn']).where('race_id', '=', id).where('seat', 'in', seats)
      .where('to_turn', 'is not', null).orderBy('to_seq').orderBy('seat').execute();
  }

  /** The rematch of race `id`, if it has one (`insertRace`). */
  async rematchOf(id: string): Promise<string | undefined> {
    return (await this.db.selectFrom('rematches').select('rematch_id').where('race_id', '=', id).executeTakeFirst())?.rematch_id;
  }

  /** The Idempotency-Key of hash `hash`, unless stored before `since`. */
  raceKey(hash: string, since: number): Promise<Selectable<RaceKeyRow> | undefined> {
    return this.db.selectFrom('race_keys').selectAll().where('key_hash', '=', hash).where('created_at', '>=', since).executeTakeFirst();
  }

  /**
   * The one way a race changes: in one transaction, bump the race's version from `race.version`
   * (nothing is written if another change came first, or if `beforeDeadline` is given and the
   * deadline has passed), append `entries` after `race.last_seq`, and apply the change's other
   * writes. Returns the seq the race's entries now end at, or null when nothing was committed.
   * Called on a repository of `transaction`, it is part of that transaction.
   *
   * Its statements go together, the bump first, and, unless it is part of a larger transaction,
   * the commit with them (one round trip on PostgreSQL: db.ts `changeTogether`). When the bump
   * finds another version, the transaction is rolled back (with whatever else it did: within a
   * larger one, all of it), and null returned; within a larger transaction, `StaleChange` is thrown
   * through it instead.
   */
  async commitChange(race: Pick<RaceRow, 'id' | 'version' | 'last_seq'>, entries: readonly Omit<Entry, 'seq'>[], change: Change = {}): Promise<number | null> {
    const first = race.last_seq + 1;
    const last = race.last_seq + entries.length;
    // The kept copy of this version, if any, is carried on to the next once the change has
    // committed; until then (and if it does not commit) the race is read from the database.
    const kept = this.cache.get(race.id);
    this.cache.drop(race.id);
    // Unless part of a larger transaction, these statements end the transaction: its commit goes with them.
    const ends = !this.db.isTransaction;
    try {
      return await this.transaction(async (repo) => {
        repo.tried.push({ id: race.id, version: race.version });
        const trx = repo.db;
        let q = trx.updateTable('races').set({ ...change.set, version: race.version + 1, last_seq: last })
          .where('id', '=', race.id).where('version', '=', race.version);
        const before = change.beforeDeadline;
        if (before !== undefined) q = q.where((eb) => eb.or([eb('deadline_at', 'is', null), eb('deadline_at', '>', before)]));
        const writes = [...entryInserts(trx, race.id, first, entries), ...(change.writes?.(trx, first) ?? [])];
        if (!(await changeTogether(trx, q.compile(), writes.map((w) => w.compile()), ends))) throw new StaleChange();
        if (kept && kept.race.version === race.version && (!change.seatsChanged || change.seats)) {
          const next = nextKept(kept, last, entries, change);
          repo.committed.push(() => this.cache.put(next));
        }
        return last;
      });
    } catch (e) {
      if (e instanceof StaleChange && !this.db.isTransaction) return null;
      throw e;
    }
  }

  /**
   * Another process committed the change `note` of a race, its entries ending at `last`, when the
   * race is kept here at the version before it: the kept copy follows it, as this process's own
   * commit would, from what the note tells (its entries and writes; a play told whole, its new
   * state and the dealt turn's beginning too). Returns the change's entries as stored (and, for a
   * play, what it made of the race), or null when the note does not tell them or the copy kept is
   * not the one before it.
   */
  follow(id: string, last: number, note: ChangeNote): { entries: Entry[]; play?: OtherPlay } | null {
    const kept = this.cache.get(id);
    const { entries, dealt, played } = note;
    if (!kept || !entries || (dealt !== undefined && !played) || note.seatsChanged || kept.race.version !== note.version - 1 || kept.race.last_seq !== last - entries.length) return null;
    const next = nextKept(kept, last, entries, {
      ...(note.set ? { set: note.set } : {}), ...(note.orders ? { orders: note.orders } : {}), ...(note.opaque ? { writes: () => [] } : {}),
      ...(dealt !== undefined && played ? { dealt: { turn: dealt, before: played.before } } : {}),
    });
    this.cache.put(next);
    const stored = entries.map((e, k) => ({ seq: last - entries.length + 1 + k, turn: e.turn, kind: e.kind, event: e.event }));
    return { entries: stored, ...(dealt !== undefined && played ? { play: { kept, race: next.race, turn: dealt - 1, first: played.first, after: played.before } } : {}) };
  }

  /**
   * What another process's play of a race (the change `note`, which dealt turn `note.dealt`; its
   * entries ending at `last`) made of the race, read in one round trip on PostgreSQL when the race
   * is kept here at the version before it: the play's entries, the race as it stands, and the rows
   * of the turn played (its first seq) and of the one dealt (the state the play left). The kept
   * copy follows it (the dealt turn's log begun, no orders yet). Null when the race is not kept at
   * that version, or has moved on since.
   */
  async followPlay(id: string, last: number, note: ChangeNote): Promise<{ entries: Entry[]; play: OtherPlay } | null> {
    const kept = this.cache.get(id);
    const turn = note.dealt;
    if (!kept || turn === undefined || note.seatsChanged || kept.race.version !== note.version - 1) return null;
    const after = kept.race.last_seq;
    // The race last: each statement sees what was committed when it began, so a race still at the
    // note's version says that the rows read before it are of that version too.
    const [entries, turns, races] = await together(this.db, [
      this.db.selectFrom('events').selectAll().where('race_id', '=', id).where('seq', '>', after).where('seq', '<=', last).orderBy('seq').compile(),
      this.db.selectFrom('turns').selectAll().where('race_id', '=', id).where('turn', 'in', [turn - 1, turn]).compile(),
      this.db.selectFrom('races').selectAll().where('id', '=', id).compile(),
    ]);
    const race = races!.rows[0] as Selectable<RaceRow> | undefined;
    const rows = turns!.rows as Selectable<TurnRow>[];
    const played = rows.find((r) => r.turn === turn - 1);
    const dealt = rows.find((r) => r.turn === turn);
    const read = (entries!.rows as Selectable<EventRow>[]).map((r) => ({ seq: r.seq, turn: r.turn, ...JSON.parse(r.body) }) as Entry);
    if (!race || !played || played.first_seq === null || !dealt || race.version !== note.version || race.last_seq !== last || read.length !== last - after) return null;
    const log = nextLog(kept.log, read, turn, { turn, before: dealt.before });
    this.cache.put({ race, seats: kept.seats, ...(log ? { log } : {}), orders: { turn, sent: new Map() } });
    return { entries: read, play: { kept, race, turn: played.turn, first: played.first_seq, after: dealt.before } };
  }

  /** The orders sent for a turn, by seat; a row that is not JSON is kept as `UnreadableRow`. */
  async orders(id: string, turn: number): Promise<Map<number, StoredOrders>> {
    const rows = await this.db.selectFrom('orders').select(['seat', 'body']).where('race_id', '=', id).where('turn', '=', turn).execute();
    return new Map(rows.map((r) => [r.seat, storedOrders(r.body)]));
  }

  /** One seat's orders for a turn, as stored (a row that is not JSON as `unreadableRow`), or null. */
  async seatOrders(id: string, turn: number, seat: number): Promise<StoredOrders | null> {
    const row = await this.db.selectFrom('orders').select('body').where('race_id', '=', id).where('turn', '=', turn).where('seat', '=', seat).executeTakeFirst();
    return row ? storedOrders(row.body) : null;
  }

  /** Whether a seat keeps receiving the turn reports once its robot is out (`seats.follow`). */
  async setFollow(id: string, seat: number, follow: boolean): Promise<void> {
    this.cache.drop(id);
    await this.db.updateTable('seats').set({ follow: follow ? 1 : 0 }).where('race_id', '=', id).where('seat', '=', seat).execute();
  }

  async mailSecret(id: string, seat: number): Promise<string | null> {
    const m = await this.db.selectFrom('seat_mail').select('secret').where('race_id', '=', id).where('seat', '=', seat).executeTakeFirst();
    return m?.secret ?? null;
  }

  /** A race's seats raced by e-mail: each one's address and secret, by seat. */
  mailSeats(id: string): Promise<Selectable<SeatMailRow>[]> {
    return this.db.selectFrom('seat_mail').selectAll().where('race_id', '=', id).orderBy('seat').execute();
  }

  /** The races with a seat raced by e-mail (`among` these only, if given), each with where its entries end, its status and its deadline. */
  async mailRaces(among?: readonly string[]): Promise<{ id: string; lastSeq: number; status: string; deadlineAt: number | null }[]> {
    if (among && !among.length) return [];
    let q = this.db.selectFrom('races').select(['id', 'last_seq', 'status', 'deadline_at']).where('id', 'in', this.db.selectFrom('seat_mail').select('race_id'));
    if (among) q = q.where('id', 'in', among);
    return (await q.orderBy('id').execute()).map((r) => ({ id: r.id, lastSeq: r.last_seq, status: r.status, deadlineAt: r.deadline_at }));
  }

  /** The running races with a seat raced from address `email` (regardless of case), by race id. */
  async mailRacesOf(email: string): Promise<string[]> {
    const rows = await this.db.selectFrom('seat_mail').select('race_id').distinct().where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('race_id', 'in', this.db.selectFrom('races').select('id').where('status', '=', 'running')).orderBy('race_id').execute();
    return rows.map((r) => r.race_id);
  }

  /** The races with mail seat `seat` whose id is `id` regardless of case. */
  async mailSeatRaces(id: string, seat: number): Promise<string[]> {
    const rows = await this.db.selectFrom('seat_mail').select('race_id').where('seat', '=', seat).where((eb) => eb(eb.fn('lower', ['race_id']), '=', id.toLowerCase())).execute();
    return rows.map((r) => r.race_id);
  }

  turn(id: string, turn: number): Promise<Selectable<TurnRow> | undefined> {
    return this.db.selectFrom('turns').selectAll().where('race_id', '=', id).where('turn', '=', turn).executeTakeFirst();
  }

  /** The seq that began the turn's latest adjudication (null: not played), undefined for no such turn. */
  async turnPlayedAt(id: string, turn: number): Promise<number | null | undefined> {
    const row = await this.db.selectFrom('turns').select('first_seq').where('race_id', '=', id).where('turn', '=', turn).executeTakeFirst();
    return row ? row.first_seq : undefined;
  }

  /**
   * Running live races whose current turn (the last dealt) has orders in, that are not paused: those
   * in which every person's orders may be in while the turn is not played yet (after a restart).
   */
  async withOrdersIn(): Promise<string[]> {
    const rows = await this.db.selectFrom('races').select(['id', 'policy']).where('status', '=', 'running').where('paused_left', 'is', null)
      .where(sql<boolean>`exists (select 1 from orders o where o.race_id = races.id and o.turn = (select max(t.turn) from turns t where t.race_id = races.id))`)
      .execute();
    return rows.filter((r) => (JSON.parse(r.policy) as { kind: string }).kind === 'live').map((r) => r.id);
  }

  /** Process `process` looks before mail races' deadlines until `until`, unless it says so again (`deadline_lookers`). */
  async looking(process: string, until: number): Promise<void> {
    await this.db.insertInto('deadline_lookers').values({ process, alive_until: until })
      .onConflict((oc) => oc.column('process').doUpdateSet({ alive_until: until })).execute();
  }

  /** Process `process` looks before mail races' deadlines no more. */
  async lookingNoMore(process: string): Promise<void> {
    await this.db.deleteFrom('deadline_lookers').where('process', '=', process).execute();
  }

  /** Whether a process looks before mail races' deadlines at `now` (`deadline_lookers`). */
  async lookerThere(now: number): Promise<boolean> {
    return !!(await this.db.selectFrom('deadline_lookers').select('process').where('alive_until', '>', now).limit(1).executeTakeFirst());
  }

  /**
   * The races due to be played: running, and their deadline passed, or (not paused) the time by
   * which a turn waiting for its bots was to be played (`play_by`).
   */
  async due(now: number): Promise<string[]> {
    const rows = await this.db.selectFrom('races').select('id').where('status', '=', 'running')
      .where((eb) => eb.or([eb('deadline_at', '<=', now), eb.and([eb('play_by', '<=', now), eb('paused_left', 'is', null)])]))
      .execute();
    return rows.map((r) => r.id);
  }

  /** A series' races: its first and those created after it, in the order they were stored (`series_seq`). */
  async seriesRaces(id: string): Promise<Selectable<RaceRow>[]> {
    const first = await this.db.selectFrom('races').selectAll().where('id', '=', id).execute();
    const later = await this.db.selectFrom('races').selectAll().where('series', '=', id).orderBy('series_seq').execute();
    return [...first, ...later];
  }

  async exists(id: string): Promise<boolean> {
    return !!(await this.db.selectFrom('races').select('id').where('id', '=', id).executeTakeFirst());
  }

  /** Entries after `after`, in order (at most `limit`), or null for no race (asked only when there are none). */
  async entries(id: string, after: number, limit?: number): Promise<Entry[] | null> {
    let q = this.db.selectFrom('events').selectAll().where('race_id', '=', id).where('seq', '>', after).orderBy('seq');
    if (limit !== undefined) q = q.limit(limit);
    const rows = await q.execute();
    if (!rows.length && !(await this.exists(id))) return null;
    return rows.map((r) => ({ seq: r.seq, turn: r.turn, ...JSON.parse(r.body) }));
  }

  /**
   * `entries` as the JSON text of its array, made from the stored texts without reading them into
   * objects and printing them again (a race's whole log, asked by anyone, cost the server that for
   * each of its hundreds of entries); null for no race.
   */
  async entriesJson(id: string, after: number): Promise<string | null> {
    const rows = await this.db.selectFrom('events').select(['seq', 'turn', 'body']).where('race_id', '=', id).where('seq', '>', after).orderBy('seq').execute();
    if (!rows.length && !(await this.exists(id))) return null;
    // Each body is a stored object's JSON ("{...}"): seq and turn go first, as `entries` puts them.
    return `[${rows.map((r) => `{"seq":${r.seq},"turn":${r.turn}${r.body.length > 2 ? ',' : ''}${r.body.slice(1)}`).join(',')}]`;
  }

  /** The seq of a race's last committed entry (0 for no race). */
  async lastSeq(id: string): Promise<number> {
    const race = await this.db.selectFrom('races').select('last_seq').where('id', '=', id).executeTakeFirst();
    return race?.last_seq ?? 0;
  }

  /** The entries of a turn (all of them, rewound ones too). */
  async turnEntries(id: string, turn: number): Promise<Entry[]> {
    const rows = await this.db.selectFrom('events').selectAll().where('race_id', '=', id).where('turn', '=', turn).orderBy('seq').execute();
    return rows.map((r) => ({ seq: r.seq, turn: r.turn, ...JSON.parse(r.body) }));
  }

  /**
   * What a played turn is made of, in one read (one round trip on PostgreSQL): the race, the turn
   * and the one after it (undefined: not dealt), the turn's game events (as `gameEvents`), and each
   * seat's robot design; null for no race.
   */
  async playRead(id: string, turn: number): Promise<{ race: Selectable<RaceRow>; turn: Selectable<TurnRow> | undefined; next: Selectable<TurnRow> | undefined; events: GameEvent[]; designs: number[] } | null> {
    const [races, turns, events, seats] = await together(this.db, [
      this.db.selectFrom('races').selectAll().where('id', '=', id).compile(),
      this.db.selectFrom('turns').selectAll().where('race_id', '=', id).where('turn', 'in', turn < MAX_INT32 ? [turn, turn + 1] : [turn]).compile(), // the last turn a client may name has no next one in a 32-bit column
      this.gameEventsQuery(id, turn).compile(),
      this.db.selectFrom('seats').select(['seat', 'robot']).where('race_id', '=', id).orderBy('seat').compile(),
    ]);
    const race = races!.rows[0] as Selectable<RaceRow> | undefined;
    if (!race) return null;
    const rows = turns!.rows as Selectable<TurnRow>[];
    return {
      race, turn: rows.find((r) => r.turn === turn), next: rows.find((r) => r.turn === turn + 1),
      events: liveGameEvents(events!.rows as Selectable<EventRow>[], turn),
      designs: (seats!.rows as Pick<SeatRow, 'seat' | 'robot'>[]).map((x) => x.robot ?? x.seat),
    };
  }

  private gameEventsQuery(id: string, turn?: number) {
    const q = this.db.selectFrom('events').selectAll().where('race_id', '=', id);
    return (turn !== undefined ? q.where('turn', 'in', [turn - 1, turn]) : q).orderBy('seq');
  }

  /**
   * The engine's events of a race (or of one turn), less any the moderator rewound. A rewind of
   * turn N (an entry of turn N) takes back what followed, turn N+1's first entries included, so
   * the entries of one turn are read with those of the turn before.
   */
  async gameEvents(id: string, turn?: number): Promise<GameEvent[]> {
    return liveGameEvents(await this.gameEventsQuery(id, turn).execute(), turn);
  }
}

/** The game events among these entry rows (in seq order), of `turn` if given, less any the moderator rewound. */
function liveGameEvents(rows: readonly Selectable<EventRow>[], turn?: number): GameEvent[] {
  const entries = rows.map((r) => ({ seq: r.seq, turn: r.turn, ...JSON.parse(r.body) }) as Entry);
  const undone = entries.flatMap((e) => (e.kind === 'race' && e.event.type === 'rewound' ? [[e.event.from, e.event.to] as const] : []));
  return entries.filter((e) => e.kind === 'game' && (turn === undefined || e.turn === turn) && !undone.some(([a, b]) => e.seq >= a && e.seq <= b)).map((e) => e.event as GameEvent);
}

/** A stored orders row that is not JSON (a corrupt row): the turn fills the seat at random and logs why (races.ts `play`). */
export interface UnreadableRow {
  readonly unreadableRow: string;
}
export type StoredOrders = SeatOrders | UnreadableRow;
export const unreadableRow = (o: StoredOrders | undefined): o is UnreadableRow => !!o && 'unreadableRow' in o;
/** A stored row as the engine's reader takes it (`storedTurn`, `storedOrders`): a row that is not JSON is no orders. */
export const rowBody = (o: StoredOrders): SeatOrders | null => (unreadableRow(o) ? null : o);
/** The revision stored orders were sent with (`PUT …/orders`, the order of a seat's sends), 0 for none: sent without one, or a row that is not JSON. */
export const revisionOf = (o: StoredOrders | undefined): number => {
  const revision = o && !unreadableRow(o) ? (o as { revision?: unknown }).revision : undefined;
  return Number.isSafeInteger(revision) ? (revision as number) : 0;
};
/** What of a stored row did not read: the row itself when it is not JSON, else what the engine's reader named. */
export const rowUnread = (o: StoredOrders, unread: readonly { field: string; message: string }[] | undefined): readonly { field: string; message: string }[] =>
  unreadableRow(o) ? [{ field: 'body', message: `not JSON (${o.unreadableRow})` }] : unread ?? [];

function storedOrders(body: string): StoredOrders {
  try {
    return JSON.parse(body) as SeatOrders;
  } catch (e) {
    return { unreadableRow: (e as Error).message };
  }
}

/** The kept copy of a race's next version, once `change` (its entries ending at `last`) has committed on top of `kept`. */
function nextKept(kept: CachedRace, last: number, entries: readonly Omit<Entry, 'seq'>[], change: Pick<Change, 'set' | 'dealt' | 'orders' | 'writes' | 'seats'>): CachedRace {
  const row = { ...kept.race, ...change.set, version: kept.race.version + 1, last_seq: last };
  // The new state is parsed here once (stateOf keeps it with the row) rather than by the next request.
  const turn = change.set?.state === undefined ? kept.log?.turn : stateOf(row).turn;
  const log = turn === undefined ? undefined : nextLog(kept.log, entries, turn, change.dealt);
  const orders = nextOrders(kept.orders, change);
  return { race: row, seats: change.seats ? change.seats(kept.seats) : kept.seats, ...(log ? { log } : {}), ...(orders ? { orders } : {}) };
}

/**
 * The orders kept with the next version, once `change` has committed on top of those kept with
 * this one (undefined: not known; a change whose writes are not told is not followed).
 */
function nextOrders(kept: CachedRace['orders'], change: Pick<Change, 'dealt' | 'orders' | 'writes' | 'seats'>): CachedRace['orders'] {
  if (change.dealt) return { turn: change.dealt.turn, sent: new Map() };
  if (change.orders) {
    const { turn, seat, body } = change.orders;
    if (kept?.turn !== turn) return undefined;
    return { turn, sent: new Map(kept.sent).set(seat, storedOrders(body)) };
  }
  return change.writes && !change.seats ? undefined : kept;
}

/** The seats whose orders are in, each with how many registers its program fills (a count: no card; none for a row that does not read). */
export const submittedCounts = (sent: ReadonlyMap<number, StoredOrders>): Map<number, number> =>
  new Map([...sent].map(([seat, o]) => [seat, unreadableRow(o) || !Array.isArray(o.program) ? 0 : o.program.filter((e) => e !== null).length]));

function entryInserts(trx: Kysely<Tables>, id: string, first: number, entries: readonly Omit<Entry, 'seq'>[]): Compilable[] {
  const out: Compilable[] = [];
  for (let k = 0; k < entries.length; k += ROWS_PER_INSERT)
    out.push(trx.insertInto('events').values(entries.slice(k, k + ROWS_PER_INSERT).map((e, m) => ({ race_id: id, seq: first + k + m, turn: e.turn, body: JSON.stringify({ kind: e.kind, event: e.event }) }))));
  return out;
}
