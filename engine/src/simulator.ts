/**
 * The engine's in-place simulator, for searches (bots) and tests: register phases run on one
 * working state, with a snapshot and restore of what a register can change, so that programs
 * sharing a prefix share its simulation and nothing is cloned at a branch point. It runs the rule
 * set's own register steps; what it leaves out is only the reveal (`playRegister` discards the
 * hands before the first register: the simulator's state has none to discard) and the events.
 */
import type { Board } from './board.js';
import type { Card } from './cards.js';
import { makeCtx, type Ctx, type Setup } from './context.js';
import { runSteps, startRegister } from './phases/steps.js';
import { cloneState, copyList, copyRobotInto, type GameState, type RobotState } from './state.js';

/** What a register phase can change, saved by `Simulator.save` and brought back by `restore`. */
export interface Snapshot {
  /** Every robot whole (state.ts `copyRobotInto`: one list of a robot's fields, in the engine). */
  readonly robots: RobotState[];
  /**
   * Per robot: its registers were saved. The registers are the search's input (`setCard`), kept
   * across a restore, except for a robot with options, whose Scrambler, Abort Switch or Radio
   * Control hits change its cards during a register.
   */
  readonly registers: boolean[];
  register: number;
  readonly rng: number[];
  finished: number;
  winTurn: number;
  destructions: number;
  readonly order: number[];
  readonly dice: number[];
  walls: Uint8Array;
  /** The deck (random draws take from it; never changed in place, so kept by reference). */
  deck: readonly Card[];
  /** The discard's length: a register only adds to it. */
  discard: number;
}

export class Simulator {
  /** The working state: changed in place by `register` and `restore`. */
  readonly state: GameState;
  readonly board: Board;
  private readonly ctx: Ctx;

  /** A simulator on a copy of `state`, a race in its register phases (or about to begin them). */
  constructor(readonly setup: Setup, state: GameState) {
    this.state = cloneState(state);
    this.state.phase = 'registers';
    this.ctx = makeCtx(setup, this.state, null);
    this.board = setup.board;
  }

  get robots(): RobotState[] {
    return this.state.robots;
  }

  /** Per cell: 1 + the index of the real robot standing there, or 0 (for checks). */
  get occupancy(): Int16Array {
    return this.ctx.occ;
  }

  /** Puts `card` in register `reg` (1 to 5) of robot i (0: the register does nothing). */
  setCard(i: number, reg: number, card: Card): void {
    this.state.robots[i]!.registers[reg - 1] = card;
  }

  /** Plays register phase `reg` in place, as `playRegister` would, without events. */
  register(reg: number): void {
    const ctx = this.ctx;
    ctx.state.register = reg;
    startRegister(ctx);
    runSteps(ctx, ctx.rules.registerSteps, reg);
  }

  newSnapshot(): Snapshot {
    const copy = cloneState(this.state);
    return {
      robots: copy.robots, registers: copy.robots.map(() => false), register: 0, rng: copy.rng, finished: 0, winTurn: 0, destructions: 0, order: copy.order,
      dice: copy.dice, walls: this.ctx.walls, deck: copy.deck, discard: 0,
    };
  }

  /** Saves into `s` what a register phase can change. */
  save(s: Snapshot): void {
    const st = this.state;
    const rs = st.robots;
    for (let i = 0; i < rs.length; i++) {
      const withOpt = rs[i]!.opt !== null;
      copyRobotInto(s.robots[i]!, rs[i]!, withOpt);
      s.registers[i] = withOpt;
    }
    s.deck = st.deck;
    s.discard = st.discard.length;
    s.register = st.register;
    copyList(s.rng, st.rng);
    s.finished = st.finished.length;
    s.winTurn = st.winTurn;
    s.destructions = st.destructions;
    copyList(s.order, st.order);
    copyList(s.dice, st.dice);
    s.walls = this.ctx.walls;
  }

  /** Brings the state back to what `save` saved in `s`. */
  restore(s: Snapshot): void {
    const st = this.state;
    const ctx = this.ctx;
    const occ = ctx.occ;
    const w = ctx.board.width;
    const rs = st.robots;
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      const c = r.y * w + r.x;
      if (r.x >= 0 && r.y >= 0 && r.x < w && occ[c] === i + 1) occ[c] = 0;
    }
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      copyRobotInto(r, s.robots[i]!, s.registers[i]!);
      if (r.status === 'active' && !r.virtual) occ[r.y * w + r.x] = i + 1;
    }
    st.register = s.register;
    copyList(st.rng, s.rng);
    while (st.finished.length > s.finished) st.finished.pop();
    st.winTurn = s.winTurn;
    st.destructions = s.destructions;
    copyList(st.order, s.order);
    copyList(st.dice, s.dice);
    st.deck = s.deck;
    while (st.discard.length > s.discard) st.discard.pop();
    ctx.walls = s.walls;
  }
}
