/**
 * The race driver: places the entrants, deals, lets the bots decide, fills, plays and ends a race,
 * for the server, `roborally race`, the benchmarks and the tests (driver.ts); and a whole race of
 * bots played through it (race.ts).
 */
export {
  entrants, botFacings, startRace, botSeed, decideBot, decideBots, adjudicate,
  type SeatPlan, type Starts, type Started, type BotSeat, type BotTurn, type Fill, type Adjudication, type AdjudicateOptions,
} from './driver.js';
export { runBotRace, type BotRaceOptions, type BotRaceResult, type RobotSummary } from './race.js';
