/**
 * A rule set is data plus small named hooks; the register phase, the turn and the rules of
 * movement are shared. `classic` is the 1994 manual with the FAQ's readings.
 */
import type { Ctx } from '../context.js';
import type { Dir } from '../geometry.js';
import type { GameState, RobotState } from '../state.js';

/** One step of a register phase (RULES.md "Register phase, in order"). */
export interface RegisterStep {
  readonly name: string;
  readonly run: (ctx: Ctx, register: number) => void;
}

/** A destroyed robot's player's choices for its re-entry. */
export interface Reentry {
  readonly dir?: Dir;
  readonly poweredDown?: boolean;
}

export interface RuleSet {
  readonly name: string;
  /** Cards are written with their printed priority (`F2:670`), else by instruction alone. */
  readonly priorities: boolean;
  /** Damage that destroys a robot. */
  readonly destroyAt: number;
  /** Damage a robot re-enters with. */
  readonly reentryDamage: number;
  /** Points repaired at the end of a turn on each kind of site. */
  readonly repair: { readonly wrench: number; readonly doubleWrench: number; readonly flag: number };
  /** The player chooses between repair and an option at a two-wrench site (`takeOption`). */
  readonly takeOptionChoice: boolean;
  /** The player may name the registers freed by repair (classic B-07); else the lowest go first. */
  readonly playerUnlock: boolean;
  readonly registerSteps: readonly RegisterStep[];
  handSize(damage: number): number;
  lockedCount(damage: number): number;
  /** The robots in `movers`, in the order their cards run; records it in `state.order`. */
  moveOrder(ctx: Ctx, register: number, movers: number[]): number[];
  /** Why this robot may not announce a power down, or null if it may. */
  powerDownRefusal(robot: RobotState): string | null;
  /** Deals each powered-up robot on the floor its cards for the turn. */
  deal(ctx: Ctx): void;
  /** True when the race is over (state.winTurn is the turn of the first finish, 0 for none). */
  raceOver(state: GameState): boolean;
  /** End of turn: a powered-up robot on a two-wrench (hammer) site. */
  doubleWrench(ctx: Ctx, robot: number): void;
  /** Last of the end of the turn, after repairs: the rule set's own bookkeeping. */
  endOfTurn?(ctx: Ctx): void;
  /** Once, when the race's first state is made. */
  init?(ctx: Ctx): void;
  /** Called when a robot is destroyed, after it has left the floor. */
  onDestroyed?(ctx: Ctx, robot: number): void;
  /** Puts the destroyed robots back on the floor, in the order they were destroyed. */
  reenter(ctx: Ctx, destroyed: readonly number[], choices: Readonly<Record<number, Reentry>>): void;
}
