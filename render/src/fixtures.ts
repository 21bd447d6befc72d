/**
 * Hand-made boards for the renderer's tests and snapshots: together they hold every element, an
 * L-shaped course with void cells, and robots with the events of a turn.
 */
import { parseBoard, type Board, type BoardJson, type GameEvent, type GameState } from '../../engine/src/index.js';
import { race } from '../../engine/src/testing.js';
import type { SnapshotCase } from './snapshots.js';

export function board(json: BoardJson): Board {
  const r = parseBoard(json);
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
}

/** Every kind of cell and device, with belts that run straight, turn and merge. */
export const ELEMENTS_JSON: BoardJson = {
  grid: [
    '.  .  >  >  v  .  .  G+ .  G-',
    '.  O  ^  .  v  .  .  .  .  .',
    '>> >> >> vv v  .  ~  .  W  .',
    '.  .  .  vv <  <  <  .  .  WW',
    'T1 .  .  >> >> ^^ .  .  RF .',
    '.  .  .  .  .  ^^ .  T2 .  .',
    'C  .  O  .  .  ^^ .  .  .  T1',
    'T2 .  .  .  .  ^^ << << .  .',
  ],
  walls: ['1,3 N', '6,5 E', '8,6 S', '2,4 E', '2,5 E', '4,6 N'],
  lasers: [
    { x: 9, y: 5, dir: 'W', beams: 1 },
    { x: 0, y: 1, dir: 'S', beams: 2 },
    { x: 8, y: 0, dir: 'S', beams: 3 },
  ],
  pushers: [
    { x: 1, y: 5, dir: 'E', registers: [1, 3, 5] },
    { x: 6, y: 0, dir: 'S', registers: [2, 4] },
    { x: 9, y: 1, dir: 'W', registers: [1, 3, 5] },
    { x: 3, y: 7, dir: 'N', registers: [2, 4] },
  ],
  crushers: [
    { x: 7, y: 1, registers: [2, 4] },
    { x: 1, y: 6, registers: [1, 3, 5] },
    { x: 6, y: 7, registers: [5] },
  ],
  flags: [[7, 6], [1, 3], [9, 7]],
  ledges: ['7,3 S', '8,3 S', '6,6 E'],
  ramps: ['8,3 S'],
  start: [4, 6],
};

/** An L-shaped course: the north-east quarter has no floor. */
export const L_COURSE_JSON: BoardJson = {
  grid: [
    '.  .  >  >  v  x  x  x',
    '.  G+ .  W  v  x  x  x',
    '.  .  .  .  v  x  x  x',
    '<  <  <  <  <  x  x  x',
    '.  .  O  .  .  .  .  .',
    '.  .  .  .  ~  .  G- .',
    '^^ .  .  .  .  .  .  WW',
    '^^ << << << << << << <<',
  ],
  walls: ['0,0 W', '0,0 N', '4,0 E', '4,2 E', '4,4 N', '7,4 N', '7,4 E'],
  lasers: [{ x: 7, y: 5, dir: 'W', beams: 2 }],
  flags: [[3, 1], [6, 4]],
  start: [1, 6],
};

/** A small board for robots and the moves of a turn. */
export const TURN_JSON: BoardJson = {
  grid: [
    '.  .  .  .  .  .',
    '.  .  >  >  >  .',
    '.  .  .  .  .  .',
    '.  O  .  G+ .  .',
    '.  .  .  .  .  .',
  ],
  walls: ['5,2 E'],
  lasers: [{ x: 5, y: 4, dir: 'N', beams: 1 }],
  pushers: [{ x: 0, y: 2, dir: 'E', registers: [2, 4] }],
  flags: [[5, 0]],
};

/**
 * Robots after a turn and that turn's events, written by hand: Ava moves 2 east and is carried
 * 1 by a belt; Bob backs up, is pushed by Ava's move and by the pusher; Cid falls in the pit;
 * Dee, virtual, teleports onto Bob's square; the laser and Ava shoot Eve.
 */
export function turnExample(): { board: Board; state: GameState; events: GameEvent[] } {
  const b = board(TURN_JSON);
  const g = race(TURN_JSON, [
    { name: 'Ava', x: 4, y: 1, dir: 'E', damage: 1 },
    { name: 'Bob', x: 2, y: 2, dir: 'S', damage: 3 },
    { name: 'Cid', x: 0, y: 4, dir: 'N', lives: 2 },
    { name: 'Dee', x: 2, y: 2, dir: 'W', virtual: true },
    { name: 'Eve', x: 5, y: 1, dir: 'N', poweredDown: true },
  ]);
  const state = g.state;
  state.robots[2]!.status = 'destroyed';
  const events: GameEvent[] = [
    { type: 'registerBegan', register: 1 },
    { type: 'moved', robot: 0, from: [1, 0], to: [2, 0] },
    { type: 'moved', robot: 0, from: [2, 0], to: [3, 0] },
    { type: 'moved', robot: 1, from: [1, 1], to: [1, 2] },
    { type: 'moved', robot: 2, from: [1, 4], to: [1, 3] },
    { type: 'destroyed', robot: 2, cause: 'pit', pushedBy: null, lives: 1 },
    { type: 'registerBegan', register: 2 },
    { type: 'moved', robot: 0, from: [3, 0], to: [3, 1] },
    { type: 'turned', robot: 0, from: 2, to: 1, by: 'card' },
    { type: 'pushed', robot: 1, from: [1, 2], to: [2, 2], by: { pusher: 0 } },
    { type: 'carried', robot: 0, from: [3, 1], to: [4, 1], express: false },
    { type: 'shot', robot: 4, by: { laser: 0 }, points: 1, from: [5, 4], to: [5, 1] },
    { type: 'registerBegan', register: 3 },
    { type: 'teleported', robot: 3, from: [0, 0], to: [2, 2] },
    { type: 'shot', robot: 4, by: { robot: 0 }, points: 1, from: [4, 1], to: [5, 1] },
  ];
  return { board: b, state, events };
}

/** The renderer's snapshot cases. */
export function testCases(): SnapshotCase[] {
  const t = turnExample();
  return [
    { name: 'elements', board: board(ELEMENTS_JSON), options: { title: 'Every element' } },
    { name: 'elements-legend', board: board(ELEMENTS_JSON), options: { legend: true, cell: 48 } },
    { name: 'l-course', board: board(L_COURSE_JSON), options: { title: 'An L-shaped course' } },
    { name: 'turn', board: t.board, options: { state: t.state, events: t.events, title: 'Turn 1' } },
  ];
}
