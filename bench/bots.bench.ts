/**
 * How well and how fast the bots race, through the shared race driver (`runBotRace`: the bots
 * decide with their option decisions, as on the server), on every shipped course and every rule
 * set the engine has (`RULE_SETS`), a row per course and rule set:
 *
 * - `greedy`: the strong bot against three greedy bots in four-robot races (its seat turns with
 *   the seed): the share of races it wins (first alone to touch the last flag), with a 95% Wilson
 *   interval; goal ≥ 90%; and where they were decided: the mean turn of the first finish in the
 *   races it won and in those it lost, its robot's deaths and power downs a race;
 * - `expert`: the expert bot against the strong bot, head to head (seats alternate with the seed):
 *   the share the expert wins; goal ≥ 65%;
 * - `solo`: a lone strong bot's turns to finish, beside a bot that knows the coming deals on the
 *   same seed (bots' clairvoyant.ts: the engine's own deals, a beam search), over the seeds both finish;
 *   and a lone greedy bot's on the same seed, for a yardstick of the `greedy` row: the share of
 *   draws of one strong (or clairvoyant) race and three greedy races, each alone, from the row's
 *   seeds, in which the one finishes in a turn before all three (no pushes, no robots' lasers);
 * - decision times: the strong bot's in the four-robot races (p99 goal ≤ 15 ms), the expert's in
 *   its races (p99 goal ≤ 100 ms, within the budget the caller sets: evaluations, and with
 *   `--budget-ms N` a time too, read on the clock the decisions are timed on).
 *
 *   npm run bench:bots                                       # everything, 100 seeds a row
 *   npm run bench:bots -- --seeds 10 --courses first-shift --rules classic --rows greedy,solo
 *   npm run bench:bots -- --workers 1 --budget 20000 --out results.ndjson
 *   npm run bench:bots -- --rows greedy --first 101                 # fresh seeds: 101 to 200
 *   npm run bench:bots -- --rows expert --budget-ms 90              # the expert within 90 ms a decision
 *
 * Races are shared out among worker processes, a few seeds at a time; every race is deterministic
 * (its seed, and the expert's budget counted in evaluations), so the numbers do not depend on the
 * number of workers or the machine's load; with `--budget-ms` the expert's races depend on the
 * machine's speed (the header says so). Decisions are timed on the worker's CPU time
 * (`process.cpuUsage`: what the decision costs, not how long it waited for a core on a shared
 * machine; `--clock wall` for wall time). The load average is printed at the start and the end,
 * and with each job done (on stderr).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { fork, type ChildProcess } from 'node:child_process';
import { RULE_SETS, makeSetup, type Setup, type Square } from '../engine/src/index.js';
import { courseNames, loadCourse } from '../boards/src/index.js';
import { DEFAULT_BUDGET, clairvoyantRace, courseMaps, type Level } from '../bots/src/index.js';
import { entrants, runBotRace, startRace } from '../driver/src/index.js';

const ROWS = ['greedy', 'expert', 'solo'] as const;
type Kind = (typeof ROWS)[number];

interface Args {
  readonly seeds: number;
  /** The first seed of a row (then `seeds` in a row): other seeds than the ones a change was chosen on. */
  readonly first: number;
  readonly courses: readonly string[];
  readonly rules: readonly string[];
  readonly rows: readonly Kind[];
  readonly workers: number;
  readonly budget: number;
  /** The expert's time budget a decision, in ms on the decisions' clock; null: evaluations only. */
  readonly budgetMs: number | null;
  readonly out: string | null;
  readonly clock: 'cpu' | 'wall';
}

function parseArgs(argv: readonly string[]): Args {
  const get = (name: string): string | undefined => {
    const k = argv.indexOf(`--${name}`);
    return k >= 0 ? argv[k + 1] : undefined;
  };
  for (let k = 0; k < argv.length; k += 2)
    if (!['--seeds', '--first', '--courses', '--rules', '--rows', '--workers', '--budget', '--budget-ms', '--out', '--clock'].includes(argv[k]!)) throw new Error(`unknown option ${argv[k]} (expected --seeds N --first N --courses a,b --rules a,b --rows ${ROWS.join(',')} --workers N --budget N --budget-ms N --out file --clock cpu|wall)`);
  const list = (name: string, all: readonly string[]): string[] => {
    const v = get(name);
    if (v === undefined) return all.slice();
    const out = v.split(',').filter(Boolean);
    for (const x of out) if (!all.includes(x)) throw new Error(`--${name}: unknown "${x}" (expected ${all.join(', ')})`);
    return out;
  };
  const whole = (name: string, dflt: number): number => {
    const v = get(name);
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: expected a whole number ≥ 1, found "${v}"`);
    return n;
  };
  return {
    seeds: whole('seeds', 100),
    first: whole('first', 1),
    courses: list('courses', courseNames()),
    rules: list('rules', Object.keys(RULE_SETS)),
    rows: list('rows', ROWS) as Kind[],
    workers: whole('workers', Math.min(4, availableParallelism())),
    budget: whole('budget', DEFAULT_BUDGET.evaluations!),
    budgetMs: get('budget-ms') === undefined ? null : whole('budget-ms', 1),
    out: get('out') ?? null,
    clock: get('clock') === undefined ? 'cpu' : (list('clock', ['cpu', 'wall'])[0] as 'cpu' | 'wall'),
  };
}

/** The expert's budget as the header and its line say it. */
const budgetText = (a: Args): string =>
  `${a.budget} evaluations${a.budgetMs !== null ? ` and ${a.budgetMs} ms a decision (${a.clock === 'cpu' ? 'CPU' : 'wall'} time: the races depend on the machine's speed)` : ''}`;

const MAX_TURNS = 60;
const CHUNK = 5;
const GOAL_GREEDY = 0.9;
const GOAL_EXPERT = 0.65;
const GOAL_STRONG_P99 = 15;
const GOAL_EXPERT_P99 = 100;

interface Job {
  readonly kind: Kind;
  readonly course: string;
  readonly rules: string;
  readonly seeds: readonly number[];
  readonly budget: number;
  readonly budgetMs: number | null;
  readonly clock: 'cpu' | 'wall';
}

interface RaceOutcome {
  readonly seed: number;
  /** Races of several: 'win', 'shared' (first place with another), 'lost' or 'none' (nobody finished). */
  readonly result: 'win' | 'shared' | 'lost' | 'none' | null;
  /** Solo: the strong bot's finishing turn, the clairvoyant's, and a lone greedy bot's. */
  readonly finishTurn: number | null;
  readonly clairvoyant: number | null;
  readonly greedy?: number | null;
  readonly refused: number;
  /** Races of several: the turn the first finished in, and the bot's robot's deaths and power downs. */
  readonly firstTurn?: number | null;
  readonly deaths?: number;
  readonly powerDowns?: number;
}

interface JobResult {
  readonly job: Job;
  readonly races: RaceOutcome[];
  /** Decision milliseconds of the strong bot and of the expert. */
  readonly strongMs: number[];
  readonly expertMs: number[];
}

const setups = new Map<string, { setup: Setup; starts: readonly Square[] }>();
function setupFor(course: string, rules: string) {
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
  const strongMs: number[] = [];
  const expertMs: number[] = [];
  const clock = job.clock === 'wall' ? () => performance.now() : () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const budgets = { expert: { evaluations: job.budget, ...(job.budgetMs !== null ? { ms: job.budgetMs, now: clock } : {}) } };
  for (const seed of job.seeds) {
    if (job.kind === 'solo') {
      const r = runBotRace(setup, { levels: ['strong'], seed, maxTurns: MAX_TURNS, starts, budgets });
      // The same start and deal for the bot that knows the deals.
      const playOn: Setup = { ...setup, settings: { ...setup.settings, playOn: true } };
      const placed = entrants(playOn, { start: setup.board.start, starts }, [{ name: 'Bolt', level: 'strong' }], seed);
      if (!placed.ok) throw new Error(`${job.course}: ${placed.error.message}`);
      const started = startRace(playOn, placed.value, seed, { events: false });
      if (!started.ok) throw new Error(`${job.course}: ${started.error.message}`);
      const c = clairvoyantRace(playOn, started.value.dealt.state, { maxTurns: MAX_TURNS });
      const g = runBotRace(setup, { levels: ['greedy'], seed, maxTurns: MAX_TURNS, starts, budgets });
      races.push({ seed, result: null, finishTurn: r.robots[0]!.finishTurn, clairvoyant: c.finishTurn, greedy: g.robots[0]!.finishTurn, refused: r.robots[0]!.refused + g.robots[0]!.refused });
      continue;
    }
    const n = job.kind === 'greedy' ? 4 : 2;
    const seat = seed % n;
    const other: Level = job.kind === 'greedy' ? 'greedy' : 'strong';
    const mine: Level = job.kind === 'greedy' ? 'strong' : 'expert';
    const levels: Level[] = Array.from({ length: n }, (_, k) => (k === seat ? mine : other));
    const r = runBotRace(setup, { levels, seed, maxTurns: MAX_TURNS, timing: true, clock, untilOver: true, starts, budgets });
    const first = r.finished[0] ?? [];
    const result = !first.length ? 'none' : !first.includes(seat) ? 'lost' : first.length > 1 ? 'shared' : 'win';
    const firstTurn = first.length ? r.robots[first[0]!]!.finishTurn : null;
    const me = r.robots[seat]!;
    races.push({ seed, result, finishTurn: me.finishTurn, clairvoyant: null, refused: r.robots.reduce((a, x) => a + x.refused, 0), firstTurn, deaths: me.deaths, powerDowns: me.powerDowns });
    strongMs.push(...r.decisionMs.strong);
    expertMs.push(...r.decisionMs.expert);
  }
  return { job, races, strongMs, expertMs };
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  if (!a.courses.length) {
    console.log('No shipped courses in boards/courses: nothing to race on.');
    return;
  }
  // A course fits a rule set when it has the starts the rule set places the race's robots on.
  const usable = (course: string, rules: string, n: number) => {
    const l = loadCourse(course);
    if (!l.ok) return false;
    const seats = Array.from({ length: n }, (_, k) => ({ name: `Bot${k + 1}`, dir: 0 as const }));
    return entrants(setupFor(course, rules).setup, l.value.course, seats, 0).ok;
  };
  const jobs: Job[] = [];
  const seeds = Array.from({ length: a.seeds }, (_, k) => k + a.first);
  const chunks = Array.from({ length: Math.ceil(seeds.length / CHUNK) }, (_, k) => seeds.slice(k * CHUNK, (k + 1) * CHUNK));
  // Row by row, the rows asked first first, so that a run stopped early has whole rows.
  for (const kind of a.rows)
    for (const rules of a.rules)
      for (const course of a.courses) {
        if (!usable(course, rules, kind === 'greedy' ? 4 : kind === 'expert' ? 2 : 1)) continue;
        for (const s of chunks) jobs.push({ kind, course, rules, seeds: s, budget: a.budget, budgetMs: a.budgetMs, clock: a.clock });
      }
  const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  const started = new Date().toISOString();
  console.log(`Bot benchmark, ${started}: ${a.courses.length} course(s) (${a.rules.join(', ')}); rows ${a.rows.join(', ')}; ${a.seeds} seeds a row (${a.first} to ${a.first + a.seeds - 1}); at most ${MAX_TURNS} turns; expert budget ${budgetText(a)}; decisions timed on ${a.clock === 'cpu' ? 'CPU time' : 'wall time'}; ${a.workers} worker process(es) on ${availableParallelism()} core(s); node ${process.version}; load average ${load()}`);
  if (a.out) writeFileSync(a.out, '');
  const t0 = performance.now();
  const results: JobResult[] = [];
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(a.workers, jobs.length)) }, () => new Promise<void>((resolve, reject) => {
      const w: ChildProcess = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, BOTS_BENCH_WORKER: '1' } });
      w.on('error', reject);
      w.on('exit', (code) => (code ? reject(new Error(`a worker stopped with ${code}`)) : resolve()));
      w.on('message', (m) => {
        const r = m as JobResult | null;
        if (r) {
          results.push(r);
          done++;
          if (a.out) appendFileSync(a.out, JSON.stringify(r) + '\n');
          const j = r.job;
          process.stderr.write(`[${done}/${jobs.length}] ${j.kind} ${j.rules} ${j.course} seeds ${j.seeds[0]}-${j.seeds.at(-1)}: ${((performance.now() - t0) / 1000).toFixed(0)} s, load ${load()}\n`);
        }
        w.send(next < jobs.length ? jobs[next++]! : 'done');
      });
    })),
  );
  report(results, a, (performance.now() - t0) / 1000, started, load());
}

const pct = (x: number): string => `${(100 * x).toFixed(0)}%`;
const quantile = (xs: readonly number[], q: number): number => {
  if (!xs.length) return NaN;
  const s = xs.slice().sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

/** The 95% Wilson score interval of k successes in n. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (!n) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * The share of draws of one race of `mine` and three of `greedy` (turns to finish, each from the
 * row's lone races, drawn independently; null: not finished) in which `mine` finishes in a turn
 * before all three, and in a turn before or with them: what racing alone would give against three
 * greedy bots racing alone.
 */
export function aheadOfThree(mine: readonly (number | null)[], greedy: readonly (number | null)[]): [number, number] {
  const g = greedy.map((t) => t ?? Infinity);
  if (!mine.length || !g.length) return [NaN, NaN];
  let before = 0, withThem = 0;
  for (const t of mine) {
    if (t === null) continue;
    const later = g.filter((x) => x > t).length / g.length;
    const notSooner = g.filter((x) => x >= t).length / g.length;
    before += later ** 3;
    withThem += notSooner ** 3;
  }
  return [before / mine.length, withThem / mine.length];
}

const share = (k: number, n: number): string => {
  if (!n) return '-';
  const [lo, hi] = wilson(k, n);
  return `${k}/${n} ${pct(k / n)} [${pct(lo)}, ${pct(hi)}]`;
};

/** The `greedy` row's yardstick from the lone races: strong's and the clairvoyant's share ahead of three greedy bots (before them – before or with them). */
function yardstick(solo: readonly RaceOutcome[]): string {
  const greedy = solo.map((r) => r.greedy ?? null);
  const range = ([a, b]: [number, number]) => `${pct(a)}–${pct(b)}`;
  return `${range(aheadOfThree(solo.map((r) => r.finishTurn), greedy))}, ${range(aheadOfThree(solo.map((r) => r.clairvoyant), greedy))}`;
}

/**
 * Where the strong bot's four-robot races were decided: the mean turn of the first finish in the
 * races it won and in those it lost, and its robot's deaths and power downs a race.
 */
function losses(races: readonly RaceOutcome[]): string {
  const turn = (rs: readonly RaceOutcome[]) => {
    const t = rs.map((r) => r.firstTurn).filter((x): x is number => typeof x === 'number');
    return t.length ? mean(t).toFixed(1) : '-';
  };
  return `${turn(races.filter((r) => r.result === 'win'))} – ${turn(races.filter((r) => r.result !== 'win'))}; ${mean(races.map((r) => r.deaths ?? 0)).toFixed(2)}, ${mean(races.map((r) => r.powerDowns ?? 0)).toFixed(2)}`;
}

function report(results: JobResult[], a: Args, seconds: number, started: string, loadEnd: string): void {
  const head = ['course', 'rules', 'strong vs 3 greedy: won [95%]', 'its races: first finish turn won – lost; deaths, power downs a race', 'expert vs strong: won [95%]', 'shared/none', 'solo strong: done, mean turns', 'knows deals: mean turns', 'both done', 'alone ahead of 3 greedy: strong, knows deals'];
  const rows: string[][] = [];
  const totals = new Map<string, { gw: number; gn: number; ew: number; en: number }>();
  const strongMs: number[] = [];
  const expertMs: number[] = [];
  let refused = 0;
  for (const rules of a.rules) {
    const t = { gw: 0, gn: 0, ew: 0, en: 0 };
    totals.set(rules, t);
    for (const course of a.courses) {
      const mine = results.filter((r) => r.job.course === course && r.job.rules === rules);
      if (!mine.length) continue;
      const races = (k: Kind) => mine.filter((r) => r.job.kind === k).flatMap((r) => r.races);
      const vsG = races('greedy'), duel = races('expert'), solo = races('solo');
      const won = (rs: RaceOutcome[]) => rs.filter((r) => r.result === 'win').length;
      t.gw += won(vsG);
      t.gn += vsG.length;
      t.ew += won(duel);
      t.en += duel.length;
      for (const r of mine) {
        if (r.job.kind === 'greedy') strongMs.push(...r.strongMs);
        expertMs.push(...r.expertMs);
        refused += r.races.reduce((s, x) => s + x.refused, 0);
      }
      const both = solo.filter((r) => r.finishTurn !== null && r.clairvoyant !== null);
      rows.push([
        course, rules, share(won(vsG), vsG.length), vsG.length ? losses(vsG) : '-', share(won(duel), duel.length),
        duel.length ? `${duel.filter((r) => r.result === 'shared').length}/${duel.filter((r) => r.result === 'none').length}` : '-',
        solo.length ? `${solo.filter((r) => r.finishTurn !== null).length}/${solo.length}, ${both.length ? mean(both.map((r) => r.finishTurn!)).toFixed(1) : '-'}` : '-',
        both.length ? `${mean(both.map((r) => r.clairvoyant!)).toFixed(1)} (${solo.filter((r) => r.clairvoyant !== null).length} done)` : '-',
        solo.length ? String(both.length) : '-',
        solo.some((r) => r.greedy !== undefined) ? yardstick(solo) : '-',
      ]);
    }
  }
  const width = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, k) => c.padEnd(width[k]!)).join(' | ')} |`;
  console.log('');
  console.log(line(head));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log('');
  for (const [rules, t] of totals) console.log(`${rules}: strong vs 3 greedy ${share(t.gw, t.gn)}; expert vs strong ${share(t.ew, t.en)}`);
  const all = [...totals.values()].reduce((s, t) => ({ gw: s.gw + t.gw, gn: s.gn + t.gn, ew: s.ew + t.ew, en: s.en + t.en }), { gw: 0, gn: 0, ew: 0, en: 0 });
  const ms = (xs: number[]) => `${xs.length} decisions, median ${quantile(xs, 0.5).toFixed(1)} ms, p99 ${quantile(xs, 0.99).toFixed(1)} ms`;
  if (strongMs.length) console.log(`strong in the four-robot races: ${ms(strongMs)}`);
  if (expertMs.length) console.log(`expert (budget ${budgetText(a)}): ${ms(expertMs)}`);
  console.log(`orders refused by the engine: ${refused}`);
  console.log(`started ${started}, ${seconds.toFixed(0)} s; load average at the end ${loadEnd} (${availableParallelism()} cores)`);
  console.log('');
  if (all.gn) console.log(`Goal: strong wins ≥ ${pct(GOAL_GREEDY)} against three greedy bots: ${all.gw / all.gn >= GOAL_GREEDY ? 'met' : 'NOT met'} (${share(all.gw, all.gn)})`);
  if (all.en) console.log(`Goal: expert wins ≥ ${pct(GOAL_EXPERT)} head to head against strong: ${all.ew / all.en >= GOAL_EXPERT ? 'met' : 'NOT met'} (${share(all.ew, all.en)})`);
  if (strongMs.length) console.log(`Goal: strong decision p99 ≤ ${GOAL_STRONG_P99} ms: ${quantile(strongMs, 0.99) <= GOAL_STRONG_P99 ? 'met' : 'NOT met'} (${quantile(strongMs, 0.99).toFixed(1)} ms, on a machine with load ${loadEnd})`);
  if (expertMs.length) console.log(`Goal: expert decision p99 ≤ ${GOAL_EXPERT_P99} ms: ${quantile(expertMs, 0.99) <= GOAL_EXPERT_P99 ? 'met' : 'NOT met'} (${quantile(expertMs, 0.99).toFixed(1)} ms, on a machine with load ${loadEnd})`);
}

if (process.env.BOTS_BENCH_WORKER) {
  process.on('message', (job: Job | 'done') => {
    if (job === 'done') process.exit(0);
    process.send!(runJob(job));
  });
  process.send!(null); // ready
} else {
  await main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 2;
  });
}
