/**
 * The expert bot: the strong bot's search and judgement (strong.ts), looking beyond the turn.
 *
 * 1. The search over its hand, the others standing still, keeps the best `candidates` programs
 *    (cut by the strong bot's bound, `Judge.bound`: the same programs, fewer leaves);
 *    with another robot within reach, whole searches with the others playing the programs of the
 *    first deals of their hands (two, or three where the move order has no priorities) add theirs,
 *    and same-type cards of other priorities.
 * 2. Then, in rounds while the budget lasts (budget.ts: evaluations, or a time on the caller's
 *    clock), each round adds
 *    - one deal of the others' plausible hands and their best programs with them (a sample, not a
 *      prediction: the candidates are scored by the mean over the samples, standing still being one),
 *      where what the others lose counts too: `kill` for another robot destroyed during the turn,
 *      `hurt` for each point of damage it takes (pushed into a pit, shot: in a head-to-head race
 *      the other's turns lost are as good as one's own gained);
 *    - `hands` hands it may be dealt next turn, and for every program (after `narrowAfter` rounds,
 *      for the `contenders` best programs so far only) the best lone next turn with each (lone.ts:
 *      on the course maps' transitions, every ordering of the hand's types) from where the program
 *      ends, after the end of the turn (repairs, locked registers: the engine's
 *      `endTurn`), with a whole hand: the fewer cards and locked registers its damage leaves it are
 *      the judge's cost of carrying damage, already in the turn's score (counted twice, they made
 *      it shy of every laser: 56 of 140 head-to-head classic races won, against 68 with a whole
 *      hand). The board lasers the lone turn ends a register in cost what the judge's cost of
 *      damage says (left free, a beam crossed next turn looked some three registers cheaper than
 *      one crossed now, and the expert waited before one turn after turn). A program is worth
 *      where the next turn can take it, not only where it stands: the turn's registers to go
 *      count what a dealt hand really allows (no Move 3 in every register),
 *      which the distance maps' expectation does not.
 * 3. The same two-turn evaluation decides the power down where the move order has no priorities
 *    (pbem: the next turn powered down, damage cleared, the floor still moving it, against the next
 *    turn with the hands it would hold; where priorities decide the order (classic) the strong
 *    bot's rule won more: 226 of 380 head-to-head races against 200, docs/bots.md 2026-11-29), the
 *    facing at re-entry (each facing's next turn with the hands it may be dealt) and the
 *    two-wrench choice (an option while the repair it forgoes costs less than `optionValue`).
 *
 * Deterministic for a seed with a budget of evaluations; a time budget trades that for a bound on
 * the decision's time. Without a budget it spends `DEFAULT_BUDGET`.
 */
import {
  DECK, beginTurn, cloneState, endTurn, type Card, type Dir, type GameState, type Orders, type Reentry, type RobotState, type Setup,
} from '../../engine/src/index.js';
import { shuffle, type RngState } from '../../engine/src/index.js';
import { Meter, type Budget } from './budget.js';
import { decisionRng, idleOrders, type Bot } from './common.js';
import { togo } from './distance.js';
import { bestLoneTurn, typeCounts, type LoneStart } from './lone.js';
import { byType, playProgram, playPrograms, programOf, searchPrograms, setProgram, type Evaluate } from './search.js';
import { Sim, type Snapshot } from './sim.js';
import {
  DEFAULT_WEIGHTS, FINISHED, Judge, LONE_LEAVES, Rivals, bestFacing, drawInstructions, movingRivals, near, priorityVariants, shouldPowerDown as strongPowerDown, type StrongWeights,
} from './strong.js';

export interface ExpertWeights extends StrongWeights {
  /**
   * With another robot within reach: whole searches of its hand with the others playing the
   * programs of the first deals (rather than standing still), whose best programs join the candidates.
   */
  readonly moving: number;
  /**
   * The same where the move order goes by card type, with no priorities (pbem): a third search
   * there won 218 of 320 head-to-head races against 203 with two (fresh seeds 81-120), in classic
   * none more (docs/bots.md, 2026-11-29 18:30).
   */
  readonly movingByType: number;
  /** Rounds at most (each: a deal of the others' programs, and `hands` next hands). */
  readonly rounds: number;
  /** Next hands a round looks at. */
  readonly hands: number;
  /**
   * Rounds whose next hands are looked at for every program; the later rounds look at them only for
   * the `contenders` best programs so far (the others' deals are still played against every one).
   */
  readonly narrowAfter: number;
  /** Programs whose next hands a round after `narrowAfter` looks at. */
  readonly contenders: number;
  /** What an option card is worth against the repair it takes the place of, in registers of delay. */
  readonly optionValue: number;
  /**
   * What another robot destroyed during the turn is worth, in registers of delay, when its program
   * plays a deal of the others' (the same for every program unless the program has a hand in it: a
   * push into a pit or off the board, a shot, a square taken).
   */
  readonly kill: number;
  /** What a point of damage another robot takes during the turn is worth, likewise. */
  readonly hurt: number;
}

export const EXPERT_WEIGHTS: ExpertWeights = { ...DEFAULT_WEIGHTS, candidates: 24, moving: 2, movingByType: 3, rounds: 16, hands: 4, narrowAfter: 4, contenders: 6, optionValue: 2, kill: 8, hurt: 1 };

/** The budget of a decision when the caller sets none: about 40 ms on a quiet core. */
export const DEFAULT_BUDGET: Budget = { evaluations: 40_000 };

export interface Candidate {
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

/** One hand for each damage (or for `damage`), drawn alike for every program (common random numbers). */
type HandDraw = (ended: GameState, i: number, damage?: number) => Card[];

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
      return (ended, i, damage = ended.robots[i]!.damage) => drawn.slice(0, rules.handSize(damage));
    }
    const deck = shuffle(rng, DECK.slice());
    return (ended, i, damage = ended.robots[i]!.damage) => {
      const held = new Set<Card>();
      for (const r of ended.robots) for (let k = 0; k < 5; k++) if (r.locked & (1 << k) && r.registers[k]) held.add(r.registers[k]!);
      const n = rules.handSize(damage);
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
  const idle = idleOrders(state, i);
  if (idle) return idle;
  const robot = state.robots[i]!;
  const ex = new Expert(setup, w, meter);
  const judge = ex.judge;
  const rng = decisionRng(seed, state, i);
  const order = shuffle(rng, [0, 1, 2, 3, 4, 5, 6]);
  const sim = new Sim(setup, state);
  const evaluate = judge.scorer(i);
  const found = searchPrograms(sim, i, robot.hand, evaluate, { order, keep: w.candidates, bound: judge.bound(state.robots, i) });
  meter.spend(found.leaves);
  const cards = byType(robot.hand);
  const cand = (program: Card[], score: number, parent?: Candidate): Candidate =>
    ({ program, turn: score, samples: 1, next: 0, hands: 0, ended: undefined, parent });
  const cands: Candidate[] = found.top.map((c) => cand(programOf(c.types, robot.locked, cards, order), c.score));
  if (!cands.length) cands.push(cand(found.program, found.score));
  if (found.score >= FINISHED / 2) return { program: cands[0]!.program };
  const root = sim.newSnapshot();
  sim.save(root);
  const rivals = new Rivals(judge, state, i, movingRivals(state, i));
  const close = rivals.rivals.length > 0 && near(state, i, rivals.rivals);
  const versus = againstRivals(evaluate, state, rivals.rivals, w);
  // The first deals of the others' hands, drawn now: searched whole when another robot is near
  // (their best programs join the candidates), then played in the rounds like every deal.
  const deals: Map<number, Card[]>[] = [];
  const deal = (k: number): Map<number, Card[]> => {
    const spent = rivals.leaves;
    deals[k] ??= rivals.sample(rng, k);
    meter.spend(rivals.leaves - spent);
    return deals[k]!;
  };
  if (close) {
    const searches = setup.rules.priorities ? w.moving : w.movingByType;
    for (let k = 0; k < searches && meter.left(); k++) {
      for (const c of movingSearches(sim, root, i, robot, [deal(k)], cands, versus, evaluate, order, (n) => meter.spend(n))) cands.push(cand(c.program, c.score));
    }
    if (setup.rules.priorities) {
      // Other cards of the same types: they differ only when the others move (priority decides who goes first).
      for (const c of cands.slice(0, 3)) for (const v of priorityVariants(c.program, robot.hand)) cands.push({ ...cand(v, 0), turn: c.turn, parent: c });
    }
  }
  const starts = new Map<string, LoneStart | null>();
  // What the board lasers' hits cost in the next turn, by the damage it begins with.
  const hitCosts = new Map<number, Float64Array>();
  const hitsAt = (d: number): Float64Array => {
    let h = hitCosts.get(d);
    if (!h) hitCosts.set(d, (h = judge.hitCosts(d)));
    return h;
  };
  for (let round = 0; round < w.rounds && meter.left(); round++) {
    if (rivals.rivals.length) {
      const scenario = deal(round);
      playPrograms(sim, root, i, cands.map((c) => c.program), versus, scenario).forEach((score, k) => {
        cands[k]!.turn += score;
        cands[k]!.samples++;
      });
      meter.spend(cands.length);
      for (const j of rivals.rivals) setProgram(sim, j, []);
    }
    // Whole hands it may be dealt next turn, alike for every program (common random numbers), and
    // the best lone turn with each from where each program ends: a program is worth where the next
    // turn can take it, not only where it stands. Its damage is the judge's cost, counted once.
    const draws = Array.from({ length: w.hands }, () => ex.handDraw(rng));
    const gains = new Map<LoneStart, number>(); // programs that end alike share their look
    for (const c of lookedAt(cands, round, w)) {
      if (!meter.left()) break;
      if (c.ended === undefined) {
        sim.restore(root);
        c.ended = endOf(setup, sim, i, c.program);
      }
      if (!c.ended) continue;
      const start = loneStart(judge, c.ended, i, starts);
      if (!start) continue;
      let gain = gains.get(start);
      if (gain === undefined) {
        const stay = -togo(judge.m, start.flags, start.x, start.y, start.dir, 1);
        gain = 0;
        for (const draw of draws) {
          const t = bestLoneTurn(judge.m, start, typeCounts(draw(c.ended, i, 0)), hitsAt(c.ended.robots[i]!.damage));
          meter.spend(Math.ceil(t.leaves / LONE_LEAVES));
          gain += t.score - stay;
        }
        gains.set(start, gain);
      }
      c.next += gain;
      c.hands += draws.length;
    }
  }
  sim.restore(root);
  const neutral = neutralOf(cands);
  let best = cands[0]!;
  for (const c of cands) if (value(c, neutral) > value(best, neutral)) best = c;
  const orders: { program: Card[]; powerDown?: boolean } = { program: best.program };
  if (setup.rules.powerDownRefusal(robot) === null) {
    const down = setup.rules.priorities ? strongPowerDown(judge, sim, i, best.program) : meter.left() && shouldPowerDown(ex, sim, root, i, best.parent ?? best, rng);
    if (down) orders.powerDown = true;
  }
  return orders;
}

/** A program's value so far: the turn's mean over the deals and its next turn's (a variant's: its program's). */
function value(c: Candidate, neutral: number): number {
  const p = c.parent ?? c;
  return c.turn / c.samples + (p.hands ? p.next / p.hands : neutral);
}

/** The next turn's value of a program not looked at (destroyed, finished, or not yet): the mean of those looked at. */
function neutralOf(cands: readonly Candidate[]): number {
  const looked = cands.filter((c) => c.hands);
  return looked.length ? looked.reduce((a, c) => a + c.next / c.hands, 0) / looked.length : 0;
}

/**
 * The programs whose next hands round `round` (from 0) looks at, in the candidates' order: every
 * program in the first `narrowAfter` rounds, then the `contenders` best by their value so far (a
 * same-type variant standing for its program): the hands go where the choice is made.
 */
export function lookedAt(cands: readonly Candidate[], round: number, w: Pick<ExpertWeights, 'narrowAfter' | 'contenders'>): Candidate[] {
  const programs = cands.filter((c) => !c.parent);
  if (round < w.narrowAfter) return programs;
  const neutral = neutralOf(cands);
  const ranked = cands.map((c, k) => ({ c, k, v: value(c, neutral) })).sort((a, b) => b.v - a.v || a.k - b.k);
  const best = new Set<Candidate>();
  for (const { c } of ranked) {
    if (best.size >= w.contenders) break;
    best.add(c.parent ?? c);
  }
  return programs.filter((c) => best.has(c));
}

/**
 * The judge's score of robot i's end, plus what the others lost during the turn: `kill` for each
 * destroyed, `hurt` for each point of damage taken (a shot, a push into a pit).
 */
export function againstRivals(evaluate: Evaluate, state: GameState, rivals: readonly number[], w: ExpertWeights): Evaluate {
  if (!rivals.length || (!w.kill && !w.hurt)) return evaluate;
  const before = rivals.map((j) => state.robots[j]!.damage);
  return (s, kind, reg, finishedAt) => {
    let v = evaluate(s, kind, reg, finishedAt);
    rivals.forEach((j, n) => {
      const r = s.robots[j]!;
      if (r.status !== 'active') v += w.kill;
      else v += w.hurt * Math.max(0, r.damage - before[n]!);
    });
    return v;
  };
}

/** Programs kept from each search with the others moving. */
const MOVING_KEEP = 8;

/**
 * Whole searches with the others playing a deal's likely programs (the others standing still
 * misjudge a crowded start: who moves away, who pushes whom): their best programs not among the
 * candidates yet, each with its score with the others standing still, to be scored against the
 * deals with the rest.
 */
function movingSearches(
  sim: Sim, root: Snapshot, i: number, robot: RobotState, scenarios: readonly Map<number, Card[]>[],
  candidates: readonly { program: Card[] }[], versus: Evaluate, evaluate: Evaluate, order: readonly number[], spend: (leaves: number) => void = () => {},
): { program: Card[]; total: number; score: number }[] {
  const seen = new Set(candidates.map((c) => c.program.join()));
  const cards = byType(robot.hand);
  const out: { program: Card[]; total: number; score: number }[] = [];
  for (const scenario of scenarios) {
    for (const [j, p] of scenario) setProgram(sim, j, p);
    const found = searchPrograms(sim, i, robot.hand, versus, { order, keep: MOVING_KEEP });
    spend(found.leaves + found.top.length);
    for (const j of scenario.keys()) setProgram(sim, j, []);
    for (const c of found.top) {
      const program = programOf(c.types, robot.locked, cards, order);
      const key = program.join();
      if (seen.has(key)) continue;
      seen.add(key);
      sim.restore(root);
      const score = playProgram(sim, i, program, evaluate);
      out.push({ program, total: score, score });
    }
  }
  sim.restore(root);
  return out;
}

/**
 * Where robot i's next turn begins, from a turn's end (shared by the programs that end alike), its
 * registers all open (locked ones are in the judge's cost of damage); null if it cannot move.
 */
function loneStart(judge: Judge, ended: GameState, i: number, memo: Map<string, LoneStart | null>): LoneStart | null {
  const r = ended.robots[i]!;
  const key = `${r.x},${r.y},${r.dir},${r.flags},${r.locked},${r.registers.join()},${r.damage},${r.lives},${r.archive}`;
  let s = memo.get(key);
  if (s === undefined) {
    s = r.status !== 'active' || r.poweredDown || r.locked === 0b11111 ? null : {
      x: r.x, y: r.y, dir: r.dir, flags: r.flags, locked: 0, registers: r.registers.slice(),
      destroyed: judge.destroyedCost({ ...r, lives: r.lives - 1 }),
    };
    memo.set(key, s);
  }
  return s;
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
