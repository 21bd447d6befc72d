/**
 * Work repeated on a timer, and its failures told without flooding the log. `serialTicker`: one
 * run at a time (the deadline check plays one due race a turn of the event loop, and the mail
 * gateway's round waits on its relay, so either may outlast the interval). `quietFailures`: while
 * the database is down such work fails on every tick (the deadline check twice a second, each
 * stream's reads), so the first failure is logged, then at most one line a minute while they go
 * on, and a line when the work succeeds again.
 */
import type { Clock } from './deadline.js';

export const FAILURE_LOG_EVERY_MS = 60_000;

/**
 * Failures of one kind of work, reported without flooding the log: the first, then at most one
 * line a minute while they go on (with how many in a row), and a line once the work succeeds again.
 */
export function quietFailures(what: string, log: (line: string) => void, clock: Clock): { failed(message: string): void; worked(): void } {
  /** Failures since the last success, and when one was last logged. */
  let failures = 0;
  let loggedAt = 0;
  return {
    failed(message) {
      failures++;
      const now = clock.now();
      if (failures === 1 || now - loggedAt >= FAILURE_LOG_EVERY_MS) {
        loggedAt = now;
        log(`${what} failed${failures > 1 ? ` (${failures} tries in a row)` : ''}: ${message}`);
      }
    },
    worked() {
      if (failures > 0) log(`${what} works again after ${failures} failed ${failures === 1 ? 'try' : 'tries'}`);
      failures = 0;
    },
  };
}

export function serialTicker(what: string, check: () => Promise<unknown>, log: (line: string) => void, clock: Clock): () => Promise<void> {
  let running = false;
  const failures = quietFailures(what, log, clock);
  return async () => {
    if (running) return;
    running = true;
    try {
      await check();
      failures.worked();
    } catch (e) {
      failures.failed((e as Error).message);
    } finally {
      running = false;
    }
  };
}
