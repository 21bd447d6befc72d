/**
 * The game state: plain data that serialises to JSON and back without loss, so a saved race
 * resumes exactly. The board and the rule set are not in it; they are the race's `Setup`.
 */
import type { Card } from './cards.js';
import type { Dir, Square } from './geometry.js';
import type { RngState } from './rng.js';

export type RobotStatus = 'active' | 'destroyed' | 'out';

export interface RobotState {
  readonly name: string;
  x: number;
  y: number;
  dir: Dir;
  damage: number;
  /** Lives left, the current one included. */
  lives: number;
  /** Flags touched in order. */
  flags: number;
  archive: Square | null;
  /** Where it begins, and re-enters before it has an archive. */
  start: Square;
  status: RobotStatus;
  virtual: boolean;
  /** Powered down during the current turn. */
  poweredDown: boolean;
  /** Announced this turn: powers down when the next turn begins. */
  announced: boolean;
  /** Powered down this turn and staying down next turn. */
  stayDown: boolean;
  /** Standing order: at a two-wrench site, take an option instead of repairing. */
  takeOption: boolean;
  /** Registers the player frees first when damage is repaired (classic, B-07). */
  unlock: number[];
  /** Cards dealt this turn and not yet programmed. */
  hand: Card[];
  /** Five registers; 0 is an empty register. */
  registers: Card[];
  /** Bit r-1 set: register r is locked. */
  locked: number;
  /** The program for this turn is in (or none is needed). */
  programmed: boolean;
  /** Sequence number of its last destruction, for the re-entry order. */
  destroyedAt: number;
  /** Times it has re-entered (One Free Life). */
  reentries: number;
  options: string[];
}

export interface Offer {
  readonly x: number;
  readonly y: number;
  readonly option: string;
  readonly since: number;
}

export type Phase = 'programming' | 'registers' | 'ended';

export interface GameState {
  readonly rules: string;
  turn: number;
  phase: Phase;
  /** Register phases completed this turn. */
  register: number;
  rng: RngState;
  /** Cards not dealt this turn. */
  deck: Card[];
  /** Cards dealt and not programmed, and programmed cards returned. */
  discard: Card[];
  robots: RobotState[];
  /** Robots that touched their last flag, in groups of the same register, first place first. */
  finished: number[][];
  /** The turn in which the first robot touched its last flag; 0 while nobody has. */
  winTurn: number;
  /** Dice Rule: damage each flag's die can still absorb (0: gone); empty without the rule. */
  dice: number[];
  /** pbem: the upgrade each hammer site offers, and the turn it appeared there. */
  offers: Offer[];
  /** The move order of the last register phase (robot indices), for tie rules. */
  order: number[];
  destructions: number;
}

export const onTheFloor = (r: RobotState): boolean => r.status === 'active';

export function cloneState(s: GameState): GameState {
  return {
    rules: s.rules,
    turn: s.turn,
    phase: s.phase,
    register: s.register,
    rng: s.rng.slice(),
    deck: s.deck.slice(),
    discard: s.discard.slice(),
    robots: s.robots.map(cloneRobot),
    finished: s.finished.map((g) => g.slice()),
    winTurn: s.winTurn,
    offers: s.offers.slice(),
    dice: s.dice.slice(),
    order: s.order.slice(),
    destructions: s.destructions,
  };
}

/** Every field written out, not spread: one object shape for all robots, and much faster. */
function cloneRobot(r: RobotState): RobotState {
  return {
    name: r.name, x: r.x, y: r.y, dir: r.dir, damage: r.damage, lives: r.lives, flags: r.flags,
    archive: r.archive, start: r.start, status: r.status, virtual: r.virtual, poweredDown: r.poweredDown,
    announced: r.announced, stayDown: r.stayDown, takeOption: r.takeOption, unlock: r.unlock.slice(),
    hand: r.hand.slice(), registers: r.registers.slice(), locked: r.locked, programmed: r.programmed,
    destroyedAt: r.destroyedAt, reentries: r.reentries, options: r.options.slice(),
  };
}

export const popcount = (m: number): number => {
  let c = 0;
  for (; m; m &= m - 1) c++;
  return c;
};
