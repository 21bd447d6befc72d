/**
 * How far each flag is along the board's real paths: for every pose (square, facing) and the
 * register about to be played, how many register phases a lone robot needs to end one on the
 * flag, belts, gears, pushers, crushers, walls, pits and the expansion elements acting as they do
 * in a race. Built once per board and rule set: the transition graph of a lone robot with every
 * card type (the engine's `LoneRobot.run`), then a breadth-first search backwards from each flag
 * (`fewest`: with every card at hand in every register), then value iteration for the registers
 * expected when each card type is at hand only as often as a dealt hand holds one (`toFlag`): a
 * path that needs a Move 3 in every register, against an express belt, is a long way in practice.
 */
import {
  CARD_TYPES, DECK, Floor, LoneRobot, cardType, hasFloor, wallAt, type Board, type CardType, type Setup,
} from '../../engine/src/index.js';
import { DX, DY } from '../../engine/src/index.js';

/** Registers of delay a point of classic damage costs on the way (pbem: in proportion, 22 points destroying). */
const LASER_REGISTERS = 0.7;

/** Registers to a flag that cannot be reached at all. */
export const FAR = 999;

export interface CourseMaps {
  readonly board: Board;
  /** States: ((y * width + x) * 4 + dir) * 5 + (register - 1). */
  readonly states: number;
  /** Per state and card type (CARD_TYPES order): the state after that register, or -1 if destroyed. */
  readonly next: Int32Array;
  /** Per flag (0-based): the fewest registers from each state to ending a register on it (FAR: never). */
  readonly fewest: Uint16Array[];
  /** Per flag: the registers expected with a dealt hand's card types at hand (FAR: never). */
  readonly toFlag: Float32Array[];
  /** Per flag and level j (0 to 4): the fewest `toFlag` a lone robot can end in after exactly j more registers (`nearestLevels`). */
  readonly nearest: Float32Array[][];
  /** Per card type: the chance that a dealt hand (undamaged) holds one. */
  readonly odds: Float64Array;
  /** Per flag k: registers from flag k (best facing, register 1) to flag k + 1; the last is 0. */
  readonly leg: number[];
  /** Per flag k: the sum of the legs after flag k, so that `toFlag[k] + after[k]` is all the way. */
  readonly after: number[];
  /** Per cell: beams of board lasers that would hit a robot standing there alone. */
  readonly laserBeams: Uint8Array;
}

export const stateIndex = (b: Board, x: number, y: number, dir: number, reg: number): number =>
  ((y * b.width + x) * 4 + dir) * 5 + (reg - 1);

const cache = new WeakMap<Board, Map<string, CourseMaps>>();

/** The maps of a race's board under its rule set, computed on first use and kept with the board. */
export function courseMaps(setup: Setup): CourseMaps {
  let byRules = cache.get(setup.board);
  if (!byRules) cache.set(setup.board, (byRules = new Map()));
  let maps = byRules.get(setup.rules.name);
  if (!maps) byRules.set(setup.rules.name, (maps = buildMaps(setup)));
  return maps;
}

/** The lone robot of one register: the engine's `LoneRobot`. */
type Lone = Pick<LoneRobot, 'cards' | 'run'>;
const loneRobot = (setup: Setup): Lone => new LoneRobot(setup);

/** A setup with no house rules: dice on the flags would wall them off the lone robot for good. */
const plainSetup = (setup: Setup): Setup => ({ board: setup.board, rules: setup.rules, settings: {}, boards: setup.boards });

function buildMaps(setup: Setup): CourseMaps {
  const b = setup.board;
  const cells = b.width * b.height;
  const states = cells * 20;
  const T = CARD_TYPES.length;
  const next = new Int32Array(states * T).fill(-1);
  const standable = (c: number) => b.floor[c] !== Floor.Pit && b.floor[c] !== Floor.Void && b.floor[c] !== Floor.Repulsor;
  const hasStandable = [...Array(cells).keys()].some(standable);
  if (hasStandable) {
    const lone = loneRobot(plainSetup(setup));
    for (let c = 0; c < cells; c++) {
      if (!standable(c)) continue;
      const x = c % b.width, y = (c - x) / b.width;
      for (let dir = 0; dir < 4; dir++) {
        for (let reg = 1; reg <= 5; reg++) {
          const s = stateIndex(b, x, y, dir, reg);
          for (let t = 0; t < T; t++) {
            const q = lone.run({ x, y, dir: dir as 0 }, lone.cards[t]!, reg);
            if (q) next[s * T + t] = stateIndex(b, q.x, q.y, q.dir, (reg % 5) + 1);
          }
        }
      }
    }
  }
  // Reverse edges, as compressed lists.
  const count = new Int32Array(states + 1);
  for (let e = 0; e < next.length; e++) if (next[e]! >= 0) count[next[e]! + 1]!++;
  for (let s = 0; s < states; s++) count[s + 1]! += count[s]!;
  const pred = new Int32Array(count[states]!);
  const fillAt = count.slice(0, states);
  for (let e = 0; e < next.length; e++) {
    const t = next[e]!;
    if (t >= 0) pred[fillAt[t]!++] = (e / T) | 0;
  }
  const fewest = b.flags.map(([fx, fy]) => {
    const dist = new Uint16Array(states).fill(FAR);
    const queue = new Int32Array(states);
    let head = 0, tail = 0;
    for (let dir = 0; dir < 4; dir++) {
      for (let reg = 1; reg <= 5; reg++) {
        const s = stateIndex(b, fx, fy, dir, reg);
        dist[s] = 0;
        queue[tail++] = s;
      }
    }
    while (head < tail) {
      const s = queue[head++]!;
      const d = dist[s]! + 1;
      for (let k = count[s]!; k < count[s + 1]!; k++) {
        const p = pred[k]!;
        if (dist[p]! > d) {
          dist[p] = d;
          queue[tail++] = p;
        }
      }
    }
    return dist;
  });
  const laserBeams = new Uint8Array(cells);
  for (const l of b.lasers) {
    let x = l.x, y = l.y;
    for (;;) {
      laserBeams[y * b.width + x]! += l.beams;
      if (wallAt(b, x, y, l.dir)) break;
      x += DX[l.dir]!;
      y += DY[l.dir]!;
      if (!hasFloor(b, x, y)) break;
    }
  }
  const odds = typeOdds(setup);
  // A register ending in a board laser's beam costs its damage, in registers of delay.
  const stepCost = new Float32Array(cells);
  const perPoint = (LASER_REGISTERS * 10) / setup.rules.destroyAt;
  for (let c = 0; c < cells; c++) stepCost[c] = 1 + perPoint * laserBeams[c]!;
  const toFlag = fewest.map((d) => expectedRegisters(next, d, odds, stepCost));
  const leg = b.flags.map((f, k) => {
    if (k + 1 >= b.flags.length) return 0;
    let best = FAR;
    for (let dir = 0; dir < 4; dir++) best = Math.min(best, toFlag[k + 1]![stateIndex(b, f[0], f[1], dir, 1)]!);
    return best;
  });
  const after = b.flags.map(() => 0);
  for (let k = b.flags.length - 2; k >= 0; k--) after[k] = after[k + 1]! + leg[k]!;

  const nearest = toFlag.map((v) => nearestLevels(next, v));
  return { board: b, states, next, fewest, toFlag, nearest, odds, leg, after, laserBeams };
}

/**
 * The chance that an undamaged robot's hand holds a card of each type: classic deals 9 of the 84
 * cards (6 U-Turns, 18 Rotate Left, 18 Rotate Right, 6 Back-Ups, 18 Move 1, 12 Move 2, 6 Move 3);
 * pbem draws each instruction on its own at 21:14:7:7:21:21:7.
 */
export function typeOdds(setup: Setup): Float64Array {
  const hand = setup.rules.handSize(0);
  const odds = new Float64Array(CARD_TYPES.length);
  if (setup.rules.priorities) {
    const n = DECK.length;
    CARD_TYPES.forEach((t, k) => {
      const have = DECK.filter((c) => cardType(c) === t).length;
      let none = 1; // hypergeometric: no card of the type among `hand` drawn
      for (let j = 0; j < hand; j++) none *= (n - have - j) / (n - j);
      odds[k] = 1 - none;
    });
  } else {
    const w: Record<CardType, number> = { F1: 21, F2: 14, F3: 7, B: 7, L: 21, R: 21, U: 7 };
    CARD_TYPES.forEach((t, k) => (odds[k] = 1 - Math.pow(1 - w[t] / 98, hand)));
  }
  return odds;
}

/**
 * Value iteration: each register the robot plays the best card type at hand, each type being at
 * hand with its chance, independently; a register with no safe type at hand is played again. Starts
 * from the fewest registers (a lower bound) and sweeps in their order until nothing moves.
 */
function expectedRegisters(next: Int32Array, fewest: Uint16Array, odds: Float64Array, stepCost: Float32Array): Float32Array {
  const states = fewest.length;
  const T = odds.length;
  const v = new Float32Array(states);
  for (let s = 0; s < states; s++) v[s] = fewest[s]!;
  // States by the fewest registers, nearest first (counting sort), the flag and the unreachable left out.
  const byDist = new Int32Array(FAR + 2);
  for (let s = 0; s < states; s++) byDist[fewest[s]! + 1]!++;
  for (let k = 0; k <= FAR; k++) byDist[k + 1]! += byDist[k]!;
  const order = new Int32Array(states);
  for (let s = 0; s < states; s++) order[byDist[fewest[s]!]!++] = s;
  const vals = new Float64Array(T);
  const ps = new Float64Array(T);
  for (let sweep = 0; sweep < 500; sweep++) {
    let moved = 0;
    for (let k = 0; k < states; k++) {
      const s = order[k]!;
      const f = fewest[s]!;
      if (f === 0) continue;
      if (f >= FAR) break;
      // The successors' values, sorted with their chances (insertion sort of at most 7).
      let m = 0;
      for (let t = 0; t < T; t++) {
        const n = next[s * T + t]!;
        if (n < 0) continue;
        if (v[n]! >= FAR) continue;
        const x = v[n]! + stepCost[(n / 20) | 0]! - 1;
        let j = m++;
        while (j > 0 && vals[j - 1]! > x) {
          vals[j] = vals[j - 1]!;
          ps[j] = ps[j - 1]!;
          j--;
        }
        vals[j] = x;
        ps[j] = odds[t]!;
      }
      let e = 0, none = 1;
      for (let j = 0; j < m; j++) {
        e += none * ps[j]! * vals[j]!;
        none *= 1 - ps[j]!;
      }
      const nv = (1 + e) / (1 - none);
      const d = Math.abs(nv - v[s]!);
      if (d > moved) moved = d;
      v[s] = nv;
    }
    if (moved < 0.01) break;
  }
  return v;
}

/**
 * Per level j (0 to 4): the fewest registers to go a lone robot can end in after exactly j more
 * registers from each state, with every card type at hand (level 0 is `toFlag` itself; FAR if every
 * way destroys it). A bound for the search: nothing a hand plays from there ends nearer, unless it
 * touches the flag on the way (then `fewest` is at most j).
 */
function nearestLevels(next: Int32Array, toFlag: Float32Array): Float32Array[] {
  const T = CARD_TYPES.length;
  const states = toFlag.length;
  const levels = [toFlag];
  for (let k = 1; k <= 4; k++) {
    const prev = levels[k - 1]!;
    const v = new Float32Array(states);
    for (let s = 0; s < states; s++) {
      let best = FAR;
      for (let t = 0; t < T; t++) {
        const n = next[s * T + t]!;
        if (n >= 0 && prev[n]! < best) best = prev[n]!;
      }
      v[s] = best;
    }
    levels.push(v);
  }
  return levels;
}

/** The card types by index, as the maps' `next` has them. */
export const TYPE_INDEX: Readonly<Record<CardType, number>> = Object.fromEntries(CARD_TYPES.map((t, k) => [t, k])) as Record<CardType, number>;

/**
 * Registers still to go for a robot at a pose that has touched `flags` flags, before register
 * `reg`: to the next flag, then flag to flag. 0 once every flag is touched.
 */
export function togo(m: CourseMaps, flags: number, x: number, y: number, dir: number, reg: number): number {
  const n = m.toFlag.length;
  if (flags >= n) return 0;
  const b = m.board;
  if (x < 0 || y < 0 || x >= b.width || y >= b.height) return FAR + m.after[flags]!;
  return m.toFlag[flags]![stateIndex(b, x, y, dir, reg)]! + m.after[flags]!;
}
