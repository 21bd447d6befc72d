/** How long a replay lasts at 1×, from its events: what a live race's clock waits for at most. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GameEvent } from '../../engine/src/index.js';
import { replayLengths, replayMs, STEP_GAP_MS, STILL_STEP_MS } from '../src/pace.js';

const robot = (name: string, x: number, y: number) =>
  ({ name, x, y, dir: 'N' as const, damage: 0, status: 'active' as const, virtual: false, poweredDown: false, lives: 3, flags: 0 });

test('a step lasts as long as its beats: a Move 3 is three glides, a U-turn half as long again as a quarter turn, with a pause between steps', () => {
  const ev: GameEvent[] = [
    { type: 'registerBegan', register: 1 },
    { type: 'moved', robot: 0, from: [2, 5], to: [2, 4] },
    { type: 'moved', robot: 0, from: [2, 4], to: [2, 3] },
    { type: 'moved', robot: 0, from: [2, 3], to: [2, 2] },
    { type: 'turned', robot: 1, from: 0, to: 2, by: 'card' },
  ];
  const robots = [robot('Ava', 2, 5), robot('Bob', 6, 6)];
  // Ava's move, Bob's U-turn, and the whole turn at once (a picture: nothing to animate).
  const animated = 3 * 380 + 1.5 * 380 + 0 + 2 * STEP_GAP_MS;
  const still = 3 * STILL_STEP_MS + 2 * STEP_GAP_MS;
  assert.deepEqual(replayLengths(robots, ev), { steps: 3, animated, still });
  assert.equal(replayMs(robots, ev), Math.max(animated, still), 'the longer of the two');
});

test('a step with nothing to animate passes at once when animated but is shown a while with reduced motion, and the wait covers the slower', () => {
  const ev: GameEvent[] = [
    { type: 'repaired', robot: 0, points: 1, damage: 1, by: 'wrench' },
    { type: 'repaired', robot: 0, points: 1, damage: 1, by: 'wrench' },
  ];
  const robots = [robot('Ava', 2, 5)];
  // The repairs, then the whole turn at once.
  assert.deepEqual(replayLengths(robots, ev), { steps: 2, animated: STEP_GAP_MS, still: 2 * STILL_STEP_MS + STEP_GAP_MS });
  assert.equal(replayMs(robots, ev), 2 * STILL_STEP_MS + STEP_GAP_MS);
});
