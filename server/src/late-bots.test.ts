/**
 * No request waits on a bot: when the people's last orders arrive before the bots have decided,
 * the PUT stores them and answers at once, and the turn is played (announced on the stream as
 * usual) when the bots' decision arrives; orders acknowledged meanwhile survive the process, and a
 * process started afterwards plays the turn.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from './app.js';
import { BotPool } from './bot-pool.js';
import { shippedCourses } from './courses.js';
import { inProcessPlanner, type BotPlanner } from './planner.js';
import { RaceService } from './races.js';
import { openDb } from './db.js';
import { call, dropSchema, freshDb, postgresAnswers, streamClient, TestClock, until, createSeated, seatedRace } from './testing.js';

const courses = shippedCourses();
const havePostgres = await postgresAnswers();

/** A planner whose bots decide (in the process) only once `release` is called. */
function gatedPlanner(): BotPlanner & { release(): void; asked: number } {
  let open = false;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const p = {
    asked: 0,
    decided: (...a: Parameters<BotPlanner['decided']>) => {
      p.asked++;
      return open ? inProcessPlanner.decided(...a) : null;
    },
    ready: () => gate,
    release: () => {
      open = true;
      release();
    },
  };
  return p;
}

async function serve(planner: BotPlanner, file?: string) {
  const { db, file: f } = await freshDb('sqlite', file, { tables: file === undefined });
  const service = new RaceService({ db, clock: new TestClock(), course: (n) => courses.get(n), planner });
  const app = await buildApp({ service, courses: () => [...courses].map(([name, course]) => ({ name, course })) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return { base, service, db, file: f!, close: async () => (await app.close(), await db.destroy()) };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function sendFirstCards(base: string, id: string, seat: number, token: string) {
  const you = (await call(base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(token))).body;
  const program = you.you.hand.slice(0, you.you.openRegisters.length) as string[];
  const r = await call(base, 'PUT', `/api/races/${id}/seats/${seat}/orders`, { turn: you.turn, program }, auth(token));
  return { ...r, program };
}

test('the last orders of a turn are answered before the bots have decided; the turn is played once they have, and the stream carries it', { timeout: 60_000 }, async () => {
  const planner = gatedPlanner();
  const s = await serve(planner);
  try {
    const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'strong' }], deadline: { kind: 'live', seconds: 3600 } })).body;
    const stream = streamClient(`${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`);
    await stream.ready;
    const put = await sendFirstCards(s.base, race.id, 0, race.seats[0].token);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.ok(planner.asked > 0, 'the PUT asked whether the bots had decided');
    const waiting = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    assert.equal(waiting.turn, 1, 'not played while the bots decide');
    assert.equal(waiting.seats[0].submitted, true, 'the orders are stored');
    await until('the submitted entry on the stream', () => stream.types.includes('submitted'));
    assert.ok(!stream.types.includes('turnEnded'));
    planner.release();
    await until('turn 1 played and on the stream', () => stream.played.includes(1));
    assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn, 2);
    const events = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { turn: number; event: { type: string; robot?: number; register?: number; card?: number } }[];
    assert.equal(events.filter((e) => e.event.type === 'turnEnded').length, 1, 'played once');
    assert.ok(!events.some((e) => e.event.type === 'filled' && (e.event as { seat?: number }).seat === 0), 'Ava\'s program was played as sent');
    stream.close();
  } finally {
    await s.close();
  }
});

test('with the bot pool behind on its work, the last PUT answers before the pool has decided, and the turn is played with the pool\'s decision once it has', { timeout: 120_000 }, async () => {
  const pool = new BotPool({ size: 1, budgetMs: 100_000, log: (l) => assert.fail(l) });
  const s = await serve(pool);
  try {
    const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'strong' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 9 } })).body;
    const setup = s.service.setupOf({ course: 'first-shift', rules: 'classic', settings: '{}' });
    const dealt = JSON.parse((await s.db.selectFrom('turns').select('dealt').where('race_id', '=', race.id).executeTakeFirstOrThrow()).dealt);
    const bots = [{ seat: 1, level: 'strong' as const }];
    // Turn 1's decision was started at the deal; once it is made, the pool's one thread is given
    // 100 decisions of other races, so that turn 2's, asked for when turn 1 is played, comes after them.
    await until('turn 1\'s decision', () => pool.counts.decided === 1);
    for (let k = 0; k < 100; k++) pool.dealt(`other${k}`, 1, setup, dealt, bots, k);
    const queued = pool.counts.decided;
    assert.equal((await sendFirstCards(s.base, race.id, 0, race.seats[0].token)).status, 200);
    assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn, 2, 'turn 1 was played in its PUT: its bots had decided');
    const put = await sendFirstCards(s.base, race.id, 0, race.seats[0].token);
    const decidedWhenAnswered = pool.counts.decided - queued;
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.ok(decidedWhenAnswered <= 100, `the PUT answered once ${decidedWhenAnswered} decisions were made since turn 2's was asked for, the 101st`);
    await until('turn 2 played once the pool decided', async () => (await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn === 3, 100_000);
    assert.equal(pool.counts.late + pool.counts.failed + pool.counts.full, 0, 'nothing fell back');
  } finally {
    await s.close();
    await pool.close();
  }
});

test('orders acknowledged while the bots decide survive the process; a process started afterwards plays the turn with them', { timeout: 60_000 }, async () => {
  const first = await serve(gatedPlanner());
  const race = (await createSeated(first.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'strong' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 4 } })).body;
  const sent = [];
  for (const seat of [0, 1]) {
    const r = await sendFirstCards(first.base, race.id, seat, race.seats[seat].token);
    assert.equal(r.status, 200);
    sent.push(r.program);
  }
  // The process goes away before its bots decide (its planner never answers).
  await first.close();
  const second = await serve(inProcessPlanner, first.file);
  try {
    assert.equal((await call(second.base, 'GET', `/api/races/${race.id}`)).body.turn, 1);
    assert.equal(await second.service.resume(), 1, 'the turn whose orders were all in is played at start');
    const events = (await call(second.base, 'GET', `/api/races/${race.id}/events`)).body as { turn: number; event: { type: string; robot?: number; register?: number; card?: number } }[];
    const revealed = (seat: number) => events.filter((e) => e.turn === 1 && e.event.type === 'revealed' && e.event.robot === seat).length;
    assert.ok(revealed(0) > 0 && revealed(1) > 0);
    assert.ok(!events.some((e) => e.event.type === 'filled' && (e.event as { seat?: number }).seat !== 2), 'the people\'s programs were played as sent');
    assert.equal((await call(second.base, 'GET', `/api/races/${race.id}`)).body.turn, 2);
    assert.equal(await second.service.resume(), 0, 'nothing more to play');
  } finally {
    await second.close();
  }
});

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`[${kind}] a turn whose last orders wait for the bots of a process that went away is played by another process once its play_by has passed, and once`, { timeout: 60_000, skip: kind === 'postgres' && !havePostgres ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : false }, async () => {
    const clock = new TestClock();
    const fresh = await freshDb(kind);
    // Process A takes both people's last orders while its bots never decide, then goes away.
    const a = new RaceService({ db: fresh.db, clock, course: (n) => courses.get(n), planner: gatedPlanner(), takeoverMs: 15_000 });
    const race = await seatedRace(a, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'strong' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 4 } });
    assert.ok(race.ok);
    const { id } = race.value;
    for (const seat of [0, 1]) {
      const token = race.value.seats[seat]!.token!;
      const you = await a.seat(id, seat, token);
      assert.ok(you.ok);
      const put = await a.submit(id, seat, { token }, { turn: 1, program: you.value.you.hand.slice(0, you.value.you.openRegisters.length) });
      assert.ok(put.ok, JSON.stringify(put));
    }
    await fresh.db.destroy();
    // Process B, on the same database, with bots that decide at once.
    const { db } = kind === 'sqlite' ? openDb({ file: fresh.file! }) : openDb({ url: fresh.url! });
    const b = new RaceService({ db, clock, course: (n) => courses.get(n), planner: inProcessPlanner });
    try {
      const turnOf = async () => {
        const v = await b.view(id);
        assert.ok(v.ok);
        return v.value.turn;
      };
      clock.advance(14_000);
      assert.equal(await b.tick(), 0, 'before play_by the process that took the orders is trusted with the turn');
      assert.equal(await turnOf(), 1);
      clock.advance(1_001);
      assert.equal(await b.tick(), 1, 'past play_by the other process plays it');
      assert.equal(await turnOf(), 2);
      const ended = (await b.gameEvents(id)).filter((e) => e.type === 'turnEnded');
      assert.equal(ended.length, 1);
      clock.advance(60_000);
      assert.equal(await b.tick(), 0, 'nothing more to play: play_by went with the turn');
    } finally {
      await db.destroy();
      if (fresh.url) await dropSchema(fresh.url);
    }
  });
}
