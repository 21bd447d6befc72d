/** Step 1 of a register: the robots move, one card at a time, in the rule set's order. */
import { cardAction } from '../cards.js';
import type { Ctx } from '../context.js';
import type { GameEvent } from '../events.js';
import { moveRobot } from '../movement.js';
import { rotate, runCard } from '../options/movement.js';
import { radioOrder, startOfRegister } from '../options/programming.js';

/**
 * Robots that run a card this register: on the floor, powered up, with a card in the register,
 * into the workspace's list (`work.moving`), reused for every register and consumed at once.
 * `byCard` (a rule set without `moveOrder`): into the state's `order` instead, each put in its
 * place as it is found, highest card first, a tie in robot order (a stable insertion sort, on the
 * cards in `work.moveCards`): the look at the robots and the sort in one loop (the sort in a
 * function of its own cost its entry and a second visit of each mover). Returns the list, and in
 * `work.withOptions` whether any robot has option memory (`opt`): the same look at the robots.
 */
function movers(ctx: Ctx, register: number, byCard: boolean): number[] {
  // The state's own copy (cloneState) or the workspace's, overwritten in place.
  const out = byCard ? ctx.state.order : ctx.work.moving;
  let n = 0;
  let withOptions = false;
  const robots = ctx.state.robots;
  const k = register - 1;
  if (ctx.work.moveCards.length < robots.length) ctx.work.moveCards = new Int32Array(robots.length);
  const cards = ctx.work.moveCards;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.opt !== null) withOptions = true;
    // 000 L191, L201: a powered-down robot has no cards and does not move; a locked register with
    // no card does nothing (B-38).
    if (r.status !== 'active' || r.poweredDown) continue;
    const card = r.registers[k]!;
    if (!card && !r.opt?.copied[k]) continue;
    let j = n++;
    if (byCard) for (; j > 0 && cards[j - 1]! < card; j--) (out[j] = out[j - 1]!), (cards[j] = cards[j - 1]!);
    out[j] = i;
    cards[j] = card;
  }
  // Cut by pop(): setting an array's length is a call into the runtime.
  while (out.length > n) out.pop();
  ctx.work.withOptions = withOptions;
  return out;
}

/**
 * Cards are revealed together, then run whole in order (000 L115-120; 003 L6 "Cards with HIGHER
 * priorities are performed (fully) BEFORE cards with lower priorities").
 */
export function robotsMove(ctx: Ctx, register: number): void {
  const robots = ctx.state.robots;
  // With options in play, the register's start (Abort Switch, Conditional Program) may change the
  // cards: the movers are found again after it.
  const rank = ctx.rules.moveOrder;
  let order = movers(ctx, register, !rank);
  const withOptions = ctx.work.withOptions;
  if (withOptions) {
    startOfRegister(ctx, register);
    order = movers(ctx, register, !rank);
  }
  if (rank) order = rank(ctx, register, order);
  // Radio Control reorders the list in place: the state keeps the order by card.
  else if (withOptions) order = copyInto(ctx.work.moving, order);
  if (withOptions) order = radioOrder(ctx, register, order);
  const k = register - 1;
  if (ctx.events) {
    for (const i of order) {
      const m = robots[i]!.opt;
      const copy = m?.copied[k] ?? 0;
      const joined = copy ? 0 : m?.joined[k] ?? 0;
      // One literal per form: spreading optional parts made two objects per event, and adding a
      // field to a made object changes its shape.
      const card = copy || robots[i]!.registers[k]!;
      const e: Extract<GameEvent, { type: 'revealed' }> = joined
        ? { type: 'revealed', robot: i, register, card, joined }
        : copy
          ? { type: 'revealed', robot: i, register, card, copy: true }
          : { type: 'revealed', robot: i, register, card };
      ctx.events.push(e);
    }
  }
  for (const i of order) {
    const r = robots[i]!;
    if (r.status !== 'active') continue; // destroyed earlier in this register
    if (r.opt) {
      const copy = r.opt.copied[k]!;
      runCard(ctx, i, register, copy || r.registers[k]!, copy ? 0 : r.opt.joined[k]!);
      continue;
    }
    const a = cardAction(r.registers[k]!);
    if (a.turn) rotate(ctx, i, a.turn);
    if (a.move) moveRobot(ctx, i, a.move);
  }
}

/** `list` overwritten with the elements of `from`. */
function copyInto(list: number[], from: readonly number[]): number[] {
  for (let a = 0; a < from.length; a++) list[a] = from[a]!;
  while (list.length > from.length) list.pop();
  return list;
}
