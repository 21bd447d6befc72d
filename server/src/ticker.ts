/**
 * The deadline check's loop step: one check at a time (a check plays one due race a turn of the
 * event loop, so with many due at once it may outlast the interval), and its failures reported
 * without flooding the log: while the database is down the check fails on every tick (twice a
 * second), so the first failure is logged, then at most one line a minute while they go on, and a
 * line when a check succeeds again.
 */
import type { Clock } from './deadline.js';

export const FAILURE_LOG_EVERY_MS = 60_000;

export function serialTicker(what: string, check: () => Promise<unknown>, log: (line: string) => void, clock: Clock): () => Promise<void> {
  let running = false;
  /** Failures since the last success, and when one was last logged. */
  let failures = 0;
  let loggedAt = 0;
  return async () => {
    if (running) return;
    running = true;
    try {
      await check();
      if (failures > 0) log(`${what} works again after ${failures} failed ${failures === 1 ? 'try' : 'tries'}`);
      failures = 0;
    } catch (e) {
      failures++;
      const now = clock.now();
      if (failures === 1 || now - loggedAt >= FAILURE_LOG_EVERY_MS) {
        loggedAt = now;
        log(`${what} failed${failures > 1 ? ` (${failures} tries in a row)` : ''}: ${(e as Error).message}`);
      }
    } finally {
      running = false;
    }
  };
}
