/** Conveyor belts: the express step and the all-belts step of a register (RULES.md "Conveyor belts"). */
import { boardSquare, Floor, square } from '../board.js';
import type { Ctx } from '../context.js';
import { stabilized } from '../options/movement.js';
import { shut } from '../movement.js';
import { isRepulsor } from '../elements/repulsors.js';
import { afterCrossing } from '../elements/ledges.js';
import { dx, dy, type Dir } from '../geometry.js';
import { fall, isHole } from '../robots.js';
import { foldTurn, turnWithFold } from '../cube.js';

/**
 * Moves every robot standing on a belt of the given kinds one square, all at once.
 * `expressOnly`: only robots on express belts at this moment move (B-02). Belts never push: a
 * robot stays put if a wall blocks it, if another robot is carried to the same square, if the
 * two would swap, or if the square ahead holds a robot that does not leave it in this step
 * (000 L231-235; 001 L129). Virtual robots interact with no robot (000 L107).
 */
export function beltStep(ctx: Ctx, expressOnly: boolean): void {
  belts(ctx, expressOnly ? EXPRESS : ALL);
}

/**
 * Classic's express step and then its all-belts step (RULES.md register table), on one look at
 * the robots: the riders of all belts are found once, and when none stands on an express belt
 * (most registers) the express step moves nobody and the all-belts step carries those riders.
 * Otherwise the express riders move first and the all-belts step looks again.
 */
export function expressThenAllBelts(ctx: Ctx): void {
  belts(ctx, EXPRESS_THEN_ALL);
}

/** `belts`' modes: the express step, the all-belts step, and the two in turn (classic). */
const EXPRESS = 0, ALL = 1, EXPRESS_THEN_ALL = 2;

/**
 * The belt steps in one function, the look at the robots and the carry on the same locals (two
 * functions, each with its entry checks and its reads of the board and the scratch, were a sixth
 * of a register's instructions). Each round: the robots on a belt of the mode's kinds, in robot
 * order, into the workspace's scratch (`riders`, their targets `tx`, `ty`, whether a wall, ledge
 * or repulsor field holds them `stuck`, whether they ride an express belt `express`); then they
 * move one square each, all at once. EXPRESS_THEN_ALL carries the express riders, if any, and
 * then looks again for all belts' riders.
 */
function belts(ctx: Ctx, mode: number): void {
  const b = ctx.board;
  const w = b.width, h = b.height;
  const robots = ctx.state.robots;
  const cells = b.cells;
  const occ = ctx.occ;
  // The workspace's scratch arrays, grown to the number of robots.
  const work = ctx.work;
  if (work.riders.length < robots.length) {
    work.riders = new Int32Array(robots.length);
    work.tx = new Int32Array(robots.length);
    work.ty = new Int32Array(robots.length);
    work.stuck = new Uint8Array(robots.length);
    work.express = new Uint8Array(robots.length);
  }
  const { riders, tx, ty, stuck, express } = work;
  // A plain step (`Board.plainStep`, read from `Board.cells`: no wall, ledge, edge, hole or repulsor
  // field on the way) needs none of the element rules below, when the Dice Rule's walls do not
  // stand and the course is no cube.
  const plainSteps = ctx.walls === b.walls && !b.fold;
  for (;;) {
    // Out of the loop: the optimized loop tested the kind as any value, on every robot.
    const anyBelt = mode === EXPRESS ? Floor.Express : Floor.Belt;
    let n = 0;
    let expressRiders = 0;
    for (let i = 0; i < robots.length; i++) {
      const r = robots[i]!;
      if (r.status !== 'active') continue;
      const c = r.y * w + r.x;
      // The square's floor, belt and plain steps from the packed table (`Board.cells`): one cache line.
      const v = cells[c * 4]!;
      const f = v & 255;
      if (f !== Floor.Express && f !== anyBelt) continue;
      const d = ((v >>> 8) & 255) as Dir;
      riders[n] = i;
      tx[n] = r.x + dx(d);
      ty[n] = r.y + dy(d);
      if (f === Floor.Express) {
        express[n] = 1;
        expressRiders++;
      } else express[n] = 0;
      if (plainSteps && (v >>> 16) & (1 << d)) {
        stuck[n++] = 0;
        continue;
      }
      // Over a fold of a cube course, onto the board attached there (004 L179).
      const over = b.fold ? b.fold.across[c * 4 + d]! : -1;
      if (over >= 0) (tx[n] = over % w), (ty[n] = (over - tx[n]!) / w);
      // A belt cannot carry a robot through a wall, up a ledge or into a repulsor field.
      stuck[n] = shut(ctx, r.x, r.y, d) || isRepulsor(ctx, tx[n]!, ty[n]!) ? 1 : 0;
      n++;
    }
    if (!n) return;
    // Classic's express step first, when someone rides an express belt: those riders only.
    const again = mode === EXPRESS_THEN_ALL && expressRiders > 0;
    if (again) {
      let m = 0;
      for (let a = 0; a < n; a++) {
        if (!express[a]) continue;
        riders[m] = riders[a]!;
        tx[m] = tx[a]!;
        ty[m] = ty[a]!;
        stuck[m++] = stuck[a]!;
      }
      n = m;
    }
    // Conflicts between real riders: one target, or a swap.
    for (let a = 0; a < n; a++) {
      const ra = robots[riders[a]!]!;
      if (ra.virtual || stuck[a]) continue;
      for (let c = a + 1; c < n; c++) {
        const rc = robots[riders[c]!]!;
        if (rc.virtual || stuck[c]) continue;
        const same = tx[a] === tx[c] && ty[a] === ty[c];
        const swap = tx[a] === rc.x && ty[a] === rc.y && tx[c] === ra.x && ty[c] === ra.y;
        if (same || swap) stuck[a] = stuck[c] = 1; // 000 L233 "neither robot moves"
      }
    }
    // A robot ahead that stays blocks the rider, and so on back along the line (000 L235).
    for (let changed = true; changed; ) {
      changed = false;
      for (let a = 0; a < n; a++) {
        if (stuck[a] || robots[riders[a]!]!.virtual) continue;
        const x = tx[a]!, y = ty[a]!;
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        const j = occ[y * w + x]!;
        if (!j) continue;
        let k = n - 1;
        while (k >= 0 && riders[k] !== j - 1) k--;
        if (k < 0 || stuck[k]) {
          stuck[a] = 1;
          changed = true;
        }
      }
    }
    // Everyone who moves leaves first, then arrives: the moves are simultaneous.
    for (let a = 0; a < n; a++) {
      if (stuck[a]) continue;
      const r = robots[riders[a]!]!;
      if (!r.virtual && occ[r.y * w + r.x] === riders[a]! + 1) occ[r.y * w + r.x] = 0;
    }
    for (let a = 0; a < n; a++) {
      if (stuck[a]) continue;
      const i = riders[a]!;
      const r = robots[i]!;
      const from = r.y * w + r.x;
      const v = cells[from * 4]!;
      let carry = ((v >>> 8) & 255) as Dir;
      const x = tx[a]!, y = ty[a]!;
      ctx.events?.push({ type: 'carried', robot: i, from: boardSquare(r.x, r.y), to: square(x, y), express: (v & 255) === Floor.Express });
      if (plainSteps && (v >>> 16) & (1 << carry)) {
        // On the board, onto floor, no ledge crossed, no fold: it arrives, and a belt may turn it.
        r.x = x;
        r.y = y;
        if (!r.virtual) occ[y * w + x] = i + 1;
        turnOnArrival(ctx, i, carry);
        continue;
      }
      if (x < 0 || y < 0 || x >= w || y >= h || isHole(ctx, x, y)) {
        fall(ctx, i, x, y);
        continue;
      }
      r.x = x; // not relocate(): the old square was cleared above
      r.y = y;
      if (!r.virtual) occ[y * w + x] = i + 1;
      // A drop down a ledge first: a robot its damage destroys is removed where it lands, and the
      // belt there does not turn it (RULES.md "Expansion elements (003)").
      afterCrossing(ctx, i, from, carry, -1);
      const turn = b.fold ? foldTurn(b, from, carry) : 0;
      if (turn && r.status === 'active') {
        // Carried over a fold: it turns with the floor, and arrives going the way the floor turned.
        turnWithFold(ctx, i, turn);
        carry = ((carry + turn) & 3) as Dir;
      }
      if (r.status === 'active') turnOnArrival(ctx, i, carry);
    }
    if (!again) return;
    mode = ALL;
  }
}

/**
 * A belt turns a robot only when another belt carries it onto the belt from a side: by the angle
 * between the carrying direction and the new belt's (000 L238; 003 L44-47; B-03 default).
 */
function turnOnArrival(ctx: Ctx, i: number, carry: Dir): void {
  const b = ctx.board;
  const r = ctx.state.robots[i]!;
  const v = b.cells[(r.y * b.width + r.x) * 4]!;
  const f = v & 255;
  if (f !== Floor.Belt && f !== Floor.Express) return;
  const delta = (((v >>> 8) & 255) - carry + 4) & 3;
  if (delta !== 1 && delta !== 3) return;
  if (r.options.length && stabilized(ctx, i)) return;
  const from = r.dir;
  r.dir = ((from + delta) & 3) as Dir;
  ctx.events?.push({ type: 'turned', robot: i, from, to: r.dir, by: 'belt' });
}

/** Express belts move 1 (classic step 2, pbem step 3). */
export const expressBelts = (ctx: Ctx): void => beltStep(ctx, true);
/** All belts, normal and express, move 1 (classic step 3, pbem step 2). */
export const allBelts = (ctx: Ctx): void => beltStep(ctx, false);
