/** Board lasers and robot lasers fire together (RULES.md "Lasers"). */
import type { Ctx } from '../context.js';
import { damage, destroyIfWrecked } from '../robots.js';
import { damageDie } from '../dice.js';

/** Scratch, grown as needed: points per robot; per laser, the nearest blocker and its distance. */
let hits = new Int32Array(8);

/** How many squares ahead of (x, y) facing d the square (tx, ty) lies, or 0 if not straight ahead. */
function inLine(x: number, y: number, d: number, tx: number, ty: number): number {
  switch (d) {
    case 0: return tx === x && ty < y ? y - ty : 0;
    case 1: return ty === y && tx > x ? tx - x : 0;
    case 2: return tx === x && ty > y ? ty - y : 0;
    default: return ty === y && tx < x ? x - tx : 0;
  }
}
let nearest = new Int32Array(8);
let nearestAt = new Int32Array(8);
const FAR = 0x7fffffff;

/**
 * Every beam is traced from where robots stand when the step begins; damage is dealt together and
 * only then are robots destroyed (B-28). One point per beam (000 L128; B-29). Board beams reach as
 * the board's cover table says (to the first wall, edge or hole); the Dice Rule's dice stop beams
 * like robots do.
 */
export function lasers(ctx: Ctx): void {
  const b = ctx.board;
  const w = b.width;
  const robots = ctx.state.robots;
  const n = robots.length;
  const nl = b.lasers.length;
  if (hits.length < n) hits = new Int32Array(n);
  if (nearest.length < nl) (nearest = new Int32Array(nl)), (nearestAt = new Int32Array(nl));
  hits.fill(0, 0, n);
  const dice = ctx.state.dice;
  const dieHits = dice.length && dice.some((v) => v > 0) ? dice.map(() => 0) : null;
  const { beamFrom, beamLaser, beamDistance } = b;

  // Board lasers. A real robot blocks the beam for real robots (000 L128); each virtual robot is
  // hit as if alone on the board (000 L107; B-27); a die blocks it for all. Blockers are coded
  // robot i as i, the die of flag f as -1 - f.
  if (nl) {
    nearestAt.fill(FAR, 0, nl);
    // Robots 0..n-1, then the dice as n..n+dice-1.
    const blockers = n + (dieHits ? dice.length : 0);
    for (let q = 0; q < blockers; q++) {
      let c: number;
      let who: number;
      if (q < n) {
        const r = robots[q]!;
        if (r.status !== 'active' || r.virtual) continue;
        c = r.y * w + r.x;
        who = q;
      } else {
        const f = q - n;
        if (!(dice[f]! > 0)) continue;
        c = b.flags[f]![1] * w + b.flags[f]![0];
        who = -1 - f;
      }
      for (let e = beamFrom[c]!, end = beamFrom[c + 1]!; e < end; e++) {
        const k = beamLaser[e]!;
        if (beamDistance[e]! < nearestAt[k]!) (nearestAt[k] = beamDistance[e]!), (nearest[k] = who);
      }
    }
    for (let k = 0; k < nl; k++) {
      if (nearestAt[k] === FAR) continue;
      const l = b.lasers[k]!;
      const who = nearest[k]!;
      if (who < 0) dieHits![-1 - who]! += l.beams;
      else {
        hits[who]! += l.beams;
        const r = robots[who]!;
        ctx.events?.push({ type: 'shot', robot: who, by: { laser: k }, points: l.beams, from: [l.x, l.y], to: [r.x, r.y] });
      }
    }
    for (let i = 0; i < n; i++) {
      const r = robots[i]!;
      if (r.status !== 'active' || !r.virtual) continue;
      const c = r.y * w + r.x;
      for (let e = beamFrom[c]!, end = beamFrom[c + 1]!; e < end; e++) {
        const k = beamLaser[e]!;
        // Only a die nearer the mount stands between a virtual robot and the beam.
        if (nearestAt[k] !== FAR && nearest[k]! < 0 && nearestAt[k]! < beamDistance[e]!) continue;
        const l = b.lasers[k]!;
        hits[i]! += l.beams;
        ctx.events?.push({ type: 'shot', robot: i, by: { laser: k }, points: l.beams, from: [l.x, l.y], to: [r.x, r.y] });
      }
    }
  }

  // Robot lasers: every real, powered-up robot fires forward at the first real robot in line,
  // as far as the beam reaches; virtual robots neither fire nor are hit (000 L130, L303, L107).
  for (let i = 0; i < n; i++) {
    const r = robots[i]!;
    if (r.status !== 'active' || r.virtual || r.poweredDown) continue;
    const d = r.dir;
    let best = b.reach[(r.y * w + r.x) * 4 + d]! + 1;
    let target = -1;
    for (let j = 0; j < n; j++) {
      const o = robots[j]!;
      if (j === i || o.status !== 'active' || o.virtual) continue;
      const ahead = inLine(r.x, r.y, d, o.x, o.y);
      if (ahead > 0 && ahead < best) (best = ahead), (target = j);
    }
    if (dieHits) {
      let die = -1;
      dice.forEach((left, f) => {
        const ahead = left > 0 ? inLine(r.x, r.y, d, b.flags[f]![0], b.flags[f]![1]) : 0;
        if (ahead > 0 && ahead < best) (best = ahead), (die = f);
      });
      if (die >= 0) {
        dieHits[die]! += 1;
        continue;
      }
    }
    if (target < 0) continue;
    const t = robots[target]!;
    hits[target]! += 1;
    ctx.events?.push({ type: 'shot', robot: target, by: { robot: i }, points: 1, from: [r.x, r.y], to: [t.x, t.y] });
  }

  for (let i = 0; i < n; i++) if (hits[i]) damage(ctx, i, hits[i]!);
  dieHits?.forEach((points, f) => points && damageDie(ctx, f, points));
  for (let i = 0; i < n; i++) if (hits[i]) destroyIfWrecked(ctx, i);
}
