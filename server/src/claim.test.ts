/**
 * A seat is taken by its person with the invite of their link (POST /api/races/{id}/claim): the
 * token made then is theirs alone, so the race's creator, who holds only invites, reads no hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from './app.js';
import { shippedCourses } from './courses.js';
import { RaceService } from './races.js';
import { sql } from 'kysely';
import { migrateToLatest } from './migrations.js';
import { call, freshDb, mailSeatToken, postgresAnswers, rigRaceState, startServer, TestClock, touchRace, withServer as withServerOn, type TestServer } from './testing.js';

const havePostgres = await postgresAnswers();

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function withServer(f: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startServer((await freshDb('sqlite')).db);
  try {
    await f(s);
  } finally {
    await s.close();
  }
}

/** Makes the server's next commit come after `meanwhile`, another process's change of the race, once. */
function overtaker(s: TestServer): (meanwhile: () => Promise<void>) => void {
  const repo = (s.service as unknown as { repo: { commitChange: (...a: unknown[]) => Promise<number | null> } }).repo;
  const commit = repo.commitChange.bind(repo);
  return (meanwhile) => {
    repo.commitChange = async (...a: unknown[]) => {
      repo.commitChange = commit;
      await meanwhile();
      return commit(...a);
    };
  };
}

const create = (s: TestServer, seats: unknown[]) => call(s.base, 'POST', '/api/races', { course: 'first-shift', seats, deadline: { kind: 'live', seconds: 600 } });

test('the creation answers invites, never a token: an invite, the moderator key and the creation\'s whole answer open no seat\'s view', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'greedy' }]);
    assert.equal(made.status, 201);
    const { id, moderatorKey, seats } = made.body;
    assert.ok(seats.every((x: Record<string, unknown>) => !('token' in x)), 'no token in the answer');
    assert.match(seats[1].link, new RegExp(`^/race/${id}\\?seat=1&invite=${seats[1].invite}$`));
    assert.equal(seats[2].invite, null, 'a bot\'s seat has no invite');
    for (const secret of [seats[0].invite, seats[1].invite, moderatorKey]) {
      assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/1`, undefined, auth(secret))).status, 401);
      assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/1?token=${secret}`)).status, 401);
    }
  });
});

test('an invite is spent by the first claim: its token opens the seat, a second claim (anybody\'s) is refused 401 naming the invite, and the seat taken is in the race\'s log', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const { id, seats } = made.body;
    const taken = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite });
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.deepEqual(taken.body.seats, [1]);
    const view = await call(s.base, 'GET', `/api/races/${id}/seats/1`, undefined, auth(taken.body.token));
    assert.equal(view.status, 200);
    assert.equal(view.body.you.hand.length, 9);
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(taken.body.token))).status, 401, 'Bob\'s token opens Bob\'s seat only');
    const again = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite });
    assert.deepEqual([again.status, again.body.error?.field], [401, 'invite']);
    assert.ok(!JSON.stringify(again.body).includes(taken.body.token));
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/1`, undefined, auth(taken.body.token))).status, 200, 'the refused claim changed nothing');
    const log = await call(s.base, 'GET', `/api/races/${id}/events?after=0`);
    const entries = (Array.isArray(log.body) ? log.body : log.body.entries) as { event: { type: string; seats?: number[] } }[];
    assert.deepEqual(entries.filter((e) => e.event.type === 'seatTaken').map((e) => e.event.seats), [[1]]);
    assert.ok(!JSON.stringify(log.body).includes(taken.body.token), 'the log holds no token');
  });
});

test('one invite claimed by many at once: exactly one claim takes the seat, the others are refused', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const { id, seats } = made.body;
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 401, 401, 401, 401, 401]);
    const token = answers.find((a) => a.status === 200)!.body.token;
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(token))).status, 200);
  });
});

test('the seats of one player share one invite, and its claim opens them all with one token', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava', player: 'Ann' }, { name: 'Bob' }, { name: 'Cy', player: 'Ann' }]);
    const { id, seats } = made.body;
    assert.equal(seats[0].invite, seats[2].invite);
    assert.notEqual(seats[0].invite, seats[1].invite);
    const taken = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[2].invite });
    assert.deepEqual(taken.body.seats, [0, 2]);
    for (const seat of [0, 2]) assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(taken.body.token))).status, 200);
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/1`, undefined, auth(taken.body.token))).status, 401);
  });
});

test('a seat raced by e-mail gets no invite and no link: only the token made from its mail secret opens it on the web, and no invite can take it', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob' }]);
    const { id, seats } = made.body;
    assert.deepEqual([seats[0].invite, seats[0].link], [null, null]);
    const token = await mailSeatToken(s.db, id, 0);
    assert.ok(!JSON.stringify(made.body).includes(token), 'the creator\'s answer holds no way into the mail seat');
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/0?token=${token}`)).status, 200);
    const bob = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite });
    assert.deepEqual(bob.body.seats, [1], 'Bob\'s invite takes Bob\'s seat only');
  });
});

test('a claim is refused for a race that is over, for no race, and for a body that is not {"invite"}, each naming what was wrong', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const { id, seats } = made.body;
    const bad = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite, seat: 0 });
    assert.deepEqual([bad.status, bad.body.error?.field], [422, 'seat'], JSON.stringify(bad.body));
    const other = await call(s.base, 'POST', `/api/races/${id}/claim`, { token: seats[0].invite });
    assert.equal(other.status, 422, JSON.stringify(other.body));
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite })).status, 200, 'the refused bodies spent nothing');
    assert.deepEqual((await call(s.base, 'POST', '/api/races/nosuchrace/claim', { invite: seats[0].invite })).status, 404);
    await s.db.updateTable('races').set({ status: 'over' }).where('id', '=', id).execute();
    await touchRace(s.db, id);
    const over = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite });
    assert.deepEqual([over.status, over.body.error?.field], [409, 'race']);
  });
});

test('the moderator\'s invite action makes a new invite for a person\'s seats: the token they held opens them no more, the new invite takes them once; refused for a bot\'s seat and an e-mail seat', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava', player: 'Ann' }, { name: 'Bob', email: 'bob@b.test' }, { name: 'Cy', player: 'Ann' }, { name: 'Bolt', bot: 'random' }]);
    const { id, seats, moderatorKey } = made.body;
    const mod = { 'x-moderator-key': moderatorKey };
    const first = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite });
    const again = await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 2 }, mod);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual([again.body.done, again.body.seats], ['invited', [0, 2]]);
    for (const seat of [0, 2]) assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(first.body.token))).status, 401, 'the old token opens nothing');
    const taken = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: again.body.invite });
    assert.deepEqual(taken.body.seats, [0, 2]);
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/2`, undefined, auth(taken.body.token))).status, 200);
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: again.body.invite })).status, 401, 'spent');
    assert.deepEqual((await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 3 }, mod)).status, 409);
    assert.deepEqual((await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 1 }, mod)).status, 409);
    assert.deepEqual((await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 1 })).status, 401, 'the moderator key is needed');
  });
});

test('the public view says which people\'s seats nobody has taken yet (invited), and stops saying it once its person takes it', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob', email: 'bob@b.test' }, { name: 'Bolt', bot: 'random' }]);
    const { id, seats } = made.body;
    const invited = async () => ((await call(s.base, 'GET', `/api/races/${id}`)).body.seats as { invited: boolean }[]).map((x) => x.invited);
    assert.deepEqual(await invited(), [true, false, false]);
    await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite });
    assert.deepEqual(await invited(), [false, false, false]);
  });
});

test('a server that sends no mail refuses a seat with an e-mail, naming it (it would get no invite and no mail: no way in), and says so at /api', async () => {
  const { db } = await freshDb('sqlite');
  const courses = shippedCourses();
  const app = await buildApp({ service: new RaceService({ db, clock: new TestClock(), course: (n) => courses.get(n) }), courses: () => [...courses].map(([name, course]) => ({ name, course })) });
  try {
    const refused = await app.inject({ method: 'POST', url: '/api/races', payload: { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob', email: 'bob@b.test' }] } });
    assert.equal(refused.statusCode, 422);
    assert.equal(refused.json().error.field, 'seats[1].email');
    assert.equal(await db.selectFrom('races').select('id').executeTakeFirst(), undefined, 'nothing made');
    assert.equal((await app.inject({ method: 'GET', url: '/api' })).json().mail, false);
    assert.equal((await app.inject({ method: 'POST', url: '/api/races', payload: { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }] } })).statusCode, 201);
  } finally {
    await app.close();
    await db.destroy();
  }
});

test('a claim sent with the browser\'s own key may be sent again by that browser (its answer lost) and gets the same token; another browser\'s key, or none, is refused', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const { id, seats, moderatorKey } = made.body;
    const browser = 'b'.repeat(11) + 'K'.repeat(11);
    const first = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite, browser });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite, browser });
    assert.deepEqual([again.status, again.body], [200, first.body], 'the same token, the same seats');
    for (const other of [{ invite: seats[1].invite }, { invite: seats[1].invite, browser: 'c'.repeat(22) }]) {
      const refused = await call(s.base, 'POST', `/api/races/${id}/claim`, other);
      assert.deepEqual([refused.status, refused.body.error?.field], [401, 'invite']);
    }
    const log = await call(s.base, 'GET', `/api/races/${id}/events?after=0`);
    assert.equal((log.body as { event: { type: string } }[]).filter((e) => e.event.type === 'seatTaken').length, 1, 'taken once');
    const short = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite, browser: 'too-short' });
    assert.deepEqual([short.status, short.body.error?.field], [422, 'browser']);
    // A new invite from the moderator: the old claim, sent again, opens nothing.
    await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 1 }, { 'x-moderator-key': moderatorKey });
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite, browser })).status, 401);
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/1`, undefined, auth(first.body.token))).status, 401);
  });
});

test('a claim that another change of the race overtook (another process\'s claim or orders) is judged again from the race as it is then: taken, or refused 401 once its invite was spent there; never a 409 to send again', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const { id, seats } = made.body;
    const overtake = overtaker(s);
    overtake(() => touchRace(s.db, id));
    const taken = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite });
    assert.equal(taken.status, 200, JSON.stringify(taken.body));
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(taken.body.token))).status, 200);
    // The same invite claimed on the other process meanwhile: this claim finds it spent.
    overtake(async () => {
      await s.db.updateTable('seats').set({ invite_hash: '', token_hash: 'theirs' }).where('race_id', '=', id).where('seat', '=', 1).execute();
      await touchRace(s.db, id);
    });
    const lost = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite });
    assert.deepEqual([lost.status, lost.body.error?.field], [401, 'invite']);
  });
});

test('a claim says each time another token held its seats before (the creator taking the seat with its invite, then sending its person the moderator\'s new invite): the turns whose hand was shown; nothing for a seat taken first', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava', player: 'Ann' }, { name: 'Bob' }, { name: 'Cy', player: 'Ann' }]);
    const { id, seats, moderatorKey } = made.body;
    const mod = { 'x-moderator-key': moderatorKey };
    const bob = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite });
    assert.deepEqual(bob.body.openedBefore, [], 'taken first');
    // The creator takes Ann's seats, reads a hand, and makes a new invite for Ann.
    const creator = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite });
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/2`, undefined, auth(creator.body.token))).body.you.hand.length, 9);
    const renewed = await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 0 }, mod);
    const browser = 'a'.repeat(22);
    const ann = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: renewed.body.invite, browser });
    assert.equal(ann.status, 200);
    assert.deepEqual(ann.body.openedBefore, [{ seat: 0, from: 1, to: 1 }, { seat: 2, from: 1, to: 1 }]);
    assert.deepEqual((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: renewed.body.invite, browser })).body, ann.body, 'the same answer sent again');
    // A new invite for a seat nobody had taken shows nothing held before.
    const fresh = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const again = await call(s.base, 'POST', `/api/races/${fresh.body.id}/moderator/invite`, { seat: 0 }, { 'x-moderator-key': fresh.body.moderatorKey });
    assert.deepEqual((await call(s.base, 'POST', `/api/races/${fresh.body.id}/claim`, { invite: again.body.invite })).body.openedBefore, []);
  });
});

test('a moderator\'s action that another change of the race overtook (a seat\'s orders or claim on another process) is judged again from the race as it is then; one overtaken by a turn played is refused 409, to be looked at again', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const { id, moderatorKey } = made.body;
    const mod = { 'x-moderator-key': moderatorKey };
    const overtake = overtaker(s);
    overtake(() => touchRace(s.db, id));
    const renewed = await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 0 }, mod);
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: renewed.body.invite })).status, 200, 'the new invite takes the seat');
    overtake(async () => void (await rigRaceState(s.db, id, (st) => void (st.turn = 2))));
    const paused = await call(s.base, 'POST', `/api/races/${id}/moderator/pause`, {}, mod);
    assert.deepEqual([paused.status, paused.body.error?.field], [409, 'race']);
    assert.equal((await call(s.base, 'GET', `/api/races/${id}`)).body.paused, false, 'nothing done');
  });
});

test('a seat\'s person makes their link the only one: a new token opens their seats, the old one (anybody holding it) no more; sent again by the same browser it answers the same token; not for an e-mail seat', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava', player: 'Ann' }, { name: 'Bob', email: 'bob@b.test' }, { name: 'Cy', player: 'Ann' }]);
    const { id, seats } = made.body;
    const old = (await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite })).body.token as string;
    const browser = 'k'.repeat(24);
    const renew = (token: string, key = browser) => call(s.base, 'POST', `/api/races/${id}/seats/2/token`, { browser: key }, auth(token));
    const renewed = await renew(old);
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.deepEqual(renewed.body.seats, [0, 2]);
    assert.notEqual(renewed.body.token, old);
    for (const seat of [0, 2]) {
      assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(old))).status, 401, 'the old link opens nothing');
      assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(renewed.body.token))).status, 200);
    }
    assert.deepEqual((await renew(old)).body, renewed.body, 'sent again, its answer lost: the same token');
    assert.equal((await renew(old, 'x'.repeat(24))).status, 401, 'the old link with another browser\'s key: refused');
    const log = await call(s.base, 'GET', `/api/races/${id}/events?after=0`);
    assert.deepEqual((log.body as { event: { type: string; seats?: number[] } }[]).filter((e) => e.event.type === 'tokenRenewed').map((e) => e.event.seats), [[0, 2]]);
    const bob = await mailSeatToken(s.db, id, 1);
    const mailSeat = await call(s.base, 'POST', `/api/races/${id}/seats/1/token`, { browser }, auth(bob));
    assert.deepEqual([mailSeat.status, mailSeat.body.error?.field], [409, 'seat']);
    assert.equal((await call(s.base, 'GET', `/api/races/${id}/seats/1?token=${bob}`)).status, 200, 'the mails\' link still opens Bob\'s seat');
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/seats/0/token`, { browser: 'short' }, auth(renewed.body.token))).status, 422);
    const direct = await s.service.renewToken(id, 0, renewed.body.token, { browser: 'short' });
    assert.deepEqual(direct.ok ? null : [direct.refusal.status, direct.refusal.field], [422, 'browser'], 'the service reads the key as the route does');
  });
});

test('a claim reads the holds of its seats, not the race\'s log: after hundreds of entries it reads none of them, and answers as before', async () => {
  await withServer(async (s) => {
    const made = await create(s, [{ name: 'Ava' }, { name: 'Bob' }]);
    const { id, seats, moderatorKey } = made.body;
    const mod = { 'x-moderator-key': moderatorKey };
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite })).status, 200);
    const renewed = await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 0 }, mod);
    // A long log: 300 deadlines moved.
    for (let k = 0; k < 300; k++) assert.ok((await s.service.moderate(id, moderatorKey, 'extend', { seconds: 1 })).ok);
    const repo = (s.service as unknown as { repo: { entries: (...a: unknown[]) => Promise<unknown> } }).repo;
    const entries = repo.entries.bind(repo);
    let read = 0;
    repo.entries = async (...a: unknown[]) => ((read += 1), entries(...a));
    const claimed = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: renewed.body.invite });
    assert.deepEqual([claimed.status, claimed.body.openedBefore], [200, [{ seat: 0, from: 1, to: 1 }]]);
    assert.equal(read, 0, 'no entry of the log read');
  });
});

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] the seats taken and voided before the seat holds were kept (migration 0010) are read from the races' logs by the migration: a claim answers as before`, { skip: dialect === 'postgres' && !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' }, async () => {
    await withServerOn(async (s) => {
      const made = await create(s, [{ name: 'Ava', player: 'Ann' }, { name: 'Bob' }, { name: 'Cy', player: 'Ann' }]);
      const { id, seats, moderatorKey } = made.body;
      const mod = { 'x-moderator-key': moderatorKey };
      assert.equal((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite })).status, 200);
      assert.equal((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[1].invite })).status, 200);
      const ann = await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 2 }, mod);
      // The database as it was before the migration: no holds kept, only the log (and none of the later migrations' tables).
      await sql`drop table seat_holds`.execute(s.db);
      await sql`drop table deadline_lookers`.execute(s.db);
      await s.db.deleteFrom('kysely_migration' as never).where('name' as never, '>=', '0010-seat-holds' as never).execute();
      await migrateToLatest(s.db);
      const taken = await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: ann.body.invite });
      assert.deepEqual([taken.status, taken.body.openedBefore], [200, [{ seat: 0, from: 1, to: 1 }, { seat: 2, from: 1, to: 1 }]]);
      // Bob's hold, still open when migrated, is ended by his new invite.
      const bob = await call(s.base, 'POST', `/api/races/${id}/moderator/invite`, { seat: 1 }, mod);
      assert.deepEqual((await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: bob.body.invite })).body.openedBefore, [{ seat: 1, from: 1, to: 1 }]);
    }, dialect);
  });
}
