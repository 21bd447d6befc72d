/**
 * `pbem`: the moderated play-by-email variant (001), as RULES.md settles it. What 001 leaves out
 * (pushers, crushers, expansion elements) works as in `classic`.
 */
import { CARD_TYPES, GEARS, PBEM_BASE, cardName, instruction, type Card, type CardType } from '../cards.js';
import type { Ctx } from '../context.js';
import type { RobotState } from '../state.js';
import type { Dir } from '../geometry.js';
import { stepOver } from '../cube.js';
import { below, shuffle, type RngState } from '../rng.js';
import { Floor } from '../board.js';
import type { RuleSet } from './ruleset.js';
import { STEPS } from '../phases/steps.js';
import { optionName, UPGRADES } from '../options/catalog.js';
import { clearProgram, reentryDamage, repair } from '../robots.js';
import { gain, mayGain } from '../options/held.js';
import { dieAt } from '../dice.js';
import { extraCards, flywheelToHand } from '../options/programming.js';

/** 001 L61: "21% Forward 1, 14% Forward 2, 7% Forward 3, 7% Backward 1, 21% Turn Left, 21% Turn
 *  Right, 7% Turn Around" — weights summing to 98, each draw on its own (B-41). */
const WEIGHTS: readonly (readonly [CardType, number])[] = [['F1', 21], ['F2', 14], ['F3', 7], ['B', 7], ['L', 21], ['R', 21], ['U', 7]];

/** 001 L85 "F3->F2->F->B->L/R/U->powered down->dead": a higher rank moves first; the upgrade
 *  codes rank F4 > F3 and B2 between F2 and F, F0 between F and B (001 L185-189). */
const RANK: Record<string, number> = { F4: 10, F3: 9, F2: 8, B2: 7, F1: 6, F0: 5, B: 4, L: 3, R: 3, U: 3 };
/** The ranks of the pbem cards and upgrade codes by card number from PBEM_BASE (a look-up: moveOrder runs every register of a search). */
const RANK_BY_CARD: readonly number[] = Array.from({ length: CARD_TYPES.length + GEARS.length }, (_, k) => RANK[cardName(PBEM_BASE + k)]!);
const rankOf = (card: Card): number => RANK_BY_CARD[card - PBEM_BASE] ?? RANK[cardName(card)]!;
const POWERED_DOWN_RANK = 1;
const DEAD_RANK = 0;

export const pbem: RuleSet = {
  name: 'pbem',
  title: 'The moderated e-mail game of 001',
  drawOdds: WEIGHTS,
  priorities: false,
  reentryChoice: false, // 001 L307-319: facing as when destroyed, powered up
  gearCodes: true, // 001 L185-189: F0, F4, B2
  optionDeck: false, // 001 L181: each hammer site offers its upgrade
  awards: true, // 001 L353-383
  powerDownNeedsDamage: false, // 001 L69
  startsPerRobot: true, // 001 L333: each robot picks a start of its own
  destroyAt: 22, // 001 L297 "It receives 22 damage."
  reentryDamage: 4, // 001 L307 "Robots reenter the race with 4 damage."
  // 001 L179-181: a wrench repairs two; a wrench/hammer repairs two AND upgrades; flags repair nothing.
  repair: { wrench: 2, doubleWrench: 2, flag: 0 },
  playerUnlock: false,
  // RULES.md register table, pbem column (001 L37-49): all belts, then the express step.
  registerSteps: [STEPS.robotsMove, STEPS.allBelts, STEPS.expressBelts, STEPS.pushers, STEPS.gears, STEPS.crushers, STEPS.lasers, STEPS.checkpoints],
  handSize: (damage) => Math.max(0, 10 - Math.floor(damage / 2)), // 001 L57-59
  lockedCount: (damage) => Math.min(5, Math.max(0, Math.floor((damage - 10) / 2))), // 001 L289 "12 or more"
  moveOrder: rankByInstruction,
  cardRank: rankOf,
  // 1.4 step 4: "pbem: the register's priority order".
  shooterRank: (ctx, i) => ctx.state.robots.length - ctx.state.order.indexOf(i),
  drawCard: weightedInstruction,
  powerDownRefusal: () => null, // 001 L69 "You may also choose to power down." (B-15)
  // 001 L331 "the race will continue for five more rounds for other robots to attempt to be the runner-ups"
  raceOver: (st) => (st.winTurn > 0 && st.turn >= st.winTurn + 5) || st.robots.every((r) => r.status === 'out'),
  takeOptionChoice: false,
  options: {
    catalog: UPGRADES,
    choiceKeys: ['active', 'circuitBreaker', 'flywheel', 'recompile'],
    exchange: false, // OPTIONS.md 1.2 "pbem has no exchange"
    toggles: true, // 001 L203-213 "Can be activated or deactivated for the round"
    ramDamage: 2, // B-47
    recompileDamage: 2, // 001 L227, B-47: "taken first"
    recompileDamageFirst: true,
    uses: { 'Mini Howitzer': 5, 'Ablative Coat': 6 }, // 001 L209; L215 "absorbs six damage"
    doubleBarreled: 'Double-Barreled Lasers',
    superiorNeedsArchive: false, // 001 L221, B-31
    powerDownShieldPerRegister: true, // 001 L219 "one damage from each direction per register phase"
    circuitBreaker: 8, // OPTIONS.md part 3, 17
    radioRange: 0,
  },
  doubleWrench: repairAndUpgrade,
  endOfTurn: ageOffers,
  init: offerUpgrades,
  deal: drawInstructions,
  onDestroyed: loseRandomUpgrade,
  reenter: reenterBesideArchive,
};

/**
 * 001 L85: by instruction type; ties go to the robot that had priority the previous move (for
 * register 1, the last register of the previous round); "The robot that died most recently is
 * placed at the bottom of the priority list." With no history at all, a draw from the seed.
 */
function rankByInstruction(ctx: Ctx, register: number, movers: number[]): number[] {
  const st = ctx.state;
  const robots = st.robots;
  const n = robots.length;
  if (st.order.length !== n) st.order = shuffle(st.rng, robots.map((_, i) => i));
  const order = st.order;
  const k = register - 1;
  // Insertion sorts in place, highest rank first (a handful of robots: no comparator, nothing
  // allocated, as the bots' search runs this every register); stable, so a tie keeps its place.
  for (let a = 1; a < n; a++) {
    const m = order[a]!;
    const rm = moveRank(robots[m]!, k, movers.includes(m));
    let j = a - 1;
    for (; j >= 0 && moveRank(robots[order[j]!]!, k, movers.includes(order[j]!)) < rm; j--) order[j + 1] = order[j]!;
    order[j + 1] = m;
  }
  // The movers, in that order.
  for (let a = 1; a < movers.length; a++) {
    const m = movers[a]!;
    const at = order.indexOf(m);
    let j = a - 1;
    for (; j >= 0 && order.indexOf(movers[j]!) > at; j--) movers[j + 1] = movers[j]!;
    movers[j + 1] = m;
  }
  return movers;
}

/** A robot's place in the move order of register k + 1: dead, powered down (or not moving), or by its card. */
function moveRank(r: RobotState, k: number, moving: boolean): number {
  if (r.status !== 'active') return DEAD_RANK;
  if (r.poweredDown) return POWERED_DOWN_RANK;
  const card = r.registers[k];
  return card && moving ? 2 + rankOf(card) : POWERED_DOWN_RANK;
}

/**
 * A destroyed robot drops to the bottom of the priority list (001 L85) and "immediately loses a
 * random upgrade (if it has any)" (001 L305).
 */
function loseRandomUpgrade(ctx: Ctx, i: number): void {
  const st = ctx.state;
  const at = st.order.indexOf(i);
  if (at >= 0) {
    st.order.splice(at, 1);
    st.order.push(i);
  }
  const r = st.robots[i]!;
  if (!r.options.length) return;
  const drop = below(st.rng, r.options.length);
  const lost = r.options[drop];
  r.options = r.options.filter((_, k) => k !== drop); // replaced: copies of a state share it
  ctx.events?.push({ type: 'optionLost', robot: i, option: optionName(lost!) });
}

/** Each hammer site offers one upgrade, drawn from the 22 with the seed (OPTIONS.md part 3). */
function offerUpgrades(ctx: Ctx): void {
  const b = ctx.board;
  for (let c = 0; c < b.floor.length; c++) {
    if (b.floor[c] === Floor.DoubleWrench) newOffer(ctx, c % b.width, Math.floor(c / b.width), 1);
  }
}

function newOffer(ctx: Ctx, x: number, y: number, since: number): void {
  const st = ctx.state;
  const option = UPGRADES[below(st.rng, UPGRADES.length)]!;
  st.offers = [...st.offers.filter((o) => o.x !== x || o.y !== y), { x, y, option, since }]; // replaced: copies share it
  ctx.events?.push({ type: 'offered', x, y, option });
}

/**
 * 001 L181 "Robots on a crossed wrench/hammer space repair two damage AND upgrade with the upgrade
 * at that spot. Once a robot has been upgraded, a new random upgrade will become available at that
 * spot." A robot that already holds the offered upgrade leaves it there (OPTIONS.md part 3).
 */
function repairAndUpgrade(ctx: Ctx, i: number): void {
  const st = ctx.state;
  const r = st.robots[i]!;
  repair(ctx, i, ctx.rules.repair.doubleWrench, 'wrench');
  const offer = st.offers.find((o) => o.x === r.x && o.y === r.y);
  if (!offer || r.options.some((o) => optionName(o) === offer.option) || !mayGain(ctx, i)) return;
  gain(ctx, i, offer.option);
  ctx.events?.push({ type: 'upgraded', robot: i, option: offer.option });
  newOffer(ctx, r.x, r.y, st.turn + 1);
}

/** 001 L181 "An upgrade that has been available for five rounds will be replaced by a new random
 *  upgrade": at the end of its fifth round (B-47). */
function ageOffers(ctx: Ctx): void {
  const st = ctx.state;
  for (const o of st.offers.slice()) if (st.turn - o.since + 1 >= 5) newOffer(ctx, o.x, o.y, st.turn + 1);
}

/** One instruction drawn by 001's odds (001 L61). */
function weightedInstruction(ctx: Ctx): Card {
  return drawByOdds(ctx.state.rng, WEIGHTS);
}

/** One instruction drawn by a rule set's `drawOdds`, each draw on its own. */
export function drawByOdds(rng: RngState, odds: readonly (readonly [CardType, number])[]): Card {
  let roll = below(rng, odds.reduce((s, [, w]) => s + w, 0));
  for (const [type, w] of odds) {
    if (roll < w) return instruction(type);
    roll -= w;
  }
  return instruction(odds[0]![0]);
}

/** 10 − ⌊damage / 2⌋ instructions, each drawn on its own (001 L57-61). */
function drawInstructions(ctx: Ctx): void {
  const st = ctx.state;
  st.deck = [];
  st.discard = [];
  st.robots.forEach((r, i) => {
    if (r.status !== 'active' || r.poweredDown) return;
    r.hand = [];
    for (let k = ctx.rules.handSize(r.damage) + extraCards(ctx, i); k > 0; k--) {
      r.hand.push(weightedInstruction(ctx));
    }
    flywheelToHand(ctx, i);
    ctx.events?.push({ type: 'dealt', robot: i, cards: r.hand.length });
  });
}

/**
 * 001 L307-319: back at the last archive location (else the start position) with 4 damage,
 * facing as when destroyed, powered up (001 L75: a pending power down is cancelled). The first
 * destroyed takes the square; each later one, or one finding a robot already there, a random
 * empty orthogonal neighbour (on a cube, over a fold: the square across) that is not a pit (nor a repulsor field, which no robot enters), other elements ignored. With no such square it
 * waits for the next round.
 */
function reenterBesideArchive(ctx: Ctx, destroyed: readonly number[]): void {
  const st = ctx.state;
  const b = ctx.board;
  const w = b.width;
  const taken = (x: number, y: number) => st.robots.some((o) => o.status === 'active' && o.x === x && o.y === y);
  // RULES.md "Destruction, re-entry…": "A neighbour that a robot may not enter (a repulsor field, a
  // die's flag square) is not empty; with no usable square the robot waits off the board and tries
  // again at the start of the next turn."
  const usable = (x: number, y: number) => {
    const f = b.floor[y * w + x];
    return f !== Floor.Pit && f !== Floor.Void && f !== Floor.Repulsor && dieAt(ctx, x, y) < 0 && !taken(x, y);
  };
  for (const i of destroyed) {
    const r = st.robots[i]!;
    let [x, y] = r.archive ?? r.start;
    if (taken(x, y) || dieAt(ctx, x, y) >= 0) {
      const free: [number, number][] = [];
      for (let d = 0; d < 4; d++) {
        // On a cube course (004 L179) the neighbour over a fold is the square across it.
        const n = stepOver(b, y * w + x, d as Dir);
        if (n >= 0 && usable(n % w, (n - (n % w)) / w)) free.push([n % w, (n - (n % w)) / w]);
      }
      if (!free.length) continue;
      [x, y] = free[below(st.rng, free.length)]!;
    }
    r.status = 'active';
    r.x = x;
    r.y = y;
    r.damage = reentryDamage(ctx, i);
    r.reentries += 1;
    clearProgram(ctx, i);
    r.virtual = false;
    r.poweredDown = false;
    ctx.occ[y * w + x] = i + 1;
    ctx.events?.push({ type: 'reentered', robot: i, x, y, dir: r.dir, damage: r.damage, virtual: false, poweredDown: false });
  }
}
