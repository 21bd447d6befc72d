/** Gears turn every robot on them 90° in their direction, powered down and virtual alike. */
import { Floor } from '../board.js';
import type { Ctx } from '../context.js';
import type { Dir } from '../geometry.js';
import { stabilized } from '../options/movement.js';

/** 000 L96 "a robot on a gear would be rotated 90 degrees"; 004 L97 "gears turn 90 degrees". */
export function gears(ctx: Ctx): void {
  const b = ctx.board;
  const robots = ctx.state.robots;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status !== 'active') continue;
    const f = b.floor[r.y * b.width + r.x];
    if (f !== Floor.GearRight && f !== Floor.GearLeft) continue;
    if (r.options.length && stabilized(ctx, i)) continue;
    const from = r.dir;
    r.dir = ((from + (f === Floor.GearRight ? 1 : 3)) & 3) as Dir;
    ctx.events?.push({ type: 'turned', robot: i, from, to: r.dir, by: 'gear' });
  }
}
