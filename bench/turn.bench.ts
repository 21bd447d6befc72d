/**
 * How long a turn takes: `playTurn` alone (five registers and the end of the turn, the programs
 * being in), and the whole cycle `beginTurn` + orders (`submitOrders` for every robot) +
 * `playTurn`. Two courses: 8 robots on the 24x24 course full of belts, gears, pushers and lasers,
 * and 2 robots on a 12x12 board; events recorded and not. Medians of many single-turn samples
 * (process.hrtime.bigint), after a warm-up.
 *
 *   npm run bench                  # tsc, then node dist/bench/turn.bench.js
 *   BENCH_SAMPLES=50000 npm run bench
 *
 * Robots have many lives, so that the course stays full; a game restarts every 50 turns.
 * Before the rows, the compiler is warmed on other streams (`BENCH_PREWARM` turns of each row, events
 * on and off, other seeds): the rows then measure code that has met robots holding options, as a
 * server's engine has after its first races, and the same turns of the same streams as before.
 * Goal (issue 17): median playTurn of an 8-robot turn at most 10 µs with events, 8 µs without.
 */
import {
  beginTurn, createState, makeSetup, parseBoard, playTurn, type BoardJson, type GameState, type Result, type Setup,
} from '../engine/src/index.js';
import { Rand, busyCourse24, randomOrders, randomReentry, randomRobots, smallCourse12 } from '../testkit/src/index.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000);
const PREWARM = Number(process.env.BENCH_PREWARM ?? 20000);
const GAME_TURNS = 50;
const GOAL_US = { on: 10, off: 8 };

function unwrap<T>(r: Result<T>, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.field}: ${r.error.message}`);
  return r.value;
}

interface Course {
  readonly name: string;
  readonly setup: Setup;
  readonly robots: number;
}

function course(name: string, json: BoardJson, robots: number): Course {
  const board = unwrap(parseBoard(json), name);
  return { name, setup: unwrap(makeSetup(board, 'classic', { lives: 9999 }), name), robots };
}

/** A stream of games on a course: fresh robots every GAME_TURNS turns, the same stream for every run. */
class Games {
  private rnd: Rand;
  private state!: GameState;
  private turns = 0;
  private game = 0;

  constructor(private readonly c: Course, seed: number) {
    this.rnd = new Rand(seed);
    this.restart();
  }

  private restart(): void {
    const robots = randomRobots(this.c.setup.board, this.c.robots, this.rnd);
    this.state = unwrap(createState(this.c.setup, robots, ++this.game), 'createState');
    this.turns = 0;
  }

  /** beginTurn and every robot's orders: the state playTurn starts from. */
  prepare(events: boolean): GameState {
    if (this.turns >= GAME_TURNS) this.restart();
    this.turns++;
    const begun = unwrap(beginTurn(this.c.setup, this.state, randomReentry(this.state, this.rnd), { events }), 'beginTurn');
    return unwrap(randomOrders(this.c.setup, begun.state, this.rnd), 'orders');
  }

  finish(state: GameState): void {
    this.state = state;
  }
}

interface Stats {
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
  readonly mean: number;
}

function stats(ns: Float64Array): Stats {
  const s = Float64Array.from(ns).sort();
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))]! / 1000;
  let sum = 0;
  for (const v of s) sum += v;
  return { median: at(0.5), p10: at(0.1), p90: at(0.9), mean: sum / s.length / 1000 };
}

/** playTurn alone: the state is prepared outside the clock. */
function measurePlayTurn(c: Course, events: boolean, seed = 1, samples = SAMPLES): Stats {
  const g = new Games(c, seed);
  const o = { events };
  for (let k = 0; k < WARMUP; k++) g.finish(unwrap(playTurn(c.setup, g.prepare(events), o), 'playTurn').state);
  const ns = new Float64Array(samples);
  for (let k = 0; k < samples; k++) {
    const st = g.prepare(events);
    const t0 = process.hrtime.bigint();
    const res = playTurn(c.setup, st, o);
    const t1 = process.hrtime.bigint();
    ns[k] = Number(t1 - t0);
    g.finish(unwrap(res, 'playTurn').state);
  }
  return stats(ns);
}

/** The whole cycle: beginTurn, orders for every robot (submitOrders), playTurn. */
function measureCycle(c: Course, events: boolean, seed = 2, samples = SAMPLES): Stats {
  const rnd = new Rand(seed);
  const o = { events };
  let game = 0;
  let state = unwrap(createState(c.setup, randomRobots(c.setup.board, c.robots, rnd), ++game), 'createState');
  let turns = 0;
  const cycle = (): void => {
    const begun = unwrap(beginTurn(c.setup, state, randomReentry(state, rnd), o), 'beginTurn');
    const ordered = unwrap(randomOrders(c.setup, begun.state, rnd), 'orders');
    state = unwrap(playTurn(c.setup, ordered, o), 'playTurn').state;
  };
  const next = (): void => {
    if (++turns > GAME_TURNS) {
      state = unwrap(createState(c.setup, randomRobots(c.setup.board, c.robots, rnd), ++game), 'createState');
      turns = 1;
    }
  };
  for (let k = 0; k < WARMUP; k++) {
    next();
    cycle();
  }
  const ns = new Float64Array(samples);
  for (let k = 0; k < samples; k++) {
    next();
    const t0 = process.hrtime.bigint();
    cycle();
    const t1 = process.hrtime.bigint();
    ns[k] = Number(t1 - t0);
  }
  return stats(ns);
}

const fmt = (v: number, w = 9): string => v.toFixed(2).padStart(w);
const perSec = (us: number): string => Math.round(1e6 / us).toLocaleString('en-US').padStart(10);

function main(): void {
  const courses = [course('24x24 busy course', busyCourse24(), 8), course('12x12 course', smallCourse12(), 2)];
  console.log(`Turn benchmark: ${SAMPLES} samples per row after ${WARMUP} warm-up turns, the compiler warmed by ${PREWARM} turns of each row on other streams; node ${process.version}`);
  const rows = [
    ['playTurn (5 registers + end of turn)', measurePlayTurn],
    ['beginTurn + orders + playTurn', measureCycle],
  ] as const;
  if (PREWARM > 0) for (const c of courses) for (const [, measure] of rows) for (const events of [true, false]) measure(c, events, 1001, PREWARM);
  console.log('µs per turn (median, 10th and 90th percentile, mean); turns/s from the median\n');
  const head = `${'course'.padEnd(18)} ${'robots'.padStart(6)} ${'measured'.padEnd(34)} ${'events'.padEnd(6)} ${'median'.padStart(9)} ${'p10'.padStart(9)} ${'p90'.padStart(9)} ${'mean'.padStart(9)} ${'turns/s'.padStart(10)}`;
  console.log(head);
  console.log('-'.repeat(head.length));
  const goal: { on?: number; off?: number } = {};
  for (const c of courses) {
    for (const [what, measure] of rows) {
      for (const events of [true, false]) {
        const s = measure(c, events);
        if (c.robots === 8 && measure === measurePlayTurn) goal[events ? 'on' : 'off'] = s.median;
        console.log(`${c.name.padEnd(18)} ${String(c.robots).padStart(6)} ${what.padEnd(34)} ${(events ? 'on' : 'off').padEnd(6)} ${fmt(s.median)} ${fmt(s.p10)} ${fmt(s.p90)} ${fmt(s.mean)} ${perSec(s.median)}`);
      }
    }
  }
  for (const mode of ['on', 'off'] as const) {
    const median = goal[mode];
    if (median !== undefined) console.log(`${mode === 'on' ? '\n' : ''}Goal: median playTurn of an 8-robot turn, events ${mode}, ≤ ${GOAL_US[mode]} µs: ${median <= GOAL_US[mode] ? 'met' : 'NOT met'} (${median.toFixed(2)} µs)`);
  }
}

main();
