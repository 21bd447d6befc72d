/** Step 1 of a register: the robots move, one card at a time, in the rule set's order. */
import { cardAction } from '../cards.js';
import type { Ctx } from '../context.js';
import type { GameEvent } from '../events.js';
import type { RobotState } from '../state.js';
import { moveRobot } from '../movement.js';
import { rotate, runCard } from '../options/movement.js';
import { radioOrder, startOfRegister } from '../options/programming.js';

/**
 * Robots that run a card this register: on the floor, powered up, with a card in the register,
 * into the workspace's list (`work.moving`), reused for every register and consumed at once.
 * `byCard` (a rule set without `moveOrder`): into the state's `order` instead, highest card first,
 * a tie in robot order. Returns the list, and in `work.withOptions` whether any robot has option
 * memory (`opt`): the same look at the robots.
 */
function movers(ctx: Ctx, register: number, byCard: boolean): number[] {
  // The state's own copy (cloneState) or the workspace's, overwritten in place.
  const out = byCard ? ctx.state.order : ctx.work.moving;
  let n = 0;
  let withOptions = false;
  // Every card a whole number below 2^26, for the sort's packed keys.
  let small = true;
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
    small = small && card >>> 0 === card && card < 0x4000000;
    out[n] = i;
    cards[n++] = card;
  }
  // Cut by pop(): setting an array's length is a call into the runtime.
  while (out.length > n) out.pop();
  ctx.work.withOptions = withOptions;
  if (byCard && n > 1) {
    if (small && robots.length <= 8) sortEight(out, cards, n);
    else byCardInPlace(out, cards, n, robots, k);
  }
  return out;
}

/**
 * `order` (robot numbers, in robot order) sorted by their cards, highest first, a tie in robot
 * order: a stable insertion sort of each robot's card in register k against the cards sorted
 * before it, as `cards` holds them. Each of its comparisons of two random cards is a coin flip for
 * the branch predictor; `sortEight` does without them where it can.
 */
function byCardInPlace(order: number[], cards: Int32Array, n: number, robots: readonly RobotState[], k: number): void {
  for (let a = 1; a < n; a++) {
    const i = order[a]!, card = robots[i]!.registers[k]!;
    let j = a;
    for (; j > 0 && cards[j - 1]! < card; j--) (order[j] = order[j - 1]!), (cards[j] = cards[j - 1]!);
    order[j] = i;
    cards[j] = card;
  }
}

/**
 * `byCardInPlace` for at most eight robots (numbered 0 to 7) and cards below 2^26, without a
 * branch on the cards: each mover's key is its card and its robot number (card * 8 + 7 - robot:
 * distinct keys, a higher card first, a tie to the lower robot number), the eight keys (the
 * missing ones -1) go through a sorting network of 19 compare-exchanges, each done with the sign
 * of the keys' difference, and the order read back from the keys.
 */
export function sortEight(order: number[], cards: Int32Array, n: number): void {
  let k0 = -1, k1 = -1, k2 = -1, k3 = -1, k4 = -1, k5 = -1, k6 = -1, k7 = -1;
  // Keys in; n is 2 to 8.
  k0 = cards[0]! * 8 + 7 - order[0]!;
  k1 = cards[1]! * 8 + 7 - order[1]!;
  if (n > 2) k2 = cards[2]! * 8 + 7 - order[2]!;
  if (n > 3) k3 = cards[3]! * 8 + 7 - order[3]!;
  if (n > 4) k4 = cards[4]! * 8 + 7 - order[4]!;
  if (n > 5) k5 = cards[5]! * 8 + 7 - order[5]!;
  if (n > 6) k6 = cards[6]! * 8 + 7 - order[6]!;
  if (n > 7) k7 = cards[7]! * 8 + 7 - order[7]!;
  // A compare-exchange of a and b, the larger first: m is -1 when a < b, and x swaps them then.
  let m = 0, x = 0;
  m = (k0 - k2) >> 31; x = (k0 ^ k2) & m; k0 ^= x; k2 ^= x;
  m = (k1 - k3) >> 31; x = (k1 ^ k3) & m; k1 ^= x; k3 ^= x;
  m = (k4 - k6) >> 31; x = (k4 ^ k6) & m; k4 ^= x; k6 ^= x;
  m = (k5 - k7) >> 31; x = (k5 ^ k7) & m; k5 ^= x; k7 ^= x;
  m = (k0 - k4) >> 31; x = (k0 ^ k4) & m; k0 ^= x; k4 ^= x;
  m = (k1 - k5) >> 31; x = (k1 ^ k5) & m; k1 ^= x; k5 ^= x;
  m = (k2 - k6) >> 31; x = (k2 ^ k6) & m; k2 ^= x; k6 ^= x;
  m = (k3 - k7) >> 31; x = (k3 ^ k7) & m; k3 ^= x; k7 ^= x;
  m = (k0 - k1) >> 31; x = (k0 ^ k1) & m; k0 ^= x; k1 ^= x;
  m = (k2 - k3) >> 31; x = (k2 ^ k3) & m; k2 ^= x; k3 ^= x;
  m = (k4 - k5) >> 31; x = (k4 ^ k5) & m; k4 ^= x; k5 ^= x;
  m = (k6 - k7) >> 31; x = (k6 ^ k7) & m; k6 ^= x; k7 ^= x;
  m = (k2 - k4) >> 31; x = (k2 ^ k4) & m; k2 ^= x; k4 ^= x;
  m = (k3 - k5) >> 31; x = (k3 ^ k5) & m; k3 ^= x; k5 ^= x;
  m = (k1 - k4) >> 31; x = (k1 ^ k4) & m; k1 ^= x; k4 ^= x;
  m = (k3 - k6) >> 31; x = (k3 ^ k6) & m; k3 ^= x; k6 ^= x;
  m = (k1 - k2) >> 31; x = (k1 ^ k2) & m; k1 ^= x; k2 ^= x;
  m = (k3 - k4) >> 31; x = (k3 ^ k4) & m; k3 ^= x; k4 ^= x;
  m = (k5 - k6) >> 31; x = (k5 ^ k6) & m; k5 ^= x; k6 ^= x;
  // The order out: the first n keys are the movers'.
  order[0] = 7 - (k0 & 7);
  order[1] = 7 - (k1 & 7);
  if (n > 2) order[2] = 7 - (k2 & 7);
  if (n > 3) order[3] = 7 - (k3 & 7);
  if (n > 4) order[4] = 7 - (k4 & 7);
  if (n > 5) order[5] = 7 - (k5 & 7);
  if (n > 6) order[6] = 7 - (k6 & 7);
  if (n > 7) order[7] = 7 - (k7 & 7);
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
