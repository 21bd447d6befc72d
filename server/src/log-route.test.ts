/**
 * The race's log route (`GET /api/races/{id}/events`) answers its entries' stored texts joined
 * (`RaceRepository.entriesJson`): the same entries, in the same order and shape, as the entries read
 * into objects (`RaceService.entries`), from any seq on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, createSeated, withServer } from './testing.js';

test('the log route answers, from any seq on, the very entries the service reads into objects: seq and turn first, then the stored entry', async () => {
  await withServer(async (s) => {
    const made = await createSeated(s.base, { course: 'first-shift', rules: 'classic', deadline: { kind: 'live', seconds: 600 }, seats: [{ name: 'Ava' }, { name: 'Clank', bot: 'greedy' }] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id as string;
    const all = await s.service.entries(id, 0);
    assert.ok(all.ok && all.value.length > 3, 'the race has a log');
    const last = all.value.at(-1)!.seq;
    for (const after of [0, 1, Math.floor(last / 2), last - 1, last, last + 5]) {
      const got = await call(s.base, 'GET', `/api/races/${id}/events?after=${after}`);
      const want = await s.service.entries(id, after);
      assert.equal(got.status, 200);
      assert.ok(want.ok);
      assert.deepEqual(got.body, JSON.parse(JSON.stringify(want.value)), `after ${after}`);
      assert.deepEqual(got.body.map((e: object) => Object.keys(e).slice(0, 2)), want.value.map(() => ['seq', 'turn']), `seq and turn first, after ${after}`);
    }
    const none = await call(s.base, 'GET', '/api/races/no-such-race/events');
    assert.equal(none.status, 404);
    assert.equal(none.body.error.field, 'race');
  });
});
