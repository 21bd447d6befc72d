/** The steps of a register phase, by name; each rule set lists them in its own order. */
import type { RegisterStep } from '../rules/ruleset.js';
import { allBelts, expressBelts } from './belts.js';
import { checkpoints } from './checkpoints.js';
import { crushers } from './crushers.js';
import { gears } from './gears.js';
import { lasers } from './lasers.js';
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
