/**
 * How long a race page waits before opening its stream again (web/src/race.ts `follow`). A server
 * restarting drops every page's stream at once: were each page to wait the same time, they would
 * all come back in the same instant, and again at each try while the server is not up yet. So each
 * wait is drawn at random ("full jitter"): anywhere from nothing to the try's backoff, which starts
 * at half a second and doubles with each try that did not open, up to 10 s; after the server's
 * `Retry-After` when it gave one (a stream refused before its upgrade), never before.
 */

/** The backoff of the first try after a drop. */
export const FIRST_BACKOFF_MS = 500;
/** The longest backoff. */
export const MOST_BACKOFF_MS = 10_000;

/** The wait before a try with this backoff: at least `retryAfterMs`, at most the backoff more. `random` is in [0, 1). */
export const reconnectDelay = (backoffMs: number, retryAfterMs: number, random: () => number): number =>
  retryAfterMs + Math.floor(random() * backoffMs);

/** The backoff of the try after one that did not open. */
export const nextBackoff = (backoffMs: number): number => Math.min(backoffMs * 2, MOST_BACKOFF_MS);
