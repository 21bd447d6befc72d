import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COURSES_DIR } from '../../boards/src/index.js';
import assert from 'node:assert/strict';
import { buildApp, type AppOptions } from './app.js';
import { shippedCourses } from './courses.js';
import { RaceService } from './races.js';
import { freshDb, TestClock, call } from './testing.js';

const courses = shippedCourses();
const cube = JSON.parse(readFileSync(join(COURSES_DIR, 'cube-works.json'), 'utf8'));

/** A server that mails, over a fresh SQLite database, clients told apart by X-Forwarded-For; `readCourse` stands for the bot pool's. */
async function server(o: Partial<AppOptions> & { readCourse?: (json: unknown) => Promise<null> }) {
  const { db } = await freshDb('sqlite');
  const service = new RaceService({ db, clock: new TestClock(), course: (n) => courses.get(n), ...(o.readCourse ? { readCourse: o.readCourse } : {}) });
  const app = await buildApp({ service, courses: () => [...courses].map(([name, course]) => ({ name, course })), rateLimit: { max: 1000, windowMs: 60_000 }, trustProxy: '127.0.0.1', mail: true, ...o });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return { base: `http://127.0.0.1:${port}`, close: async () => (await app.close(), await db.destroy()) };
}

test('a creation the server refuses 503 (its course not read in time) does not count against RACES_PER_MINUTE, and a retry with the same Idempotency-Key counts once', { timeout: 30_000 }, async () => {
  const s = await server({ racesPerMinute: 2, readCourse: async () => null });
  const own = { course: { ...cube, name: 'My cube' }, seats: [{ name: 'Ava' }] };
  const race = (body: object, key?: string) => call(s.base, 'POST', '/api/races', body, { 'x-forwarded-for': '10.0.0.1', ...(key ? { 'idempotency-key': key } : {}) });
  try {
    for (let i = 0; i < 4; i++) {
      const r = await race(own, 'retried-key-0000001');
      assert.deepEqual([r.status, r.body.error?.field], [503, 'course'], `try ${i + 1}`);
    }
    const shipped = { course: 'first-shift', seats: [{ name: 'Ava' }] };
    const first = await race(shipped, 'a-key-for-one-race-1');
    assert.equal(first.status, 201, 'the 503s used none of the two creations');
    assert.equal((await race(shipped, 'a-key-for-one-race-1')).status, 201, 'the same key again: the same race, not counted again');
    assert.equal((await race(shipped, 'a-key-for-one-race-1')).body.id, first.body.id);
    assert.equal((await race(shipped)).status, 201, 'the second creation of the minute');
    const third = await race(shipped);
    assert.deepEqual([third.status, third.body.error?.field], [429, 'races']);
  } finally {
    await s.close();
  }
});

test('a request with the Idempotency-Key of a creation still being answered counts as a creation of its own (only a retry of a race made is free)', { timeout: 30_000 }, async () => {
  let let_go = () => undefined as void;
  const held = new Promise<void>((r) => (let_go = r));
  const s = await server({ racesPerMinute: 1, readCourse: async () => (await held, null) });
  const race = (name: string) => call(s.base, 'POST', '/api/races', { course: { ...cube, name }, seats: [{ name: 'Ava' }] }, { 'x-forwarded-for': '10.0.0.1', 'idempotency-key': 'one-key-many-bodies-1' });
  try {
    const first = race('Mine');
    const second = await race('Another');
    assert.deepEqual([second.status, second.body.error?.field], [429, 'races'], 'not a free creation while the first is read');
    let_go();
    assert.equal((await first).status, 503);
  } finally {
    let_go();
    await s.close();
  }
});

test('a client address seats so many addresses that never answered (strangers) in 24 hours, and all clients so many: one more is refused 429 naming its seat\'s email, nothing made', { timeout: 30_000 }, async () => {
  const answered = new Set(['player@example.org']);
  const asked: string[][] = [];
  const s = await server({ strangers: { perAddress: 3, perDay: 5, neverAnswered: async (a) => (asked.push([...a]), a.filter((x) => !answered.has(x))) } });
  const race = (ip: string, emails: string[]) => call(s.base, 'POST', '/api/races', { course: 'first-shift', seats: emails.map((email, i) => ({ name: `P${i}`, email })) }, { 'x-forwarded-for': ip });
  try {
    // A creation refused otherwise (no such course) gives its stranger back.
    assert.equal((await call(s.base, 'POST', '/api/races', { course: 'no-such-course', seats: [{ name: 'P', email: 'z@example.net' }] }, { 'x-forwarded-for': '10.0.0.1' })).status, 422);
    assert.equal((await race('10.0.0.1', ['a@example.net', 'B@example.net'])).status, 201);
    assert.deepEqual(asked[1], ['a@example.net', 'b@example.net'], 'asked lower-cased');
    const refused = await race('10.0.0.1', ['Player@example.org', 'a@example.net', 'c@example.net', 'd@example.net']);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.field, 'seats[3].email', 'the fourth stranger of the address');
    assert.match(refused.body.error.message, /at most 3 addresses from one client address in 24 hours/);
    assert.equal((await race('10.0.0.1', ['player@example.org', 'a@example.net', 'C@example.net'])).status, 201, 'an address that answered and one seated before count no more; the third stranger is taken');
    assert.equal((await race('10.0.0.1', ['e@example.net'])).status, 429);
    assert.equal((await race('10.0.0.2', ['e@example.net', 'f@example.net'])).status, 201, 'another client address has its own');
    const all = await race('10.0.0.3', ['a@example.net', 'g@example.net']);
    assert.deepEqual([all.status, all.body.error.field], [429, 'seats[1].email'], 'five strangers in all: a sixth is refused to anybody');
    assert.match(all.body.error.message, /at most 5 addresses in all/);
    assert.equal((await race('10.0.0.3', ['a@example.net'])).status, 201, 'one already seated today is no new stranger');
  } finally {
    await s.close();
  }
});
