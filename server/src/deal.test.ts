/**
 * Secret deals and the moderator key: a race's generator comes from 128 secure random bits that no
 * client chooses or sees; a seed is taken only for a race marked as no secret, and its view says
 * so; the moderator key opens no seat, and corrects a seat's orders only on a turn taken back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, freshDb, postgresAnswers, startServer } from './testing.js';

const havePostgres = await postgresAnswers();
const skipFor = (d: string) => (d === 'postgres' && !havePostgres ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : false);
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const body = (extra: Record<string, unknown> = {}) => ({ course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 60 }, ...extra });

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] each race deals from 128 secure random bits that no view shows`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const words: number[] = [];
      const hands = new Set<string>();
      for (let k = 0; k < 12; k++) {
        const r = await call(s.base, 'POST', '/api/races', body());
        assert.equal(r.status, 201, JSON.stringify(r.body));
        const row = await db.selectFrom('races').select(['deal']).where('id', '=', r.body.id).executeTakeFirstOrThrow();
        const deal = JSON.parse(row.deal!) as { secret: boolean; words: number[] };
        assert.equal(deal.secret, true);
        assert.equal(deal.words.length, 4, 'four 32-bit words: 128 bits');
        words.push(...deal.words);
        const view = await call(s.base, 'GET', `/api/races/${r.body.id}`);
        assert.deepEqual(view.body.deal, { secret: true });
        const seat = await call(s.base, 'GET', `/api/races/${r.body.id}/seats/0`, undefined, auth(r.body.seats[0].token));
        hands.add(seat.body.you.hand.join(' '));
        const events = await call(s.base, 'GET', `/api/races/${r.body.id}/events`);
        for (const text of [JSON.stringify(view.body), JSON.stringify(seat.body), JSON.stringify(events.body)])
          for (const w of deal.words) assert.ok(!text.includes(String(w)), `word ${w} of the deal shows`);
      }
      assert.ok(words.every((w) => Number.isInteger(w) && w >= 0 && w < 2 ** 32));
      assert.equal(new Set(words).size, words.length, 'no word repeats');
      // Drawn from 2^32 values each, not from 2^31 like the seeds of old: some word has its top bit set.
      assert.ok(words.some((w) => w >= 2 ** 31));
      assert.equal(hands.size, 12, 'every race deals another hand');
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] no client chooses the deal: a seed is refused unless the race is marked as no secret, and then its view shows it`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      for (const [extra, field] of [
        [{ seed: 5 }, 'seed'],
        [{ deal: { seed: 5 } }, 'deal.secret'],
        [{ deal: { secret: true, seed: 5 } }, 'deal.secret'],
        [{ deal: { secret: false } }, 'deal.seed'],
        [{ deal: { secret: false, seed: 2 ** 31 } }, 'deal.seed'],
        [{ deal: { secret: false, seed: 1.5 } }, 'deal.seed'],
        [{ deal: { secret: false, seed: 5, words: [1, 2, 3, 4] } }, 'deal.words'],
      ] as const) {
        const r = await call(s.base, 'POST', '/api/races', body(extra));
        assert.equal(r.status, 422, JSON.stringify(extra));
        assert.equal(r.body.error.field, field, JSON.stringify(extra));
      }
      assert.equal((await db.selectFrom('races').select('id').execute()).length, 0, 'nothing was made');
      const open = await call(s.base, 'POST', '/api/races', body({ deal: { secret: false, seed: 5 } }));
      assert.equal(open.status, 201);
      assert.deepEqual((await call(s.base, 'GET', `/api/races/${open.body.id}`)).body.deal, { secret: false, seed: 5 });
      // The same seed deals the same hands: what a replay needs.
      const again = await call(s.base, 'POST', '/api/races', body({ deal: { secret: false, seed: 5 } }));
      const hand = async (r: typeof open) => (await call(s.base, 'GET', `/api/races/${r.body.id}/seats/0`, undefined, auth(r.body.seats[0].token))).body.you.hand;
      assert.deepEqual(await hand(open), await hand(again));
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] the moderator key opens no seat: orders sent with it are refused until the turn is taken back, then logged as a correction the seat sees`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const race = (await call(s.base, 'POST', '/api/races', body())).body;
      const mod = { 'x-moderator-key': race.moderatorKey };
      const you = async (seat: number) => (await call(s.base, 'GET', `/api/races/${race.id}/seats/${seat}`, undefined, auth(race.seats[seat].token))).body.you;
      const bob = await you(1);
      const before = (await call(s.base, 'GET', `/api/races/${race.id}`)).body.lastSeq;
      // Neither Bob's own cards nor anything else: the key is refused before the orders are read.
      for (const program of [bob.hand.slice(0, 5), ['F1:490', 'F1:500', 'F1:510', 'F1:520', 'F1:530']]) {
        const r = await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program }, mod);
        assert.equal(r.status, 403);
        assert.equal(r.body.error.field, 'moderatorKey');
      }
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.lastSeq, before, 'nothing was stored');
      // Both play the turn; the moderator takes it back and corrects Bob's orders.
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: (await you(0)).hand.slice(0, 5) }, auth(race.seats[0].token))).status, 200);
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program: bob.hand.slice(0, 5) }, auth(race.seats[1].token))).status, 200);
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn, 2);
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 2, program: bob.hand.slice(0, 5) }, mod)).status, 403, 'turn 2 is not taken back');
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/rewind`, {}, mod)).status, 200);
      const corrected = bob.hand.slice(1, 6);
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program: corrected }, mod)).status, 200);
      const entries = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { event: { type: string; seat?: number; by?: string } }[];
      const told = entries.filter((e) => e.event.type === 'corrected');
      assert.deepEqual(told.map((e) => e.event), [{ type: 'corrected', seat: 1, by: 'moderator' }]);
    } finally {
      await s.close();
      await db.destroy();
    }
  });
}
