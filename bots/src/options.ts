/**
 * What the bots decide about options. At a two-wrench site (classic) the greedy and strong bots
 * take an option while their robot is nearly whole and repair otherwise, with 003's conditional
 * order (the damage is known only when the turn ends); the expert bot sets that damage by what the
 * repair is worth to it (expert.ts); the random bot leaves the choice to chance. The strong and
 * expert bots holding a weapon that can push or pull its target (Pressor Beam, Tractor Beam, Mini
 * Howitzer) name it in every register, fired only when it drops the target into a pit or off the
 * board (003's conditional order: the main laser fires otherwise). Other options play by their
 * defaults (docs/options.md).
 */
import { optionName, type Choices, type GameState, type Orders, type Setup } from '../../engine/src/index.js';
import type { Level } from './common.js';
import { expertOptionThreshold } from './expert.js';

/** Damage at which a bot still takes an option rather than repair. */
export const OPTION_DAMAGE = 2;

/** Weapons whose push or pull can drop a robot off the floor, in the order a bot prefers them. */
const DROPPING = ['Pressor Beam', 'Tractor Beam', 'Mini Howitzer'];

export function withOptionOrders(setup: Setup, state: GameState, robotIndex: number, level: Level, orders: Orders, coin: boolean): Orders {
  const r = state.robots[robotIndex]!;
  if (r.status !== 'active') return orders;
  let out = orders;
  if ((level === 'strong' || level === 'expert') && setup.rules.options.choiceKeys.includes('weapon') && !r.poweredDown) {
    const held = r.options.map(optionName);
    const weapon = DROPPING.find((w) => held.includes(w));
    if (weapon) {
      const choices: Choices = { ...out.choices, weapon: { 1: weapon, 2: weapon, 3: weapon, 4: weapon, 5: weapon }, weaponIfFalls: [1, 2, 3, 4, 5] };
      out = { ...out, choices };
    }
  }
  if (!setup.rules.takeOptionChoice) return out;
  if (level === 'random') return { ...out, takeOption: coin };
  const most = level === 'expert' ? expertOptionThreshold(setup) : OPTION_DAMAGE;
  if (most < 0) return { ...out, takeOption: false };
  return { ...out, choices: { ...out.choices, takeOption: { ifDamageAtMost: most } } };
}
