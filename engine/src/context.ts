/** True if a wall (or a blockading die) stands on side d of cell (x, y). */
export const blocked = (ctx: Ctx, x: number, y: number, d: number): boolean =>
  (ctx.walls[y * ctx.board.width + x]! & (1 << d)) !== 0;

/** What the rules work on during a call: the race's fixed setup and a working copy of its state. */
import type { Board } from './board.js';
import { wallsWithDice } from './dice.js';
import type { GameEvent, PushSource } from './events.js';
import type { RuleSet } from './rules/ruleset.js';
import type { Settings } from './settings.js';
import type { GameState } from './state.js';

/** The fixed part of a race: its floor, its rule set and its settings. */
export interface Setup {
  readonly board: Board;
  readonly rules: RuleSet;
  readonly settings: Settings;
  /** Factory boards in the course (for the extra-lives rule). */
  readonly boards: number;
}

export interface Ctx {
  readonly setup: Setup;
  readonly board: Board;
  readonly rules: RuleSet;
  readonly state: GameState;
  /** Where events go; null when the caller wants none (bots searching). */
  readonly events: GameEvent[] | null;
  /** The walls robots meet: the board's, and those of the Dice Rule while its dice stand. */
  walls: Uint8Array;
  /** Per cell: 1 + the index of the real robot standing there, or 0. Virtual robots are not here. */
  readonly occ: Int16Array;
  /**
   * Per robot: what last pushed it in this register, until it moves under its own power. A robot
   * that then falls or is crushed was pushed to its doom (001 L337 "The last person to directly
   * push a robot is credited with the kill").
   */
  readonly pushedBy: (PushSource | null)[];
}

export function makeCtx(setup: Setup, state: GameState, events: GameEvent[] | null): Ctx {
  const b = setup.board;
  const occ = new Int16Array(b.width * b.height);
  state.robots.forEach((r, i) => {
    if (r.status === 'active' && !r.virtual) occ[r.y * b.width + r.x] = i + 1;
  });
  return { setup, board: b, rules: setup.rules, state, events, walls: wallsWithDice(b, state), occ, pushedBy: state.robots.map(() => null) };
}
