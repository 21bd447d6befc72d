/** The last step of a register: flags are touched and archives move. */
import { Floor } from '../board.js';
import type { Ctx } from '../context.js';
import { archiveTouched, armTouch } from '../options/upkeep.js';
import { dieAt } from '../dice.js';
import { chopShop, touchedRepairSite } from '../options/deck.js';

/**
 * A powered-up robot ending the register on the next flag in its order touches it (000 L73, L135,
 * L275); any flag or repair site it ends on becomes its archive (000 L271; B-22). Powered-down
 * robots touch nothing and move no archive (000 L201; B-19). The first robots to touch their
 * last flag win, robots of one register sharing the place (B-43).
 */
export function checkpoints(ctx: Ctx): void {
  touchSites(ctx, -1);
}

/**
 * The checkpoints step right after the lasers step, which noted the robots that may touch
 * something (`work.onSites`, from the same positions: nothing moves robots in that step but
 * options, and then it notes them all): only those are visited, lowest first (robot order).
 */
export function checkpointsAfterLasers(ctx: Ctx): void {
  touchSites(ctx, ctx.work.onSites);
}

/** The checkpoints step for the robots of bit mask `visit` (-1: every robot). */
function touchSites(ctx: Ctx, visit: number): void {
  const b = ctx.board;
  const st = ctx.state;
  const last = b.flags.length;
  const arena = ctx.setup.settings.variant === 'arena';
  let group: number[] | null = null;
  for (let i = 0, m = visit; i < st.robots.length; i++) {
    if (visit !== -1) {
      if (!m) break;
      i = 31 - Math.clz32(m & -m);
      m &= m - 1;
    }
    const r = st.robots[i]!;
    if (r.status !== 'active' || r.poweredDown) continue;
    const c = r.y * b.width + r.x;
    // Most robots stand on no flag or repair site and hold no options: nothing to touch.
    if (!b.siteAt[c] && r.opt === null && !r.options.length) continue;
    const f = b.floor[c];
    // RoboArena plays without flags (004 L192); a flag under a die cannot be touched (RULES.md
    // Settings, `diceRule`: "cannot be entered or touched by any means").
    const flag = arena || dieAt(ctx, r.x, r.y) >= 0 ? 0 : b.flagAt[c]!;
    const site = flag || f === Floor.Wrench || f === Floor.DoubleWrench;
    const arm = !arena && flag !== r.flags + 1 && r.options.length ? armTouch(ctx, i) : 0;
    const touched = flag === r.flags + 1 ? flag : arm;
    if (touched) {
      r.flags = touched;
      ctx.events?.push({ type: 'flagTouched', robot: i, flag: touched });
      if (touched === last) (group ??= []).push(i);
    }
    // The arm's flag becomes the archive, unless the robot stands on an archive location (2.15).
    const archive = site ? c : arm ? b.flags[arm - 1]![1] * b.width + b.flags[arm - 1]![0] : -1;
    if (archive >= 0) {
      const ax = archive % b.width, ay = (archive - ax) / b.width;
      if (!r.archive || r.archive[0] !== ax || r.archive[1] !== ay) {
        r.archive = [ax, ay];
        ctx.events?.push({ type: 'archived', robot: i, x: ax, y: ay });
        if (r.options.length || r.opt) archiveTouched(ctx, i);
      }
      if (r.opt?.optionSite && site) touchedRepairSite(ctx, i);
    }
    if (r.opt?.choices.chopShop) chopShop(ctx, i, ctx.state.register);
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
