/** The web client's option helpers and the replay's words for options' events, without a server or a browser. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canJoin, compact, entryName, fieldOf, gearFor, offered, readEntry } from '../src/choices.js';
import { describe, turnResult } from '../src/words.js';

const CLASSIC_KEYS = ['unlock', 'exchange', 'lose', 'shield', 'gyro', 'weapon', 'fireControl', 'brakes', 'fourthGear', 'reverseGear', 'abort', 'conditional', 'flywheel', 'recompile', 'chopShop'];

test('a robot is offered the decisions of the options it holds, in its rule set', () => {
  assert.deepEqual(offered(CLASSIC_KEYS, [], false), []);
  assert.deepEqual(offered(CLASSIC_KEYS, ['Shield', 'Mini Howitzer:3', 'Recompile', 'Brakes'], false), ['exchange', 'lose', 'shield', 'weapon']);
  assert.deepEqual(offered(CLASSIC_KEYS, ['Flywheel'], true), ['exchange', 'lose', 'flywheel', 'chopShop']);
  assert.deepEqual(offered(['active', 'circuitBreaker', 'flywheel', 'recompile'], ['Pressor Beam', 'Circuit Breaker'], false), ['active', 'circuitBreaker']);
});

test('cards join in one register only as Crab Legs or Dual Processor allow', () => {
  assert.equal(canJoin('F1:500', 'R:80', []), false, 'no option, no joining');
  assert.equal(canJoin('F1:500', 'R:80', ['Crab Legs']), true);
  assert.equal(canJoin('F2:700', 'R:80', ['Crab Legs']), false, 'Crab Legs takes a Move 1');
  assert.equal(canJoin('F2:700', 'U:20', ['Dual Processor']), true);
  assert.equal(canJoin('L:90', 'R:80', ['Dual Processor']), false, 'a move first');
  assert.equal(canJoin('F1', 'L', ['Crab Legs']), true, 'pbem');
});

test('program entries: joined cards and pbem codes, written and read back', () => {
  assert.equal(entryName({ card: 'F1:500', joined: 'R:80' }), 'F1:500+R:80');
  assert.equal(entryName({ card: 'F3', coded: true }), 'F4');
  assert.equal(entryName({ card: 'B', coded: true, joined: 'L' }), 'B2+L');
  assert.deepEqual(readEntry('F0'), { card: 'F1', coded: true });
  assert.deepEqual(readEntry('F2:700+U:20'), { card: 'F2:700', joined: 'U:20' });
  assert.deepEqual(readEntry('R:80'), { card: 'R:80' });
});

test('Brakes, Fourth Gear and Reverse Gear fit their cards', () => {
  assert.equal(gearFor('F1:500', ['Brakes'])?.key, 'brakes');
  assert.equal(gearFor('F1:500', ['Fourth Gear']), null);
  assert.equal(gearFor('F3:800', ['Fourth Gear'])?.code, 'F4');
  assert.equal(gearFor('B', ['Reverse Gear'])?.code, 'B2');
  assert.equal(gearFor('U:20', ['Brakes', 'Fourth Gear', 'Reverse Gear']), null);
});

test('decisions left at their default are not sent; a refusal finds its control', () => {
  assert.equal(compact({ gyro: undefined, weapon: { 3: undefined }, exchange: [] }), null);
  assert.deepEqual(compact({ shield: 'back', weapon: { 2: 'Tractor Beam', 3: undefined }, gyro: true }), { shield: 'back', weapon: { 2: 'Tractor Beam' }, gyro: true });
  const fields = ['program[0]', 'program[1]', 'choices.weapon', 'choices.weapon.3', 'choices.conditional'];
  assert.equal(fieldOf('choices.weapon.3', fields), 'choices.weapon.3');
  assert.equal(fieldOf('choices.weapon.4', fields), 'choices.weapon');
  assert.equal(fieldOf('choices.conditional.card', fields), 'choices.conditional');
  assert.equal(fieldOf('program[1]', fields), 'program[1]');
  assert.equal(fieldOf('choices.shield', fields), null);
  assert.equal(fieldOf('choices.weaponry', fields), null);
});

test('the replay tells the options\' events', () => {
  const say = describe(['Ava', 'Bolt']);
  assert.equal(say({ type: 'shot', robot: 1, by: { robot: 0 }, points: 1, from: [0, 0], to: [0, 2], weapon: 'Tractor Beam' }), "Bolt is shot by Ava's Tractor Beam");
  assert.equal(say({ type: 'shot', robot: 1, by: { robot: 0 }, points: 1, from: [0, 0], to: [0, 2], weapon: 'main' }), 'Bolt is shot by Ava');
  assert.equal(say({ type: 'blockedShot', robot: 1, by: 'Shield', points: 1 }), "Bolt's Shield stops 1 point of damage");
  assert.equal(say({ type: 'exchanged', robot: 0, option: 'Brakes' }), 'Ava discards Brakes instead of a point of damage');
  assert.equal(say({ type: 'rammed', robot: 1, by: 0, points: 2 }), 'Ava rams Bolt: 2 points of damage');
  assert.equal(say({ type: 'scrambled', robot: 1, register: 3, card: 670, by: 0 }), "Ava's Scrambler scrambles Bolt's register 3: now Move 2 (670)");
  assert.equal(say({ type: 'radioControlled', robot: 1, by: 0, registers: [4, 5] }), "Ava radio-controls Bolt: registers 4 and 5 play Ava's cards");
  assert.equal(say({ type: 'aborted', robot: 0, register: 2, card: 90 }), "Ava's Abort Switch: register 2 now holds Turn left (90)");
  assert.equal(say({ type: 'swapped', robot: 0, register: 4, card: 800 }), "Ava's Conditional Program puts Move 3 (800) in register 4");
  assert.equal(say({ type: 'optionDrawn', robot: 1, option: 'a secret option' }), 'Bolt draws a secret option');
  assert.equal(say({ type: 'circuitBreaker', robot: 0, damage: 3 }), "Ava's Circuit Breaker trips at 3 damage points: powered down next turn");
  assert.equal(say({ type: 'markerLocked', robot: 1, register: 5, by: 0 }), "Ava's Fire Control locks Bolt's register 5");
});

test('a turn\'s result tells the viewer\'s robot first, then each robot destroyed, each flag touched and the damage taken by those still on the floor', () => {
  const names = ['Ava', 'Bob', 'Cy'];
  const before = [{ damage: 0 }, { damage: 1 }, { damage: 2 }];
  const events = [
    { type: 'flagTouched', robot: 1, flag: 1 },
    { type: 'damaged', robot: 2, points: 2, damage: 4 },
    { type: 'destroyed', robot: 0, cause: 'pit', pushedBy: null, lives: 2 },
  ] as const;
  const after = [{ damage: 2, status: 'destroyed' }, { damage: 3, status: 'active' }, { damage: 4, status: 'active' }];
  assert.deepEqual(turnResult(names, events, before, after, 0).map((l) => l.text), [
    'Ava is destroyed (fell into a pit): 2 lives left', 'Bob touches flag 1', 'Bob takes 2 damage (3 total)', 'Cy takes 2 damage (4 total)',
  ]);
  assert.deepEqual(turnResult(names, events, before, after, 2).map((l) => l.robot), [2, 1, 0, 1], 'the viewer\'s first, the rest in the order they came');
  const calm = [{ damage: 0, status: 'active' }, { damage: 1, status: 'active' }, { damage: 2, status: 'active' }];
  assert.deepEqual(turnResult(names, [], before, calm, 1).map((l) => l.text), ['Bob takes no damage'], 'the viewer\'s robot is always told');
  assert.deepEqual(turnResult(names, [], before, calm), [], 'a spectator: nothing to tell');
});
