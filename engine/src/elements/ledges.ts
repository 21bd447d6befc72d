/**
 * Ledges and ramps (003 L87-92): "Where there is no ramp, a robot crossing from the upper to the
 * lower level takes two damage points. If it lands on another robot, this robot is pushed and it
 * also takes two damage points. The ledge is treated as a wall if coming from the lower level. If
 * a ramp is present then it is treated as an extra square when going up. If the robot stops on the
 * extra square, it slides back down. Going down, the ramp simply negates the 2 damage."
 */
import type { Ctx } from '../context.js';
import { destroyIfWrecked } from '../robots.js';
import { hurt } from '../options/damage.js';

/** 003 L88: the damage of a drop down a ledge. */
export const LEDGE_DAMAGE = 2;

/** Leaving cell c in direction d climbs a ledge (a wall unless there is a ramp). */
export const climbs = (ctx: Ctx, c: number, d: number): boolean => (ctx.board.climb[c]! & (1 << d)) !== 0;
/** The ledge crossed leaving cell c in direction d has a ramp. */
export const ramped = (ctx: Ctx, c: number, d: number): boolean => (ctx.board.ramp[c]! & (1 << d)) !== 0;

/**
 * Robot i has just crossed from cell c in direction d: a drop down a ledge with no ramp costs it 2,
 * whatever moved it (B-49: "yes for any crossing from upper to lower"; RULES.md "Expansion elements
 * (003)": "count for every crossing, whatever moves the robot: a card, a push ..., a belt, an oil
 * slide, a repulsor's throw"), and so does the robot it lands on (`landedOn`, already pushed ahead).
 */
export function afterCrossing(ctx: Ctx, i: number, c: number, d: number, landedOn: number): void {
  if (!(ctx.board.drop[c]! & (1 << d)) || ramped(ctx, c, d)) return;
  drop(ctx, i);
  // The robot landed on is one that was pushed on ahead and is still on the floor.
  const under = landedOn >= 0 && ctx.state.robots[landedOn]!.status === 'active' ? landedOn : -1;
  if (under >= 0) drop(ctx, under);
  destroyIfWrecked(ctx, i);
  if (under >= 0) destroyIfWrecked(ctx, under);
}

function drop(ctx: Ctx, j: number): void {
  ctx.events?.push({ type: 'ledgeDrop', robot: j, points: LEDGE_DAMAGE });
  hurt(ctx, j, LEDGE_DAMAGE, null);
}
