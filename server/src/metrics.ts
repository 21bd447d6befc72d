/**
 * `GET /api/metrics` (on when the server runs with `METRICS=1`): what an operator or the load
 * benchmark (`npm run bench:server`) reads from outside the process. The event loop's delay
 * (p50, p99, max in ms, sampled every 10 ms since the last `?reset=1`), the process's memory, and
 * the bot pool's counts.
 *
 * Node's histogram records the time between two runs of a timer set every `RESOLUTION_MS`, so a
 * loop that is never held up records `RESOLUTION_MS` itself (10 ms on an idle process): the delay
 * is what a sample exceeds it by, the way Elastic's APM agent reads the same histogram.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';

const RESOLUTION_MS = 10;

export function registerMetrics(app: FastifyInstance, more: () => Record<string, unknown> = () => ({})): void {
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  app.addHook('onClose', async () => delay.disable());
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const late = (ns: number) => Math.max(0, ms(ns) - RESOLUTION_MS);
  app.get('/api/metrics', async (req) => {
    const m = process.memoryUsage();
    const out = {
      eventLoopDelayMs: { p50: late(delay.percentile(50)), p99: late(delay.percentile(99)), max: late(delay.max) },
      rssBytes: m.rss, heapUsedBytes: m.heapUsed,
      ...more(),
    };
    if ((req.query as { reset?: string } | undefined)?.reset === '1') delay.reset();
    return out;
  });
}
