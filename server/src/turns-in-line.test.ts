/**
 * A race's changes asked at once are taken one after the other (turns-in-line.ts): many requests
 * changing one race at the same moment are all served, none refused `409 race` because the race
 * was changing, on PostgreSQL (whose pool runs them at once) as on SQLite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TurnsInLine } from './turns-in-line.js';
import { call, postgresAnswers, withServer, createSeated } from './testing.js';

const havePostgres = await postgresAnswers();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

test('changes of one race run one after the other, in the order asked; other races do not wait; nothing is kept once they end', async () => {
  const line = new TurnsInLine(60_000);
  const log: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const first = line.run('a', async () => (log.push('a1 start'), await held, log.push('a1 end'), 1));
  const second = line.run('a', async () => (log.push('a2'), 2));
  const failing = line.run('a', async () => {
    log.push('a3');
    throw new Error('refused');
  });
  const fourth = line.run('a', async () => (log.push('a4'), 4));
  assert.equal(await line.run('b', async () => (log.push('b'), 'b')), 'b', 'another race goes ahead at once');
  release();
  assert.deepEqual([await first, await second, await failing.catch((e: Error) => e.message), await fourth], [1, 2, 'refused', 4]);
  assert.deepEqual(log, ['a1 start', 'b', 'a1 end', 'a2', 'a3', 'a4'], 'a change that failed does not hold the next');
  assert.equal(line.size, 0);
});

test('a change that does not end holds the next one of its race only its longest wait', async () => {
  const line = new TurnsInLine(50);
  void line.run('a', () => new Promise(() => undefined));
  const asked = performance.now();
  assert.equal(await line.run('a', async () => 'next'), 'next');
  assert.ok(performance.now() - asked < 5_000, 'the next change went ahead');
});

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] 40 orders of one seat and another seat's robot, sent at once over as many connections, are all taken: none refused because the race was changing, and the orders held are those of the highest revision answered`, { skip: dialect === 'postgres' && !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)', timeout: 120_000 }, async () => {
    await withServer(async (s) => {
      const made = await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Cy' }], deadline: { kind: 'live', seconds: 600 } });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const { id, seats } = made.body as { id: string; seats: { token: string }[] };
      const hand = (await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(seats[0]!.token))).body.you.hand as string[];
      const programs = Array.from({ length: 40 }, (_, k) => [...hand.slice(k % 5), ...hand.slice(0, k % 5)].slice(0, 5));
      const [robot, ...answers] = await Promise.all([
        call(s.base, 'PUT', `/api/races/${id}/seats/1/robot`, { robot: 5 }, auth(seats[1]!.token)),
        ...programs.map((program) => call(s.base, 'PUT', `/api/races/${id}/seats/0/orders`, { turn: 1, program }, auth(seats[0]!.token))),
      ]);
      assert.equal(robot!.status, 200, JSON.stringify(robot!.body));
      assert.deepEqual(answers.map((a) => a.status).filter((st) => st !== 200), [], JSON.stringify(answers.find((a) => a.status !== 200)?.body));
      const last = answers.reduce((a, b) => (b.body.orders.revision > a.body.orders.revision ? b : a));
      const held = (await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(seats[0]!.token))).body.you.orders;
      assert.deepEqual(held, last.body.orders);
      const events = (await call(s.base, 'GET', `/api/races/${id}/events`)).body as { event: { type: string } }[];
      assert.equal(events.filter((e) => e.event.type === 'submitted').length, 40, 'each order answered 200 logged once');
    }, dialect);
  });
}
