/**
 * Repulsor fields (003 L93-98; RULES.md): an `RF` cell is never entered. "A robot that runs into a
 * repulsor field is pushed directly away from the field for the number of square equal to its
 * movement card, and loses any remaining movement from that card. A robot that is pushed into a
 * repulsor field by another robot is pushed directly away by the number of squares equal to the
 * pushing robot's card (the pushing robot loses any remaining movement). Repulsed robots may push
 * other robots." Back-Up counts 1; the push back is pushing movement: it pushes chains, walls stop
 * it, pits and edges destroy (B-49).
 */
import { Floor } from '../board.js';
import type { Ctx } from '../context.js';
import { dx, dy, type Dir } from '../geometry.js';
import { collectChain, pushOne, shut } from '../movement.js';

export const isRepulsor = (ctx: Ctx, x: number, y: number): boolean =>
  x >= 0 && y >= 0 && x < ctx.board.width && y < ctx.board.height && ctx.board.floor[y * ctx.board.width + x] === Floor.Repulsor;

/** Pushes robot j `squares` squares in direction d, away from the field at `field`. */
export function repulse(ctx: Ctx, j: number, d: Dir, squares: number, field: [number, number]): void {
  const b = ctx.board;
  const r = ctx.state.robots[j]!;
  for (let k = 0; k < squares && r.status === 'active'; k++) {
    if (shut(ctx, r.x, r.y, d)) return;
    let nx = r.x + dx(d), ny = r.y + dy(d);
    // Over a fold of a cube course the throw goes on as the floor turns (004 L179).
    const c = r.y * b.width + r.x;
    const over = b.fold ? b.fold.across[c * 4 + d]! : -1;
    if (over >= 0) (nx = over % b.width), (ny = (over - nx) / b.width);
    if (isRepulsor(ctx, nx, ny)) return;
    const inside = nx >= 0 && ny >= 0 && nx < b.width && ny < b.height;
    let landedOn = -1;
    if (inside && !r.virtual && ctx.occ[ny * b.width + nx]) {
      const ahead = collectChain(ctx, nx, ny, over >= 0 ? (((d + b.fold!.turn[c * 4 + d]!) & 3) as Dir) : d, false);
      if (!ahead) return;
      landedOn = ahead[0]!;
      for (let m = ahead.length - 1; m >= 0; m--) pushOne(ctx, ahead[m]!, b.fold ? ctx.work.chainDir[m]! as Dir : d, { repulsor: field }, m + 1 < ahead.length ? ahead[m + 1]! : -1);
    }
    // A throw down a ledge onto a robot hurts both (RULES.md "Expansion elements (003)").
    pushOne(ctx, j, d, { repulsor: field }, landedOn);
    if (over >= 0) d = ((d + b.fold!.turn[c * 4 + d]!) & 3) as Dir;
  }
}
