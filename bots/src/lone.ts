/**
 * A lone robot's whole turn on the course maps' transitions (distance.ts `next`: the engine's
 * `LoneRobot` for every pose, register and card type): every ordering of a hand's card types, one
 * table look-up a register, scored by the registers still to go where it ends, flags touched on
 * the way counted. Some hundred times cheaper than the simulator and blind to damage and other
 * robots: the expert's look at the turn after this one, with many hands it may be dealt.
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

/**
 * The best lone turn from `start` with a hand of `counts` card types: `5 − r` when it touches the
 * last flag in register r, else minus the registers still to go (board lasers on the way counted,
 * as distance.ts counts them), minus `start.destroyed` when every program destroys it. `leaves`
 * counts the programs scored.
 */
export function bestLoneTurn(m: CourseMaps, start: LoneStart, counts: Int8Array): { score: number; leaves: number } {
  const b = m.board;
  const nFlags = m.toFlag.length;
  const flagCell = b.flags.map(([x, y]) => y * b.width + x);
  const lockedType = start.registers.map((c, k) => (start.locked & (1 << k) && c ? TYPE_INDEX[cardType(c)]! : -1));
  const left = Int8Array.from(counts);
  let best = -Infinity;
  let leaves = 0;
  const score = (s: number, flags: number): number => {
    if (flags >= nFlags) return 0;
    return -(m.toFlag[flags]![s - (s % 5)]! + m.after[flags]!);
  };
  const dfs = (s: number, reg: number, flags: number): void => {
    if (reg > 5) {
      leaves++;
      const v = score(s, flags);
      if (v > best) best = v;
      return;
    }
    const fixed = lockedType[reg - 1]!;
    let played = false;
    for (let t = 0; t < T; t++) {
      if (fixed >= 0 ? t !== fixed : left[t]! <= 0) continue;
      played = true;
      const n = m.next[s * T + t]!;
      if (n < 0) {
        leaves++;
        if (-start.destroyed > best) best = -start.destroyed;
        continue;
      }
      let f = flags;
      if (f < nFlags && ((n / 20) | 0) === flagCell[f]) f++;
      if (f >= nFlags) {
        leaves++;
        if (5 - reg > best) best = 5 - reg;
        continue;
      }
      if (fixed < 0) left[t]!--;
      dfs(n, reg + 1, f);
      if (fixed < 0) left[t]!++;
    }
    if (!played) {
      // No card for an open register (a short hand): the turn is scored where the robot stands.
      leaves++;
      const v = score(s, flags);
      if (v > best) best = v;
    }
  };
  if (start.flags >= nFlags) return { score: 0, leaves: 0 };
  dfs(stateIndex(b, start.x, start.y, start.dir, 1), 1, start.flags);
  return { score: best, leaves };
}
