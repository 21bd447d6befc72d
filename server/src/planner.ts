/**
 * The bots' decisions for a dealt turn: the one seam between the referee and whatever decides for
 * the bots. The referee asks `plan` when it plays a turn and tells `dealt` as soon as a turn is
 * dealt, so a planner that works elsewhere (a worker pool) can start then and be ready when the
 * people's last orders arrive. The default decides in this process, when asked.
 */
import type { GameState, Setup, Seed } from '../../engine/src/index.js';
import { decideBots, type BotSeat, type BotTurn } from '../../driver/src/index.js';

export interface BotPlanner {
  /** The bots' orders for turn `turn` of race `raceId` as dealt in `dealt` (the driver's `decideBots`). */
  plan(raceId: string, turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): Promise<Record<number, BotTurn>>;
  /** A turn was dealt (committed): a planner may start deciding now. Optional. */
  dealt?(raceId: string, turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): void;
}

/** Decides in this process, on the event loop, when the turn is played. */
export const inProcessPlanner: BotPlanner = {
  plan: async (_raceId, _turn, setup, dealt, bots, seed) => decideBots(setup, dealt, bots, seed),
};
