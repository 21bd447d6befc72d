/** Options that act at the end of a register or a turn: Mechanical Arm, Superior Archive, Circuit Breaker. */
import type { Ctx } from '../context.js';
import { blocked } from '../context.js';
import { DX, DY } from '../geometry.js';
import { holds, memory, used } from './held.js';

/**
 * 2.15 Mechanical Arm [94]: a robot ending a register orthogonally next to its next flag, with no
 * wall between (nor a die of the Dice Rule, 004 L182), touches it. Returns the flag's number, or 0.
 */
export function armTouch(ctx: Ctx, i: number): number {
  const r = ctx.state.robots[i]!;
  if (!holds(r, 'Mechanical Arm')) return 0;
  const b = ctx.board;
  for (let d = 0; d < 4; d++) {
    const x = r.x + DX[d]!, y = r.y + DY[d]!;
    if (x < 0 || y < 0 || x >= b.width || y >= b.height) continue;
    if (b.flagAt[y * b.width + x] === r.flags + 1 && !blocked(ctx, r.x, r.y, d)) {
      used(ctx, i, 'Mechanical Arm');
      return r.flags + 1;
    }
  }
  return 0;
}

/** The archive moved: 2.25 Superior Archive counts only for a location touched while holding it. */
export function archiveTouched(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  if (holds(r, 'Superior Archive')) memory(r).superior = true;
  else if (r.opt) r.opt.superior = false;
}

/**
 * 2.4 Circuit Breaker (001 L217): a robot ending the turn, after repairs, with damage at the
 * threshold or above (classic 3; pbem 8 or the player's `circuitBreaker`) powers down next turn
 * as if announced; one powered down stays down.
 */
export function circuitBreaker(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  if (r.status !== 'active' || !holds(r, 'Circuit Breaker')) return;
  const threshold = r.opt?.choices.circuitBreaker ?? ctx.rules.options.circuitBreaker;
  if (r.damage < threshold) return;
  if (r.poweredDown) r.stayDown = true;
  else r.announced = true;
  used(ctx, i, 'Circuit Breaker');
  ctx.events?.push({ type: 'circuitBreaker', robot: i, damage: r.damage });
}
