/** Changes to one robot that several rules share: placing, damage and locks, destruction, repair. */
import { Floor } from './board.js';
import type { Card } from './cards.js';
import type { Ctx, Workspace } from './context.js';
import type { DestroyCause, RepairCause } from './events.js';
import { popcount } from './state.js';
import { holds, memory as memoryOf, used } from './options/held.js';

/** Moves a robot's token to (x, y) and keeps the occupancy grid true. */
export function relocate(ctx: Ctx, i: number, x: number, y: number): void {
  const r = ctx.state.robots[i]!;
  const w = ctx.board.width;
  if (!r.virtual && ctx.occ[r.y * w + r.x] === i + 1) ctx.occ[r.y * w + r.x] = 0;
  r.x = x;
  r.y = y;
  if (!r.virtual) ctx.occ[y * w + x] = i + 1;
}

/** The robot has left the floor at (x, y) (a pit or past an edge): it is destroyed there. */
export function fall(ctx: Ctx, i: number, x: number, y: number): void {
  const r = ctx.state.robots[i]!;
  const w = ctx.board.width;
  if (!r.virtual && ctx.occ[r.y * w + r.x] === i + 1) ctx.occ[r.y * w + r.x] = 0;
  const pit = x >= 0 && y >= 0 && x < w && y < ctx.board.height && ctx.board.floor[y * w + x] === Floor.Pit;
  if (pit) {
    r.x = x;
    r.y = y;
  }
  destroy(ctx, i, pit ? 'pit' : 'edge');
}

/** True if a robot entering the square falls: a pit, or no floor at all (003 L15-17 "Open edges of
 *  the game area also act like bottomless shafts"). The square is on the board's grid. */
export const isHole = (ctx: Ctx, x: number, y: number): boolean => {
  const f = ctx.board.floor[y * ctx.board.width + x];
  return f === Floor.Pit || f === Floor.Void;
};

/**
 * Destroyed: off the floor at once, a life lost, out of the game with the last one
 * (000 L207 "A robot is destroyed when it receives its tenth point of damage, falls into a pit,
 * moves off a blank edge of the board, or is crushed by a crusher."). An announced power down
 * lapses (RULES.md, B-17; 001 L75 "the power down command is cancelled"), told once it was made
 * public with the reveal (before it, the announcement is the player's secret). A fall or a crush
 * names what last pushed the robot in this register.
 */
export function destroy(ctx: Ctx, i: number, cause: DestroyCause): void {
  const st = ctx.state;
  const r = st.robots[i]!;
  if (r.status !== 'active') return;
  const w = ctx.board.width;
  if (!r.virtual && ctx.occ[r.y * w + r.x] === i + 1) ctx.occ[r.y * w + r.x] = 0;
  r.status = 'destroyed';
  if (!ctx.setup.settings.infiniteLives) r.lives -= 1; // 004 L188 Infinite Lives: they never run out
  r.destroyedAt = ++st.destructions;
  const cancelled = r.announced;
  r.announced = false;
  r.poweredDown = false;
  r.stayDown = false;
  keepSuperiorArchive(ctx, i);
  const pushedBy = cause === 'damage' ? null : ctx.pushedBy[i] ?? null;
  ctx.events?.push({ type: 'destroyed', robot: i, cause, pushedBy, lives: r.lives });
  if (cancelled && st.phase === 'registers') ctx.events?.push({ type: 'powerDownCancelled', robot: i });
  ctx.rules.onDestroyed?.(ctx, i);
  if (r.lives <= 0) {
    r.status = 'out'; // 000 L207 "If this is the third time ... permanently out of the game."
    ctx.events?.push({ type: 'out', robot: i });
  }
}

/**
 * Superior Archive (OPTIONS.md 2.25; 004 L157; 001 L223): at destruction, a robot holding the card
 * keeps its right to re-enter undamaged, even if the card is the one it now loses. In classic the
 * archive location must also have been touched while it held the card (B-31).
 */
function keepSuperiorArchive(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  if (!holds(r, 'Superior Archive')) {
    if (r.opt) r.opt.superior = false;
  } else if (!ctx.rules.options.superiorNeedsArchive) memoryOf(r).superior = true;
}

/** Damage a robot re-enters with: the rule set's, or none the first time under One Free Life
 *  (004 L188) or with Superior Archive (2.25), which is then used (everybody sees the robot
 *  re-enter undamaged, so under Secret Options it is shown). Called as the robot re-enters. */
export function reentryDamage(ctx: Ctx, i: number): number {
  const r = ctx.state.robots[i]!;
  if (r.opt?.superior) {
    used(ctx, i, 'Superior Archive');
    return 0;
  }
  return ctx.setup.settings.oneFreeLife && r.reentries === 0 ? 0 : ctx.rules.reentryDamage;
}

/**
 * Damage points; each point past the rule set's threshold locks one more register, starting with
 * the last unlocked one (000 L305 "placed on top of the robot's program cards, starting with the
 * last one"). The card in a newly locked register stays there (000 L178-180).
 * Destruction by damage is checked by the caller, once all damage of the step is dealt (B-28).
 */
export function damage(ctx: Ctx, i: number, points: number): void {
  const r = ctx.state.robots[i]!;
  if (points <= 0 || r.status !== 'active') return;
  r.damage += points;
  ctx.events?.push({ type: 'damaged', robot: i, points, damage: r.damage });
  const want = Math.min(5, ctx.rules.lockedCount(r.damage));
  // Fire Control's markers lock registers too, but the damage count locks its own (2.10).
  let have = popcount(r.locked & ~(r.opt?.fcLocks ?? 0));
  if (want <= have) return;
  // The newly locked registers, for the event, as digits (`registerList`): without events, no array.
  let newly = 0, count = 0;
  for (let reg = 5; reg >= 1 && have < want; reg--) {
    const bit = 1 << (reg - 1);
    if (!(r.locked & bit)) {
      r.locked |= bit;
      have++;
      newly = newly * 8 + reg;
      count++;
    }
  }
  if (ctx.events) ctx.events.push({ type: 'locked', robot: i, registers: registerList(newly, count) });
}

/**
 * `count` registers written as base-8 digits, the first the highest (`seq = seq * 8 + reg`), as a
 * list of exactly that length: an array literal, where an empty one grown by `push` took a backing
 * store of 17 slots for the one or two registers of a lock or a repair.
 */
function registerList(seq: number, count: number): number[] {
  const e = seq & 7, d = (seq >> 3) & 7, c = (seq >> 6) & 7, b = (seq >> 9) & 7, a = (seq >> 12) & 7;
  return count === 1 ? [e] : count === 2 ? [d, e] : count === 3 ? [c, d, e] : count === 4 ? [b, c, d, e] : count === 5 ? [a, b, c, d, e] : [];
}

/** Destroyed by damage: the rule set's limit reached (000 L207; 001 L297). */
export function destroyIfWrecked(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  if (r.status === 'active' && r.damage >= ctx.rules.destroyAt) destroy(ctx, i, 'damage');
}

/**
 * Repairs up to `points`. Each point that drops the lock count frees a register: the one the
 * player named (`unlock`, classic B-07, 000 L188), else the lowest-numbered locked one (RULES.md).
 * A freed register's card is discarded (000 L182).
 */
export function repair(ctx: Ctx, i: number, points: number, by: RepairCause): void {
  const r = ctx.state.robots[i]!;
  if (r.opt?.fcLocks) {
    repairMarkers(ctx, i, points, by);
    return;
  }
  const n = Math.min(points, r.damage);
  if (n <= 0) return;
  r.damage -= n;
  ctx.events?.push({ type: 'repaired', robot: i, points: n, damage: r.damage, by });
  const want = Math.min(5, ctx.rules.lockedCount(r.damage));
  let have = popcount(r.locked);
  if (have <= want) return;
  // The registers the player named first (`unlock`), then from register 1; the freed registers as
  // digits for the event (`registerList`). A loop over both, not a closure made on every call.
  let freed = 0, count = 0;
  const named = r.unlock;
  for (let k = 0; k < named.length + 5 && have > want; k++) {
    const reg = k < named.length ? named[k]! : k - named.length + 1;
    const bit = 1 << (reg - 1);
    if (!(r.locked & bit)) continue;
    r.locked &= ~bit;
    have--;
    freed = freed * 8 + reg;
    count++;
    const card = r.registers[reg - 1]!;
    if (card) ctx.state.discard.push(card);
    r.registers[reg - 1] = 0;
  }
  if (ctx.events) ctx.events.push({ type: 'unlocked', robot: i, registers: registerList(freed, count) });
}

/**
 * Repair of a robot with Fire Control markers (OPTIONS.md 2.10 [def]): each point frees the
 * lowest-numbered locked register, removing its marker, or if that register is locked by damage
 * (or none is locked) removes a point of damage.
 */
function repairMarkers(ctx: Ctx, i: number, points: number, by: RepairCause): void {
  const r = ctx.state.robots[i]!;
  const m = r.opt!;
  for (let p = 0; p < points; p++) {
    let low = 0;
    while (low < 5 && !(r.locked & (1 << low))) low++;
    if (low < 5 && m.fcLocks & (1 << low)) {
      m.fcLocks &= ~(1 << low);
      r.locked &= ~(1 << low);
      const card = r.registers[low]!;
      if (card) ctx.state.discard.push(card);
      r.registers[low] = 0;
      ctx.events?.push({ type: 'unlocked', robot: i, registers: [low + 1] });
    } else if (r.damage > 0) {
      const saved = m.fcLocks;
      m.fcLocks = 0; // the damage path sees only the damage locks
      r.locked &= ~saved;
      repair(ctx, i, 1, by);
      m.fcLocks = saved;
      r.locked |= saved;
    } else return;
  }
}

/** Every register freed and emptied, its cards discarded: a robot coming back as an archive copy.
 *  Fire Control markers go with them (2.10), and any card played beside a register's. */
export function clearProgram(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  r.locked = 0;
  if (r.opt) {
    r.opt.fcLocks = 0;
    for (let k = 0; k < 5; k++) {
      if (r.opt.joined[k]) ctx.state.discard.push(r.opt.joined[k]!);
      r.opt.joined[k] = 0;
      r.opt.copied[k] = 0;
    }
  }
  for (let k = 0; k < 5; k++) {
    if (r.registers[k]) ctx.state.discard.push(r.registers[k]!);
    r.registers[k] = 0;
  }
}

/**
 * The start of a powered-down turn: all damage discarded, every register freed and emptied
 * (000 L193 "At the beginning of the next turn, all damage chits are discarded").
 */
export function discardAllDamage(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  // Fire Control's markers go too (OPTIONS.md 2.10 "a power down ... clears all markers"), before
  // the damage, so that no point of it is spent on a marker.
  const markers = r.opt?.fcLocks ?? 0;
  if (markers) {
    r.locked &= ~markers;
    r.opt!.fcLocks = 0;
  }
  repair(ctx, i, r.damage, 'powerDown');
  if (r.locked | markers) {
    const freed: number[] = [];
    for (let reg = 1; reg <= 5; reg++) if ((r.locked | markers) & (1 << (reg - 1))) freed.push(reg);
    ctx.events?.push({ type: 'unlocked', robot: i, registers: freed });
  }
  clearProgram(ctx, i);
}

/**
 * The cards of `hand` in none of the five registers `reg`, in hand order, into `work.unplayed`,
 * their number in `work.nunplayed` (the reveal, turn.ts). Which register holds a card, if any, is
 * random, so testing a card against each register mispredicts a branch for nearly every card; here
 * a card meets the registers without a branch: for 32-bit integers c ^ r is 0 only when c is r,
 * and d | -d has its sign bit set for every other d, so the AND over the five registers has it set
 * when none holds c. False, and nothing counted, when a card or a register is not a 32-bit
 * integer (never dealt; the caller then compares them one by one).
 */
export function unplayedOf(work: Workspace, hand: readonly Card[], reg: readonly Card[]): boolean {
  const r0 = reg[0]!, r1 = reg[1]!, r2 = reg[2]!, r3 = reg[3]!, r4 = reg[4]!;
  if ((r0 | 0) !== r0 || (r1 | 0) !== r1 || (r2 | 0) !== r2 || (r3 | 0) !== r3 || (r4 | 0) !== r4) return false;
  if (work.unplayed.length < hand.length) work.unplayed = new Int32Array(hand.length);
  const out = work.unplayed;
  let n = 0;
  for (let k = 0; k < hand.length; k++) {
    const c = hand[k]!;
    if ((c | 0) !== c) return false;
    const d0 = c ^ r0, d1 = c ^ r1, d2 = c ^ r2, d3 = c ^ r3, d4 = c ^ r4;
    out[n] = c;
    n += ((d0 | -d0) & (d1 | -d1) & (d2 | -d2) & (d3 | -d3) & (d4 | -d4)) >>> 31;
  }
  work.nunplayed = n;
  return true;
}
