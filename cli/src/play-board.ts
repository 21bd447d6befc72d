/**
 * The small board `roborally play` races on, in the board grammar of SCENARIOS.md ("Board").
 * A stand-in until races read real board files.
 *
 *        0  1  2  3  4  5  6  7  8  9
 *    0   .  .  .  .  .  .  .  .  .  .
 *    1   .  3  .  .  .  .  .  .  .  .      3: flag 3, walled on its north and west sides
 *    2   .  .  .  .  .  2  << << << .      2: flag 2, where the express belt ends
 *    3   .  .  O  .  .  .  .  .  ^^ .
 *    4   .  .  .  .  1  .  .  .  ^^ .      1: flag 1, a wall on its north side
 *    5   >  >  >  v  G+ .  .  .  ^^ .      G+: a gear turning right
 *    6   .  .  .  v  .  .  O  .  ^^ .
 *    7   .  .  .  >  .  .  .  .  ^^ .      a board laser at (0,7) fires east, to the wall after (5,7)
 *    8   .  .  .  .  W  .  .  .  ^^ .      W: the start, a repair site
 *    9   .  .  .  .  .  .  .  .  .  .
 */
import type { BoardJson } from '../../engine/src/index.js';

export const PLAY_BOARD: BoardJson = {
  grid: [
    '.  .  .  .  .  .  .  .  .  .',
    '.  .  .  .  .  .  .  .  .  .',
    '.  .  .  .  .  .  << << << .',
    '.  .  O  .  .  .  .  .  ^^ .',
    '.  .  .  .  .  .  .  .  ^^ .',
    '>  >  >  v  G+ .  .  .  ^^ .',
    '.  .  .  v  .  .  O  .  ^^ .',
    '.  .  .  >  .  .  .  .  ^^ .',
    '.  .  .  .  W  .  .  .  ^^ .',
    '.  .  .  .  .  .  .  .  .  .',
  ],
  walls: ['4,4 N', '1,1 N', '1,1 W', '5,7 E'],
  lasers: [{ x: 0, y: 7, dir: 'E', beams: 1 }],
  flags: [
    [4, 4],
    [5, 2],
    [1, 1],
  ],
  start: [4, 8],
};
