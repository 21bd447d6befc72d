/** Step 1 of a register: the robots move, one card at a time, in the rule set's order. */
import { cardAction } from '../cards.js';
import type { Ctx } from '../context.js';
import { moveRobot } from '../movement.js';
import type { Dir } from '../geometry.js';

/** Robots that run a card this register: on the floor, powered up, with a card in the register. */
/** Reused for every register: movers() is called once per register and its list consumed at once. */
const moving: number[] = [];

function movers(ctx: Ctx, register: number): number[] {
  const out = moving;
  out.length = 0;
  const robots = ctx.state.robots;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    // 000 L191, L201: a powered-down robot has no cards and does not move; a locked register with
    // no card does nothing (B-38).
    if (r.status === 'active' && !r.poweredDown && r.registers[register - 1]) out.push(i);
  }
  return out;
}

/**
 * Cards are revealed together, then run whole in order (000 L115-120; 003 L6 "Cards with HIGHER
 * priorities are performed (fully) BEFORE cards with lower priorities").
 */
export function robotsMove(ctx: Ctx, register: number): void {
  const order = ctx.rules.moveOrder(ctx, register, movers(ctx, register));
  const robots = ctx.state.robots;
  if (ctx.events) {
    for (const i of order) ctx.events.push({ type: 'revealed', robot: i, register, card: robots[i]!.registers[register - 1]! });
  }
  for (const i of order) {
    const r = robots[i]!;
    if (r.status !== 'active') continue; // destroyed earlier in this register
    const a = cardAction(r.registers[register - 1]!);
    if (a.turn) {
      const from = r.dir;
      r.dir = ((from + a.turn) & 3) as Dir; // 000 L142 "The card rotates the robot, but doesn't move it."
      ctx.events?.push({ type: 'turned', robot: i, from, to: r.dir, by: 'card' });
    }
    if (a.move) moveRobot(ctx, i, a.move);
  }
}
