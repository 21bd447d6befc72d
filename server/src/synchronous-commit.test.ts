/**
 * `DB_SYNCHRONOUS_COMMIT` (db.ts `DbConfig.synchronousCommit`): PostgreSQL's commits wait for the
 * WAL's fsync unless the setting says otherwise, on every connection of the pool.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDb } from './db.js';
import { serverEnv } from './config.js';
import { dropSchema, freshDb, postgresAnswers } from './testing.js';

const havePostgres = await postgresAnswers();
const skip = !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)';

/** `synchronous_commit` as each of `n` connections of `db`'s pool sees it, asked at once (so on `n` connections). */
async function seen(db: ReturnType<typeof openDb>['db'], n: number): Promise<string[]> {
  return Promise.all(Array.from({ length: n }, () => db.transaction().execute(async (trx) => {
    const r = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(trx);
    // Held a moment, so that the others are asked on other connections.
    await sql`select pg_sleep(0.05)`.execute(trx);
    return r.rows[0]!.synchronous_commit;
  })));
}

test('DB_SYNCHRONOUS_COMMIT reads on or off (unset and empty: the database\'s own), anything else refused naming it', () => {
  const off = serverEnv({ DB_SYNCHRONOUS_COMMIT: 'off' });
  assert.ok(off.ok && off.value.synchronousCommit === 'off');
  for (const v of ['on', '', undefined]) {
    const r = serverEnv(v === undefined ? {} : { DB_SYNCHRONOUS_COMMIT: v });
    assert.ok(r.ok && r.value.synchronousCommit === undefined, `${v}: ${JSON.stringify(r)}`);
  }
  for (const v of ['OFF', 'false', '0', 'local', ' off']) {
    const r = serverEnv({ DB_SYNCHRONOUS_COMMIT: v });
    assert.ok(!r.ok && r.error.field === 'DB_SYNCHRONOUS_COMMIT' && /^expected on .* or off .*; got /.test(r.error.message), `${v}: ${JSON.stringify(r)}`);
  }
});

test('[postgres] with synchronousCommit off every connection of the pool commits without waiting for its fsync; without it, as the database says (on)', { skip }, async () => {
  const { db, url } = await freshDb('postgres', undefined, { tables: false });
  const off = openDb({ url: url!, synchronousCommit: 'off' }).db;
  try {
    assert.deepEqual(await seen(db, 3), ['on', 'on', 'on']);
    assert.deepEqual(await seen(off, 3), ['off', 'off', 'off']);
  } finally {
    await off.destroy();
    await db.destroy();
    await dropSchema(url);
  }
});
