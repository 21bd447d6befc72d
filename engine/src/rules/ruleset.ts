/**
 * A rule set is data plus small named hooks; the register phase, the turn and the rules of
 * movement are shared. `classic` is the 1994 manual with the FAQ's readings.
 */
import type { CardType } from '../cards.js';
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

/** How a rule set plays its options (OPTIONS.md parts 2 and 3): data the option modules read. */
export interface OptionRules {
  /** The option names this rule set knows. */
  readonly catalog: readonly string[];
  /** The `choices` keys a player may give. */
  readonly choiceKeys: readonly string[];
  /** Option exchange against damage (1.2; classic only). */
  readonly exchange: boolean;
  /** Optional weapons are switched on for a round (`active`, pbem) rather than named per register. */
  readonly toggles: boolean;
  /** Damage a Ramming Gear deals. */
  readonly ramDamage: number;
  /** Damage Recompile costs, and whether it is taken before the new hand is drawn. */
  readonly recompileDamage: number;
  readonly recompileDamageFirst: boolean;
  /** Cards with uses (written `NAME:LEFT`) and their uses when fresh: Mini Howitzer, Ablative Coat. */
  readonly uses: Readonly<Record<string, number>>;
  /** The name of the laser mod that fires two shots. */
  readonly doubleBarreled: string;
  /** Superior Archive needs the archive touched while holding the card (classic B-31). */
  readonly superiorNeedsArchive: boolean;
  /** Power-Down Shield blocks one point per side per register (else one per shot). */
  readonly powerDownShieldPerRegister: boolean;
  /** Circuit Breaker's default threshold. */
  readonly circuitBreaker: number;
  /** Radio Control's reach in squares (0: no limit). */
  readonly radioRange: number;
}

export interface RuleSet {
  readonly name: string;
  /** What the rules are, for players (the start mail's rules, docs/rules.md; `rulesText`). */
  readonly title: string;
  readonly options: OptionRules;
  /** Cards are written with their printed priority (`F2:670`), else by instruction alone. */
  readonly priorities: boolean;
  /**
   * Each robot has a start of its own (the course's `starts`, in pick order; pbem, 001 L333), else
   * every robot starts on the board's one start square (classic, 000 L54-56).
   */
  readonly startsPerRobot: boolean;
  /** Damage that destroys a robot. */
  readonly destroyAt: number;
  /** Damage a robot re-enters with. */
  readonly reentryDamage: number;
  /** Points repaired at the end of a turn on each kind of site. */
  readonly repair: { readonly wrench: number; readonly doubleWrench: number; readonly flag: number };
  /** The player chooses between repair and an option at a two-wrench site (`takeOption`). */
  readonly takeOptionChoice: boolean;
  /** Instructions are drawn one by one with these weights (pbem, 001 L61); null: cards are dealt
   *  from the shuffled deck. A bot guessing rivals' hands draws by them (`drawByOdds`). */
  readonly drawOdds: readonly (readonly [CardType, number])[] | null;
  /** The player chooses a re-entering robot's facing and whether it re-enters powered down; else it
   *  faces as when destroyed, powered up. */
  readonly reentryChoice: boolean;
  /** Brakes, Fourth Gear and Reverse Gear are played as codes in the program (F0, F4, B2); else
   *  their registers are named in `choices` (`brakes`, `fourthGear`, `reverseGear`). */
  readonly gearCodes: boolean;
  /** Options are drawn from a deck (the house rules about the option deck apply); else each site offers its own. */
  readonly optionDeck: boolean;
  /** The race ends with 001's awards (001 L353-383). */
  readonly awards: boolean;
  /** Only a damaged robot may power down (shown to players beside `powerDownRefusal`). */
  readonly powerDownNeedsDamage: boolean;
  /** The player may name the registers freed by repair (classic B-07); else the lowest go first. */
  readonly playerUnlock: boolean;
  readonly registerSteps: readonly RegisterStep[];
  handSize(damage: number): number;
  lockedCount(damage: number): number;
  /**
   * The robots in `movers`, in the order their cards run; records it in `state.order`. Absent: the
   * cards run by their number, highest first (classic's printed priorities, 000 L120; B-23), a tie
   * in robot order, as the movers are found (phases/program.ts).
   */
  readonly moveOrder?: (ctx: Ctx, register: number, movers: number[]) => number[];
  /** How a card ranks in the move order, higher first (Radio Control's copies slot in by it). */
  cardRank(card: number): number;
  /** The rank of robot i's move this register, higher first: the order option weapons act in (1.4). */
  shooterRank(ctx: Ctx, i: number, register: number): number;
  /** A random program card for Scrambler, Abort Switch and Recompile: from the undealt deck, or drawn as instructions are; 0 if none is left. */
  drawCard(ctx: Ctx): number;
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
