/** Crushers destroy the robots under them in their active registers. */
import type { Ctx } from '../context.js';
import { destroy } from '../robots.js';

/** 003 L62-65 "If a robot is on the square when a crusher activates, the robot is destroyed."
 *  After gears, before lasers (004 L97; B-39). */
export function crushers(ctx: Ctx, register: number): void {
  const bit = 1 << (register - 1);
  const robots = ctx.state.robots;
  // Most registers crush nobody: one look per robot at the board's crusher table says so. Only
  // then are the crushers taken in their order, which is the order of the destructions.
  const b = ctx.board;
  let any = false;
  for (let i = 0; i < robots.length && !any; i++) {
    const r = robots[i]!;
    any = r.status === 'active' && (b.crusherAt[r.y * b.width + r.x]! & bit) !== 0;
  }
  if (any) crush(ctx, bit);
}

/** The crushers active in the register (`bit`), in their order, destroy the robots under them. */
export function crush(ctx: Ctx, bit: number): void {
  const robots = ctx.state.robots;
  for (const c of ctx.board.crushers) {
    if (!(c.registers & bit)) continue;
    for (let i = 0; i < robots.length; i++) {
      const r = robots[i]!;
      if (r.status === 'active' && r.x === c.x && r.y === c.y) destroy(ctx, i, 'crusher');
    }
  }
}
