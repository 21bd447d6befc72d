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
  /** How many prepared statements are kept (500 by default). */
  readonly statements?: number;
}

/** Opens `file` for Kysely's SqliteDialect, with its checkpointer (none for `:memory:`). */
export function openSqlite(file: string, o: SqliteOptions = {}): SqliteDatabase & { readonly database: Database.Database } {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  const memory = file === ':memory:' || file === '';
  let worker: Worker | null = null;
  if (!memory) {
    database.pragma('wal_autocheckpoint = 0');
    worker = new Worker(new URL('./sqlite-checkpointer.js', import.meta.url), { workerData: { file, everyMs: o.checkpointMs ?? 1000 } });
    worker.on('error', (e) => console.error(`sqlite checkpointer: ${e.message}`));
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
    close(): void {
      cache.clear();
      if (worker) void worker.terminate();
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
