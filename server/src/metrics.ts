/**
 * `GET /api/metrics` (on when the server runs with `METRICS=1`): what an operator or the load
 * benchmark (`npm run bench:server`) reads from outside the process. The event loop's delay
 * (p50, p99, max in ms, sampled every 10 ms since the last `?reset=1`), the process's memory, and
 * the bot pool's counts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';

export function registerMetrics(app: FastifyInstance, more: () => Record<string, unknown> = () => ({})): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  app.addHook('onClose', async () => delay.disable());
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  app.get('/api/metrics', async (req) => {
    const m = process.memoryUsage();
    const out = {
      eventLoopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
      rssBytes: m.rss, heapUsedBytes: m.heapUsed,
      ...more(),
    };
    if ((req.query as { reset?: string } | undefined)?.reset === '1') delay.reset();
    return out;
  });
}
