/**
 * Oil slicks (003 L76-82; RULES.md; B-49): "If a robot attempts to end its movement on an oil
 * slick, it continues to slide in the direction of its movement until it is stopped by a wall or
 * another robot that is not on an oil slick, or until it is no longer on an oil slick. If a robot
 * slides into another robot which is on an oil slick, both robots slide". "If a robot begins its
 * movement on an oil slick, the first square of movement is negated." Rotations are not affected.
 */
import { Floor, square } from '../board.js';
import type { Ctx } from '../context.js';
import { dx, dy, type Dir } from '../geometry.js';
import { collectChain, pushOne, shut } from '../movement.js';
import { fall, isHole, relocate } from '../robots.js';
import { afterCrossing } from './ledges.js';
import { turnWithFold } from '../cube.js';

export const onOil = (ctx: Ctx, x: number, y: number): boolean => ctx.board.floor[y * ctx.board.width + x] === Floor.Oil;

/** A robot that ended its card's movement on oil slides on in direction d until it leaves the oil. */
export function slide(ctx: Ctx, i: number, d: Dir): void {
  const b = ctx.board;
  const r = ctx.state.robots[i]!;
  while (r.status === 'active' && onOil(ctx, r.x, r.y)) {
    const x = r.x, y = r.y;
    if (shut(ctx, x, y, d)) return; // a wall stops the slide
    let nx = x + dx(d), ny = y + dy(d);
    const over = b.fold ? b.fold.across[(y * b.width + x) * 4 + d]! : -1;
    if (over >= 0) (nx = over % b.width), (ny = (over - nx) / b.width);
    const inside = nx >= 0 && ny >= 0 && nx < b.width && ny < b.height;
    if (inside && b.floor[ny * b.width + nx] === Floor.Repulsor) return;
    let landedOn = -1;
    if (inside && !r.virtual && ctx.occ[ny * b.width + nx]) {
      // A robot not on oil stops the slide; one on oil slides along, pushed ahead.
      if (!onOil(ctx, nx, ny)) return;
      const pushed = collectChain(ctx, nx, ny, d, false);
      if (!pushed) return;
      landedOn = pushed[0]!;
      for (let k = pushed.length - 1; k >= 0; k--) pushOne(ctx, pushed[k]!, b.fold ? ctx.work.chainDir[k]! as Dir : d, { robot: i }, k + 1 < pushed.length ? pushed[k + 1]! : -1);
    }
    ctx.events?.push({ type: 'slid', robot: i, from: square(x, y), to: square(nx, ny) });
    if (!inside || isHole(ctx, nx, ny)) {
      fall(ctx, i, nx, ny);
      return;
    }
    relocate(ctx, i, nx, ny);
    afterCrossing(ctx, i, y * b.width + x, d, landedOn);
    if (over >= 0) {
      // Over a cube's fold the slide goes on the way the floor turns (004 L179).
      const turn = b.fold!.turn[(y * b.width + x) * 4 + d]!;
      turnWithFold(ctx, i, turn);
      d = ((d + turn) & 3) as Dir;
    }
  }
}
