/**
 * A lone robot's whole turn on the course maps' transitions (distance.ts `next`: the engine's
 * `LoneRobot` for every pose, register and card type): every ordering of a hand's card types, one
 * table look-up a register, scored by the registers still to go where it ends, flags touched on
 * the way counted, and the board lasers' hits when given their costs. Some hundred times cheaper
 * than the simulator and blind to other robots: the expert's look at the turn after this one, with
 * many hands it may be dealt.
 */
import { CARD_TYPES, cardType, type Card } from '../../engine/src/index.js';
import { TYPE_INDEX, stateIndex, type CourseMaps } from './distance.js';

const T = CARD_TYPES.length;

/** Where a lone turn begins: a pose before register 1, the flags touched, the locked registers' cards. */
export interface LoneStart {
  readonly x: number;
  readonly y: number;
  readonly dir: number;
  readonly flags: number;
  /** Bit k: register k + 1 is locked, holding `registers[k]`. */
  readonly locked: number;
  readonly registers: readonly Card[];
  /** Registers of delay when the robot is destroyed during the turn (back on its archive, a life). */
  readonly destroyed: number;
}

/** The card types of a hand, counted in CARD_TYPES order. */
export function typeCounts(hand: readonly Card[]): Int8Array {
  const n = new Int8Array(T);
  for (const c of hand) n[TYPE_INDEX[cardType(c)]]!++;
  return n;
}

/** How a lone search scores a turn's end: where it ends (a maps state and the flags touched), touching the last flag in a register, destroyed in one. */
export interface LoneScore {
  end(s: number, flags: number): number;
  /**
   * What the board lasers' hits on the way cost, by the beams taken so far (`hits[n]`: n beams),
   * each register ending in a beam taking its beams (distance.ts `laserBeams`); none when absent.
   */
  readonly hits?: Float64Array;
  finished(reg: number): number;
  destroyed(reg: number): number;
}

/** The best lone turn found, with its card types per register (-1: locked, or not played). */
export interface LoneBest {
  readonly score: number;
  readonly types: Int8Array;
  readonly leaves: number;
}

/**
 * Every ordering of a hand of `counts` card types from `start`, on the maps' transitions, scored
 * by `judge`; ties keep the first found, the types tried in `order`.
 */
export function searchLone(m: CourseMaps, start: LoneStart, counts: Int8Array, judge: LoneScore, order: readonly number[] = DEFAULT_ORDER): LoneBest {
  const b = m.board;
  const nFlags = m.toFlag.length;
  const flagCell = b.flags.map(([x, y]) => y * b.width + x);
  const lockedType = start.registers.map((c, k) => (start.locked & (1 << k) && c ? TYPE_INDEX[cardType(c)]! : -1));
  const left = Int8Array.from(counts);
  const seq = new Int8Array(5).fill(-1);
  let bestTypes = seq.slice();
  let best = -Infinity;
  let leaves = 0;
  const hits = judge.hits;
  const beams = m.laserBeams;
  const leaf = (v: number): void => {
    leaves++;
    if (v > best) {
      best = v;
      bestTypes = seq.slice();
    }
  };
  const dfs = (s: number, reg: number, flags: number, hit: number): void => {
    if (reg > 5) return leaf(judge.end(s, flags) - (hits ? hits[hit]! : 0));
    const fixed = lockedType[reg - 1]!;
    let played = false;
    for (const t of order) {
      if (fixed >= 0 ? t !== fixed : left[t]! <= 0) continue;
      played = true;
      seq[reg - 1] = fixed >= 0 ? -1 : t;
      const n = m.next[s * T + t]!;
      let f = flags;
      if (n >= 0 && f < nFlags && ((n / 20) | 0) === flagCell[f]) f++;
      if (n < 0) leaf(judge.destroyed(reg));
      else if (f >= nFlags) leaf(judge.finished(reg));
      else {
        if (fixed < 0) left[t]!--;
        dfs(n, reg + 1, f, hits ? Math.min(hits.length - 1, hit + beams[(n / 20) | 0]!) : 0);
        if (fixed < 0) left[t]!++;
      }
      seq[reg - 1] = -1;
    }
    // No card for an open register (a short hand): the turn is scored where the robot stands.
    if (!played) leaf(judge.end(s, flags) - (hits ? hits[hit]! : 0));
  };
  if (start.flags >= nFlags) return { score: judge.finished(0), types: bestTypes, leaves: 0 };
  dfs(stateIndex(b, start.x, start.y, start.dir, 1), 1, start.flags, 0);
  return { score: best, types: bestTypes, leaves };
}

const DEFAULT_ORDER = [0, 1, 2, 3, 4, 5, 6];

/**
 * The best lone turn from `start` with a hand of `counts` card types: `5 − r` when it touches the
 * last flag in register r, else minus the registers still to go (board lasers on the way counted,
 * as distance.ts counts them), minus `start.destroyed` when every program destroys it; with
 * `hits`, minus the cost of the board lasers' beams it ends its registers in. `leaves` counts the
 * programs scored.
 */
export function bestLoneTurn(m: CourseMaps, start: LoneStart, counts: Int8Array, hits?: Float64Array): { score: number; leaves: number } {
  const nFlags = m.toFlag.length;
  if (start.flags >= nFlags) return { score: 0, leaves: 0 };
  const { score, leaves } = searchLone(m, start, counts, {
    end: (s, flags) => -(m.toFlag[flags]![s - (s % 5)]! + m.after[flags]!),
    finished: (reg) => 5 - reg,
    destroyed: () => -start.destroyed,
    hits,
  });
  return { score, leaves };
}
