import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shippedCourses } from './courses.js';
import { BotSetups } from './bot-setups.js';
import type { BotJob } from './bot-pool.js';

let races = 0;

/** A job of a race of its own as a thread receives it: the board a copy of the server's (postMessage clones it). */
function sent(course: string, boardId: number, settings: BotJob['setup']['settings'] = {}, rules = 'classic'): Pick<BotJob, 'race' | 'setup'> {
  const c = shippedCourses().get(course)!;
  return { race: `race${++races}`, setup: { board: structuredClone(c.board), boardId, rules, settings, boards: c.boards.length } };
}

test("a bot thread makes one setup (its board, and so the strong bot's course maps kept with it) for every race on a course, not one per race", () => {
  const setups = new BotSetups();
  const first = setups.setupFor(sent('first-shift', 1));
  for (let k = 0; k < 20; k++) assert.equal(setups.setupFor(sent('first-shift', 1)), first);
  assert.equal(setups.setupFor(sent('first-shift', 1)).board, first.board);
  assert.equal(setups.size, 1);
});

test('a bot thread keeps setups apart where the board, the rule set or the settings differ', () => {
  const setups = new BotSetups();
  const plain = setups.setupFor(sent('first-shift', 1));
  assert.notEqual(setups.setupFor(sent('first-shift', 2)), plain);
  assert.notEqual(setups.setupFor(sent('first-shift', 1, {}, 'pbem')), plain);
  const lives = setups.setupFor(sent('first-shift', 1, { infiniteLives: true }));
  assert.notEqual(lives, plain);
  assert.equal(lives.settings.infiniteLives, true);
  assert.equal(setups.size, 4);
});
