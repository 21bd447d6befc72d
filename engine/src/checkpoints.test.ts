/** Flags, archives and the winner (RULES.md "Flags, archives, repair"; 000 L73-76, L134-135, L201, L271-275, L337). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at, index, ofType, play, program, race, robot, turn, type Bot } from './testing.js';
import type { BoardJson } from './board.js';

const one = (board: BoardJson, bots: Bot[], programs: Record<string, string[]> = {}) => turn(race(board, bots), { programs, registers: 1 });
const ROW = ['. . . . . .', '. . . . . .'];

test('a robot ending a register phase on its next flag touches it, and the flag becomes its archive', () => {
  // 000 L73 "To touch a flag, a robot must end a register phase on the same square as the flag."
  // 000 L271 "Each time a robot touches a checkpoint or repair site, that spot becomes its archive location."
  const g = one({ grid: ROW, flags: [[2, 0], [4, 0]] }, [{ name: 'A', x: 1, y: 0, dir: 'E' }], { A: ['F1:490'] });
  assert.equal(robot(g, 'A').flags, 1);
  assert.deepEqual(robot(g, 'A').archive, [2, 0]);
  assert.deepEqual(ofType(g.events, 'flagTouched').map((e) => [e.robot, e.flag]), [[0, 1]]);
  assert.deepEqual(ofType(g.events, 'archived').map((e) => [e.robot, e.x, e.y]), [[0, 2, 0]]);
});

test('flags count only in order: the next flag after the first is the second', () => {
  // 000 L135 "Robots that have touched a checkpoint can now move on to the next one in sequence."
  const g = one({ grid: ROW, flags: [[2, 0], [4, 0]] }, [{ name: 'A', x: 3, y: 0, dir: 'E', flags: 1 }], { A: ['F1:490'] });
  assert.equal(robot(g, 'A').flags, 2);
});

test('a flag out of order moves the archive but does not count (B-22)', () => {
  // 000 L275 "Only checkpoints touched in the correct order count."; RULES.md "any ... robot that ends a register phase on a flag (in order or not) ... moves its archive there (B-22)"
  const g = one({ grid: ROW, flags: [[2, 0], [4, 0]] }, [{ name: 'A', x: 3, y: 0, dir: 'E' }], { A: ['F1:490'] });
  assert.equal(robot(g, 'A').flags, 0);
  assert.deepEqual(robot(g, 'A').archive, [4, 0]);
  assert.equal(ofType(g.events, 'flagTouched').length, 0);
  // a flag already touched moves the archive again, and counts no more
  const h = one({ grid: ROW, flags: [[2, 0], [4, 0]] }, [{ name: 'A', x: 1, y: 0, dir: 'E', flags: 1, archive: [0, 1] }], { A: ['F1:490'] });
  assert.equal(robot(h, 'A').flags, 1);
  assert.deepEqual(robot(h, 'A').archive, [2, 0]);
});

test('passing over a flag does not touch it', () => {
  // 000 L337 "Driving over a checkpoint ... does not count as touching"; 003 L25-27 "Passing through the checkpoint does NOT count."
  const g = one({ grid: ROW, flags: [[2, 0], [4, 0]] }, [{ name: 'A', x: 1, y: 0, dir: 'E', archive: [0, 1] }], { A: ['F2:670'] });
  assert.deepEqual(at(g, 'A'), [3, 0, 'E']);
  assert.equal(robot(g, 'A').flags, 0);
  assert.deepEqual(robot(g, 'A').archive, [0, 1]);
});

test('a robot that drives onto a flag and is shoved off it does not touch it', () => {
  // 000 L337 "driving onto one and being shoved away by another robot, does not count as touching"
  const g = one({ grid: ['. . . .', '. . . .', '. . . .'], flags: [[1, 1]] }, [
    { name: 'A', x: 1, y: 2, dir: 'N' }, { name: 'B', x: 0, y: 1, dir: 'E' },
  ], { A: ['F1:600'], B: ['F1:500'] });
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[2, 1, 'N'], [1, 1, 'E']]);
  assert.equal(robot(g, 'A').flags, 0);
  assert.equal(robot(g, 'B').flags, 1); // the shover ends there and touches it
});

test('a robot destroyed by laser fire on a flag does not touch it', () => {
  // 000 L135 "A robot could move onto a checkpoint ... but be fired upon ... and receive enough damage to destroy it. In this case, the robot would not have touched the checkpoint."
  const g = one({ grid: ROW, flags: [[2, 0]], lasers: [{ x: 2, y: 1, dir: 'N', beams: 1 }] }, [
    { name: 'A', x: 1, y: 0, dir: 'E', damage: 9, archive: [0, 1], program: ['F1:490', 'L:70', 'L:90', 'L:110', 'L:130'] },
  ]);
  assert.equal(at(g, 'A'), 'destroyed');
  assert.equal(robot(g, 'A').flags, 0);
  assert.deepEqual(robot(g, 'A').archive, [0, 1]);
});

test('a powered-down robot touches no flag and moves no archive (B-19)', () => {
  // 000 L201 "it can't fire weapons, tag checkpoints, or update its archive location"; RULES.md "Powered-down robots touch nothing and move no archive"
  const g = one({ grid: ['> . .', '> . .', '> . .'], flags: [[1, 0]] }, [
    { name: 'A', x: 0, y: 0, dir: 'N', damage: 1, poweredDown: true, archive: [2, 2] },
  ]);
  assert.deepEqual(at(g, 'A'), [1, 0, 'N']);
  assert.equal(robot(g, 'A').flags, 0);
  assert.deepEqual(robot(g, 'A').archive, [2, 2]);
  const h = one({ grid: ['> W .'] }, [{ name: 'A', x: 0, y: 0, dir: 'N', damage: 1, poweredDown: true, archive: [2, 0] }]);
  assert.deepEqual(robot(h, 'A').archive, [2, 0]);
});

test('ending a register phase on a repair site moves the archive there', () => {
  // 000 L271; 000 L329 "All repair sites also serve as archive locations."
  for (const site of ['W', 'WW']) {
    const g = one({ grid: [`. ${site} .`] }, [{ name: 'A', x: 0, y: 0, dir: 'E', archive: [2, 0] }], { A: ['F1:490'] });
    assert.deepEqual(robot(g, 'A').archive, [1, 0], site);
  }
});

test('the archive moves at the end of the register phase, not only at the end of the turn', () => {
  // 000 L135 "Robots on checkpoints or repair sites have now updated their archive location"; catalog A15.2
  const g0 = race({ grid: ['. W . .'] }, [{ name: 'A', x: 0, y: 0, dir: 'E', archive: [3, 0] }]);
  const g = play(program(g0, { programs: { A: ['F1:490', 'F1:500'] } }), 2);
  assert.deepEqual(at(g, 'A'), [2, 0, 'E']);
  assert.deepEqual(robot(g, 'A').archive, [1, 0]);
});

test('a robot carried onto its next flag by a belt touches it', () => {
  // 000 L73 "a robot must end a register phase on the same square as the flag" — however it got there
  const g = one({ grid: ['> . .'], flags: [[1, 0]] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.equal(robot(g, 'A').flags, 1);
});

test('a virtual robot touches flags', () => {
  // 000 L135 "Any robot that is still alive at this time and is on a checkpoint may now consider it 'touched.'"; 000 L107 board elements affect virtual robots
  const g = one({ grid: ROW, flags: [[2, 0]] }, [{ name: 'V', x: 1, y: 0, dir: 'E', virtual: true }], { V: ['F1:490'] });
  assert.equal(robot(g, 'V').flags, 1);
});

test('the first robot to touch its last flag wins; a later one takes second place', () => {
  // 000 L76 "The winner is the first to touch all the flags in the indicated order. The game can end ... or play can continue to determine runners-up."
  const board = { grid: ROW, flags: [[1, 1], [3, 0]] as [number, number][] };
  const g0 = race(board, [{ name: 'A', x: 2, y: 0, dir: 'E', flags: 1 }, { name: 'B', x: 4, y: 1, dir: 'N', flags: 1 }]);
  const r1 = play(program(g0, { programs: { A: ['F1:490', 'F1:500'], B: ['L:70', 'F1:510', 'R:80', 'F1:520'] } }), 1);
  assert.deepEqual(r1.state.finished, [[0]]);
  assert.deepEqual(ofType(r1.events, 'finished').map((e) => [e.robot, e.place]), [[0, 1]]);
  // play goes on for the runners-up (000 L76): A leaves the flag, B reaches it in register 4
  const r4 = play(r1, 3);
  assert.deepEqual(at(r4, 'B'), [3, 0, 'N']);
  assert.deepEqual(r4.state.finished, [[0], [1]]);
  assert.deepEqual(ofType(r4.events, 'finished').map((e) => [e.robot, e.place]), [[1, 2]]);
  assert.equal(robot(r4, 'A').flags, 2);
});

test('robots touching their last flag in the same register share first place', () => {
  // RULES.md "robots that do so in the same register share the place" (B-43)
  const board = { grid: ROW, flags: [[0, 1], [3, 0]] as [number, number][] };
  const g = one(board, [
    { name: 'A', x: 2, y: 0, dir: 'E', flags: 1 }, { name: 'V', x: 4, y: 0, dir: 'W', flags: 1, virtual: true },
  ], { A: ['F1:490'], V: ['F1:500'] });
  assert.deepEqual([at(g, 'A'), at(g, 'V')], [[3, 0, 'E'], [3, 0, 'W']]);
  assert.deepEqual(g.state.finished, [[index(g, 'A'), index(g, 'V')]]);
  assert.deepEqual(ofType(g.events, 'finished').map((e) => e.place), [1, 1]);
});

test('after a shared first place the next finisher is third', () => {
  // RULES.md: shared places; 000 L76 runners-up
  const board = { grid: ['. . . . . .', '. . . . . .'], flags: [[3, 0]] as [number, number][] };
  const g0 = race(board, [
    { name: 'A', x: 2, y: 0, dir: 'E' }, { name: 'V', x: 4, y: 0, dir: 'W', virtual: true }, { name: 'C', x: 3, y: 1, dir: 'N' },
  ]);
  const r1 = play(program(g0, { programs: { A: ['F1:490', 'F1:500'], V: ['F1:510', 'R:80'], C: ['L:70', 'R:100', 'F1:520'] } }), 3);
  // register 1: A and V reach the flag; register 3: C moves up onto it, where V still stands (virtual)
  assert.deepEqual(r1.state.finished, [[0, 1], [2]]);
  assert.deepEqual(ofType(r1.events, 'finished').map((e) => [e.robot, e.place]), [[0, 1], [1, 1], [2, 3]]);
});

test('flags touched before a destruction still count', () => {
  // 000 L46 "that flag and any flags touched previously still count toward race victory"
  const g = one({ grid: ['. . . O'], flags: [[0, 0], [1, 0]] }, [{ name: 'A', x: 2, y: 0, dir: 'E', flags: 2, archive: [1, 0] }], { A: ['F1:490'] });
  assert.equal(at(g, 'A'), 'destroyed');
  assert.equal(robot(g, 'A').flags, 2);
  assert.deepEqual(robot(g, 'A').archive, [1, 0]);
});
