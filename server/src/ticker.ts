/**
 * The deadline check's loop step: one check at a time (a check plays one due race a turn of the
 * event loop, so with many due at once it may outlast the interval), and its failures reported
 * without flooding the log: while the database is down the check fails on every tick (twice a
 * second), so they are reported by `quietFailures`: the first failure logged, then at most one line
 * a minute while they go on, and a line when a check succeeds again (the streams' reads too).
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
