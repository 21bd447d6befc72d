/**
 * A working copy of a race for bots to search in: the register phases of the engine run in place
 * on one state, with a cheap snapshot and restore of what a register can change, so that programs
 * sharing a prefix share its simulation (the search clones nothing at its branch points).
 *
 * It runs the engine's own register steps (`setup.rules.registerSteps`) on an engine context, so
 * the rules are the engine's; what it adds is only the bookkeeping `playRegister` does around
 * them. `sim.test.ts` checks, over many random states, that it ends every register exactly where
 * the engine does.
 */
import { makeCtx, type Ctx } from '../../engine/src/context.js';
import { startRegister } from '../../engine/src/phases/steps.js';
import { cloneMemory, cloneState, type Card, type GameState, type OptionMemory, type RobotState, type Setup, type Square } from '../../engine/src/index.js';

/** What a register phase can change in a robot, saved field by field. */
interface RobotSave {
  x: number;
  y: number;
  dir: RobotState['dir'];
  damage: number;
  lives: number;
  flags: number;
  status: RobotState['status'];
  virtual: boolean;
  poweredDown: boolean;
  announced: boolean;
  stayDown: boolean;
  locked: number;
  destroyedAt: number;
  archive: Square | null;
  /** A copy when the robot has options (destruction takes one away), else null. */
  options: string[] | null;
  /** Copies of the option memory and the registers (Scrambler, Abort Switch change cards), when it has one. */
  opt: OptionMemory | null;
  registers: Card[] | null;
}

/** What a register phase can change in the state and the context. */
export interface Snapshot {
  readonly robots: RobotSave[];
  register: number;
  rng0: number;
  rng1: number;
  rng2: number;
  rng3: number;
  finished: number;
  winTurn: number;
  destructions: number;
  order: number[];
  dice: number[] | null;
  walls: Uint8Array;
  /** With options in play: the deck (random draws take from it) and the discard's length. */
  deck: Card[] | null;
  discard: number;
}

const newSave = (): RobotSave => ({
  x: 0, y: 0, dir: 0, damage: 0, lives: 0, flags: 0, status: 'active', virtual: false, poweredDown: false,
  announced: false, stayDown: false, locked: 0, destroyedAt: 0, archive: null, options: null, opt: null, registers: null,
});

export interface SimOptions {
  /**
   * Which robots keep their cards. The others run only what their locked registers hold (face up,
   * so public) and otherwise stand still; their secret programs are never read. Default: none.
   */
  readonly keepPrograms?: (i: number) => boolean;
  /** Only robot `alone` stays on the floor (as robot 0): a robot racing by itself. */
  readonly alone?: number;
}

/**
 * A race's state prepared for searching: the hands are put away, the phase is the register phases,
 * and every robot's unlocked registers are empty until the search fills them.
 */
export class Sim {
  readonly ctx: Ctx;
  readonly state: GameState;
  readonly robots: RobotState[];
  private readonly steps: Setup['rules']['registerSteps'];

  constructor(readonly setup: Setup, state: GameState, o: SimOptions = {}) {
    const st = cloneState(state);
    if (o.alone !== undefined) {
      st.robots = [st.robots[o.alone]!];
      st.order = [0];
      st.finished = [];
    }
    st.phase = 'registers';
    st.register = 0;
    st.robots.forEach((r, i) => {
      r.hand = [];
      const keep = o.alone !== undefined || (o.keepPrograms?.(i) ?? false);
      if (!keep) for (let k = 0; k < 5; k++) if (!(r.locked & (1 << k))) r.registers[k] = 0;
    });
    this.state = st;
    this.robots = st.robots;
    this.ctx = makeCtx(setup, st, null);
    this.steps = setup.rules.registerSteps;
  }

  /** Puts `card` in register `reg` (1 to 5) of robot i (0: the register does nothing). */
  setCard(i: number, reg: number, card: Card): void {
    this.robots[i]!.registers[reg - 1] = card;
  }

  /** Plays register phase `reg` in place, as `playRegister` would. */
  register(reg: number): void {
    const ctx = this.ctx;
    ctx.state.register = reg;
    startRegister(ctx);
    for (const step of this.steps) step.run(ctx, reg);
  }

  newSnapshot(): Snapshot {
    return {
      robots: this.robots.map(newSave), register: 0, rng0: 0, rng1: 0, rng2: 0, rng3: 0, finished: 0, winTurn: 0,
      destructions: 0, order: [], dice: null, walls: this.ctx.walls, deck: null, discard: 0,
    };
  }

  /** Saves into `s` what a register phase can change. */
  save(s: Snapshot): void {
    const st = this.state;
    const rs = this.robots;
    let anyOpt = false;
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      const v = s.robots[i]!;
      v.x = r.x;
      v.y = r.y;
      v.dir = r.dir;
      v.damage = r.damage;
      v.lives = r.lives;
      v.flags = r.flags;
      v.status = r.status;
      v.virtual = r.virtual;
      v.poweredDown = r.poweredDown;
      v.announced = r.announced;
      v.stayDown = r.stayDown;
      v.locked = r.locked;
      v.destroyedAt = r.destroyedAt;
      v.archive = r.archive;
      v.options = r.options.length ? r.options.slice() : null;
      v.opt = r.opt && cloneMemory(r.opt);
      v.registers = r.opt ? r.registers.slice() : null;
      anyOpt ||= r.opt !== null;
    }
    s.deck = anyOpt ? st.deck.slice() : null;
    s.discard = st.discard.length;
    s.register = st.register;
    s.rng0 = st.rng[0]!;
    s.rng1 = st.rng[1]!;
    s.rng2 = st.rng[2]!;
    s.rng3 = st.rng[3]!;
    s.finished = st.finished.length;
    s.winTurn = st.winTurn;
    s.destructions = st.destructions;
    const o = s.order;
    o.length = st.order.length;
    for (let k = 0; k < o.length; k++) o[k] = st.order[k]!;
    s.dice = st.dice.length ? st.dice.slice() : null;
    s.walls = this.ctx.walls;
  }

  /** Brings the state back to what `save` saved in `s`. */
  restore(s: Snapshot): void {
    const st = this.state;
    const ctx = this.ctx;
    const occ = ctx.occ;
    const w = ctx.board.width;
    const rs = this.robots;
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      const c = r.y * w + r.x;
      if (r.x >= 0 && r.y >= 0 && r.x < w && occ[c] === i + 1) occ[c] = 0;
    }
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      const v = s.robots[i]!;
      r.x = v.x;
      r.y = v.y;
      r.dir = v.dir;
      r.damage = v.damage;
      r.lives = v.lives;
      r.flags = v.flags;
      r.status = v.status;
      r.virtual = v.virtual;
      r.poweredDown = v.poweredDown;
      r.announced = v.announced;
      r.stayDown = v.stayDown;
      r.locked = v.locked;
      r.destroyedAt = v.destroyedAt;
      r.archive = v.archive;
      if (v.options || r.options.length) r.options = v.options ? v.options.slice() : [];
      if (v.opt || r.opt) r.opt = v.opt && cloneMemory(v.opt);
      if (v.registers) for (let k = 0; k < 5; k++) r.registers[k] = v.registers[k]!;
      if (r.status === 'active' && !r.virtual) occ[r.y * w + r.x] = i + 1;
    }
    st.register = s.register;
    st.rng[0] = s.rng0;
    st.rng[1] = s.rng1;
    st.rng[2] = s.rng2;
    st.rng[3] = s.rng3;
    if (st.finished.length !== s.finished) st.finished.length = s.finished;
    st.winTurn = s.winTurn;
    st.destructions = s.destructions;
    const o = st.order;
    o.length = s.order.length;
    for (let k = 0; k < o.length; k++) o[k] = s.order[k]!;
    if (s.dice) for (let k = 0; k < s.dice.length; k++) st.dice[k] = s.dice[k]!;
    if (s.deck) st.deck = s.deck.slice();
    st.discard.length = s.discard;
    ctx.walls = s.walls;
  }
}
