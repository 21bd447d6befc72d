/**
 * Damage as options meet it (OPTIONS.md 1.2): for each arriving point, Shield or Power-Down Shield
 * may block it, Ablative Coat absorbs it, Fire Control may turn it into a lock or a destroyed
 * option, the victim may exchange an option for it; otherwise it is damage.
 */
import type { Ctx } from '../context.js';
import type { WeaponName } from '../events.js';
import type { Dir } from '../geometry.js';
import { damage } from '../robots.js';
import type { FireControlMode } from '../state.js';
import { discard, holds, memory, spend, used } from './held.js';

/** A shot arriving at a robot: the way the beam travels, who fired (-1: the board) and with what. */
export interface Hit {
  readonly dir: Dir;
  readonly shooter: number;
  readonly weapon: WeaponName | 'board';
  readonly register: number;
}

/**
 * A register begins: the per-register shields are up again, no Fire Control point is used (the
 * workspace's, cleared only if used: the hot path).
 */
export function newRegister(ctx: Ctx): void {
  const work = ctx.work;
  const robots = ctx.state.robots.length;
  if (work.blockedSides.length !== robots) work.blockedSides = new Array<number>(robots).fill(0);
  else if (work.anyBlocked) work.blockedSides.fill(0);
  work.anyBlocked = false;
  if (work.fireControlUsed.size) work.fireControlUsed.clear();
}

/**
 * `points` of damage arrive at robot i, by a shot (`hit`) or otherwise (null: ram, ledge, Recompile,
 * Installing Options). Destruction is the caller's to check, once the step's damage is all dealt.
 */
export function hurt(ctx: Ctx, i: number, points: number, hit: Hit | null): void {
  const r = ctx.state.robots[i]!;
  if (points <= 0 || r.status !== 'active') return;
  const shooter = hit && hit.shooter >= 0 ? ctx.state.robots[hit.shooter]! : null;
  const fireControl = hit?.weapon === 'main' && shooter !== null && holds(shooter, 'Fire Control');
  if (!r.options.length && !fireControl) {
    damage(ctx, i, points);
    return;
  }
  let through = 0;
  for (let p = 0; p < points; p++) {
    if (hit && shieldBlocks(ctx, i, hit)) continue;
    if (coatAbsorbs(ctx, i)) continue;
    if (fireControl && fireControlScores(ctx, hit!.shooter, i, hit!.register)) continue;
    if (exchanges(ctx, i, hit?.register ?? ctx.state.register)) continue;
    through++;
  }
  damage(ctx, i, through);
}

/**
 * 2.27 Shield: a shot arriving on the side the player named (default front) loses 1 point; 2.17
 * Power-Down Shield: while powered down, on every side. With `shieldPerRegister` (or in pbem, 001
 * L221 "blocks 1 damage per direction per register") at most one point per side per register.
 */
function shieldBlocks(ctx: Ctx, i: number, hit: Hit): boolean {
  const r = ctx.state.robots[i]!;
  const from = (hit.dir + 2) & 3; // the side of the board the shot comes from
  let by: 'Shield' | 'Power-Down Shield';
  let perRegister = !!ctx.setup.settings.shieldPerRegister;
  let side: number;
  if (r.poweredDown) {
    if (!holds(r, 'Power-Down Shield')) return false;
    by = 'Power-Down Shield';
    perRegister ||= ctx.rules.options.powerDownShieldPerRegister;
    side = from;
  } else {
    if (!holds(r, 'Shield')) return false; // off while powered down [def]
    if (((from - r.dir) & 3) !== (r.opt?.choices.shield ?? 0)) return false;
    by = 'Shield';
    side = 0;
  }
  if (perRegister) {
    const work = ctx.work;
    if (work.blockedSides[i]! & (1 << side)) return false;
    work.blockedSides[i]! |= 1 << side;
    work.anyBlocked = true;
  }
  ctx.events?.push({ type: 'blockedShot', robot: i, by, points: 1 });
  used(ctx, i, by);
  return true;
}

/** 2.1 Ablative Coat: absorbs points from any source until its uses are gone (004 L150). */
function coatAbsorbs(ctx: Ctx, i: number): boolean {
  const r = ctx.state.robots[i]!;
  if (!holds(r, 'Ablative Coat')) return false;
  ctx.events?.push({ type: 'blockedShot', robot: i, by: 'Ablative Coat', points: 1 });
  used(ctx, i, 'Ablative Coat');
  spend(ctx, i, 'Ablative Coat');
  return true;
}

/**
 * 2.10 Fire Control (004 L131-147): the shooter turns a point of its main laser into a lock marker
 * on a named register or the destruction of a named option. The modes chosen for the register are
 * used point by point; the last one repeats. A mode that cannot apply leaves normal damage.
 */
function fireControlScores(ctx: Ctx, shooter: number, i: number, register: number): boolean {
  const modes = ctx.state.robots[shooter]!.opt?.choices.fireControl?.[register];
  if (!modes?.length) return false;
  const key = shooter * 64 + i;
  const points = ctx.work.fireControlUsed;
  const n = points.get(key) ?? 0;
  points.set(key, n + 1);
  const mode: FireControlMode = modes[Math.min(n, modes.length - 1)]!;
  const r = ctx.state.robots[i]!;
  if (mode.kind === 'lock') {
    const bit = 1 << (mode.register - 1);
    if (r.locked & bit) return false;
    r.locked |= bit;
    memory(r).fcLocks |= bit;
    ctx.events?.push({ type: 'markerLocked', robot: i, register: mode.register, by: shooter });
  } else if (mode.kind === 'option') {
    if (!r.options.some((o) => o === mode.option || o.startsWith(`${mode.option}:`))) return false;
    discard(ctx, i, mode.option, 'destroyed');
    ctx.events?.push({ type: 'optionDestroyed', robot: i, option: mode.option, by: shooter });
  } else return false;
  used(ctx, shooter, 'Fire Control');
  return true;
}

/**
 * 1.2 Option exchange (000 L204, L267): a point is cancelled by discarding an option, in the order
 * the player gave (`exchange`), an entry with a register only in that register. Allowed while
 * powered down unless `exchangeWhilePoweredDown` is false (B-37); pbem has none.
 */
function exchanges(ctx: Ctx, i: number, register: number): boolean {
  const r = ctx.state.robots[i]!;
  const list = r.opt?.choices.exchange;
  if (!list || !ctx.rules.options.exchange) return false;
  if (r.poweredDown && ctx.setup.settings.exchangeWhilePoweredDown === false) return false;
  for (const e of list) {
    if ((e.register === undefined || e.register === register) && holds(r, e.option)) {
      discard(ctx, i, e.option, 'exchanged');
      ctx.events?.push({ type: 'exchanged', robot: i, option: e.option });
      return true;
    }
  }
  return false;
}
