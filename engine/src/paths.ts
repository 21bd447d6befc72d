/**
 * Where a lone robot can go: one register at a time, with any card, the board elements acting on
 * it as they do in a race (belts, pushers, gears, crushers, pits, walls, the expansion elements).
 * Course validation asks whether each flag can be reached; bots ask how many registers away it is.
 */
import { Floor } from './board.js';
import { CARD_TYPES, DECK, cardType, instruction, type Card } from './cards.js';
import { makeCtx, type Ctx, type Setup } from './context.js';
import { createState } from './game.js';
import type { Dir, Square } from './geometry.js';
import { runSteps } from './phases/steps.js';

export interface Pose {
  readonly x: number;
  readonly y: number;
  readonly dir: Dir;
}

/** One card of each type, in the rule set's notation. */
function sampleCards(setup: Setup): Card[] {
  return CARD_TYPES.map((t) => (setup.rules.priorities ? DECK.find((c) => cardType(c) === t)! : instruction(t)));
}

/** A reusable simulation of one robot alone on the floor. */
export class LoneRobot {
  private readonly ctx: Ctx;
  readonly cards: readonly Card[];
  /**
   * `runOf`'s answers, by pose, register and card of `cards` (made at its first call): -2 not run
   * yet, -1 destroyed, else the pose it ends in, `(y * width + x) * 4 + dir`.
   */
  private memo: Int32Array | null = null;

  constructor(readonly setup: Setup) {
    const b = setup.board;
    // Any square a robot may stand on will do to create the robot; it is moved before each run.
    let at = 0;
    while (at < b.floor.length && (b.floor[at] === Floor.Pit || b.floor[at] === Floor.Void || b.floor[at] === Floor.Repulsor)) at++;
    const st = createState(setup, [{ name: 'probe', x: at % b.width, y: Math.floor(at / b.width), dir: 0 }]);
    if (!st.ok) throw new Error(`no floor to stand on: ${st.error.message}`);
    this.ctx = makeCtx(setup, st.value, null);
    this.cards = sampleCards(setup);
  }

  /** The pose after register `register` (1 to 5) with `card`, or null if the robot is destroyed. */
  run(from: Pose, card: Card, register: number): Pose | null {
    const ctx = this.ctx;
    const st = ctx.state;
    const r = st.robots[0]!;
    const w = ctx.board.width;
    ctx.occ[r.y * w + r.x] = 0;
    r.x = from.x;
    r.y = from.y;
    r.dir = from.dir;
    r.status = 'active';
    r.damage = 0;
    r.lives = 3;
    r.flags = 0;
    r.locked = 0;
    r.registers[register - 1] = card;
    ctx.occ[r.y * w + r.x] = 1;
    ctx.pushedBy[0] = null;
    st.phase = 'registers';
    st.register = register;
    runSteps(ctx, ctx.rules.registerSteps, register);
    r.registers[register - 1] = 0;
    if (r.status !== 'active') {
      ctx.occ.fill(0);
      return null;
    }
    return { x: r.x, y: r.y, dir: r.dir };
  }

  /**
   * `run` with the `card`-th of `cards`, each pose, register and card run once for this robot's
   * life: the searches of one course's check (a `registersTo` a flag, with one `LoneRobot`) go over
   * the same squares again and again. The run's answer, as `run`'s.
   */
  runOf(from: Pose, card: number, register: number): Pose | null {
    const w = this.ctx.board.width;
    const n = this.cards.length;
    const memo = (this.memo ??= new Int32Array(w * this.ctx.board.height * 4 * 5 * n).fill(-2));
    const k = ((((from.y * w + from.x) * 4 + from.dir) * 5 + (register - 1)) * n) + card;
    const known = memo[k]!;
    if (known === -1) return null;
    if (known >= 0) return { x: (known >> 2) % w, y: Math.floor((known >> 2) / w), dir: (known & 3) as Dir };
    const q = this.run(from, this.cards[card]!, register);
    memo[k] = q ? (q.y * w + q.x) * 4 + q.dir : -1;
    return q;
  }
}

/**
 * The fewest registers in which a lone robot starting at one of `from` (any facing, any register)
 * can end a register on `target`, or null if it never can. The search runs over squares, facings
 * and the register number (pushers and crushers act by register).
 */
export function registersTo(setup: Setup, from: readonly Square[], target: Square, lone = new LoneRobot(setup)): number | null {
  const b = setup.board;
  const key = (p: Pose, reg: number) => (((p.y * b.width + p.x) * 4 + p.dir) * 5 + (reg - 1));
  const seen = new Uint8Array(b.width * b.height * 4 * 5);
  let frontier: [Pose, number][] = [];
  for (const [x, y] of from) {
    if (x === target[0] && y === target[1]) return 0;
    for (let dir = 0; dir < 4; dir++) {
      for (let reg = 1; reg <= 5; reg++) {
        const p = { x, y, dir: dir as Dir };
        seen[key(p, reg)] = 1;
        frontier.push([p, reg]);
      }
    }
  }
  for (let steps = 1; frontier.length; steps++) {
    const next: [Pose, number][] = [];
    for (const [p, reg] of frontier) {
      for (let card = 0; card < lone.cards.length; card++) {
        const q = lone.runOf(p, card, reg);
        if (!q) continue;
        if (q.x === target[0] && q.y === target[1]) return steps;
        const nreg = (reg % 5) + 1;
        const k = key(q, nreg);
        if (seen[k]) continue;
        seen[k] = 1;
        next.push([q, nreg]);
      }
    }
    frontier = next;
  }
  return null;
}
