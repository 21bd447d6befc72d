/** The picture of a turn on a cube course (004 L179): moves and shots over a fold, drawn on the flat net. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createState, makeSetup, parseCourse, type BoardJson } from '../../engine/src/index.js';
import { dir, must, turn, type Game } from '../../engine/src/testing.js';
import { renderSvg } from './render.js';

// The cross of 3x3 boards, as engine/src/cube.test.ts lays it: A (3,0) above C (3,3); A's west
// edge is attached to B's north edge, so (3,1) going west comes out at (1,3) going south.
const PLAIN: BoardJson = { grid: ['. . .', '. . .', '. . .'] };
const CROSS = [[3, 0], [0, 3], [3, 3], [6, 3], [9, 3], [3, 6]];
const C = 40;
const MARGIN = Math.round(C * 0.6);

function game(robots: { name: string; x: number; y: number; dir: 'N' | 'E' | 'S' | 'W' }[]): Game {
  const course = must(parseCourse({
    name: 'Cube', players: [1, 4], complexity: 'easy', time: 'short', cube: true,
    boards: CROSS.map(([x, y]) => ({ board: 'plain', x, y })), flags: [[4, 4]], start: [4, 4],
  }, () => PLAIN));
  const setup = must(makeSetup(course.board, 'classic', {}, 6));
  return { setup, state: must(createState(setup, robots.map((r) => ({ ...r, dir: dir(r.dir) })), 1)), events: [] };
}

/** The `<g>` of the given kind whose opening tag names a fold, whole. */
function foldGroup(svg: string, kind: string): string {
  const m = new RegExp(`<g [^>]*data-kind="${kind}"[^>]*data-fold="[^"]+"[^>]*>`).exec(svg);
  assert.ok(m, `a ${kind} drawn over a fold`);
  const end = svg.indexOf('</g>', m.index);
  return svg.slice(m.index, end);
}

/** Each line of a group, as [x1, y1, x2, y2]. */
const lines = (g: string): number[][] =>
  [...g.matchAll(/<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"/g)].map((m) => m.slice(1, 5).map(Number));

/** Whether a point lies in course square (x, y) of the picture (its edges included). */
const inSquare = (px: number, py: number, [x, y]: readonly number[]) =>
  px >= MARGIN + x! * C - 0.01 && px <= MARGIN + (x! + 1) * C + 0.01 && py >= MARGIN + y! * C - 0.01 && py <= MARGIN + (y! + 1) * C + 0.01;

/** Every line lies within one of the squares, none runs across the picture from one to the other. */
function eachInOneSquare(g: string, squares: readonly (readonly number[])[]): void {
  const ls = lines(g);
  assert.ok(ls.length >= 2, g);
  for (const [x1, y1, x2, y2] of ls) assert.ok(squares.some((s) => inSquare(x1!, y1!, s) && inSquare(x2!, y2!, s)), `line (${x1},${y1})-(${x2},${y2}) leaves its square`);
}

test('004 L179: a move over a cube\'s fold is drawn leaving by the edge crossed and entering by the edge across, never as a line across the net', () => {
  const g = turn(game([{ name: 'Ava', x: 3, y: 1, dir: 'W' }]), { programs: { Ava: ['F1:490'] }, registers: 1 });
  const svg = renderSvg(g.setup.board, { state: g.state, events: g.events, cell: C });
  const move = foldGroup(svg, 'move');
  assert.match(move, /data-from="3,1" data-to="1,3" data-fold="W-S"/);
  eachInOneSquare(move, [[3, 1], [1, 3]]);
  // The first arrow ends on (3,1)'s west edge, the second starts on (1,3)'s north edge.
  const [out, into] = lines(move).filter((_, k) => k % 2 === 0);
  assert.ok(out![1] === out![3] && out![2]! < out![0]!, 'the first arrow points west');
  assert.deepEqual([into![0], into![1]], [MARGIN + 1.5 * C, MARGIN + 3 * C]);
  assert.ok(into![2] === into![0] && into![3]! > into![1]!, 'the second points south, into the square');
});

test('004 L179 inside the cube: a shot over a fold is drawn to the edge crossed and on from the edge across', () => {
  const g = turn(game([{ name: 'Ava', x: 3, y: 1, dir: 'W' }, { name: 'Bob', x: 1, y: 3, dir: 'E' }]), { registers: 1 });
  const svg = renderSvg(g.setup.board, { state: g.state, events: g.events, cell: C });
  const shot = foldGroup(svg, 'shot');
  assert.match(shot, /data-from="3,1" data-to="1,3" data-fold="W-S"/);
  eachInOneSquare(shot, [[3, 1], [1, 3]]);
});
