/**
 * `npm run bench:streams`: how promptly the race server answers `/api/health` while many stream
 * clients that never read are sent a long backlog at once (docs/server.md, "Outside trials": 7.6 s
 * with 640 such clients). Driven from outside the server's process over real HTTP and WebSocket:
 * the server is `node dist/server/src/main.js` on SQLite in a fresh folder, with its default limits.
 *
 * A race is made over HTTP and its log grown to `--entries` entries of about `--bytes` bytes each
 * (written into the database file directly, as the races' commits would, before any client comes).
 * Then `--clients` WebSocket clients, 16 from each of as many loopback addresses (127.0.0.2, …), ask
 * for the race's stream from the start, all at once, and never read (their sockets paused); one more
 * client reads the whole backlog. Meanwhile `/api/health` is asked every 100 ms. It prints the
 * health answers' times (median, 90th percentile, worst) before the clients come and during the
 * `--seconds` after they start connecting, the time the reading client took to get every entry, and
 * the load average.
 *
 *   npm run bench:streams -- [--clients 640] [--entries 10000] [--bytes 400] [--seconds 20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { spawnServer } from './spawn-server.js';

function option(name: string, fallback: string): number {
  const i = process.argv.indexOf(`--${name}`);
  return Number(i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback);
}
const CLIENTS = option('clients', '640');
const ENTRIES = option('entries', '10000');
const BYTES = option('bytes', '400');
const SECONDS = option('seconds', '20');
/** Streams per address the server takes by default (STREAMS_PER_ADDRESS). */
const PER_ADDRESS = 16;

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

/** What `/api/health` answered (its status, 0 for no answer: the connection lost) and the milliseconds it took. */
async function health(base: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/api/health`);
    await res.text();
    return { status: res.status, ms: performance.now() - t0 };
  } catch {
    return { status: 0, ms: performance.now() - t0 };
  }
}

/** Asks `/api/health` every 100 ms until `stop()`; the answers. */
async function probe(base: string, stop: () => boolean): Promise<{ status: number; ms: number }[]> {
  const answers: { status: number; ms: number }[] = [];
  while (!stop()) {
    answers.push(await health(base));
    await new Promise((r) => setTimeout(r, 100));
  }
  return answers;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const summary = (answers: { status: number; ms: number }[]) => {
  const xs = answers.map((a) => a.ms);
  const failed = answers.filter((a) => a.status !== 200).map((a) => a.status || 'lost');
  return `median ${quantile(xs, 0.5).toFixed(0)} ms, p90 ${quantile(xs, 0.9).toFixed(0)} ms, worst ${Math.max(...xs).toFixed(0)} ms (${xs.length} asked${failed.length ? `; not 200: ${failed.join(' ')}` : ''})`;
};

/** A stream client from `address` that reads nothing once connected; null if it was refused or lost. */
function silent(url: string, address: string): Promise<WebSocket | null> {
  const ws = new WebSocket(url, { localAddress: address });
  ws.on('error', () => undefined);
  return new Promise((resolve) => {
    ws.once('open', () => {
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      resolve(ws);
    });
    ws.once('unexpected-response', (_req, res) => {
      refusals.push(res.statusCode ?? 0);
      res.resume();
      resolve(null);
    });
    ws.once('error', () => resolve(null));
  });
}

/** Reads the stream until entry `last` has come; the milliseconds it took, or why it did not get them. */
function readAll(url: string, last: number): Promise<number | string> {
  const t0 = performance.now();
  const ws = new WebSocket(url, { localAddress: '127.0.1.1' });
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { seq: number }[] | { error: unknown };
      if (!Array.isArray(frame)) return resolve(`stream: ${JSON.stringify(frame)}`);
      if (frame.at(-1)?.seq === last) {
        ws.close();
        resolve(performance.now() - t0);
      }
    });
    ws.once('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
    ws.on('error', (e) => resolve(e.message));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'streams-bench-'));
const port = await freePort();
const server = await spawnServer({ PORT: String(port), DATA_DIR: dir });
const base = `http://127.0.0.1:${port}`;
const clients: WebSocket[] = [];
/** The statuses of the refused upgrades. */
const refusals: number[] = [];
try {
  const made = await fetch(`${base}/api/races`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 } }),
  });
  const { id } = (await made.json()) as { id: string };
  if (made.status !== 201) throw new Error(`the race was not made: ${made.status} ${JSON.stringify(id)}`);
  // The log, grown as commits would grow it (the stream reads the entries and the race's last seq).
  const db = new Database(join(dir, 'roborally.sqlite'));
  db.pragma('busy_timeout = 10000');
  const { last_seq: first } = db.prepare('SELECT last_seq FROM races WHERE id = ?').get(id) as { last_seq: number };
  const insert = db.prepare('INSERT INTO events (race_id, seq, turn, body) VALUES (?, ?, 1, ?)');
  const body = JSON.stringify({ kind: 'race', event: { type: 'note', pad: 'x'.repeat(Math.max(0, BYTES - 60)) } });
  db.transaction(() => {
    for (let k = 1; k <= ENTRIES; k++) insert.run(id, first + k, body);
    db.prepare('UPDATE races SET last_seq = ? WHERE id = ?').run(first + ENTRIES, id);
  })();
  db.close();
  const last = first + ENTRIES;
  const url = `${base.replace('http', 'ws')}/api/races/${id}/stream`;

  let quiet = false;
  const before = probe(base, () => quiet);
  setTimeout(() => (quiet = true), 2000);
  const idle = await before;
  let done = false;
  const during = probe(base, () => done);
  const t0 = performance.now();
  const opened = Promise.all(Array.from({ length: CLIENTS }, (_, k) => silent(url, `127.0.0.${2 + Math.floor(k / PER_ADDRESS)}`).then((ws) => ws && clients.push(ws))));
  const reader = readAll(url, last);
  await opened;
  const connected = performance.now() - t0;
  const read = await reader;
  await new Promise((r) => setTimeout(r, Math.max(0, SECONDS * 1000 - (performance.now() - t0))));
  done = true;
  const busy = await during;
  console.log(`${CLIENTS} silent stream clients, a backlog of ${ENTRIES} entries of ~${BYTES} bytes (${((ENTRIES * BYTES) / 1e6).toFixed(1)} MB) each, on SQLite`);
  console.log(`/api/health before:  ${summary(idle)}`);
  console.log(`/api/health during:  ${summary(busy)} (the first ${SECONDS} s)`);
  console.log(`${clients.length} of ${CLIENTS} connected in ${(connected / 1000).toFixed(1)} s (refused: ${refusals.length ? [...new Set(refusals)].map((st) => `${refusals.filter((r) => r === st).length} × ${st}`).join(', ') : 'none'}); a reading client: ${typeof read === 'number' ? `the whole backlog in ${(read / 1000).toFixed(1)} s` : read}`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' / ')}`);
} finally {
  for (const ws of clients) ws.terminate();
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
