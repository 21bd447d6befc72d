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

/** A context with its own occupancy grid: for contexts that live on (bots' simulator, paths). */
export function makeCtx(setup: Setup, state: GameState, events: GameEvent[] | null): Ctx {
  const b = setup.board;
  return withGrid(setup, state, events, new Int16Array(b.width * b.height));
}

/**
 * A spare occupancy grid for the engine's own calls (turn.ts): a fresh grid per call (576 cells on
 * a 24x24 course) cost about 5% of a turn in allocation and garbage collection. A call takes the
 * spare, so that a nested call allocates its own, and gives it back when it is done.
 */
let spareOcc: Int16Array | null = null;

/** A context for one engine call, on the spare grid when there is one; `giveBack` when done. */
export function lendCtx(setup: Setup, state: GameState, events: GameEvent[] | null): Ctx {
  const b = setup.board;
  let occ = spareOcc;
  if (occ && occ.length === b.width * b.height) {
    spareOcc = null;
    occ.fill(0);
  } else occ = new Int16Array(b.width * b.height);
  return withGrid(setup, state, events, occ);
}

/** The call is over: its grid becomes the spare. The context must not be used again. */
export function giveBack(ctx: Ctx): void {
  spareOcc = ctx.occ;
}

function withGrid(setup: Setup, state: GameState, events: GameEvent[] | null, occ: Int16Array): Ctx {
  const b = setup.board;
  const robots = state.robots;
  const pushedBy: (PushSource | null)[] = [];
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status === 'active' && !r.virtual) occ[r.y * b.width + r.x] = i + 1;
    pushedBy.push(null);
  }
  return { setup, board: b, rules: setup.rules, state, events, walls: wallsWithDice(b, state), occ, pushedBy };
}
