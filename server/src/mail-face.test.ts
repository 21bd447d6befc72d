/**
 * The race service's face for the mail gateway (mail/ reads races through it, never through the
 * server's tables), and the HTTP route of the mail word "follow".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, freshDb, rigRaceState, startServer, seatedRace, createSeated, mailSeatToken } from './testing.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

test('mailRaces lists only the races with a seat raced by e-mail, with their status, and mailRace gives their mail seats', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const web = await seatedRace(s.service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'random' }] });
    const mail = await seatedRace(s.service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 60 } });
    const alone = await seatedRace(s.service, { course: 'first-shift', seats: [{ name: 'Cy', email: 'cy@c.test' }, { name: 'Bolt', bot: 'random' }], whenNoPersonLeft: 'end' });
    assert.ok(web.ok && mail.ok && alone.ok);
    const listed = (await s.service.mailRaces()).map((r) => r.id);
    assert.deepEqual(listed, [mail.value.id, alone.value.id].sort());
    const m = (await s.service.mailRace(mail.value.id))!;
    assert.deepEqual(m.mail.map((x) => [x.seat, x.email]), [[1, 'bob@b.test']]);
    assert.match(m.mail[0]!.secret, /^[a-z0-9]{12}$/);
    assert.deepEqual(m.seats.map((x) => [x.name, x.kind, x.follow]), [['Ava', 'human', false], ['Bob', 'human', false]]);
    assert.equal(m.lastSeq, await s.service.lastSeq(mail.value.id));
    assert.equal(await s.service.mailRace('nosuchrace'), null);
    // Cy's robot out: with no person left the race ends (whenNoPersonLeft), and is no longer listed as running.
    const running = async () => (await s.service.mailRaces()).filter((r) => r.status === 'running').map((r) => r.id);
    assert.deepEqual(await running(), [mail.value.id, alone.value.id].sort());
    await rigRaceState(db, alone.value.id, (st) => Object.assign(st.robots[0]!, { status: 'out', lives: 0, hand: [], programmed: true }));
    assert.ok((await s.service.moderate(alone.value.id, alone.value.moderatorKey, 'adjudicate', {})).ok);
    assert.equal((await s.service.mailRace(alone.value.id))!.status, 'over');
    assert.deepEqual(await running(), [mail.value.id]);
    assert.deepEqual((await s.service.mailRaces()).map((r) => r.id), [mail.value.id, alone.value.id].sort(), 'every race with a mail seat, over or not');
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('mailSeatRaces finds a mail seat by its race id in any case, and only a seat raced by e-mail', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const c = await seatedRace(s.service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob', email: 'bob@b.test' }] });
    assert.ok(c.ok);
    const id = c.value.id;
    assert.deepEqual(await s.service.mailSeatRaces(id.toUpperCase(), 1), [id]);
    assert.deepEqual(await s.service.mailSeatRaces(id, 0), [], 'Ava races on the web');
    assert.deepEqual(await s.service.mailSeatRaces(`${id}x`, 1), []);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a seat raced by e-mail says so in its own view (you.byMail), on the process that made the race and on one that reads it', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  // Another service on the same database, which did not make the race: it reads its mail seats.
  const other = await startServer(db);
  try {
    const r = await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 60 } });
    assert.equal(r.status, 201);
    const race = r.body as { id: string; seats: { token: string }[] };
    const bob = await mailSeatToken(db, race.id, 1);
    for (const base of [s.base, other.base]) {
      const ava = await call(base, 'GET', `/api/races/${race.id}/seats/0`, undefined, auth(race.seats[0]!.token));
      const mailed = await call(base, 'GET', `/api/races/${race.id}/seats/1`, undefined, auth(bob));
      assert.equal(ava.status, 200);
      assert.equal(mailed.status, 200);
      assert.equal(ava.body.you.byMail, false, 'Ava races on the web');
      assert.equal(mailed.body.you.byMail, true, 'Bob races by e-mail');
      assert.equal((await call(base, 'GET', `/api/races/${race.id}`)).body.you, undefined, 'the public view has no seat of its own');
    }
  } finally {
    await other.close();
    await s.close();
    await db.destroy();
  }
});

test('ordersIn names the seats whose orders for a turn are in, and ordersOf gives them as they stand, read by the engine as the seat\'s own view reads them', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const r = await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Cy' }], deadline: { kind: 'live', seconds: 60 } });
    assert.equal(r.status, 201);
    const race = r.body as { id: string; seats: { token: string }[] };
    assert.deepEqual(await s.service.ordersIn(race.id, 1), []);
    const programs = new Map<number, string[]>();
    for (const k of [2, 0]) {
      const hand = (await call(s.base, 'GET', `/api/races/${race.id}/seats/${k}`, undefined, auth(race.seats[k]!.token))).body.you.hand as string[];
      programs.set(k, k === 2 ? hand.slice(0, 5) : hand.slice(2, 7));
      const put = await call(s.base, 'PUT', `/api/races/${race.id}/seats/${k}/orders`, { turn: 1, program: programs.get(k) }, auth(race.seats[k]!.token));
      assert.equal(put.status, 200, JSON.stringify(put.body));
    }
    assert.deepEqual(await s.service.ordersIn(race.id, 1), [0, 2]);
    for (const k of [0, 2]) assert.deepEqual((await s.service.ordersOf(race.id, 1, k))?.orders.program, programs.get(k));
    assert.equal(await s.service.ordersOf(race.id, 1, 1), null);
    // Read as the seat's own view reads them: a row that no longer reads is shown as it will be played (left to the random fill) and named, never a throw.
    await db.updateTable('orders').set({ body: '{"program": ["F2:670"' }).where('race_id', '=', race.id).where('seat', '=', 0).execute();
    const broken = await s.service.ordersOf(race.id, 1, 0);
    assert.deepEqual(broken?.orders.program, [null, null, null, null, null]);
    assert.deepEqual(broken?.unread.map((u) => u.field), ['body']);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('PUT /seats/:seat/follow sets whether the seat keeps receiving the turn mails once out: its own token only, a seat with an address only, unknown fields refused', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const r = await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }, { name: 'Cy' }] });
    assert.equal(r.status, 201);
    const race = r.body as { id: string; seats: { token: string }[] };
    for (const seat of [0, 1]) race.seats[seat]!.token = await mailSeatToken(db, race.id, seat);
    const follows = async () => (await s.service.mailRace(race.id))!.seats.map((x) => x.follow);
    const put = (seat: number, body: unknown, token = race.seats[seat]!.token) => call(s.base, 'PUT', `/api/races/${race.id}/seats/${seat}/follow`, body, auth(token));
    const yes = await put(1, { follow: true });
    assert.equal(yes.status, 200, JSON.stringify(yes.body));
    assert.deepEqual(yes.body, { seat: 1, follow: true, out: false });
    assert.deepEqual(await follows(), [false, true, false]);
    assert.equal((await put(0, { follow: true }, race.seats[1]!.token)).status, 401, 'Bob cannot set Ava\'s');
    const web = await put(2, { follow: true });
    assert.deepEqual([web.status, web.body.error?.field], [409, 'follow'], 'Cy races on the web: no turn mails to follow with');
    const extra = await put(0, { follow: true, also: 1 });
    assert.equal(extra.status, 422);
    assert.equal((await put(0, { follow: 'yes' })).status, 422);
    assert.deepEqual(await follows(), [false, true, false], 'nothing changed by the refused ones');
    assert.equal((await put(1, { follow: false })).status, 200);
    assert.deepEqual(await follows(), [false, false, false]);
  } finally {
    await s.close();
    await db.destroy();
  }
});
