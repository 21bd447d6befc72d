/**
 * A thread of the bot pool (`bot-pool.ts`): decides the bots' orders for a turn as dealt, through
 * the driver's `decideBots`, a new race's bots' starting facings (`botFacings`) and a race's own
 * course (the boards' `courseFromJson`), off the server's event loop. A setup is made once per board, rule set
 * and settings it is sent, and kept for every race on them (`bot-setups.ts`; the bots' own tables
 * per board follow it).
 * A bot that searches as long as it may (expert) is given the pool's time for a decision
 * (`decisionMs`, at most half the turn's wait, so that its answer is back in time).
 *
 * The thread first lowers its own priority (the pool's `nice`): on Linux each thread has a nice
 * value of its own, set through its thread id (`/proc/thread-self`). Elsewhere it runs at the
 * server's priority.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { courseFromJson } from '../../boards/src/index.js';
import { botFacings, decideBots } from '../../driver/src/index.js';
import type { BotJob, BotAnswer, CourseAnswer, CourseJob, FacingsAnswer, FacingsJob } from './bot-pool.js';
import { BotSetups } from './bot-setups.js';

const nice = (workerData as { nice: number }).nice;
if (nice > 0) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // No /proc/thread-self (not Linux): the thread keeps the server's priority.
  }
}

const setups = new BotSetups();

parentPort!.on('message', (job: BotJob | FacingsJob | CourseJob) => {
  if ('kind' in job && job.kind === 'course') {
    let read: CourseAnswer;
    try {
      read = { kind: 'course', id: job.id, ok: true, course: courseFromJson(job.json) };
    } catch (e) {
      read = { kind: 'course', id: job.id, ok: false, error: (e as Error).message };
    }
    parentPort!.postMessage(read);
    return;
  }
  if ('kind' in job) {
    let chosen: FacingsAnswer;
    try {
      chosen = { kind: 'facings', id: job.id, ok: true, facings: botFacings(setups.setupFor(job), job.course, job.seats, job.seed) };
    } catch (e) {
      chosen = { kind: 'facings', id: job.id, ok: false, error: (e as Error).message };
    }
    parentPort!.postMessage(chosen);
    return;
  }
  let answer: BotAnswer;
  try {
    answer = { id: job.id, ok: true, turns: decideBots(setups.setupFor(job), job.state, job.bots, job.seed, { ms: job.decisionMs, now: () => performance.now() }) };
  } catch (e) {
    answer = { id: job.id, ok: false, error: (e as Error).message };
  }
  parentPort!.postMessage(answer);
});
