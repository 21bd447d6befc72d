/**
 * What a seat may see of a race: the floor, the robots and everything revealed, its own hand and
 * program; of the others not their hands, not their programs of the turn (only locked registers lie
 * face up, 000 L109), not a card stored on a Flywheel (2.11) and, under Secret Options (004 L188,
 * "kept face-down until used"), not an option they have not used yet.
 */
import type { Card } from './cards.js';
import type { Setup } from './context.js';
import { optionName } from './options/catalog.js';
import { rngFromWords, shuffle } from './rng.js';
import { cloneState, type GameState, type RobotState } from './state.js';

/** The options of robot r the others have seen: all of them, or under Secret Options only those it has used. */
export function optionsSeen(r: RobotState, secret: boolean): readonly string[] {
  return secret ? r.options.filter((o) => r.opt?.shown.includes(optionName(o))) : r.options;
}

/**
 * The state as `seat` may see it (a bot decides on it): the others' hands, open registers, this
 * turn's option decisions and pieces of program (joined, set aside, on the Flywheel) taken away,
 * and under Secret Options their options not yet used. What nobody sees is not given either: the
 * undealt cards become every card the seat cannot place (the deck, the discard and the others'
 * cards taken away, in card order; pbem draws none of them), the option deck every option card it
 * cannot place, in an order of no meaning, and the generator (whose state foretells the next deal
 * and every draw) one made from the turn, the register and the seat. Everything public is kept as
 * it is.
 */
export function seatState(setup: Setup, st: GameState, seat: number): GameState {
  const out = cloneState(st);
  const secret = !!setup.settings.secretOptions;
  const unseen: Card[] = [...st.deck, ...st.discard];
  const unseenOptions: string[] = [...st.optionDeck];
  const hide = (c: Card) => {
    if (c) unseen.push(c);
    return 0;
  };
  out.robots.forEach((r, i) => {
    if (i === seat) return;
    r.hand.forEach(hide);
    r.hand = [];
    for (let k = 0; k < 5; k++) if (!(r.locked & (1 << k))) r.registers[k] = hide(r.registers[k]!);
    const seen = optionsSeen(r, secret);
    for (const o of r.options) if (!seen.includes(o)) unseenOptions.push(optionName(o));
    r.options = seen.slice();
    if (r.opt) {
      r.opt.choices = {};
      r.opt.flywheel = hide(r.opt.flywheel);
      r.opt.aside = hide(r.opt.aside);
      for (let k = 0; k < 5; k++) if (!(r.locked & (1 << k))) r.opt.joined[k] = hide(r.opt.joined[k]!);
    }
  });
  out.rng = rngFromWords([st.turn >>> 0, st.register >>> 0, seat >>> 0]);
  out.deck = unseen.sort((a, b) => a - b);
  out.discard = [];
  out.optionDeck = shuffle(out.rng, unseenOptions.sort());
  return out;
}
