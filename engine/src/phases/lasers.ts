/** Board lasers and robot lasers fire together (RULES.md "Lasers"). */
import type { Ctx } from '../context.js';
import { DX, DY } from '../geometry.js';
import { damage, destroyIfWrecked } from '../robots.js';
import { damageDie, dieAt } from '../dice.js';

/** Scratch, grown as needed: points per robot; per laser, the nearest blocker and its distance. */
let hits = new Int32Array(8);
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
  const dieHits = dice.some((v) => v > 0) ? dice.map(() => 0) : null;
  const { beamFrom, beamLaser, beamDistance } = b;

  // Board lasers. A real robot blocks the beam for real robots (000 L128); each virtual robot is
  // hit as if alone on the board (000 L107; B-27); a die blocks it for all. Blockers are coded
  // robot i as i, the die of flag f as -1 - f.
  if (nl) {
    nearestAt.fill(FAR, 0, nl);
    const block = (c: number, who: number) => {
      for (let e = beamFrom[c]!, end = beamFrom[c + 1]!; e < end; e++) {
        const k = beamLaser[e]!;
        if (beamDistance[e]! < nearestAt[k]!) (nearestAt[k] = beamDistance[e]!), (nearest[k] = who);
      }
    };
    for (let i = 0; i < n; i++) {
      const r = robots[i]!;
      if (r.status === 'active' && !r.virtual) block(r.y * w + r.x, i);
    }
    if (dieHits) dice.forEach((left, f) => left > 0 && block(b.flags[f]![1] * w + b.flags[f]![0], -1 - f));
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

  // Robot lasers: every real, powered-up robot fires forward at the first real robot in line;
  // virtual robots neither fire nor are hit (000 L130, L303, L107).
  for (let i = 0; i < n; i++) {
    const r = robots[i]!;
    if (r.status !== 'active' || r.virtual || r.poweredDown) continue;
    const step = DY[r.dir]! * w + DX[r.dir]!;
    let c = r.y * w + r.x;
    for (let s = b.reach[c * 4 + r.dir]!; s > 0; s--) {
      c += step;
      if (dieHits) {
        const die = dieAt(ctx, c % w, (c - (c % w)) / w);
        if (die >= 0) {
          dieHits[die]! += 1;
          break;
        }
      }
      const j = ctx.occ[c]!;
      if (j) {
        hits[j - 1]! += 1;
        ctx.events?.push({ type: 'shot', robot: j - 1, by: { robot: i }, points: 1, from: [r.x, r.y], to: [c % w, (c - (c % w)) / w] });
        break;
      }
    }
  }

  for (let i = 0; i < n; i++) if (hits[i]) damage(ctx, i, hits[i]!);
  dieHits?.forEach((points, f) => points && damageDie(ctx, f, points));
  for (let i = 0; i < n; i++) if (hits[i]) destroyIfWrecked(ctx, i);
}
