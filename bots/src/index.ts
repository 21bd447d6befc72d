/**
 * Bots that race: four levels behind one interface, `chooseOrders(setup, state, robotIndex, seed)`
 * giving the robot's `Orders` for the turn (and `chooseReentry` for a destroyed robot's re-entry).
 * Pure and deterministic: the same state and seed give the same decision; randomness comes from the
 * engine's seeded generator.
 *
 * - `random`: a legal random program;
 * - `greedy`: the best next turn for itself alone, by the straight-line distance to its next flag;
 * - `strong`: every ordering of its hand run through the engine, scored by the real paths to the
 *   flags, damage, lasers, lives and the robots around it; powers down when that pays;
 * - `expert`: the strong bot's search looking beyond the turn (its next deal, samples of the others'
 *   programs), within a budget the caller sets (budget.ts).
 *
 * In classic, greedy and strong bots take an option at a two-wrench site while nearly whole
 * (options.ts).
 */
import type { GameState, Orders, Reentry, Setup } from '../../engine/src/index.js';
import { LEVELS, type Bot, type Level } from './common.js';
import { greedyBot } from './greedy.js';
import { randomBot } from './random.js';
import { strongBot } from './strong.js';
import { expertBot } from './expert.js';
import type { Budget } from './budget.js';
import { withOptionOrders } from './options.js';

export { LEVELS, decisionRng, type Bot, type ChooseFacing, type ChooseOrders, type ChooseReentry, type Level } from './common.js';
export { randomOrders, randomReentry, randomFacing, randomBot } from './random.js';
export { greedyOrders, greedyReentry, greedyBot } from './greedy.js';
export { strongOrders, strongOrdersWith, strongReentry, strongBot, bestFacing, damageCost, DEFAULT_WEIGHTS, type StrongWeights } from './strong.js';
export { expertOrders, expertOrdersWith, expertReentry, expertBot, expertOptionThreshold, EXPERT_WEIGHTS, DEFAULT_BUDGET, type ExpertWeights } from './expert.js';
export { Meter, type Budget } from './budget.js';
export { clairvoyantRace, type ClairvoyantOptions, type ClairvoyantResult } from './clairvoyant.js';
export { courseMaps, togo, type CourseMaps } from './distance.js';

export const BOTS: Readonly<Record<Level, Bot>> = { random: randomBot, greedy: greedyBot, strong: strongBot, expert: expertBot };

export const isLevel = (s: string): s is Level => (LEVELS as readonly string[]).includes(s);

/** The orders of a bot of the given level (default strong) for robot `robotIndex`, within `budget` (expert). */
export function chooseOrders(setup: Setup, state: GameState, robotIndex: number, seed: number, level: Level = 'strong', budget?: Budget): Orders {
  return withOptionOrders(setup, state, robotIndex, level, BOTS[level].chooseOrders(setup, state, robotIndex, seed, budget), (seed & 1) === 1);
}

/** The re-entry choices of a bot of the given level for its destroyed robot. */
export function chooseReentry(setup: Setup, state: GameState, robotIndex: number, seed: number, level: Level = 'strong', budget?: Budget): Reentry {
  return BOTS[level].chooseReentry(setup, state, robotIndex, seed, budget);
}
