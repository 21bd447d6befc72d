/** Drafts: the others see a seat's registers fill face down while it programs (a count, never a card; stored in no database). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { parseCard } from '../../engine/src/index.js';
import { DraftGate } from './drafts.js';
import { call, withServer, until, type TestServer, createSeated } from './testing.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every frame a stream client gets, as sent. */
function frames(url: string): { got: string[]; ready: Promise<unknown>; close(): void } {
  const ws = new WebSocket(url);
  const got: string[] = [];
  ws.on('message', (m) => got.push(String(m)));
  ws.on('error', () => undefined);
  return { got, ready: new Promise((r, j) => (ws.once('open', r), ws.once('error', j))), close: () => ws.close() };
}

const race = async (s: TestServer) => {
  const r = await createSeated(s.base, { course: 'first-shift', deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 5 }, seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'random' }] });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { id: r.body.id as string, tokens: r.body.seats.map((x: { token: string | null }) => x.token) as string[] };
};

test('a seat\'s draft count reaches the other person\'s and a spectator\'s stream as {"draft": {turn, seat, filled}}, never a card, and is stored in no database', async () => {
  await withServer(async (s) => {
    const { id, tokens } = await race(s);
    const url = `${s.base.replace('http', 'ws')}/api/races/${id}/stream`;
    const bob = frames(url), spectator = frames(url);
    await Promise.all([bob.ready, spectator.ready]);
    await until('both streams caught up', () => bob.got.length && spectator.got.length);
    const before = (await call(s.base, 'GET', `/api/races/${id}`)).body.lastSeq;
    const hand = (await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(tokens[0]!))).body.you.hand as string[];
    for (const filled of [1, 2, 1]) {
      const r = await call(s.base, 'PUT', `/api/races/${id}/seats/0/draft`, { turn: 1, filled }, auth(tokens[0]!));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { turn: 1, seat: 0, filled });
    }
    const drafts = (got: string[]) => got.filter((f) => f.startsWith('{"draft"'));
    for (const c of [bob, spectator]) {
      await until('the three drafts on the stream', () => drafts(c.got).length === 3);
      assert.deepEqual(drafts(c.got).map((f) => JSON.parse(f)), [1, 2, 1].map((filled) => ({ draft: { turn: 1, seat: 0, filled } })));
      // Nothing of Ava's hand, by name ("F2:670") or by number ("card":670), in anything they got.
      for (const card of hand) assert.ok(!c.got.some((f) => f.includes(card) || new RegExp(`"card":${parseCard(card, true)}(?!\\d)`).test(f)), `${card} on a stream`);
    }
    // No entry logged, nothing in the public view: the count is in no database.
    const after = (await call(s.base, 'GET', `/api/races/${id}`)).body;
    assert.equal(after.lastSeq, before);
    assert.deepEqual(after.seats.map((x: { programmed: number }) => x.programmed), [0, 0, 0]);
    bob.close();
    spectator.close();
  });
});

test('a stream opened mid-turn (or again from its last seq) begins, after the entries, with the latest draft of each seat of the turn; a new turn\'s drafts replace the last turn\'s', async () => {
  await withServer(async (s) => {
    const { id, tokens } = await race(s);
    const url = `${s.base.replace('http', 'ws')}/api/races/${id}/stream`;
    const put = (seat: number, turn: number, filled: number) => call(s.base, 'PUT', `/api/races/${id}/seats/${seat}/draft`, { turn, filled }, auth(tokens[seat]!));
    const fresh = frames(url);
    await fresh.ready;
    await until('the stream opened before any draft caught up', () => fresh.got.length);
    assert.ok(!fresh.got.some((f) => f.startsWith('{"draft"')), 'no draft before any was sent');
    fresh.close();
    for (const [seat, filled] of [[0, 1], [1, 4], [0, 2]] as const) assert.equal((await put(seat, 1, filled)).status, 200);
    const lastSeq = (await call(s.base, 'GET', `/api/races/${id}`)).body.lastSeq as number;
    const wanted = [{ draft: { turn: 1, seat: 0, filled: 2 } }, { draft: { turn: 1, seat: 1, filled: 4 } }];
    for (const after of [0, lastSeq]) {
      const late = frames(`${url}?after=${after}`);
      await late.ready;
      await until('the drafts on the stream opened later', () => late.got.filter((f) => f.startsWith('{"draft"')).length >= 2);
      const first = late.got.findIndex((f) => f.startsWith('{"draft"'));
      assert.deepEqual(late.got.slice(first).map((f) => JSON.parse(f)), wanted, `after=${after}: the latest of each seat, in seat order`);
      if (after === 0) assert.ok(first > 0 && late.got.slice(0, first).every((f) => f.startsWith('[')), 'the entries first');
      late.close();
    }
    // Turn 1 played (both people send, the bot plays): a draft of turn 2 starts the table anew.
    for (const seat of [0, 1]) {
      const you = (await call(s.base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(tokens[seat]!))).body.you;
      assert.equal((await call(s.base, 'PUT', `/api/races/${id}/seats/${seat}/orders`, { turn: 1, program: you.hand.slice(0, 5) }, auth(tokens[seat]!))).status, 200);
    }
    await until('turn 2', async () => (await call(s.base, 'GET', `/api/races/${id}`)).body.turn === 2);
    const turn2 = (await call(s.base, 'GET', `/api/races/${id}/seats/1`, undefined, auth(tokens[1]!))).body;
    assert.ok(turn2.you.needsProgram, 'Bob programs turn 2');
    assert.equal((await put(1, 2, 1)).status, 200);
    const late = frames(url);
    await late.ready;
    await until('the turn 2 draft', () => late.got.some((f) => f.startsWith('{"draft"')));
    // Sent in seat order at once: a draft of turn 1 kept (seat 0) would have come first.
    assert.deepEqual(JSON.parse(late.got.find((f) => f.startsWith('{"draft"'))!), { draft: { turn: 2, seat: 1, filled: 1 } });
    late.close();
  });
});

test('a draft is refused with bad input (422), without the seat\'s token (401), for another turn (409 turn), once the seat\'s orders are in (409 orders), and beyond the seat\'s burst (429); none of those is relayed', async () => {
  await withServer(async (s) => {
    const { id, tokens } = await race(s);
    const watcher = frames(`${s.base.replace('http', 'ws')}/api/races/${id}/stream`);
    await watcher.ready;
    const put = (seat: number, body: unknown, token = tokens[seat]!) => call(s.base, 'PUT', `/api/races/${id}/seats/${seat}/draft`, body, auth(token));
    for (const [body, field] of [[{ turn: 1, filled: 6 }, 'filled'], [{ turn: 1, filled: -1 }, 'filled'], [{ turn: 1, filled: 'two' }, 'filled'], [{ turn: 1, filled: 1.5 }, 'filled'],
      [{ filled: 1 }, 'turn'], [{ turn: 1, filled: 1, cards: ['F2:670'] }, 'cards'], [[1], 'body']] as const) {
      const r = await put(0, body);
      assert.equal(r.status, 422, JSON.stringify(body));
      assert.equal(r.body.error.field, field, JSON.stringify(body));
    }
    assert.equal((await call(s.base, 'PUT', `/api/races/${id}/seats/0/draft`, 'filled=2', { ...auth(tokens[0]!), 'content-type': 'text/plain' })).status, 422, 'a body that is not JSON');
    assert.equal((await put(0, { turn: 1, filled: 1 }, tokens[1]!)).status, 401);
    assert.equal((await put(2, { turn: 1, filled: 1 }, tokens[0]!)).status, 403, 'a bot\'s seat');
    const stale = await put(0, { turn: 2, filled: 1 });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.field, 'turn');
    // A burst of ten, then refused: the clock here stands still, so the bucket never refills.
    const burst = [];
    for (let k = 0; k < 11; k++) burst.push((await put(0, { turn: 1, filled: k % 6 })).status);
    assert.deepEqual(burst, [...Array(10).fill(200), 429]);
    // Bob's orders in: his drafts are refused, the others see his registers full from the view.
    const you = (await call(s.base, 'GET', `/api/races/${id}/seats/1`, undefined, auth(tokens[1]!))).body.you;
    assert.equal((await call(s.base, 'PUT', `/api/races/${id}/seats/1/orders`, { turn: 1, program: you.hand.slice(0, 5) }, auth(tokens[1]!))).status, 200);
    const late = await put(1, { turn: 1, filled: 5 });
    assert.equal(late.status, 409);
    assert.equal(late.body.error.field, 'orders');
    await until('the burst relayed', () => watcher.got.filter((f) => f.startsWith('{"draft"')).length >= 10);
    // A frame that is in flight would come with the submitted entry's: wait for that, then count.
    await until('Bob\'s orders on the stream', () => watcher.got.some((f) => f.includes('"submitted"') && f.includes('"seat":1')));
    assert.equal(watcher.got.filter((f) => f.startsWith('{"draft"')).length, 10, 'only the drafts taken are relayed');
    watcher.close();
  });
});

test('the draft route is in the OpenAPI document with its body\'s schema', async () => {
  await withServer(async (s) => {
    const doc = (await call(s.base, 'GET', '/api/openapi.json')).body;
    const put = doc.paths['/api/races/{id}/seats/{seat}/draft']?.put;
    assert.ok(put, 'PUT …/draft is listed');
    const schema = put.requestBody.content['application/json'].schema;
    assert.deepEqual(Object.keys(schema.properties).sort(), ['filled', 'turn']);
    assert.equal(schema.additionalProperties, false);
  });
});

test('a seat\'s bucket of drafts refills at its rate, starts full on a new turn, and the buckets kept are bounded', () => {
  const gate = new DraftGate({ burst: 2, perSecond: 4, seats: 2 });
  assert.deepEqual([0, 0, 0].map(() => gate.take('r', 0, 1, 0)), [true, true, false]);
  assert.equal(gate.take('r', 0, 1, 100), false, 'a 0.4 draft refilled');
  assert.equal(gate.take('r', 0, 1, 250), true, 'a whole one after 250 ms');
  assert.equal(gate.take('r', 0, 2, 250), true, 'a new turn, a full bucket');
  assert.equal(gate.take('r', 0, 2, 250), true);
  assert.equal(gate.take('r', 0, 2, 250), false);
  // Two more seats: the first one's bucket is dropped (and so starts full again).
  gate.take('r', 1, 2, 250);
  gate.take('r', 2, 2, 250);
  assert.equal(gate.take('r', 0, 2, 250), true);
});
