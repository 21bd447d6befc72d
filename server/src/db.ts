/**
 * The race database: SQLite by default (a file under ./data), PostgreSQL when a URL is given. One
 * code path through Kysely, two dialects.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createHash } from 'node:crypto';
import {
  CompiledQuery, Kysely, PostgresAdapter, SqliteDialect,
  type Generated, type LogEvent, type PostgresPool, type PostgresPoolClient, type QueryResult,
} from 'kysely';
import pg from 'pg';
import { CurrentSchemaPostgresDialect, migrateToLatest } from './migrations.js';
import { openSqlite, type SqliteOptions } from './sqlite.js';

export interface RaceRow {
  id: string;
  created_at: number;
  course: string;
  rules: string;
  settings: string;
  policy: string;
  moderator_hash: string;
  /** The engine's GameState as JSON. */
  state: string;
  /** Bumped by every change; an update that finds another version changes nothing. */
  version: number;
  last_seq: number;
  /** When the current programming phase ends (ms since the epoch); null while paused or over. */
  deadline_at: number | null;
  /** While paused: how long was left of the deadline. */
  paused_left: number | null;
  status: string;
  /** A number standing for the deal, which tells nothing of it (deal.ts `dealNumber`). */
  seed: number;
  /** The deal as JSON (deal.ts); null for a race stored before deals were kept apart. */
  deal: string | null;
  /**
   * A live turn whose people's orders are all in, waiting for its bots in the process that took the
   * last orders: by when it is to be played. Past it, any process plays it (that one may be gone).
   * Null otherwise.
   */
  play_by: number | null;
  /** A course of the race's own (a course object, docs/formats.md); null for a shipped course named by `course`. */
  course_json: string | null;
  /** With no person left: "play" out at bot speed (null too), or "end". */
  unattended: string | null;
  /** The series it belongs to: the id of the series' first race; null for a race on its own. */
  series: string | null;
  /**
   * Its place in the series: 1 for the race after the first, and so on (set when it is stored);
   * null for a race on its own and a series' first race.
   */
  series_seq: number | null;
}

export interface SeatRow {
  race_id: string;
  seat: number;
  name: string;
  kind: string;
  level: string | null;
  token_hash: string;
  /** The hash of the seat's unspent invite code; '' once spent, or for a seat never invited (a bot's, an e-mail seat's). */
  invite_hash: Generated<string>;
  /** 1: a first-timer, whom the Three Minute Rule does not hurry (004 L188). */
  first_timer: Generated<number>;
  /** 1: keeps receiving the turn mails once its robot is out. */
  follow: Generated<number>;
  /** The robot it races (render/src/robots.ts's designs); null in a race made before seats chose: its seat number's. */
  robot: number | null;
}

export interface OrdersRow {
  race_id: string;
  turn: number;
  seat: number;
  body: string;
  submitted_at: number;
}

export interface EventRow {
  race_id: string;
  seq: number;
  turn: number;
  body: string;
}

export interface TurnRow {
  race_id: string;
  turn: number;
  /** The state the turn began from (before its start: re-entry, power down, the deal). */
  before: string;
  /**
   * The state once the turn had begun: what the programs were written against, a Recompile made
   * in the turn included (a rewind goes back to it, moderation.ts).
   */
  dealt: string;
  /** The event that began the turn's latest adjudication. */
  first_seq: number | null;
}

/** A seat raced by e-mail: its player's address and the secret its orders must carry (mail/). */
export interface SeatMailRow {
  race_id: string;
  seat: number;
  email: string;
  /** In clear: every mail to the seat carries it in its reply address. */
  secret: string;
}

/** The Idempotency-Key a race was created with (race-keys.ts), kept for KEY_TTL_MS. */
export interface RaceKeyRow {
  /** The key's hash (`keyHash`). */
  key_hash: string;
  /** The request body's hash (`bodyHash`): the key answers only a request with the same body. */
  body_hash: string;
  race_id: string;
  /** The creation's answer, sealed with the key (`seal`). */
  answer: string;
  created_at: number;
}

/**
 * A token's hold of a person's seat (races.ts `openedBefore`): from the turn it was taken with an
 * invite (`seatTaken`) to the turn the moderator's new invite made it void (`invited`; null while it
 * holds), and the seq of that `invited` entry (the order a claim lists them in).
 */
export interface SeatHoldRow {
  race_id: string;
  seat: number;
  from_turn: number;
  to_turn: number | null;
  to_seq: number | null;
}

/** A race over and its rematch (races.ts `rematch`): one a race, the first asked for. */
export interface RematchRow {
  /** The race raced again. */
  race_id: string;
  /** Its rematch. */
  rematch_id: string;
}

/**
 * A process that looks into the mail gateway's mailbox before a mail race's deadline is played
 * (races.ts `beforeDeadlinePlay`), there until `alive_until` unless it says so again: the other
 * processes leave those deadlines to it.
 */
export interface DeadlineLookerRow {
  process: string;
  alive_until: number;
}

export interface Tables {
  races: RaceRow;
  seats: SeatRow;
  seat_mail: SeatMailRow;
  orders: OrdersRow;
  events: EventRow;
  turns: TurnRow;
  race_keys: RaceKeyRow;
  rematches: RematchRow;
  seat_holds: SeatHoldRow;
  deadline_lookers: DeadlineLookerRow;
}

export type Db = Kysely<Tables>;

export interface DbConfig {
  /** postgres://… to use PostgreSQL; else the SQLite file. */
  readonly url?: string;
  readonly file?: string;
  /** PostgreSQL: connections kept at most (10 by default; `DB_POOL_SIZE`). */
  readonly poolSize?: number;
  /**
   * PostgreSQL: how long a use of a connection may wait for the database in all, for a connection
   * of the pool and then its statements' answers, before it fails (10 s by default;
   * `DB_QUERY_TIMEOUT_MS`): a database that stops answering without closing its connections (a
   * frozen server, a network partition) gets the request a 503 within that time, not a wait as long
   * as the fault (nor, as before 2026-11-30, the pool's wait of up to 5 s and then 10 s for a
   * statement: 15 s, when the web client gives a request up). A statement that times out has its
   * connection dropped, so PostgreSQL rolls back what it had of the transaction.
   * `null`: none (the start-up's migrations, `migrateAtStart`).
   */
  readonly queryTimeoutMs?: number | null;
  /**
   * PostgreSQL: `'off'` (`DB_SYNCHRONOUS_COMMIT=off`) sets `synchronous_commit = off` on every
   * connection: a commit is answered once its WAL record is in PostgreSQL's shared memory, without
   * waiting for the fdatasync of the WAL (PostgreSQL's WAL writer flushes it within 3 ×
   * `wal_writer_delay`, 600 ms by default). It then survives what SQLite's commits survive here
   * (sqlite.ts): the server process killed, and a PostgreSQL backend terminated; a crash of
   * PostgreSQL itself (its restart after any backend crashes, an immediate shutdown), of the
   * operating system, or a power cut may lose the last commits (never half of one: the database
   * stays whole). Unset: the database's own setting (PostgreSQL's default `on`: a commit waits for
   * the fsync). docs/server.md, docs/performance.md ("Commits on a busy disk").
   */
  readonly synchronousCommit?: 'off';
  /** Kysely's log of every query (the tests count statements with it). */
  readonly log?: (e: LogEvent) => void;
  /** SQLite: between two checkpoints, and the write-ahead log's size past which it is started over (sqlite.ts; the tests make them small). */
  readonly sqlite?: Pick<SqliteOptions, 'checkpointMs' | 'walLimitBytes'>;
}

/**
 * Statements to be sent together (`together`): a query that carries them as its one parameter,
 * which the PostgreSQL pool below recognises.
 */
class Pipelined {
  /** @param commits the transaction's `commit` goes with them (`changeTogether`). */
  constructor(readonly queries: readonly CompiledQuery[], readonly commits = false) {}
}

/** One statement's answer as `together` gives it. */
export interface Answered {
  readonly command: string;
  readonly rowCount: number;
  readonly rows: unknown[];
}

/**
 * Runs `queries` in order on `db`'s connection (a transaction's, if `db` is one) and gives each
 * one's answer. On PostgreSQL they are sent at once, without waiting for each answer (the client's
 * pipeline mode): one round trip for all. On SQLite, one after the other (a statement there is a
 * call, not a round trip). An error in one fails the whole: in a transaction, PostgreSQL refuses
 * the statements after it.
 */
export async function together(db: Kysely<Tables>, queries: readonly CompiledQuery[]): Promise<Answered[]> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    const out: Answered[] = [];
    for (const q of queries) {
      const r: QueryResult<unknown> = await db.executeQuery(q);
      out.push({ command: '', rowCount: Number(r.numAffectedRows ?? r.rows.length), rows: r.rows });
    }
    return out;
  }
  const r = await db.executeQuery<Answered>(CompiledQuery.raw('-- pipelined', [new Pipelined(queries)]));
  return r.rows;
}

/** PostgreSQL's division_by_zero: what the guarded bump of `changeTogether` raises when it changed no row. */
const NO_ROW = '22012';

/**
 * A change's statements run together (as `together` runs them), `bump` first: an UPDATE that must
 * change exactly one row (the race's version), or nothing of the change may be kept. Returns whether
 * it changed one; if not, the caller rolls the transaction back. With `commits`, these are the last
 * statements of the transaction `db` is: on PostgreSQL its `commit` goes with them (the begin, the
 * statements and the commit in one round trip and one write), and the bump is sent as a statement
 * that fails when it changed no row, so that PostgreSQL keeps nothing of the transaction then (a
 * commit after a failed statement rolls back). Kysely's own `commit` afterwards is then answered
 * without being sent.
 */
export async function changeTogether(db: Kysely<Tables>, bump: CompiledQuery, rest: readonly CompiledQuery[], commits: boolean): Promise<boolean> {
  if (!commits || !(db.getExecutor().adapter instanceof PostgresAdapter)) return (await together(db, [bump, ...rest]))[0]!.rowCount === 1;
  const guarded = CompiledQuery.raw(`with bumped as (${bump.sql} returning 1) select 1 / count(*) as bumped from bumped`, [...bump.parameters]);
  try {
    await db.executeQuery(CompiledQuery.raw('-- pipelined', [new Pipelined([guarded, ...rest], true)]));
    return true;
  } catch (e) {
    if ((e as { code?: unknown }).code === NO_ROW) return false;
    throw e;
  }
}

/**
 * What a PostgreSQL server process has sent its database since it started (`GET /api/metrics`'s
 * `db`, which the load benchmark divides by the turns played): statements (not counting begin,
 * commit and rollback), transactions (begins), round trips (a statement's answer waited for; a
 * begin sent ahead with the statement after it is none, nor a commit sent with those before it), and the connections taken from the pool
 * that had to wait for one to come free, with how long they waited in all.
 */
export interface DbStats {
  statements: number;
  transactions: number;
  roundTrips: number;
  poolWaits: number;
  poolWaitMs: number;
}

/** How many statements get a name (are prepared once per connection); any beyond are sent unnamed. */
const NAMED_STATEMENTS = 500;

/**
 * The pool as Kysely uses it, with every statement that has parameters sent as a named prepared
 * statement (its name a hash of its text): PostgreSQL parses and plans it once per connection, not
 * at every execution, and the client sends only its parameters after the first time. Statements
 * without parameters (begin, commit) stay in the simple protocol.
 *
 * The connections are in pipeline mode: a statement is sent without waiting for the answers of
 * those before it. So a transaction's `begin` is answered at once and goes out with the statement
 * after it (if it failed, so would that statement: the connection is gone), and `together`'s
 * statements go out at once, one round trip for all.
 */
function preparedOnce(pool: pg.Pool, max: number, stats: DbStats, budgetMs: number | null): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < NAMED_STATEMENTS) {
      name = `rr_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    connect: async () => {
      const full = pool.idleCount === 0 && pool.totalCount >= max;
      const asked = performance.now();
      const client = budgetMs === null ? await pool.connect() : await connectWithin(pool, budgetMs);
      if (full) (stats.poolWaits++, (stats.poolWaitMs += performance.now() - asked));
      // What is left of the budget once the connection came: each statement waits at most that.
      const timeout = (): { query_timeout?: number } => (budgetMs === null ? {} : { query_timeout: Math.max(1, Math.ceil(asked + budgetMs - performance.now())) });
      // A transaction's `begin`, answered but not sent yet: it goes out with the statement after it.
      let begun = false;
      // The transaction's `commit` went out with its last statements, and was answered (`changeTogether`).
      let ended = false;
      return {
        // Kysely's query (no cursor is configured, so never a cursor's).
        query: (async (text: string, values: readonly unknown[]) => {
          const send = (text: string, values: readonly unknown[]) => {
            const name = values.length ? nameOf(text) : undefined;
            if (text !== 'begin' && text !== 'commit' && text !== 'rollback') stats.statements++;
            return client.query({ ...(name ? { name } : {}), text, values: [...values], ...timeout() });
          };
          if (text === 'begin') {
            stats.transactions++;
            begun = true;
            ended = false;
            return { command: 'BEGIN', rowCount: null, rows: [] };
          }
          if (text === 'commit' && ended) {
            ended = false;
            return { command: 'COMMIT', rowCount: null, rows: [] };
          }
          stats.roundTrips++;
          const batch = values[0];
          const queries = batch instanceof Pipelined ? batch.queries : [CompiledQuery.raw(text, [...values])];
          // Each statement's messages would be written to the socket on their own (a syscall each,
          // and on loopback the kernel's whole send path in this thread): corked, the transaction's
          // begin and the batch go in one.
          const socket = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
          socket?.cork?.();
          let sent: Promise<pg.QueryResult>[];
          let commit: Promise<pg.QueryResult> | null = null;
          try {
            // A begin that failed fails the statements after it too (the connection is gone).
            if (begun) send('begin', []).catch(() => undefined);
            begun = false;
            sent = queries.map((q) => send(q.sql, q.parameters));
            if (batch instanceof Pipelined && batch.commits) commit = send('commit', []);
          } finally {
            socket?.uncork?.();
          }
          if (!(batch instanceof Pipelined)) return sent[0]!;
          const settled = await Promise.allSettled(commit ? [...sent, commit] : sent);
          const failed = settled.find((x) => x.status === 'rejected');
          if (failed) throw failed.reason;
          // Every statement went through: so did the commit, unless PostgreSQL answered it with a rollback.
          if (commit) {
            if ((settled.pop() as PromiseFulfilledResult<pg.QueryResult>).value.command !== 'COMMIT') throw new Error('the transaction was rolled back');
            ended = true;
          }
          const rows: Answered[] = settled.map((x) => {
            const r = (x as PromiseFulfilledResult<pg.QueryResult>).value;
            return { command: r.command, rowCount: r.rowCount ?? 0, rows: r.rows };
          });
          return { command: 'PIPELINE', rowCount: null, rows };
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

/**
 * A connection of the pool within `ms`, else the error the pool gives when its own wait runs out
 * (a 503: `databaseUnavailable`); a connection that comes later goes back to the pool.
 */
function connectWithin(pool: pg.Pool, ms: number): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error('timeout exceeded when trying to connect'));
    }, ms);
    pool.connect().then(
      (client) => (clearTimeout(timer), late ? client.release() : resolve(client)),
      (e: unknown) => (clearTimeout(timer), late || reject(e)),
    );
  });
}

export function openDb(c: DbConfig): { db: Db; dialect: 'sqlite' | 'postgres'; stats?: DbStats } {
  if (c.url) {
    const max = c.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: c.url, max, connectionTimeoutMillis: 5000, pipeline: true,
      ...(c.queryTimeoutMs === null ? {} : { query_timeout: c.queryTimeoutMs ?? 10_000 }),
      // Lets an operator (and the tests) tell this server's connections apart.
      ...(process.env.PG_APPLICATION_NAME ? { application_name: process.env.PG_APPLICATION_NAME } : {}),
    });
    // An idle connection that the server closes (a restart, pg_terminate_backend) is dropped from
    // the pool and replaced by the next query; it must not take the process down.
    pool.on('error', (e) => console.error(`database connection lost: ${e.message}`));
    // A connection in use that the server closes fails its query (answered 503); its 'error' event
    // is logged here rather than left to the process's last resort.
    pool.on('connect', (client) => client.on('error', (e) => console.error(`database connection lost in use: ${e.message}`)));
    // Sent before anything else on the connection (its queries go in order): a connection whose SET
    // failed commits as the database says, never less durably than asked.
    if (c.synchronousCommit === 'off') pool.on('connect', (client) => void client.query('set synchronous_commit = off').catch((e: Error) => console.error(`synchronous_commit = off not set: ${e.message}`)));
    // 64-bit integers (times in ms) come back as numbers.
    pg.types.setTypeParser(20, (v) => Number(v));
    const stats: DbStats = { statements: 0, transactions: 0, roundTrips: 0, poolWaits: 0, poolWaitMs: 0 };
    return { db: new Kysely<Tables>({ dialect: new CurrentSchemaPostgresDialect({ pool: preparedOnce(pool, max, stats, c.queryTimeoutMs === null ? null : c.queryTimeoutMs ?? 10_000) }), ...(c.log ? { log: c.log } : {}) }), dialect: 'postgres', stats };
  }
  const file = c.file ?? 'data/roborally.sqlite';
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  // WAL without an fsync per commit, checkpoints off the event loop, statements prepared once (sqlite.ts).
  // The log is copied whole while Kysely's one connection is held: the requests' statements wait for it, the event loop does not.
  const sqlite = openSqlite(file, { ...c.sqlite, hold: (work) => db.connection().execute(work) });
  const db: Kysely<Tables> = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }), ...(c.log ? { log: c.log } : {}) });
  return { db, dialect: 'sqlite' };
}

/**
 * Whether an error means the database cannot be reached now (a lost or refused connection, a
 * server shutting down), or ended the transaction to let another go first (PostgreSQL's
 * serialization failure and deadlock: rolled back whole), not that the request was wrong: such a
 * request is answered 503 and may be sent again.
 */
export function databaseUnavailable(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown };
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' ? err.message : '';
  return ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08000', '08003', '08006', '53300', '40001', '40P01', 'SQLITE_BUSY', 'SQLITE_IOERR']
    .includes(code) || /Connection terminated|not queryable|terminating connection|connection timeout|Query read timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(message);
}

/**
 * Whether an error means the database has no room to write (SQLite's SQLITE_FULL, PostgreSQL's
 * disk_full): nothing of the request was kept, and it may be sent again once there is room
 * (answered 507).
 */
export function databaseFull(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return code === 'SQLITE_FULL' || code === '53100';
}

/** Brings the database's tables up to date (server/src/migrations.ts). */
export async function migrate(db: Db): Promise<void> {
  await migrateToLatest(db);
}

/**
 * The server's start: brings the database of `c` up to date. On PostgreSQL on a connection of its
 * own, closed afterwards, without the statement timeout of `c.queryTimeoutMs` (which is for
 * requests): a migration may take long on a big database, or wait for another process's (the
 * Migrator's lock), and a start must not fail for that. SQLite has no statement timeout: `db`.
 */
export async function migrateAtStart(c: DbConfig, db: Db): Promise<void> {
  if (!c.url) return migrate(db);
  const own = openDb({ ...c, poolSize: 1, queryTimeoutMs: null });
  try {
    await migrate(own.db);
  } finally {
    await own.db.destroy();
  }
}
