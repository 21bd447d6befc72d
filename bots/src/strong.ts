/**
 * The strong bot. It tries every ordering of its hand (of its types: see search.ts) with the
 * engine, the other robots on the floor standing still (or running their face-up locked cards), so
 * that it meets their bodies and their lasers; keeps the best few programs and plays them again
 * against a few programs the others would likely play with hands they might hold; and scores where
 * each program ends, in registers of delay:
 *
 * - registers still to go: to the next flag along the board's real paths, then from flag to flag
 *   (distance.ts: expected registers with the card types a dealt hand holds, board lasers on the
 *   way counted as damage); flags touched on the way count by what is left;
 * - damage after the end-of-turn repair: each point costs more as the hand shrinks to the open
 *   registers, a locked register more, but never more than a turn powered down; and the risk of
 *   destruction, which grows with the damage;
 * - board lasers and robot lasers in line with the end square: a share of a point each, and the
 *   risk of destruction by them when the robot has few points left;
 * - destroyed: the way from the archive (facing chosen at re-entry), the re-entry damage, and a
 *   life, dearer as lives run out; out of the game is worst;
 * - touching the last flag is best, the earlier register the better, then alive and whole;
 * - a tie-breaker: how far the squares one card away from the end are, on average (a square where
 *   most cards help beats one where only one card does).
 *
 * Then it decides on a power down: it plays the chosen program, then a turn powered down from where
 * it ends (the floor still moving it, the others' lasers still firing); it powers down when the
 * damage cleared costs more than that turn, and the turn does not destroy it.
 */
import {
  DECK, Floor, WEAPONS, cardType, drawByOdds, optionName, type Card, type CardType, type Dir, type GameState, type Orders, type Reentry, type RobotState, type Setup,
} from '../../engine/src/index.js';
import { shuffle, type RngState } from '../../engine/src/index.js';
import { decisionRng, idleOrders, type Bot } from './common.js';
import { courseMaps, stateIndex, togo, type CourseMaps } from './distance.js';
import { byType, playPrograms, programOf, searchPrograms, setProgram, type Evaluate } from './search.js';
import { searchLone, typeCounts, type LoneScore, type LoneStart } from './lone.js';
import { Sim, type Snapshot } from './sim.js';

export const FINISHED = 1e6;
const OUT = -1e6;

/** What the strong bot weighs, in registers of delay; `DEFAULT_WEIGHTS` are the shipped ones. */
export interface StrongWeights {
  /**
   * What a turn lost costs, in registers of delay, in a race with others (where a robot seldom
   * makes a whole turn's progress): carrying damage never costs more than a turn powered down plus
   * one; destruction by lasers costs a life and a turn. Measured on the shipped courses, four-robot
   * classic races against greedy bots, 700 races: won 83% at 5, 84% at 3, 86% at 1.5 and 0.5.
   */
  readonly turn: number;
  /** What a turn powered down costs when deciding on one (won 84% at 1 and 80% at 5.5, as above; pbem falls apart below 0). */
  readonly turnDown: number;
  /** Weight of the tie-breaker: the mean registers to go one card further. */
  readonly mobility: number;
  /** Share of a point of damage for each beam in line with the end square. */
  readonly exposure: number;
  /** A lost life: `life + lifeLow / lives left`. */
  readonly life: number;
  readonly lifeLow: number;
  /** Risk of destruction, by the share of the destroying damage taken: `risk * share^3`. */
  readonly risk: number;
  /** Scale of the cost of carrying damage (fewer cards, locked registers). */
  readonly damage: number;
  /** Programs kept from the search with the others standing still, to try against their likely programs. */
  readonly candidates: number;
  /**
   * Deals of the others' hands to try the candidates against: half played by the real paths, half
   * by straight-line distance. A deal foresees little: against greedy bots one deal puts a robot on
   * its real square after a register about a quarter of the time, knowing its hand would three
   * quarters (docs/bots.md, 2026-11-29 18:30). Against three greedy bots, 1,600 races: 1,326 won
   * at 4, 1,329 at 8 (deaths 0.32 → 0.28 a race; won more on first-shift and express-delivery,
   * fewer on the long courses; decisions 38% longer at the median, 11% at the p99).
   */
  readonly scenarios: number;
}

export const DEFAULT_WEIGHTS: StrongWeights = {
  turn: 1.5, turnDown: 1, mobility: 0.05, exposure: 0.3, life: 10, lifeLow: 20, risk: 12, damage: 0.6, candidates: 24, scenarios: 4,
};

/**
 * Registers of delay added to the search's bound (`Judge.bound`) for what the others standing on
 * the floor do that a lone robot's moves do not: a robot in the way stops a belt's carrying it, or
 * a move before a pit.
 */
const BOUND_SLACK = 1;

/**
 * Options that change neither how their robot moves nor where it touches flags or archives, only
 * the damage it takes or deals (its weapons fire at others): the search's bound holds with them.
 */
const PLAIN_OPTIONS: ReadonlySet<string> = new Set([
  'Ablative Coat', 'Power-Down Shield', 'Shield', 'Double-Barreled Laser', 'Double-Barreled Lasers', 'High-Power Laser',
  'Rear-Firing Laser', 'Fire Control', 'Ramming Gear', 'Extra Memory', 'Pressor Beam', 'Tractor Beam', 'Mini Howitzer',
  'Scrambler', 'Radio Control',
]);
const plainOptions = (r: RobotState): boolean => r.options.every((o) => PLAIN_OPTIONS.has(optionName(o)));

/**
 * Options that move their robot otherwise than a lone robot's cards only on orders (Brakes, Fourth
 * Gear, Reverse Gear, a Gyroscopic Stabilizer switched on) or with a card joined to a register's
 * (Crab Legs, Dual Processor): robot r holds none that acts (a bot deciding has given no orders).
 */
function quietOptions(r: RobotState): boolean {
  for (const o of r.options) {
    const name = optionName(o);
    if (PLAIN_OPTIONS.has(name)) continue;
    const c = r.opt?.choices;
    switch (name) {
      case 'Brakes':
        if (c?.brakes?.length) return false;
        break;
      case 'Fourth Gear':
        if (c?.fourthGear?.length) return false;
        break;
      case 'Reverse Gear':
        if (c?.reverseGear?.length) return false;
        break;
      case 'Gyroscopic Stabilizer':
        if (c?.gyro || c?.active?.includes(name)) return false;
        break;
      case 'Crab Legs':
      case 'Dual Processor':
        if (r.opt?.joined.some((x) => x)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** The strong bot's judgement of positions on one course, with one set of weights (the expert bot's too). */
export class Judge {
  readonly m: CourseMaps;

  constructor(readonly setup: Setup, readonly w: StrongWeights) {
    this.m = courseMaps(setup);
    this.damageDown = new Float64Array(setup.rules.destroyAt + 8).fill(NaN);
    this.damageUp = new Float64Array(setup.rules.destroyAt + 8).fill(NaN);
  }

  lifeCost(left: number): number {
    return this.w.life + this.w.lifeLow / Math.max(1, left);
  }

  /** What carrying `d` damage costs without powering down: fewer cards to choose from, locked registers. */
  carryCost(d: number): number {
    const rules = this.setup.rules;
    let cost = 0;
    for (let k = 1; k <= d; k++) {
      const locks = rules.lockedCount(k);
      const spare = rules.handSize(k) - (5 - locks);
      cost += 0.4 + 0.5 * Math.max(0, 3 - spare) + 1.5 * (locks - rules.lockedCount(k - 1));
    }
    return cost * this.w.damage;
  }

  /**
   * The cost of carrying `d` damage: the carrying, but never more than a turn powered down (which
   * clears it all) when `powerDown`; and the risk of destruction, which grows with the damage.
   */
  damageCost(d: number, powerDown = true): number {
    // Asked at every leaf of the search: computed once per damage (0 up to destruction and a little past it).
    const memo = powerDown ? this.damageDown : this.damageUp;
    if (d >= 0 && d < memo.length && Number.isInteger(d)) {
      if (Number.isNaN(memo[d]!)) memo[d] = this.damageCostOf(d, powerDown);
      return memo[d]!;
    }
    return this.damageCostOf(d, powerDown);
  }

  private readonly damageDown: Float64Array;
  private readonly damageUp: Float64Array;

  private damageCostOf(d: number, powerDown: boolean): number {
    const share = Math.min(1, d / this.setup.rules.destroyAt);
    const carry = this.carryCost(d);
    return (powerDown ? Math.min(carry, this.w.turn + 1) : carry) + this.w.risk * share * share * share;
  }

  /**
   * What board lasers' hits cost a robot carrying `d` damage: entry n is the cost of n more
   * points, up to the destroying one (a lone turn's lasers on the way, lone.ts `hits`).
   */
  hitCosts(d: number): Float64Array {
    const n = Math.max(1, this.setup.rules.destroyAt - d);
    const base = this.damageCost(d);
    return Float64Array.from({ length: n + 1 }, (_, h) => this.damageCost(d + h) - base);
  }

  /** The risk of destruction next turn with `d` damage and `beams` beams in line: about two registers of them. */
  laserRisk(r: RobotState, d: number, beams: number): number {
    if (!beams) return 0;
    const left = Math.max(1, this.setup.rules.destroyAt - d);
    const p = Math.min(1, (2 * beams) / left);
    return p * p * (this.lifeCost(r.lives - 1) + this.w.turn);
  }

  /** Damage left after the end-of-turn repair on the robot's square. */
  afterRepair(r: RobotState): number {
    if (r.poweredDown) return r.damage;
    const b = this.setup.board;
    const c = r.y * b.width + r.x;
    const f = b.floor[c];
    const rep = this.setup.rules.repair;
    const points = f === Floor.DoubleWrench ? rep.doubleWrench : f === Floor.Wrench ? rep.wrench : b.flagAt[c] ? rep.flag : 0;
    return Math.max(0, r.damage - points);
  }

  /** Mean registers to go one card further from the pose (a card that destroys counts as far). */
  mobility(flags: number, x: number, y: number, dir: number): number {
    const m = this.m;
    if (flags >= m.toFlag.length) return 0;
    const s = stateIndex(m.board, x, y, dir, 1);
    const dist = m.toFlag[flags]!;
    let sum = 0;
    for (let t = 0; t < 7; t++) {
      const n = m.next[s * 7 + t]!;
      sum += n < 0 ? 30 : Math.min(dist[n]!, 60);
    }
    return sum / 7;
  }

  /** The best facing on (x, y) for a robot that has touched `flags` flags. */
  bestFacing(x: number, y: number, flags: number): Dir {
    let best: Dir = 0;
    let bestCost = Infinity;
    for (let d = 0; d < 4; d++) {
      const t = togo(this.m, flags, x, y, d, 1) + this.w.mobility * this.mobility(flags, x, y, d);
      if (t < bestCost) {
        bestCost = t;
        best = d as Dir;
      }
    }
    return best;
  }

  /** Registers of delay for robot `me` where the simulation left it (higher is worse). */
  endCost(robots: readonly RobotState[], me: number, powerDown = true): number {
    const r = robots[me]!;
    const d = this.afterRepair(r);
    const dc = this.damageCost(d, powerDown);
    const marginal = this.damageCost(d + 1, powerDown) - dc;
    const beams = exposure(this.m, robots, me);
    return (
      togo(this.m, r.flags, r.x, r.y, r.dir, 1) +
      dc +
      this.w.exposure * marginal * beams +
      this.laserRisk(r, d, beams) +
      this.w.mobility * this.mobility(r.flags, r.x, r.y, r.dir)
    );
  }

  /** Registers of delay for a robot destroyed this turn: back on its archive, a life and damage down. */
  destroyedCost(r: RobotState): number {
    const settings = this.setup.settings;
    const [ax, ay] = r.archive ?? r.start;
    const dir = this.setup.rules.reentryChoice ? this.bestFacing(ax, ay, r.flags) : r.dir;
    const reentry = settings.oneFreeLife && r.reentries === 0 ? 0 : this.setup.rules.reentryDamage;
    const life = settings.infiniteLives ? this.lifeCost(3) / 2 : this.lifeCost(r.lives);
    return togo(this.m, r.flags, ax, ay, dir, 1) + life + this.damageCost(reentry);
  }

  /**
   * An upper bound of `scorer(me)` at every leaf below the sim's state after register `reg`, for
   * the search to cut branches by (`SearchOptions.bound`): ending, the registers to go a lone
   * robot can come nearest to in the registers left (the maps' `nearest`; the others standing still
   * only block) and the damage after the most a repair site gives back; destroyed, a life and the
   * nearest place it can re-enter from (its archive, a repair site or a flag it may touch on the
   * way), plus `BOUND_SLACK`. No bound (Infinity) where it may touch a flag in the registers left;
   * none at all where robots move as a lone robot's cards do not: robot `me` holding an option
   * other than `PLAIN_OPTIONS`, or another holding a weapon it has orders to fire. Another robot
   * running locked registers of moves (`movingRegisters`) pushes nobody it cannot reach: where it
   * stands further from robot me than the two can close in before its last such register and push
   * in it (`reachBefore`), it stands still as far as robot me is concerned; nearer, there is no
   * bound at that node (and none at all on a course where robots slide, teleport or wrap over a
   * cube's edges). Exact for a lone robot; among others the slack covers a robot in the way
   * (`strong.test.ts` checks the bound on random games, and that the search keeps the same
   * programs with it). With `movers` (the strong bot's), robot me's options that act only on
   * orders (`quietOptions`) are no obstacle either. Without `movers` (the expert's, whose budget
   * counts the leaves scored and would be spent otherwise), no bound at all where another robot
   * runs locked registers or holds a weapon.
   */
  bound(robots: readonly RobotState[], me: number, o: { readonly movers?: boolean } = {}): ((sim: Sim, reg: number) => number) | undefined {
    const m = this.m;
    const r0 = robots[me]!;
    // The strong bot's own options that act only on orders change nothing here; the expert's bound keeps to the plain ones.
    const quiet = o.movers ? quietOptions : plainOptions;
    if (!quiet(r0) || r0.virtual || !m.toFlag.length) return undefined;
    // Weapons pull and push: only those the others have orders to fire (a bot deciding sees none).
    const still = (x: RobotState) => (o.movers ? !armed(x) : x.locked === 0 && !x.options.some((w) => (WEAPONS as readonly string[]).includes(optionName(w))));
    if (robots.some((x, j) => j !== me && x.status === 'active' && !still(x))) return undefined;
    // Others run their locked registers' cards, and may push robot me on where they reach it.
    const moves = robots.map((o, j) => (j !== me && o.status === 'active' ? movingRegisters(o) : 0));
    const movers: number[] = [];
    moves.forEach((mask, j) => mask && movers.push(j));
    const board = movers.length ? boardReach(m) : 0;
    if (board < 0) return undefined;
    // Per mover and register reg: the squares apart within which it may push robot me after reg.
    const reach = movers.map((j) => Int32Array.from({ length: 5 }, (_, reg) => reachBefore(moves, me, j, reg, board)));
    const rep = this.setup.rules.repair;
    const mostRepair = Math.max(rep.wrench, rep.doubleWrench, rep.flag);
    const settings = this.setup.settings;
    const life = (lives: number) => (settings.infiniteLives ? this.lifeCost(3) / 2 : this.lifeCost(lives));
    const b = m.board;
    // The re-entry part depends only on the flags touched and the archive: computed once for each
    // (the archive seldom changes within a turn), not at every node.
    let reFlags = -1, reX = 0, reY = 0, reentry = 0;
    return (sim, reg) => {
      const r = sim.robots[me]!;
      const flags = r.flags;
      if (flags >= m.toFlag.length || !quiet(r)) return Infinity;
      for (let k = 0; k < movers.length; k++) {
        const o = sim.robots[movers[k]!]!;
        if (o.status === 'active' && Math.abs(o.x - r.x) + Math.abs(o.y - r.y) <= reach[k]![reg]!) return Infinity;
      }
      const s = stateIndex(b, r.x, r.y, r.dir, reg + 1);
      const left = 5 - reg;
      if (m.fewest[flags]![s]! <= left) return Infinity;
      const ending = -(m.after[flags]! + m.nearest[flags]![left]![s]! + this.damageCost(Math.max(0, r.damage - mostRepair)));
      const at = r.archive ?? r.start;
      const ax = at[0], ay = at[1];
      if (flags !== reFlags || ax !== reX || ay !== reY) {
        reFlags = flags;
        reX = ax;
        reY = ay;
        reentry = Math.min(this.nearestSite(flags), togo(m, flags, ax, ay, 0, 1), togo(m, flags, ax, ay, 1, 1), togo(m, flags, ax, ay, 2, 1), togo(m, flags, ax, ay, 3, 1));
      }
      return Math.max(ending, -(reentry + life(r.lives))) + BOUND_SLACK;
    };
  }

  /** The fewest registers to go from a repair site or a flag (an archive a robot may touch during a turn), best facing. */
  private nearestSite(flags: number): number {
    let v = this.sites[flags];
    if (v === undefined) {
      const b = this.setup.board;
      v = Infinity;
      for (let c = 0; c < b.width * b.height; c++) {
        const f = b.floor[c];
        if (f !== Floor.Wrench && f !== Floor.DoubleWrench && !b.flagAt[c]) continue;
        for (let d = 0; d < 4; d++) v = Math.min(v, togo(this.m, flags, c % b.width, (c / b.width) | 0, d, 1));
      }
      this.sites[flags] = v;
    }
    return v;
  }

  private readonly sites: number[] = [];

  /** The score of where a simulation left robot `me` (higher is better). */
  scorer(me: number): Evaluate {
    return (s, kind, reg, finishedAt) => {
      const r = s.robots[me]!;
      // Home: the sooner the better, then alive and whole (the race may go on for the runners-up).
      if (finishedAt) return FINISHED - 100 * finishedAt - (kind === 'destroyed' ? 50 : this.damageCost(r.damage));
      if (kind === 'destroyed') return r.status === 'out' ? OUT + reg : -this.destroyedCost(r);
      return -this.endCost(s.robots, me);
    };
  }
}

/** Robot o holds a weapon and has orders to fire one (as the engine's `chosenWeapon` reads them). */
function armed(o: RobotState): boolean {
  const c = o.opt?.choices;
  if (!c || !o.options.some((x) => (WEAPONS as readonly string[]).includes(optionName(x)))) return false;
  return Object.keys(c.weapon ?? {}).length > 0 || (c.active ?? []).some((x) => (WEAPONS as readonly string[]).includes(x));
}

const MOVES: ReadonlySet<string> = new Set(['F1', 'F2', 'F3', 'B']);

/** Bit r-1: robot o's locked register r moves it (a move card, or a card played with it: Crab Legs, Dual Processor). */
export function movingRegisters(o: RobotState): number {
  let mask = 0;
  for (let k = 0; k < 5; k++) {
    if (!(o.locked & (1 << k))) continue;
    const card = o.registers[k];
    if ((card && MOVES.has(cardType(card))) || o.opt?.joined[k]) mask |= 1 << k;
  }
  return mask;
}

/**
 * How far (squares, along the board's rows and columns) the floor alone moves a robot in a
 * register at most: belts, pushers (a lone robot's turns, on the course maps); -1 on a course where
 * a robot may go further than its steps (oil, portals, repulsors, a cube's folded edges).
 */
function boardReach(m: CourseMaps): number {
  let v = BOARD_REACH.get(m);
  if (v === undefined) {
    const b = m.board;
    v = 0;
    if (b.fold || b.floor.some((f) => f === Floor.Oil || f === Floor.Portal || f === Floor.Repulsor)) v = -1;
    else {
      for (let s = 0; s < m.states; s++) {
        const c = (s / 20) | 0;
        // The turns (L, R, U): the card moves it nowhere, the floor does the rest.
        for (let t = 4; t < 7; t++) {
          const n = m.next[s * 7 + t]!;
          if (n < 0) continue;
          const d = (n / 20) | 0;
          v = Math.max(v, Math.abs((d % b.width) - (c % b.width)) + Math.abs(((d / b.width) | 0) - ((c / b.width) | 0)));
        }
      }
    }
    BOARD_REACH.set(m, v);
  }
  return v;
}

const BOARD_REACH = new WeakMap<CourseMaps, number>();

/**
 * The squares apart (rows and columns) within which robot j, running locked moves (`moves[j]`,
 * per robot), may push robot me in a register after reg: through the registers before its last
 * such register both close in (robot me a card's 3 squares, the floor's `board` and a pusher's push
 * of one more; robot j the floor's, its own move, and 3 for each other robot moving then that may
 * push it), then in that register robot me moves first and robot j's move reaches 3 squares with
 * a robot between for each of the others. 0 where it moves in none: it stands still.
 */
export function reachBefore(moves: readonly number[], me: number, j: number, reg: number, board: number): number {
  const mask = moves[j]! >> reg;
  if (!mask) return 0;
  const last = reg + 32 - Math.clz32(mask);
  const n = moves.length;
  const pushers = (q: number) => moves.filter((x, h) => h !== j && h !== me && x & (1 << (q - 1))).length;
  let reach = 3 + 3 * pushers(last) + 3 + (n - 2);
  for (let q = reg + 1; q < last; q++) reach += 3 + board + 1 + board + 1 + (moves[j]! & (1 << (q - 1)) ? 3 : 0) + 3 * pushers(q);
  return reach;
}

/** Beams that would hit a robot standing where robot `me` stands: board lasers, and robots facing it in line. */
function exposure(m: CourseMaps, robots: readonly RobotState[], me: number): number {
  const b = m.board;
  const r = robots[me]!;
  let beams = m.laserBeams[r.y * b.width + r.x]!;
  if (r.virtual) return beams;
  for (let j = 0; j < robots.length; j++) {
    const o = robots[j]!;
    if (j === me || o.status !== 'active' || o.virtual || o.poweredDown) continue;
    if (o.x !== r.x && o.y !== r.y) continue;
    const d = o.x === r.x ? (o.y > r.y ? 0 : 2) : o.x > r.x ? 3 : 1;
    if (o.dir === d && clearLine(b, robots, o.x, o.y, r.x, r.y, d)) beams += 1;
  }
  return beams;
}

const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];

/** No wall and no real robot between (x, y) and (tx, ty), in direction d. */
function clearLine(b: CourseMaps['board'], robots: readonly RobotState[], x: number, y: number, tx: number, ty: number, d: number): boolean {
  for (;;) {
    if (b.walls[y * b.width + x]! & (1 << d)) return false;
    x += DX[d]!;
    y += DY[d]!;
    if (x === tx && y === ty) return true;
    for (const o of robots) if (o.status === 'active' && !o.virtual && o.x === x && o.y === y) return false;
  }
}

/** The strong bot's orders, with the given weights. */
export function strongOrdersWith(w: StrongWeights): (setup: Setup, state: GameState, i: number, seed: number) => Orders {
  return (setup, state, i, seed) => {
    const idle = idleOrders(state, i);
    if (idle) return idle;
    const robot = state.robots[i]!;
    const judge = new Judge(setup, w);
    const rng = decisionRng(seed, state, i);
    const order = shuffle(rng, [0, 1, 2, 3, 4, 5, 6]);
    const sim = new Sim(setup, state);
    const evaluate = judge.scorer(i);
    const found = searchPrograms(sim, i, robot.hand, evaluate, { order, keep: w.candidates, bound: judge.bound(state.robots, i, { movers: true }), transpositions: true });
    const cards = byType(robot.hand);
    const candidates = found.top.map((c) => ({ program: programOf(c.types, robot.locked, cards, order), total: c.score, score: c.score }));
    if (!candidates.length) candidates.push({ program: found.program, total: found.score, score: found.score });
    const root = sim.newSnapshot();
    sim.save(root);
    const rivals = movingRivals(state, i);
    if (rivals.length && candidates.length > 1 && found.score < FINISHED / 2 && w.scenarios > 0) {
      // The others move too: each candidate is played again against programs they would likely
      // play, and scored by the mean, standing still counting as one of the possibilities.
      const scenarios = likelyPrograms(judge, state, i, rivals, rng);
      const programs = candidates.map((c) => c.program);
      for (const scenario of scenarios) playPrograms(sim, root, i, programs, evaluate, scenario).forEach((score, k) => (candidates[k]!.total += score));
      for (const j of rivals) setProgram(sim, j, []);
      for (const c of candidates) c.score = c.total / (scenarios.length + 1);
      if (setup.rules.priorities && near(state, i, rivals)) candidates.push(...contestPriorities(sim, root, i, robot.hand, candidates, scenarios, evaluate));
    }
    let best = candidates[0]!;
    for (const c of candidates) if (c.score > best.score) best = c;
    sim.restore(root);
    const orders: { program: Card[]; powerDown?: boolean } = { program: best.program };
    if (best.score < FINISHED / 2 && setup.rules.powerDownRefusal(robot) === null && shouldPowerDown(judge, sim, i, best.program)) orders.powerDown = true;
    return orders;
  };
}

/** How many of the best programs are tried again with other cards of the same types. */
const PRIORITY_CANDIDATES = 3;

/**
 * Where priority decides an interaction (who moves first into a shared square, who pushes whom),
 * a lower card of the same type can be the better one: the best few programs are played again
 * with each other choice of a same-type card per register (a card of the hand left out, or the
 * cards of two registers swapped), against the same programs of the others, and a variant is kept
 * when it scores better than its program. The search itself plays each type at its highest
 * priority, which is right whenever no other robot moves (every variant then scores the same).
 */
function contestPriorities(
  sim: Sim, root: Snapshot, i: number, hand: readonly Card[], candidates: readonly { program: Card[]; score: number }[],
  scenarios: readonly Map<number, Card[]>[], evaluate: Evaluate,
): { program: Card[]; total: number; score: number }[] {
  const best = candidates.slice().sort((a, b) => b.score - a.score).slice(0, PRIORITY_CANDIDATES);
  const rivals = scenarios[0] ? [...scenarios[0].keys()] : [];
  const variants = best.map((c) => priorityVariants(c.program, hand));
  const programs = variants.flat();
  // Each variant's total: standing still first, then each scenario, as the candidates' were.
  const totals = playPrograms(sim, root, i, programs, evaluate);
  for (const scenario of scenarios) playPrograms(sim, root, i, programs, evaluate, scenario).forEach((score, k) => (totals[k]! += score));
  for (const j of rivals) setProgram(sim, j, []);
  const out: { program: Card[]; total: number; score: number }[] = [];
  let k = 0;
  best.forEach((c, n) => {
    for (const v of variants[n]!) {
      const total = totals[k++]!;
      const score = total / (scenarios.length + 1);
      if (score > c.score) out.push({ program: v, total, score });
    }
  });
  sim.restore(root);
  return out;
}

/** Squares apart within which two robots' programs may meet in a turn (a robot seldom goes further than this). */
const REACH = 8;

/** Some other moving robot stands within reach of robot i: priority may decide something between them. */
export function near(state: GameState, i: number, rivals: readonly number[]): boolean {
  const me = state.robots[i]!;
  return rivals.some((j) => {
    const o = state.robots[j]!;
    return Math.abs(o.x - me.x) + Math.abs(o.y - me.y) <= REACH;
  });
}

/** The program with one register's card changed for another of its type from the hand (swapped, if the program holds it). */
export function priorityVariants(program: readonly Card[], hand: readonly Card[]): Card[][] {
  const out: Card[][] = [];
  const seen = new Set<string>([program.join()]);
  program.forEach((card, k) => {
    const t = cardType(card);
    for (const c of hand) {
      if (c === card || cardType(c) !== t) continue;
      const v = program.slice();
      const m = program.indexOf(c);
      if (m >= 0) v[m] = card;
      v[k] = c;
      const key = v.join();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(v);
    }
  });
  return out;
}

/** Robots whose programs can touch robot i this turn: real, on the floor, powered up, with open registers. */
export function movingRivals(state: GameState, i: number): number[] {
  const me = state.robots[i]!;
  if (me.virtual) return [];
  const out: number[] = [];
  state.robots.forEach((r, j) => {
    if (j !== i && r.status === 'active' && !r.virtual && !r.poweredDown && r.locked !== 0b11111) out.push(j);
  });
  return out;
}

/**
 * What the others would likely play: deals of hands they might hold (classic: from the cards
 * robot i cannot see, its own hand and the locked registers being known; pbem: drawn as the rule
 * set draws), and for each of them the best program for itself alone with that hand: by the real
 * paths to its next flag in even deals, by the straight line (as the greedy bot plays) in odd ones.
 * Each robot's programs are searched alone on the course maps' transitions (lone.ts: a table
 * look-up a register, the lone robot's moves exactly, blind to damage), not on the simulator.
 */
export class Rivals {
  private readonly unseen: Card[] = [];
  private readonly starts: LoneStart[];
  private readonly byPaths: LoneScore;
  private readonly byLine: LoneScore;
  /** The rivals' searches so far, in simulator evaluations (`LONE_LEAVES` lone leaves each). */
  leaves = 0;

  constructor(private readonly judge: Judge, private readonly state: GameState, i: number, readonly rivals: readonly number[]) {
    const setup = judge.setup;
    const m = judge.m;
    if (setup.rules.priorities) {
      const seen = new Set<Card>(state.robots[i]!.hand);
      for (const r of state.robots) for (let k = 0; k < 5; k++) if (r.locked & (1 << k) && r.registers[k]) seen.add(r.registers[k]!);
      this.unseen = DECK.filter((c) => !seen.has(c));
    }
    this.starts = rivals.map((j) => {
      const r = state.robots[j]!;
      return { x: r.x, y: r.y, dir: r.dir, flags: r.flags, locked: r.locked, registers: r.registers, destroyed: -OUT };
    });
    const home = { finished: (reg: number) => FINISHED - reg, destroyed: () => OUT };
    this.byPaths = { ...home, end: (s, flags) => -(m.toFlag[flags]![s - (s % 5)]! + m.after[flags]!) };
    const w = m.board.width;
    this.byLine = {
      ...home,
      end: (s, flags) => {
        const f = setup.board.flags[flags];
        const c = (s / 20) | 0;
        return flags * 1000 - (f ? Math.abs(f[0] - (c % w)) + Math.abs(f[1] - ((c / w) | 0)) : 0);
      },
    };
  }

  /** The others' programs in deal number k. */
  sample(rng: RngState, k: number): Map<number, Card[]> {
    const setup = this.judge.setup;
    const pool = setup.rules.priorities ? shuffle(rng, this.unseen.slice()) : [];
    const scenario = new Map<number, Card[]>();
    this.rivals.forEach((j, n) => {
      const r = this.state.robots[j]!;
      const size = setup.rules.handSize(r.damage);
      const odds = setup.rules.drawOdds;
      const hand = odds ? drawInstructions(rng, odds, size) : pool.splice(0, size);
      const found = searchLone(this.judge.m, this.starts[n]!, typeCounts(hand), k % 2 ? this.byLine : this.byPaths);
      this.leaves += Math.ceil(found.leaves / LONE_LEAVES);
      scenario.set(j, programOf(found.types, r.locked, byType(hand)));
    });
    return scenario;
  }
}

/** Lone-turn leaves (lone.ts) that cost about as much as one evaluation on the simulator. */
export const LONE_LEAVES = 20;

function likelyPrograms(judge: Judge, state: GameState, i: number, rivals: readonly number[], rng: RngState): Map<number, Card[]>[] {
  const others = new Rivals(judge, state, i, rivals);
  return Array.from({ length: judge.w.scenarios }, (_, k) => others.sample(rng, k));
}

/** Instructions drawn each on its own by the rule set's odds (pbem, 001 L61). */
export function drawInstructions(rng: RngState, odds: readonly (readonly [CardType, number])[], n: number): Card[] {
  return Array.from({ length: n }, () => drawByOdds(rng, odds));
}

/**
 * Plays the chosen program (the others standing still), then a turn powered down from where it
 * ends: a power down pays when the damage it clears costs more than that turn, and the turn does
 * not destroy the robot. Leaves the sim changed. The expert bot decides by it too.
 */
export function shouldPowerDown(judge: Judge, sim: Sim, i: number, program: readonly Card[]): boolean {
  const r = sim.robots[i]!;
  const locked = r.locked;
  let k = 0;
  for (let reg = 1; reg <= 5 && r.status === 'active'; reg++) {
    if (!(locked & (1 << (reg - 1)))) sim.setCard(i, reg, program[k++] ?? 0);
    sim.register(reg);
  }
  if (r.status !== 'active' || togo(judge.m, r.flags, r.x, r.y, r.dir, 1) <= 3) return false;
  const carried = judge.damageCost(judge.afterRepair(r), false);
  const goOn = judge.endCost(sim.robots, i, false);
  // The next turn, powered down: damage discarded, no cards, the floor still moving it.
  r.damage = 0;
  r.locked = 0;
  r.poweredDown = true;
  for (let reg = 1; reg <= 5; reg++) {
    sim.setCard(i, reg, 0);
    sim.register(reg);
    if (r.status !== 'active') return false;
  }
  const after = judge.damageCost(r.damage, false);
  r.poweredDown = false;
  const down = judge.w.turnDown + judge.endCost(sim.robots, i, false);
  return carried - after > judge.w.turnDown && down < goOn;
}

/** Re-entry facing the way to the next flag; never powered down. */
export function strongReentry(setup: Setup, state: GameState, i: number): Reentry {
  const r = state.robots[i]!;
  if (r.status !== 'destroyed') return {};
  const [x, y] = r.archive ?? r.start;
  return { dir: bestFacing(setup, x, y, r.flags) };
}

/** The best facing on (x, y) for a robot that has touched `flags` flags. */
export function bestFacing(setup: Setup, x: number, y: number, flags: number): Dir {
  return new Judge(setup, DEFAULT_WEIGHTS).bestFacing(x, y, flags);
}

/** The cost of carrying `d` damage, in registers of delay, with the default weights. */
export function damageCost(setup: Setup, d: number): number {
  return new Judge(setup, DEFAULT_WEIGHTS).damageCost(d);
}

export const strongOrders = strongOrdersWith(DEFAULT_WEIGHTS);

export const strongBot: Bot = {
  level: 'strong',
  chooseOrders: strongOrders,
  chooseReentry: strongReentry,
  chooseFacing: (setup, [x, y]) => bestFacing(setup, x, y, 0),
};
