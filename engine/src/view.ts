/**
 * What a seat may see of a race: the floor, the robots and everything revealed, its own hand and
 * program; of the others not their hands, not their programs of the turn (only locked registers lie
 * face up, 000 L109), not a card stored on a Flywheel (2.11) and, under Secret Options (004 L188,
 * "kept face-down until used"), not an option they have not used yet.
 */
import type { Setup } from './context.js';
import { optionName } from './options/catalog.js';
import { cloneState, type GameState, type RobotState } from './state.js';

/** The options of robot r the others have seen: all of them, or under Secret Options only those it has used. */
export function optionsSeen(r: RobotState, secret: boolean): readonly string[] {
  return secret ? r.options.filter((o) => r.opt?.shown.includes(optionName(o))) : r.options;
}

/**
 * The state as `seat` may see it (a bot decides on it): the others' hands, open registers, this
 * turn's option decisions and pieces of program (joined, set aside, on the Flywheel) taken away,
 * and under Secret Options their options not yet used. Everything public is kept as it is.
 */
export function seatState(setup: Setup, st: GameState, seat: number): GameState {
  const out = cloneState(st);
  const secret = !!setup.settings.secretOptions;
  out.robots.forEach((r, i) => {
    if (i === seat) return;
    r.hand = [];
    for (let k = 0; k < 5; k++) if (!(r.locked & (1 << k))) r.registers[k] = 0;
    r.options = optionsSeen(r, secret).slice();
    if (r.opt) {
      r.opt.choices = {};
      r.opt.flywheel = 0;
      r.opt.aside = 0;
      for (let k = 0; k < 5; k++) if (!(r.locked & (1 << k))) r.opt.joined[k] = 0;
    }
  });
  return out;
}
