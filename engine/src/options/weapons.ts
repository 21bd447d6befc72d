/**
 * Robot weapons beyond the plain main laser (OPTIONS.md 1.4, 2.7, 2.14, 2.16, 2.18, 2.19, 2.21,
 * 2.24, 2.26; 001 L197-213): which weapon fires, where a High-Power beam goes, and what the optional
 * weapons do to their targets.
 */
import { Floor } from '../board.js';
import type { Ctx } from '../context.js';
import { dx, dy, reverse, type Dir } from '../geometry.js';
import { collectChain, pushOne, shut } from '../movement.js';
import { stepOver } from '../cube.js';
import { holds, memory, replaceCard, spend, used } from './held.js';
import { WEAPONS, type Weapon } from './catalog.js';

/** A robot's weapon aimed this register at a target, to act once the step's damage is dealt. */
export interface WeaponShot {
  readonly shooter: number;
  readonly target: number;
  readonly weapon: Weapon;
  readonly dir: Dir;
}

/**
 * The optional weapon robot i fires instead of its main laser this register, or null: classic
 * names one per register (`weapon`), pbem switches them on for the round (`active`, the first in
 * the table acting).
 */
export function chosenWeapon(ctx: Ctx, i: number, register: number): Weapon | null {
  const r = ctx.state.robots[i]!;
  const c = r.opt?.choices;
  if (!c) return null;
  if (ctx.rules.options.toggles) {
    for (const w of WEAPONS) if (c.active?.includes(w) && holds(r, w)) return w;
    return null;
  }
  const w = c.weapon?.[register] as Weapon | undefined;
  return w && holds(r, w) ? w : null;
}

/**
 * Whether the weapon can act on a target `distance` squares away in this register. Classic: a
 * choice that cannot apply is ignored and the main laser fires (1.4). pbem's toggles act on every
 * hit; a Tractor Beam against an adjacent robot deals normal damage there too [def].
 */
export function weaponApplies(ctx: Ctx, weapon: Weapon, shooter: number, target: number, register: number): boolean {
  const s = ctx.state.robots[shooter]!, t = ctx.state.robots[target]!;
  const distance = Math.abs(t.x - s.x) + Math.abs(t.y - s.y);
  if (s.opt?.choices.weaponIfFalls?.includes(register) && !dropsTarget(ctx, weapon, target, s.dir)) return false;
  if (weapon === 'Tractor Beam') return distance > 1; // 000 L249 "not adjacent"
  if (weapon === 'Radio Control') {
    const range = ctx.rules.options.radioRange;
    if (range && distance > range) return false;
  }
  if ((weapon === 'Scrambler' || weapon === 'Radio Control') && register === 5) return ctx.rules.options.toggles; // pbem: the hit does nothing
  return true;
}

/**
 * A conditional weapon order (003 L12 "use tractor beam if opponent will fall into pit through my
 * use"): whether the weapon's pull (Tractor Beam) or push (Pressor Beam, Mini Howitzer) would take
 * the target, hit by a beam travelling in direction d, into a pit or off the board.
 */
function dropsTarget(ctx: Ctx, weapon: Weapon, target: number, d: Dir): boolean {
  const t = ctx.state.robots[target]!;
  const way = weapon === 'Tractor Beam' ? reverse(d) : d;
  if (weapon !== 'Tractor Beam' && weapon !== 'Pressor Beam' && weapon !== 'Mini Howitzer') return false;
  if (shut(ctx, t.x, t.y, way)) return false;
  const b = ctx.board;
  const to = stepOver(b, t.y * b.width + t.x, way);
  return to < 0 || b.floor[to] === Floor.Pit || b.floor[to] === Floor.Void;
}

/**
 * 2.14 High-Power Laser (B-33): the beam passes the first wall or robot on its line (a wall on the
 * shooter's front edge counts) and goes on to the next robot; every robot it meets is hit. Returns
 * the robots hit, nearest first (a die of the Dice Rule as -1 - flag), in the workspace's list
 * (`work.pierced`), valid until the next call: a new list every shot was the laser step's one
 * allocation for a robot holding High-Power.
 */
export function piercingTargets(ctx: Ctx, i: number, d: Dir): readonly number[] {
  const b = ctx.board;
  const w = b.width;
  const r = ctx.state.robots[i]!;
  const dice = ctx.state.dice;
  let x = r.x, y = r.y;
  let pierce = 1;
  const out = ctx.work.pierced;
  // Overwritten in place and cut by pop(): setting an array's length is a call into the runtime.
  while (out.length) out.pop();
  for (;;) {
    if ((b.walls[y * w + x]! | b.climb[y * w + x]!) & (1 << d)) {
      // a ledge met from below is a wall for beams (RULES.md "Expansion elements (003)")
      if (!pierce--) break;
    }
    if (b.fold && b.fold.edge[(y * w + x) * 4 + d]) {
      // A cube's board edge (004 L179): inside, the beam reaches the first row across; outside, no
      // further. What stands there, a robot or a die of the Dice Rule, is hit as on this side.
      const over = b.beyond ? stepOver(b, y * w + x, d) : -1;
      const f = over >= 0 && !ctx.occ[over] ? b.flagAt[over]! - 1 : -1;
      if (over >= 0 && ctx.occ[over]) out.push(ctx.occ[over]! - 1);
      else if (f >= 0 && dice[f]! > 0) out.push(-1 - f);
      break;
    }
    x += dx(d);
    y += dy(d);
    if (x < 0 || y < 0 || x >= w || y >= b.height || b.floor[y * w + x] === Floor.Void) break;
    let hit = ctx.occ[y * w + x]! - 1;
    if (hit < 0) {
      const f = b.flagAt[y * w + x]! - 1;
      if (f >= 0 && dice[f]! > 0) hit = -1 - f;
      else continue;
    }
    out.push(hit);
    if (!pierce--) break;
  }
  return out;
}

/**
 * What a weapon does when it hits (step 2 of the laser step, 1.4), besides the damage: 2.24
 * Scrambler replaces the target's next card with a random one; 2.19 Radio Control makes it run
 * copies of the shooter's cards for the rest of the turn. Locked registers are not changed [def].
 */
export function weaponHits(ctx: Ctx, s: WeaponShot, register: number): void {
  used(ctx, s.shooter, s.weapon);
  const t = ctx.state.robots[s.target]!;
  if (s.weapon === 'Mini Howitzer') spend(ctx, s.shooter, 'Mini Howitzer');
  if (register === 5 || t.status !== 'active') return;
  if (s.weapon === 'Scrambler') scramble(ctx, s.target, register + 1, s.shooter);
  else if (s.weapon === 'Radio Control') radioControl(ctx, s.target, register, s.shooter);
}

function scramble(ctx: Ctx, i: number, register: number, by: number): void {
  const t = ctx.state.robots[i]!;
  const k = register - 1;
  if (t.locked & (1 << k) || !t.registers[k]) return;
  const card = ctx.rules.drawCard(ctx);
  if (!card) return;
  replaceCard(ctx, i, register, card); // 002 L6-8: it runs at its own priority
  ctx.events?.push({ type: 'scrambled', robot: i, register, card, by });
}

function radioControl(ctx: Ctx, i: number, register: number, by: number): void {
  const t = ctx.state.robots[i]!;
  const shooter = ctx.state.robots[by]!;
  const regs: number[] = [];
  for (let reg = register + 1; reg <= 5; reg++) {
    const k = reg - 1;
    const card = shooter.opt?.copied[k] || shooter.registers[k];
    if (t.locked & (1 << k) || !card) continue;
    regs.push(reg);
  }
  if (!regs.length) return;
  const mem = memory(t);
  for (const reg of regs) mem.copied[reg - 1] = shooter.opt?.copied[reg - 1] || shooter.registers[reg - 1]!;
  mem.copiedFrom = by;
  ctx.events?.push({ type: 'radioControlled', robot: i, by, registers: regs });
}

/**
 * Step 4 of the laser step (1.4): targets of Pressor Beam and Mini Howitzer are pushed a square
 * away from the shooter, as a robot pushes (chain, walls stop, pits and edges destroy); targets of
 * the Tractor Beam are pulled a square toward it, only into a free square with no wall between.
 * One at a time, the shooter with the highest priority first.
 */
export function weaponMoves(ctx: Ctx, shots: readonly WeaponShot[]): void {
  for (const s of shots) {
    const t = ctx.state.robots[s.target]!;
    if (t.status !== 'active' || s.weapon === 'Scrambler' || s.weapon === 'Radio Control') continue;
    const by = { robot: s.shooter };
    if (s.weapon === 'Tractor Beam') {
      const d = reverse(s.dir);
      const b = ctx.board;
      const to = stepOver(b, t.y * b.width + t.x, d);
      if (shut(ctx, t.x, t.y, d) || (to >= 0 && (ctx.occ[to] || b.floor[to] === Floor.Repulsor))) continue;
      pushOne(ctx, s.target, d, by);
    } else {
      const chain = collectChain(ctx, t.x, t.y, s.dir, false);
      if (!chain) continue;
      const row = chain.slice();
      // On a cube course each robot of the row is pushed the way the floor runs under it.
      const ways = ctx.board.fold ? ctx.work.chainDir.slice(0, row.length) : null;
      for (let k = row.length - 1; k >= 0; k--) pushOne(ctx, row[k]!, ways ? ways[k]! as Dir : s.dir, by, k + 1 < row.length ? row[k + 1]! : -1);
    }
  }
}
