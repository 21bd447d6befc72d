/** Board lasers and robot lasers fire together (RULES.md "Lasers"). */
import { hasFloor, wallAt } from '../board.js';
import type { Ctx } from '../context.js';
import { DX, DY } from '../geometry.js';
import { damage, destroyIfWrecked } from '../robots.js';
import { damageDie, dieAt } from '../dice.js';

const hits: number[] = [];

/**
 * Every beam is traced from where robots stand when the step begins; damage is dealt together and
 * only then are robots destroyed (B-28). One point per beam (000 L128; B-29).
 */
export function lasers(ctx: Ctx): void {
  const b = ctx.board;
  const w = b.width;
  const robots = ctx.state.robots;
  hits.length = robots.length;
  hits.fill(0);
  const dieHits = ctx.state.dice.map(() => 0);
  let virtuals = 0;
  for (const r of robots) if (r.status === 'active' && r.virtual) virtuals++;

  // Board lasers: the first real robot in the beam blocks it for real robots (000 L128); each
  // virtual robot is hit as if alone on the board (000 L107; B-27). Walls stop every beam.
  for (let k = 0; k < b.lasers.length; k++) {
    const l = b.lasers[k]!;
    let x = l.x, y = l.y;
    let realHit = false;
    for (;;) {
      const die = dieAt(ctx, x, y);
      if (die >= 0) {
        dieHits[die]! += l.beams; // a die blocks the beam like a robot, for every robot behind it
        break;
      }
      if (!realHit) {
        const j = ctx.occ[y * w + x]!;
        if (j) {
          hits[j - 1]! += l.beams;
          realHit = true;
          ctx.events?.push({ type: 'shot', robot: j - 1, by: { laser: k }, points: l.beams, from: [l.x, l.y], to: [x, y] });
        }
      }
      if (virtuals) {
        for (let i = 0; i < robots.length; i++) {
          const r = robots[i]!;
          if (r.status === 'active' && r.virtual && r.x === x && r.y === y) {
            hits[i]! += l.beams;
            ctx.events?.push({ type: 'shot', robot: i, by: { laser: k }, points: l.beams, from: [l.x, l.y], to: [x, y] });
          }
        }
      } else if (realHit) break;
      if (wallAt(b, x, y, l.dir)) break;
      x += DX[l.dir]!;
      y += DY[l.dir]!;
      if (!hasFloor(b, x, y)) break;
    }
  }

  // Robot lasers: every real, powered-up robot fires forward at the first real robot in line;
  // virtual robots neither fire nor are hit (000 L130, L303, L107).
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status !== 'active' || r.virtual || r.poweredDown) continue;
    const d = r.dir;
    let x = r.x, y = r.y;
    for (;;) {
      if (wallAt(b, x, y, d)) break;
      x += DX[d]!;
      y += DY[d]!;
      if (!hasFloor(b, x, y)) break;
      const die = dieAt(ctx, x, y);
      if (die >= 0) {
        dieHits[die]! += 1;
        break;
      }
      const j = ctx.occ[y * w + x]!;
      if (j) {
        hits[j - 1]! += 1;
        ctx.events?.push({ type: 'shot', robot: j - 1, by: { robot: i }, points: 1, from: [r.x, r.y], to: [x, y] });
        break;
      }
    }
  }

  for (let i = 0; i < robots.length; i++) if (hits[i]) damage(ctx, i, hits[i]!);
  dieHits.forEach((points, f) => points && damageDie(ctx, f, points));
  for (let i = 0; i < robots.length; i++) if (hits[i]) destroyIfWrecked(ctx, i);
}
