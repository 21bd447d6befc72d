import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Resvg } from '@resvg/resvg-js';
import type { GameEvent } from '../../engine/src/index.js';
import { race } from '../../engine/src/testing.js';
import { board } from './fixtures.js';
import { renderSvg } from './render.js';
import { COLORS } from './theme.js';

/** Pixels of exactly this colour in the picture. */
function pixels(svg: string, hex: string): number {
  const img = new Resvg(svg, { font: { loadSystemFonts: false }, logLevel: 'off' }).render();
  const px = img.pixels;
  const [r, g, b] = [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  let n = 0;
  for (let k = 0; k < px.length; k += 4) if (px[k] === r && px[k + 1] === g && px[k + 2] === b) n++;
  return n;
}

test("a robot pushed along its pusher's own line is drawn beside the pusher's arrow, where it can be seen", () => {
  const grid = ['. . . . . .', '. . . . . .', '. . . . . .'];
  const g = race({ grid }, [{ name: 'Ava', x: 3, y: 1, dir: 'E' }, { name: 'Bob', x: 4, y: 1, dir: 'N' }]);
  // Ava's Move 3 from (0,1) pushes Bob from (1,1) to (4,1), square by square.
  const events: GameEvent[] = [{ type: 'registerBegan', register: 1 }];
  for (let x = 0; x < 3; x++) {
    events.push({ type: 'pushed', robot: 1, from: [x + 1, 1], to: [x + 2, 1], by: { robot: 0 } });
    events.push({ type: 'moved', robot: 0, from: [x, 1], to: [x + 1, 1] });
  }
  const svg = renderSvg(board({ grid }), { state: g.state, events });
  const green = pixels(svg, COLORS.pushed), blue = pixels(svg, COLORS.programmed);
  // Before, the green arrow lay under the blue one: 26 green pixels against 2,023 blue.
  assert.ok(blue > 500, `blue ${blue}`);
  assert.ok(green > blue / 2, `green ${green} against blue ${blue}`);
});
