/** The random bot: a legal program drawn at random from its hand. */
import { openRegisters, type Dir, type GameState, type Orders, type Reentry, type Setup, type Square } from '../../engine/src/index.js';
import { below, seedRng, shuffle } from '../../engine/src/index.js';
import { decisionRng, idleOrders, type Bot } from './common.js';

/**
 * A random ordering of cards from the hand into the open registers (none for locked registers, none
 * at all when powered down or off the floor); it never powers down.
 */
export function randomOrders(_setup: Setup, state: GameState, i: number, seed: number): Orders {
  const idle = idleOrders(state, i);
  if (idle) return idle;
  const r = state.robots[i]!;
  const rng = decisionRng(seed, state, i);
  const open = openRegisters(r.locked).length;
  return { program: shuffle(rng, r.hand.slice()).slice(0, open) };
}

/** A random facing for re-entry. */
export function randomReentry(_setup: Setup, state: GameState, i: number, seed: number): Reentry {
  return { dir: below(decisionRng(seed, state, i), 4) as Dir };
}

/** A random facing at the start. */
export function randomFacing(_setup: Setup, _square: Square, seed: number, i: number): Dir {
  return below(seedRng(Math.imul(seed ^ 0x27d4eb2d, 31) + i), 4) as Dir;
}

export const randomBot: Bot = { level: 'random', chooseOrders: randomOrders, chooseReentry: randomReentry, chooseFacing: randomFacing };
