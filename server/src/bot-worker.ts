/**
 * A thread of the bot pool (`bot-pool.ts`): decides the bots' orders for a turn as dealt, through
 * the driver's `decideBots`, off the server's event loop. Each race's setup is made once from the
 * board, rule set and settings it is sent, and kept. Races on boards alike (one course) share one
 * board, and so the bots' own tables per board (bots' `courseMaps`: about 17 ms to build and
 * 280 KiB on first-shift), built once per thread instead of once per race.
 * A bot that searches as long as it may (expert) is given half the pool's budget, so that its
 * answer is back in time.
 *
 * The thread first lowers its own priority (the pool's `nice`): on Linux each thread has a nice
 * value of its own, set through its thread id (`/proc/thread-self`). Elsewhere it runs at the
 * server's priority.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { makeSetup, type Board, type Setup } from '../../engine/src/index.js';
import { decideBots } from '../../driver/src/index.js';
import type { BotJob, BotAnswer } from './bot-pool.js';

const nice = (workerData as { nice: number }).nice;
if (nice > 0) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // No /proc/thread-self (not Linux): the thread keeps the server's priority.
  }
}

const setups = new Map<string, Setup>();
const MAX_SETUPS = 2000;
/** Boards by their structured-clone bytes (the form they were sent in): the one each race's setup is made from. */
const boards = new Map<string, Board>();

function boardLike(board: Board): Board {
  const text = serialize(board).toString('latin1');
  const kept = boards.get(text);
  if (kept) return kept;
  if (boards.size >= MAX_SETUPS) boards.delete(boards.keys().next().value!);
  boards.set(text, board);
  return board;
}

function setupFor(job: BotJob): Setup {
  let s = setups.get(job.race);
  if (s) return s;
  const made = makeSetup(boardLike(job.setup.board), job.setup.rules, job.setup.settings, job.setup.boards);
  if (!made.ok) throw new Error(`${made.error.field}: ${made.error.message}`);
  s = made.value;
  if (setups.size >= MAX_SETUPS) setups.delete(setups.keys().next().value!);
  setups.set(job.race, s);
  return s;
}

parentPort!.on('message', (job: BotJob) => {
  let answer: BotAnswer;
  try {
    answer = { id: job.id, ok: true, turns: decideBots(setupFor(job), job.state, job.bots, job.seed, { ms: job.budgetMs / 2, now: () => performance.now() }) };
  } catch (e) {
    answer = { id: job.id, ok: false, error: (e as Error).message };
  }
  parentPort!.postMessage(answer);
});
