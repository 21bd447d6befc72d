/**
 * The SQLite checkpointer (a worker thread of `sqlite.ts`): its own connection to the database
 * runs `wal_checkpoint(PASSIVE)` every `everyMs`, so that copying the write-ahead log into the
 * database file, and its fsync, happen off the server's event loop. PASSIVE never waits for a
 * writer nor holds one up; what it could not copy is copied at the next one. The server ends the
 * thread when it closes the database.
 */
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file);
db.pragma('busy_timeout = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
setInterval(() => {
  try {
    checkpoint.get();
  } catch (e) {
    // A passing fault: the next round tries again.
    console.error(`sqlite checkpointer: ${(e as Error).message}`);
  }
}, everyMs);
