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
import type { Hit } from './options/damage.js';
import type { WeaponShot } from './options/weapons.js';

/** The fixed part of a race: its floor, its rule set and its settings. */
export interface Setup {
  readonly board: Board;
  readonly rules: RuleSet;
  readonly settings: Settings;
  /** Factory boards in the course (for the extra-lives rule). */
  readonly boards: number;
  /**
   * Where a finished call leaves its workspace for the next call on this setup (`makeSetup` makes
   * one): a call takes the spare, so that a nested call makes its own, and gives it back when done.
   * Without it every call makes a fresh workspace. Nothing in it outlives a call's meaning: each
   * call clears what it reads.
   */
  readonly spare?: { workspace: Workspace | null };
}

/**
 * A shot waiting in the laser step to be dealt point by point (options/damage.ts): the Hit itself,
 * with its target and points. The workspace keeps them and the step refills them: a robot holding
 * options costs no new objects per shot.
 */
export interface PendingShot extends Hit {
  target: number;
  points: number;
  dir: Hit['dir'];
  shooter: number;
  weapon: Hit['weapon'];
  register: number;
}

/**
 * A call's working memory: the occupancy grid, the scratch arrays the steps reuse instead of
 * allocating, and what lasts one register phase. Owned by one context at a time.
 */
export interface Workspace {
  /** Per cell: 1 + the index of the real robot standing there, or 0. */
  readonly occ: Int16Array;
  /** Per robot: what last pushed it in this register (see `Ctx.pushedBy`). */
  readonly pushedBy: (PushSource | null)[];
  /** A chain of pushed robots, nearest first (movement.ts `collectChain`), and whether it ends against a repulsor field. */
  readonly chain: number[];
  /** On a cube course: the way each robot of `chain` is pushed (a fold turns it). */
  readonly chainDir: number[];
  chainMeetsRepulsor: boolean;
  /** The robots that run a card this register (phases/program.ts), and their cards while they are sorted. */
  readonly moving: number[];
  moveCards: Int32Array;
  /** The reveal: a robot's unplayed cards, the first `nunplayed` of them (turn.ts `unplayedOf`). */
  unplayed: Int32Array;
  nunplayed: number;
  /** Whether some robot has option memory (`opt`), as the last look for the movers found. */
  withOptions: boolean;
  /**
   * Laser step: points per robot; per board laser its nearest blocker, that blocker's distance + 1
   * and the nearest die's distance; the lasers that meet a blocker. `hits` and `nearestAt` are all
   * 0 between steps (`laserScratchClean`), unless an exception cut the last step short.
   */
  hits: Int32Array;
  nearest: Int32Array;
  nearestAt: Int32Array;
  dieAtDistance: Int32Array;
  lit: Int32Array;
  /** Laser step: per robot, what its own laser meets (a robot, a die as -1 - flag, or none), from the step's first pass. */
  aim: Int32Array;
  /**
   * Laser step: the real robots' squares a bit each, per row (bit x) and per column (bit y), all 0
   * between steps; per robot its square (x * 32 + y) and its laser's facing and reach (facing * 256
   * + reach).
   */
  rowBits: Int32Array;
  colBits: Int32Array;
  spot: Int32Array;
  gun: Int32Array;
  laserScratchClean: boolean;
  /** Laser step: the robots that stood on a flag or repair site, a bit each, or -1 for all (phases/checkpoints.ts). */
  onSites: number;
  /** Laser step: shots dealt point by point (the first `nspecial`, the rest kept for reuse), and the optional weapons that hit. */
  readonly special: PendingShot[];
  nspecial: number;
  readonly weaponShots: WeaponShot[];
  /** Laser step: the robots (and dice) a High-Power beam meets (options/weapons.ts `piercingTargets`). */
  readonly pierced: number[];
  /** Belt step: the riders, their targets, which of them stay and which ride an express belt. */
  riders: Int32Array;
  tx: Int32Array;
  ty: Int32Array;
  stuck: Uint8Array;
  express: Uint8Array;
  /** This register: the sides each robot's shield has blocked (shieldPerRegister), and whether any has. */
  blockedSides: number[];
  anyBlocked: boolean;
  /** This register: Fire Control points used, by shooter * 64 + target. */
  readonly fireControlUsed: Map<number, number>;
  /** This register: rams dealt, as rammer * 64 + victim (2.20: once per robot per register). */
  readonly rams: Set<number>;
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
  /** The call's working memory. */
  readonly work: Workspace;
}


function newWorkspace(cells: number): Workspace {
  return {
    occ: new Int16Array(cells), pushedBy: [], chain: [], chainDir: [], chainMeetsRepulsor: false, moving: [], moveCards: new Int32Array(8), unplayed: new Int32Array(16), nunplayed: 0, withOptions: false,
    hits: new Int32Array(8), nearest: new Int32Array(8), nearestAt: new Int32Array(8), dieAtDistance: new Int32Array(8),
    lit: new Int32Array(8), aim: new Int32Array(8), rowBits: new Int32Array(0), colBits: new Int32Array(0), spot: new Int32Array(8), gun: new Int32Array(8),
    laserScratchClean: true, onSites: -1,
    special: [], nspecial: 0, weaponShots: [], pierced: [],
    riders: new Int32Array(8), tx: new Int32Array(8), ty: new Int32Array(8), stuck: new Uint8Array(8), express: new Uint8Array(8),
    blockedSides: [], anyBlocked: false, fireControlUsed: new Map(), rams: new Set(),
  };
}

/** A context with a workspace of its own: for contexts that live on (bots' simulator, paths). */
export function makeCtx(setup: Setup, state: GameState, events: GameEvent[] | null): Ctx {
  const b = setup.board;
  return withWorkspace(setup, state, events, newWorkspace(b.width * b.height));
}

/**
 * A context for one engine call, on the setup's spare workspace when there is one (a fresh grid
 * and scratch per call cost about 5% of a turn in allocation and garbage collection); `giveBack`
 * when done. The spare's grid is empty: `giveBack` left it so.
 */
export function lendCtx(setup: Setup, state: GameState, events: GameEvent[] | null): Ctx {
  const b = setup.board;
  const cells = b.width * b.height;
  let work = setup.spare?.workspace ?? null;
  if (work && work.occ.length === cells) setup.spare!.workspace = null;
  else work = newWorkspace(cells);
  return withWorkspace(setup, state, events, work);
}

/**
 * The call is over: its workspace becomes the setup's spare, its grid emptied. The grid holds
 * exactly the real robots on the floor (every move keeps it so; the laser step and the pushes read
 * it), so clearing each robot's square empties it: a few writes, where `fill(0)` on the next call
 * was a call into the runtime (about 0.1 µs). The bots' simulator restores its grid the same way.
 * A call cut short by an exception gives nothing back; the next call makes a fresh workspace. The
 * context must not be used again.
 */
export function giveBack(ctx: Ctx): void {
  const spare = ctx.setup.spare;
  if (!spare) return;
  const occ = ctx.occ;
  const w = ctx.board.width;
  const robots = ctx.state.robots;
  for (let i = 0; i < robots.length; i++) {
    const c = robots[i]!.y * w + robots[i]!.x;
    if (c >= 0 && c < occ.length) occ[c] = 0;
  }
  spare.workspace = ctx.work;
}

function withWorkspace(setup: Setup, state: GameState, events: GameEvent[] | null, work: Workspace): Ctx {
  const b = setup.board;
  const robots = state.robots;
  const { occ, pushedBy } = work;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status === 'active' && !r.virtual) occ[r.y * b.width + r.x] = i + 1;
    pushedBy[i] = null;
  }
  while (pushedBy.length > robots.length) pushedBy.pop();
  return { setup, board: b, rules: setup.rules, state, events, walls: wallsWithDice(b, state), occ, pushedBy, work };
}
