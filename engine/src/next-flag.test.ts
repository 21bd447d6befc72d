/** A robot's next flag in words (next-flag.ts): which flag, where, and how far from the robot. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFlag } from './next-flag.js';
import { race, type Bot } from './testing.js';
import type { Settings } from './settings.js';

const GRID = ['. . . . . .', '. . . . . .', '. . . . . .', '. . . . . .'];
const next = (bot: Bot, settings: Settings = {}) => {
  const g = race({ grid: GRID, flags: [[0, 0], [4, 0], [5, 3]] }, [bot], { settings });
  return nextFlag(g.setup, g.state, 0);
};

test('the next flag after the first touched is the second, told by its square and the way from the robot', () => {
  assert.deepEqual(next({ name: 'A', x: 1, y: 3, dir: 'N', flags: 1 }), {
    flag: 2, at: [4, 0], text: 'Next: flag 2 of 3 at (4,0), 3 squares east and 3 squares north of you.',
  });
  assert.equal(next({ name: 'A', x: 5, y: 0, dir: 'N', flags: 1 })!.text, 'Next: flag 2 of 3 at (4,0), 1 square west of you.');
});

test('a robot off the board is told the way from its archive marker, where it re-enters, or from its start before it has one', () => {
  assert.equal(next({ name: 'A', x: 1, y: 3, dir: 'N', flags: 2, archive: [4, 0], destroyed: true })!.text,
    'Next: flag 3 of 3 at (5,3), 1 square east and 3 squares south of your archive marker at (4,0), where your robot re-enters.');
  assert.equal(next({ name: 'A', x: 1, y: 3, dir: 'N', archive: null, start: [1, 3], destroyed: true })!.text,
    'Next: flag 1 of 3 at (0,0), 1 square west and 3 squares north of your start at (1,3), where your robot re-enters.');
});

test('a flag still under its die says so, with the damage the die can still absorb (Dice Rule)', () => {
  assert.match(next({ name: 'A', x: 0, y: 1, dir: 'N' }, { diceRule: [2, 2, 2] })!.text, /1 square north of you\. A die blocks it until shot away: it absorbs 2 more damage/);
});

test('every flag touched, no next flag; RoboArena counts no flag', () => {
  assert.deepEqual(next({ name: 'A', x: 1, y: 3, dir: 'N', flags: 3 }), { flag: null, at: null, text: 'Every flag touched (3 of 3).' });
  assert.equal(next({ name: 'A', x: 1, y: 3, dir: 'N' }, { variant: 'arena' }), null);
});
