/**
 * POST /api/races with an Idempotency-Key: a retry is answered as the first request was and makes
 * no second race; the same key with another body is refused; keys are kept a day, hashed, their
 * answers sealed; a malformed key is refused at the edge.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './db.js';
import { call, postgresAnswers, withServer, type TestServer } from './testing.js';

const havePostgres = await postgresAnswers();
const skipFor = (d: string) => (d === 'postgres' && !havePostgres ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : false);
const body = (name = 'Bob') => ({ course: 'first-shift', seats: [{ name: 'Ava' }, { name }, { name: 'Bolt', bot: 'greedy' }], deadline: { kind: 'live', seconds: 600 } });
const create = (s: TestServer, b: unknown, key?: string) => call(s.base, 'POST', '/api/races', b, key === undefined ? {} : { 'idempotency-key': key });
const count = async (db: Db, table: 'races' | 'race_keys') => Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] a race creation sent again with its Idempotency-Key gets the first answer (the same race and invite links) and makes no second race; the key with another body is refused 422; another key makes another race`, { skip: skipFor(dialect) }, async () => {
    await withServer(async (s) => {
      const key = randomUUID();
      const first = await create(s, body(), key);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      // The same body with its keys in another order is the same request.
      const { deadline, seats, course } = body();
      const again = await create(s, { deadline, seats, course }, key);
      assert.deepEqual(again, first);
      assert.equal(await count(s.db, 'races'), 1);
      // The invites of the answer sent again take their seats (once).
      const taken = await call(s.base, 'POST', `/api/races/${first.body.id}/claim`, { invite: again.body.seats[1].invite });
      assert.equal(taken.status, 200, JSON.stringify(taken.body));
      const seat = await call(s.base, 'GET', `/api/races/${first.body.id}/seats/1`, undefined, { authorization: `Bearer ${taken.body.token}` });
      assert.equal(seat.status, 200);
      const other = await create(s, body('Cog'), key);
      assert.equal(other.status, 422);
      assert.equal(other.body.error.field, 'idempotency-key');
      assert.ok(!JSON.stringify(other.body).includes(first.body.id), 'the refusal names no race');
      const fresh = await create(s, body(), randomUUID());
      assert.equal(fresh.status, 201);
      assert.notEqual(fresh.body.id, first.body.id);
      assert.equal(await count(s.db, 'races'), 2);
    }, dialect);
  });

  test(`[${dialect}] creations sent at once with one Idempotency-Key make one race, and each gets its answer`, { skip: skipFor(dialect) }, async () => {
    await withServer(async (s) => {
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: 4 }, () => create(s, body(), key)));
      assert.deepEqual(answers.map((a) => a.status), [201, 201, 201, 201], JSON.stringify(answers.map((a) => a.body)));
      for (const a of answers) assert.deepEqual(a.body, answers[0]!.body);
      assert.equal(await count(s.db, 'races'), 1);
      assert.equal(await count(s.db, 'race_keys'), 1);
    }, dialect);
  });

  test(`[${dialect}] an Idempotency-Key is kept a day, hashed, with its answer sealed: a retry after a day makes a new race, and keys older than a day are deleted`, { skip: skipFor(dialect) }, async () => {
    await withServer(async (s) => {
      const key = randomUUID();
      const first = await create(s, body(), key);
      assert.equal(first.status, 201);
      const row = await s.db.selectFrom('race_keys').selectAll().executeTakeFirstOrThrow();
      const stored = JSON.stringify(row);
      for (const secret of [key, first.body.moderatorKey, ...first.body.seats.flatMap((x: { invite: string | null }) => (x.invite ? [x.invite] : []))])
        assert.ok(!stored.includes(secret), 'neither the key nor a secret of the answer is stored in clear');
      s.clock.advance(24 * 60 * 60 * 1000 - 1);
      assert.equal((await create(s, body(), key)).body.id, first.body.id, 'kept for a day');
      s.clock.advance(2);
      const later = await create(s, body(), key);
      assert.equal(later.status, 201);
      assert.notEqual(later.body.id, first.body.id);
      assert.equal(await count(s.db, 'race_keys'), 1, 'the expired key was deleted');
    }, dialect);
  });
}

test('a malformed Idempotency-Key (too short, too long, a character outside letters, digits, - and _, two keys) is refused 400 naming the header, and makes no race', async () => {
  await withServer(async (s) => {
    for (const key of ['short', 'x'.repeat(129), `${randomUUID()}!`, `${randomUUID()} ${randomUUID()}`]) {
      const r = await create(s, body(), key);
      assert.equal(r.status, 400, key);
      assert.equal(r.body.error.field, 'idempotency-key');
      assert.match(r.body.error.message, /16 to 128 letters, digits/);
    }
    // Two headers are joined into one value, which is no key.
    const res = await fetch(`${s.base}/api/races`, { method: 'POST', headers: [['content-type', 'application/json'], ['idempotency-key', randomUUID()], ['idempotency-key', randomUUID()]], body: JSON.stringify(body()) });
    assert.equal(res.status, 400);
    assert.equal(await count(s.db, 'races'), 0);
  });
});
