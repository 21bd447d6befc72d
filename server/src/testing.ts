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
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { shippedCourses } from './courses.js';
import { migrate, openDb, type Db } from './db.js';
import { RaceService } from './races.js';

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

export interface TestServer {
  readonly base: string;
  readonly app: FastifyInstance;
  readonly service: RaceService;
  readonly clock: TestClock;
  readonly db: Db;
  close(): Promise<void>;
}

const courses = shippedCourses();

export async function startServer(db: Db, clock = new TestClock(), rateLimit?: { max: number; windowMs: number }): Promise<TestServer> {
  const service = new RaceService({ db, clock, course: (n) => courses.get(n) });
  const app = await buildApp({ service, courses: () => [...courses].map(([name, course]) => ({ name, course })), now: clock.now, ...(rateLimit ? { rateLimit } : {}) });
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

const MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

/** The real server (`npm start`) in a process of its own, once it listens. */
export async function spawnServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => ((out += String(d)), out.includes('roborally server on') && resolve()));
    child.stderr!.on('data', (d) => (out += String(d)));
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  return child;
}

/** Resolves once the process has exited. */
export const exited = (child: ChildProcess) =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
