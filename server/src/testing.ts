/**
 * For the server's tests: a server on a free loopback port with a clock the test moves, over a
 * fresh SQLite file, or a fresh schema of the PostgreSQL server when one answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions, type ConnectionLimits } from './app.js';
import type { StreamLimits } from './stream.js';
import { shippedCourses } from './courses.js';
import { migrate, openDb, type Db } from './db.js';
import { RaceService, type Created } from './races.js';
import { yes, type Answer } from './errors.js';
import { mailWebToken } from './auth.js';
import { cardName, type GameState } from '../../engine/src/index.js';

export class TestClock {
  constructor(public t = Date.UTC(2026, 10, 2, 9, 0)) {}
  now = () => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the PostgreSQL server of the machine answers (the tests of that path skip otherwise). */
export async function postgresAnswers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Drops the schema a PostgreSQL test database (freshDb's url) lives in. */
export async function dropSchema(url: string | undefined): Promise<void> {
  const schema = url && /search_path=(\w+)/.exec(decodeURIComponent(url))?.[1];
  if (!schema) return;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`drop schema if exists ${schema} cascade`);
  await c.end();
}

/** A database of its own: a new SQLite file, or a new schema in PostgreSQL; with its tables unless `tables: false`. */
export async function freshDb(kind: 'sqlite' | 'postgres', file?: string, o: { tables?: boolean } = {}): Promise<{ db: Db; url?: string; file?: string }> {
  if (kind === 'sqlite') {
    const f = file ?? join(mkdtempSync(join(tmpdir(), 'rr-db-')), 'race.sqlite');
    const { db } = openDb({ file: f });
    if (o.tables !== false) await migrate(db);
    return { db, file: f };
  }
  const schema = `rr_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e9).toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const { db } = openDb({ url });
  if (o.tables !== false) await migrate(db);
  return { db, url };
}

/**
 * Sets a race up for a test's scenario: changes its stored state in place (a robot out, a register
 * locked) as no request could; what is changed is the test's to keep consistent. Returns the state.
 */
export async function rigRaceState(db: Db, id: string, change: (st: GameState) => void): Promise<GameState> {
  const row = await db.selectFrom('races').select('state').where('id', '=', id).executeTakeFirstOrThrow();
  const st: GameState = JSON.parse(row.state);
  change(st);
  await db.updateTable('races').set({ state: JSON.stringify(st) }).where('id', '=', id).execute();
  await touchRace(db, id);
  return st;
}

/**
 * Gives a race a new version after a test changed its rows behind the server's back, as another
 * process's change would: a server that keeps races in memory (race-cache.ts) reads it again.
 */
export async function touchRace(db: Db, id: string): Promise<void> {
  await db.updateTable('races').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', id).execute();
}

export interface TestServer {
  readonly base: string;
  readonly app: FastifyInstance;
  readonly service: RaceService;
  readonly clock: TestClock;
  readonly db: Db;
  close(): Promise<void>;
}

const courses = shippedCourses();

/**
 * `rateLimit` may name the proxies to trust (`trustProxy`, as AppOptions has it) and the races a
 * client may create in a minute (`racesPerMinute`; unlimited by default: tests create races by the dozen).
 */
export async function startServer(db: Db, clock = new TestClock(), rateLimit?: { max: number; windowMs: number; trustProxy?: AppOptions['trustProxy']; racesPerMinute?: number }, stream?: Partial<StreamLimits>, connections?: Partial<ConnectionLimits>): Promise<TestServer> {
  const service = new RaceService({ db, clock, course: (n) => courses.get(n) });
  // Tests run a mail gateway on the server's service where they race by e-mail.
  const app = await buildApp({
    service, courses: () => [...courses].map(([name, course]) => ({ name, course })), mail: true,
    ...(rateLimit ? { rateLimit: { max: rateLimit.max, windowMs: rateLimit.windowMs } } : {}),
    ...(rateLimit?.trustProxy !== undefined ? { trustProxy: rateLimit.trustProxy } : {}), racesPerMinute: rateLimit?.racesPerMinute ?? 1_000_000, ...(stream ? { stream } : {}), ...(connections ? { connections } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    base: `http://127.0.0.1:${port}`, app, service, clock, db,
    close: async () => {
      await app.close();
    },
  };
}

/**
 * Runs `f` against a server over a fresh database of `dialect`; closes the server and the
 * database afterwards and drops a PostgreSQL schema it made, whatever `f` did.
 */
export async function withServer(f: (s: TestServer) => Promise<void>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  const { db, url } = await freshDb(dialect);
  const s = await startServer(db);
  try {
    await f(s);
  } finally {
    await s.close();
    await db.destroy();
    await dropSchema(url);
  }
}

/** JSON over real HTTP. */
export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

/** A new race's seat as its person holds it once the seat is taken: `token` null for a bot's seat or a seat raced by e-mail. */
export type SeatedSeat = Created['seats'][number] & { token: string | null };

/**
 * For tests that play every seat themselves: a race created through the service, each invite
 * taken (`claim`) and its token put on its seats (as each person's browser would hold it).
 */
export async function seatedRace(service: RaceService, body: unknown, idempotencyKey?: string): Promise<Answer<Created & { seats: SeatedSeat[] }>> {
  const made = await service.create(body, idempotencyKey);
  if (!made.ok) return made;
  const tokens = new Map<number, string>();
  for (const s of made.value.seats) {
    if (!s.invite || tokens.has(s.seat)) continue;
    const claimed = await service.claim(made.value.id, { invite: s.invite });
    if (!claimed.ok) throw new Error(`seat ${s.seat} could not be taken: ${claimed.refusal.message}`);
    for (const n of claimed.value.seats) tokens.set(n, claimed.value.token);
  }
  return yes({ ...made.value, seats: made.value.seats.map((s) => ({ ...s, token: tokens.get(s.seat) ?? null })) });
}

/**
 * The same over real HTTP: POST /api/races, then each invite taken (POST …/claim); the creation's
 * answer with each seat's `token` (null for a bot's seat or a seat raced by e-mail). An answer other
 * than 201 is returned as it came.
 */
export async function createSeated(base: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const made = await call(base, 'POST', '/api/races', body, headers);
  if (made.status !== 201) return made;
  const tokens = new Map<number, string>();
  for (const s of made.body.seats as { seat: number; invite: string | null }[]) {
    if (!s.invite || tokens.has(s.seat)) continue;
    const claimed = await call(base, 'POST', `/api/races/${made.body.id}/claim`, { invite: s.invite });
    if (claimed.status !== 200) throw new Error(`seat ${s.seat} could not be taken: ${claimed.status} ${JSON.stringify(claimed.body)}`);
    for (const n of claimed.body.seats as number[]) tokens.set(n, claimed.body.token);
  }
  return { status: made.status, body: { ...made.body, seats: made.body.seats.map((s: { seat: number }) => ({ ...s, token: tokens.get(s.seat) ?? null })) } };
}

/** The web token of a seat raced by e-mail, as its mails' link carries it (auth.ts `mailWebToken`), read from the database. */
export async function mailSeatToken(db: Db, id: string, seat: number): Promise<string> {
  const row = await db.selectFrom('seat_mail').select('secret').where('race_id', '=', id).where('seat', '=', seat).executeTakeFirstOrThrow();
  return mailWebToken(row.secret);
}

const MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

/**
 * The real server (`npm start`) in a process of its own, once it listens. One that has not
 * listened within `ms` is killed before the promise is refused: nothing the caller cannot see is
 * left running to keep the test runner waiting.
 */
export async function spawnServer(env: Record<string, string>, ms = 90_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => ((out += String(d)), out.includes('roborally server on') && resolve()));
      child.stderr!.on('data', (d) => (out += String(d)));
      child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
      timer = setTimeout(() => reject(new Error(`server did not listen within ${ms / 1000} s: ${out}`)), ms);
    });
  } catch (e) {
    child.kill('SIGKILL');
    await exited(child);
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return child;
}

/** Waits until `cond` holds, checking every 20 ms, for at most `ms`. */
export async function until<T>(what: string, cond: () => T | Promise<T>, ms = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A client of a race's stream that keeps the seqs and event types of the entries it got, the turns
 * played, the drafts, and every frame as it came (parsed).
 */
export function streamClient(url: string): { seqs: number[]; types: string[]; played: number[]; drafts: unknown[]; frames: unknown[]; ws: WebSocket; ready: Promise<unknown>; closed: Promise<unknown>; close(): void } {
  const ws = new WebSocket(url);
  const seqs: number[] = [];
  const types: string[] = [];
  const played: number[] = [];
  const drafts: unknown[] = [];
  const frames: unknown[] = [];
  ws.on('message', (m) => {
    const frame = JSON.parse(String(m));
    frames.push(frame);
    // A batch of entries, alone or with the turn it played.
    for (const e of Array.isArray(frame) ? frame : frame.entries ?? []) {
      seqs.push(e.seq);
      types.push(e.event.type);
    }
    if (frame.played) played.push(frame.played.turn);
    else if (frame.draft) drafts.push(frame.draft);
  });
  ws.on('error', () => undefined);
  return {
    seqs, types, played, drafts, frames, ws,
    ready: new Promise((r, j) => (ws.once('open', r), ws.once('error', j))),
    closed: new Promise((r) => ws.once('close', r)),
    close: () => ws.close(),
  };
}

/**
 * Load for fault tests: `races` live races of two people at a time, each seat sending the first
 * cards of its hand, turn after turn, until `stop()`; `ids` lists every race begun. Every HTTP status answered is counted, and refused requests
 * (connection errors) as 0.
 */
export function playRaces(bases: string[], races: number): { statuses: Map<number, number>; turns: () => number; ids: string[]; stop(): Promise<void> } {
  const statuses = new Map<number, number>();
  const ids: string[] = [];
  let turns = 0;
  let running = true;
  const count = (n: number) => statuses.set(n, (statuses.get(n) ?? 0) + 1);
  // A race that ends is followed by a new one, until `stop()`.
  const one = async (k: number) => {
    while (running) await race1(k);
  };
  const race1 = async (k: number) => {
    const base = (seat: number) => bases[(k + seat) % bases.length]!;
    let race: { id: string; seats: { token: string }[] } | null = null;
    while (running && !race) {
      const r = await call(base(0), 'POST', '/api/races', { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 } }).catch(() => ({ status: 0, body: null }));
      count(r.status);
      if (r.status !== 201) continue;
      // Each person takes their seat, the claim sent again with the browser's key while it is
      // refused for a moment (a 503 whose claim may have committed: the same token then).
      const seats: { token: string }[] = [];
      for (const seat of [0, 1]) {
        const browser = `playRaces-${k}-${seat}-`.padEnd(24, 'k');
        while (running && seats.length === seat) {
          const c = await call(base(seat), 'POST', `/api/races/${r.body.id}/claim`, { invite: r.body.seats[seat].invite, browser }).catch(() => ({ status: 0, body: null }));
          count(c.status);
          if (c.status === 200) seats.push({ token: c.body.token });
          else if (c.status !== 503 && c.status !== 0) throw new Error(`seat ${seat} could not be taken: ${c.status} ${JSON.stringify(c.body)}`);
        }
      }
      if (seats.length === 2) race = { id: r.body.id, seats };
    }
    if (!race) return;
    ids.push(race.id);
    while (running) {
      for (const seat of [0, 1]) {
        const auth = { authorization: `Bearer ${race.seats[seat]!.token}` };
        const you = await call(base(seat), 'GET', `/api/races/${race.id}/seats/${seat}`, undefined, auth).catch(() => ({ status: 0, body: null }));
        count(you.status);
        if (you.status !== 200 || !running) continue;
        if (you.body.status !== 'running') return;
        const y = you.body.you as { hand: string[]; openRegisters: number[]; needsProgram: boolean };
        const put = await call(base(seat), 'PUT', `/api/races/${race.id}/seats/${seat}/orders`, { turn: you.body.turn, program: y.needsProgram ? y.hand.slice(0, y.openRegisters.length) : [] }, auth).catch(() => ({ status: 0, body: null }));
        count(put.status);
        if (put.status === 200 && seat === 1) turns++;
      }
    }
  };
  const all = Promise.all(Array.from({ length: races }, (_, k) => one(k)));
  return { statuses, ids, turns: () => turns, stop: async () => ((running = false), await all, undefined) };
}

/**
 * Whether the process exits within `ms` (after a SIGTERM, say); one that has not by then is killed,
 * so a test that waits on a stop never waits forever.
 */
export async function exitsWithin(child: ChildProcess, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([exited(child).then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  clearTimeout(timer);
  if (!inTime) {
    child.kill('SIGKILL');
    await exited(child);
  }
  return inTime;
}

/** Resolves once the process has exited. */
export const exited = (child: ChildProcess) =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

/**
 * The cards a turn showed of a seat's program the first time it was played (its `revealed` entries,
 * in register order), by name: what the moderator may correct the seat's orders with once the turn
 * is taken back (docs/server.md, Moderator).
 */
export function shownProgram(entries: readonly { turn: number; event: { type: string; robot?: number; register?: number; card?: number } }[], seat: number, turn: number): string[] {
  const shown = entries.filter((e) => e.turn === turn && e.event.type === 'revealed' && e.event.robot === seat);
  return shown.slice(0, 5).sort((a, b) => a.event.register! - b.event.register!).map((e) => cardName(e.event.card!));
}
