/**
 * Robots moving under their own power: a card runs whole, square by square, pushing the robots in
 * its way (RULES.md "Movement and pushing").
 */
import { type Dir, DX, DY, reverse } from './geometry.js';
import { blocked, type Ctx } from './context.js';
import { fall, isPit, relocate } from './robots.js';
import type { PushSource } from './events.js';

/** Scratch space for a chain of pushed robots (a chain is never longer than the robots). */
const chain: number[] = [];

/**
 * One square for robot i in direction d (forward, or backward for Back-Up), pushing any chain of
 * real robots ahead. Returns false when a wall stops the robot or the chain: the rest of the card
 * is then lost (000 L144 "a wall will simply stop a robot"; 001 L87 "the movement of a pushing
 * robot will stop if the pushed robot runs into a wall").
 */
export function stepRobot(ctx: Ctx, i: number, d: Dir): boolean {
  const b = ctx.board;
  const r = ctx.state.robots[i]!;
  const x = r.x, y = r.y;
  if (blocked(ctx, x, y, d)) {
    ctx.events?.push({ type: 'blocked', robot: i, x, y, dir: d });
    return false;
  }
  const nx = x + DX[d]!, ny = y + DY[d]!;
  const inside = nx >= 0 && ny >= 0 && nx < b.width && ny < b.height;
  // Virtual robots pass through other robots without pushing them (000 L48, L107).
  if (inside && !r.virtual && ctx.occ[ny * b.width + nx]) {
    const pushed = collectChain(ctx, nx, ny, d);
    if (!pushed) {
      ctx.events?.push({ type: 'blocked', robot: i, x, y, dir: d });
      return false;
    }
    // The far end moves first; each pushed robot keeps its facing. Pushing does no damage.
    const by: PushSource = { robot: i };
    for (let k = pushed.length - 1; k >= 0; k--) pushOne(ctx, pushed[k]!, d, by);
  }
  ctx.pushedBy[i] = null; // moving under its own power, whatever pushed it before
  ctx.events?.push({ type: 'moved', robot: i, from: [x, y], to: [nx, ny] });
  if (!inside || isPit(ctx, nx, ny)) {
    fall(ctx, i, nx, ny); // 000 L144 "a pit will destroy any robot that moves over it"
    return false;
  }
  relocate(ctx, i, nx, ny);
  return true;
}

/**
 * The real robots standing in a row from (x, y) in direction d, nearest first (a scratch array,
 * valid until the next call). Null if a wall stops the last of them, so nobody moves (RULES.md:
 * "If any robot in the chain would cross a wall, nobody moves").
 */
export function collectChain(ctx: Ctx, x: number, y: number, d: Dir): readonly number[] | null {
  const b = ctx.board;
  chain.length = 0;
  let j = ctx.occ[y * b.width + x]!;
  while (j) {
    if (blocked(ctx, x, y, d)) return null;
    chain.push(j - 1);
    x += DX[d]!;
    y += DY[d]!;
    if (x < 0 || y < 0 || x >= b.width || y >= b.height) break;
    j = ctx.occ[y * b.width + x]!;
  }
  return chain;
}

/** Pushes one robot a square; into a pit or off the board it is destroyed (B-26). */
export function pushOne(ctx: Ctx, j: number, d: Dir, by: PushSource): void {
  const b = ctx.board;
  const r = ctx.state.robots[j]!;
  const nx = r.x + DX[d]!, ny = r.y + DY[d]!;
  ctx.events?.push({ type: 'pushed', robot: j, from: [r.x, r.y], to: [nx, ny], by });
  ctx.pushedBy[j] = by;
  if (nx < 0 || ny < 0 || nx >= b.width || ny >= b.height || isPit(ctx, nx, ny)) fall(ctx, j, nx, ny);
  else relocate(ctx, j, nx, ny);
}

/** Runs a move of `squares` (negative: backward, facing kept) for robot i. */
export function moveRobot(ctx: Ctx, i: number, squares: number): void {
  const r = ctx.state.robots[i]!;
  const d = squares < 0 ? reverse(r.dir) : r.dir;
  for (let k = Math.abs(squares); k > 0; k--) {
    if (r.status !== 'active' || !stepRobot(ctx, i, d)) return;
  }
}
