/**
 * The SQLite connection as the server uses it, so that a commit never holds up other races'
 * requests (issue 13):
 *
 * - WAL with `synchronous = NORMAL`: a commit appends to the write-ahead log without an fsync on
 *   the event loop. A committed transaction is in the operating system's hands once `COMMIT`
 *   returns, so it survives the process being killed (`kill -9`, server/src/crash.test.ts); only a
 *   crash of the operating system or a power cut may lose the last commits before a checkpoint
 *   (never corrupting the database).
 * - Automatic checkpoints are off on this connection; a worker thread with its own connection
 *   (`sqlite-checkpointer.ts`) runs `wal_checkpoint(PASSIVE)` every `checkpointMs`, so the copy
 *   into the database file and its fsync happen off the event loop, and never block a writer.
 * - The log starts over only when a checkpoint has copied all of it and no commit came meanwhile;
 *   with commits every few ms and a checkpoint's fsyncs taking longer, that seldom happens, and the
 *   log grew by megabytes a second (to 128-708 MiB in 3 minutes at 1,000 races). So once a
 *   checkpoint finds the log past `walLimitBytes`, the server's statements are held (`hold`: they
 *   wait, the event loop goes on) while the checkpointer copies what is left of it
 *   (`wal_checkpoint(RESTART)`); the next commit starts it over, writing the file from its start.
 * - A full disk (SQLITE_FULL) or a failed write may make SQLite roll the whole transaction back
 *   itself; Kysely's `rollback` then finds none, and its "cannot rollback" error would hide the
 *   one that says what happened (answered 507, app.ts). A rollback with no transaction open does
 *   nothing here, so the first error is the one that is thrown.
 * - Every statement is prepared once: Kysely asks for a statement per query, and the same SQL
 *   gets the same prepared statement from a bounded cache (the least recently used goes first).
 */
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export interface SqliteOptions {
  /** Between two checkpoints (1 s by default). */
  readonly checkpointMs?: number;
  /** The write-ahead log's size past which it is copied whole and started over, statements held meanwhile (16 MiB by default). */
  readonly walLimitBytes?: number;
  /**
   * Runs `work` with no statement of the server running nor started until it is done (the server:
   * Kysely's one SQLite connection held, db.ts); by default `work` runs at once.
   */
  readonly hold?: (work: () => Promise<void>) => Promise<void>;
  /** How many prepared statements are kept (500 by default). */
  readonly statements?: number;
}

/** Opens `file` for Kysely's SqliteDialect, with its checkpointer (none for `:memory:`). */
export function openSqlite(file: string, o: SqliteOptions = {}): SqliteDatabase & {
  readonly database: Database.Database;
  /** The checkpointer's exit code once it has ended (0 at once for `:memory:`, which has none). */
  readonly ended: Promise<number>;
} {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  const memory = file === ':memory:' || file === '';
  let worker: Worker | null = null;
  let ended: Promise<number> = Promise.resolve(0);
  if (!memory) {
    database.pragma('wal_autocheckpoint = 0');
    const w = new Worker(new URL('./sqlite-checkpointer.js', import.meta.url), { workerData: { file, everyMs: o.checkpointMs ?? 1000, walLimitBytes: o.walLimitBytes ?? 16 * 2 ** 20 } });
    worker = w;
    ended = new Promise((resolve) => w.once('exit', resolve));
    w.on('error', (e) => console.error(`sqlite checkpointer: ${e.message}`));
    // The checkpointer found the log too long: it copies the rest while the server's statements wait.
    const hold = o.hold ?? ((work) => work());
    let restarted: (() => void) | null = null;
    w.on('message', (m: 'long' | 'restarted') => {
      if (m === 'restarted') restarted?.();
      else if (!restarted) {
        void hold(() => new Promise<void>((resolve) => {
          restarted = resolve;
          // Statements wait for its answer: the process waits with them.
          w.ref();
          w.postMessage('restart');
        })).catch((e: Error) => console.error(`sqlite checkpointer: ${e.message}`)).finally(() => {
          restarted = null;
          w.unref();
        });
      }
    });
    // A checkpointer gone (the database closed) leaves no statement held.
    w.on('exit', () => restarted?.());
    // It must not keep a process alive that is otherwise done.
    worker.unref();
  }
  const max = o.statements ?? 500;
  const cache = new Map<string, SqliteStatement>();
  return {
    database,
    prepare(sql: string): SqliteStatement {
      let s = cache.get(sql);
      if (s) {
        // Most recently used last.
        cache.delete(sql);
      } else {
        s = sql === ROLLBACK ? rollback(database) : database.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, s);
      return s;
    },
    ended,
    close(): void {
      cache.clear();
      if (worker) {
        // Asked to end, not terminated (sqlite-checkpointer.ts): the process waits for it to end.
        worker.ref();
        worker.postMessage('close');
      }
      worker = null;
      database.close();
    },
  };
}

/** The statement Kysely's SQLite driver sends to undo a transaction. */
const ROLLBACK = 'rollback';

/** `rollback` as a statement that does nothing when SQLite has already rolled the transaction back itself. */
function rollback(database: Database.Database): SqliteStatement {
  const real = database.prepare(ROLLBACK);
  const run = () => (database.inTransaction ? real.run() : { changes: 0, lastInsertRowid: 0 });
  return { reader: false, run, all: () => (run(), []), iterate: () => (run(), [][Symbol.iterator]()) };
}
