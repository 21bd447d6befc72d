/**
 * The expert bot: the strong bot's search and judgement (strong.ts), looking beyond the turn.
 *
 * 1. The search over its hand, the others standing still, keeps the best `candidates` programs.
 * 2. Then, in rounds while the budget lasts (budget.ts: evaluations, or a time on the caller's
 *    clock), each round adds
 *    - one deal of the others' plausible hands and their best programs with them (a sample, not a
 *      prediction: the candidates are scored by the mean over the samples, standing still being one);
 *    - one hand it may be dealt next turn, and for each of the `lookahead` best programs the best
 *      next turn from where the program ends, after the end of the turn (repairs, locked registers:
 *      the engine's `endTurn`), with the hand its damage leaves it (fewer cards, its locked
 *      registers holding this turn's cards). A program is worth where the next turn can take it,
 *      not only where it stands.
 * 3. The same two-turn evaluation decides the power down (the next turn powered down, damage
 *    cleared, the floor still moving it, against the next turn with the hands it would hold), the
 *    facing at re-entry (each facing's next turn with the hands it may be dealt) and the
 *    two-wrench choice (an option while the repair it forgoes costs less than `optionValue`).
 *
 * Deterministic for a seed with a budget of evaluations; a time budget trades that for a bound on
 * the decision's time. Without a budget it spends `DEFAULT_BUDGET`.
 */
import {
  DECK, beginTurn, cloneState, endTurn, type Card, type Dir, type GameState, type Orders, type Reentry, type Setup,
} from '../../engine/src/index.js';
import { shuffle, type RngState } from '../../engine/src/index.js';
import { Meter, type Budget } from './budget.js';
import { decisionRng, idleOrders, type Bot } from './common.js';
import { togo } from './distance.js';
import { byType, playProgram, programOf, searchPrograms, type Evaluate } from './search.js';
import { Sim } from './sim.js';
import {
  DEFAULT_WEIGHTS, FINISHED, Judge, Rivals, bestFacing, drawInstructions, movingRivals, near, priorityVariants, setProgram, type StrongWeights,
} from './strong.js';

export interface ExpertWeights extends StrongWeights {
  /** Programs given the look at the next turn. */
  readonly lookahead: number;
  /** Rounds at most (each: a sample of the others' programs and a next hand). */
  readonly rounds: number;
  /** What an option card is worth against the repair it takes the place of, in registers of delay. */
  readonly optionValue: number;
}

export const EXPERT_WEIGHTS: ExpertWeights = { ...DEFAULT_WEIGHTS, candidates: 16, scenarios: 0, lookahead: 8, rounds: 8, optionValue: 2 };

/** The budget of a decision when the caller sets none: about 40 ms on a quiet core. */
export const DEFAULT_BUDGET: Budget = { evaluations: 40_000 };

interface Candidate {
  readonly program: Card[];
  /** Sum of the turn's scores over the others' samples (standing still first), and their count. */
  turn: number;
  samples: number;
  /** Sum of the next turn's gains over the hands looked at, and their count. */
  next: number;
  hands: number;
  /** Where the turn ends with the others standing still, after the end of the turn (null: destroyed or finished). */
  ended: GameState | null | undefined;
  /** A variant with other cards of the same types shares its program's look at the next turn. */
  readonly parent?: Candidate;
}

/** One hand for each damage, drawn alike for every program (common random numbers). */
type HandDraw = (ended: GameState, i: number) => Card[];

/** The expert's judgement of a race: the strong bot's, with the next turn looked at. */
class Expert {
  readonly judge: Judge;

  constructor(readonly setup: Setup, readonly w: ExpertWeights, readonly meter: Meter) {
    this.judge = new Judge(setup, w);
  }

  /**
   * Scores a next turn's end for a lone robot (index 0), in registers of delay as endCost counts
   * them: finishing in register r counts r − 5 (ahead of a robot on the flag at the end).
   */
  readonly nextScore: Evaluate = (s, kind, _reg, finishedAt) => {
    const r = s.robots[0]!;
    if (finishedAt) return 5 - finishedAt - (kind === 'destroyed' ? 1 : 0);
    if (kind === 'destroyed') return r.status === 'out' ? -this.judge.lifeCost(0) * 3 : -this.judge.destroyedCost(r);
    return -this.judge.endCost(s.robots, 0);
  };

  /** A hand drawn for next turn's deal: shuffled once per round, so that every program meets the same cards. */
  handDraw(rng: RngState): HandDraw {
    const rules = this.setup.rules;
    if (rules.drawOdds) {
      const drawn = drawInstructions(rng, rules.drawOdds, rules.handSize(0));
      return (ended, i) => drawn.slice(0, rules.handSize(ended.robots[i]!.damage));
    }
    const deck = shuffle(rng, DECK.slice());
    return (ended, i) => {
      const held = new Set<Card>();
      for (const r of ended.robots) for (let k = 0; k < 5; k++) if (r.locked & (1 << k) && r.registers[k]) held.add(r.registers[k]!);
      const n = rules.handSize(ended.robots[i]!.damage);
      const hand: Card[] = [];
      for (const c of deck) {
        if (hand.length >= n) break;
        if (!held.has(c)) hand.push(c);
      }
      return hand;
    };
  }

  /** The best next turn of robot i from `ended` (a turn ended, robot i on the floor) with `hand`: its score. */
  nextTurn(ended: GameState, i: number, hand: readonly Card[], order: readonly number[]): number {
    const sim = new Sim(this.setup, ended, { alone: i });
    const found = searchPrograms(sim, 0, hand, this.nextScore, { order });
    this.meter.spend(found.leaves);
    return found.score;
  }

  /** The next turn powered down from `ended`: no cards, damage cleared, the floor still moving it. */
  downTurn(ended: GameState, i: number): number {
    const st = cloneState(ended);
    const r = st.robots[i]!;
    r.damage = 0;
    r.locked = 0;
    r.poweredDown = true;
    const sim = new Sim(this.setup, st, { alone: i });
    const me = sim.robots[0]!;
    for (let reg = 1; reg <= 5; reg++) {
      sim.setCard(0, reg, 0);
      sim.register(reg);
      if (me.status !== 'active') return this.nextScore(sim, 'destroyed', reg, 0);
    }
    me.poweredDown = false;
    this.meter.spend(1);
    return this.nextScore(sim, 'end', 5, 0);
  }
}

/** Where robot i's program ends, the others standing still, after the end of the turn; null if destroyed or finished. */
function endOf(setup: Setup, sim: Sim, i: number, program: readonly Card[]): GameState | null {
  const r = sim.robots[i]!;
  const n = setup.board.flags.length;
  let k = 0;
  for (let reg = 1; reg <= 5; reg++) {
    if (!(r.locked & (1 << (reg - 1)))) sim.setCard(i, reg, program[k++] ?? 0);
    sim.register(reg);
    if (r.status !== 'active' || (n > 0 && r.flags >= n)) return null;
  }
  const ended = endTurn(setup, cloneState(sim.state), { events: false });
  return ended.ok && ended.value.state.robots[i]!.status === 'active' ? ended.value.state : null;
}

/** The expert's orders, with the given weights; `budget` bounds the work (default `DEFAULT_BUDGET`). */
export function expertOrdersWith(w: ExpertWeights) {
  return (setup: Setup, state: GameState, i: number, seed: number, budget: Budget = DEFAULT_BUDGET): Orders =>
    expertDecision(setup, state, i, seed, budget, w).orders;
}

/** The expert's orders, and the evaluations they took. */
export function expertDecision(
  setup: Setup, state: GameState, i: number, seed: number, budget: Budget = DEFAULT_BUDGET, w: ExpertWeights = EXPERT_WEIGHTS,
): { orders: Orders; evaluations: number } {
  const meter = new Meter(budget);
  return { orders: decide(setup, state, i, seed, meter, w), evaluations: meter.evaluations };
}

function decide(setup: Setup, state: GameState, i: number, seed: number, meter: Meter, w: ExpertWeights): Orders {
  {
    const idle = idleOrders(state, i);
    if (idle) return idle;
    const robot = state.robots[i]!;
    const ex = new Expert(setup, w, meter);
    const judge = ex.judge;
    const rng = decisionRng(seed, state, i);
    const order = shuffle(rng, [0, 1, 2, 3, 4, 5, 6]);
    const sim = new Sim(setup, state);
    const evaluate = judge.scorer(i);
    const found = searchPrograms(sim, i, robot.hand, evaluate, { order, keep: w.candidates });
    meter.spend(found.leaves);
    const cards = byType(robot.hand);
    const cands: Candidate[] = found.top.map((c) => ({ program: programOf(c.types, robot.locked, cards, order), turn: c.score, samples: 1, next: 0, hands: 0, ended: undefined }));
    if (!cands.length) cands.push({ program: found.program, turn: found.score, samples: 1, next: 0, hands: 0, ended: undefined });
    if (found.score >= FINISHED / 2) return { program: cands[0]!.program };
    const root = sim.newSnapshot();
    sim.save(root);
    if (setup.rules.priorities && near(state, i, movingRivals(state, i))) {
      // Other cards of the same types: they differ only when the others move (priority decides who goes first).
      for (const c of cands.slice(0, 3)) for (const v of priorityVariants(c.program, robot.hand)) cands.push({ program: v, turn: c.turn, samples: 1, next: 0, hands: 0, ended: undefined, parent: c });
    }
    const rivals = new Rivals(judge, state, i, movingRivals(state, i));
    const look = cands.slice(0, w.lookahead);
    const value = (c: Candidate, neutral: number) => {
      const p = c.parent ?? c;
      return c.turn / c.samples + (p.hands ? p.next / p.hands : neutral);
    };
    for (let round = 0; round < w.rounds && meter.left(); round++) {
      if (rivals.rivals.length) {
        const spent = rivals.leaves;
        const scenario = rivals.sample(rng, round);
        meter.spend(rivals.leaves - spent);
        for (const [j, p] of scenario) setProgram(sim, j, p);
        for (const c of cands) {
          sim.restore(root);
          c.turn += playProgram(sim, i, c.program, evaluate);
          c.samples++;
        }
        meter.spend(cands.length);
        for (const j of rivals.rivals) setProgram(sim, j, []);
      }
      const draw = ex.handDraw(rng);
      for (const c of look) {
        if (!meter.left()) break;
        if (c.ended === undefined) {
          sim.restore(root);
          c.ended = endOf(setup, sim, i, c.program);
        }
        if (!c.ended) continue;
        // The gain of the next turn over standing where the turn ends: the look beyond the turn
        // (both alone: the others' lasers at the end of this turn stay in its score).
        const stay = -judge.endCost([c.ended.robots[i]!], 0);
        c.next += ex.nextTurn(c.ended, i, draw(c.ended, i), order) - stay;
        c.hands++;
      }
    }
    sim.restore(root);
    const looked = look.filter((c) => c.hands);
    const neutral = looked.length ? looked.reduce((a, c) => a + c.next / c.hands, 0) / looked.length : 0;
    // Programs looked beyond compete among themselves (the others have no next turn to weigh).
    const pool = looked.length ? cands.filter((c) => (c.parent ?? c).hands || (c.parent ?? c).ended === null) : cands;
    let best = pool[0]!;
    for (const c of pool) if (value(c, neutral) > value(best, neutral)) best = c;
    const orders: { program: Card[]; powerDown?: boolean } = { program: best.program };
    if (setup.rules.powerDownRefusal(robot) === null && meter.left() && shouldPowerDown(ex, sim, root, i, best, rng)) orders.powerDown = true;
    return orders;
  }
}

/**
 * The power down, by the same evaluation: the next turn powered down (no cards, the damage
 * cleared) against the next turn with the hands it may be dealt, from where the program ends.
 */
function shouldPowerDown(ex: Expert, sim: Sim, root: Parameters<Sim['restore']>[0], i: number, best: Candidate, rng: RngState): boolean {
  if (best.ended === undefined) {
    sim.restore(root);
    best.ended = endOf(ex.setup, sim, i, best.program);
  }
  const ended = best.ended;
  if (!ended) return false;
  const r = ended.robots[i]!;
  if (r.damage === 0 || togo(ex.judge.m, r.flags, r.x, r.y, r.dir, 1) <= 3) return false;
  let goOn = 0;
  const hands = Math.max(1, Math.min(2, best.hands));
  for (let k = 0; k < hands; k++) goOn += ex.nextTurn(ended, i, ex.handDraw(rng)(ended, i), [0, 1, 2, 3, 4, 5, 6]);
  return ex.downTurn(ended, i) > goOn / hands + ex.w.turnDown;
}

/**
 * Re-entry facing by the same evaluation: for each facing, the next turn from the archive with
 * hands it may be dealt (the same hands for every facing); ties go to the way of the paths.
 */
export function expertReentry(setup: Setup, state: GameState, i: number, seed: number, budget: Budget = DEFAULT_BUDGET): Reentry {
  const r = state.robots[i]!;
  if (r.status !== 'destroyed') return {};
  const [x, y] = r.archive ?? r.start;
  const fallback = bestFacing(setup, x, y, r.flags);
  if (!setup.rules.reentryChoice || r.lives <= 0 || state.phase !== 'ended') return { dir: fallback };
  const ex = new Expert(setup, EXPERT_WEIGHTS, new Meter(budget));
  const rng = decisionRng(seed, state, i);
  const draws = [ex.handDraw(rng), ex.handDraw(rng)];
  let best: Dir = fallback;
  let bestScore = -Infinity;
  const facings = [fallback, ...([0, 1, 2, 3] as Dir[]).filter((d) => d !== fallback)];
  for (const d of facings) {
    if (!ex.meter.left()) break;
    const begun = beginTurn(setup, state, { [i]: { dir: d } }, { events: false });
    if (!begun.ok) continue;
    // The deal beginTurn made is put away: the bot sees only hands drawn from its own generator.
    const st = begun.value.state;
    const me = st.robots[i]!;
    if (me.status !== 'active' || me.poweredDown) continue;
    st.phase = 'ended';
    let score = 0;
    for (const draw of draws) score += ex.nextTurn(st, i, draw(st, i), [0, 1, 2, 3, 4, 5, 6]);
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return { dir: best };
}

/**
 * The two-wrench choice by the same judgement: an option while the repair it takes the place of
 * costs less than `optionValue` registers of delay; the order names the most damage at which it
 * still takes one (003's conditional order: the damage is known only when the turn ends).
 */
export function expertOptionThreshold(setup: Setup, w: ExpertWeights = EXPERT_WEIGHTS): number {
  const judge = new Judge(setup, w);
  const rep = setup.rules.repair.doubleWrench;
  let most = -1;
  for (let d = 0; d < setup.rules.destroyAt; d++) {
    if (judge.damageCost(d) - judge.damageCost(Math.max(0, d - rep)) <= w.optionValue) most = d;
    else break;
  }
  return most;
}

export const expertOrders = expertOrdersWith(EXPERT_WEIGHTS);

export const expertBot: Bot = {
  level: 'expert',
  chooseOrders: expertOrders,
  chooseReentry: expertReentry,
  chooseFacing: (setup, [x, y]) => bestFacing(setup, x, y, 0),
};
