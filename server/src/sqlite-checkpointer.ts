/**
 * The SQLite checkpointer (a worker thread of `sqlite.ts`): its own connection to the database
 * runs `wal_checkpoint(PASSIVE)` every `everyMs`, so that copying the write-ahead log into the
 * database file, and its fsync, happen off the server's event loop. PASSIVE never waits for a
 * writer nor holds one up; what it could not copy is copied at the next one.
 *
 * Once a checkpoint finds the log past `walLimitBytes` it says so ('long'); the server holds its
 * statements and answers 'restart', and `wal_checkpoint(RESTART)` copies the rest (the commits
 * since the checkpoint before) so that the next commit starts the log over from its beginning
 * ('restarted'): with commits every few ms the log would otherwise seldom start over, and grow
 * (sqlite.ts). The file keeps its size (at most about `walLimitBytes`) and is written over.
 *
 * The server ends the thread when it closes the database, by asking it ('close'), never by
 * `Worker.terminate()`: terminating a thread inside one of better-sqlite3's calls (its statements
 * prepared at the start, a checkpoint) aborts the whole process. Asked, it ends between two calls:
 * its connection closed, its port too.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, everyMs, walLimitBytes } = workerData as { file: string; everyMs: number; walLimitBytes: number };
const db = new Database(file);
db.pragma('busy_timeout = 0');
/** A frame of the log: a page and its 24-byte header. */
const frameBytes = (db.pragma('page_size', { simple: true }) as number) + 24;
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
/** Asked the server to hold its statements, not answered yet. */
let asked = false;

const timer = setInterval(() => {
  try {
    // `log`: the frames in the log since it last started over.
    let { log, checkpointed } = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    if (!asked && log * frameBytes > walLimitBytes) {
      // What came during the checkpoint is copied now, still without holding the server up, so that
      // little is left to copy (and to fsync) while it waits.
      for (let k = 0; k < 3 && log - checkpointed > 64; k++) ({ log, checkpointed } = checkpoint.get() as { busy: number; log: number; checkpointed: number });
      asked = true;
      parentPort!.postMessage('long');
    }
  } catch (e) {
    // A passing fault: the next round tries again.
    console.error(`sqlite checkpointer: ${(e as Error).message}`);
  }
}, everyMs);

parentPort!.on('message', (m: 'restart' | 'close') => {
  if (m === 'close') {
    clearInterval(timer);
    db.close();
    parentPort!.close();
    return;
  }
  try {
    restart.get();
  } catch (e) {
    console.error(`sqlite checkpointer: ${(e as Error).message}`);
  }
  asked = false;
  parentPort!.postMessage('restarted');
});
