/**
 * Robots moving under their own power: a card runs whole, square by square, pushing the robots in
 * its way (RULES.md "Movement and pushing"), with the expansion elements of 003 on the way.
 */
import { boardSquare, square } from './board.js';
import { type Dir, dx, dy, reverse } from './geometry.js';
import { blocked, type Ctx } from './context.js';
import { fall, isHole, relocate } from './robots.js';
import type { PushSource } from './events.js';
import { afterCrossing, climbs, ramped } from './elements/ledges.js';
import { onOil, slide } from './elements/oil.js';
import { throughPortal } from './elements/portals.js';
import { isRepulsor, repulse } from './elements/repulsors.js';
import { ram } from './options/movement.js';
import { turnWithFold } from './cube.js';

/** A robot cannot be pushed or carried across side d of (x, y): a wall, or a ledge from below. */
export const shut = (ctx: Ctx, x: number, y: number, d: Dir): boolean =>
  blocked(ctx, x, y, d) || climbs(ctx, y * ctx.board.width + x, d);

/**
 * Runs a move of `squares` (negative: backward, facing kept) for robot i, then an oil slide if it
 * ends on oil. Starting on oil costs the first square (003 L81).
 */
export function moveRobot(ctx: Ctx, i: number, squares: number, sideways?: Dir): void {
  const r = ctx.state.robots[i]!;
  let d = sideways ?? (squares < 0 ? reverse(r.dir) : r.dir);
  const value = Math.abs(squares);
  let left = value;
  if (onOil(ctx, r.x, r.y)) {
    left -= 1;
    ctx.events?.push({ type: 'slipped', robot: i });
  }
  let moved = false;
  // Only plain steps taken: the robot cannot have ended on oil (a plain step never arrives there).
  let plainOnly = true;
  // The way it moves, relative to its facing: over a cube's fold the facing turns, and the way with it.
  const way = (d - r.dir) & 3;
  while (left > 0 && r.status === 'active') {
    const step = ((r.dir + way) & 3) as Dir;
    // The plain step is a small function the optimizer inlines here; the rest is a call.
    let used = 1;
    if (!plainStep(ctx, i, step)) {
      plainOnly = false;
      used = stepRobot(ctx, i, step, left, value);
    }
    if (!used) break;
    moved = true;
    left -= used;
  }
  if (ctx.board.fold) d = ((r.dir + way) & 3) as Dir;
  if (moved && !plainOnly && r.status === 'active' && onOil(ctx, r.x, r.y)) slide(ctx, i, d); // 003 L77
}

/**
 * Most steps meet nothing but floor and no robot: one look at the board's table says so (the Dice
 * Rule's walls are not in it), and robot i steps at once in direction d. False if the step needs
 * the element rules (`stepRobot`); nothing has changed then.
 */
function plainStep(ctx: Ctx, i: number, d: Dir): boolean {
  const b = ctx.board;
  const r = ctx.state.robots[i]!;
  const x = r.x, y = r.y;
  const c = y * b.width + x;
  if (!((b.cells[c * 4]! >>> 16) & (1 << d)) || ctx.walls !== b.walls) return false;
  const nx = x + dx(d), ny = y + dy(d);
  const nc = ny * b.width + nx;
  if (!r.virtual && ctx.occ[nc]) return false;
  ctx.pushedBy[i] = null; // moving under its own power, whatever pushed it before
  ctx.events?.push({ type: 'moved', robot: i, from: boardSquare(x, y), to: boardSquare(nx, ny) });
  if (!r.virtual) {
    if (ctx.occ[c] === i + 1) ctx.occ[c] = 0;
    ctx.occ[nc] = i + 1;
  }
  r.x = nx;
  r.y = ny;
  return true;
}

/**
 * One square for robot i in direction d, pushing any chain of real robots ahead. Returns the
 * movement it used (2 up a ramp), or 0 when the robot stops and the rest of the card is lost: a
 * wall stops it or the chain (000 L144; 001 L87), so does a ledge from below, and a repulsor
 * field throws it back (003 L93).
 */
function stepRobot(ctx: Ctx, i: number, d: Dir, left: number, value: number): number {
  const b = ctx.board;
  const r = ctx.state.robots[i]!;
  const x = r.x, y = r.y;
  const c = y * b.width + x;
  let cost = 1;
  if (blocked(ctx, x, y, d) || (climbs(ctx, c, d) && !ramped(ctx, c, d))) {
    ctx.events?.push({ type: 'blocked', robot: i, x, y, dir: d });
    return 0;
  }
  if (climbs(ctx, c, d)) {
    cost = 2; // 003 L90 the ramp "is treated as an extra square when going up"
    if (left < cost) {
      ctx.events?.push({ type: 'rampSlide', robot: i, x, y });
      return 0;
    }
  }
  let nx = x + dx(d), ny = y + dy(d);
  // Over a fold of a cube course (004 L179): onto the board attached there, turning with it.
  const over = b.fold ? b.fold.across[c * 4 + d]! : -1;
  if (over >= 0) (nx = over % b.width), (ny = (over - nx) / b.width);
  const inside = nx >= 0 && ny >= 0 && nx < b.width && ny < b.height;
  if (isRepulsor(ctx, nx, ny)) {
    repulse(ctx, i, reverse(d), value, [nx, ny]);
    return 0;
  }
  let landedOn = -1;
  // Virtual robots pass through other robots without pushing them (000 L48, L107).
  if (inside && !r.virtual && ctx.occ[ny * b.width + nx]) {
    const pushed = collectChain(ctx, nx, ny, d, true);
    if (!pushed) {
      ctx.events?.push({ type: 'blocked', robot: i, x, y, dir: d });
      if (r.options.length) ram(ctx, i, ctx.occ[ny * b.width + nx]! - 1);
      return 0;
    }
    if (ctx.work.chainMeetsRepulsor) {
      const last = pushed[pushed.length - 1]!;
      const e = ctx.state.robots[last]!;
      repulse(ctx, last, reverse(d), value, [e.x + dx(d), e.y + dy(d)]);
      return 0;
    }
    landedOn = pushed[0]!;
    // The far end moves first; each pushed robot keeps its facing. Pushing does no damage.
    const by: PushSource = { robot: i };
    for (let k = pushed.length - 1; k >= 0; k--) pushOne(ctx, pushed[k]!, b.fold ? ctx.work.chainDir[k]! as Dir : d, by, k + 1 < pushed.length ? pushed[k + 1]! : -1);
    if (r.options.length) ram(ctx, i, landedOn);
  }
  ctx.pushedBy[i] = null; // moving under its own power, whatever pushed it before
  ctx.events?.push({ type: 'moved', robot: i, from: boardSquare(x, y), to: square(nx, ny) });
  if (!inside || isHole(ctx, nx, ny)) {
    fall(ctx, i, nx, ny); // 000 L144 "a pit will destroy any robot that moves over it"
    return 0;
  }
  relocate(ctx, i, nx, ny);
  if (over >= 0) turnWithFold(ctx, i, b.fold!.turn[c * 4 + d]!);
  afterCrossing(ctx, i, c, d, landedOn);
  if (r.status === 'active') throughPortal(ctx, i);
  return cost;
}

/**
 * The real robots standing in a row from (x, y) in direction d, nearest first (the workspace's
 * scratch array, valid until the next call). Null if a wall or a ledge stops the last of them, so
 * nobody moves (RULES.md: "If any robot in the chain would cross a wall, nobody moves"). A repulsor
 * field at the end stops the chain too, unless `repulsorEnds`: then `work.chainMeetsRepulsor` says so.
 */
export function collectChain(ctx: Ctx, x: number, y: number, d: Dir, repulsorEnds: boolean): readonly number[] | null {
  const b = ctx.board;
  const work = ctx.work;
  const chain = work.chain;
  let n = 0;
  work.chainMeetsRepulsor = false;
  let j = ctx.occ[y * b.width + x]!;
  const fold = b.fold;
  while (j) {
    if (shut(ctx, x, y, d)) return null;
    if (fold) work.chainDir[n] = d; // the way each robot of the chain is pushed, turning over a cube's folds
    chain[n++] = j - 1;
    const over = fold ? fold.across[(y * b.width + x) * 4 + d]! : -1;
    if (over >= 0) {
      d = ((d + fold!.turn[(y * b.width + x) * 4 + d]!) & 3) as Dir;
      x = over % b.width;
      y = (over - x) / b.width;
    } else {
      x += dx(d);
      y += dy(d);
    }
    if (x < 0 || y < 0 || x >= b.width || y >= b.height) break;
    if (isRepulsor(ctx, x, y)) {
      if (!repulsorEnds) return null;
      work.chainMeetsRepulsor = true;
      break;
    }
    j = ctx.occ[y * b.width + x]!;
  }
  // Overwritten in place and cut by pop(): setting an array's length is a call into the runtime.
  while (chain.length > n) chain.pop();
  return chain;
}

/**
 * Pushes one robot a square; into a pit or off the board it is destroyed (B-26), down a ledge hurt.
 * `landedOn`: the next robot of the chain, already pushed on, which a drop down a ledge lands on
 * (RULES.md "Expansion elements (003)": "a pushed robot that lands on the next one of the chain
 * gives it 2"); -1 for none.
 */
export function pushOne(ctx: Ctx, j: number, d: Dir, by: PushSource, landedOn = -1): void {
  const b = ctx.board;
  const r = ctx.state.robots[j]!;
  const c = r.y * b.width + r.x;
  let nx = r.x + dx(d), ny = r.y + dy(d);
  const over = b.fold ? b.fold.across[c * 4 + d]! : -1;
  if (over >= 0) (nx = over % b.width), (ny = (over - nx) / b.width);
  ctx.events?.push({ type: 'pushed', robot: j, from: boardSquare(r.x, r.y), to: square(nx, ny), by });
  ctx.pushedBy[j] = by;
  if (nx < 0 || ny < 0 || nx >= b.width || ny >= b.height || isHole(ctx, nx, ny)) fall(ctx, j, nx, ny);
  else {
    relocate(ctx, j, nx, ny);
    if (over >= 0) turnWithFold(ctx, j, b.fold!.turn[c * 4 + d]!);
    afterCrossing(ctx, j, c, d, landedOn);
  }
}
