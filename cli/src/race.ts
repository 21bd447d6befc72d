/**
 * `roborally race`: a whole race of bots on a course, nobody at the keyboard. A progress bar on a
 * terminal (the leader's flags and the turn), then the summary: finishing order, turns, deaths.
 */
import { InvalidArgumentError } from 'commander';
import { DEFAULT_RULE_SET, RULE_SETS, courseRuleSets, makeSetup, type Setup } from '../../engine/src/index.js';
import { loadCourse } from '../../boards/src/index.js';
import { LEVELS, isLevel, type Level } from '../../bots/src/index.js';
import { entrants, runBotRace, type BotRaceResult } from '../../driver/src/index.js';

export const RACE_DEFAULTS = { bots: 4, level: 'strong' as Level, seed: 1, turns: 100 };
export const RACE_MAX_BOTS = 8;

export interface RaceOptions {
  readonly course: string;
  readonly bots: number;
  /** One level for all, or one per robot (cycled). */
  readonly level: readonly Level[];
  readonly seed: number;
  readonly turns: number;
  /** A rule set's name (a key of the engine's RULE_SETS); default: the first the course has starts for (`courseRuleSets`). */
  readonly rules?: string;
}

export interface RaceIO {
  readonly print: (line: string) => void;
  /** Where a refusal goes (standard error). */
  readonly problem: (line: string) => void;
  /** Where the progress bar goes (redrawn in place), or nothing. */
  readonly progress?: (line: string) => void;
}

/** `--level strong` or `--level strong,greedy,greedy,greedy`. */
export function parseLevels(value: string): Level[] {
  const out = value.split(',').map((s) => s.trim());
  for (const l of out) if (!isLevel(l)) throw new InvalidArgumentError(`expected ${LEVELS.join(', ')} (or a comma-separated list), found "${l}"`);
  return out as Level[];
}

export function parseRules(value: string): string {
  if (!Object.hasOwn(RULE_SETS, value)) throw new InvalidArgumentError(`expected ${Object.keys(RULE_SETS).join(' or ')}`);
  return value;
}

const BAR = 30;

/** A text progress bar: the leader's share of the flags, the turn, the finishers. */
export function progressLine(done: number, total: number, turn: number, maxTurns: number, finished: number, leader: string): string {
  const share = total ? Math.min(1, done / total) : 0;
  const full = Math.round(share * BAR);
  return `[${'#'.repeat(full)}${'.'.repeat(BAR - full)}] turn ${turn}/${maxTurns}  leader ${leader} ${done}/${total} flags  ${finished} finished`;
}

/** Runs the race and prints its summary; the exit code (2 for bad options). */
export function runRace(o: RaceOptions, io: RaceIO): number {
  const loaded = loadCourse(o.course);
  if (!loaded.ok) {
    io.problem(`roborally race: ${loaded.error.field}: ${loaded.error.message}`);
    return 2;
  }
  const course = loaded.value.course;
  // By default the first rule set the course has starts for.
  const rules = o.rules ?? courseRuleSets(course)[0] ?? DEFAULT_RULE_SET;
  const made = makeSetup(course.board, rules, {}, course.boards.length);
  if (!made.ok) {
    io.problem(`roborally race: ${made.error.field}: ${made.error.message}`);
    return 2;
  }
  const setup: Setup = made.value;
  const levels = Array.from({ length: o.bots }, (_, i) => o.level[i % o.level.length]!);
  // The course must have the starts the rule set places robots on.
  const placed = entrants(setup, course, levels.map((level, i) => ({ name: `Bot${i + 1}`, level })), o.seed);
  if (!placed.ok) {
    io.problem(`roborally race: ${course.name}: ${placed.error.message}${course.start || course.starts.length >= o.bots ? '; try the other --rules' : ''}`);
    return 2;
  }
  const nFlags = course.board.flags.length;
  let result: BotRaceResult;
  try {
    result = runBotRace(setup, {
      levels,
      seed: o.seed,
      maxTurns: o.turns,
      timing: true,
      starts: course.starts,
      onTurn: (st, turn) => {
        if (!io.progress) return;
        let lead = 0;
        st.robots.forEach((r, i) => {
          if (r.flags > st.robots[lead]!.flags) lead = i;
        });
        const finished = st.finished.reduce((n, g) => n + g.length, 0);
        io.progress(progressLine(st.robots[lead]!.flags, nFlags, turn, o.turns, finished, st.robots[lead]!.name));
      },
    });
  } catch (e) {
    io.problem(`roborally race: ${(e as Error).message}`);
    return 1;
  }
  for (const line of summary(course.name, rules, o, levels, result, nFlags)) io.print(line);
  return 0;
}

/** The race's summary: who finished where and when, who died how often. */
export function summary(courseName: string, rules: string, o: RaceOptions, levels: readonly Level[], r: BotRaceResult, nFlags: number): string[] {
  const kinds = [...new Set(levels)].map((l) => `${levels.filter((x) => x === l).length} ${l}`).join(', ');
  const out = [`Race on ${courseName} (${rules}), ${kinds} bot${o.bots === 1 ? '' : 's'}, seed ${o.seed}: ${r.turns} turn${r.turns === 1 ? '' : 's'}`];
  const order = r.robots.map((_, i) => i).sort((a, b) => {
    const pa = r.robots[a]!.place ?? Infinity, pb = r.robots[b]!.place ?? Infinity;
    return pa - pb || r.robots[b]!.flags - r.robots[a]!.flags || a - b;
  });
  const head = ['place', 'robot', 'level', 'finished', 'flags', 'deaths', 'lives', 'damage', 'power downs', 'status'];
  const rows = order.map((i) => {
    const x = r.robots[i]!;
    const status = x.place !== null ? 'finished' : x.status === 'active' ? 'racing' : x.status;
    return [
      x.place === null ? '-' : String(x.place), x.name, x.level, x.finishTurn === null ? '-' : `turn ${x.finishTurn}`,
      `${x.flags}/${nFlags}`, String(x.deaths), String(x.lives), x.status === 'active' ? String(x.damage) : '-', String(x.powerDowns), status,
    ];
  });
  const width = head.map((h, k) => Math.max(h.length, ...rows.map((row) => row[k]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, k) => c.padEnd(width[k]!)).join('  ').trimEnd();
  out.push('', line(head), line(width.map((w) => '-'.repeat(w))), ...rows.map(line));
  if (!r.finished.length) out.push('', `Nobody finished in ${r.turns} turns.`);
  const refused = r.robots.filter((x) => x.refused);
  if (refused.length) out.push('', `Orders refused by the engine (filled at random): ${refused.map((x) => `${x.name} ${x.refused}`).join(', ')}`);
  const times = Object.entries(r.decisionMs).filter(([, ms]) => ms.length);
  if (times.length) {
    out.push('');
    for (const [level, ms] of times) {
      const s = ms.slice().sort((a, b) => a - b);
      const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
      out.push(`${level} decisions: ${s.length}, median ${at(0.5).toFixed(1)} ms, 99th percentile ${at(0.99).toFixed(1)} ms`);
    }
  }
  return out;
}
