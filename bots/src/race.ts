/**
 * A whole race of bots, with nobody at the keyboard: each turn the destroyed robots' bots choose
 * their re-entry, the turn begins, every bot on the floor hands in its orders (checked by
 * `submitOrders`; a refused order would be filled at random and counted), and the turn is played.
 */
import {
  beginTurn, fillProgram, newRace, playTurn, raceOver, submitOrders,
  type Entrant, type GameState, type Reentry, type Result, type Setup, type Square,
} from '../../engine/src/index.js';
import type { Level } from './common.js';
import { BOTS } from './index.js';

export interface BotRaceOptions {
  /** One level per robot, robot 0 first. */
  readonly levels: readonly Level[];
  readonly names?: readonly string[];
  /** pbem: a start per robot; classic: the board's start square. */
  readonly starts?: readonly Square[];
  readonly seed: number;
  /** The race stops after this many turns at the latest. */
  readonly maxTurns: number;
  /** Stop when the rule set says the race is over (classic: the first finish); else play on until every robot has finished or is out. */
  readonly untilOver?: boolean;
  /** Called after each turn. */
  readonly onTurn?: (state: GameState, turn: number) => void;
  /** Time each decision (for benchmarks). */
  readonly timing?: boolean;
}

export interface RobotSummary {
  readonly name: string;
  readonly level: Level;
  /** 1 for the winner, robots finishing in the same register sharing a place; null if not finished. */
  readonly place: number | null;
  /** The turn in which it touched its last flag. */
  readonly finishTurn: number | null;
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

const DEFAULT_NAMES = ['Bolt', 'Cog', 'Dash', 'Echo', 'Flux', 'Gizmo', 'Hex', 'Ion', 'Jolt', 'Kilo', 'Lug', 'Mote'];

function must<T>(r: Result<T>, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.field}: ${r.error.message}`);
  return r.value;
}

export function runBotRace(setup: Setup, o: BotRaceOptions): BotRaceResult {
  const n = o.levels.length;
  const names = o.names ?? DEFAULT_NAMES;
  const bots = o.levels.map((l) => BOTS[l]);
  const entrants: Entrant[] = o.levels.map((_, i) => {
    const start = o.starts?.[i];
    const at = start ?? setup.board.start;
    if (!at) throw new Error('the course has no start square, and no start was given for each robot');
    const name = names[i] ?? `Bot${i + 1}`;
    return { name, dir: bots[i]!.chooseFacing(setup, at, o.seed, i), ...(start ? { start } : {}) };
  });
  let state = must(newRace(setup, entrants, o.seed), 'newRace');
  const deaths = new Array<number>(n).fill(0);
  const powerDowns = new Array<number>(n).fill(0);
  const refused = new Array<number>(n).fill(0);
  const finishTurn = new Array<number | null>(n).fill(null);
  const decisionMs: Record<Level, number[]> = { random: [], greedy: [], strong: [] };
  const decisionCards: Record<Level, number[]> = { random: [], greedy: [], strong: [] };
  const done = (st: GameState) =>
    o.untilOver ? raceOver(setup, st) : st.robots.every((r, i) => r.status === 'out' || finishTurn[i] !== null);
  while (state.turn < o.maxTurns && !done(state)) {
    const reentry: Record<number, Reentry> = {};
    state.robots.forEach((r, i) => {
      if (r.status === 'destroyed') reentry[i] = bots[i]!.chooseReentry(setup, state, i, o.seed);
    });
    const begun = must(beginTurn(setup, state, reentry, { events: false }), 'beginTurn');
    let st = begun.state;
    const decided = st;
    for (let i = 0; i < n; i++) {
      if (decided.robots[i]!.status !== 'active') continue;
      const t0 = o.timing ? performance.now() : 0;
      // Every bot decides on the same state: nobody sees another's program.
      const orders = bots[i]!.chooseOrders(setup, decided, i, o.seed);
      if (o.timing && decided.robots[i]!.hand.length) {
        decisionMs[o.levels[i]!].push(performance.now() - t0);
        decisionCards[o.levels[i]!].push(decided.robots[i]!.hand.length);
      }
      const res = submitOrders(setup, st, i, orders);
      if (res.ok) {
        st = res.value;
        if (orders.powerDown) powerDowns[i]!++;
      } else {
        refused[i]!++;
        st = must(fillProgram(setup, st, i), 'fillProgram').state;
      }
    }
    const played = must(playTurn(setup, st), 'playTurn');
    for (const e of played.events) {
      if (e.type === 'destroyed') deaths[e.robot]!++;
      if (e.type === 'finished' && finishTurn[e.robot] === null) finishTurn[e.robot] = played.state.turn;
    }
    state = played.state;
    o.onTurn?.(state, state.turn);
  }
  const place = new Array<number | null>(n).fill(null);
  let p = 1;
  for (const group of state.finished) {
    for (const i of group) place[i] = p;
    p += group.length;
  }
  const robots = state.robots.map((r, i): RobotSummary => ({
    name: r.name, level: o.levels[i]!, place: place[i]!, finishTurn: finishTurn[i]!, deaths: deaths[i]!,
    flags: r.flags, lives: r.lives, damage: r.damage, status: r.status, powerDowns: powerDowns[i]!, refused: refused[i]!,
  }));
  return { turns: state.turn, robots, finished: state.finished.map((g) => g.slice()), decisionMs, decisionCards, state };
}
