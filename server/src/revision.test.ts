/**
 * A seat's sends are ordered by their `revision` (docs/server.md, "Orders"): a request the web
 * client abandoned (no answer within 15 s) that reaches the server after the orders sent after it
 * is refused, and the later orders stay.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, postgresAnswers, withServer, type TestServer, createSeated } from './testing.js';

const havePostgres = await postgresAnswers();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A live race of Ava and Bob (Bob never sends: the turn stays open); Ava's hand and a PUT of her orders. */
async function avaAndBob(s: TestServer) {
  const made = await createSeated(s.base, {
    course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 7 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const { id, seats } = made.body as { id: string; seats: { token: string }[] };
  const seat = async () => (await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(seats[0]!.token))).body as { turn: number; you: { hand: string[]; orders: { program: string[]; revision?: number } | null } };
  const hand = (await seat()).you.hand;
  const put = (body: Record<string, unknown>) => call(s.base, 'PUT', `/api/races/${id}/seats/0/orders`, { turn: 1, ...body }, auth(seats[0]!.token));
  const submitted = async () => ((await call(s.base, 'GET', `/api/races/${id}/events`)).body as { event: { type: string } }[]).filter((e) => e.event.type === 'submitted').length;
  return { hand, seat, put, submitted };
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] orders with an older revision arriving after newer ones are refused with 409 revision, and the newer orders stay; orders without one (mail, a script) are the next revision`, { skip: dialect === 'postgres' && !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' }, async () => {
    await withServer(async (s) => {
      const { hand, seat, put, submitted } = await avaAndBob(s);
      const first = hand.slice(0, 5), second = hand.slice(4, 9);
      // The second send arrives first; the first, held on the way, arrives after it.
      const newer = await put({ program: second, revision: 2 });
      assert.equal(newer.status, 200, JSON.stringify(newer.body));
      assert.equal(newer.body.orders.revision, 2);
      const late = await put({ program: first, revision: 1 });
      assert.equal(late.status, 409, JSON.stringify(late.body));
      assert.equal(late.body.error.field, 'revision');
      assert.deepEqual((await seat()).you.orders, { ...newer.body.orders }, 'the newer orders stay, as they were');
      assert.equal(await submitted(), 1, 'the refused request logged nothing');
      // The same revision: the same orders again are a repeat (taken); other orders are refused.
      assert.equal((await put({ program: second, revision: 2 })).status, 200);
      assert.equal((await put({ program: first, revision: 2 })).status, 409);
      assert.deepEqual((await seat()).you.orders?.program, second);
      // Orders without a revision (a mail, a script) replace them as the next revision, 3 (a page
      // that sent 2 sees them as sent after its own): a late 2 is still refused, and so is a 3 of
      // other orders (a page that had not seen them).
      const plain = await put({ program: first });
      assert.equal(plain.status, 200, JSON.stringify(plain.body));
      assert.equal(plain.body.orders.revision, 3);
      assert.equal((await put({ program: second, revision: 2 })).status, 409);
      assert.equal((await put({ program: second, revision: 3 })).status, 409);
      assert.deepEqual((await seat()).you.orders, { ...plain.body.orders });
      // The same orders again without a revision (a mail processed twice) are a repeat: revision 3 stays.
      assert.equal((await put({ program: first })).body.orders.revision, 3);
      // A later revision replaces them.
      assert.equal((await put({ program: second, revision: 4 })).status, 200);
      assert.deepEqual((await seat()).you.orders, { turn: 1, program: second, powerDown: false, stayDown: false, takeOption: false, unlock: [], reenter: null, choices: null, revision: 4 });
      // Not a whole number from 1 on: refused by the route's schema, naming the field.
      const bad = await put({ program: first, revision: 0 });
      assert.equal(bad.status, 422, JSON.stringify(bad.body));
      assert.equal(bad.body.error.field, 'revision');
    }, dialect);
  });
}

test('the orders\' revision is in the OpenAPI document: a whole number from 1, optional', async () => {
  await withServer(async (s) => {
    const doc = (await call(s.base, 'GET', '/api/openapi.json')).body;
    const schema = doc.paths['/api/races/{id}/seats/{seat}/orders'].put.requestBody.content['application/json'].schema;
    assert.equal(schema.properties.revision.type, 'integer');
    assert.equal(schema.properties.revision.minimum, 1);
    assert.ok(!schema.required.includes('revision'));
  });
});
