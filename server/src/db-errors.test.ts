import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { databaseUnavailable } from './db.js';
import { PG_URL, postgresAnswers } from './testing.js';

const skip = !(await postgresAnswers()) && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)';

/** Two transactions that each lock a row the other then asks for: PostgreSQL ends one of them. */
async function deadlock(): Promise<unknown> {
  const table = `rr_deadlock_${process.pid}_${Date.now()}`;
  const a = new pg.Client({ connectionString: PG_URL });
  const b = new pg.Client({ connectionString: PG_URL });
  await a.connect();
  await b.connect();
  try {
    await a.query(`create table ${table} (id int primary key)`);
    await a.query(`insert into ${table} values (1), (2)`);
    await a.query('begin');
    await b.query('begin');
    await a.query(`update ${table} set id = id where id = 1`);
    await b.query(`update ${table} set id = id where id = 2`);
    const results = await Promise.allSettled([
      a.query(`update ${table} set id = id where id = 2`),
      b.query(`update ${table} set id = id where id = 1`),
    ]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.ok(failed, 'one of the two transactions is ended by PostgreSQL');
    return failed.reason;
  } finally {
    await a.query('rollback').catch(() => {});
    await b.query('rollback').catch(() => {});
    await a.query(`drop table if exists ${table}`).catch(() => {});
    await a.end();
    await b.end();
  }
}

test('a transaction PostgreSQL ends to break a deadlock counts as the database unavailable for a moment (answered 503, safe to send again)', { skip }, async () => {
  const error = await deadlock();
  assert.equal((error as { code?: string }).code, '40P01');
  assert.equal(databaseUnavailable(error), true);
});

test('a serialization failure counts as the database unavailable for a moment', () => {
  assert.equal(databaseUnavailable(Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' })), true);
});

test('a constraint violation is not the database being unavailable', () => {
  assert.equal(databaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })), false);
});
