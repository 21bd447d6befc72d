/**
 * How well and how fast the bots race, on every shipped course (boards/courses):
 *
 * - a lone strong bot over SOLO_SEEDS seeds: the share of races finished within MAX_TURNS turns,
 *   the median turn of the finish, deaths per race;
 * - the strong bot against three greedy bots, and against three random bots, in four-robot races
 *   (FOUR_SEEDS seeds each; the strong bot's seat turns with the seed): the share of races it wins
 *   (first to touch the last flag; a shared first place counts apart);
 * - the strong bot's time per decision (a turn's orders), median and 99th percentile: over all its
 *   decisions, and over those with a full hand (the rule set's hand at no damage: nine cards in classic, ten in pbem).
 *
 *   npm run bench:bots                               # tsc, then node dist/bench/bots.bench.js
 *   BENCH_SOLO_SEEDS=20 BENCH_FOUR_SEEDS=20 BENCH_RULES=classic npm run bench:bots
 *   BENCH_WORKERS=1 npm run bench:bots               # one thread (default: one per core, at most 4)
 *
 * Races are shared out among worker threads, a few seeds at a time; every race is deterministic
 * (its seed), so the numbers do not depend on the number of workers, only the times do.
 * Goals: every solo race on the easy courses finished; the strong bot wins at least 80% of the
 * four-robot races against greedy bots; median decision with a full hand at most 50 ms.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { makeSetup, type Setup } from '../engine/src/index.js';
import { courseNames, loadCourse } from '../boards/src/index.js';
import { courseMaps, type Level } from '../bots/src/index.js';
import { entrants, runBotRace } from '../driver/src/index.js';

const SOLO_SEEDS = Number(process.env.BENCH_SOLO_SEEDS ?? 100);
const FOUR_SEEDS = Number(process.env.BENCH_FOUR_SEEDS ?? 100);
const RULES = (process.env.BENCH_RULES ?? 'classic,pbem').split(',') as ('classic' | 'pbem')[];
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.min(4, availableParallelism()));
const MAX_TURNS = 60;
const CHUNK = 10;
const GOAL_WIN = 0.8;
const GOAL_MS = 50;

type Kind = 'solo' | 'greedy' | 'random';

interface Job {
  readonly kind: Kind;
  readonly course: string;
  readonly rules: 'classic' | 'pbem';
  readonly seeds: readonly number[];
}

interface RaceOutcome {
  readonly finishTurn: number | null;
  readonly deaths: number;
  /** Four-robot races: 'win', 'shared' (first place with another), 'lost' or 'none' (nobody finished). */
  readonly result: 'win' | 'shared' | 'lost' | 'none' | null;
  readonly turns: number;
  readonly refused: number;
}

interface JobResult {
  readonly job: Job;
  readonly races: RaceOutcome[];
  /** The strong bot's decisions: milliseconds, and the cards in hand. */
  readonly ms: number[];
  readonly cards: number[];
}

const setups = new Map<string, { setup: Setup; starts: readonly (readonly [number, number])[] }>();
function setupFor(course: string, rules: 'classic' | 'pbem') {
  const key = `${course}/${rules}`;
  let s = setups.get(key);
  if (!s) {
    const loaded = loadCourse(course);
    if (!loaded.ok) throw new Error(`${course}: ${loaded.error.field}: ${loaded.error.message}`);
    const c = loaded.value.course;
    const made = makeSetup(c.board, rules, {}, c.boards.length);
    if (!made.ok) throw new Error(`${course}: ${made.error.message}`);
    s = { setup: made.value, starts: c.starts };
    courseMaps(s.setup); // built once, before any decision is timed
    setups.set(key, s);
  }
  return s;
}

function runJob(job: Job): JobResult {
  const { setup, starts } = setupFor(job.course, job.rules);
  const races: RaceOutcome[] = [];
  const ms: number[] = [];
  const cards: number[] = [];
  for (const seed of job.seeds) {
    const n = job.kind === 'solo' ? 1 : 4;
    const seat = job.kind === 'solo' ? 0 : seed % 4;
    const levels: Level[] = Array.from({ length: n }, (_, k) => (k === seat ? 'strong' : (job.kind as Level)));
    const r = runBotRace(setup, {
      levels, seed, maxTurns: MAX_TURNS, timing: true, untilOver: job.kind !== 'solo',
      starts,
    });
    const me = r.robots[seat]!;
    const first = r.finished[0] ?? [];
    const result = job.kind === 'solo' ? null : !first.length ? 'none' : !first.includes(seat) ? 'lost' : first.length > 1 ? 'shared' : 'win';
    races.push({ finishTurn: me.finishTurn, deaths: me.deaths, result, turns: r.turns, refused: r.robots.reduce((a, x) => a + x.refused, 0) });
    ms.push(...r.decisionMs.strong);
    cards.push(...r.decisionCards.strong);
  }
  return { job, races, ms, cards };
}

async function main(): Promise<void> {
  const courses = courseNames();
  if (!courses.length) {
    console.log('No shipped courses in boards/courses: nothing to race on.');
    return;
  }
  const complexity = new Map(courses.map((c) => {
    const l = loadCourse(c);
    return [c, l.ok ? l.value.course.complexity : '?'] as const;
  }));
  // A course fits a rule set when it has the starts the rule set places four robots on.
  const usable = (course: string, rules: 'classic' | 'pbem') => {
    const l = loadCourse(course);
    if (!l.ok) return false;
    const four = Array.from({ length: 4 }, (_, k) => ({ name: `Bot${k + 1}`, dir: 0 as const }));
    return entrants(setupFor(course, rules).setup, l.value.course, four, 0).ok;
  };
  const jobs: Job[] = [];
  const seeds = (n: number) => Array.from({ length: n }, (_, k) => k + 1);
  const chunks = (s: number[]) => Array.from({ length: Math.ceil(s.length / CHUNK) }, (_, k) => s.slice(k * CHUNK, (k + 1) * CHUNK));
  for (const rules of RULES) {
    for (const course of courses) {
      if (!usable(course, rules)) continue;
      // The slowest jobs first, so that the workers finish together.
      for (const kind of ['greedy', 'random', 'solo'] as const)
        for (const s of chunks(seeds(kind === 'solo' ? SOLO_SEEDS : FOUR_SEEDS))) jobs.push({ kind, course, rules, seeds: s });
    }
  }
  console.log(`Bot benchmark: ${courses.length} courses (${RULES.join(', ')}); solo ${SOLO_SEEDS} seeds, four-robot races ${FOUR_SEEDS} seeds per opponent; at most ${MAX_TURNS} turns; ${WORKERS} worker thread${WORKERS === 1 ? '' : 's'}; node ${process.version}`);
  const t0 = performance.now();
  const results: JobResult[] = [];
  let next = 0;
  let done = 0;
  const progress = (): void => {
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${done}/${jobs.length} jobs, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  };
  await Promise.all(
    Array.from({ length: Math.max(1, WORKERS) }, () => new Promise<void>((resolve, reject) => {
      const w = new Worker(fileURLToPath(import.meta.url));
      w.on('error', reject);
      w.on('exit', () => resolve());
      w.on('message', (r: JobResult | null) => {
        if (r) {
          results.push(r);
          done++;
          progress();
        }
        w.postMessage(next < jobs.length ? jobs[next++]! : null);
      });
    })),
  );
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  const seconds = (performance.now() - t0) / 1000;
  report(results, courses, complexity, seconds);
}

const pct = (x: number): string => `${(100 * x).toFixed(0)}%`;
const pct1 = (x: number): string => `${(100 * x).toFixed(1)}%`;
const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

function report(results: JobResult[], courses: string[], complexity: Map<string, string>, seconds: number): void {
  const head = ['course', 'rules', 'complexity', 'solo done', 'median turns', 'deaths/race', 'vs greedy: won', 'shared', 'vs random: won', 'ms median', 'ms p99', 'full hand median', 'full hand p99'];
  const rows: string[][] = [];
  const allMs: number[] = [], fullMs: number[] = [];
  let greedyWins = 0, greedyRaces = 0, refused = 0;
  const byRules = new Map<string, { won: number; races: number }>();
  const easyUnfinished: string[] = [];
  for (const rules of RULES) {
    for (const course of courses) {
      const mine = results.filter((r) => r.job.course === course && r.job.rules === rules);
      if (!mine.length) continue;
      const races = (k: Kind) => mine.filter((r) => r.job.kind === k).flatMap((r) => r.races);
      const solo = races('solo'), vsG = races('greedy'), vsR = races('random');
      const finished = solo.filter((r) => r.finishTurn !== null);
      if (complexity.get(course) === 'easy' && finished.length < solo.length) easyUnfinished.push(`${course} (${rules}): ${solo.length - finished.length} of ${solo.length}`);
      const full = setupFor(course, rules).setup.rules.handSize(0);
      const ms = mine.flatMap((r) => r.ms);
      const fms = mine.flatMap((r) => r.ms.filter((_, k) => r.cards[k] === full));
      allMs.push(...ms);
      fullMs.push(...fms);
      const won = (rs: RaceOutcome[]) => rs.filter((r) => r.result === 'win').length;
      const shared = (rs: RaceOutcome[]) => rs.filter((r) => r.result === 'shared').length;
      greedyWins += won(vsG);
      greedyRaces += vsG.length;
      const tally = byRules.get(rules) ?? { won: 0, races: 0 };
      tally.won += won(vsG);
      tally.races += vsG.length;
      byRules.set(rules, tally);
      refused += mine.reduce((a, r) => a + r.races.reduce((b, x) => b + x.refused, 0), 0);
      rows.push([
        course, rules, complexity.get(course) ?? '?',
        `${finished.length}/${solo.length} ${pct(finished.length / Math.max(1, solo.length))}`,
        finished.length ? String(quantile(finished.map((r) => r.finishTurn!), 0.5)) : '-',
        (solo.reduce((a, r) => a + r.deaths, 0) / Math.max(1, solo.length)).toFixed(2),
        `${won(vsG)}/${vsG.length} ${pct(won(vsG) / Math.max(1, vsG.length))}`,
        String(shared(vsG)),
        `${won(vsR)}/${vsR.length} ${pct(won(vsR) / Math.max(1, vsR.length))}`,
        quantile(ms, 0.5).toFixed(1), quantile(ms, 0.99).toFixed(1),
        quantile(fms, 0.5).toFixed(1), quantile(fms, 0.99).toFixed(1),
      ]);
    }
  }
  const width = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, k) => (k < 3 ? c.padEnd(width[k]!) : c.padStart(width[k]!))).join('  ');
  console.log('');
  console.log(line(head));
  console.log(width.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log('');
  console.log(`strong decisions: ${allMs.length}, median ${quantile(allMs, 0.5).toFixed(1)} ms, p99 ${quantile(allMs, 0.99).toFixed(1)} ms; with a full hand: ${fullMs.length}, median ${quantile(fullMs, 0.5).toFixed(1)} ms, p99 ${quantile(fullMs, 0.99).toFixed(1)} ms`);
  console.log(`orders refused by the engine: ${refused}`);
  console.log(`total time ${seconds.toFixed(0)} s`);
  console.log('');
  const share = greedyWins / Math.max(1, greedyRaces);
  const medFull = quantile(fullMs, 0.5);
  console.log(`Goal: every solo race on the easy courses finished: ${easyUnfinished.length ? `NOT met (${easyUnfinished.join('; ')})` : 'met'}`);
  const parts = [...byRules].map(([rules, t]) => `${rules} ${t.won}/${t.races} ${pct1(t.won / Math.max(1, t.races))}`).join(', ');
  console.log(`Goal: strong wins ≥ ${pct(GOAL_WIN)} of four-robot races against greedy bots: ${share >= GOAL_WIN ? 'met' : 'NOT met'} (${greedyWins}/${greedyRaces}, ${pct1(share)}; ${parts})`);
  console.log(`Goal: median decision with a full hand ≤ ${GOAL_MS} ms: ${medFull <= GOAL_MS ? 'met' : 'NOT met'} (${medFull.toFixed(1)} ms)`);
}

if (!isMainThread) {
  parentPort!.on('message', (job: Job | null) => {
    if (!job) process.exit(0);
    parentPort!.postMessage(runJob(job));
  });
  parentPort!.postMessage(null); // ready
} else {
  await main();
}
