/** Pushers, gears and crushers (RULES.md "Register phase, in order" steps 4-6; 000 L148, L201, L279, L323; 003 L52-65; 004 L97). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at, index, ofType, play, race, robot, turn, type Bot } from './testing.js';
import type { BoardJson } from './board.js';

const pusher = (x: number, y: number, dir: string, registers: number[]) => ({ x, y, dir, registers });
const still = (board: BoardJson, bots: Bot[], registers = 1) => turn(race(board, bots), { registers });

test('a pusher pushes the robot in front of it one square, in its active registers only', () => {
  // 003 L52-57 "If a robot is in the pusher square when the pusher activates, the robot is pushed into the adjacent square ...
  // Pushers only operate on certain phases"; 004 L97 "pushers push one space (if active this phase)"
  const board = { grid: ['. . . .'], pushers: [pusher(0, 0, 'E', [2, 4])] };
  const r1 = still(board, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(r1, 'A'), [0, 0, 'N']);
  const r2 = play(r1, 1);
  assert.deepEqual(at(r2, 'A'), [1, 0, 'N']);
  const p = ofType(r2.events, 'pushed')[0]!;
  assert.deepEqual([p.from, p.to, p.by], [[0, 0], [1, 0], { pusher: 0 }]);
  const r3 = play(r2, 1);
  assert.equal(ofType(r3.events, 'pushed').length, 0); // nobody in front of it now
});

test('a pusher pushes a whole chain of robots', () => {
  // 003 L54-55 "Multiple robots can be pushed, so a chain of robots could be pushed by one pusher"
  const g = still({ grid: ['. . . .'], pushers: [pusher(0, 0, 'E', [1])] }, [
    { name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' },
  ]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[1, 0, 'N'], [2, 0, 'N']]);
});

test('a wall at the end of the chain stops a pusher: nobody moves', () => {
  // RULES.md "A pusher pushes a whole chain; a wall stops it"; 001 L87 "A robot can't be pushed through a wall" (B-40)
  const g = still({ grid: ['. . . .'], walls: ['1,0 E'], pushers: [pusher(0, 0, 'E', [1])] }, [
    { name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' },
  ]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[0, 0, 'N'], [1, 0, 'N']]);
  const h = still({ grid: ['. .'], walls: ['0,0 E'], pushers: [pusher(0, 0, 'E', [1])] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(h, 'A'), [0, 0, 'N']);
});

test('two pushers pushing robots into one square move neither (B-25)', () => {
  // RULES.md "Two pushers pushing robots into one square: neither robot moves (B-25)"; 000 L233 "If the situation is ambiguous, don't move either robot."
  const g = still({ grid: ['. . . . .'], pushers: [pusher(1, 0, 'E', [1]), pusher(3, 0, 'W', [1])] }, [
    { name: 'A', x: 1, y: 0, dir: 'N' }, { name: 'B', x: 3, y: 0, dir: 'N' },
  ]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[1, 0, 'N'], [3, 0, 'N']]);
  const h = still({ grid: ['. . .', '. . .'], pushers: [pusher(0, 1, 'E', [1]), pusher(1, 0, 'S', [1])] }, [
    { name: 'A', x: 0, y: 1, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'E' },
  ]);
  assert.deepEqual([at(h, 'A'), at(h, 'B')], [[0, 1, 'N'], [1, 0, 'E']]);
});

test('two pushers pushing into different squares both push', () => {
  const g = still({ grid: ['. . . . .'], pushers: [pusher(0, 0, 'E', [1]), pusher(4, 0, 'W', [1])] }, [
    { name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 4, y: 0, dir: 'N' },
  ]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[1, 0, 'N'], [3, 0, 'N']]);
});

test('a pusher pushes a robot into a pit or off the board, destroying it', () => {
  // 000 L323 "(But what they're pushed into may not be so harmless.)"; RULES.md "Entering a pit or leaving the board destroys a robot at once"
  const g = still({ grid: ['. O'], pushers: [pusher(0, 0, 'E', [1])] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.equal(at(g, 'A'), 'destroyed');
  const d = ofType(g.events, 'destroyed')[0]!;
  assert.deepEqual([d.cause, d.pushedBy], ['pit', { pusher: 0 }]);
  const h = still({ grid: ['. .'], pushers: [pusher(1, 0, 'E', [1])] }, [{ name: 'A', x: 1, y: 0, dir: 'N' }]);
  assert.equal(at(h, 'A'), 'destroyed');
  assert.equal(ofType(h.events, 'destroyed')[0]!.cause, 'edge');
});

test('a pusher pushes powered-down and virtual robots', () => {
  // 000 L201 "they may be moved by pushers"; 000 L107 "virtual robots are affected by all board elements"
  const g = still({ grid: ['. . .', '. . .'], pushers: [pusher(0, 0, 'E', [1]), pusher(0, 1, 'E', [1])] }, [
    { name: 'P', x: 0, y: 0, dir: 'N', damage: 1, poweredDown: true }, { name: 'V', x: 0, y: 1, dir: 'N', virtual: true },
  ]);
  assert.deepEqual([at(g, 'P'), at(g, 'V')], [[1, 0, 'N'], [1, 1, 'N']]);
});

test('a pushed virtual robot does not push the real robot in front of it', () => {
  // 000 L107 "A virtual robot doesn't interact with other robots"
  const g = still({ grid: ['. . .'], pushers: [pusher(0, 0, 'E', [1])] }, [
    { name: 'V', x: 0, y: 0, dir: 'N', virtual: true }, { name: 'B', x: 1, y: 0, dir: 'N' },
  ]);
  assert.deepEqual([at(g, 'V'), at(g, 'B')], [[1, 0, 'N'], [1, 0, 'N']]);
});

test('a clockwise gear turns a robot right, a counter-clockwise gear turns it left', () => {
  // 000 L96 "a robot on a gear would be rotated 90 degrees"; 004 L97 "gears turn 90 degrees (in direction of arrow)"; SCENARIOS.md G+ / G-
  const g = still({ grid: ['G+ . G-'] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 2, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[0, 0, 'E'], [2, 0, 'W']]);
  const t = ofType(g.events, 'turned');
  assert.deepEqual(t.map((e) => [e.robot, e.from, e.to, e.by]), [[0, 0, 1, 'gear'], [1, 0, 3, 'gear']]);
});

test('a gear turns a robot in every register and never moves it', () => {
  // 003 L59-60 "Robots sitting on gears at the end of a movement phase are rotated through 90 degrees"
  const g = still({ grid: ['G+ .'] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }], 3);
  assert.deepEqual(at(g, 'A'), [0, 0, 'W']);
});

test('gears turn powered-down and virtual robots', () => {
  // 000 L201 "they may be moved by pushers, gears, and conveyor belts"; 000 L107
  const g = still({ grid: ['G+ . G-'] }, [
    { name: 'P', x: 0, y: 0, dir: 'N', damage: 1, poweredDown: true }, { name: 'V', x: 2, y: 0, dir: 'N', virtual: true },
  ]);
  assert.deepEqual([at(g, 'P'), at(g, 'V')], [[0, 0, 'E'], [2, 0, 'W']]);
});

test('a crusher destroys the robot under it in its active registers only', () => {
  // 003 L62-65 "If a robot is on the square when a crusher activates, the robot is destroyed. Crushers only activate on certain phases."
  // 000 L207 "or is crushed by a crusher"
  const board = { grid: ['. .'], crushers: [{ x: 0, y: 0, registers: [2] }] };
  const r1 = still(board, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(r1, 'A'), [0, 0, 'N']);
  const r2 = play(r1, 1);
  assert.equal(at(r2, 'A'), 'destroyed');
  const d = ofType(r2.events, 'destroyed')[0]!;
  assert.deepEqual([d.cause, d.pushedBy, d.lives], ['crusher', null, 2]);
});

test('a crusher destroys powered-down and virtual robots', () => {
  // 000 L107 "virtual robots are affected by all board elements"; 000 L201
  const g = still({ grid: ['. .'], crushers: [{ x: 0, y: 0, registers: [1] }, { x: 1, y: 0, registers: [1] }] }, [
    { name: 'P', x: 0, y: 0, dir: 'N', damage: 1, poweredDown: true }, { name: 'V', x: 1, y: 0, dir: 'N', virtual: true },
  ]);
  assert.deepEqual([at(g, 'P'), at(g, 'V')], ['destroyed', 'destroyed']);
});

test('a belt carries a robot out from under a crusher before it crushes (B-39)', () => {
  // 004 L97 order: belts, pushers, gears, then "crushers crush (if active this phase)"; RULES.md steps 3 and 6
  const g = still({ grid: ['> > .'], crushers: [{ x: 1, y: 0, registers: [2] }] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }], 2);
  assert.deepEqual(at(g, 'A'), [2, 0, 'N']);
  const h = still({ grid: ['> . .'], crushers: [{ x: 1, y: 0, registers: [1] }] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.equal(at(h, 'A'), 'destroyed'); // carried under an active crusher: crushed the same register
});

test('a robot carried onto a gear by a belt is turned in the same register', () => {
  // 000 L150 "the robot is moved onto the gear by the conveyor belt. The gear then rotates the robot 90 degrees to the right."
  const g = still({ grid: ['> G+'] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [1, 0, 'E']);
});

test('a robot carried in front of a pusher is pushed in the same register', () => {
  // 000 L148 "first conveyor belts move, then pushers, and then gears"
  const g = still({ grid: ['> . .', '. . .'], pushers: [pusher(1, 0, 'S', [1])] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [1, 1, 'N']);
});

test('the board acts in order: express belts, all belts, pushers, gears, crushers', () => {
  // RULES.md "Register phase, in order" (classic) steps 2-6; 004 L97
  const board = {
    grid: ['. . . .', '>> > . .', '. . G+ .'],
    pushers: [pusher(2, 1, 'S', [1])],
    crushers: [{ x: 2, y: 2, registers: [1] }],
  };
  const g = still(board, [{ name: 'A', x: 0, y: 1, dir: 'N' }]);
  const seq = g.events
    .filter((e) => ['carried', 'pushed', 'turned', 'destroyed'].includes(e.type))
    .map((e) => (e.type === 'carried' ? `carried${e.express ? ' express' : ''} to ${e.to}` : e.type === 'turned' ? `turned by ${e.by}` : e.type));
  assert.deepEqual(seq, ['carried express to 1,1', 'carried to 2,1', 'pushed', 'turned by gear', 'destroyed']);
  assert.equal(ofType(g.events, 'destroyed')[0]!.cause, 'crusher');
  assert.equal(robot(g, 'A').lives, 2);
});

test('a robot pushed onto a gear is turned, and pushed under a crusher is crushed, the same register', () => {
  // RULES.md steps 4-6: pushers, then gears, then crushers
  const g = still({ grid: ['. G-', '. .'], pushers: [pusher(0, 0, 'E', [1])] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [1, 0, 'W']);
  const h = still({ grid: ['. .'], pushers: [pusher(0, 0, 'E', [1])], crushers: [{ x: 1, y: 0, registers: [1] }] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.equal(at(h, 'A'), 'destroyed');
  assert.equal(index(h, 'A'), 0);
});

test('a robot turned by a gear fires the way the gear turned it, pushed onto the gear or not', () => {
  // RULES.md steps 4-7: pushers, gears, crushers, then lasers; a robot fires where it faces when the lasers step begins
  const g = still({ grid: ['G+ . .', '. . .'] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 2, y: 0, dir: 'S' }]);
  assert.deepEqual(at(g, 'A'), [0, 0, 'E']);
  assert.deepEqual(ofType(g.events, 'shot').map((s) => [s.robot, s.by]), [[1, { robot: 0 }]]);
  const h = still({ grid: ['. . .', '. G- .', '. . .'], pushers: [pusher(1, 2, 'N', [1])] }, [
    { name: 'A', x: 1, y: 2, dir: 'E' }, { name: 'B', x: 1, y: 0, dir: 'E' }, { name: 'C', x: 2, y: 1, dir: 'E' },
  ]);
  // A is pushed onto the gear, which turns it north: it hits B, and not C, east of the gear.
  assert.deepEqual(at(h, 'A'), [1, 1, 'N']);
  assert.deepEqual(ofType(h.events, 'shot').map((s) => [s.robot, s.by]), [[1, { robot: 0 }]]);
});
