/**
 * server: the race server (main.ts starts it). Its public face for the mail gateway, the benchmarks
 * and tests: the race service, the database, deadlines, the shipped courses, seat views and orders.
 */
export { RaceService, type Created, type Entry, type MailRace, type MailRaceHead, type RaceEvent, type RaceServiceOptions } from './races.js';
export { migrate, openDb, type Db, type DbConfig, type EventRow, type OrdersRow, type RaceRow, type SeatMailRow, type SeatRow, type Tables, type TurnRow } from './db.js';
export { nextDeadline, parsePolicy, replayWaitMs, REPLAY_WAIT, systemClock, type Clock, type DeadlinePolicy } from './deadline.js';
export { quietFailures, serialTicker } from './ticker.js';
export { shippedCourses } from './courses.js';
export { dressed, visibleOptions } from './views.js';
export { inProcessPlanner, type BotPlanner } from './planner.js';
