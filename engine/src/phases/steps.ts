/** The steps of a register phase, by name; each rule set lists them in its own order. */
import type { RegisterStep } from '../rules/ruleset.js';
import { allBelts, beltStep, expressBelts, expressThenAllBelts } from './belts.js';
import { checkpoints, checkpointsAfterLasers } from './checkpoints.js';
import { crushers } from './crushers.js';
import { gears, gearsThenCrushers, pushersGearsCrushers } from './gears.js';
import { lasers, pushersGearsCrushersLasers } from './lasers.js';
import { pushers } from './pushers.js';
import { robotsMove } from './program.js';
import type { Ctx } from '../context.js';
import { newRegister } from '../options/damage.js';
import { newRegisterRams } from '../options/movement.js';

export const STEPS = {
  robotsMove: { name: 'robots move', run: robotsMove },
  expressBelts: { name: 'express belts', run: expressBelts },
  allBelts: { name: 'all belts', run: allBelts },
  pushers: { name: 'pushers', run: pushers },
  gears: { name: 'gears', run: gears },
  crushers: { name: 'crushers', run: crushers },
  lasers: { name: 'lasers', run: lasers },
  checkpoints: { name: 'checkpoints', run: checkpoints },
} as const satisfies Record<string, RegisterStep>;

/** Before a register's steps: nothing has pushed anyone yet, shields are up, nobody has rammed. */
export function startRegister(ctx: Ctx): void {
  const pushedBy = ctx.pushedBy;
  for (let i = 0; i < pushedBy.length; i++) pushedBy[i] = null; // a loop: fill() costs a builtin call
  newRegister(ctx);
  newRegisterRams(ctx);
}

/**
 * Runs a rule set's register steps in its order. The steps of `STEPS` are called by name, not
 * through `step.run`: one call site for eight functions is a megamorphic call the optimizer can
 * neither inline nor call directly, and it was a tenth of a turn's time in the CPU profile. Steps
 * that follow each other in this order run merged, with fewer looks at the robots: classic's
 * express and all belts, pushers with gears, crushers and lasers (both rule sets), pushers with
 * gears and crushers, gears with crushers; the checkpoints after the lasers visit only the robots
 * the laser step found on a site.
 */
export function runSteps(ctx: Ctx, steps: readonly RegisterStep[], register: number): void {
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s]!;
    if (step === STEPS.robotsMove) robotsMove(ctx, register);
    else if (step === STEPS.expressBelts) {
      if (steps[s + 1] === STEPS.allBelts) {
        expressThenAllBelts(ctx);
        s++;
      } else beltStep(ctx, true);
    }
    else if (step === STEPS.allBelts) beltStep(ctx, false);
    else if (step === STEPS.pushers) {
      if (steps[s + 1] === STEPS.gears && steps[s + 2] === STEPS.crushers && steps[s + 3] === STEPS.lasers) {
        pushersGearsCrushersLasers(ctx, register);
        s += 3;
        if (steps[s + 1] === STEPS.checkpoints) {
          checkpointsAfterLasers(ctx);
          s++;
        }
      } else if (steps[s + 1] === STEPS.gears && steps[s + 2] === STEPS.crushers) {
        pushersGearsCrushers(ctx, register);
        s += 2;
      } else pushers(ctx, register);
    }
    else if (step === STEPS.gears) {
      if (steps[s + 1] === STEPS.crushers) {
        gearsThenCrushers(ctx, register);
        s++;
      } else gears(ctx);
    }
    else if (step === STEPS.crushers) crushers(ctx, register);
    else if (step === STEPS.lasers) {
      lasers(ctx, register);
      if (steps[s + 1] === STEPS.checkpoints) {
        checkpointsAfterLasers(ctx);
        s++;
      }
    }
    else if (step === STEPS.checkpoints) checkpoints(ctx);
    else step.run(ctx, register);
  }
}
