/**
 * The setups a bot thread (`bot-worker.ts`) decides on, made once per course, rule set and
 * settings, not once per race: the bots keep their tables per setup's board (the strong bot's
 * course maps, bots/src/distance.ts, a few hundred KB a course), so a setup per race made every
 * thread hold one set per race it had seen, races on the same course alike. A job names its board
 * (`BotJob.setup.boardId`, one per board object of the server's); the board it carries is used the
 * first time that board is seen, and its copies are left to the garbage collector afterwards.
 */
import { makeSetup, type Setup } from '../../engine/src/index.js';
import type { BotJob } from './bot-pool.js';

/** Setups kept at most (the least recently used go first): every shipped course with room to spare, and races' own. */
const MAX_SETUPS = 2000;

export class BotSetups {
  private readonly setups = new Map<string, Setup>();

  /** Setups kept. */
  get size(): number {
    return this.setups.size;
  }

  /** The setup of a job: the one made for the same board, rule set, boards and settings if kept. */
  setupFor(job: Pick<BotJob, 'setup'>): Setup {
    const { board, boardId, rules, settings, boards } = job.setup;
    const key = `${boardId} ${rules} ${boards} ${JSON.stringify(settings)}`;
    let s = this.setups.get(key);
    if (s) {
      // Most recently used last.
      this.setups.delete(key);
      this.setups.set(key, s);
      return s;
    }
    const made = makeSetup(board, rules, settings, boards);
    if (!made.ok) throw new Error(`${made.error.field}: ${made.error.message}`);
    s = made.value;
    if (this.setups.size >= MAX_SETUPS) this.setups.delete(this.setups.keys().next().value!);
    this.setups.set(key, s);
    return s;
  }
}
