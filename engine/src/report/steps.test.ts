/** A turn's events cut into the steps a reader follows, and their headings (report/steps.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCard } from '../cards.js';
import type { GameEvent } from '../events.js';
import { stepHeading, stepMoments, turnSteps } from './steps.js';
import { EVERY_EVENT } from './narrate.test.js';

const card = (s: string, priorities = true) => parseCard(s, priorities)!;
const names = ['Ava', 'Bob'];
const summary = (events: GameEvent[]) => turnSteps(events).map((s) => [s.register, stepHeading(s, names), s.events.map((e) => e.type)]);

test('a register is cut into the cards revealed, each robot\'s move with the pushes it makes, and each board element in the order it acts', () => {
  const events: GameEvent[] = [
    { type: 'turnBegan', turn: 2 },
    { type: 'reentered', robot: 1, x: 0, y: 0, dir: 1, damage: 2, virtual: false, poweredDown: false },
    { type: 'registerBegan', register: 1 },
    { type: 'revealed', robot: 0, register: 1, card: card('F2:670') },
    { type: 'revealed', robot: 1, register: 1, card: card('R:80') },
    { type: 'moved', robot: 0, from: [1, 1], to: [1, 2] },
    { type: 'pushed', robot: 1, from: [1, 2], to: [1, 3], by: { robot: 0 } },
    { type: 'turned', robot: 1, from: 0, to: 1, by: 'card' },
    { type: 'carried', robot: 0, from: [1, 2], to: [2, 2], express: true },
    { type: 'carried', robot: 0, from: [2, 2], to: [3, 2], express: false },
    { type: 'turned', robot: 0, from: 1, to: 2, by: 'belt' },
    { type: 'pushed', robot: 0, from: [3, 2], to: [4, 2], by: { pusher: 0 } },
    { type: 'turned', robot: 1, from: 1, to: 2, by: 'gear' },
    { type: 'destroyed', robot: 1, cause: 'crusher', pushedBy: null, lives: 2 },
    { type: 'shot', robot: 0, by: { laser: 0 }, points: 1, from: [0, 2], to: [4, 2] },
    { type: 'damaged', robot: 0, points: 1, damage: 1 },
    { type: 'flagTouched', robot: 0, flag: 1 },
    { type: 'repaired', robot: 0, points: 1, damage: 0, by: 'flag' },
    { type: 'turnEnded', turn: 2 },
  ];
  assert.deepEqual(summary(events), [
    [0, 'The turn begins', ['turnBegan', 'reentered']],
    [1, 'Cards revealed', ['revealed', 'revealed']],
    [1, 'Ava plays Move 2 (670)', ['moved', 'pushed']],
    [1, 'Bob plays Turn right (80)', ['turned']],
    [1, 'Express belts move', ['carried']],
    [1, 'Belts move', ['carried', 'turned']],
    [1, 'Pushers push', ['pushed']],
    [1, 'Gears turn', ['turned']],
    [1, 'Crushers crush', ['destroyed']],
    [1, 'Lasers fire', ['shot', 'damaged']],
    [1, 'Flags are touched', ['flagTouched']],
    [1, 'Repairs and upgrades', ['repaired']],
  ]);
  const steps = turnSteps(events);
  assert.deepEqual(steps[2]!.robot, 0);
  assert.deepEqual(steps[2]!.registerEvents.map((e) => e.type), ['revealed', 'revealed', 'moved', 'pushed'], 'the register so far');
});

test('the cards revealed are listed in the order the robots move: highest priority first, or as revealed where cards carry none', () => {
  const reveal = (robot: number, c: string, p = true): GameEvent => ({ type: 'revealed', robot, register: 1, card: card(c, p) });
  const classic = turnSteps([{ type: 'registerBegan', register: 1 }, reveal(0, 'L:90'), reveal(1, 'F3:840')]);
  assert.deepEqual(classic[0]!.revealed.map((c) => c.robot), [1, 0]);
  const pbem = turnSteps([{ type: 'registerBegan', register: 1 }, reveal(0, 'L', false), reveal(1, 'F3', false)]);
  assert.deepEqual(pbem[0]!.revealed.map((c) => c.robot), [0, 1]);
});

test('a joined card is named with the card it joins; a move with no card revealed is "its card"', () => {
  const joined = turnSteps([
    { type: 'registerBegan', register: 3 },
    { type: 'revealed', robot: 1, register: 3, card: card('F1', false), joined: card('R', false) },
    { type: 'moved', robot: 1, from: [0, 0], to: [0, 1] },
  ]);
  assert.equal(stepHeading(joined[1]!, names), 'Bob plays Move 1 + Turn right');
  const bare = turnSteps([{ type: 'registerBegan', register: 3 }, { type: 'moved', robot: 0, from: [0, 0], to: [0, 1] }]);
  assert.equal(stepHeading(bare[0]!, names), 'Ava plays its card');
  assert.equal(stepHeading(bare[0]!, []), 'robot 1 plays its card', 'a robot with no name given');
});

test('options change cards in a step of their own, movement options join the robot\'s move, weapons the lasers', () => {
  assert.deepEqual(summary([
    { type: 'registerBegan', register: 2 },
    { type: 'revealed', robot: 0, register: 2, card: card('F1:500') },
    { type: 'aborted', robot: 0, register: 2, card: card('F1:500') },
    { type: 'optionUsed', robot: 0, option: 'Abort Switch' },
    { type: 'moved', robot: 0, from: [0, 0], to: [0, 1] },
    { type: 'optionUsed', robot: 0, option: 'Ramming Gear' },
    { type: 'rammed', robot: 1, by: 0, points: 1 },
    { type: 'optionUsed', robot: 1, option: 'Mini Howitzer' },
    { type: 'shot', robot: 0, by: { robot: 1 }, points: 1, from: [0, 3], to: [0, 1], weapon: 'Mini Howitzer' },
  ]), [
    [2, 'Cards revealed', ['revealed']],
    [2, 'Options change cards', ['aborted', 'optionUsed']],
    [2, 'Ava plays Move 1 (500)', ['moved', 'optionUsed', 'rammed']],
    [2, 'Lasers fire', ['optionUsed', 'shot']],
  ]);
});

test('events outside the registers make the turn\'s beginning and end; damage and destruction stay with the step that caused them', () => {
  assert.deepEqual(summary([
    { type: 'registerBegan', register: 5 },
    { type: 'pushed', robot: 1, from: [0, 0], to: [0, -1], by: { repulsor: [0, 1] } },
    { type: 'destroyed', robot: 1, cause: 'edge', pushedBy: { repulsor: [0, 1] }, lives: 0 },
    { type: 'out', robot: 1 },
    { type: 'turnEnded', turn: 4 },
    { type: 'poweredDown', robot: 0 },
  ]), [
    [5, 'Repulsor fields push', ['pushed', 'destroyed', 'out']],
    [6, 'The turn ends', ['poweredDown']],
  ]);
  const unplaced = turnSteps([{ type: 'registerBegan', register: 4 }, { type: 'locked', robot: 0, registers: [5] }]);
  assert.equal(stepHeading(unplaced[0]!, names), 'Register 4', 'a register\'s events before anything acts');
});

test('every event of every kind is in exactly one step, in order, but the markers of a register and of the turn\'s end', () => {
  const body = Object.values(EVERY_EVENT).filter((e) => e.type !== 'turnBegan' && e.type !== 'registerBegan' && e.type !== 'turnEnded');
  const events: GameEvent[] = [{ type: 'turnBegan', turn: 1 }, ...body,
    { type: 'registerBegan', register: 1 }, ...body, { type: 'turnEnded', turn: 1 }, ...body];
  const steps = turnSteps(events);
  assert.deepEqual(steps.flatMap((s) => s.events), events.filter((e) => e.type !== 'registerBegan' && e.type !== 'turnEnded'));
  for (const s of steps) assert.ok(s.events.length > 0, 'no empty step');
});

test('the lasers\' step is two moments, every shot with its damage and then the robots wrecked (B-28); a board element\'s step and a robot\'s move are one', () => {
  const events: GameEvent[] = [
    { type: 'registerBegan', register: 1 },
    { type: 'carried', robot: 0, from: [1, 2], to: [2, 2], express: false },
    { type: 'carried', robot: 1, from: [1, 3], to: [2, 3], express: false },
    { type: 'shot', robot: 0, by: { laser: 0 }, points: 1, from: [0, 2], to: [2, 2] },
    { type: 'shot', robot: 1, by: { robot: 0 }, points: 1, from: [2, 2], to: [2, 3] },
    { type: 'damaged', robot: 0, points: 1, damage: 1 },
    { type: 'damaged', robot: 1, points: 1, damage: 10 },
    { type: 'destroyed', robot: 1, cause: 'damage', pushedBy: null, lives: 2 },
  ];
  const moments = turnSteps(events).map((s) => [s.kind, stepMoments(s).map((m) => m.map((e) => e.type))]);
  assert.deepEqual(moments, [
    ['belts', [['carried', 'carried']]],
    ['lasers', [['shot', 'shot', 'damaged', 'damaged'], ['destroyed']]],
  ]);
});
