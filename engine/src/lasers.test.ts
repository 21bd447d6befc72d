/** Board and robot lasers, damage and locked registers (RULES.md "Lasers", "Damage, hands, locked registers"; 000 L127-132, L161-182, L281, L303). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at, card, end, index, ofType, play, program, race, robot, turn, type Bot } from './testing.js';
import type { BoardJson } from './board.js';

const laser = (x: number, y: number, dir: string, beams = 1) => ({ x, y, dir, beams });
/** One register in which nobody runs a card: only the board and the lasers act. */
const still = (board: BoardJson | string[], bots: Bot[], registers = 1) => turn(race(board, bots), { registers });
const dmg = (g: ReturnType<typeof race>, ...names: string[]) => names.map((n) => robot(g, n).damage);
const G5 = ['. . . . .', '. . . . .', '. . . . .', '. . . . .', '. . . . .'];

test('a board laser deals one point for each of its beams', () => {
  // 000 L128 "take a point of damage for each beam in that square"; RULES.md "Each beam deals 1 point" (B-29)
  const g = still({ grid: G5, lasers: [laser(0, 0, 'E', 1), laser(0, 2, 'E', 2), laser(0, 4, 'E', 3)] }, [
    { name: 'A', x: 3, y: 0, dir: 'N' }, { name: 'B', x: 2, y: 2, dir: 'E' }, { name: 'C', x: 1, y: 4, dir: 'S' },
  ]);
  assert.deepEqual(dmg(g, 'A', 'B', 'C'), [1, 2, 3]);
  const shots = ofType(g.events, 'shot');
  assert.deepEqual(shots.map((s) => [s.robot, s.by, s.points, s.from]), [
    [0, { laser: 0 }, 1, [0, 0]], [1, { laser: 1 }, 2, [0, 2]], [2, { laser: 2 }, 3, [0, 4]],
  ]);
  assert.deepEqual(ofType(g.events, 'damaged').map((e) => [e.robot, e.points, e.damage]), [[0, 1, 1], [1, 2, 2], [2, 3, 3]]);
});

test('a board beam starts in the cell in front of its mount and hits the robot standing there', () => {
  // RULES.md "A board beam starts in the cell in front of its mount and hits the robot standing there"
  const g = still({ grid: G5, lasers: [laser(2, 0, 'S')] }, [{ name: 'A', x: 2, y: 0, dir: 'E' }]);
  assert.deepEqual(dmg(g, 'A'), [1]);
});

test('a board beam hits only the first real robot in its way', () => {
  // 000 L128 "A laser beam will not pass through a robot, so if two or more robots are in the same beam, only the one closest to the source of the laser is damaged."
  const g = still({ grid: G5, lasers: [laser(0, 1, 'E', 2)] }, [
    { name: 'A', x: 2, y: 1, dir: 'N' }, { name: 'B', x: 4, y: 1, dir: 'N' },
  ]);
  assert.deepEqual(dmg(g, 'A', 'B'), [2, 0]);
});

test('a wall stops a board beam', () => {
  // 003 L69-72 "laser beams are blocked by walls and other robots"; 000 L303 "Line of sight is blocked by the first intervening wall"
  const g = still({ grid: G5, walls: ['2,1 W'], lasers: [laser(0, 1, 'E')] }, [{ name: 'A', x: 3, y: 1, dir: 'N' }, { name: 'B', x: 1, y: 3, dir: 'N' }]);
  assert.deepEqual(dmg(g, 'A'), [0]);
  // the wall on the far side of a robot's square does not shield it
  const h = still({ grid: G5, walls: ['2,1 E'], lasers: [laser(0, 1, 'E')] }, [{ name: 'A', x: 2, y: 1, dir: 'N' }]);
  assert.deepEqual(dmg(h, 'A'), [1]);
});

test('a robot passing through a beam is not hit; only where it stands after all movement counts', () => {
  // 000 L132 "A robot can move through a laser beam undamaged--the laser only damages the robot if it remains in the beam after it has moved and after all board elements have moved."
  const g = turn(race({ grid: G5, lasers: [laser(0, 2, 'E')] }, [{ name: 'A', x: 3, y: 3, dir: 'N' }]), { programs: { A: ['F2:670'] }, registers: 1 });
  assert.deepEqual([at(g, 'A'), robot(g, 'A').damage], [[3, 1, 'N'], 0]);
  // carried into the beam by a belt after its move: hit
  const h = still({ grid: ['. . . .', '. . . .', '. . . .', '. . . ^'], lasers: [laser(0, 2, 'E')] }, [{ name: 'A', x: 3, y: 3, dir: 'W' }]);
  assert.deepEqual([at(h, 'A'), robot(h, 'A').damage], [[3, 2, 'W'], 1]);
});

test('board lasers hit powered-down robots', () => {
  // 000 L201 "They may also be pushed by other robots and shot at by lasers."
  const g = still({ grid: G5, lasers: [laser(0, 1, 'E')] }, [{ name: 'P', x: 2, y: 1, dir: 'N', damage: 3, poweredDown: true }]);
  // its 3 damage was discarded at the start of the powered-down turn; the beam is new damage (000 L93)
  assert.deepEqual(dmg(g, 'P'), [1]);
});

test('a virtual robot is hit by a board beam as if it were alone on the board (B-27)', () => {
  // 000 L107 "can be shot by board-mounted lasers ... (Until you become real, you can pretend your robot is the only one on the board.)"
  // RULES.md "a real robot blocks beams only for real robots; each virtual robot is hit by a board beam as if it were alone"
  const virtualFirst = still({ grid: G5, lasers: [laser(0, 2, 'E')] }, [
    { name: 'V', x: 1, y: 2, dir: 'N', virtual: true }, { name: 'R', x: 3, y: 2, dir: 'N' },
  ]);
  assert.deepEqual(dmg(virtualFirst, 'V', 'R'), [1, 1]);
  const realFirst = still({ grid: G5, lasers: [laser(0, 2, 'E')] }, [
    { name: 'R', x: 1, y: 2, dir: 'N' }, { name: 'V', x: 3, y: 2, dir: 'N', virtual: true }, { name: 'S', x: 4, y: 2, dir: 'N' },
  ]);
  assert.deepEqual(dmg(realFirst, 'R', 'V', 'S'), [1, 1, 0]);
  const twoVirtual = still({ grid: G5, lasers: [laser(0, 2, 'E', 2)] }, [
    { name: 'V', x: 2, y: 2, dir: 'N', virtual: true }, { name: 'W', x: 2, y: 2, dir: 'S', virtual: true },
  ]);
  assert.deepEqual(dmg(twoVirtual, 'V', 'W'), [2, 2]);
});

test('a virtual robot sharing a square with a real robot in a beam is hit, and so is the real robot', () => {
  // RULES.md "each virtual robot is hit by a board beam as if it were alone on the board (B-27)"
  const g = still({ grid: G5, lasers: [laser(0, 2, 'E')] }, [
    { name: 'R', x: 2, y: 2, dir: 'N' }, { name: 'V', x: 2, y: 2, dir: 'S', virtual: true },
  ]);
  assert.deepEqual(dmg(g, 'R', 'V'), [1, 1]);
});

test('a wall stops a board beam for virtual robots too', () => {
  // 000 L107 "they are blocked by walls"
  const g = still({ grid: G5, walls: ['2,2 W'], lasers: [laser(0, 2, 'E')] }, [{ name: 'V', x: 3, y: 2, dir: 'N', virtual: true }]);
  assert.deepEqual(dmg(g, 'V'), [0]);
});

test('a robot fires forward at the first robot in its row or column, any distance away', () => {
  // 000 L130 "every robot has a forward-firing laser. A robot in another robot's line of sight ... will automatically take a point of damage"
  // 001 L161 "it doesn't matter how far apart the robots are"
  const g = still(['. . . . . . . . . .'], [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 9, y: 0, dir: 'N' }]);
  assert.deepEqual(dmg(g, 'A', 'B'), [0, 1]);
  const s = ofType(g.events, 'shot')[0]!;
  assert.deepEqual([s.robot, s.by, s.points, s.from], [1, { robot: 0 }, 1, [0, 0]]);
});

test('a robot laser fires forward only: nothing behind or beside the robot is hit, nor anything diagonal', () => {
  // 000 L303 "restricted to firing in a straight line along a column or row ... Diagonal firing is not possible."
  const g = still(G5, [
    { name: 'A', x: 2, y: 2, dir: 'N' },
    { name: 'Behind', x: 2, y: 4, dir: 'W' }, { name: 'Side', x: 4, y: 2, dir: 'S' }, { name: 'Diag', x: 3, y: 1, dir: 'E' },
  ]);
  assert.deepEqual(dmg(g, 'A', 'Behind', 'Side', 'Diag'), [0, 0, 0, 0]);
});

test('a robot laser hits only the first robot in line', () => {
  // 000 L303 "Line of sight is blocked by the first intervening wall or robot"
  const g = still(['. . . . .'], [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 2, y: 0, dir: 'N' }, { name: 'C', x: 4, y: 0, dir: 'N' }]);
  assert.deepEqual(dmg(g, 'A', 'B', 'C'), [0, 1, 0]);
});

test('a wall on the shooter\'s front side, or between the robots, blocks a robot laser', () => {
  // RULES.md "a wall on the shooter's own front side blocks it"; 000 L130 "no intervening obstruction, like a wall"
  const front = still({ grid: ['. . . .'], walls: ['0,0 E'] }, [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 3, y: 0, dir: 'N' }]);
  assert.deepEqual(dmg(front, 'B'), [0]);
  const between = still({ grid: ['. . . .'], walls: ['3,0 W'] }, [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 3, y: 0, dir: 'N' }]);
  assert.deepEqual(dmg(between, 'B'), [0]);
  const beyond = still({ grid: ['. . . .'], walls: ['3,0 E'] }, [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 3, y: 0, dir: 'N' }]);
  assert.deepEqual(dmg(beyond, 'B'), [1]);
});

test('a powered-down robot does not fire, but is hit', () => {
  // 000 L201 "it can't fire weapons ... They may also be pushed by other robots and shot at by lasers."
  const g = still(['. . . .'], [{ name: 'P', x: 0, y: 0, dir: 'E', damage: 2, poweredDown: true }, { name: 'B', x: 3, y: 0, dir: 'W' }]);
  assert.deepEqual(dmg(g, 'P', 'B'), [1, 0]);
});

test('a virtual robot neither fires nor is hit by robot lasers, nor blocks them', () => {
  // 000 L107 "It doesn't shoot other robots, and other robots don't shoot it"; 000 L48 "immune to all effects caused by other robots, including lasers"
  // RULES.md "Virtual robots neither fire nor are hit by robot lasers"; "Virtual robots and real robots do not see each other"
  const g = still(['. . . . .'], [
    { name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'V', x: 2, y: 0, dir: 'W', virtual: true }, { name: 'B', x: 4, y: 0, dir: 'N' },
  ]);
  assert.deepEqual(dmg(g, 'A', 'V', 'B'), [0, 0, 1]);
});

test('two robots facing each other shoot each other', () => {
  // 000 L130; RULES.md "All beams are traced from where robots stand when the laser step begins, damage is dealt together"
  const g = still(['. . . .'], [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 3, y: 0, dir: 'W' }]);
  assert.deepEqual(dmg(g, 'A', 'B'), [1, 1]);
});

test('board beams and robot beams add up', () => {
  // RULES.md "beams add up, board and robot alike (B-29)"
  const g = still({ grid: G5, lasers: [laser(0, 2, 'E', 2)] }, [{ name: 'A', x: 2, y: 2, dir: 'N' }, { name: 'B', x: 2, y: 4, dir: 'N' }]);
  assert.deepEqual(dmg(g, 'A', 'B'), [3, 0]);
});

test('a robot destroyed by the laser step still fires in that step (B-28)', () => {
  // RULES.md "All beams are traced from where robots stand when the laser step begins, damage is dealt together, and only then are robots destroyed (B-28)"
  const g = still({ grid: ['. . . . .', '. . . . .', '. . . . .'], lasers: [laser(1, 0, 'S')] }, [
    // 9 damage: every register locked; an empty register 1 (B-38) keeps it facing B this register
    { name: 'A', x: 1, y: 2, dir: 'E', damage: 9, program: ['-', 'L:90', 'L:110', 'L:130', 'L:150'] },
    { name: 'B', x: 4, y: 2, dir: 'W' },
  ]);
  assert.equal(at(g, 'A'), 'destroyed');
  assert.equal(robot(g, 'B').damage, 1);
  const d = ofType(g.events, 'destroyed')[0]!;
  assert.deepEqual([d.robot, d.cause, d.pushedBy], [index(g, 'A'), 'damage', null]);
});

test('a robot in front of a robot destroyed by the laser step is still shielded by it that step', () => {
  // RULES.md B-28: beams are traced from where robots stand when the laser step begins
  const g = still({ grid: ['. . . .', '. . . .'], lasers: [laser(0, 1, 'E', 2)] }, [
    { name: 'A', x: 1, y: 1, dir: 'N', damage: 8, program: ['-', 'L:90', 'L:110', 'L:130', 'L:150'] },
    { name: 'B', x: 3, y: 1, dir: 'N' },
  ]);
  assert.equal(at(g, 'A'), 'destroyed');
  assert.equal(robot(g, 'B').damage, 0);
});

test('the tenth point of damage destroys a robot; the ninth does not', () => {
  // 000 L207 "A robot is destroyed when it receives its tenth point of damage"; 000 L174 "9 ... lock all registers / 10 destruction"
  const g = still({ grid: G5, lasers: [laser(0, 1, 'E')] }, [
    { name: 'A', x: 1, y: 1, dir: 'N', damage: 8, program: ['-', 'L:90', 'L:110', 'L:130', 'L:150'] },
  ], 2);
  assert.equal(at(g, 'A'), 'destroyed');
  assert.equal(ofType(g.events, 'destroyed').length, 1);
  assert.equal(robot(g, 'A').lives, 2);
  const damaged = ofType(g.events, 'damaged').map((e) => e.damage);
  assert.deepEqual(damaged, [9, 10]);
});

test('the fifth point of damage locks register 5 at once, and its card stays there', () => {
  // 000 L176 "registers can only become locked when a robot receives damage"; 000 L178-180 "a robot that has just received its fifth point of damage ...
  // four of the five program cards are returned to the program deck ... The fifth card remains in the fifth register"
  const g0 = race({ grid: G5, lasers: [laser(0, 4, 'E')] }, [{ name: 'A', x: 4, y: 3, dir: 'S', damage: 4 }]);
  const r1 = play(program(g0, { programs: { A: ['F1:490', 'L:70', 'R:80', 'L:90', 'R:100'] } }), 1);
  assert.deepEqual(at(r1, 'A'), [4, 4, 'S']);
  assert.equal(robot(r1, 'A').damage, 5);
  assert.deepEqual(ofType(r1.events, 'locked').map((e) => e.registers), [[5]]);
  assert.equal(robot(r1, 'A').locked, 0b10000);
  const ended = end(play(r1, 4)); // A is hit again in each register: 9 damage, all locked by now
  assert.equal(robot(ended, 'A').damage, 9);
  assert.deepEqual(robot(ended, 'A').registers, ['F1:490', 'L:70', 'R:80', 'L:90', 'R:100'].map(card));
});

test('a locked register keeps this turn\'s card into the next turn, and only the open registers are dealt', () => {
  // 000 L180 "only four are dealt back to this player. The fifth card remains in the fifth register"
  const g0 = race({ grid: ['. . . . .', '. . . . .', '. . . . .'], lasers: [laser(0, 1, 'E')] }, [{ name: 'A', x: 2, y: 0, dir: 'S', damage: 4 }]);
  // register 1: A steps into the beam: 5 damage, register 5 locked; register 2 takes it out of the beam
  const t1 = turn(g0, { programs: { A: ['F1:490', 'F1:500', 'U:10', 'U:20', 'R:80'] } });
  assert.equal(robot(t1, 'A').damage, 5);
  assert.deepEqual(robot(t1, 'A').registers, [0, 0, 0, 0, 80]);
  const t2 = program(t1);
  assert.equal(robot(t2, 'A').hand.length, 4);
  assert.ok(!robot(t2, 'A').hand.includes(80));
  assert.deepEqual(robot(t2, 'A').registers, [0, 0, 0, 0, 80]);
});

test('damage past five locks the next register down from 5', () => {
  // 000 L305 "Damage chits after the fourth are placed on top of the robot's program cards, starting with the last one"; 000 L170-174
  const g = still({ grid: G5, lasers: [laser(0, 1, 'E', 3)] }, [{ name: 'A', x: 1, y: 1, dir: 'N', damage: 4 }]);
  assert.equal(robot(g, 'A').damage, 7);
  assert.deepEqual(ofType(g.events, 'locked').map((e) => e.registers), [[5, 4, 3]]);
  assert.equal(robot(g, 'A').locked, 0b11100);
});
