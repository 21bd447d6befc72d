/**
 * Portals (003 L83-86): "A robot that enters a portal during the execution of a movement card
 * immediately moves to the other portal of the same colour, and continues its movement from
 * there. If another robot occupies the moving robot's destination portal, the portal does not
 * activate and the robot continues to move as if the portal were open floor." Entering costs the
 * square; the jump is free; the facing is kept; pushed or carried robots are not sent (B-49).
 */
import { Floor, square } from '../board.js';
import type { Ctx } from '../context.js';
import { relocate } from '../robots.js';
import { dieAt } from '../dice.js';

/** Robot i has just entered a square under its own power: through a portal if it stands on one. */
export function throughPortal(ctx: Ctx, i: number): void {
  const b = ctx.board;
  const r = ctx.state.robots[i]!;
  const c = r.y * b.width + r.x;
  if (b.floor[c] !== Floor.Portal) return;
  const exit = b.portalPair[c]!;
  // A virtual robot meets no other robot, so nothing occupies its exit (000 L107). A die of the
  // Dice Rule on the exit disables the jump for every robot (RULES.md Settings, `diceRule`: "a
  // portal whose exit it is does not jump").
  if (!r.virtual && ctx.occ[exit]) return;
  if (dieAt(ctx, exit % b.width, (exit - (exit % b.width)) / b.width) >= 0) return;
  const from = square(r.x, r.y);
  relocate(ctx, i, exit % b.width, Math.floor(exit / b.width));
  ctx.events?.push({ type: 'teleported', robot: i, from, to: square(r.x, r.y) });
}
