/**
 * A yardstick for the benchmarks, not a seat: a lone robot that knows the coming deals. It plays
 * the race on the engine itself (`submitOrders`, `playTurn`, `beginTurn`, so each next hand is the
 * one the seeded deck really deals after that turn) and keeps a beam of the best positions turn by
 * turn: from each, the best few programs of its hand (the strong bot's search and judgement), each
 * played to the next deal, each position reached scored by the best program of the hand really
 * dealt there. Its finishing turn is what knowing the deals is worth; the search being a beam, it
 * bounds the best possible from above, and the strong bot's turns from below only as an estimate.
 */
import {
  beginTurn, playTurn, submitOrders, type Card, type GameState, type Orders, type Reentry, type Setup,
} from '../../engine/src/index.js';
import { byType, programOf, searchPrograms } from './search.js';
import { Sim } from './sim.js';
import { DEFAULT_WEIGHTS, Judge, bestFacing } from './strong.js';

export interface ClairvoyantOptions {
  /** The race stops after this many turns at the latest. */
  readonly maxTurns: number;
  /** Positions kept from turn to turn (default 4). */
  readonly beam?: number;
  /** Programs tried from each position (default 4). */
  readonly branch?: number;
}

export interface ClairvoyantResult {
  /** The turn in which the robot touched its last flag (null: not within maxTurns). */
  readonly finishTurn: number | null;
}

interface Node {
  readonly state: GameState;
  readonly score: number;
  readonly programs: Card[][];
}

/** Plays a lone robot's race (robot 0 of `dealt`, a turn dealt) knowing the deals. */
export function clairvoyantRace(setup: Setup, dealt: GameState, o: ClairvoyantOptions): ClairvoyantResult {
  const judge = new Judge(setup, DEFAULT_WEIGHTS);
  const beam = o.beam ?? 4;
  const branch = o.branch ?? 4;
  const nFlags = setup.board.flags.length;
  const look = (state: GameState): Node => {
    const r = state.robots[0]!;
    if (r.status !== 'active' || r.poweredDown || !r.hand.length) return { state, score: r.status === 'active' ? -judge.endCost(state.robots, 0) : -Infinity, programs: [[]] };
    const found = searchPrograms(new Sim(setup, state), 0, r.hand, judge.scorer(0), { keep: branch });
    const cards = byType(r.hand);
    return { state, score: found.score, programs: found.top.map((c) => programOf(c.types, r.locked, cards)) };
  };
  let nodes = [look(dealt)];
  for (let turn = dealt.turn; turn <= o.maxTurns && nodes.length; turn++) {
    const next = new Map<string, Node>();
    for (const node of nodes) {
      for (const program of node.programs) {
        const orders: Orders = node.state.robots[0]!.poweredDown ? {} : { program };
        const sent = submitOrders(setup, node.state, 0, orders);
        if (!sent.ok) continue;
        const played = playTurn(setup, sent.value, { events: false });
        if (!played.ok) continue;
        const ended = played.value.state;
        const r = ended.robots[0]!;
        if (nFlags > 0 && r.flags >= nFlags) return { finishTurn: turn };
        if (r.status === 'out') continue;
        const [ax, ay] = r.archive ?? r.start;
        const reentry: Record<number, Reentry> = r.status === 'destroyed' ? { 0: { dir: bestFacing(setup, ax, ay, r.flags) } } : {};
        const begun = beginTurn(setup, ended, reentry, { events: false });
        if (!begun.ok) continue;
        const s = begun.value.state;
        const me = s.robots[0]!;
        const key = `${me.status} ${me.x} ${me.y} ${me.dir} ${me.flags} ${me.damage} ${me.lives} ${me.locked} ${me.poweredDown}`;
        if (next.has(key)) continue;
        next.set(key, look(s));
      }
    }
    nodes = [...next.values()].sort((a, b) => b.score - a.score).slice(0, beam);
  }
  return { finishTurn: null };
}
