/** Stored orders that no longer read are filled at random as such, logged, never in silence. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, freshDb, startServer, touchRace, until, createSeated } from './testing.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

type Mocking = { mock: { method: (o: object, m: string, f: (...a: unknown[]) => void) => unknown } };
type Played = { turn: number; event: { type: string; robot?: number; filled?: { register?: number; reason: string }[] } };

/**
 * A live two-person race on SQLite with console.error captured: `send(seat)` sends the seat's
 * first cards, `played()` waits for turn 1's entries.
 */
async function twoPersonRace(t: Mocking) {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  const logged: string[] = [];
  t.mock.method(console, 'error', (...a: unknown[]) => { logged.push(a.map(String).join(' ')); });
  const r = await createSeated(s.base, {
    course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 60 }, deal: { secret: false, seed: 7 },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const race = r.body as { id: string; seats: { token: string }[] };
  const send = async (seat: number) => {
    const you = (await call(s.base, 'GET', `/api/races/${race.id}/seats/${seat}`, undefined, auth(race.seats[seat]!.token))).body;
    const sent = await call(s.base, 'PUT', `/api/races/${race.id}/seats/${seat}/orders`, { turn: you.turn, program: you.you.hand.slice(0, you.you.openRegisters.length) }, auth(race.seats[seat]!.token));
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
  };
  const played = () => until('turn 1 played', async () => {
    const ev = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as Played[];
    return ev.some((e) => e.event.type === 'turnEnded') ? ev : null;
  });
  return { db, s, logged, race, send, played };
}

test('a seat\'s stored orders that no longer read are filled at random as unreadable, and the log names the race, seat, turn and the reader\'s error', async (t) => {
  const { db, s, logged, race, send, played } = await twoPersonRace(t);
  try {
    await send(0);
    // Ava's row changed behind the server's back: an entry no reader knows, and a stray decision.
    const row = await db.selectFrom('orders').select('body').where('race_id', '=', race.id).where('seat', '=', 0).executeTakeFirstOrThrow();
    const stored = JSON.parse(row.body);
    stored.program[2] = 'Move two';
    await db.updateTable('orders').set({ body: JSON.stringify(stored) }).where('race_id', '=', race.id).where('seat', '=', 0).execute();
    await touchRace(db, race.id);
    // The seat's own view shows the orders as they will be played: register 3 left to the random fill, and why.
    const you = (await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, auth(race.seats[0]!.token))).body.you;
    assert.deepEqual(you.orders.program, stored.program.map((c: string, k: number) => (k === 2 ? null : c)));
    assert.deepEqual(you.ordersUnread.map((u: { field: string }) => u.field), ['program[2]']);
    await send(1);
    const events = await played();
    const programmed = events.filter((e) => e.turn === 1 && e.event.type === 'programmed');
    assert.deepEqual(programmed.map((e) => [e.event.robot, e.event.filled]), [[0, [{ register: 3, reason: 'unreadable' }]]]);
    const line = logged.find((l) => l.includes('unreadable'));
    assert.ok(line, `logged: ${JSON.stringify(logged)}`);
    assert.match(line, new RegExp(`race ${race.id}, seat 0, turn 1: stored orders unreadable: program\\[2\\]: .+; filled at random`));
    // The turn's report tells it too.
    const report = await call(s.base, 'GET', `/api/races/${race.id}/turns/1/report`);
    assert.match(JSON.stringify(report.body), /the stored orders for register 3 unreadable, replaced with a random available instruction/);
  } finally {
    await s.close();
  }
});

test('a stored orders row that is not JSON fills the whole program at random as unreadable and is logged, the turn played', async (t) => {
  const { db, s, logged, race, send, played } = await twoPersonRace(t);
  try {
    await send(0);
    await db.updateTable('orders').set({ body: '{"program": ["F2:670"' }).where('race_id', '=', race.id).where('seat', '=', 0).execute();
    await touchRace(db, race.id);
    // The seat's own view still answers while the row does not read: every register left to the random fill, and why.
    const view = await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, auth(race.seats[0]!.token));
    assert.equal(view.status, 200);
    assert.deepEqual(view.body.you.orders.program, [null, null, null, null, null]);
    assert.deepEqual(view.body.you.ordersUnread.map((u: { field: string; message: string }) => [u.field, /^not JSON \(.+\)$/.test(u.message)]), [['body', true]]);
    await send(1);
    const events = await played();
    const programmed = events.find((e) => e.turn === 1 && e.event.type === 'programmed' && e.event.robot === 0);
    assert.deepEqual(programmed?.event.filled?.map((f) => f.reason), Array(5).fill('unreadable'));
    assert.ok(logged.some((l) => new RegExp(`race ${race.id}, seat 0, turn 1: stored orders unreadable: body: not JSON \\(.+\\); filled at random`).test(l)), JSON.stringify(logged));
  } finally {
    await s.close();
  }
});
