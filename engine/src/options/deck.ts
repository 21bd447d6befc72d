/**
 * The option deck of classic (OPTIONS.md 1.1): shuffled once with the seed, each card once; drawn
 * at two-wrench sites and chop shops; and the FAQ's house rules about getting options (004 L185-188).
 */
import { Floor } from '../board.js';
import type { Ctx } from '../context.js';
import { repair } from '../robots.js';
import { shuffle } from '../rng.js';
import type { GameState } from '../state.js';
import { OPTION_CARDS, optionName, usesLeft } from './catalog.js';
import { hurt } from './damage.js';
import { discard, gain, mayGain, memory, used } from './held.js';

/** The deck a classic race starts with: the `optionDeck` setting's order first, the rest shuffled;
 *  cards robots already hold are not in it (1.1). */
export function buildOptionDeck(st: GameState, first: readonly string[] = []): string[] {
  const held = new Set(st.robots.flatMap((r) => r.options.map(optionName)));
  const top = first.filter((o) => !held.has(o));
  const rest = OPTION_CARDS.filter((o) => !held.has(o) && !top.includes(o));
  return [...top, ...shuffle(st.rng, rest)];
}

/**
 * Robot i draws the top option card, if any is left (1.1 "If the deck is empty, the robot repairs 2
 * instead"). Installing Options (004 L185): it first takes a point per option it already holds.
 */
export function drawOption(ctx: Ctx, i: number): boolean {
  const st = ctx.state;
  if (!mayGain(ctx, i)) return false;
  const option = takeOption(ctx);
  if (option === undefined) return false;
  const r = st.robots[i]!;
  if (ctx.setup.settings.installingOptions && r.options.length) hurt(ctx, i, r.options.length, null);
  gain(ctx, i, option);
  ctx.events?.push({ type: 'optionDrawn', robot: i, option });
  return true;
}

/**
 * classic end of turn on a two-wrench site (000 L102, L188): repair 2, or with `takeOption` draw an
 * option; a conditional order decides by the damage it ends the turn with (003 L75 "If I finish on
 * 2 spanner repair & damage > 3 repair, else take option card"). No Sit-and-Spin (004 L185): no
 * second option before the robot has touched another repair site; a robot refused repairs instead.
 */
export function twoWrenchSite(ctx: Ctx, i: number): void {
  const r = ctx.state.robots[i]!;
  const site = r.opt?.optionSite;
  const sitting = ctx.setup.settings.noSitAndSpin && site != null;
  const order = r.opt?.choices.takeOption;
  const wants =
    order === undefined ? r.takeOption
    : typeof order === 'boolean' ? order
    : 'ifDamageAtMost' in order ? r.damage <= order.ifDamageAtMost
    : r.damage >= order.ifDamageAtLeast;
  if (wants && !sitting && drawOption(ctx, i)) {
    if (ctx.setup.settings.noSitAndSpin) memory(r).optionSite = [r.x, r.y];
    return;
  }
  repair(ctx, i, ctx.rules.repair.doubleWrench, 'wrench');
}

/** No Sit-and-Spin: touching a repair site other than the one of its last option frees the robot. */
export function touchedRepairSite(ctx: Ctx, i: number): void {
  const m = ctx.state.robots[i]!.opt;
  if (m?.optionSite && (m.optionSite[0] !== ctx.state.robots[i]!.x || m.optionSite[1] !== ctx.state.robots[i]!.y)) m.optionSite = null;
}

/**
 * The top card of the option deck, taken off. The deck is replaced, not changed in place: copies of
 * a state share it (state.ts `copyState`), and it changes seldom (a draw at a two-wrench site).
 */
function takeOption(ctx: Ctx): string | undefined {
  const st = ctx.state;
  const option = st.optionDeck[0];
  if (option !== undefined) st.optionDeck = st.optionDeck.slice(1);
  return option;
}

/** One Free Option (004 L188): each robot draws an option at the start of the race. */
export function freeOptions(ctx: Ctx): void {
  for (let i = 0; i < ctx.state.robots.length; i++) {
    if (!mayGain(ctx, i)) continue;
    const option = takeOption(ctx);
    if (option === undefined) return;
    const r = ctx.state.robots[i]!;
    r.options = [...r.options, option]; // replaced: copies of a state share it
    ctx.events?.push({ type: 'optionDrawn', robot: i, option });
  }
}

/**
 * Chop shop (003 L99-102): a robot ending a register there may scrap an option for a new draw or
 * recharge one (Mini Howitzer back to 5 uses, Ablative Coat to 3, [def]); at the end of a turn it
 * may instead draw an extra option. `when` is the register, or 'end'.
 */
export function chopShop(ctx: Ctx, i: number, when: number | 'end'): void {
  const r = ctx.state.robots[i]!;
  const c = r.opt?.choices.chopShop;
  if (!c || c.register !== when || r.status !== 'active' || r.poweredDown) return;
  if (ctx.board.floor[r.y * ctx.board.width + r.x] !== Floor.ChopShop) return;
  if (c.scrap && r.options.some((o) => optionName(o) === c.scrap)) {
    discard(ctx, i, c.scrap, 'scrapped');
    drawOption(ctx, i);
  } else if (c.recharge && ctx.rules.options.uses[c.recharge]) {
    const full = ctx.rules.options.uses[c.recharge]!;
    const at = r.options.findIndex((o) => optionName(o) === c.recharge);
    if (at >= 0 && usesLeft(r.options[at]!, full) < full) {
      r.options = r.options.map((o, k) => (k === at ? c.recharge! : o)); // replaced: copies of a state share it
      used(ctx, i, c.recharge);
      ctx.events?.push({ type: 'optionRecharged', robot: i, option: c.recharge });
    }
  } else if (c.draw && when === 'end') drawOption(ctx, i);
}
