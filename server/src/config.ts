/**
 * The server's settings from its environment (docs/server.md), read before anything starts: each
 * number written in plain digits and within its bounds, a time no longer than a timer can wait
 * (Node fires a `setTimeout` of more than 2^31-1 ms after 1 ms), `TRUST_PROXY` as fastify would
 * read it. A refusal names the variable, what it was and what was expected; never throws.
 */
import { trustFunction, type AppOptions } from './app.js';

/** The longest a Node timer waits: 2^31-1 ms (24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ServerEnv {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly poolSize?: number;
  readonly queryTimeoutMs?: number;
  /** `DB_SYNCHRONOUS_COMMIT=off`: PostgreSQL's commits do not wait for their WAL flush (db.ts `DbConfig.synchronousCommit`). */
  readonly synchronousCommit?: 'off';
  readonly botWorkers?: number;
  readonly botBudgetMs?: number;
  /** `BOT_DECISION_MS`: the time a bot that searches as long as it may (expert) has for one decision. */
  readonly botDecisionMs?: number;
  readonly botNice?: number;
  readonly connectionsPerAddress?: number;
  /** `MAX_CONNECTIONS`: open connections in all (default: the process's descriptors less a reserve). */
  readonly maxConnections?: number;
  readonly streamsPerAddress?: number;
  readonly maxStreams?: number;
  readonly requestsPer10s?: number;
  /** `RACES_PER_MINUTE`: races one client address may create in a minute. */
  readonly racesPerMinute?: number;
  /** `STRANGERS_PER_ADDRESS`, `STRANGERS_PER_DAY`: addresses that never answered one client address, and all, may seat by e-mail in 24 hours. */
  readonly strangersPerAddress?: number;
  readonly strangersPerDay?: number;
  readonly trustProxy?: AppOptions['trustProxy'];
  readonly metrics: boolean;
}

/** The whole numbers read, each with its bounds and what it means (for the refusal). */
const NUMBERS = {
  PORT: [0, 65535, 'a TCP port (0: any free one)'],
  DB_POOL_SIZE: [1, 1000, 'PostgreSQL connections'],
  DB_QUERY_TIMEOUT_MS: [1, MAX_TIMER_MS, 'milliseconds, at most what a timer can wait'],
  BOT_WORKERS: [1, 256, 'threads'],
  BOT_BUDGET_MS: [1, MAX_TIMER_MS, 'milliseconds, at most what a timer can wait'],
  BOT_DECISION_MS: [1, MAX_TIMER_MS, 'milliseconds, at most what a timer can wait'],
  BOT_NICE: [1, 19, 'a nice value'],
  MAX_CONNECTIONS_PER_ADDRESS: [1, 1_000_000, 'connections'],
  MAX_CONNECTIONS: [1, 1_000_000, 'connections'],
  STREAMS_PER_ADDRESS: [1, 1_000_000, 'streams'],
  MAX_STREAMS: [1, 1_000_000, 'streams'],
  REQUESTS_PER_10S: [1, 1_000_000, 'requests'],
  RACES_PER_MINUTE: [1, 1_000_000, 'races'],
  STRANGERS_PER_ADDRESS: [1, 1_000_000, 'addresses'],
  STRANGERS_PER_DAY: [1, 1_000_000, 'addresses'],
} as const;

export type EnvAnswer<T> = { ok: true; value: T } | { ok: false; error: { field: string; message: string } };

/**
 * A whole number of the environment (`undefined` when unset or empty), written in digits alone
 * (no sign, exponent, hex, fraction or spaces) and within `[min, max]`.
 */
export function envNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number, what: string): EnvAnswer<number | undefined> {
  const v = env[name];
  if (v === undefined || v === '') return { ok: true, value: undefined };
  const n = /^[0-9]{1,16}$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) return { ok: false, error: { field: name, message: `expected a whole number from ${min} to ${max} (${what}), written in digits; got ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}` } };
  return { ok: true, value: n };
}

/** The server's settings from `env`, or the first variable that is not as expected. */
export function serverEnv(env: NodeJS.ProcessEnv): EnvAnswer<ServerEnv> {
  const n: Partial<Record<keyof typeof NUMBERS, number>> = {};
  for (const [name, [min, max, what]] of Object.entries(NUMBERS) as [keyof typeof NUMBERS, readonly [number, number, string]][]) {
    const r = envNumber(env, name, min, max, what);
    if (!r.ok) return r;
    if (r.value !== undefined) n[name] = r.value;
  }
  const sync = env.DB_SYNCHRONOUS_COMMIT;
  if (sync !== undefined && sync !== '' && sync !== 'on' && sync !== 'off') {
    return { ok: false, error: { field: 'DB_SYNCHRONOUS_COMMIT', message: `expected on (the default: a commit waits for its fsync) or off (a commit survives the server process's crash, not PostgreSQL's nor a power cut); got ${JSON.stringify(sync.length > 40 ? `${sync.slice(0, 40)}…` : sync)}` } };
  }
  const tp = env.TRUST_PROXY?.trim();
  let trustProxy: AppOptions['trustProxy'];
  if (tp && tp !== 'false') {
    if (tp === 'true') trustProxy = true;
    else if (/^\d+$/.test(tp)) {
      const hops = Number(tp);
      trustProxy = (_address, hop) => hop < hops;
    } else {
      try {
        trustFunction(tp);
      } catch (e) {
        return { ok: false, error: { field: 'TRUST_PROXY', message: `expected true, a number of hops, or addresses and CIDR ranges separated by commas; ${(e as Error).message}` } };
      }
      trustProxy = tp;
    }
  }
  return {
    ok: true,
    value: {
      port: n.PORT ?? 8080, host: env.HOST || '127.0.0.1', dataDir: env.DATA_DIR || 'data',
      ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
      ...(n.DB_POOL_SIZE ? { poolSize: n.DB_POOL_SIZE } : {}),
      ...(n.DB_QUERY_TIMEOUT_MS ? { queryTimeoutMs: n.DB_QUERY_TIMEOUT_MS } : {}),
      ...(sync === 'off' ? { synchronousCommit: 'off' as const } : {}),
      ...(n.BOT_WORKERS ? { botWorkers: n.BOT_WORKERS } : {}),
      ...(n.BOT_BUDGET_MS ? { botBudgetMs: n.BOT_BUDGET_MS } : {}),
      ...(n.BOT_DECISION_MS ? { botDecisionMs: n.BOT_DECISION_MS } : {}),
      ...(n.BOT_NICE ? { botNice: n.BOT_NICE } : {}),
      ...(n.MAX_CONNECTIONS_PER_ADDRESS ? { connectionsPerAddress: n.MAX_CONNECTIONS_PER_ADDRESS } : {}),
      ...(n.MAX_CONNECTIONS ? { maxConnections: n.MAX_CONNECTIONS } : {}),
      ...(n.STREAMS_PER_ADDRESS ? { streamsPerAddress: n.STREAMS_PER_ADDRESS } : {}),
      ...(n.MAX_STREAMS ? { maxStreams: n.MAX_STREAMS } : {}),
      ...(n.REQUESTS_PER_10S ? { requestsPer10s: n.REQUESTS_PER_10S } : {}),
      ...(n.RACES_PER_MINUTE ? { racesPerMinute: n.RACES_PER_MINUTE } : {}),
      ...(n.STRANGERS_PER_ADDRESS ? { strangersPerAddress: n.STRANGERS_PER_ADDRESS } : {}),
      ...(n.STRANGERS_PER_DAY ? { strangersPerDay: n.STRANGERS_PER_DAY } : {}),
      ...(trustProxy !== undefined ? { trustProxy } : {}),
      metrics: env.METRICS === '1',
    },
  };
}
