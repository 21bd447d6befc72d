/** What a robot holds, and the small changes every option shares: using, spending, losing. */
import type { Ctx } from '../context.js';
import type { OptionMemory, RobotState } from '../state.js';
import { optionName, usesLeft } from './catalog.js';

/** True if the robot holds the option and it works this turn (not gained this turn, 1.1). */
export function holds(r: RobotState, name: string): boolean {
  if (!r.options.length) return false;
  for (const o of r.options) if (o === name || optionName(o) === name) return !r.opt?.fresh.includes(name);
  return false;
}

/** The robot's option memory, made on first need. */
export function memory(r: RobotState): OptionMemory {
  return (r.opt ??= {
    choices: {}, joined: [0, 0, 0, 0, 0], fcLocks: 0, flywheel: 0, aside: 0, copied: [0, 0, 0, 0, 0],
    copiedFrom: -1, superior: false, fresh: [], shown: [], recompiled: false, optionSite: null,
  });
}

/** An option acted: the others have now seen it (Secret Options), and the event says so. */
export function used(ctx: Ctx, i: number, name: string): void {
  const m = memory(ctx.state.robots[i]!);
  if (!m.shown.includes(name)) m.shown.push(name);
  ctx.events?.push({ type: 'optionUsed', robot: i, option: name });
}

/** The option leaves the robot (and the game, 1.1); `why` says how. */
export function discard(ctx: Ctx, i: number, name: string, why: 'spent' | 'exchanged' | 'destroyed' | 'scrapped'): void {
  const r = ctx.state.robots[i]!;
  const at = r.options.findIndex((o) => optionName(o) === name);
  if (at < 0) return;
  r.options = r.options.filter((_, k) => k !== at); // replaced: copies of a state share it
  ctx.events?.push({ type: 'optionDiscarded', robot: i, option: name, why });
}

/** Spends one use of a card with uses (Mini Howitzer, Ablative Coat); the last use discards it. */
export function spend(ctx: Ctx, i: number, name: string): void {
  const r = ctx.state.robots[i]!;
  const at = r.options.findIndex((o) => optionName(o) === name);
  if (at < 0) return;
  const left = usesLeft(r.options[at]!, ctx.rules.options.uses[name]!) - 1;
  if (left <= 0) discard(ctx, i, name, 'spent');
  else r.options = r.options.map((o, k) => (k === at ? `${name}:${left}` : o)); // replaced: copies of a state share it
}

/** True while robot i may gain an option: below the race's `maxOptions` (004 L217 "restrictions on options"). */
export function mayGain(ctx: Ctx, i: number): boolean {
  const max = ctx.setup.settings.maxOptions;
  return max === undefined || ctx.state.robots[i]!.options.length < max;
}

/** A new option for the robot: it works from the next turn on (1.1). */
export function gain(ctx: Ctx, i: number, name: string): void {
  const r = ctx.state.robots[i]!;
  r.options = [...r.options, name]; // replaced: copies of a state share it
  memory(r).fresh.push(name);
}

/** The card robot r runs in a register: a Radio Control copy, else its own (0 for none). */
export const effectiveCard = (r: RobotState, register: number): number =>
  r.opt?.copied[register - 1] || r.registers[register - 1] || 0;

/**
 * Robot i's card in `register` is replaced by `card` (Scrambler, Abort Switch, Conditional
 * Program): the old card, and any card joined to it, go to the discard; a Radio Control copy ends.
 */
export function replaceCard(ctx: Ctx, i: number, register: number, card: number): void {
  const r = ctx.state.robots[i]!;
  const k = register - 1;
  if (r.registers[k]) ctx.state.discard.push(r.registers[k]!);
  r.registers[k] = card;
  const m = r.opt;
  if (!m) return;
  if (m.joined[k]) ctx.state.discard.push(m.joined[k]!);
  m.joined[k] = 0;
  m.copied[k] = 0;
}
