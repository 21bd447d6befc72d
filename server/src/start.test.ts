/**
 * `npm start` as a newcomer runs it: SQLite without any set-up, and a clear word when DATABASE_URL
 * points nowhere; and a start that has to wait on its migrations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PG_URL, call, dropSchema, exitsWithin, freshDb, postgresAnswers, spawnServer, until } from './testing.js';

const port = () => 20000 + Math.floor(Math.random() * 12000);
const havePostgres = await postgresAnswers();
const pgSkip = havePostgres ? false : 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)';

/**
 * A PostgreSQL schema with its tables whose migration tables a transaction of the test holds locked
 * until `release`: a server's start-up migration waits on them, as it would on another process's
 * long migration (the Migrator's lock) or a slow statement on a big table.
 */
async function heldMigrations() {
  const { db, url } = await freshDb('postgres');
  await db.destroy();
  const holder = new pg.Client({ connectionString: url });
  const watcher = new pg.Client({ connectionString: PG_URL });
  await holder.connect();
  await watcher.connect();
  await holder.query('begin');
  await holder.query('lock table kysely_migration, kysely_migration_lock in access exclusive mode');
  return {
    url: url!,
    /** How long (ms) the statement of the connection named `name` has waited on a lock; null while none waits. */
    waitedMs: async (name: string): Promise<number | null> => {
      const r = await watcher.query(`select extract(epoch from now() - query_start) * 1000 as ms from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`, [name]);
      return r.rows.length ? Number(r.rows[0].ms) : null;
    },
    release: async () => void (await holder.query('commit')),
    close: async () => {
      await holder.end().catch(() => undefined);
      await watcher.end().catch(() => undefined);
      await dropSchema(url);
    },
  };
}

/** `spawnServer`, with `failed` set once it is known to have failed, for tests that watch it start. */
function starting(env: Record<string, string>) {
  const s: { failed?: Error; started: Promise<ChildProcess | undefined> } = { started: null! };
  s.started = spawnServer(env).catch((e: Error) => void (s.failed = e));
  return s;
}

/** Lets the start go on, then stops the server if it started. */
async function stopStarted(s: ReturnType<typeof starting>, held: Awaited<ReturnType<typeof heldMigrations>>): Promise<void> {
  await held.release().catch(() => undefined);
  const child = await s.started;
  if (child) {
    child.kill('SIGTERM');
    await exitsWithin(child, 30_000);
  }
  await held.close();
}

test('without DATABASE_URL the server starts on SQLite under DATA_DIR, whether PostgreSQL runs or not', { timeout: 60_000 }, async () => {
  const p = port();
  const child = await spawnServer({ PORT: String(p), DATA_DIR: mkdtempSync(join(tmpdir(), 'rr-start-')), DATABASE_URL: '' });
  try {
    assert.deepEqual(await call(`http://127.0.0.1:${p}`, 'GET', '/api/health'), { status: 200, body: { ok: true } });
  } finally {
    child.kill('SIGTERM');
    await exitsWithin(child, 30_000);
  }
});

test('a DATABASE_URL that points nowhere stops the start with one line naming it (without its password) and what to do', { timeout: 60_000 }, async () => {
  await assert.rejects(spawnServer({ PORT: String(port()), DATABASE_URL: 'postgres://racer:s3cret@127.0.0.1:1/races' }), (e: Error) => {
    assert.match(e.message, /server exited \(1\)/);
    assert.match(e.message, /roborally server: the PostgreSQL database of DATABASE_URL \(postgres:\/\/racer:\*\*\*@127\.0\.0\.1:1\/races\) cannot be used: .*ECONNREFUSED/);
    assert.match(e.message, /leave DATABASE_URL unset to keep the races in SQLite/);
    assert.doesNotMatch(e.message, /s3cret/);
    assert.doesNotMatch(e.message, /\n\s+at /, 'no stack');
    return true;
  });
});

test('a PORT already in use stops the start with one line naming the address and what to do, not a stack, and no database opened', { timeout: 60_000 }, async () => {
  const busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
  const p = (busy.address() as AddressInfo).port;
  try {
    const dir = mkdtempSync(join(tmpdir(), 'rr-start-'));
    await assert.rejects(spawnServer({ PORT: String(p), DATA_DIR: dir, DATABASE_URL: '' }), (e: Error) => {
      assert.match(e.message, /server exited \(1\)/);
      assert.match(e.message, new RegExp(`roborally server: 127\\.0\\.0\\.1:${p} is in use \\(another server\\?\\); stop it, or start on another port: PORT=\\d+ npm start`));
      assert.doesNotMatch(e.message, /\n\s+at /, 'no stack');
      return true;
    });
    assert.deepEqual(readdirSync(dir), [], 'no database opened');
  } finally {
    busy.close();
  }
});

test('[postgres] a start-up migration that waits longer than DB_QUERY_TIMEOUT_MS (on another process migrating, a big table) does not fail the start', { skip: pgSkip, timeout: 120_000 }, async () => {
  const held = await heldMigrations();
  const name = `rr-start-migrate-${process.pid}`;
  const p = port();
  const s = starting({ PORT: String(p), DATABASE_URL: held.url, DB_QUERY_TIMEOUT_MS: '200', PG_APPLICATION_NAME: name });
  try {
    // Five times the query timeout, then the lock is let go.
    await until('the start-up migration has waited 1 s', async () => {
      if (s.failed) throw s.failed;
      return ((await held.waitedMs(name)) ?? 0) >= 1000;
    }, 60_000);
    await held.release();
    assert.ok(await s.started, s.failed?.message);
    assert.deepEqual(await call(`http://127.0.0.1:${p}`, 'GET', '/api/health'), { status: 200, body: { ok: true } });
  } finally {
    await stopStarted(s, held);
  }
});

test('[postgres] the server holds its port from before the database is opened: while it migrates another listener is refused the port and requests are answered 503, then it serves on that port', { skip: pgSkip, timeout: 120_000 }, async () => {
  const held = await heldMigrations();
  const name = `rr-start-port-${process.pid}`;
  const p = port();
  const s = starting({ PORT: String(p), DATABASE_URL: held.url, PG_APPLICATION_NAME: name });
  try {
    await until('the start-up migration waits', async () => {
      if (s.failed) throw s.failed;
      return (await held.waitedMs(name)) !== null;
    }, 60_000);
    // Another process (a second `npm start`) cannot take the port meanwhile.
    const other = createServer();
    const refused = await new Promise<NodeJS.ErrnoException | null>((r) => other.once('error', r).listen(p, '127.0.0.1', () => r(null)));
    if (!refused) other.close();
    assert.equal(refused?.code, 'EADDRINUSE');
    const early = await call(`http://127.0.0.1:${p}`, 'GET', '/api/health');
    assert.equal(early.status, 503);
    assert.equal(early.body.error.field, 'server');
    await held.release();
    assert.ok(await s.started, s.failed?.message);
    assert.deepEqual(await call(`http://127.0.0.1:${p}`, 'GET', '/api/health'), { status: 200, body: { ok: true } });
  } finally {
    await stopStarted(s, held);
  }
});
