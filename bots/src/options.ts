/**
 * What the bots decide about options. At a two-wrench site (classic) the greedy and strong bots
 * take an option while their robot is nearly whole and repair otherwise, with 003's conditional
 * order (the damage is known only when the turn ends); the expert bot sets that damage by what the
 * repair is worth to it (expert.ts); the random bot leaves the choice to chance.
 * Held options play by their defaults (docs/options.md).
 */
import type { GameState, Orders, Setup } from '../../engine/src/index.js';
import type { Level } from './common.js';
import { expertOptionThreshold } from './expert.js';

/** Damage at which a bot still takes an option rather than repair. */
export const OPTION_DAMAGE = 2;

export function withOptionOrders(setup: Setup, state: GameState, robotIndex: number, level: Level, orders: Orders, coin: boolean): Orders {
  if (!setup.rules.takeOptionChoice || state.robots[robotIndex]!.status !== 'active') return orders;
  if (level === 'random') return { ...orders, takeOption: coin };
  const most = level === 'expert' ? expertOptionThreshold(setup) : OPTION_DAMAGE;
  if (most < 0) return { ...orders, takeOption: false };
  return { ...orders, choices: { ...orders.choices, takeOption: { ifDamageAtMost: most } } };
}
