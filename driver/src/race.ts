/**
 * A whole race of bots, with nobody at the keyboard, played by the driver: each turn every bot on
 * the floor decides on the turn as dealt (with its option decisions), the driver fills what the
 * engine refuses (counted), plays the turn, lets the destroyed robots' bots choose their re-entry
 * and deals the next.
 */
import { raceStats, type GameState, type Result, type Seed, type Setup, type Square } from '../../engine/src/index.js';
import { LEVELS, type Budget, type Level } from '../../bots/src/index.js';
import { adjudicate, decideBot, entrants, startRace, type BotTurn } from './driver.js';

export interface BotRaceOptions {
  /** One level per robot, robot 0 first. */
  readonly levels: readonly Level[];
  readonly names?: readonly string[];
  /** A start per robot, in pick order (for a rule set with a start per robot); else the board's start square. */
  readonly starts?: readonly Square[];
  readonly seed: Seed;
  /** The race stops after this many turns at the latest. */
  readonly maxTurns: number;
  /** Stop when the rule set says the race is over (classic: the first finish); else play on until every robot has finished or is out. */
  readonly untilOver?: boolean;
  /** Called after each turn. */
  readonly onTurn?: (state: GameState, turn: number) => void;
  /** Time each decision (for benchmarks). */
  readonly timing?: boolean;
  /** The clock to time them on, in milliseconds (default `performance.now`; a benchmark on a busy machine may pass the process's CPU time). */
  readonly clock?: () => number;
  /** The budget of each level's decisions (bots' budget.ts; the expert bot's default without). */
  readonly budgets?: Partial<Record<Level, Budget>>;
}

export interface RobotSummary {
  readonly name: string;
  readonly level: Level;
  /** 1 for the winner, robots finishing in the same register sharing a place; null if not finished. */
  readonly place: number | null;
  /** The turn in which it touched its last flag. */
  readonly finishTurn: number | null;
  /** Times it was destroyed (the engine's `raceStats`). */
  readonly deaths: number;
  readonly flags: number;
  readonly lives: number;
  readonly damage: number;
  readonly status: GameState['robots'][number]['status'];
  readonly powerDowns: number;
  /** Orders the engine refused (filled at random instead): 0 for a correct bot. */
  readonly refused: number;
}

export interface BotRaceResult {
  readonly turns: number;
  readonly robots: RobotSummary[];
  /** Robot indices by finishing group, first place first. */
  readonly finished: number[][];
  /** Milliseconds per decision of a robot holding cards, by level (when timing). */
  readonly decisionMs: Record<Level, number[]>;
  /** The cards in hand at each of those decisions. */
  readonly decisionCards: Record<Level, number[]>;
  readonly state: GameState;
}

/** Bots' names where none are given: none is a robot design's (render's ROBOT_DESIGNS), so the same names raced on the server never put a bot called Bolt in another design's body. */
const DEFAULT_NAMES = ['Buzz', 'Crank', 'Dash', 'Echo', 'Flux', 'Glitch', 'Hex', 'Ion', 'Jolt', 'Kilo', 'Lug', 'Mote'];

function must<T>(r: Result<T>, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.field}: ${r.error.message}`);
  return r.value;
}

export function runBotRace(race: Setup, o: BotRaceOptions): BotRaceResult {
  // Without `untilOver` the race plays on until every robot has finished or is out.
  const setup: Setup = o.untilOver ? race : { ...race, settings: { ...race.settings, playOn: true } };
  const n = o.levels.length;
  const names = o.names ?? DEFAULT_NAMES;
  const seats = o.levels.map((level, i) => ({ name: names[i] ?? `Bot${i + 1}`, level }));
  const robots = must(entrants(setup, { start: setup.board.start, starts: o.starts ?? [] }, seats, o.seed), 'entrants');
  let state = must(startRace(setup, robots, o.seed, { events: false }), 'startRace').dealt.state;
  const deaths = new Array<number>(n).fill(0);
  const powerDowns = new Array<number>(n).fill(0);
  const refused = new Array<number>(n).fill(0);
  const finishTurn = new Array<number | null>(n).fill(null);
  const clock = o.clock ?? (() => performance.now());
  const perLevel = () => Object.fromEntries(LEVELS.map((l) => [l, [] as number[]])) as Record<Level, number[]>;
  const decisionMs = perLevel();
  const decisionCards = perLevel();
  while (state.phase === 'programming' && state.turn <= o.maxTurns) {
    const bots: Record<number, BotTurn> = {};
    for (let i = 0; i < n; i++) {
      const t0 = o.timing ? clock() : 0;
      // Every bot decides on the same state: nobody sees another's program.
      bots[i] = decideBot(setup, state, i, o.levels[i]!, o.seed, o.budgets?.[o.levels[i]!]);
      if (o.timing && state.robots[i]!.status === 'active' && state.robots[i]!.hand.length) {
        decisionMs[o.levels[i]!].push(clock() - t0);
        decisionCards[o.levels[i]!].push(state.robots[i]!.hand.length);
      }
      if (bots[i]!.orders?.powerDown) powerDowns[i]!++;
    }
    // Only the expert bot spends a budget: its re-entry choice gets the expert's.
    const played = must(adjudicate(setup, state, {}, bots, o.seed, o.budgets?.expert ? { budget: o.budgets.expert } : {}), 'adjudicate');
    for (const f of played.fills) if (f.registers.length || f.refused) refused[f.seat]!++;
    // Deaths are the engine's statistics of the turn's events (raceStats), added up turn by turn.
    raceStats(seats.map((s) => s.name), played.played).forEach((s, i) => { deaths[i]! += s.deaths; });
    for (const e of played.played) if (e.type === 'finished' && finishTurn[e.robot] === null) finishTurn[e.robot] = played.ended.turn;
    state = played.state;
    o.onTurn?.(played.ended, played.ended.turn);
  }
  const last = state.phase === 'programming' ? state.turn - 1 : state.turn;
  const place = new Array<number | null>(n).fill(null);
  let p = 1;
  for (const group of state.finished) {
    for (const i of group) place[i] = p;
    p += group.length;
  }
  const out = state.robots.map((r, i): RobotSummary => ({
    name: r.name, level: o.levels[i]!, place: place[i]!, finishTurn: finishTurn[i]!, deaths: deaths[i]!,
    flags: r.flags, lives: r.lives, damage: r.damage, status: r.status, powerDowns: powerDowns[i]!, refused: refused[i]!,
  }));
  return { turns: last, robots: out, finished: state.finished.map((g) => g.slice()), decisionMs, decisionCards, state };
}
