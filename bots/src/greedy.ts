/**
 * The greedy bot: the best next turn for itself alone. It simulates its own program with the
 * engine, the other robots taken off the floor, and scores where it ends: flags touched, then the
 * straight-line (Manhattan) distance to the next flag; being destroyed is worst, finishing best.
 * It knows nothing of the paths around walls and pits beyond this turn, nor of damage.
 */
import { type Dir, type GameState, type Orders, type Reentry, type Setup, type Square } from '../../engine/src/index.js';
import { shuffle } from '../../engine/src/index.js';
import { decisionRng, idleOrders, type Bot } from './common.js';
import { searchPrograms, type Evaluate } from './search.js';
import { Sim } from './sim.js';

const FINISHED = 1e6;
const DESTROYED = -1e6;

/** Manhattan distance to the next flag (0 when every flag is touched). */
function manhattan(setup: Setup, flags: number, x: number, y: number): number {
  const f = setup.board.flags[flags];
  return f ? Math.abs(f[0] - x) + Math.abs(f[1] - y) : 0;
}

export function greedyOrders(setup: Setup, state: GameState, i: number, seed: number): Orders {
  const idle = idleOrders(state, i);
  if (idle) return idle;
  const r = state.robots[i]!;
  const sim = new Sim(setup, state, { alone: i });
  const evaluate: Evaluate = (s, kind, reg, finishedAt) => {
    const me = s.robots[0]!;
    if (finishedAt) return FINISHED - finishedAt;
    if (kind === 'destroyed') return DESTROYED + reg;
    return me.flags * 1000 - manhattan(setup, me.flags, me.x, me.y);
  };
  const order = shuffle(decisionRng(seed, state, i), [0, 1, 2, 3, 4, 5, 6]);
  return { program: searchPrograms(sim, 0, r.hand, evaluate, { order }).program };
}

/** Re-entry facing the next flag as squarely as it can. */
export function greedyReentry(setup: Setup, state: GameState, i: number): Reentry {
  const r = state.robots[i]!;
  if (r.status !== 'destroyed') return {};
  const [x, y] = r.archive ?? r.start;
  return setup.board.flags[r.flags] ? { dir: towardFlag(setup, [x, y], r.flags) } : {};
}

/** Facing the flag as squarely as it can. */
function towardFlag(setup: Setup, [x, y]: Square, flags: number): Dir {
  const f = setup.board.flags[flags];
  if (!f) return 0;
  const dx = f[0] - x, dy = f[1] - y;
  return Math.abs(dx) >= Math.abs(dy) ? (dx >= 0 ? 1 : 3) : dy >= 0 ? 2 : 0;
}

export const greedyBot: Bot = {
  level: 'greedy',
  chooseOrders: greedyOrders,
  chooseReentry: greedyReentry,
  chooseFacing: (setup, square) => towardFlag(setup, square, 0),
};
