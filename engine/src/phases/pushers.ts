/** Pushers: each active in its listed registers pushes the robot in front of it one square. */
import { boardSquare, square } from '../board.js';
import type { Ctx } from '../context.js';
import { isRepulsor } from '../elements/repulsors.js';
import { afterCrossing } from '../elements/ledges.js';
import { dx, dy, type Dir } from '../geometry.js';
import { collectChain, shut } from '../movement.js';
import { fall, isHole } from '../robots.js';
import { foldTurn, turnWithFold } from '../cube.js';

interface Shove {
  readonly pusher: number;
  readonly dir: Dir;
  readonly robots: number[];
  /** On a cube course: the way each robot is pushed, turning over folds (004 L179). */
  readonly dirs?: number[];
}

/** The square robot r is pushed onto going `d`: the grid's neighbour, or over a cube's fold. */
function pushedTo(ctx: Ctx, x: number, y: number, d: Dir): [number, number] {
  const b = ctx.board;
  const over = b.fold ? b.fold.across[(y * b.width + x) * 4 + d]! : -1;
  return over >= 0 ? [over % b.width, Math.floor(over / b.width)] : [x + dx(d), y + dy(d)];
}

/**
 * All active pushers push at once (000 L323; 003 L52-57 "a chain of robots could be pushed by one
 * pusher. Pushers only operate on certain phases"). A wall at the end of the chain stops it
 * (B-40); two pushers whose robots would meet in one square, or share a robot, move neither (B-25).
 */
export function pushers(ctx: Ctx, register: number): void {
  const b = ctx.board;
  const bit = 1 << (register - 1);
  const robots = ctx.state.robots;
  // Most registers push nobody: one look per robot at the board's pusher table says so.
  let any = false;
  let virtuals = false;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status !== 'active') continue;
    if (r.virtual) virtuals = true;
    if (b.pusherAt[r.y * b.width + r.x]! & bit) any = true;
  }
  if (!any) return;
  const shoves: Shove[] = [];
  for (let k = 0; k < b.pushers.length; k++) {
    const p = b.pushers[k]!;
    if (!(p.registers & bit)) continue;
    if (ctx.occ[p.y * b.width + p.x]) {
      const chain = collectChain(ctx, p.x, p.y, p.dir, false);
      // One literal per form: spreading the optional part made two more objects and a copy.
      if (chain)
        shoves.push(b.fold
          ? { pusher: k, dir: p.dir, robots: chain.slice(), dirs: ctx.work.chainDir.slice(0, chain.length) }
          : { pusher: k, dir: p.dir, robots: chain.slice() });
    }
    if (!virtuals) continue;
    // A virtual robot is pushed alone: it touches no other robot (000 L107).
    for (let i = 0; i < robots.length; i++) {
      const r = robots[i]!;
      if (r.status === 'active' && r.virtual && r.x === p.x && r.y === p.y && !shut(ctx, p.x, p.y, p.dir) && !isRepulsor(ctx, p.x + dx(p.dir), p.y + dy(p.dir)))
        shoves.push({ pusher: k, dir: p.dir, robots: [i] });
    }
  }
  if (!shoves.length) return;

  // Conflicts: a robot in two shoves (virtual or not), or two real robots into one square. A
  // single shove (the usual case) has none, and skips the maps.
  const moving = shoves.length === 1 ? shoves : withoutConflicts(ctx, shoves);
  for (const s of moving) {
    for (const i of s.robots) {
      const r = robots[i]!;
      if (!r.virtual && ctx.occ[r.y * b.width + r.x] === i + 1) ctx.occ[r.y * b.width + r.x] = 0;
    }
  }
  for (const s of moving) {
    // The far end first, as a robot pushes a chain: a robot pushed down a ledge lands on the next
    // one, already moved on, and gives it 2 (RULES.md "Expansion elements (003)").
    for (let k = s.robots.length - 1; k >= 0; k--) {
      const i = s.robots[k]!;
      const r = robots[i]!;
      const d = (s.dirs ? s.dirs[k]! : s.dir) as Dir;
      // Off a cube, the square ahead, with no pair made and taken apart.
      let x = r.x + dx(d), y = r.y + dy(d);
      if (b.fold) [x, y] = pushedTo(ctx, r.x, r.y, d);
      const by = { pusher: s.pusher };
      ctx.events?.push({ type: 'pushed', robot: i, from: boardSquare(r.x, r.y), to: square(x, y), by });
      ctx.pushedBy[i] = by;
      if (x < 0 || y < 0 || x >= b.width || y >= b.height || isHole(ctx, x, y)) {
        fall(ctx, i, x, y);
        continue;
      }
      const from = r.y * b.width + r.x;
      r.x = x;
      r.y = y;
      if (!r.virtual) ctx.occ[y * b.width + x] = i + 1;
      if (b.fold) turnWithFold(ctx, i, foldTurn(b, from, d));
      afterCrossing(ctx, i, from, d, k + 1 < s.robots.length ? s.robots[k + 1]! : -1);
    }
  }
}

/** The shoves that move: those sharing a robot, or sending two real robots into one square, do not (B-25). */
function withoutConflicts(ctx: Ctx, shoves: readonly Shove[]): readonly Shove[] {
  const b = ctx.board;
  const robots = ctx.state.robots;
  const dropped = new Set<number>();
  const seen = new Map<number, number>();
  const into = new Map<number, number>();
  const clash = (map: Map<number, number>, key: number, k: number) => {
    const other = map.get(key);
    if (other !== undefined && other !== k) {
      dropped.add(other);
      dropped.add(k);
    } else map.set(key, k);
  };
  shoves.forEach((s, k) => {
    for (const [m, i] of s.robots.entries()) {
      clash(seen, i, k);
      const r = robots[i]!;
      if (r.virtual) continue;
      const [x, y] = pushedTo(ctx, r.x, r.y, (s.dirs ? s.dirs[m]! : s.dir) as Dir);
      // Squares past the edge never clash: each robot falls on its own.
      clash(into, x < 0 || y < 0 || x >= b.width || y >= b.height ? -1 - i : y * b.width + x, k);
    }
  });
  return shoves.filter((_, k) => !dropped.has(k));
}
