import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPLAY_WAIT } from './deadline.js';
import { call, freshDb, startServer, type TestServer, createSeated } from './testing.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A live race of two people and a bot (10 s a turn) whose first turn both people have programmed. */
async function afterTurnOne(s: TestServer, deadline: unknown = { kind: 'live', seconds: 10 }) {
  const r = await createSeated(s.base, {
    course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'greedy' }], deadline, deal: { secret: false, seed: 4 },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const race = r.body as { id: string; moderatorKey: string; seats: { token: string | null }[] };
  const tokens = [race.seats[0]!.token!, race.seats[1]!.token!];
  for (const seat of [0, 1]) {
    const you = (await call(s.base, 'GET', `/api/races/${race.id}/seats/${seat}`, undefined, auth(tokens[seat]!))).body.you;
    const put = await call(s.base, 'PUT', `/api/races/${race.id}/seats/${seat}/orders`, { turn: 1, program: you.hand.slice(0, you.openRegisters.length) }, auth(tokens[seat]!));
    assert.equal(put.status, 200, JSON.stringify(put.body));
  }
  // A daily race plays its turn at the deadline: the moderator plays it now.
  if ((deadline as { kind: string }).kind !== 'live') await call(s.base, 'POST', `/api/races/${race.id}/moderator/adjudicate`, {}, { 'x-moderator-key': race.moderatorKey });
  const v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
  assert.equal(v.turn, 2, 'turn 1 was played');
  return { id: race.id, moderatorKey: race.moderatorKey, tokens, view: v };
}

const ready = (s: TestServer, id: string, seat: number, token: string, turn = 2) => call(s.base, 'POST', `/api/races/${id}/seats/${seat}/ready`, { turn }, auth(token));

test('a live race\'s clock waits for the replay: it starts once every person has watched it, not while they watch', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const t0 = s.clock.t;
    const { id, tokens, view } = await afterTurnOne(s);
    const startsBy = view.clock.startsBy as number;
    assert.ok(startsBy > t0 + REPLAY_WAIT.marginMs, 'the clock starts at the latest after the replay\'s length and a margin');
    assert.deepEqual(view.clock.waitingFor, [0, 1], 'both people are still to watch the replay; the bot never is');
    assert.equal(view.deadlineAt, startsBy + 10_000, 'the deadline counts from when the clock starts at the latest');
    // The policy's 10 s pass while the replay plays (the wait is at least the margin, 15 s): nothing is due.
    s.clock.advance(11_000);
    assert.equal(await s.service.tick(), 0);
    assert.equal((await call(s.base, 'GET', `/api/races/${id}`)).body.turn, 2);

    const a = await ready(s, id, 0, tokens[0]!);
    assert.deepEqual([a.status, a.body.clockStarted], [200, false]);
    const half = (await call(s.base, 'GET', `/api/races/${id}/seats/1`, undefined, auth(tokens[1]!))).body;
    assert.deepEqual(half.clock.waitingFor, [1]);
    // Said again, nothing changes.
    assert.equal((await ready(s, id, 0, tokens[0]!)).body.clockStarted, false);

    s.clock.advance(2000);
    const b = await ready(s, id, 1, tokens[1]!);
    assert.equal(b.status, 200, JSON.stringify(b.body));
    assert.equal(b.body.clockStarted, true);
    assert.equal(b.body.deadlineAt, s.clock.t + 10_000, 'the clock starts now: the policy\'s whole 10 s');
    const v = (await call(s.base, 'GET', `/api/races/${id}`)).body;
    assert.equal(v.clock, null);
    assert.equal(v.deadlineAt, s.clock.t + 10_000);
    const types = (await call(s.base, 'GET', `/api/races/${id}/events?after=${view.lastSeq}`)).body.map((e: { event: { type: string } }) => e.event.type);
    assert.deepEqual(types, ['ready', 'ready', 'clockStarted']);
    s.clock.advance(10_001);
    assert.equal(await s.service.tick(), 1, 'the turn is played at the deadline');
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a live race\'s clock starts anyway when the wait for the replay runs out with nobody ready', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const { id, tokens, view } = await afterTurnOne(s);
    const startsBy = view.clock.startsBy as number;
    s.clock.t = startsBy;
    const v = (await call(s.base, 'GET', `/api/races/${id}`)).body;
    assert.equal(v.clock, null, 'the clock runs');
    // Ready after the wait changes nothing: the clock runs already.
    const late = await ready(s, id, 0, tokens[0]!);
    assert.deepEqual([late.status, late.body.clockStarted, late.body.deadlineAt], [200, true, startsBy + 10_000]);
    s.clock.t = startsBy + 9_999;
    assert.equal(await s.service.tick(), 0);
    s.clock.t = startsBy + 10_000;
    assert.equal(await s.service.tick(), 1, 'played the policy\'s 10 s after the wait ran out');
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('ready needs the seat\'s own token, the current turn and nothing else; a daily race\'s clock never waits', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const { id, tokens } = await afterTurnOne(s);
    assert.equal((await ready(s, id, 0, tokens[1]!)).status, 401, 'another seat\'s token');
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/seats/0/ready`, { turn: 2 })).status, 401, 'no token');
    assert.equal((await ready(s, id, 2, tokens[0]!)).status, 403, 'the bot\'s seat');
    assert.equal((await ready(s, id, 7, tokens[0]!)).status, 404, 'no such seat');
    assert.equal((await ready(s, 'nosuchrace', 0, tokens[0]!)).status, 404, 'no such race');
    const stale = await ready(s, id, 0, tokens[0]!, 1);
    assert.deepEqual([stale.status, stale.body.error.field], [409, 'turn']);
    const extra = await call(s.base, 'POST', `/api/races/${id}/seats/0/ready`, { turn: 2, seat: 1 }, auth(tokens[0]!));
    assert.deepEqual([extra.status, extra.body.error.field], [422, 'seat']);
    const none = await call(s.base, 'POST', `/api/races/${id}/seats/0/ready`, 'null', { ...auth(tokens[0]!), 'content-type': 'application/json' });
    assert.deepEqual([none.status, none.body.error.field], [422, 'body']);
    assert.deepEqual((await call(s.base, 'GET', `/api/races/${id}`)).body.clock.waitingFor, [0, 1], 'nothing refused changed the race');

    const daily = await afterTurnOne(s, { kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 });
    assert.equal(daily.view.clock, null);
    assert.equal(new Date(daily.view.deadlineAt).toISOString(), '2026-11-03T22:00:00.000Z', 'the daily deadline as ever');
  } finally {
    await s.close();
    await db.destroy();
  }
});
