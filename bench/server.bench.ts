/**
 * `npm run bench:server`: the race server under the load of live races, driven from outside its
 * process over real HTTP and WebSocket. The server is `node dist/server/src/main.js`, spawned with
 * its environment (`METRICS=1` for `GET /api/metrics`); nothing of this process runs in it.
 *
 * Each race has two people and two strong bots on first-shift. Each person follows the race on a
 * WebSocket stream of their own; when a turn is dealt, each thinks a random 5 to 30 s, reads the
 * hand (`GET …/seats/{n}`) and sends orders (`PUT …/orders`); the turn is played once both are in.
 * A race that ends is followed by a new one, so that the number of live races holds.
 *
 * For each database set-up (SQLite; PostgreSQL with one process; with two processes, each person
 * on one of them) it prints: races held, turns played per second, from the last orders of a turn to
 * its report on the stream (p50, p99), the server's event-loop delay (p99, the worst process),
 * memory per race (the processes' RSS over the races), and the machine's load average (1 and 5
 * minutes) at the end of the row; under the table, the load generator's own CPU, the server's main
 * thread's CPU per turn played and the server processes' CPU (from Linux's /proc: a figure the
 * machine's other load changes far less than the delays) and, for SQLite, the write-ahead log's
 * largest size; for PostgreSQL, the statements, transactions, round trips, NOTIFYs and waits for a
 * pool connection per turn (from the servers' metrics); and the entries any stream client missed
 * (a seq that does not follow on from the one before it). `--disk-load` adds, for each set-up, a row with a second process
 * writing and fsyncing a file in a loop (a disk and a core busy).
 *
 * The PostgreSQL rows name the `synchronous_commit` their commits ran with: the database's own
 * (PostgreSQL's default `on`: a commit waits for the WAL's fsync), or `off` with
 * `--synchronous-commit off` (the servers' `DB_SYNCHRONOUS_COMMIT=off`, docs/server.md).
 *
 *   npm run bench:server -- --races 1000 --minutes 5 [--db sqlite,postgres,postgres2] [--disk-load]
 *                           [--synchronous-commit off] [--think-min 5 --think-max 30] [--profile DIR]
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { diskHog } from './disk-hog.js';
import { spawnServer as spawnMain } from './spawn-server.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const RACES = Number(option('races', '1000'));
const MINUTES = Number(option('minutes', '5'));
const DBS = option('db', 'sqlite,postgres,postgres2').split(',') as Kind[];
const DISK_LOAD = process.argv.includes('--disk-load');
/** The servers' `DB_SYNCHRONOUS_COMMIT` (PostgreSQL rows): `off`, or unset (the database's own). */
const SYNCHRONOUS_COMMIT = option('synchronous-commit', '');
if (SYNCHRONOUS_COMMIT !== '' && SYNCHRONOUS_COMMIT !== 'off') throw new Error(`--synchronous-commit: expected off; got ${SYNCHRONOUS_COMMIT}`);
/** A folder for the servers' CPU profiles (`node --cpu-prof`), one per process and row. */
const PROFILE = option('profile', '');
const THINK = [Number(option('think-min', '5')) * 1000, Number(option('think-max', '30')) * 1000] as const;
let withTurn = true;
let takesSeen = true;

type Kind = 'sqlite' | 'postgres' | 'postgres2';

// A kept-alive socket is let go after 4 s idle, before the server's keep-alive timeout (5 s) closes
// it: the agent otherwise keeps it as long as the server's `Keep-Alive: timeout=5` says, and a request
// written on it as the server's timer fires is reset (about one in 17,000 seat views, at times even
// after the one retry below, which may take another such socket).
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4000 });

/**
 * JSON over HTTP, with the bench's own keep-alive agent. A request sent on a kept-alive socket the
 * server closed at that moment (its keep-alive timeout) is sent again on a new one, as browsers do:
 * the server never read it.
 */
function call(base: string, method: string, path: string, body?: unknown, token?: string, again = true): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(base + path, {
      method, agent,
      headers: { ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json: unknown = text;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON: kept as text.
        }
        resolve({ status: res.statusCode ?? 0, body: json });
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (again && req.reusedSocket && e.code === 'ECONNRESET') call(base, method, path, body, token, false).then(resolve, reject);
      else reject(e);
    });
    req.end(data);
  });
}

/** A request that got no answer, as an answer of status 0 naming why (the error's code, or its message). */
const lost = (e: NodeJS.ErrnoException): { status: number; body: any } => ({ status: 0, body: { lost: e.code ?? e.message } });

/** A server process (`npm start`) with the bench's limits, once it listens. */
const spawnServer = (env: Record<string, string>): Promise<ChildProcess> => spawnMain(
  { METRICS: '1', REQUESTS_PER_10S: '1000000', RACES_PER_MINUTE: '1000000', MAX_CONNECTIONS_PER_ADDRESS: '100000', STREAMS_PER_ADDRESS: '100000', ...env },
  PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [],
);

/**
 * CPU seconds a thread (or, with `tid` = `pid`'s main thread left out, the whole process) has used,
 * from Linux's /proc (user and system time, in clock ticks of 10 ms); null where there is none.
 */
function cpuSeconds(pid: number, tid?: number): number | null {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The fields after the command's name, which is in parentheses and may hold spaces.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

const quantile = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]! : NaN);

interface Row {
  readonly setup: string;
  readonly races: number;
  readonly turnsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly turns: number;
  readonly loopP99: number;
  readonly rssPerRace: number;
  readonly load: string;
  readonly fallbacks: number;
  /** SQLite's write-ahead log at its largest during the measured minutes (bytes), or null. */
  readonly walMax: number | null;
  /** The load generator's own CPU over the measured minutes, in cores. */
  readonly benchCores: number;
  /** The servers' main threads' CPU per turn played (ms), and the server processes' CPU in all (cores); null without /proc. */
  readonly mainMsPerTurn: number | null;
  readonly serverCores: number | null;
  /** PostgreSQL: the servers' statements, transactions, round trips, NOTIFYs and pool waits per turn played (`db` of /api/metrics); null for SQLite. */
  readonly db: Record<string, number> | null;
  /** Entries a stream client did not receive: a seq that did not follow on from the one before (any client, any process). */
  readonly missed: number;
  /** Two processes: the report's latency when the last orders arrived at the race's first process (seat 0's), and at the other. */
  readonly split: { turns: number; p50: number; p99: number }[] | null;
  /** Two processes: turns played with the dealing process's shared bots' orders, and turns whose bots were asked of it (server metrics). */
  readonly handOvers: { withShared: number; askedFor: number } | null;
}

type DbCounts = Record<'statements' | 'transactions' | 'roundTrips' | 'notifies' | 'poolWaits' | 'poolWaitMs', number>;

async function runRow(kind: Kind, diskLoad: boolean): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'rr-bench-'));
  const port = 21000 + Math.floor(Math.random() * 10000);
  let schema: string | null = null;
  let url = '';
  // PostgreSQL: the synchronous_commit the servers' commits run with.
  let commits = '';
  if (kind !== 'sqlite') {
    schema = `rr_bench_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    commits = SYNCHRONOUS_COMMIT || (await admin.query<{ synchronous_commit: string }>('show synchronous_commit')).rows[0]!.synchronous_commit;
    await admin.end();
    url = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const servers: ChildProcess[] = [];
  const bases: string[] = [];
  for (let k = 0; k < (kind === 'postgres2' ? 2 : 1); k++) {
    servers.push(await spawnServer({ PORT: String(port + k), DATA_DIR: dir, DATABASE_URL: url, ...(SYNCHRONOUS_COMMIT && kind !== 'sqlite' ? { DB_SYNCHRONOUS_COMMIT: SYNCHRONOUS_COMMIT } : {}) }));
    bases.push(`http://127.0.0.1:${port + k}`);
  }
  const hog = diskLoad ? diskHog(dir) : null;

  let running = true;
  let measuring = false;
  const latencies: number[] = [];
  // With two processes: the same, split by where the turn's last orders arrived: the process the
  // race was created on (seat 0's; before the bots' orders were shared, the one that dealt every
  // turn and decided its bots) or the other one.
  const byProcess: [number[], number[]] = [[], []];
  let turns = 0;
  let live = 0;
  let missed = 0;
  const errors = new Map<string, number>();
  // What fails while the row is being torn down is not counted.
  const fault = (what: string) => running && errors.set(what, (errors.get(what) ?? 0) + 1);
  const sockets = new Set<WebSocket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, f: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      f();
    }, ms);
    timers.add(t);
  };

  /** One race, and a new one in its place when it ends. */
  const race = async (k: number): Promise<void> => {
    const base = (seat: number) => bases[(k + seat) % bases.length]!;
    const created = await call(base(0), 'POST', '/api/races', {
      course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'strong' }, { name: 'Zap', bot: 'strong' }], deadline: { kind: 'live', seconds: 3600 },
    }).catch(lost);
    if (!running) return;
    if (created.status !== 201) {
      fault(`POST /api/races ${created.status || `failed (${created.body.lost})`}`);
      return later(1000, () => void race(k));
    }
    const id: string = created.body.id;
    // Each person takes their seat with its invite, on their own process, as their browser would.
    const tokens: string[] = [];
    for (const seat of [0, 1]) {
      const taken = await call(base(seat), 'POST', `/api/races/${id}/claim`, { invite: created.body.seats[seat].invite }).catch(lost);
      if (!running) return;
      if (taken.status !== 200) {
        fault(`POST /api/races/:id/claim ${taken.status || `failed (${taken.body.lost})`}`);
        return later(1000, () => void race(k));
      }
      tokens.push(taken.body.token);
    }
    live++;
    let turn = 1;
    let over = false;
    const sent = new Map<number, number>();
    const played = new Set<number>();
    /** The last seq each seat's stream gave. */
    const seen = [0, 0];
    const think = (t: number) => {
      for (const seat of [0, 1]) {
        later(THINK[0] + Math.random() * (THINK[1] - THINK[0]), () => void (async () => {
          if (!running || over || turn !== t) return;
          // With the last seq its stream gave, as the web client sends it.
          const view = (withSeen: boolean) => call(base(seat), 'GET', `/api/races/${id}/seats/${seat}${withSeen && seen[seat] ? `?seen=${seen[seat]}` : ''}`, undefined, tokens[seat]).catch(lost);
          let you = await view(takesSeen);
          // A server whose views take no `seen` yet.
          if (you.status === 422 && takesSeen) {
            takesSeen = false;
            you = await view(false);
          }
          if (!running || over || turn !== t) return;
          if (you.status !== 200) return void fault(`GET seat ${you.status || `failed (${you.body.lost})`}`);
          if (you.body.status !== 'running') return;
          const y = you.body.you as { hand: string[]; openRegisters: number[]; needsProgram: boolean };
          // A robot out, or with every register locked, sends nothing; the turn goes on without it.
          if (!y.needsProgram) return;
          sent.set(seat, performance.now());
          const program = y.hand.slice(0, y.openRegisters.length);
          let r = await call(base(seat), 'PUT', `/api/races/${id}/seats/${seat}/orders`, { ...(withTurn ? { turn: t } : {}), program }, tokens[seat]).catch(lost);
          // A server whose orders carry no turn yet.
          if (r.status === 422 && r.body?.error?.field === 'turn') {
            withTurn = false;
            r = await call(base(seat), 'PUT', `/api/races/${id}/seats/${seat}/orders`, { program }, tokens[seat]).catch(lost);
          }
          if (r.status !== 200 && r.status !== 409) fault(`PUT orders ${r.status || `failed (${r.body.lost})`} ${r.body?.error?.field ?? ''}`);
        })());
      }
    };
    const onFrame = (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data));
      // A batch of entries, alone or with the turn it played (an older server sent that turn in a frame of its own).
      const batch = Array.isArray(frame) ? frame : frame.entries;
      if (batch) {
        for (const e of batch as { turn: number; kind: string; event: { type: string } }[]) {
          if (e.kind === 'game' && e.event.type === 'turnEnded' && e.turn === turn) {
            turn = e.turn + 1;
            think(turn);
          } else if (e.kind === 'race' && e.event.type === 'raceOver' && !over) {
            over = true;
            live--;
            for (const s of ws) s.close();
            if (running) void race(k);
          }
        }
      }
      if (frame.played && !played.has(frame.played.turn)) {
        played.add(frame.played.turn);
        const last = Math.max(...sent.values());
        const lastSeat = [...sent].find(([, at]) => at === last)?.[0];
        sent.clear();
        if (measuring && Number.isFinite(last)) {
          latencies.push(performance.now() - last);
          byProcess[lastSeat === 0 ? 0 : 1].push(performance.now() - last);
          turns++;
        }
      }
    };
    const ws = [0, 1].map((seat) => {
      const s = new WebSocket(`${base(seat).replace('http', 'ws')}/api/races/${id}/stream?after=0`);
      sockets.add(s);
      // Every entry once, in order: each seq follows on from the one before.
      let seq = 0;
      s.on('message', (data) => {
        const frame = JSON.parse(String(data));
        const batch = Array.isArray(frame) ? frame : frame.entries;
        for (const e of (batch ?? []) as { seq: number }[]) {
          if (e.seq !== seq + 1 && running) missed += Math.max(1, e.seq - seq - 1);
          seq = Math.max(seq, e.seq);
        }
        seen[seat] = seq;
        onFrame(data);
      });
      s.on('error', (e) => fault(`stream ${e.message}`));
      s.on('close', () => sockets.delete(s));
      return s;
    });
    think(1);
  };

  // The races start over a minute at most (20 a second), then the measured minutes.
  const rampMs = Math.min(60_000, RACES * 50);
  for (let k = 0; k < RACES; k++) later((k * rampMs) / RACES, () => void race(k));
  await new Promise((r) => setTimeout(r, rampMs + THINK[1]));
  const dbCounts = (ms: { body: { db?: DbCounts } }[]) => ms.map((m) => m.body.db ?? null);
  const m0 = await Promise.all(bases.map((b) => call(b, 'GET', '/api/metrics?reset=1')));
  const db0 = dbCounts(m0);
  /** Two processes: turns played with the bots' orders the dealing process shared, and turns whose bots were asked of it, in all processes. */
  const handOvers = (ms: { body: { handOvers?: { withShared: number; askedFor: number } } }[]) => ms.reduce((a, m) => [a[0]! + (m.body.handOvers?.withShared ?? 0), a[1]! + (m.body.handOvers?.askedFor ?? 0)], [0, 0]);
  const h0 = handOvers(m0);
  measuring = true;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const serverCpu = () => servers.map((s) => [cpuSeconds(s.pid!, s.pid!), cpuSeconds(s.pid!)] as const);
  const server0 = serverCpu();
  // How far SQLite's write-ahead log grows between the checkpoints.
  let walMax: number | null = null;
  const wal = kind === 'sqlite' ? setInterval(() => {
    try {
      walMax = Math.max(walMax ?? 0, statSync(join(dir, 'roborally.sqlite-wal')).size);
    } catch {
      // No log at this moment (just checkpointed and truncated).
    }
  }, 1000) : null;
  await new Promise((r) => setTimeout(r, MINUTES * 60_000));
  measuring = false;
  if (wal) clearInterval(wal);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server1 = serverCpu();
  const used = (k: 0 | 1) => server1.reduce<number | null>((a, s, i) => (a === null || s[k] === null || server0[i]![k] === null ? null : a + s[k]! - server0[i]![k]!), 0);
  const mainSeconds = used(0);
  const processSeconds = used(1);
  const answers = await Promise.all(bases.map((b) => call(b, 'GET', '/api/metrics')));
  const metrics = answers.map((m) => m.body as { eventLoopDelayMs: { p99: number }; rssBytes: number; bots?: { late: number; failed: number; full: number } });
  const db1 = dbCounts(answers);
  const h1 = handOvers(answers);
  const perTurn = db1.every((d, i) => d && db0[i]) && turns
    ? Object.fromEntries((Object.keys(db1[0]!) as (keyof DbCounts)[]).map((k) => [k, db1.reduce((a, d, i) => a + d![k] - db0[i]![k], 0) / turns]))
    : null;
  const load = loadavg().map((x) => x.toFixed(1)).slice(0, 2).join(' / ');
  running = false;
  for (const t of timers) clearTimeout(t);
  for (const s of sockets) s.terminate();
  hog?.kill('SIGKILL');
  for (const s of servers) s.kill('SIGTERM');
  await Promise.all(servers.map((s) => new Promise((r) => (s.exitCode !== null ? r(null) : s.once('exit', r)))));
  if (schema) {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  for (const xs of byProcess) xs.sort((a, b) => a - b);
  if (errors.size) console.error(`  (${kind}${diskLoad ? ', disk load' : ''}: failed: ${[...errors].map(([w, n]) => `${w} ×${n}`).join(', ')})`);
  return {
    setup: `${kind === 'sqlite' ? 'SQLite' : kind === 'postgres' ? 'PostgreSQL, 1 process' : 'PostgreSQL, 2 processes'}${commits ? ` (synchronous_commit ${commits})` : ''}${diskLoad ? ', disk + core busy' : ''}`,
    races: live, turns, turnsPerSecond: turns / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99),
    loopP99: Math.max(...metrics.map((m) => m.eventLoopDelayMs.p99)),
    rssPerRace: metrics.reduce((a, m) => a + m.rssBytes, 0) / Math.max(1, live),
    fallbacks: metrics.reduce((a, m) => a + (m.bots ? m.bots.late + m.bots.failed + m.bots.full : 0), 0),
    load, walMax, benchCores: (cpu.user + cpu.system) / 1e6 / seconds,
    mainMsPerTurn: mainSeconds === null || !turns ? null : (1000 * mainSeconds) / turns,
    serverCores: processSeconds === null ? null : processSeconds / seconds,
    db: perTurn, missed,
    split: bases.length > 1 ? byProcess.map((xs) => ({ turns: xs.length, p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) })) : null,
    handOvers: bases.length > 1 ? { withShared: h1[0]! - h0[0]!, askedFor: h1[1]! - h0[1]! } : null,
  };
}

async function main(): Promise<void> {
  console.log(`Server benchmark: ${RACES} live races (2 people thinking ${THINK[0] / 1000}-${THINK[1] / 1000} s, 2 strong bots each), ${MINUTES} min measured per row; ${cpus().length} cores, node ${process.version}\n`);
  console.log('| set-up | races held | turns/s | last orders → report p50 / p99 | event-loop delay p99 | memory per race | bots on fallback | load average 1 / 5 min |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  const notes: string[] = [];
  for (const kind of DBS) {
    for (const disk of DISK_LOAD ? [false, true] : [false]) {
      const r = await runRow(kind, disk);
      console.log(`| ${r.setup} | ${r.races} | ${r.turnsPerSecond.toFixed(1)} | ${r.p50.toFixed(0)} / ${r.p99.toFixed(0)} ms (${r.turns} turns) | ${r.loopP99.toFixed(0)} ms | ${(r.rssPerRace / 1024).toFixed(0)} KiB | ${r.fallbacks} | ${r.load} |`);
      const two = r.setup.includes('2 processes');
      const cpu = r.mainMsPerTurn === null ? '' : `; the server's main thread${two ? 's' : ''} used ${r.mainMsPerTurn.toFixed(1)} ms of CPU per turn played, the server process${two ? 'es' : ''} ${r.serverCores!.toFixed(2)} cores in all (bot threads included)`;
      const d = r.db;
      const db = d ? `; per turn, ${d.statements!.toFixed(1)} statements, ${d.transactions!.toFixed(1)} transactions, ${d.roundTrips!.toFixed(1)} round trips, ${d.notifies!.toFixed(1)} NOTIFYs, ${d.poolWaits!.toFixed(2)} waits for a pool connection (${d.poolWaitMs!.toFixed(1)} ms)` : '';
      const split = r.split ? `; last orders at the race's first process (seat 0's): p50 / p99 ${r.split[0]!.p50.toFixed(0)} / ${r.split[0]!.p99.toFixed(0)} ms (${r.split[0]!.turns} turns), at the other: ${r.split[1]!.p50.toFixed(0)} / ${r.split[1]!.p99.toFixed(0)} ms (${r.split[1]!.turns} turns); turns played with the bots' orders the dealing process shared: ${r.handOvers!.withShared}, whose bots were asked of it: ${r.handOvers!.askedFor}` : '';
      notes.push(`${r.setup}: the load generator used ${r.benchCores.toFixed(2)} of a core${cpu}${db}${split}${r.walMax === null ? '' : `; the write-ahead log reached ${(r.walMax / 2 ** 20).toFixed(1)} MiB at most`}; entries missed by stream clients: ${r.missed}.`);
    }
  }
  console.log(`\n${notes.join('\n')}`);
  agent.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
