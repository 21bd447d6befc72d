import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BoardJson } from './board.js';
import { courseFile, parseCourse, type Course } from './course.js';
import { validateCourse } from './validate.js';
import { describeFold } from './cube.js';
import { createState, makeSetup } from './game.js';
import type { Settings } from './settings.js';
import { at, cellsDisagree, dir, must, ofType, turn, type Game } from './testing.js';

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

function game(c: Course, robots: { name: string; x: number; y: number; dir: 'N' | 'E' | 'S' | 'W'; options?: string[] }[], settings: Settings = {}): Game {
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

test('a cube course\'s packed per-cell table holds its own reach and beams, inside the cube and outside', () => {
  for (const cubed of ['inside', 'outside'] as const) {
    const b = must(makeSetup(cube('laser').board, 'classic', { cubed }, 6)).board;
    assert.notEqual(b.reach, cube('laser').board.reach, 'the cube has reach tables of its own');
    assert.deepEqual(cellsDisagree(b), [], cubed);
  }
});

test('the setting cubed is refused on a course that is not a cube', () => {
  const flat = must(parseCourse({ name: 'Flat', players: [1, 4], complexity: 'easy', time: 'short', boards: [{ board: 'plain', x: 0, y: 0 }], flags: [[1, 1]], start: [0, 0] }, (n) => BOARDS[n]));
  const r = makeSetup(flat.board, 'classic', { cubed: 'inside' });
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : `${r.error.field}: ${r.error.message}`, /^settings\.cubed: RoboRally Cubed needs a cube course/);
});

// The Dice Rule (004 L182; RULES.md Settings `diceRule`) on a cube: RULES.md has no ruling for the
// two together. The reading here: a die's square is walled on all four sides, the side on a fold
// too (its neighbour there is the square across), and a beam that reaches over a fold into the
// first row across meets a die there as it would a robot (every beam: board, robot, High-Power).
// The die of flag 2 stands at (1,3), on B's north row, across A's west fold from (3,1).
const DICE = { flags: [[4, 4], [1, 3]] };

test('004 L179 with the Dice Rule: a die just over a fold is walled on the fold\'s side too; a robot driving or pushed over the fold stops', () => {
  let g = game(cube('plain', DICE), [{ name: 'Ava', x: 3, y: 1, dir: 'W' }], { diceRule: [5, 5] });
  g = turn(g, { programs: { Ava: ['F2:670'] }, registers: 1 });
  assert.deepEqual(at(g, 'Ava'), [3, 1, 'W']);
  assert.deepEqual(ofType(g.events, 'blocked').map((e) => [e.x, e.y]), [[3, 1]]);
  g = game(cube('plain', DICE), [{ name: 'Ava', x: 4, y: 1, dir: 'W' }, { name: 'Bob', x: 3, y: 1, dir: 'N' }], { diceRule: [5, 5] });
  g = turn(g, { programs: { Ava: ['F1:490'] }, registers: 1 });
  assert.deepEqual([at(g, 'Ava'), at(g, 'Bob')], [[4, 1, 'W'], [3, 1, 'N']]);
  // Once the die is destroyed, the square is open again from over the fold.
  g = game(cube('plain', DICE), [{ name: 'Ava', x: 3, y: 1, dir: 'W' }], { diceRule: [5, 1] });
  g = turn(g);
  assert.deepEqual(ofType(g.events, 'dieHit').map((e) => [e.flag, e.left]), [[2, 0]], 'her laser over the fold destroyed it');
  g = turn(g, { programs: { Ava: ['F1:490'] }, registers: 1 });
  assert.deepEqual(at(g, 'Ava'), [1, 3, 'S']);
});

test('004 L179 inside the cube with the Dice Rule: a beam over a fold hits a die in the first row across, robot, High-Power (through a robot first) and board lasers alike; outside the cube none does', () => {
  const dieHits = (g: Game) => ofType(g.events, 'dieHit').map((e) => [e.flag, e.points]);
  const one = (c: Course, robots: Parameters<typeof game>[1], settings: Settings) => turn(game(c, robots, { diceRule: [5, 5], ...settings }), { registers: 1 });
  // The main laser from (3,1) west, over the fold.
  assert.deepEqual(dieHits(one(cube('plain', DICE), [{ name: 'Ava', x: 3, y: 1, dir: 'W' }], {})), [[2, 1]]);
  assert.deepEqual(dieHits(one(cube('plain', DICE), [{ name: 'Ava', x: 3, y: 1, dir: 'W' }], { cubed: 'outside' })), []);
  // High-Power Laser (2.14) from (5,1): through Bob at (4,1), on over the fold to the die.
  const robots = (options: string[]) => [{ name: 'Ava', x: 5, y: 1, dir: 'W' as const, options }, { name: 'Bob', x: 4, y: 1, dir: 'N' as const }];
  const hp = one(cube('plain', DICE), robots(['High-Power Laser']), {});
  assert.deepEqual([hp.state.robots[1]!.damage, dieHits(hp)], [1, [[2, 1]]]);
  const plain = one(cube('plain', DICE), robots(['Brakes']), {});
  assert.deepEqual([plain.state.robots[1]!.damage, dieHits(plain)], [1, []], 'the main laser stops at Bob');
  const outside = one(cube('plain', DICE), robots(['High-Power Laser']), { cubed: 'outside' });
  assert.deepEqual([outside.state.robots[1]!.damage, dieHits(outside)], [1, []]);
  // A's board laser fires west from (5,1) and over the fold (Cy, on F, is out of the way).
  const cy = [{ name: 'Cy', x: 4, y: 7, dir: 'E' as const }];
  assert.deepEqual(dieHits(one(cube('laser', DICE), cy, {})), [[2, 1]]);
  assert.deepEqual(dieHits(one(cube('laser', DICE), cy, { cubed: 'outside' })), []);
});

// Seams the course gives (`"cube": {"seams": …}`): 004 L179 allows "any other arrangement", and
// RULES.md has no ruling on one that is not a net. The reading (engine/src/cube.ts `foldSeams`,
// docs/formats.md): six boards laid anywhere, twelve seams attaching every board edge to another.
const APART = CROSS.map((_, k) => [(k % 3) * 4, Math.floor(k / 3) * 4]); // two rows of three, a square between boards

function crossSeams(): [number, string, number, string][] {
  const fold = cube().board.fold!;
  const N = ['N', 'E', 'S', 'W'];
  return fold.map.flatMap((sides, k) => sides.flatMap((s, d) => (k < s.board ? [[k, N[d]!, s.board, N[s.side]!] as [number, string, number, string]] : [])));
}

function laid(seams: unknown, places: number[][] = APART, over: Record<string, unknown> = {}) {
  const start = [places[0]![0]! + 1, places[0]![1]! + 1];
  return parseCourse({
    name: 'Laid out', players: [1, 4], complexity: 'easy', time: 'short', cube: { seams },
    boards: places.map(([x, y]) => ({ board: 'plain', x, y })), flags: [start], start, ...over,
  }, (n) => BOARDS[n]);
}

/** Every step over a board edge: from (board, local square, side) to (board, local square, turn). */
function steps(c: Course): Map<string, string> {
  const b = c.board, fold = b.fold!, out = new Map<string, string>();
  const local = (cell: number) => {
    const k = c.boardAt[cell]!, p = c.boards[k]!;
    return `${k}:${(cell % b.width) - p.x},${Math.floor(cell / b.width) - p.y}`;
  };
  for (let cell = 0; cell < b.width * b.height; cell++) {
    for (let d = 0; d < 4; d++) {
      if (!fold.edge[cell * 4 + d]) continue;
      const to = fold.across[cell * 4 + d]! >= 0 ? fold.across[cell * 4 + d]! : cell + [-b.width, 1, b.width, -1][d]!;
      out.set(`${local(cell)} ${d}`, `${local(to)} turning ${fold.turn[cell * 4 + d]}`);
    }
  }
  return out;
}

test('a cube laid out as the course likes, with the seams it gives, folds as the net with the same seams does: every step over every board edge alike', () => {
  const seams = crossSeams();
  assert.equal(seams.length, 12);
  const apart = must(laid(seams));
  assert.deepEqual(steps(apart), steps(cube()));
  assert.equal(steps(apart).size, 6 * 4 * 3);
  // A robot driving over a seam: from A's (1,1) west, onto B's north row facing south, and on.
  let g = game(apart, [{ name: 'Ava', x: 1, y: 1, dir: 'W' }]);
  g = turn(g, { programs: { Ava: ['F3:790'] }, registers: 1 });
  assert.deepEqual(at(g, 'Ava'), [APART[1]![0]! + 1, APART[1]![1]! + 1, 'S']);
  // The course file says what the reader read, and reads back to the same seams; a folded net writes "cube": true.
  const again = must(parseCourse(JSON.parse(JSON.stringify(courseFile(apart))), (n) => BOARDS[n]));
  assert.deepEqual(again.seams, apart.seams);
  assert.equal(courseFile(cube()).cube, true);
  // Boards laid apart still meet, at the seams: the course is fit to race on.
  assert.deepEqual(validateCourse(apart), []);
});

test('seams a course gives are refused, naming the seam, when they are not twelve, reuse an edge, attach a board to itself or twice to one, do not close into a cube, or leave boards that touch unattached there', () => {
  const why = (seams: unknown, places?: number[][]) => {
    const r = laid(seams, places);
    return r.ok ? 'accepted' : `${r.error.field}: ${r.error.message}`;
  };
  const s = crossSeams();
  assert.match(why(s.slice(1)), /^cube\.seams: expected the twelve seams of the cube/);
  assert.match(why([...s.slice(1), [0, 'Q', 1, 'N']]), /^cube\.seams\[11\]: expected \[board, side, board, side\]/);
  assert.match(why([...s.slice(1), s[0]!.slice(0, 2).concat(s[0]!.slice(0, 2))]), /^cube\.seams\[11\]: attaches boards\[\d\] to itself/);
  assert.match(why([...s.slice(1), s[1]]), /^cube\.seams\[11\]: boards\[\d\] [NESW] is in another seam already/);
  // Two seams swapped end for end: every edge used once, but the corners no longer meet three by three.
  const [a, b] = [s[0]!, s[1]!];
  const swapped = [[a[0], a[1], b[2], b[3]], [b[0], b[1], a[2], a[3]], ...s.slice(2)];
  assert.match(why(swapped), /^cube\.seams(\[\d+\])?: (the seams do not close the boards into a cube|boards\[\d\] is attached to boards\[\d\] already)/);
  assert.equal(why(s, CROSS), 'accepted', 'a net given its own seams');
  // F laid against C's east side, where C is attached to D: the floor would run on from C into F.
  const touching = [...APART.slice(0, 5), [11, 0]];
  assert.equal(why(s, touching), 'cube.seams: boards[2] E touches boards[5] on the course, so it must be attached to it there, as laid out, not to boards[3] W');
  assert.match(why({ seams: s }), /^cube\.seams: expected the twelve seams/);
  const extra = parseCourse({ name: 'X', players: [1, 4], complexity: 'easy', time: 'short', cube: { seams: s, fold: 1 }, boards: APART.map(([x, y]) => ({ board: 'plain', x, y })), flags: [[1, 1]], start: [1, 1] }, (n) => BOARDS[n]);
  assert.match(extra.ok ? '' : `${extra.error.field}: ${extra.error.message}`, /^cube\.fold: unknown key/);
});

test('004 L179 with pbem\'s re-entry (001 L313-319): a robot re-entering beside a taken archive on a board edge may come in over the fold, on the square across', () => {
  // The archive (3,1) on A's west column is taken; its neighbours on A are too: the one left is (1,3), over the fold.
  const setup = must(makeSetup(cube().board, 'pbem', {}, 6));
  const robots = [
    { name: 'Ava', x: 3, y: 1, dir: 1, destroyed: true, archive: [3, 1] as [number, number] },
    { name: 'Bob', x: 3, y: 1, dir: 0 }, { name: 'Cy', x: 3, y: 0, dir: 0 }, { name: 'Dee', x: 4, y: 1, dir: 0 }, { name: 'Eve', x: 3, y: 2, dir: 0 },
  ] as const;
  const g = turn({ setup, state: must(createState(setup, robots.map((r) => ({ ...r })), 1)), events: [] }, { registers: 0 });
  assert.deepEqual(ofType(g.events, 'reentered').map((e) => [e.x, e.y]), [[1, 3]]);
  assert.deepEqual(at(g, 'Ava'), [1, 3, 'E']);
});
