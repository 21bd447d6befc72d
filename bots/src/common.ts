/** What the bots share: the interface, a generator per decision, and small helpers. */
import { type Dir, type GameState, type Orders, type Reentry, type Setup, type Square } from '../../engine/src/index.js';
import { seedRng, type RngState } from '../../engine/src/index.js';
import type { Budget } from './budget.js';

/**
 * A bot's decision for one robot: pure, the same state and seed giving the same orders. `budget`
 * bounds the work of a bot that searches as long as it may (expert); the others finish anyway.
 */
export type ChooseOrders = (setup: Setup, state: GameState, robotIndex: number, seed: number, budget?: Budget) => Orders;
/** A bot's choices for its destroyed robot's re-entry (before `beginTurn`). */
export type ChooseReentry = (setup: Setup, state: GameState, robotIndex: number, seed: number, budget?: Budget) => Reentry;

/** A bot's facing for its robot at the start of the race, on `square`. */
export type ChooseFacing = (setup: Setup, square: Square, seed: number, robotIndex: number) => Dir;

export interface Bot {
  readonly level: Level;
  readonly chooseOrders: ChooseOrders;
  readonly chooseReentry: ChooseReentry;
  readonly chooseFacing: ChooseFacing;
}

export const LEVELS = ['random', 'greedy', 'strong', 'expert'] as const;
export type Level = (typeof LEVELS)[number];

/**
 * The engine's generator (sfc32), seeded from the bot's seed, the turn and the robot: one stream
 * per decision, so a race may pass the same seed every turn.
 */
export function decisionRng(seed: number, state: GameState, robotIndex: number): RngState {
  let h = Math.imul((seed | 0) ^ 0x5bd1e995, 0x9e3779b1);
  h = Math.imul(h ^ (state.turn + 0x632be5ab), 0x85ebca6b);
  h = Math.imul(h ^ (robotIndex + 0x1b873593), 0xc2b2ae35);
  return seedRng((h ^ (h >>> 15)) >>> 0);
}

/** Orders for a robot that has nothing to decide: off the floor, or powered down (it powers up next turn). */
export function idleOrders(state: GameState, i: number): Orders | null {
  const r = state.robots[i];
  if (!r || r.status !== 'active') return {};
  if (r.poweredDown) return {};
  return null;
}
