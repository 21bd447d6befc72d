/**
 * The bots' decisions for a dealt turn: the one seam between the referee and whatever decides for
 * the bots. The referee tells `dealt` as soon as a turn is dealt, so a planner that works elsewhere
 * (a worker pool) can start then and be ready when the people's last orders arrive. When it plays
 * a turn it asks `decided`, which never waits: a decision not made yet is `null`, and the referee
 * stores the orders, answers, and plays the turn once `ready` resolves (no request waits on a bot).
 * The default decides in this process, when asked.
 */
import type { Dir, GameState, Setup, Seed } from '../../engine/src/index.js';
import { botFacings, decideBots, type BotSeat, type BotTurn, type SeatPlan, type Starts } from '../../driver/src/index.js';

export interface BotPlanner {
  /**
   * The bots' orders for turn `turn` of race `raceId` as dealt in `dealt` (the driver's
   * `decideBots`), if they are decided; else null, and the decision is started if it was not.
   * Never waits.
   */
  decided(raceId: string, turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): Record<number, BotTurn> | null;
  /** Resolves once `decided` has the decision (made, or given up at its budget for a fallback); starts it if need be. */
  ready(raceId: string, turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): Promise<void>;
  /** How long a decision the referee waits for may take at most (a pool's budget); none: it never waits. */
  readonly budgetMs?: number;
  /**
   * Whether this planner is making, or has made, the bots' decision for turn `turn` of race
   * `raceId` (without starting it). Optional: a planner without it is taken to have every decision.
   */
  has?(raceId: string, turn: number): boolean;
  /** The decision it has for the turn (`has`), taken: resolves once it is made; null when it has none. Optional, with `has`. */
  whenDecided?(raceId: string, turn: number): Promise<void> | null;
  /**
   * Resolves once the decision it has for the turn (`has`) is made, without taking it (its budget
   * does not start, it does not go first); null when it has none. Optional, with `has`.
   */
  whenMade?(raceId: string, turn: number): Promise<void> | null;
  /**
   * The starting facings the bots of a race being created choose (the driver's `botFacings`, by
   * seat), for the race's seats' `dir`: the strong and expert bots' choice builds the course's
   * distance maps, seconds on a course of the race's own. Optional: without it the driver's
   * `entrants` chooses them in place.
   */
  facings?(setup: Setup, course: Starts, seats: readonly SeatPlan[], seed: Seed): Promise<Record<number, Dir>>;
  /** A turn was dealt (committed): a planner may start deciding now. Optional. */
  dealt?(raceId: string, turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): void;
}

/** Decides in this process, on the event loop, when asked (tests, the CLI; the server uses the bot pool). */
export const inProcessPlanner: BotPlanner = {
  decided: (_raceId, _turn, setup, dealt, bots, seed) => decideBots(setup, dealt, bots, seed),
  facings: async (setup, course, seats, seed) => botFacings(setup, course, seats, seed),
  ready: async () => undefined,
};
