import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_BOARD_LIST, MAX_BOARD_SIDE, boardSquare, cannotStand, parseBoard, parseBoardFile, square } from './board.js';
import { cellsDisagree, must } from './testing.js';
import { busyCourse24, randomBoard } from '../../testkit/src/index.js';

const refusal = (json: Record<string, unknown>) => {
  const r = parseBoard({ grid: ['. . .', '. O .', '. . RF'], ...json });
  assert.equal(r.ok, false, 'expected a refusal');
  return r.ok ? null : r.error;
};

test('boardSquare names every square of the largest board as square does, by the same shared pair; square makes a new pair off it', () => {
  for (let y = 0; y < MAX_BOARD_SIDE; y++) {
    for (let x = 0; x < MAX_BOARD_SIDE; x++) {
      assert.equal(boardSquare(x, y), square(x, y), `(${x},${y})`);
      assert.deepEqual(boardSquare(x, y), [x, y]);
    }
  }
  for (const [x, y] of [[-1, 0], [0, -1], [MAX_BOARD_SIDE, 3], [3, MAX_BOARD_SIDE]] as const) assert.deepEqual(square(x, y), [x, y]);
});

test('a board\'s packed per-cell table holds what its floor, belt, plain-step, site, pusher, crusher, reach and beam tables hold, on every cell', () => {
  assert.deepEqual(cellsDisagree(must(parseBoard(busyCourse24()))), []);
  for (let seed = 1; seed <= 20; seed++) {
    const size = 4 + ((seed * 7) % 45);
    const b = must(parseBoard(randomBoard(seed, { width: size, height: 2 + ((seed * 5) % 47), oil: 3, portals: 2, repulsors: 3, ledges: 4, lasers: 12, pushers: 6, crushers: 4 })));
    assert.deepEqual(cellsDisagree(b), [], `seed ${seed}`);
  }
});

test('a board refuses unknown keys in lasers, pushers and crushers, naming the key\'s path', () => {
  assert.deepEqual(refusal({ lasers: [{ x: 0, y: 0, dir: 'E', beam: 3 }] }), { field: 'board.lasers[0].beam', message: 'unknown key (expected one of x, y, dir, beams)' });
  assert.deepEqual(refusal({ pushers: [{ x: 0, y: 0, dir: 'E', registers: [1], register: [2] }] }), { field: 'board.pushers[0].register', message: 'unknown key (expected one of x, y, dir, registers)' });
  assert.deepEqual(refusal({ crushers: [{ x: 0, y: 0, registers: [1], dir: 'N' }] }), { field: 'board.crushers[0].dir', message: 'unknown key (expected one of x, y, registers)' });
});

test('a board refuses a pusher or crusher active in no register', () => {
  assert.equal(refusal({ pushers: [{ x: 0, y: 0, dir: 'E', registers: [] }] })!.field, 'board.pushers[0].registers');
  assert.equal(refusal({ crushers: [{ x: 0, y: 0, registers: [] }] })!.field, 'board.crushers[0].registers');
});

test('a board is at most 48 squares a side, with at most 16 flags and bounded lists', () => {
  const row = (n: number) => Array(n).fill('.').join(' ');
  assert.ok(parseBoard({ grid: Array(48).fill(row(48)) }).ok);
  assert.deepEqual(parseBoard({ grid: Array(49).fill(row(3)) }), { ok: false, error: { field: 'board.grid', message: '49 rows; expected at most 48' } });
  assert.deepEqual(parseBoard({ grid: [row(5000)] }), { ok: false, error: { field: 'board.grid[0]', message: '5000 cells; expected at most 48' } });
  const flags = Array.from({ length: 17 }, (_, k) => [k % 3, Math.floor(k / 3) % 3]);
  assert.deepEqual(refusal({ grid: Array(6).fill(row(6)), flags }), { field: 'board.flags', message: '17 flags; expected at most 16' });
  assert.equal(refusal({ walls: Array(MAX_BOARD_LIST + 1).fill('0,0 N') })!.field, 'board.walls');
  assert.equal(refusal({ lasers: Array(MAX_BOARD_LIST + 1).fill({ x: 0, y: 0, dir: 'E' }) })!.field, 'board.lasers');
});

test('a board\'s start must be a square a robot can stand on: not a pit nor a repulsor field', () => {
  assert.deepEqual(refusal({ start: [1, 1] }), { field: 'board.start', message: '(1,1) is a pit; expected a square a robot can stand on' });
  assert.match(refusal({ start: [2, 2] })!.message, /repulsor field/);
  assert.ok(parseBoard({ grid: ['. . .', '. O .', '. . RF'], start: [0, 0] }).ok);
});

test('cannotStand names why no robot stands on a square: off the board, no floor, a pit, a repulsor field', () => {
  const b = parseBoard({ grid: ['. x', 'O RF'] });
  assert.ok(b.ok);
  assert.equal(cannotStand(b.value, 0, 0), null);
  assert.equal(cannotStand(b.value, 1, 0), '(1,0) is where no board is');
  assert.equal(cannotStand(b.value, 0, 1), '(0,1) is a pit');
  assert.match(cannotStand(b.value, 1, 1)!, /repulsor field/);
  assert.equal(cannotStand(b.value, 2, 0), '(2,0) is off the 2x2 board');
});

test('a board file refuses an unknown key beside its name, author and description', () => {
  const r = parseBoardFile({ name: 'n', author: 'a', description: 'd', grid: ['.'], rotaton: 90 });
  assert.deepEqual(r, { ok: false, error: { field: 'board.rotaton', message: 'unknown key (expected one of grid, walls, lasers, pushers, crushers, flags, ledges, ramps, start, name, author, description)' } });
});
