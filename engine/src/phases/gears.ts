/** Gears turn every robot on them 90° in their direction, powered down and virtual alike. */
import { Floor } from '../board.js';
import type { Ctx } from '../context.js';
import type { Dir } from '../geometry.js';
import { stabilized } from '../options/movement.js';
import { crush } from './crushers.js';
import { pushers } from './pushers.js';

/** 000 L96 "a robot on a gear would be rotated 90 degrees"; 004 L97 "gears turn 90 degrees". */
export function gears(ctx: Ctx): void {
  const b = ctx.board;
  const robots = ctx.state.robots;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status !== 'active') continue;
    const f = b.floor[r.y * b.width + r.x]!;
    if (f === Floor.GearRight || f === Floor.GearLeft) onGear(ctx, i, f);
  }
}

/**
 * The gears step and then the crushers step (their order in both rule sets), in one pass over the
 * robots: gears turn robots and move none, so the robots under an active crusher are the same
 * before and after them. Most registers crush nobody, and then the crushers step is this pass.
 */
export function gearsThenCrushers(ctx: Ctx, register: number): void {
  const b = ctx.board;
  const robots = ctx.state.robots;
  const bit = 1 << (register - 1);
  let crushing = false;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status !== 'active') continue;
    const c = (r.y * b.width + r.x) * 4;
    if ((b.cells[c + 1]! >>> 8) & bit) crushing = true;
    const f = b.cells[c]! & 255;
    if (f === Floor.GearRight || f === Floor.GearLeft) onGear(ctx, i, f);
  }
  if (crushing) crush(ctx, bit);
}

/**
 * The pushers, gears and crushers steps (their order in both rule sets) on one look at the robots.
 * Most registers push nobody; then nothing moves in these steps, and the same pass that finds no
 * robot on an active pusher finds the robots on gears (turned afterwards, in robot order) and
 * whether one stands under an active crusher. A robot on an active pusher: the three steps in turn.
 */
export function pushersGearsCrushers(ctx: Ctx, register: number): void {
  const b = ctx.board;
  const robots = ctx.state.robots;
  const bit = 1 << (register - 1);
  let pushing = robots.length > 30; // the robots on gears are a bit mask
  let crushing = false;
  let geared = 0;
  for (let i = 0; i < robots.length && !pushing; i++) {
    const r = robots[i]!;
    if (r.status !== 'active') continue;
    // The square's pusher, crusher and floor from the packed table (`Board.cells`): one cache line.
    const c = (r.y * b.width + r.x) * 4;
    const v = b.cells[c + 1]!;
    if (v & bit) pushing = true;
    if ((v >>> 8) & bit) crushing = true;
    const f = b.cells[c]! & 255;
    if (f === Floor.GearRight || f === Floor.GearLeft) geared |= 1 << i;
  }
  if (pushing) {
    pushers(ctx, register);
    gearsThenCrushers(ctx, register);
    return;
  }
  for (; geared; geared &= geared - 1) {
    const i = 31 - Math.clz32(geared & -geared);
    const r = robots[i]!;
    onGear(ctx, i, b.floor[r.y * b.width + r.x]!);
  }
  if (crushing) crush(ctx, bit);
}

/** Robot i stands on gear floor f: it turns, unless its stabilizer holds it. */
export function onGear(ctx: Ctx, i: number, f: Floor): void {
  const r = ctx.state.robots[i]!;
  if (r.options.length && stabilized(ctx, i)) return;
  const from = r.dir;
  r.dir = ((from + (f === Floor.GearRight ? 1 : 3)) & 3) as Dir;
  ctx.events?.push({ type: 'turned', robot: i, from, to: r.dir, by: 'gear' });
}
