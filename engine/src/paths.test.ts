/** Where a lone robot can go (paths.ts): the runs a course's check makes, each made once. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBoard } from './board.js';
import { makeSetup } from './game.js';
import type { Dir, Square } from './geometry.js';
import { LoneRobot, registersTo } from './paths.js';
import { must } from './testing.js';

/** A small floor with belts, an express belt, gears, a pit, a pusher and a crusher, acting by register. */
const SETUP = must(makeSetup(must(parseBoard({
  grid: ['. > > v . .', '. G+ . v O .', '. . G- >> >> .', '. ^ < < . .', '. . . . . .'],
  walls: ['2,4 N'],
  pushers: [{ x: 0, y: 2, dir: 'E', registers: [2, 4] }],
  crushers: [{ x: 5, y: 0, registers: [1, 3, 5] }],
})), 'pbem'));

test('runOf answers as run does for every pose, register and card, asked once and again', () => {
  const lone = new LoneRobot(SETUP);
  const fresh = new LoneRobot(SETUP);
  const b = SETUP.board;
  for (let again = 0; again < 2; again++)
    for (let y = 0; y < b.height; y++)
      for (let x = 0; x < b.width; x++)
        for (let dir = 0; dir < 4; dir++)
          for (let reg = 1; reg <= 5; reg++)
            for (let card = 0; card < lone.cards.length; card++) {
              const from = { x, y, dir: dir as Dir };
              assert.deepEqual(lone.runOf(from, card, reg), fresh.run(from, fresh.cards[card]!, reg), `(${x},${y}) ${dir}, register ${reg}, card ${card}`);
            }
});

test('the searches of one check run each pose, register and card once: a search again makes no run, and answers the same', () => {
  const lone = new LoneRobot(SETUP);
  let runs = 0;
  const run = lone.run.bind(lone);
  lone.run = (...a) => (runs++, run(...a));
  const targets: Square[] = [[5, 4], [0, 0], [4, 1], [3, 4]];
  const first = targets.map((t) => registersTo(SETUP, [[0, 4]], t, lone));
  const made = runs;
  assert.ok(made > 0);
  assert.deepEqual(targets.map((t) => registersTo(SETUP, [[0, 4]], t, lone)), first);
  assert.equal(runs, made, 'no run made twice');
  assert.deepEqual(targets.map((t) => registersTo(SETUP, [[0, 4]], t)), first, 'as with a new robot for each search');
});
