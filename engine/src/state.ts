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
  /** Registers the player frees first when damage is repaired (classic, B-07). Replaced, never
   *  changed in place: copies of a state share it. */
  unlock: readonly number[];
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
  /** Option cards held. Replaced, never changed in place: copies of a state share it. */
  options: readonly string[];
  /** What the option cards remember (OPTIONS.md); null while there is nothing. */
  opt: OptionMemory | null;
}

/**
 * A robot's option bookkeeping: this turn's decisions and what the cards hold between turns.
 * Plain data like the rest of the state.
 */
export interface OptionMemory {
  /** This turn's decisions (OPTIONS.md part 4), as submitted with the program. */
  choices: Choices;
  /** Per register, a second card played with the first (Crab Legs, Dual Processor), 0 for none. */
  joined: Card[];
  /** Registers locked by Fire Control markers (bit r-1), part of `locked` (OPTIONS.md 2.10). */
  fcLocks: number;
  /** The card stored on the Flywheel, 0 for none (2.11). */
  flywheel: Card;
  /** The card set aside on Conditional Program this turn, 0 for none (2.5). */
  aside: Card;
  /** Per register, the copy of a Radio Control shooter's card it runs instead, 0 for none (2.19). */
  copied: Card[];
  /** The robot whose cards it copies, -1 for none. */
  copiedFrom: number;
  /** The archive location was touched while the robot held Superior Archive (2.25). */
  superior: boolean;
  /** Options gained this turn: they work from the next turn on (1.1). */
  fresh: string[];
  /** Options the others have seen used (Secret Options, 004 L188). */
  shown: string[];
  /** Recompiled this turn (once per turn, 2.22). */
  recompiled: boolean;
  /** No Sit-and-Spin: the two-wrench site of its last option, until it touches another repair site. */
  optionSite: Square | null;
}

/** What a player decides for its options in a turn; keys as OPTIONS.md part 4 names them. */
export interface Choices {
  /** Options discarded to cancel damage, in order; `register` limits one to that register (1.2). */
  readonly exchange?: readonly { readonly option: string; readonly register?: number }[];
  /** The option given up on destruction (1.3). */
  readonly lose?: string;
  /** The side the Shield covers, relative to the robot's facing: 0 front, 1 right, 2 back, 3 left. */
  readonly shield?: number;
  readonly gyro?: boolean;
  /** Register → the optional weapon fired instead of the main laser. */
  readonly weapon?: Readonly<Record<number, string>>;
  /**
   * Registers whose weapon is a conditional order (003 L12 "use tractor beam if opponent will fall
   * into pit through my use"): it fires only if its pull or push drops the target off the floor.
   */
  readonly weaponIfFalls?: readonly number[];
  /** Register → Fire Control mode per point: damage, or locks / option destructions in turn. */
  readonly fireControl?: Readonly<Record<number, readonly FireControlMode[]>>;
  readonly brakes?: readonly number[];
  readonly fourthGear?: readonly number[];
  readonly reverseGear?: readonly number[];
  readonly abort?: number;
  readonly conditional?: { readonly card: Card; readonly register?: number };
  readonly flywheel?: Card;
  readonly recompile?: boolean;
  readonly chopShop?: { readonly register: number | 'end'; readonly scrap?: string; readonly recharge?: string; readonly draw?: boolean };
  /** pbem: upgrades switched on this round. */
  readonly active?: readonly string[];
  /** pbem: the Circuit Breaker's threshold this round. */
  readonly circuitBreaker?: number;
  /** Registers freed first by repair (classic). */
  readonly unlock?: readonly number[];
  /**
   * At a two-wrench site: take an option (true), repair (false), or 003's conditional order "if
   * damage > 3 repair, else take option card" as `{ ifDamageAtMost: 3 }` (003 L75), or the other way
   * round, `{ ifDamageAtLeast: N }`.
   */
  readonly takeOption?: boolean | { readonly ifDamageAtMost: number } | { readonly ifDamageAtLeast: number };
}

export type FireControlMode = { readonly kind: 'damage' } | { readonly kind: 'lock'; readonly register: number } | { readonly kind: 'option'; readonly option: string };

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
  /** Cards not dealt this turn. Replaced, never changed in place: copies of a state share it. */
  deck: readonly Card[];
  /** Cards dealt and not programmed, and programmed cards returned. */
  discard: Card[];
  robots: RobotState[];
  /** Robots that touched their last flag, in groups of the same register, first place first. A
   *  group is never changed once recorded: copies of a state share the groups. */
  finished: (readonly number[])[];
  /** The turn in which the first robot touched its last flag; 0 while nobody has. */
  winTurn: number;
  /** Dice Rule: damage each flag's die can still absorb (0: gone); empty without the rule. */
  dice: number[];
  /** pbem: the upgrade each hammer site offers, and the turn it appeared there. Replaced, never
   *  changed in place: copies of a state share it. */
  offers: readonly Offer[];
  /** The move order of the last register phase (robot indices), for tie rules. */
  order: number[];
  /** classic: the option deck, top first (OPTIONS.md 1.1). Replaced, never changed in place:
   *  copies of a state share it. */
  optionDeck: readonly string[];
  destructions: number;
}

export const onTheFloor = (r: RobotState): boolean => r.status === 'active';

/** A copy to change. */
export const cloneState = (s: GameState): GameState => copyState(s, false);

/**
 * A copy to change for a caller that replaces every non-empty hand before it changes one (the
 * reveal of a register phase discards them): those hands are shared with `s`, not copied (they
 * were about a third of the copying), and no array of `s` stays in the result once replaced.
 */
export const cloneStateSharingHands = (s: GameState): GameState => copyState(s, true);

function copyState(s: GameState, sharedHands: boolean): GameState {
  const robots: RobotState[] = [];
  for (let i = 0; i < s.robots.length; i++) robots.push(cloneRobot(s.robots[i]!, sharedHands));
  return {
    rules: s.rules,
    turn: s.turn,
    phase: s.phase,
    register: s.register,
    rng: s.rng.slice(),
    deck: s.deck, // shared: never changed in place
    // An empty list (the discard after a deal, the dice without the Dice Rule, the finishing
    // groups before the first) is a new literal: `slice()` is a builtin call, a literal is not.
    discard: s.discard.length ? s.discard.slice() : [],
    robots,
    finished: s.finished.length ? s.finished.slice() : [],
    winTurn: s.winTurn,
    offers: s.offers, // shared: never changed in place
    dice: s.dice.length ? s.dice.slice() : [],
    order: s.order.slice(),
    optionDeck: s.optionDeck ?? [], // shared (never changed in place); a state saved before options had none
    destructions: s.destructions,
  };
}

/** Every field written out, not spread: one object shape for all robots, and much faster. */
function cloneRobot(r: RobotState, sharedHand: boolean): RobotState {
  return {
    name: r.name, x: r.x, y: r.y, dir: r.dir, damage: r.damage, lives: r.lives, flags: r.flags,
    archive: r.archive, start: r.start, status: r.status, virtual: r.virtual, poweredDown: r.poweredDown,
    announced: r.announced, stayDown: r.stayDown, takeOption: r.takeOption, unlock: r.unlock,
    hand: sharedHand && r.hand.length ? r.hand : r.hand.slice(), registers: r.registers.slice(), locked: r.locked, programmed: r.programmed,
    destroyedAt: r.destroyedAt, reentries: r.reentries, options: r.options, // shared: never changed in place
    opt: r.opt ? cloneMemory(r.opt) : null,
  };
}

/**
 * Makes robot `to` equal to `from`, every field, reusing `to`'s arrays (the simulator's save and
 * restore, which must not allocate); the registers only if `registers` (a search sets them itself).
 * `simulator.test.ts` checks that no field is left out.
 */
export function copyRobotInto(to: RobotState, from: RobotState, registers = true): void {
  (to as { name: string }).name = from.name;
  to.x = from.x;
  to.y = from.y;
  to.dir = from.dir;
  to.damage = from.damage;
  to.lives = from.lives;
  to.flags = from.flags;
  to.archive = from.archive;
  to.start = from.start;
  to.status = from.status;
  to.virtual = from.virtual;
  to.poweredDown = from.poweredDown;
  to.announced = from.announced;
  to.stayDown = from.stayDown;
  to.takeOption = from.takeOption;
  to.unlock = from.unlock; // never changed in place
  copyList(to.hand, from.hand);
  if (registers) copyList(to.registers, from.registers);
  to.locked = from.locked;
  to.programmed = from.programmed;
  to.destroyedAt = from.destroyedAt;
  to.reentries = from.reentries;
  to.options = from.options; // never changed in place
  // Copied into the memory `to` already owns (a search restores thousands of times a decision).
  if (from.opt && to.opt) copyMemoryInto(to.opt, from.opt);
  else if (from.opt || to.opt) to.opt = from.opt && cloneMemory(from.opt);
}

/** `to` becomes a copy of `from`, in place (what cloneMemory copies, it copies). */
function copyMemoryInto(to: OptionMemory, from: OptionMemory): void {
  to.choices = from.choices;
  copyList(to.joined, from.joined);
  to.fcLocks = from.fcLocks;
  to.flywheel = from.flywheel;
  to.aside = from.aside;
  copyList(to.copied, from.copied);
  to.copiedFrom = from.copiedFrom;
  to.superior = from.superior;
  copyList(to.fresh, from.fresh);
  copyList(to.shown, from.shown);
  to.recompiled = from.recompiled;
  to.optionSite = from.optionSite;
}

/** `to` becomes a copy of `from`, in place. */
export function copyList<T>(to: T[], from: readonly T[]): void {
  for (let k = 0; k < from.length; k++) to[k] = from[k]!;
  // Cut by pop(): setting an array's length is a call into the runtime.
  while (to.length > from.length) to.pop();
}

export function cloneMemory(m: OptionMemory): OptionMemory {
  return {
    choices: m.choices, joined: m.joined.slice(), fcLocks: m.fcLocks, flywheel: m.flywheel, aside: m.aside,
    copied: m.copied.slice(), copiedFrom: m.copiedFrom, superior: m.superior, fresh: m.fresh.slice(),
    shown: m.shown.slice(), recompiled: m.recompiled, optionSite: m.optionSite,
  };
}

export const popcount = (m: number): number => {
  let c = 0;
  for (; m; m &= m - 1) c++;
  return c;
};
