/** Board lasers and robot lasers fire together (RULES.md "Lasers"). */
import { boardSquare, Floor } from '../board.js';
import type { Ctx, Workspace } from '../context.js';
import { damage, destroyIfWrecked } from '../robots.js';
import { damageDie } from '../dice.js';
import type { WeaponName } from '../events.js';
import { dx, dy, reverse, type Dir } from '../geometry.js';
import { hurt, type Hit } from '../options/damage.js';
import { holds, used } from '../options/held.js';
import { chosenWeapon, piercingTargets, weaponApplies, weaponHits, weaponMoves, type WeaponShot } from '../options/weapons.js';
import { onGear, pushersGearsCrushers } from './gears.js';

const FAR = 0x7fffffff;

/**
 * Every beam is traced from where robots stand when the step begins; damage is dealt together and
 * only then are robots destroyed (B-28). One point per beam (000 L128; B-29). Board beams reach as
 * the board's cover table says (to the first wall, edge or hole); the Dice Rule's dice stop beams
 * like robots do.
 */
export function lasers(ctx: Ctx, register: number): void {
  laserStep(ctx, register, false);
}

/**
 * The pushers, gears and crushers steps and then the lasers step (their order in both rule sets),
 * on the laser step's one look at the robots. The look reads each robot's pusher and crusher
 * registers from the packed cell it reads anyway. With nobody on an active pusher or under an
 * active crusher (most registers) nothing moves before the shots: every robot blocks beams from the
 * square the look found, a robot's own laser aims the way its gear will turn it, and the gears
 * turn the robots (robot order) before any shot, as the gears step would. Otherwise the look is
 * undone and the three steps and the lasers run in turn.
 */
export function pushersGearsCrushersLasers(ctx: Ctx, register: number): void {
  laserStep(ctx, register, true);
}

/** The lasers step; `gears`: the pushers, gears and crushers steps first (`pushersGearsCrushersLasers`). */
function laserStep(ctx: Ctx, register: number, gears: boolean): void {
  const b = ctx.board;
  const w = b.width;
  const robots = ctx.state.robots;
  const n = robots.length;
  const nl = b.lasers.length;
  // The workspace's scratch, grown as needed: points per robot; per laser, the nearest blocker, its
  // distance + 1 (0: none), the distance of the nearest die (FAR: none); the lasers a robot stands
  // in. The step leaves `hits` and `nearestAt` all 0, so it clears only what it used; a step cut
  // short by an exception leaves them unclean, and the next clears them whole.
  const work = ctx.work;
  if (work.hits.length < n) {
    work.hits = new Int32Array(n);
    work.aim = new Int32Array(n);
  }
  if (work.nearest.length < nl) {
    work.nearest = new Int32Array(nl);
    work.nearestAt = new Int32Array(nl);
    work.dieAtDistance = new Int32Array(nl);
    work.lit = new Int32Array(nl);
  }
  // Without dice or a cube's edges, on a board of at most 32 squares a side and with at most 31
  // robots (`lines`): the real robots' squares a bit each in their row and column, and per robot
  // firing plainly its facing and reach (`gun`), or its position (`spot`) to clear the bits.
  const lines = !ctx.state.dice.length && !b.beyond && w <= 32 && b.height <= 32 && n <= 31;
  if (lines && (work.rowBits.length < b.height || work.colBits.length < w)) {
    work.rowBits = new Int32Array(b.height);
    work.colBits = new Int32Array(w);
  }
  if (work.gun.length < n) {
    work.gun = new Int32Array(n);
    work.spot = new Int32Array(n);
  }
  const { hits, nearest, nearestAt, dieAtDistance, lit, aim, special, weaponShots, rowBits, colBits, gun, spot } = work;
  if (!work.laserScratchClean) {
    hits.fill(0);
    nearestAt.fill(0);
    rowBits.fill(0);
    colBits.fill(0);
  }
  work.laserScratchClean = false;
  work.nspecial = 0;
  const dice = ctx.state.dice;
  const dieHits = dice.length && dice.some((v) => v > 0) ? dice.map(() => 0) : null;
  const { beamFrom, beamLaser, beamDistance } = b;

  // One pass over the robots: where each real robot blocks the board's beams, and what each real,
  // powered-up robot's own laser meets (`aim`), all from where robots stand when the step begins;
  // the shots are dealt after it, board lasers first. A real robot blocks a board beam for real
  // robots (000 L128); each virtual robot is hit as if alone on the board (000 L107; B-27); a die
  // blocks it for all. Blockers are coded robot i as i, the die of flag f as -1 - f.
  // Robot lasers: every real, powered-up robot fires forward at the first real robot in line, as
  // far as the beam reaches; virtual robots neither fire nor are hit (000 L130, L303, L107).
  // Options change the weapon, the beam and the shots (options/weapons.ts): such a robot fires in
  // the second pass (ARMED). Without dice or a cube's edges, the beam's walk is written out here,
  // on the grid and the reach table read once for the step (a call in the loop makes the optimizer
  // read them again).
  let virtuals = false;
  let nlit = 0;
  // The robots a shot reaches, a bit each (the loops after the shots visit only those); with more
  // robots than bits (`wide`) the mask is not read and those loops visit every robot.
  let mask = 0;
  const wide = n > 31;
  if (dieHits) for (let k = 0; k < nl; k++) dieAtDistance[k] = FAR;
  const plain = !dice.length && !b.beyond;
  // A robot's square read from the packed table (`Board.cells`): its site, beams and reach on one cache line.
  const occ = ctx.occ, cells = b.cells;
  // For the checkpoints step after this one (`work.onSites`): the robots on a flag or repair site,
  // a bit each; all robots (-1) once one has option memory or options (their shots may move
  // robots, their flags may be touched from afar).
  let onSites = wide ? -1 : 0;
  // The robots whose `aim` is set, a bit each (the shots' pass visits only those); wide: all, NONE for none.
  let shooters = 0;
  // With `gears`: whether a robot stands on an active pusher or under an active crusher, and the robots on gears.
  const bit = 1 << (register - 1);
  let moving = wide;
  let geared = 0;
  // With `lines`: the real robots on the floor, and those firing their main laser plainly (a bit each).
  let placed = 0, gunners = 0;
  for (let i = 0; i < n; i++) {
    const r = robots[i]!;
    if (wide) aim[i] = NONE;
    if (r.status !== 'active') continue;
    const from = r.y * w + r.x;
    const at = from * 4;
    // The turn its gear gives it (0: none), with `gears`.
    let turn = 0;
    if (gears) {
      const v = cells[at + 1]!;
      if ((v | (v >>> 8)) & bit) moving = true;
      const f = cells[at]! & 255;
      if (f === Floor.GearRight || f === Floor.GearLeft) {
        geared |= 1 << i;
        turn = f === Floor.GearRight ? 1 : 3;
      }
    }
    if (r.opt !== null || r.options.length) onSites = -1;
    else if (cells[at]! >>> 24) onSites |= 1 << i;
    if (r.virtual) {
      virtuals = true;
      continue;
    }
    if (lines) {
      rowBits[r.y] = rowBits[r.y]! | (1 << r.x);
      colBits[r.x] = colBits[r.x]! | (1 << r.y);
      spot[i] = (r.x << 5) | r.y;
      placed |= 1 << i;
    }
    for (let e = cells[at + 3]!, end = cells[at + 7]!; e < end; e++) {
      const k = beamLaser[e]!;
      const dist = beamDistance[e]! + 1;
      const was = nearestAt[k]!;
      if (was === 0) lit[nlit++] = k;
      if (was === 0 || dist < was) (nearestAt[k] = dist), (nearest[k] = i);
    }
    if (r.poweredDown) continue;
    if (r.options.length) {
      aim[i] = ARMED;
      shooters |= 1 << i;
      continue;
    }
    if (lines) {
      const d = (r.dir + turn) & 3;
      gun[i] = (d << 8) | ((cells[at + 2]! >>> (d << 3)) & 255);
      gunners |= 1 << i;
    } else if (plain) {
      const d = (r.dir + turn) & 3;
      const step = d === 0 ? -w : d === 1 ? 1 : d === 2 ? w : -1;
      let c = from;
      for (let s = (cells[at + 2]! >>> (d << 3)) & 255; s > 0; s--) {
        c += step;
        const j = occ[c]!;
        if (j) {
          aim[i] = j - 1;
          shooters |= 1 << i;
          break;
        }
      }
    } else {
      const t = firstInLine(ctx, i, ((r.dir + turn) & 3) as Dir);
      aim[i] = t;
      if (t !== NONE) shooters |= 1 << i;
    }
  }
  // Each plain gunner's target: the nearest bit of its row or column ahead of it, within its reach.
  // Without a branch on its facing or on what it meets (both coin flips for the branch predictor):
  // both ways are reckoned and one kept by masks; `hit` is 1 when the beam meets a robot.
  for (let m = gunners; m; m &= m - 1) {
    const i = 31 - Math.clz32(m & -m);
    const g = gun[i]!, p = spot[i]!;
    const x = p >>> 5, y = p & 31, d = g >>> 8, reach = g & 255;
    // -1 along a row (east, west), 0 along a column; -1 going east or south (away from 0), 0 else.
    const row = -(d & 1), fwd = -(((d + 1) >> 1) & 1);
    const along = (x & row) | (y & ~row);
    const line = (rowBits[y]! & row) | (colBits[x]! & ~row);
    const ahead = (line >>> (along + 1)) & ((1 << reach) - 1);
    const behind = line & ((1 << along) - 1) & ~((1 << (along - reach)) - 1);
    const bits = (ahead & fwd) | (behind & ~fwd);
    const to = ((along + 32 - Math.clz32(ahead & -ahead)) & fwd) | ((31 - Math.clz32(behind)) & ~fwd);
    const hit = (bits | -bits) >>> 31;
    aim[i] = occ[(((y * w + to) & row) | ((to * w + x) & ~row)) & -hit]! - 1;
    shooters |= hit << i;
  }
  for (let m = placed; m; m &= m - 1) {
    const p = spot[31 - Math.clz32(m & -m)]!;
    rowBits[p & 31] = 0;
    colBits[p >>> 5] = 0;
  }
  if (gears) {
    if (moving) {
      // Someone is pushed or crushed: the look is undone, and the steps run in turn.
      for (let a = 0; a < nlit; a++) nearestAt[lit[a]!] = 0;
      work.laserScratchClean = true;
      pushersGearsCrushers(ctx, register);
      laserStep(ctx, register, false);
      return;
    }
    for (; geared; geared &= geared - 1) {
      const i = 31 - Math.clz32(geared & -geared);
      const r = robots[i]!;
      onGear(ctx, i, (cells[(r.y * w + r.x) * 4]! & 255) as Floor);
    }
  }
  // The dice of the Dice Rule block board beams after the robots.
  for (let f = 0; dieHits && f < dice.length; f++) {
    if (!(dice[f]! > 0)) continue;
    const c = b.flags[f]![1] * w + b.flags[f]![0];
    for (let e = beamFrom[c]!, end = beamFrom[c + 1]!; e < end; e++) {
      const k = beamLaser[e]!;
      const at = beamDistance[e]! + 1;
      const was = nearestAt[k]!;
      if (was === 0) lit[nlit++] = k;
      if (was === 0 || at < was) (nearestAt[k] = at), (nearest[k] = -1 - f);
      if (beamDistance[e]! < dieAtDistance[k]!) dieAtDistance[k] = beamDistance[e]!;
    }
  }

  // Board lasers. The lasers that meet a blocker, in laser order (the order of their shots): a few
  // at most, so an insertion sort, instead of two passes over every laser of the board.
  for (let a = 1; a < nlit; a++) {
    const k = lit[a]!;
    let j = a - 1;
    for (; j >= 0 && lit[j]! > k; j--) lit[j + 1] = lit[j]!;
    lit[j + 1] = k;
  }
  for (let a = 0; a < nlit; a++) {
    const k = lit[a]!;
    nearestAt[k] = 0;
    const l = b.lasers[k]!;
    const who = nearest[k]!;
    if (who < 0) dieHits![-1 - who]! += l.beams;
    else {
      boardHit(ctx, who, k, register);
      mask |= 1 << who;
    }
  }
  for (let i = 0; nl && virtuals && i < n; i++) {
    const r = robots[i]!;
    if (r.status !== 'active' || !r.virtual) continue;
    const c = r.y * w + r.x;
    for (let e = beamFrom[c]!, end = beamFrom[c + 1]!; e < end; e++) {
      const k = beamLaser[e]!;
      // Only a die nearer the mount stands between a virtual robot and the beam, whatever real
      // robot stands nearer still (RULES.md Settings, `diceRule`: "it stops every beam, the beams
      // of and for virtual robots too").
      if (dieHits && dieAtDistance[k]! < beamDistance[e]!) continue;
      boardHit(ctx, i, k, register);
      mask |= 1 << i;
    }
  }

  // The robots' shots, in robot order: those whose beam met something, or who fire later (ARMED).
  for (let i = 0, m = shooters; i < n; i++) {
    if (!wide) {
      if (!m) break;
      i = 31 - Math.clz32(m & -m);
      m &= m - 1;
    }
    const target = aim[i]!;
    if (target === NONE) continue;
    if (target === ARMED) {
      armedFire(ctx, i, register, dieHits);
      continue;
    }
    if (target < 0) {
      dieHits![-1 - target]! += 1;
      continue;
    }
    const r = robots[i]!;
    const t = robots[target]!;
    if (t.options.length) {
      pend(work, target, 1, r.dir, i, 'main', register);
      continue;
    }
    hits[target]! += 1;
    mask |= 1 << target;
    ctx.events?.push({ type: 'shot', robot: target, by: { robot: i }, points: 1, from: boardSquare(r.x, r.y), to: boardSquare(t.x, t.y) });
  }

  // All damage together (B-28), then destruction, then the weapons that move robots (1.4). The
  // robots hit are visited from the bit mask, lowest first (robot order); past 31 robots, all.
  const nspecial = work.nspecial;
  let hit = nspecial > 0;
  for (let i = 0, m = mask; i < n; i++) {
    if (!wide) {
      if (!m) break;
      i = 31 - Math.clz32(m & -m);
      m &= m - 1;
    }
    if (!hits[i]) continue;
    hit = true;
    damage(ctx, i, hits[i]!);
  }
  for (let k = 0; k < nspecial; k++) {
    const s = special[k]!;
    const r = robots[s.target]!;
    if (s.shooter >= 0) {
      const from = robots[s.shooter]!;
      // One literal per form: a spread of an optional part made two more objects a shot.
      if (ctx.events)
        ctx.events.push(s.weapon === 'main'
          ? { type: 'shot', robot: s.target, by: { robot: s.shooter }, points: s.points, from: boardSquare(from.x, from.y), to: boardSquare(r.x, r.y) }
          : { type: 'shot', robot: s.target, by: { robot: s.shooter }, points: s.points, from: boardSquare(from.x, from.y), to: boardSquare(r.x, r.y), weapon: s.weapon as WeaponName });
    }
    hurt(ctx, s.target, s.points, s);
    hits[s.target] = 1;
    mask |= 1 << s.target;
  }
  // 1.4: when effects change one register's card, Radio Control's copy comes first and a Scrambler's
  // card wins over it, whatever the order of the shooters.
  if (weaponShots.length > 1) weaponShots.sort((a, b) => +(b.weapon === 'Radio Control') - +(a.weapon === 'Radio Control'));
  for (const w of weaponShots) weaponHits(ctx, w, register);
  for (let f = 0; dieHits && f < dieHits.length; f++) if (dieHits[f]) damageDie(ctx, f, dieHits[f]!);
  for (let i = 0, m = mask; hit && i < n; i++) {
    if (!wide) {
      if (!m) break;
      i = 31 - Math.clz32(m & -m);
      m &= m - 1;
    }
    if (!hits[i]) continue;
    hits[i] = 0;
    destroyIfWrecked(ctx, i);
  }
  work.laserScratchClean = true;
  work.onSites = onSites;
  if (weaponShots.length) weaponMoves(ctx, byShooterRank(ctx, weaponShots, register));
  // Emptied only when used: setting an array's length is a call into the runtime. The pending
  // shots stay, for the next step to refill.
  work.nspecial = 0;
  if (weaponShots.length) weaponShots.length = 0;
}

/**
 * The weapons that move robots, in the rule set's order of their shooters (highest first). Its
 * own function: a closure in `lasers` over the call's context and register made V8 allocate a
 * context for them on every call of the step.
 */
function byShooterRank(ctx: Ctx, shots: readonly WeaponShot[], register: number): WeaponShot[] {
  const rank = (s: WeaponShot) => ctx.rules.shooterRank(ctx, s.shooter, register);
  return shots.slice().sort((a, b) => rank(b) - rank(a));
}

const NONE = 0x7fffffff;
/** In `aim`: a robot with options, which fires in the second pass (`armedFire`). */
const ARMED = 0x7ffffffe;

/** Board laser k hits robot i: one shot per beam (a robot with options meets them one by one). */
function boardHit(ctx: Ctx, i: number, k: number, register: number): void {
  const l = ctx.board.lasers[k]!;
  const r = ctx.state.robots[i]!;
  ctx.events?.push({ type: 'shot', robot: i, by: { laser: k }, points: l.beams, from: boardSquare(l.x, l.y), to: boardSquare(r.x, r.y) });
  if (r.options.length) pend(ctx.work, i, l.beams, l.dir, -1, 'board', register);
  else ctx.work.hits[i]! += l.beams;
}

/** A shot for the robot with options `target`, in the workspace's next pending shot (made on first need). */
function pend(work: Workspace, target: number, points: number, dir: Dir, shooter: number, weapon: Hit['weapon'], register: number): void {
  const s = work.special[work.nspecial++];
  if (!s) {
    work.special.push({ target, points, dir, shooter, weapon, register });
    return;
  }
  s.target = target;
  s.points = points;
  s.dir = dir;
  s.shooter = shooter;
  s.weapon = weapon;
  s.register = register;
}

/**
 * The first thing a robot's beam meets in direction d, as far as it reaches: a real robot (its
 * index), a die of the Dice Rule (-1 - flag), or NONE. The beam walks its few cells on the
 * occupancy grid, which holds exactly the real robots; comparing every robot with every other was
 * a third of this step.
 */
function firstInLine(ctx: Ctx, i: number, d: Dir): number {
  const b = ctx.board;
  const w = b.width;
  const r = ctx.state.robots[i]!;
  const dice = ctx.state.dice;
  const step = dy(d) * w + dx(d);
  const occ = ctx.occ;
  const anyDice = dice.length > 0;
  const from = r.y * w + r.x;
  let c = from;
  for (let s = b.reach[c * 4 + d]!; s > 0; s--) {
    c += step;
    const j = occ[c]!;
    if (j) return j - 1;
    if (anyDice) {
      const f = b.flagAt[c]! - 1;
      if (f >= 0 && dice[f]! > 0) return -1 - f;
    }
  }
  // Inside a cube, the beam goes on over the board edge into the first row across (004 L179).
  const over = b.beyond ? b.beyond[from * 4 + d]! : -1;
  if (over >= 0) {
    if (occ[over]) return occ[over]! - 1;
    const f = anyDice ? b.flagAt[over]! - 1 : -1;
    if (f >= 0 && dice[f]! > 0) return -1 - f;
  }
  return NONE;
}

/**
 * A robot with options fires: an optional weapon instead of its main laser if one is chosen and can
 * act (1.4); else the main laser, two shots with Double-Barreled (2.7, B-34), through one obstacle
 * with High-Power (2.14); and the Rear-Firing Laser backwards (2.21).
 */
function armedFire(ctx: Ctx, i: number, register: number, dieHits: number[] | null): void {
  const r = ctx.state.robots[i]!;
  const work = ctx.work;
  const weapon = chosenWeapon(ctx, i, register);
  const ahead = firstInLine(ctx, i, r.dir);
  const highPower = holds(r, 'High-Power Laser');
  // pbem's switched-on beam goes with every shot of the robot (OPTIONS.md part 3), a High-Power one
  // through a wall too; classic's optional weapon replaces the main laser, which alone High-Power mods.
  // The High-Power beam's targets, walked once a shot: kept for the main laser below if the weapon
  // does not act (`work.pierced` holds them until the next walk; nothing between walks a beam).
  let pierced: readonly number[] | null = null;
  const aimed = weapon && highPower && ctx.rules.options.toggles ? firstRobot((pierced = piercingTargets(ctx, i, r.dir))) : ahead;
  let main = true;
  if (weapon && aimed !== NONE && aimed >= 0) {
    const t = ctx.state.robots[aimed]!;
    if (weaponApplies(ctx, weapon, i, aimed, register)) {
      main = false;
      work.weaponShots.push({ shooter: i, target: aimed, weapon, dir: r.dir });
      if (weapon === 'Mini Howitzer') pend(work, aimed, 1, r.dir, i, weapon, register);
      else ctx.events?.push({ type: 'shot', robot: aimed, by: { robot: i }, points: 0, from: boardSquare(r.x, r.y), to: boardSquare(t.x, t.y), weapon });
    }
  }
  // An option that changes a shot that hits is used: its points or its beam are seen (Secret Options).
  if (main) {
    const double = ctx.rules.options.doubleBarreled;
    const shots = holds(r, double) ? 2 : 1;
    let hit = false;
    if (highPower) for (const t of pierced ?? piercingTargets(ctx, i, r.dir)) hit = fire(ctx, i, t, r.dir, shots, 'main', register, dieHits) || hit;
    else hit = fire(ctx, i, ahead, r.dir, shots, 'main', register, dieHits);
    if (hit && highPower) used(ctx, i, 'High-Power Laser');
    if (hit && shots === 2) used(ctx, i, double);
  }
  if (holds(r, 'Rear-Firing Laser')) {
    const back = reverse(r.dir);
    if (fire(ctx, i, firstInLine(ctx, i, back), back, 1, 'rear', register, dieHits)) used(ctx, i, 'Rear-Firing Laser');
  }
}

/**
 * Robot i's laser meets `target` (a robot, a die as -1 - flag, or NONE) with `shots` points. Its
 * own function, not a closure in `armedFire`: that cost a context and a function on every call.
 * True when it met something.
 */
function fire(ctx: Ctx, i: number, target: number, d: Dir, shots: number, weapon: 'main' | 'rear', register: number, dieHits: number[] | null): boolean {
  if (target === NONE) return false;
  if (target < 0) dieHits![-1 - target]! += shots;
  else pend(ctx.work, target, shots, d, i, weapon, register);
  return true;
}

/** The first robot of a High-Power beam's targets (dice are -1 - flag), or NONE. */
function firstRobot(targets: readonly number[]): number {
  for (const t of targets) if (t >= 0) return t;
  return NONE;
}
