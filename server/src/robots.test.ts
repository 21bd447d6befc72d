/** The robots seats race (render/src/robots.ts's eight designs) and the registers others see filled face down. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, withServer, type TestServer, createSeated } from './testing.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

const create = (s: TestServer, seats: Record<string, unknown>[]) =>
  createSeated(s.base, { course: 'first-shift', deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 5 }, seats });

test('robots chosen in the creation request are kept, the others get the first designs free, and a taken or unknown design is refused', async () => {
  await withServer(async (s) => {
    const r = await create(s, [{ name: 'Ava', robot: 1 }, { name: 'Bob' }, { name: 'Bea', bot: 'random', robot: 0 }, { name: 'Cy', bot: 'random' }]);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const view = (await call(s.base, 'GET', `/api/races/${r.body.id}`)).body;
    assert.deepEqual(view.seats.map((x: { robot: number }) => x.robot), [1, 2, 0, 3]);
    const taken = await create(s, [{ name: 'Ava', robot: 4 }, { name: 'Bob', robot: 4 }]);
    assert.equal(taken.status, 422);
    assert.equal(taken.body.error.field, 'seats[1].robot');
    for (const bad of [8, -1, 1.5, '2']) {
      const out = await create(s, [{ name: 'Ava', robot: bad }]);
      assert.equal(out.status, 422, `robot ${JSON.stringify(bad)}`);
      assert.equal(out.body.error.field, 'seats[0].robot');
    }
  });
});

test('a seat named after a robot design races that design, never another: a bot "Sprocket" is drawn as the Sprocket, and a contradicting choice is refused', async () => {
  await withServer(async (s) => {
    // Seat 3 would get the Gizmo in seat order: its name gives it the Sprocket (2), and Sam the first design free after.
    const r = await create(s, [{ name: 'Ava' }, { name: 'Gears', bot: 'greedy' }, { name: 'Sam', bot: 'greedy' }, { name: 'sprocket', bot: 'greedy' }]);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const view = (await call(s.base, 'GET', `/api/races/${r.body.id}`)).body;
    assert.deepEqual(view.seats.map((x: { robot: number }) => x.robot), [0, 1, 3, 2]);
    const chosenOther = await create(s, [{ name: 'Ava' }, { name: 'Bolt', bot: 'random', robot: 0 }]);
    assert.equal(chosenOther.status, 422);
    assert.equal(chosenOther.body.error.field, 'seats[1].robot');
    const takenBefore = await create(s, [{ name: 'Ava', robot: 6 }, { name: 'Cog', bot: 'random' }]);
    assert.equal(takenBefore.status, 422);
    assert.equal(takenBefore.body.error.field, 'seats[1].name');
    // A person named after a design keeps it: choosing another is refused.
    const p = await create(s, [{ name: 'Gizmo' }, { name: 'Bob' }]);
    assert.equal(p.status, 201, JSON.stringify(p.body));
    const token = p.body.seats[0].token as string;
    const other = await call(s.base, 'PUT', `/api/races/${p.body.id}/seats/0/robot`, { robot: 5 }, auth(token));
    assert.equal(other.status, 409);
    assert.equal(other.body.error.field, 'robot');
    assert.equal((await call(s.base, 'PUT', `/api/races/${p.body.id}/seats/0/robot`, { robot: 3 }, auth(token))).status, 200);
  });
});

test('a seat chooses its robot with its own link while the first turn is programmed; a design another seat races is refused', async () => {
  await withServer(async (s) => {
    const r = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const [ava, bob] = r.body.seats.map((x: { token: string }) => x.token);
    const id = r.body.id;
    const chose = await call(s.base, 'PUT', `/api/races/${id}/seats/0/robot`, { robot: 5 }, auth(ava));
    assert.equal(chose.status, 200, JSON.stringify(chose.body));
    assert.deepEqual(chose.body, { seat: 0, robot: 5 });
    const taken = await call(s.base, 'PUT', `/api/races/${id}/seats/1/robot`, { robot: 5 }, auth(bob));
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error.field, 'robot');
    for (const bad of [{ robot: 8 }, { robot: 'Bolt' }, {}]) {
      const out = await call(s.base, 'PUT', `/api/races/${id}/seats/1/robot`, bad, auth(bob));
      assert.equal(out.status, 422, JSON.stringify(bad));
      assert.equal(out.body.error.field, 'robot');
    }
    const extra = await call(s.base, 'PUT', `/api/races/${id}/seats/1/robot`, { robot: 3, colour: 'red' }, auth(bob));
    assert.equal(extra.status, 422);
    assert.equal(extra.body.error.field, 'colour');
    assert.equal((await call(s.base, 'PUT', `/api/races/${id}/seats/1/robot`, { robot: 3 }, auth(ava))).status, 401);
    // Ava's old robot is free again.
    assert.equal((await call(s.base, 'PUT', `/api/races/${id}/seats/1/robot`, { robot: 0 }, auth(bob))).status, 200);
    const view = (await call(s.base, 'GET', `/api/races/${id}`)).body;
    assert.deepEqual(view.seats.map((x: { robot: number }) => x.robot), [5, 0]);
    const log = (await call(s.base, 'GET', `/api/races/${id}/events`)).body as { event: { type: string } }[];
    assert.deepEqual(log.filter((e) => e.event.type === 'robotChosen').map((e) => e.event), [{ type: 'robotChosen', seat: 0, robot: 5 }, { type: 'robotChosen', seat: 1, robot: 0 }]);
    // The turn's picture draws each robot as chosen; after the first turn the choice is closed.
    await call(s.base, 'POST', `/api/races/${id}/moderator/adjudicate`, {}, { 'x-moderator-key': r.body.moderatorKey });
    const svg = String((await fetch(`${s.base}/api/races/${id}/turns/1/picture.svg`).then((x) => x.text())));
    assert.match(svg, /data-design="Widget"/);
    assert.match(svg, /data-design="Rivet"/);
    const late = await call(s.base, 'PUT', `/api/races/${id}/seats/0/robot`, { robot: 2 }, auth(ava));
    assert.equal(late.status, 409);
    assert.equal(late.body.error.field, 'robot');
  });
});

test('the public view counts the registers each seat has sent, never their cards', async () => {
  await withServer(async (s) => {
    const r = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const ava = r.body.seats[0].token;
    const id = r.body.id;
    const hand: string[] = (await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(ava))).body.you.hand;
    const before = (await call(s.base, 'GET', `/api/races/${id}`)).body;
    assert.deepEqual(before.seats.map((x: { programmed: number }) => x.programmed), [0, 0]);
    const sent = await call(s.base, 'PUT', `/api/races/${id}/seats/0/orders`, { turn: 1, program: [hand[0], null, hand[1], hand[2], null] }, auth(ava));
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const view = (await call(s.base, 'GET', `/api/races/${id}`)).body;
    assert.deepEqual(view.seats.map((x: { programmed: number; submitted: boolean }) => [x.submitted, x.programmed]), [[true, 3], [false, 0]]);
    const text = JSON.stringify(view);
    for (const card of hand) assert.ok(!text.includes(card), `the public view holds ${card}`);
  });
});
