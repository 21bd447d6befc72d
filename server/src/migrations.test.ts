/** Versioned migrations: a database made before them (create-if-not-exists) takes them up as it is. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { migrate } from './db.js';
import { storedDeal } from './deal.js';
import { MIGRATIONS } from './migrations.js';
import { PG_URL, dropSchema, freshDb, postgresAnswers } from './testing.js';

const havePostgres = await postgresAnswers();
const skipFor = (d: string) => (d === 'postgres' && !havePostgres ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : false);

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] a database made before migrations is migrated in place, keeping its races, and migrating twice changes nothing; two races cannot hold one place of a series`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect, undefined, { tables: false });
    try {
      // The tables as the server made them before migrations, with a race in them.
      await MIGRATIONS['0001-tables']!.up(db);
      await sql`insert into races (id, created_at, course, rules, settings, policy, moderator_hash, state, version, last_seq, deadline_at, paused_left, status, seed)
        values ('old', 1, 'first-shift', 'classic', '{}', '{}', 'h', '{}', 1, 0, null, null, 'running', 1234)`.execute(db);
      // A series as it was stored before its races were numbered: by creation time, then id.
      const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s : undefined;
      const upTo = await new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS }, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateTo('0005-play-by');
      assert.equal(upTo.error, undefined);
      for (const [id, at] of [['s1', 5], ['s0', 5], ['s2', 3]] as const) {
        await sql`insert into races (id, created_at, course, rules, settings, policy, moderator_hash, state, version, last_seq, deadline_at, paused_left, status, seed, series)
          values (${id}, ${at}, 'first-shift', 'classic', '{}', '{}', 'h', '{}', 1, 0, null, null, 'over', 1, 'old')`.execute(db);
      }
      await migrate(db);
      await migrate(db);
      const numbered = await db.selectFrom('races').select(['id', 'series_seq']).where('series', '=', 'old').orderBy('series_seq').execute();
      assert.deepEqual(numbered.map((r) => [r.id, Number(r.series_seq)]), [['s2', 1], ['s0', 2], ['s1', 3]]);
      // Two races never hold one place of a series (the unique index beside insertRace's lock).
      await assert.rejects(sql`insert into races (id, created_at, course, rules, settings, policy, moderator_hash, state, version, last_seq, deadline_at, paused_left, status, seed, series, series_seq)
        values ('s3', 6, 'first-shift', 'classic', '{}', '{}', 'h', '{}', 1, 0, null, null, 'over', 1, 'old', 3)`.execute(db), /unique|UNIQUE/);
      const row = await db.selectFrom('races').select(['id', 'seed', 'deal']).where('id', '=', 'old').executeTakeFirstOrThrow();
      assert.deepEqual({ ...row, seed: Number(row.seed) }, { id: 'old', seed: 1234, deal: null });
      // A race stored before deals were kept apart keeps its seed as secret as it was.
      assert.equal(storedDeal({ deal: row.deal, seed: Number(row.seed) }).secret, true);
      const ran = await db.selectFrom('kysely_migration' as 'races').select(sql<string>`name`.as('name')).execute();
      assert.deepEqual(ran.map((r) => r.name).sort(), Object.keys(MIGRATIONS).sort());
    } finally {
      await db.destroy();
    }
  });
}

test('[postgres] migrations succeed while other schemas of the database are created and dropped meanwhile (by other tests or applications)', { skip: skipFor('postgres'), timeout: 120_000 }, async () => {
  let stop = false;
  let churned = 0;
  // Two clients that make and drop schemas with a table in them as fast as they can.
  const churn = async () => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      while (!stop) {
        const schema = `rr_churn_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
        await c.query(`create schema ${schema}`);
        await c.query(`create table ${schema}.t (id serial primary key)`);
        await c.query(`drop schema ${schema} cascade`);
        churned++;
      }
    } finally {
      await c.end();
    }
  };
  const churners = [churn(), churn()];
  const failed: string[] = [];
  try {
    for (let k = 0; k < 12; k++) {
      const { db, url } = await freshDb('postgres', undefined, { tables: false });
      try {
        await migrate(db);
      } catch (e) {
        failed.push((e as Error).message);
      } finally {
        await db.destroy();
        await dropSchema(url);
      }
    }
  } finally {
    stop = true;
    await Promise.all(churners);
  }
  assert.ok(churned > 12, `schemas churned meanwhile: ${churned}`);
  assert.deepEqual(failed, []);
});
