import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { dropSchema, freshDb, postgresAnswers } from './testing.js';

const havePostgres = await postgresAnswers();

test('[postgres] a statement with parameters is prepared once on its connection and run again by its name; begin and commit are not prepared', { skip: !havePostgres && 'no PostgreSQL' }, async () => {
  const { db, url } = await freshDb('postgres');
  try {
    const prepared = await db.transaction().execute(async (trx) => {
      const read = () => trx.selectFrom('races').select('id').where('id', '=', 'no-such-race').where('version', '>', 0).execute();
      assert.deepEqual(await read(), []);
      // Run again on the same connection: by its name (a second prepare of the name would fail).
      assert.deepEqual(await read(), []);
      return (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements where not from_sql`.execute(trx)).rows;
    });
    const text = db.selectFrom('races').select('id').where('id', '=', 'x').where('version', '>', 0).compile().sql;
    const mine = prepared.filter((p) => p.statement === text);
    assert.equal(mine.length, 1, `prepared: ${JSON.stringify(prepared)}`);
    assert.match(mine[0]!.name, /^rr_/);
    assert.ok(!prepared.some((p) => /^(begin|commit)$/i.test(p.statement.trim())), 'begin and commit are sent as they are');
  } finally {
    await db.destroy();
    await dropSchema(url);
  }
});
