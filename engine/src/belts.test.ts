/** Conveyor belts (RULES.md "Conveyor belts"; 000 L146, L230-242; 004 L97). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at, index, ofType, race, robot, turn, type Bot } from './testing.js';

/** One register with nobody running a card: only the board acts. */
const still = (grid: string[] | Parameters<typeof race>[0], bots: Bot[], registers = 1) => turn(race(grid, bots), { registers });

test('a normal belt carries a robot one square a register', () => {
  // 003 L48-50 "they only move robots one square at the end of each movement phase"; 004 L97
  const g = still(['> > > . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [1, 0, 'N']);
  const c = ofType(g.events, 'carried')[0]!;
  assert.deepEqual([c.from, c.to, c.express], [[0, 0], [1, 0], false]);
  assert.deepEqual(at(still(['> > > . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }], 3), 'A'), [3, 0, 'N']);
});

test('an express belt carries a robot two squares a register', () => {
  // 003 L40-41 "These conveyor belts move robots two squares"; 004 L97 express step, then all belts
  const g = still(['>> >> >> . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [2, 0, 'N']);
  assert.deepEqual(ofType(g.events, 'carried').map((e) => e.express), [true, true]);
});

test('a robot carried off the express line by the express step is not moved again by express belts (B-02)', () => {
  // RULES.md B-02; 002 L102 "if at the end of the first move the robot is not on any form of conveyor then it doesn't move further"
  const g = still(['. >> . . .'], [{ name: 'A', x: 1, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [2, 0, 'N']);
});

test('express first, then all belts: an express belt feeding a normal belt moves a robot two squares', () => {
  // 004 L97 "all express conveyor belts ... move robots one space ... all conveyor belts move robots one space"; RULES.md steps 2-3
  const g = still(['>> > > .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [2, 0, 'N']);
});

test('a normal belt feeding an express belt moves a robot one square', () => {
  // RULES.md register table: express belts move 1, then all belts move 1 (catalog B-01 S2)
  const g = still(['> >> >> .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [1, 0, 'N']);
});

test('a robot that moves onto a belt under its own power is carried in the same register', () => {
  // 000 L146 "In the register phase sequence, first the robot moves, then the conveyor belt moves."
  const g = turn(race(['. > . .'], [{ name: 'A', x: 0, y: 0, dir: 'E' }]), { programs: { A: ['F1:490'] }, registers: 1 });
  assert.deepEqual(at(g, 'A'), [2, 0, 'E']);
});

test('a belt turns a robot that another belt carries onto it from a side', () => {
  // 000 L241 "Because the robot was moved onto the turning conveyor belt by another belt, it was rotated 90 degree"
  // SCENARIOS.md: the robot turns by the angle between the direction it was carried in and the belt it arrives on
  const right = still(['. . . .', '. > v .', '. . . .'], [{ name: 'A', x: 1, y: 1, dir: 'E' }]);
  assert.deepEqual(at(right, 'A'), [2, 1, 'S']);
  const t = ofType(right.events, 'turned')[0]!;
  assert.deepEqual([t.from, t.to, t.by], [1, 2, 'belt']);
  const left = still(['. . . .', '. > ^ .', '. . . .'], [{ name: 'A', x: 1, y: 1, dir: 'N' }]);
  assert.deepEqual(at(left, 'A'), [2, 1, 'W']);
});

test('a robot carried from an express belt onto a normal belt from a side is turned', () => {
  // 000 L238 "This is true even when a robot is moved from an express conveyor belt onto a turning, normal belt."; 004 L126
  const g = still(['. . .', '>> v .', '. . .'], [{ name: 'A', x: 0, y: 1, dir: 'E' }]);
  // express step: onto (1,1), turned right to S; all-belts step: down to (1,2)
  assert.deepEqual(at(g, 'A'), [1, 2, 'S']);
});

test('an express belt turns a robot on the express step when it curves', () => {
  // 000 L238; SCENARIOS.md: a bend needs no token of its own
  const g = still(['. . .', '>> vv .', '. . .', '. . .'], [{ name: 'A', x: 0, y: 1, dir: 'E' }]);
  assert.deepEqual(at(g, 'A'), [1, 2, 'S']);
});

test('a belt entered from behind does not turn a robot', () => {
  // SCENARIOS.md "A belt cell entered from behind ... turns nobody" (B-03)
  const g = still(['> > .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(g, 'A'), [1, 0, 'N']);
  assert.equal(ofType(g.events, 'turned').length, 0);
});

test('at a merge, only the robot fed from the side turns (B-03)', () => {
  // 003 L46-47 "In these examples the robot must be pushed from the North. Being pushed in from the West does not turn the robot."
  // Cell (2,2) carries E; it is fed from the W by (1,2)→E and from the N by (2,1)→S.
  const grid = ['. . . .', '. . v .', '. > > .', '. . . .'];
  const west = still(grid, [{ name: 'A', x: 1, y: 2, dir: 'E' }]);
  assert.deepEqual(at(west, 'A'), [2, 2, 'E']);
  const north = still(grid, [{ name: 'A', x: 2, y: 1, dir: 'S' }]);
  assert.deepEqual(at(north, 'A'), [2, 2, 'E']); // turned left, from S to E
});

test('a robot that arrives on a belt under its own power is not turned', () => {
  // 000 L238 "If the robot is moved onto a turning conveyor belt by any other means (either under its own power or by being pushed), the belt does not turn the robot"
  // 000 L242 "the robot moves onto the turning conveyor belt under its own power. Then the turning conveyor belt moves and pushes the robot onto the next square without rotating it"
  const g = turn(race(['. . . .', '. . v .', '. . . .'], [{ name: 'A', x: 1, y: 1, dir: 'E' }]), { programs: { A: ['F1:490'] }, registers: 1 });
  assert.deepEqual(at(g, 'A'), [2, 2, 'E']);
  assert.equal(ofType(g.events, 'turned').length, 0);
});

test('a robot pushed onto a belt is not turned', () => {
  // 000 L242 "(Even if the robot had been pushed onto the belt by another robot, it still wouldn't have been rotated.)"
  const g = turn(
    race(['. . . . .', '. . . v .', '. . . . .'], [{ name: 'A', x: 1, y: 1, dir: 'E' }, { name: 'B', x: 2, y: 1, dir: 'N' }]),
    { programs: { A: ['F1:490'] }, registers: 1 },
  );
  assert.deepEqual(at(g, 'B'), [3, 2, 'N']);
  assert.deepEqual(at(g, 'A'), [2, 1, 'E']);
  assert.equal(ofType(g.events, 'turned').length, 0);
});

test('a belt carrying a robot off its end onto plain floor does not turn it', () => {
  const g = still(['. v .', '. . .'], [{ name: 'A', x: 1, y: 0, dir: 'W' }]);
  assert.deepEqual(at(g, 'A'), [1, 1, 'W']);
});

test('robots one behind the other on a belt all move together', () => {
  // 000 L231 "One robot can be directly behind another, and if both robots are on a conveyor belt ... both will be moved."
  const g = still(['> > > .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' }, { name: 'C', x: 2, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'A'), at(g, 'B'), at(g, 'C')], [[1, 0, 'N'], [2, 0, 'N'], [3, 0, 'N']]);
});

test('robots on a closed loop of belts all move together', () => {
  // 000 L231 "all robots on a conveyor belt are moved simultaneously"
  const grid = ['> v', '^ <'];
  const bots: Bot[] = [
    { name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' },
    { name: 'C', x: 1, y: 1, dir: 'N' }, { name: 'D', x: 0, y: 1, dir: 'N' },
  ];
  const g = still(grid, bots);
  assert.deepEqual([at(g, 'A'), at(g, 'B'), at(g, 'C'), at(g, 'D')].map((p) => (p as number[]).slice(0, 2)), [[1, 0], [1, 1], [0, 1], [0, 0]]);
});

test('two robots carried to the same square both stay put', () => {
  // 000 L233 "the belts are attempting to push both robots into the same square. If this happens while conveyor belts are moving, neither robot moves"
  const g = still(['> . <'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 2, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[0, 0, 'N'], [2, 0, 'N']]);
  const h = still(['. v .', '> . .'], [{ name: 'A', x: 0, y: 1, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'E' }]);
  assert.deepEqual([at(h, 'A'), at(h, 'B')], [[0, 1, 'N'], [1, 0, 'E']]);
});

test('two robots that would swap squares both stay put', () => {
  // RULES.md "A robot stays put ... if the robots would swap squares"; 000 L233 "If the situation is ambiguous, don't move either robot."
  const g = still(['> <'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[0, 0, 'N'], [1, 0, 'N']]);
});

test('a robot that stays at the end of a belt blocks the robot carried towards it; belts never push', () => {
  // 000 L235 "When it's time for conveyor belts to move, the robot on the belt is blocked by the robot on the empty square."
  const g = still(['> . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[0, 0, 'N'], [1, 0, 'N']]);
});

test('a blocked robot blocks the robots carried behind it, back along the belt', () => {
  // RULES.md "the square ahead holds a robot that does not leave it in this step"; catalog A8.4 "Blocking cascades back"
  const g = still(['> > > .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' }, { name: 'C', x: 2, y: 0, dir: 'N' }, { name: 'D', x: 3, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'A'), at(g, 'B'), at(g, 'C')], [[0, 0, 'N'], [1, 0, 'N'], [2, 0, 'N']]);
});

test('robots held by a conflict block the robots carried behind them', () => {
  // 000 L233 "neither robot moves"; RULES.md "the square ahead holds a robot that does not leave it in this step"
  const g = still(['> > . <'], [{ name: 'C', x: 0, y: 0, dir: 'N' }, { name: 'A', x: 1, y: 0, dir: 'N' }, { name: 'B', x: 3, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'C'), at(g, 'A'), at(g, 'B')], [[0, 0, 'N'], [1, 0, 'N'], [3, 0, 'N']]);
});

test('in the express step a robot on a normal belt stays, and blocks the express robot behind it', () => {
  // RULES.md "An express step moves only robots standing on express belts at that moment"; "does not leave it in this step"
  const g = still(['>> > . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' }]);
  // express step: A blocked by B; all-belts step: both move one square
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[1, 0, 'N'], [2, 0, 'N']]);
});

test('belts carry powered-down robots', () => {
  // 000 L201 "they may be moved by pushers, gears, and conveyor belts"
  const g = still(['> > .'], [{ name: 'A', x: 0, y: 0, dir: 'N', damage: 2, poweredDown: true }]);
  assert.deepEqual(at(g, 'A'), [1, 0, 'N']);
  assert.equal(robot(g, 'A').poweredDown, true);
});

test('belts carry virtual robots, which ignore every other robot', () => {
  // 000 L107 "virtual robots are affected by all board elements ... conveyor belts"; "you can pretend your robot is the only one on the board"
  const g = still(['> . .'], [{ name: 'V', x: 0, y: 0, dir: 'N', virtual: true }, { name: 'B', x: 1, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'V'), at(g, 'B')], [[1, 0, 'N'], [1, 0, 'N']]);
  // a real robot is carried onto a virtual robot's square
  const h = still(['> . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'V', x: 1, y: 0, dir: 'N', virtual: true }]);
  assert.deepEqual([at(h, 'A'), at(h, 'V')], [[1, 0, 'N'], [1, 0, 'N']]);
  // a virtual and a real robot carried to one square do not stop each other
  const k = still(['> . <'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'V', x: 2, y: 0, dir: 'N', virtual: true }]);
  assert.deepEqual([at(k, 'A'), at(k, 'V')], [[1, 0, 'N'], [1, 0, 'N']]);
});

test('a belt carries a robot into a pit, which destroys it', () => {
  // 000 L277 "carrying waste materials to disposal areas"; 000 L207; RULES.md "Entering a pit ... destroys a robot at once"
  const g = still(['> O .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.equal(at(g, 'A'), 'destroyed');
  const d = ofType(g.events, 'destroyed')[0]!;
  assert.deepEqual([d.robot, d.cause, d.pushedBy], [index(g, 'A'), 'pit', null]);
});

test('a belt carries a robot off the board, which destroys it', () => {
  // 004 L97 "Going off of the board is the same as falling down a pit"; 000 L207
  const g = still(['. . >'], [{ name: 'A', x: 2, y: 0, dir: 'N' }]);
  assert.equal(at(g, 'A'), 'destroyed');
  assert.equal(ofType(g.events, 'destroyed')[0]!.cause, 'edge');
});

test('a wall stops a belt from carrying a robot, and the robot behind it', () => {
  // 000 L144 "a wall will simply stop a robot"; RULES.md "A robot stays put if a wall blocks it"
  const g = still({ grid: ['> > .'], walls: ['1,0 E'] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[0, 0, 'N'], [1, 0, 'N']]);
  const h = still({ grid: ['>>'], walls: ['0,0 E'] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  assert.deepEqual(at(h, 'A'), [0, 0, 'N']);
});

test('a robot held by a wall blocks the robot carried towards it', () => {
  // RULES.md "A robot stays put if a wall blocks it ... or if the square ahead holds a robot that does not leave it"
  const g = still({ grid: ['> v', '. .'], walls: ['1,0 S'] }, [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 1, y: 0, dir: 'N' }]);
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[0, 0, 'N'], [1, 0, 'N']]);
});
