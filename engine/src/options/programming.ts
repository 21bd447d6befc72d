/**
 * Options that act on cards rather than on the floor: Extra Memory and the Flywheel at the deal,
 * Recompile before programming, Conditional Program and the Flywheel when the program is handed in,
 * Abort Switch and Conditional Program as a register begins, Radio Control's place in the order.
 */
import type { Card } from '../cards.js';
import type { Ctx } from '../context.js';
import { damage } from '../robots.js';
import { hurt } from './damage.js';
import { holds, memory, replaceCard, used } from './held.js';

/**
 * Cards robot i is dealt beyond the rule set's count: 2.9 Extra Memory (001 L225 "One more
 * instruction"). Dealing its card is its use: everybody sees the hand's size, so under Secret
 * Options (004 L188, "face-down until used") the card is shown from then on.
 */
export function extraCards(ctx: Ctx, i: number): number {
  if (!holds(ctx.state.robots[i]!, 'Extra Memory')) return 0;
  used(ctx, i, 'Extra Memory');
  return 1;
}

/** 2.11 Flywheel: a stored card joins the dealt hand (hand + 1) and leaves the card. */
export function flywheelToHand(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  const m = r.opt;
  if (!m?.flywheel) return;
  r.hand.push(m.flywheel);
  m.flywheel = 0;
}

/**
 * The programs are revealed: 2.5 Conditional Program sets its card of the hand aside, 2.11 the
 * Flywheel stores its card; both leave the hand before its unplayed cards are discarded. (Until
 * then the orders may be replaced, the cards with them.) The stored card stays secret.
 */
export function setAside(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  const c = r.opt?.choices;
  if (!c?.conditional && !c?.flywheel) return;
  const hand = r.hand.slice(); // the hand may be the caller's state's array: never changed in place
  const take = (card: Card): Card => {
    const at = hand.indexOf(card);
    if (at >= 0) hand.splice(at, 1);
    return card;
  };
  if (c.conditional) memory(r).aside = take(c.conditional.card);
  if (c.flywheel) {
    memory(r).flywheel = take(c.flywheel);
    // The log tells the store (and the next hand holds the card): the Flywheel is used, so shown.
    used(ctx, i, 'Flywheel');
    ctx.events?.push({ type: 'stored', robot: i });
  }
  r.hand = hand;
}

/**
 * 2.22 Recompile (001 L227): the hand is discarded and a new one of the same size dealt; the robot
 * takes the rule set's damage (classic: after, exchange and coat apply; pbem: before, so the new
 * count reflects it). Once a turn.
 */
export function recompileHand(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  const o = ctx.rules.options;
  const old = r.hand;
  if (o.recompileDamageFirst) damage(ctx, i, o.recompileDamage);
  const size = o.recompileDamageFirst ? ctx.rules.handSize(r.damage) + extraCards(ctx, i) : old.length;
  for (const c of old) ctx.state.discard.push(c);
  r.hand = [];
  for (let k = 0; k < size; k++) {
    const c = ctx.rules.drawCard(ctx);
    if (c) r.hand.push(c);
  }
  memory(r).recompiled = true;
  used(ctx, i, 'Recompile');
  ctx.events?.push({ type: 'recompiled', robot: i, cards: r.hand.length });
  if (!o.recompileDamageFirst) hurt(ctx, i, o.recompileDamage, null);
}

/**
 * A register begins: 2.2 Abort Switch replaces the card of each unlocked register from the chosen
 * one on with a random card of the deck; then 2.5 Conditional Program swaps its card in for the
 * chosen register. The last change of a register wins (1.4: Radio Control, Scrambler, Abort
 * Switch, Conditional Program).
 */
export function startOfRegister(ctx: Ctx, register: number): void {
  const robots = ctx.state.robots;
  const k = register - 1;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    const c = r.opt?.choices;
    if (!c || r.status !== 'active' || r.poweredDown || r.locked & (1 << k)) continue;
    if (c.abort !== undefined && register >= c.abort && holds(r, 'Abort Switch')) {
      const card = ctx.rules.drawCard(ctx);
      if (card) {
        replaceCard(ctx, i, register, card);
        used(ctx, i, 'Abort Switch');
        ctx.events?.push({ type: 'aborted', robot: i, register, card });
      }
    }
    const m = r.opt!;
    if (c.conditional?.register === register && m.aside && holds(r, 'Conditional Program')) {
      replaceCard(ctx, i, register, m.aside);
      ctx.events?.push({ type: 'swapped', robot: i, register, card: m.aside });
      m.aside = 0;
      used(ctx, i, 'Conditional Program');
    }
  }
}

/**
 * 2.19 Radio Control: a robot running a copy moves right after the robot it copies (or, if that one
 * does not move, where the copied card ranks).
 */
export function radioOrder(ctx: Ctx, register: number, order: number[]): number[] {
  const robots = ctx.state.robots;
  const k = register - 1;
  // A loop, and the reordering a function of its own: closures here made V8 allocate their context
  // on every call, in every register where a robot holds option memory.
  for (let a = 0; a < order.length; a++) if (robots[order[a]!]!.opt?.copied[k]) return withCopies(ctx, k, order);
  return order;
}

function withCopies(ctx: Ctx, k: number, order: number[]): number[] {
  const robots = ctx.state.robots;
  const out = order.filter((i) => !robots[i]!.opt?.copied[k]);
  const rank = (i: number) => ctx.rules.cardRank(robots[i]!.opt?.copied[k] || robots[i]!.registers[k]!);
  for (const i of order) {
    const m = robots[i]!.opt;
    if (!m?.copied[k]) continue;
    let at = out.indexOf(m.copiedFrom);
    if (at >= 0) {
      at++;
      while (at < out.length && robots[out[at]!]!.opt?.copiedFrom === m.copiedFrom && robots[out[at]!]!.opt?.copied[k]) at++;
    } else {
      at = out.findIndex((j) => rank(j) < rank(i));
      if (at < 0) at = out.length;
    }
    out.splice(at, 0, i);
  }
  order.length = 0;
  order.push(...out);
  return order;
}
