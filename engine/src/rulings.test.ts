/**
 * The rulings RULES.md added after the differential test (issue 14 item 4): ledges for beams and
 * for every crossing, a robot destroyed by a ledge's damage on a turning belt, the Dice Rule's
 * die against portals, tagging and beams, and pbem re-entry with no usable square.
 * Line numbers are those of ../shared/RULES.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at, ofType, race, robot, turn, type Bot } from './testing.js';

const FLOOR = ['. . . . . .', '. . . . . .', '. . . . . .', '. . . . . .', '. . . . . .'];
/** Column 2 is the upper level, column 3 the lower: a ledge on the east side of every cell of column 2. */
const LEDGE_2E = ['2,0 E', '2,1 E', '2,2 E', '2,3 E', '2,4 E'];
const one = (programs: Record<string, string[]> = {}) => ({ programs, registers: 1 });

test("a robot's beam that would cross a ledge from below stops there; from above it passes", () => {
  // RULES.md L162-163: "For beams a ledge is a wall from below too: a beam that would cross it from
  // the lower side stops there; from the upper side it passes."
  const bots: Bot[] = [
    { name: 'Low', x: 4, y: 2, dir: 'W' },
    { name: 'High', x: 1, y: 2, dir: 'E' },
  ];
  const g = turn(race({ grid: FLOOR, ledges: LEDGE_2E }, bots), one());
  assert.equal(robot(g, 'High').damage, 0); // Low's beam stops at the ledge
  assert.equal(robot(g, 'Low').damage, 1); // High's beam goes down over it
});

test('a board laser firing up at a ledge stops there; firing down over it, it passes', () => {
  // RULES.md L162-163
  const up = race({ grid: FLOOR, ledges: LEDGE_2E, lasers: [{ x: 5, y: 1, dir: 'W', beams: 1 }] }, [
    { name: 'A', x: 1, y: 1, dir: 'N' },
  ]);
  assert.equal(robot(turn(up, one()), 'A').damage, 0);
  const down = race({ grid: FLOOR, ledges: LEDGE_2E, lasers: [{ x: 0, y: 1, dir: 'E', beams: 1 }] }, [
    { name: 'A', x: 4, y: 1, dir: 'N' },
  ]);
  assert.equal(robot(turn(down, one()), 'A').damage, 1);
});

test('a robot pushed down a ledge onto the next robot of the chain gives it 2 and takes 2', () => {
  // RULES.md L158-160: "The 2 damage for crossing down, and the 2 to a robot landed on, count for
  // every crossing, whatever moves the robot: a card, a push (a pushed robot that lands on the
  // next one of the chain gives it 2)"
  const bots: Bot[] = [
    { name: 'A', x: 1, y: 2, dir: 'E' },
    { name: 'B', x: 2, y: 2, dir: 'N' },
    { name: 'C', x: 3, y: 2, dir: 'N' },
  ];
  const g = turn(race({ grid: FLOOR, ledges: LEDGE_2E }, bots), one({ A: ['F1:490'] }));
  assert.deepEqual([at(g, 'A'), at(g, 'B'), at(g, 'C')], [[2, 2, 'E'], [3, 2, 'N'], [4, 2, 'N']]);
  assert.deepEqual([robot(g, 'A').damage, robot(g, 'B').damage, robot(g, 'C').damage], [0, 2 + 1, 2]); // B: and A's laser
  assert.deepEqual(ofType(g.events, 'ledgeDrop').map((e) => e.robot).sort(), [1, 2]);
});

test("a pusher's chain down a ledge: the robot pushed over it and the one it lands on take 2 each", () => {
  // RULES.md L158-160 ("a push")
  const board = { grid: FLOOR, ledges: LEDGE_2E, pushers: [{ x: 2, y: 2, dir: 'E', registers: [1] }] };
  const g = turn(race(board, [{ name: 'B', x: 2, y: 2, dir: 'N' }, { name: 'C', x: 3, y: 2, dir: 'N' }]), one());
  assert.deepEqual([at(g, 'B'), at(g, 'C')], [[3, 2, 'N'], [4, 2, 'N']]);
  assert.deepEqual([robot(g, 'B').damage, robot(g, 'C').damage], [2, 2]);
});

test("a repulsor's throw down a ledge onto a robot hurts the thrown robot and the one it lands on", () => {
  // RULES.md L160-161: "... an oil slide, a repulsor's throw."
  const board = {
    grid: ['. . . . . .', '. . . . . .', '. . . . RF .', '. . . . . .', '. . . . . .'],
    ledges: ['3,0 W', '3,1 W', '3,2 W', '3,3 W', '3,4 W'], // column 3 upper, column 2 lower
  };
  const g = turn(race(board, [{ name: 'A', x: 3, y: 2, dir: 'E' }, { name: 'C', x: 2, y: 2, dir: 'N' }]), one({ A: ['F1:490'] }));
  assert.deepEqual([at(g, 'A'), at(g, 'C')], [[2, 2, 'E'], [1, 2, 'N']]);
  assert.deepEqual([robot(g, 'A').damage, robot(g, 'C').damage], [2, 2]);
});

test('a robot destroyed by the damage of a ledge is not turned by the belt it lands on', () => {
  // RULES.md L161-162: "A robot destroyed by that damage is removed where it lands: a turning belt
  // there does not turn it."
  const board = { grid: ['. . . . . .', '. . . . . .', '. . > v . .', '. . . . . .', '. . . . . .'], ledges: LEDGE_2E };
  const wrecked = turn(race(board, [{ name: 'A', x: 2, y: 2, dir: 'E', damage: 8 }]), one());
  assert.equal(robot(wrecked, 'A').status, 'destroyed');
  assert.equal(robot(wrecked, 'A').dir, 1); // still facing east
  assert.equal(ofType(wrecked.events, 'turned').length, 0);
  // Not destroyed, it is turned as usual (000 L238).
  const hurt = turn(race(board, [{ name: 'A', x: 2, y: 2, dir: 'E' }]), one());
  assert.deepEqual(at(hurt, 'A'), [3, 2, 'S']);
  assert.equal(robot(hurt, 'A').damage, 2);
});

const DIE_PORTAL = { grid: ['. . . . .', '. . . T1 .', 'T1 . . . .', '. . . . .'], flags: [[3, 1]] as [number, number][] };

test("a portal whose exit is a die's flag square does not jump", () => {
  // RULES.md L177 (`diceRule`): "cannot be entered or touched by any means (a portal whose exit it
  // is does not jump ...)"
  const bots: Bot[] = [{ name: 'A', x: 0, y: 3, dir: 'N' }];
  const blockaded = turn(race(DIE_PORTAL, bots, { settings: { diceRule: [3] } }), one({ A: ['F1:490'] }));
  assert.deepEqual(at(blockaded, 'A'), [0, 2, 'N']);
  assert.equal(ofType(blockaded.events, 'teleported').length, 0);
  const open = turn(race(DIE_PORTAL, bots), one({ A: ['F1:490'] }));
  assert.deepEqual(at(open, 'A'), [3, 1, 'N']);
});

test("a flag under a die is never tagged, not even by a robot standing on its square", () => {
  // RULES.md L177: "cannot be entered or touched by any means"
  const board = { grid: FLOOR, flags: [[2, 2]] as [number, number][] };
  const bots: Bot[] = [{ name: 'A', x: 2, y: 2, dir: 'N' }];
  const blockaded = turn(race(board, bots, { settings: { diceRule: [3] } }), one());
  assert.equal(robot(blockaded, 'A').flags, 0);
  assert.equal(ofType(blockaded.events, 'flagTouched').length, 0);
  assert.equal(robot(turn(race(board, bots), one()), 'A').flags, 1);
});

test('a die stops a board beam going on for a virtual robot, even behind a real robot nearer the mount', () => {
  // RULES.md L177: "it stops every beam, the beams of and for virtual robots too"
  const board = { grid: FLOOR, flags: [[2, 1]] as [number, number][], lasers: [{ x: 0, y: 1, dir: 'E', beams: 1 }] };
  const bots: Bot[] = [
    { name: 'Real', x: 1, y: 1, dir: 'N' },
    { name: 'Ghost', x: 4, y: 1, dir: 'N', virtual: true },
  ];
  const g = turn(race(board, bots, { settings: { diceRule: [3] } }), one());
  assert.equal(robot(g, 'Real').damage, 1);
  assert.equal(robot(g, 'Ghost').damage, 0);
  // Without the die the virtual robot is hit as if alone on the board (000 L107).
  assert.equal(robot(turn(race(board, bots), one()), 'Ghost').damage, 1);
});

test("pbem re-entry never picks a die's flag square among the neighbours", () => {
  // RULES.md L137: "A neighbour that a robot may not enter (a repulsor field, a die's flag square) is not empty"
  const board = { grid: ['. . . . .', '. . . . .', '. . . O .', '. . O . .'], flags: [[2, 1]] as [number, number][] };
  for (let seed = 1; seed <= 12; seed++) {
    const bots: Bot[] = [
      { name: 'X', x: 2, y: 2, dir: 'N' },
      { name: 'D', x: 0, y: 0, dir: 'N', destroyed: true, archive: [2, 2] },
    ];
    const g = turn(race(board, bots, { rules: 'pbem', settings: { diceRule: [3] }, seed }), { registers: 0 });
    assert.deepEqual(at(g, 'D'), [1, 2, 'N'], `seed ${seed}`);
  }
});

test('pbem re-entry with no usable square waits off the board and tries again next turn', () => {
  // RULES.md L137-138: "with no usable square the robot waits off the board and tries again at the
  // start of the next turn."
  const board = { grid: ['. . . . .', '. . . . .', '. O . O .', '. . . . .', '. . . . .'], flags: [[2, 1]] as [number, number][] };
  const bots: Bot[] = [
    { name: 'X', x: 2, y: 2, dir: 'E' }, // not facing the die: it must stand through turn 2
    { name: 'Y', x: 2, y: 3, dir: 'S' },
    { name: 'D', x: 0, y: 0, dir: 'W', destroyed: true, archive: [2, 2] },
  ];
  let g = race(board, bots, { rules: 'pbem', settings: { diceRule: [3] } });
  const lives = robot(g, 'D').lives;
  // Turn 1: the archive is taken, two neighbours are pits, one the die's flag, one taken by Y.
  g = turn(g, { programs: { Y: ['F1', 'L', 'L', 'R', 'R'] } });
  assert.equal(at(g, 'D'), 'destroyed');
  assert.equal(robot(g, 'D').lives, lives);
  assert.equal(ofType(g.events, 'reentered').length, 0);
  assert.deepEqual(at(g, 'Y'), [2, 4, 'S']);
  // Turn 2: Y has gone; D re-enters on the square it left.
  g = turn(g, { registers: 0 });
  assert.deepEqual(at(g, 'D'), [2, 3, 'W']);
  assert.equal(robot(g, 'D').damage, 4);
});
