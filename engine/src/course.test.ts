import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BoardJson } from './board.js';
import { composeBoards, courseFile, parseCourse, rotateBoard, type Course } from './course.js';
import { validateCourse } from './validate.js';

const TILE: BoardJson = {
  grid: ['. . . .', '. W > .', '. . O .', '. T1 . T1'],
  walls: ['0,0 N', '3,1 E'],
  lasers: [{ x: 3, y: 0, dir: 'S', beams: 2 }],
  pushers: [{ x: 0, y: 2, dir: 'E', registers: [1, 3] }],
  crushers: [{ x: 2, y: 1, registers: [2] }],
  ledges: ['1,2 S'],
  ramps: ['1,2 S'],
};

const boards = (extra: Record<string, BoardJson> = {}) => (name: string) => ({ tile: TILE, ...extra })[name];

function course(over: Record<string, unknown> = {}): Course {
  const r = parseCourse({
    name: 'Test', players: [1, 3], complexity: 'easy', time: 'short',
    boards: [{ board: 'tile', x: 0, y: 0, rotation: 0 }], flags: [[3, 3]], start: [1, 1], ...over,
  }, boards());
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
}

const refusal = (over: Record<string, unknown>, b = boards()) => {
  const r = parseCourse({ name: 'Test', players: [1, 3], complexity: 'easy', time: 'short', boards: [{ board: 'tile', x: 0, y: 0 }], flags: [[3, 0]], start: [1, 1], ...over }, b);
  assert.equal(r.ok, false);
  return r.ok ? null : r.error;
};

test('turning a board 90 degrees clockwise moves every cell, edge and device and turns their directions', () => {
  const t = rotateBoard(TILE, 90);
  // (x, y) goes to (3 - y, x) on a 4x4 board.
  assert.deepEqual(t.grid, ['. . . .', 'T1 . W .', '. O v .', 'T1 . . .']);
  assert.deepEqual(t.walls, ['3,0 E', '2,3 S']);
  assert.deepEqual(t.lasers, [{ x: 3, y: 3, dir: 'W', beams: 2 }]);
  assert.deepEqual(t.pushers, [{ x: 1, y: 0, dir: 'S', registers: [1, 3] }]);
  assert.deepEqual(t.crushers, [{ x: 2, y: 2, registers: [2] }]);
  assert.deepEqual(t.ledges, ['1,1 W']);
  assert.deepEqual(t.ramps, ['1,1 W']);
});

test('four quarter turns give the board back', () => {
  assert.deepEqual(rotateBoard(rotateBoard(TILE, 270), 90), TILE);
  assert.deepEqual(rotateBoard(TILE, 180), rotateBoard(rotateBoard(TILE, 90), 90));
});

test('a course lays its boards side by side, shifts their walls and devices, and leaves holes without floor', () => {
  const c = course({ boards: [{ board: 'tile', x: 0, y: 0, rotation: 0 }, { board: 'tile', x: 4, y: 4, rotation: 180 }, { board: 'tile', x: 4, y: 0 }] });
  assert.equal(c.board.width, 8);
  assert.equal(c.board.height, 8);
  assert.equal(c.layout.grid[5], 'x x x x . O . .');
  assert.ok(c.layout.walls!.includes('7,1 E'));
  assert.deepEqual(c.layout.lasers![2], { x: 7, y: 0, dir: 'S', beams: 2 });
  assert.equal(c.boardAt[5 * 8 + 5], 1);
  assert.equal(c.boardAt[5 * 8 + 1], -1);
});

test('portal pairs of different boards get labels of their own', () => {
  const c = course({ boards: [{ board: 'tile', x: 0, y: 0 }, { board: 'tile', x: 4, y: 0 }] });
  assert.equal(c.layout.grid[3], '. T1 . T1 . T2 . T2');
});

test('a course refuses boards that overlap, naming both and the square', () => {
  const e = refusal({ boards: [{ board: 'tile', x: 0, y: 0 }, { board: 'tile', x: 2, y: 1 }] });
  assert.equal(e?.field, 'boards[1]');
  assert.match(e!.message, /"tile" overlaps "tile" \(boards\[0\]\) at \(2,1\)/);
});

test('a course refuses an unknown board, a bad rotation, and a flag or start on no board', () => {
  assert.match(refusal({ boards: [{ board: 'nope', x: 0, y: 0 }] })!.message, /no board named "nope"/);
  assert.equal(refusal({ boards: [{ board: 'tile', x: 0, y: 0, rotation: 45 }] })!.field, 'boards[0].rotation');
  assert.deepEqual(refusal({ flags: [[9, 9]] }), { field: 'flags[0]', message: '(9,9) is not on any board of the course' });
  assert.equal(refusal({ start: undefined })!.field, 'start');
  assert.equal(refusal({ players: [3, 1] })!.field, 'players');
});

test('a good course validates with no problems', () => {
  assert.deepEqual(validateCourse(course()), []);
});

const problems = (over: Record<string, unknown>) => validateCourse(course(over)).map((p) => `${p.at ? p.at.join(',') : '-'}: ${p.message}`);

test('validation refuses boards that do not meet along an edge', () => {
  assert.deepEqual(problems({ boards: [{ board: 'tile', x: 0, y: 0 }, { board: 'tile', x: 4, y: 4 }] }), ['4,4: board "tile" at (4,4) does not meet the other boards along an edge']);
});

test('validation refuses a flag on a pit, a belt, a pusher square or under a crusher', () => {
  assert.deepEqual(problems({ flags: [[2, 2]] }), ['2,2: flag 1 at (2,2) is on a pit']);
  assert.deepEqual(problems({ flags: [[2, 1]] }), ['2,1: flag 1 at (2,1) is on a conveyor belt', '2,1: flag 1 at (2,1) is under a crusher']);
  assert.deepEqual(problems({ flags: [[0, 2]] }), ['0,2: flag 1 at (0,2) is on a pusher\'s square']);
});

test('validation refuses a flag in a corner of two walls', () => {
  const c = parseCourse({ name: 'T', players: [1, 2], complexity: 'easy', time: 'short', boards: [{ board: 'c', x: 0, y: 0 }], flags: [[1, 1]], start: [0, 0] },
    boards({ c: { grid: ['W . .', '. . .', '. . .'], walls: ['1,1 N', '1,1 E'] } }));
  assert.ok(c.ok);
  assert.deepEqual(validateCourse(c.value).map((p) => p.message), ['flag 1 at (1,1) is in a corner of two walls (N and E)']);
});

test('validation refuses a classic start that is not an archive location', () => {
  assert.deepEqual(problems({ start: [0, 0] }), ['0,0: the start (0,0) is not an archive location (a repair site)']);
});

test('validation refuses pbem starts off plain floor, on a flag, or shared, and more than eight', () => {
  assert.deepEqual(problems({ start: undefined, starts: [[0, 0], [2, 1], [0, 0], [1, 1], [3, 3]] }), [
    '2,1: start 2 at (2,1) is not on plain floor (a conveyor belt)',
    '0,0: start 3 at (0,0) is another start\'s square too',
    '1,1: start 4 at (1,1) is not on plain floor (a repair site)',
    '3,3: start 5 at (3,3) is not on plain floor (a portal)',
    '3,3: start 5 at (3,3) is on flag 1',
  ]);
});

test('a course refuses more than eight starts, a start or starts where no robot can stand, and no flag', () => {
  const nine = [[0, 0], [1, 0], [2, 0], [0, 1], [3, 1], [1, 2], [3, 2], [0, 3], [2, 3]];
  assert.deepEqual(refusal({ start: undefined, starts: nine }), { field: 'starts', message: '9 starts; a race has at most 8 robots' });
  assert.deepEqual(refusal({ start: undefined, starts: [[0, 0], [2, 2]] }), { field: 'starts[1]', message: '(2,2) is a pit; expected a square a robot can stand on' });
  assert.deepEqual(refusal({ start: [2, 2] }), { field: 'course.start', message: '(2,2) is a pit; expected a square a robot can stand on' });
  assert.equal(refusal({ flags: [] })!.field, 'flags');
});

test('a course refuses unknown keys, naming their path, at its top and in a placement', () => {
  assert.deepEqual(refusal({ flgs: [[0, 0]] }), { field: 'flgs', message: 'unknown key (expected one of name, author, description, players, complexity, time, boards, flags, start, starts, cube)' });
  assert.deepEqual(refusal({ boards: [{ board: 'tile', x: 0, y: 0, rotaton: 90 }] }), { field: 'boards[0].rotaton', message: 'unknown key (expected one of board, x, y, rotation)' });
});

test('a course is bounded: 16 boards, corners 0 to 47, 48 squares a side, 16 flags', () => {
  const many = Array.from({ length: 17 }, (_, k) => ({ board: 'tile', x: (k % 4) * 4, y: Math.floor(k / 4) * 4 }));
  assert.deepEqual(refusal({ boards: many }), { field: 'boards', message: '17 boards; expected at most 16' });
  assert.equal(refusal({ boards: [{ board: 'tile', x: 4294967295, y: 0 }] })!.field, 'boards[0].x');
  assert.equal(refusal({ boards: [{ board: 'tile', x: 0, y: 1000000 }] })!.field, 'boards[0].y');
  assert.deepEqual(refusal({ boards: [{ board: 'tile', x: 0, y: 0 }, { board: 'tile', x: 46, y: 0 }] }), { field: 'boards', message: 'the course is 50x4 squares; expected at most 48 a side' });
  assert.deepEqual(refusal({ flags: Array(17).fill([3, 0]) }), { field: 'flags', message: '17 flags; expected at most 16' });
});

test('validation refuses a classic start that is not on the first board', () => {
  assert.deepEqual(problems({ boards: [{ board: 'tile', x: 0, y: 0 }, { board: 'tile', x: 4, y: 0 }], start: [5, 1] }), ['5,1: the start (5,1) is not on the first board, "tile"']);
});

test('validation refuses a flag that no robot can reach from the one before, with any cards', () => {
  const walled = { grid: ['W . . .', '. . . .', '. . . .', '. . . .'], walls: ['3,3 N', '3,3 W'] };
  const c = parseCourse({ name: 'T', players: [1, 2], complexity: 'easy', time: 'short', boards: [{ board: 'w', x: 0, y: 0 }], flags: [[1, 1], [3, 3]], start: [0, 0] }, boards({ w: walled }));
  assert.ok(c.ok);
  assert.deepEqual(validateCourse(c.value).map((p) => p.message), ['flag 2 at (3,3) is in a corner of two walls (W and N)']);
  const open = parseCourse({ name: 'T', players: [1, 2], complexity: 'easy', time: 'short', boards: [{ board: 'w', x: 0, y: 0 }], flags: [[3, 3]], start: [0, 0] },
    boards({ w: { grid: ['W . O .', '. . O .', 'O O O .', '. . . .'] } }));
  assert.ok(open.ok);
  assert.deepEqual(validateCourse(open.value).map((p) => p.message), ['flag 1 at (3,3) cannot be reached from the start']);
});

test('a flag reachable only through a portal counts as reachable', () => {
  // (2,3) and (3,3) are walled off from the rest; the portal (0,1) leads to (2,3).
  const b = { grid: ['W . . .', 'T1 . . .', '. . . .', '. . T1 .'], walls: ['2,3 N', '3,3 N', '2,3 W'] };
  const c = parseCourse({ name: 'T', players: [1, 2], complexity: 'easy', time: 'short', boards: [{ board: 'b', x: 0, y: 0 }], flags: [[3, 3]], start: [0, 0] }, boards({ b }));
  assert.ok(c.ok);
  assert.deepEqual(validateCourse(c.value), []);
});

test('each validation problem names the course file\'s field it is about, as the readers do', () => {
  const fields = (over: Record<string, unknown>) => validateCourse(course(over)).map((p) => p.field);
  assert.deepEqual(fields({ boards: [{ board: 'tile', x: 0, y: 0 }, { board: 'tile', x: 4, y: 4 }] }), ['boards[1]']);
  assert.deepEqual(fields({ flags: [[1, 1], [2, 2]] }), ['flags[1]']);
  assert.deepEqual(fields({ start: [0, 0] }), ['start']);
  assert.deepEqual(fields({ start: undefined, starts: [[0, 1], [2, 1]] }), ['starts[1]']);
});

test('a course\'s boards are laid out before any flag or start is placed (for an editor to draw)', () => {
  const c = composeBoards([{ board: 'tile', x: 0, y: 0 }, { board: 'tile', x: 4, y: 0, rotation: 90 }], boards({ tile: TILE }));
  assert.ok(c.ok);
  assert.deepEqual([c.value.width, c.value.height], [8, 4]);
  assert.equal(c.value.layout.flags, undefined);
  assert.equal(c.value.boardAt[5], 1);
  assert.deepEqual(c.value.layout.grid.slice(0, 2), ['. . . . . . . .', '. W > . T2 . W .'], 'the second board turned, its portals relabelled');
  const bad = composeBoards([{ board: 'tile', x: 0, y: 0 }, { board: 'tile', x: 2, y: 0 }], boards({ tile: TILE }));
  assert.equal(!bad.ok && bad.error.field, 'boards[1]');
});

test('a course written back as its file reads back into the same course', () => {
  const c = course({ boards: [{ board: 'tile', x: 0, y: 0, rotation: 0 }, { board: 'tile', x: 4, y: 0, rotation: 90 }], starts: [[0, 1]] });
  const again = parseCourse(JSON.parse(JSON.stringify(courseFile(c))), boards());
  assert.ok(again.ok);
  assert.deepEqual(courseFile(again.value), courseFile(c));
  assert.deepEqual(again.value.layout, c.layout);
});
