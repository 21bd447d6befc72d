import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BoardJson } from './board.js';
import { parseCourse, type Course } from './course.js';
import { describeFold } from './cube.js';
import { createState, makeSetup } from './game.js';
import type { Settings } from './settings.js';
import { at, dir, must, ofType, turn, type Game } from './testing.js';

// 004 L179 "Arrange six boards in a cross (or any other arrangement that can be folded into a
// cube) ... every board edge is attached to another board edge somewhere on the configuration."
// The cross, of 3x3 boards:        . A . .
//                                  B C D E
//                                  . F . .
// A (3,0) is a wall of the cube, C (3,3) its floor, E (9,3) its ceiling.
const PLAIN: BoardJson = { grid: ['. . .', '. . .', '. . .'] };
const BELT: BoardJson = { grid: ['. . .', '< . .', '. . .'] };
const LASER: BoardJson = { grid: ['. . .', '. . .', '. . .'], lasers: [{ x: 2, y: 1, dir: 'W', beams: 1 }] };
const PUSHER: BoardJson = { grid: ['. . .', '. . .', '. . .'], pushers: [{ x: 0, y: 1, dir: 'W', registers: [1] }] };
const BOARDS: Record<string, BoardJson> = { plain: PLAIN, belt: BELT, laser: LASER, pusher: PUSHER };
const CROSS = [[3, 0], [0, 3], [3, 3], [6, 3], [9, 3], [3, 6]];

function cube(a = 'plain', over: Record<string, unknown> = {}): Course {
  return must(parseCourse({
    name: 'Cube', players: [1, 4], complexity: 'easy', time: 'short', cube: true,
    boards: CROSS.map(([x, y], k) => ({ board: k === 0 ? a : 'plain', x, y })), flags: [[4, 4]], start: [4, 4], ...over,
  }, (n) => BOARDS[n]));
}

function game(c: Course, robots: { name: string; x: number; y: number; dir: 'N' | 'E' | 'S' | 'W' }[], settings: Settings = {}): Game {
  const setup = must(makeSetup(c.board, 'classic', settings, 6));
  return { setup, state: must(createState(setup, robots.map((r) => ({ ...r, dir: dir(r.dir) })), 1)), events: [] };
}

test('004 L179: the cross folds into a cube, every board edge attached to exactly one other, both ways; the edges the net joins turn nothing', () => {
  const fold = cube().board.fold!;
  for (const [k, sides] of fold.map.entries()) {
    for (const [d, s] of sides.entries()) {
      assert.notEqual(s.board, k);
      assert.deepEqual({ board: fold.map[s.board]![s.side]!.board, side: fold.map[s.board]![s.side]!.side }, { board: k, side: d }, `boards[${k}] side ${d}`);
    }
  }
  // A's west edge runs down B's north edge: going west on A is going south on B, a quarter turn left.
  assert.deepEqual(fold.map[0]![3], { board: 1, side: 0, turn: 3 });
  // C's north edge is A's south edge in the net too: straight on.
  assert.deepEqual(fold.map[2]![0], { board: 0, side: 2, turn: 0 });
  // The ceiling E: its east edge is B's west edge (the cross's two ends meet), straight on.
  assert.deepEqual(fold.map[4]![1], { board: 1, side: 3, turn: 0 });
  assert.equal(describeFold(fold).length, 12, 'a cube has twelve edges');
});

test('004 L179: a net that does not fold into a cube is refused, naming the board', () => {
  const refused = (boards: number[][]) => {
    const r = parseCourse({ name: 'Cube', players: [1, 4], complexity: 'easy', time: 'short', cube: true, boards: boards.map(([x, y]) => ({ board: 'plain', x, y })), flags: [[1, 1]], start: [1, 1] }, (n) => BOARDS[n]);
    assert.equal(r.ok, false);
    return r.ok ? '' : `${r.error.field}: ${r.error.message}`;
  };
  assert.match(refused([[0, 0], [3, 0], [6, 0], [9, 0], [12, 0], [15, 0]]), /^boards\[4\]: the net does not fold into a cube: boards\[4\] folds onto boards\[0\]/);
  const five = parseCourse({ name: 'Cube', players: [1, 4], complexity: 'easy', time: 'short', cube: true, boards: CROSS.slice(0, 5).map(([x, y]) => ({ board: 'plain', x, y })), flags: [[4, 4]], start: [4, 4] }, (n) => BOARDS[n]);
  assert.deepEqual(five.ok ? null : five.error, { field: 'boards', message: 'a cube is six boards; found 5' });
  assert.match(refused([[0, 0], [3, 0], [6, 0], [9, 0], [3, 3], [7, 3]]), /^boards\[5\]: a cube's boards meet edge to edge/);
});

test('004 L179: a robot driving over an edge the net does not join comes out on the board attached there, turned with the floor, and drives on', () => {
  // From A (3,1) west: over A's west edge onto B's north row at (1,3), now facing south; the second square south.
  let g = game(cube(), [{ name: 'Ava', x: 3, y: 1, dir: 'W' }]);
  g = turn(g, { programs: { Ava: ['F2:670'] }, registers: 1 });
  assert.deepEqual(at(g, 'Ava'), [1, 4, 'S']);
  assert.deepEqual(ofType(g.events, 'turned').map((e) => e.by), ['fold']);
  // Backing up over the same edge: the facing turns the same way, the robot keeps backing.
  g = game(cube(), [{ name: 'Bob', x: 3, y: 1, dir: 'E' }]);
  g = turn(g, { programs: { Bob: ['B:430'] }, registers: 1 });
  assert.deepEqual(at(g, 'Bob'), [1, 3, 'N']);
});

test('004 L179: a robot pushed over a fold turns with it, and so does a chain; a belt carries over a fold and turns the robot it carries', () => {
  let g = game(cube(), [{ name: 'Ava', x: 4, y: 1, dir: 'W' }, { name: 'Bob', x: 3, y: 1, dir: 'N' }]);
  g = turn(g, { programs: { Ava: ['F1:490'] }, registers: 1 });
  assert.deepEqual(at(g, 'Ava'), [3, 1, 'W']);
  assert.deepEqual(at(g, 'Bob'), [1, 3, 'W']);
  // A chain of two across the fold: Cy, on B's north row, is pushed on south as Bob comes over.
  g = game(cube(), [{ name: 'Ava', x: 4, y: 1, dir: 'W' }, { name: 'Bob', x: 3, y: 1, dir: 'N' }, { name: 'Cy', x: 1, y: 3, dir: 'E' }]);
  g = turn(g, { programs: { Ava: ['F1:490'] }, registers: 1 });
  assert.deepEqual([at(g, 'Ava'), at(g, 'Bob'), at(g, 'Cy')], [[3, 1, 'W'], [1, 3, 'W'], [1, 4, 'E']]);
  // A's belt at (3,1) runs west, over the fold: the robot (turned east by its card) lands on (1,3),
  // turned a quarter left like the floor.
  g = game(cube('belt'), [{ name: 'Dee', x: 3, y: 1, dir: 'N' }]);
  g = turn(g, { programs: { Dee: ['R:80'] }, registers: 1 });
  assert.deepEqual(at(g, 'Dee'), [1, 3, 'N']);
  assert.deepEqual(ofType(g.events, 'turned').map((e) => e.by), ['card', 'fold']);
  // A pusher on A's west column pushes west, over the fold: the robot lands on (1,3), turned with the floor.
  g = game(cube('pusher'), [{ name: 'Eve', x: 3, y: 1, dir: 'N' }]);
  g = turn(g, { registers: 1 });
  assert.deepEqual(at(g, 'Eve'), [1, 3, 'W']);
});

test('004 L179 inside the cube: lasers cross a board edge only into the first row across it; outside: they do not cross board edges', () => {
  const robots = [{ name: 'Ava', x: 3, y: 1, dir: 'W' as const }, { name: 'Bob', x: 1, y: 3, dir: 'E' as const }, { name: 'Cy', x: 3, y: 3, dir: 'W' as const }, { name: 'Dee', x: 3, y: 5, dir: 'N' as const }];
  const damage = (settings: Settings) => {
    const g = turn(game(cube(), robots, settings), { registers: 1 });
    return Object.fromEntries(g.state.robots.map((r) => [r.name, r.damage]));
  };
  // Ava fires over A's west fold at Bob in B's first row; Dee fires north on C at Cy (same board);
  // Cy fires west over C's west edge (joined in the net) into B's last column, where nobody stands;
  // Bob fires east over B's east edge (joined in the net) at Cy in C's first column.
  assert.deepEqual(damage({}), { Ava: 0, Bob: 1, Cy: 2, Dee: 0 });
  assert.deepEqual(damage({ cubed: 'inside' }), { Ava: 0, Bob: 1, Cy: 2, Dee: 0 });
  assert.deepEqual(damage({ cubed: 'outside' }), { Ava: 0, Bob: 0, Cy: 1, Dee: 0 });
  // The second row across is never reached.
  const far = turn(game(cube(), [{ name: 'Ava', x: 3, y: 1, dir: 'W' }, { name: 'Bob', x: 1, y: 4, dir: 'N' }]), { registers: 1 });
  assert.equal(far.state.robots[1]!.damage, 0);
  // A board laser on A fires west at (2,1)…(0,1) local, and over the fold into B's first row, inside only.
  const board = (settings: Settings) => turn(game(cube('laser'), [{ name: 'Eve', x: 1, y: 3, dir: 'S' }], settings), { registers: 1 }).state.robots[0]!.damage;
  assert.equal(board({ cubed: 'inside' }), 1);
  assert.equal(board({ cubed: 'outside' }), 0);
});

test('the setting cubed is refused on a course that is not a cube', () => {
  const flat = must(parseCourse({ name: 'Flat', players: [1, 4], complexity: 'easy', time: 'short', boards: [{ board: 'plain', x: 0, y: 0 }], flags: [[1, 1]], start: [0, 0] }, (n) => BOARDS[n]));
  const r = makeSetup(flat.board, 'classic', { cubed: 'inside' });
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : `${r.error.field}: ${r.error.message}`, /^settings\.cubed: RoboRally Cubed needs a cube course/);
});
