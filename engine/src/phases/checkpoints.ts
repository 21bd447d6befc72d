/** The last step of a register: flags are touched and archives move. */
import { Floor } from '../board.js';
import type { Ctx } from '../context.js';

/**
 * A powered-up robot ending the register on the next flag in its order touches it (000 L73, L135,
 * L275); any flag or repair site it ends on becomes its archive (000 L271; B-22). Powered-down
 * robots touch nothing and move no archive (000 L201; B-19). The first robots to touch their
 * last flag win, robots of one register sharing the place (B-43).
 */
export function checkpoints(ctx: Ctx): void {
  const b = ctx.board;
  const st = ctx.state;
  const last = b.flags.length;
  const arena = ctx.setup.settings.variant === 'arena';
  let group: number[] | null = null;
  for (let i = 0; i < st.robots.length; i++) {
    const r = st.robots[i]!;
    if (r.status !== 'active' || r.poweredDown) continue;
    const c = r.y * b.width + r.x;
    const flag = arena ? 0 : b.flagAt[c]!; // RoboArena plays without flags (004 L192)
    if (flag && flag === r.flags + 1) {
      r.flags = flag;
      ctx.events?.push({ type: 'flagTouched', robot: i, flag });
      if (flag === last) (group ??= []).push(i);
    }
    const f = b.floor[c];
    if (flag || f === Floor.Wrench || f === Floor.DoubleWrench) {
      if (!r.archive || r.archive[0] !== r.x || r.archive[1] !== r.y) {
        r.archive = [r.x, r.y];
        ctx.events?.push({ type: 'archived', robot: i, x: r.x, y: r.y });
      }
    }
  }
  if (arena) group = lastRobotStanding(ctx);
  if (group) {
    let place = 1;
    for (const g of st.finished) place += g.length;
    st.finished.push(group);
    if (!st.winTurn) st.winTurn = st.turn;
    for (const i of group) ctx.events?.push({ type: 'finished', robot: i, place });
  }
}

/** RoboArena (004 L192): "the object is simply to eliminate all of the other robots". */
function lastRobotStanding(ctx: Ctx): number[] | null {
  const st = ctx.state;
  if (st.finished.length) return null;
  const left = st.robots.map((r, i) => (r.status === 'out' ? -1 : i)).filter((i) => i >= 0);
  return left.length === 1 ? left : null;
}
