/**
 * A race over is raced again once (docs/server.md, "Rematch"): the first to ask makes the rematch,
 * everyone after is answered the same race, and each person takes their own seats in it with the
 * token of their seats in the race over; nobody is given another's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDb } from './db.js';
import { call, createSeated, dropSchema, freshDb, postgresAnswers, startServer, until, type TestServer } from './testing.js';

const havePostgres = await postgresAnswers();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const KEY_A = 'browser-of-ava-0123456789', KEY_B = 'browser-of-bob-0123456789', KEY_C = 'browser-of-cy-01234567890';

/** A race of Ava, Bob (one turn: over once played) and a bot on server `s`, its seats taken; played to its end by the moderator. */
async function raceOver(s: TestServer, body: Record<string, unknown> = {}) {
  const made = await createSeated(s.base, {
    course: 'first-shift', rules: 'classic', settings: { turnLimit: 1 }, deadline: { kind: 'live', seconds: 600 },
    seats: [{ name: 'Ava', robot: 3 }, { name: 'Bob' }, { name: 'Bolt', bot: 'greedy' }], ...body,
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const { id, moderatorKey } = made.body as { id: string; moderatorKey: string };
  const mod = { 'x-moderator-key': moderatorKey };
  assert.equal((await call(s.base, 'POST', `/api/races/${id}/moderator/adjudicate`, {}, mod)).status, 200);
  await until('the race over', async () => (await call(s.base, 'GET', `/api/races/${id}`)).body.status === 'over');
  return { id, moderatorKey, mod, tokens: (made.body.seats as { token: string | null; invite: string | null }[]).map((x) => x.token), invites: (made.body.seats as { invite: string | null }[]).map((x) => x.invite) };
}

/**
 * The first look of each server's service for the race's rematch waits until both have looked:
 * the two requests both find none and both make one, as two processes asked at the same moment do.
 */
function lookTogether(servers: TestServer[]): void {
  let waiting = servers.length;
  let all!: () => void;
  const together = new Promise<void>((r) => (all = r));
  for (const s of servers) {
    const repo = (s.service as unknown as { repo: { rematchOf: (id: string) => Promise<string | undefined> } }).repo;
    const look = repo.rematchOf.bind(repo);
    repo.rematchOf = async (id) => {
      repo.rematchOf = look;
      const found = await look(id);
      if (--waiting === 0) all();
      await together;
      return found;
    };
  }
}

const rematch = (s: TestServer, id: string, seat: number, token: string, browser: string) => call(s.base, 'POST', `/api/races/${id}/seats/${seat}/rematch`, { browser }, auth(token));

for (const dialect of ['sqlite', 'postgres'] as const) {
  const where = dialect === 'postgres' ? 'on two processes' : 'on one process (SQLite\'s one)';
  test(`[${dialect}] two people pressing Rematch at once, ${where}, make one race: each is answered it and takes their own seat in it with a token of their own; asked again, the same; the moderator is answered the same race and moderates it`, { skip: dialect === 'postgres' && !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' }, async () => {
    const { db, url } = await freshDb(dialect);
    // With PostgreSQL, a second process on the same database; SQLite is served by one.
    const two = dialect === 'postgres' ? openDb({ url: url! }).db : null;
    const s = await startServer(db);
    const t = two ? await startServer(two) : s;
    try {
      const { id, mod, tokens } = await raceOver(s);
      // Both processes look for the rematch before either has stored it (one process answers its requests of a race in line).
      if (two) lookTogether([s, t]);
      const [ava, bob] = await Promise.all([rematch(s, id, 0, tokens[0]!, KEY_A), rematch(t, id, 1, tokens[1]!, KEY_B)]);
      assert.deepEqual([ava.status, bob.status].sort(), [200, 201], `${JSON.stringify(ava.body)} ${JSON.stringify(bob.body)}`);
      assert.equal(ava.body.id, bob.body.id, 'one rematch');
      assert.deepEqual([ava.body.made, bob.body.made].sort(), [false, true]);
      const next = ava.body.id as string;
      assert.notEqual(next, id);
      assert.equal(Number((await sql<{ n: number }>`select count(*) as n from races`.execute(db)).rows[0]!.n), 2, 'two races in all');
      assert.deepEqual([ava.body.seats, bob.body.seats, ava.body.openedBefore], [[0], [1], []]);
      // Each token opens its own seat of the rematch, and no other; nobody's answer holds another's.
      assert.equal((await call(s.base, 'GET', `/api/races/${next}/seats/0`, undefined, auth(ava.body.token))).status, 200);
      assert.equal((await call(t.base, 'GET', `/api/races/${next}/seats/1`, undefined, auth(bob.body.token))).status, 200);
      assert.equal((await call(s.base, 'GET', `/api/races/${next}/seats/1`, undefined, auth(ava.body.token))).status, 401);
      assert.equal((await call(s.base, 'GET', `/api/races/${next}/seats/0`, undefined, auth(tokens[0]!))).status, 401, 'the old token is a way in, not the seat\'s token');
      assert.ok(!JSON.stringify(ava.body).includes(bob.body.token) && !JSON.stringify(bob.body).includes(ava.body.token));
      // The same race again: the same course, rules, settings, deadline and seats, running on its own.
      const view = (await call(s.base, 'GET', `/api/races/${next}`)).body;
      assert.deepEqual([view.status, view.course, view.rules, view.settings.turnLimit, view.deadline, view.series], ['running', 'first-shift', 'classic', 1, { kind: 'live', seconds: 600 }, null]);
      assert.deepEqual(view.seats.map((x: { name: string; kind: string }) => [x.name, x.kind]), [['Ava', 'human'], ['Bob', 'human'], ['Bolt', 'bot']]);
      assert.equal(view.seats[0].robot, 3);
      // Sent again by the same browser (its answer lost): the same token; by another browser, refused.
      const again = await rematch(t, id, 0, tokens[0]!, KEY_A);
      assert.deepEqual([again.status, again.body.id, again.body.token, again.body.made], [200, next, ava.body.token, false]);
      const other = await rematch(s, id, 0, tokens[0]!, KEY_B);
      assert.deepEqual([other.status, other.body.error?.field], [401, 'browser']);
      assert.equal(other.body.error?.message, `this seat's place in the rematch (race ${next}) was taken already, by the browser that pressed Rematch first with this seat's link: a seat is taken once, so open the rematch from that browser`, 'said of a rematch, not of an invite');
      // The moderator: the same race, which its key moderates.
      const moderated = await call(t.base, 'POST', `/api/races/${id}/moderator/rematch`, undefined, mod);
      assert.deepEqual([moderated.status, moderated.body], [200, { done: 'rematch', race: next, made: false }]);
      assert.equal((await call(s.base, 'POST', `/api/races/${next}/moderator/pause`, undefined, mod)).status, 200);
      assert.equal(Number((await sql<{ n: number }>`select count(*) as n from races`.execute(db)).rows[0]!.n), 2, 'still two races');
    } finally {
      await s.close();
      if (two) {
        await t.close();
        await two.destroy();
      }
      await db.destroy();
      await dropSchema(url);
    }
  });
}

test('a rematch is asked for by a seat\'s person with its token or by the moderator, once the race is over: a seat nobody took keeps its invite, a team its team, a course of the race\'s own is raced again; a wrong token, a bot\'s seat or a race running are refused', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const course = { name: 'Short Hop', players: [1, 4], complexity: 'easy', time: 'short', boards: [{ board: 'atoll', x: 0, y: 0, rotation: 0 }], flags: [[9, 3]], start: [10, 10] };
    const running = await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }] });
    assert.deepEqual([(await rematch(s, running.body.id, 0, running.body.seats[0].token, KEY_A)).body.error?.field], ['race']);
    // Cy's invite is never used: her seat's invite stays hers in the rematch.
    const made = await call(s.base, 'POST', '/api/races', {
      course, settings: { turnLimit: 1 }, deadline: { kind: 'live', seconds: 600 },
      seats: [{ name: 'Ava', team: 'Red' }, { name: 'Cy', team: 'Blue' }, { name: 'Bolt', bot: 'greedy', team: 'Red' }],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { id, moderatorKey, seats } = made.body;
    const ava = (await call(s.base, 'POST', `/api/races/${id}/claim`, { invite: seats[0].invite })).body.token as string;
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/moderator/adjudicate`, {}, { 'x-moderator-key': moderatorKey })).status, 200);
    await until('the race over', async () => (await call(s.base, 'GET', `/api/races/${id}`)).body.status === 'over');
    assert.equal((await rematch(s, id, 0, seats[0].invite, KEY_A)).status, 401, 'an invite is no seat\'s token');
    assert.equal((await rematch(s, id, 2, ava, KEY_A)).status, 403, 'a bot\'s seat');
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/moderator/rematch`, undefined, { 'x-moderator-key': 'x'.repeat(24) })).status, 401);
    assert.equal((await call(s.base, 'POST', `/api/races/${id}/seats/0/rematch`, { browser: 'short' }, auth(ava))).status, 422);
    const watched = await call(s.base, 'POST', `/api/races/${id}/moderator/rematch`, undefined, { 'x-moderator-key': moderatorKey });
    assert.deepEqual([watched.status, watched.body.made], [201, true]);
    const next = watched.body.race as string;
    const mine = await rematch(s, id, 0, ava, KEY_A);
    assert.deepEqual([mine.status, mine.body.id, mine.body.seats], [200, next, [0]]);
    const cy = await call(s.base, 'POST', `/api/races/${next}/claim`, { invite: seats[1].invite, browser: KEY_C });
    assert.deepEqual([cy.status, cy.body.seats], [200, [1]], JSON.stringify(cy.body));
    const view = (await call(s.base, 'GET', `/api/races/${next}`)).body;
    assert.deepEqual(view.settings.teams, { Red: ['Ava', 'Bolt'], Blue: ['Cy'] });
    assert.deepEqual((await call(s.base, 'GET', `/api/races/${next}/course`)).body.file, (await call(s.base, 'GET', `/api/races/${id}/course`)).body.file);
  } finally {
    await s.close();
    await db.destroy();
  }
});
