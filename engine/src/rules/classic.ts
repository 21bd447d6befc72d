/** `classic`: the 1994 operating manual (000) with the FAQ's readings (004), as RULES.md settles them. */
import { DECK, parseCard, type Card } from '../cards.js';
import type { Ctx } from '../context.js';
import { below, shuffle } from '../rng.js';
import { effectiveCard } from '../options/held.js';
import { twoWrenchSite } from '../options/deck.js';
import { extraCards, flywheelToHand } from '../options/programming.js';
import { clearProgram, reentryDamage } from '../robots.js';
import { OPTION_CARDS, optionName } from '../options/catalog.js';
import type { Reentry, RuleSet } from './ruleset.js';
import { STEPS } from '../phases/steps.js';

export const classic: RuleSet = {
  name: 'classic',
  title: "The 1994 manual with the FAQ's readings",
  drawOdds: null, // 000 L80: dealt from the shuffled deck
  priorities: true,
  reentryChoice: true, // 000 L210-214 "facing any direction the player chooses", "powered down"
  gearCodes: false, // OPTIONS.md 2.3, 2.12, 2.21: the registers are named
  optionDeck: true, // 000 L102 "draw an Option card"
  awards: false,
  powerDownNeedsDamage: true, // 000 L93
  startsPerRobot: false, // 000 L54-56: every robot starts on the board's start square
  destroyAt: 10, // 000 L207 "receives its tenth point of damage"
  reentryDamage: 2, // 000 L269 "archive copies start with two points of damage"
  // 000 L102, L188: one wrench or a flag repairs 1; two wrenches repair 2 or give an option.
  repair: { wrench: 1, doubleWrench: 2, flag: 1 },
  takeOptionChoice: true,
  options: {
    catalog: OPTION_CARDS,
    choiceKeys: ['unlock', 'takeOption', 'exchange', 'lose', 'shield', 'gyro', 'weapon', 'fireControl', 'brakes', 'fourthGear', 'reverseGear', 'abort', 'conditional', 'flywheel', 'recompile', 'chopShop'],
    exchange: true, // 000 L204, L267
    toggles: false,
    ramDamage: 1, // OPTIONS.md 2.20
    recompileDamage: 1, // 2.22
    recompileDamageFirst: false,
    uses: { 'Mini Howitzer': 5, 'Ablative Coat': 3 }, // 2.16 "5 uses"; 2.1, 004 L150
    doubleBarreled: 'Double-Barreled Laser',
    superiorNeedsArchive: true, // B-31, 004 L157
    powerDownShieldPerRegister: false, // B-34: one point of each shot
    circuitBreaker: 3, // 2.4
    radioRange: 6, // 2.19 [94]
  },
  playerUnlock: true, // 000 L188 "a player can choose to repair the point of damage locking the fourth register"
  // RULES.md register table, classic column (004 L97).
  registerSteps: [STEPS.robotsMove, STEPS.expressBelts, STEPS.allBelts, STEPS.pushers, STEPS.gears, STEPS.crushers, STEPS.lasers, STEPS.checkpoints],
  handSize: (damage) => Math.max(0, 9 - damage), // 000 L80, L164-174
  lockedCount: (damage) => Math.min(5, Math.max(0, damage - 4)), // 004 L94 "over four"
  // No moveOrder: 000 L120 "A higher number means a higher priority"; the number alone decides
  // (B-23). The movers are put in that order as they are found (phases/program.ts).
  cardRank: (card) => card, // 000 L120
  shooterRank: (ctx, i, register) => effectiveCard(ctx.state.robots[i]!, register),
  drawCard: drawFromDeck,
  powerDownRefusal: (r) =>
    r.damage > 0 ? null : 'only a damaged robot may power down (000 L93)',
  // 000 L76 "The game can end when the winner has touched the last flag"; play may go on for
  // runners-up (a scenario or a race can keep playing turns).
  raceOver: (st) => st.winTurn > 0 || st.robots.every((r) => r.status === 'out'),
  // 000 L188 "sites with two wrenches repair 2 points" or, instead, an option (000 L102).
  doubleWrench: twoWrenchSite,
  onDestroyed(ctx, i) {
    // 000 L207 "A destroyed robot immediately loses an option card of the player's choice";
    // without a choice, the newest (RULES.md).
    const r = ctx.state.robots[i]!;
    if (!r.options.length) return; // nothing to lose (most robots): no new list, no closure
    const chosen = r.opt?.choices.lose;
    const at = chosen ? r.options.findIndex((o) => optionName(o) === chosen) : -1;
    const drop = at >= 0 ? at : r.options.length - 1;
    const lost = r.options[drop];
    r.options = r.options.filter((_, k) => k !== drop); // replaced: copies of a state share it
    if (lost !== undefined) ctx.events?.push({ type: 'optionLost', robot: i, option: optionName(lost) });
  },
  deal: dealFromDeck,
  reenter: reenterOnArchive,
};

/**
 * A card from the undealt deck (OPTIONS.md 1.4 "Random draws use the seed"): the first card of the
 * `programDeck` setting still undealt, else one at random.
 */
function drawFromDeck(ctx: Ctx): Card {
  const st = ctx.state;
  if (!st.deck.length) return 0;
  // The deck is replaced, not changed in place: copies of a state share it (state.ts).
  const take = (at: number): Card => {
    const deck = st.deck.slice();
    const [card] = deck.splice(at, 1);
    st.deck = deck;
    return card!;
  };
  for (const name of ctx.setup.settings.programDeck ?? []) {
    const at = st.deck.indexOf(parseCard(name, true) ?? -1);
    if (at >= 0) return take(at);
  }
  return take(below(st.rng, st.deck.length));
}

/**
 * All cards but those in locked registers are shuffled and dealt, 9 − damage to each powered-up
 * robot (000 L80 "deal each player with an undamaged robot nine cards"; 000 L191 "A robot that is
 * powered down does not receive program cards").
 */
function dealFromDeck(ctx: Ctx): void {
  const st = ctx.state;
  const held = new Set<Card>();
  for (const r of st.robots) {
    for (const c of r.registers) if (c) held.add(c);
    if (r.opt) for (const c of [...r.opt.joined, r.opt.flywheel]) if (c) held.add(c);
  }
  const deck = shuffle(st.rng, DECK.filter((c) => !held.has(c)));
  st.discard = [];
  st.robots.forEach((r, i) => {
    if (r.status !== 'active' || r.poweredDown) return;
    r.hand = deck.splice(deck.length - Math.min(deck.length, ctx.rules.handSize(r.damage) + extraCards(ctx, i)));
    flywheelToHand(ctx, i);
    ctx.events?.push({ type: 'dealt', robot: i, cards: r.hand.length });
  });
  st.deck = deck;
}

/**
 * 000 L210-214: a destroyed robot re-enters on its last archive location with two damage, facing
 * as its player chooses (by default as when destroyed), powered down if its player chooses; it is
 * virtual if another robot stands there or re-enters there.
 */
function reenterOnArchive(ctx: Ctx, destroyed: readonly number[], choices: Readonly<Record<number, Reentry>>): void {
  const robots = ctx.state.robots;
  const w = ctx.board.width;
  const spot = (i: number) => robots[i]!.archive ?? robots[i]!.start;
  for (const i of destroyed) {
    const r = robots[i]!;
    const [x, y] = spot(i);
    const shared =
      robots.some((o, j) => j !== i && o.status === 'active' && o.x === x && o.y === y) ||
      destroyed.some((j) => j !== i && spot(j)[0] === x && spot(j)[1] === y);
    const c = choices[i] ?? {};
    r.status = 'active';
    r.x = x;
    r.y = y;
    if (c.dir !== undefined) r.dir = c.dir;
    r.damage = reentryDamage(ctx, i);
    r.reentries += 1;
    clearProgram(ctx, i);
    r.virtual = shared;
    r.poweredDown = c.poweredDown ?? false;
    if (!shared) ctx.occ[y * w + x] = i + 1;
    ctx.events?.push({ type: 'reentered', robot: i, x, y, dir: r.dir, damage: r.damage, virtual: shared, poweredDown: r.poweredDown });
  }
}
