import { test } from 'node:test';
import { sql } from 'kysely';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { makeSetup, type GameState, type Setup } from '../../engine/src/index.js';
import { COURSES_DIR, courseFromJson } from '../../boards/src/index.js';
import { botFacings, decideBots, entrants, startRace, type BotSeat, type SeatPlan } from '../../driver/src/index.js';
import { buildApp } from './app.js';
import { BotPool, DECISION_MS } from './bot-pool.js';
import { shippedCourses } from './courses.js';
import type { BotPlanner } from './planner.js';
import { RaceService } from './races.js';
import { call, freshDb, rigRaceState, TestClock, until, seatedRace, createSeated } from './testing.js';

/** A race on a shipped course with two people and two strong bots, its first turn dealt. */
function race(seed: number): { setup: Setup; dealt: GameState; bots: BotSeat[] } {
  const course = shippedCourses().get('first-shift')!;
  const made = makeSetup(course.board, 'classic', {}, course.boards.length);
  assert.ok(made.ok);
  const setup = made.value;
  const bots: BotSeat[] = [{ seat: 2, level: 'strong' }, { seat: 3, level: 'strong' }];
  const robots = entrants(setup, course, [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', level: 'strong' }, { name: 'Zap', level: 'strong' }], seed);
  assert.ok(robots.ok);
  const started = startRace(setup, robots.value, seed);
  assert.ok(started.ok);
  return { setup, dealt: started.value.dealt.state, bots };
}

/** The pool's decision once it is made (or given up for the fallback). */
async function plan(pool: BotPool, ...a: Parameters<BotPool['decided']>) {
  await pool.ready(...a);
  const got = pool.decided(...a);
  assert.ok(got, 'decided once ready');
  return got;
}

test('the pool decides the bots of a turn on a thread exactly as the driver does in the process', async () => {
  const pool = new BotPool({ size: 2, log: (l) => assert.fail(l) });
  try {
    for (const seed of [1, 2, 3]) {
      const { setup, dealt, bots } = race(seed);
      pool.dealt(`r${seed}`, 1, setup, dealt, bots, seed);
      assert.deepEqual(await plan(pool, `r${seed}`, 1, setup, dealt, bots, seed), decideBots(setup, dealt, bots, seed));
    }
    // Asked for without being started first: null (it never waits), and started then.
    const { setup, dealt, bots } = race(4);
    assert.equal(pool.decided('r4', 1, setup, dealt, bots, 4), null);
    assert.deepEqual(await plan(pool, 'r4', 1, setup, dealt, bots, 4), decideBots(setup, dealt, bots, 4));
    assert.equal(pool.counts.decided, 4);
  } finally {
    await pool.close();
  }
});

test('a decision not back within its budget is replaced by the random level, and the pool says so', async () => {
  const lines: string[] = [];
  const pool = new BotPool({ size: 1, budgetMs: 1, log: (l) => lines.push(l) });
  try {
    const { setup, dealt, bots } = race(5);
    pool.dealt('late', 1, setup, dealt, bots, 5);
    const got = await plan(pool, 'late', 1, setup, dealt, bots, 5);
    assert.deepEqual(got, decideBots(setup, dealt, bots.map((b) => ({ seat: b.seat, level: 'random' as const })), 5));
    assert.equal(pool.counts.late, 1);
    assert.match(lines[0]!, /^bots of race late, turn 1: late \(budget 1 ms\); they play the random fallback$/);
  } finally {
    await pool.close();
  }
});

/** A thread at nice 10 on a loaded machine (ci2: load 15 on 2 cores) gets little of the CPU: its
 *  first decision, the bots' modules and the course's maps loaded first, took over 10 s. */
const THREAD_WAIT_MS = 60_000;

test('a decision made while nobody waits for it is not late: the budget runs from when the turn takes it', async () => {
  const pool = new BotPool({ size: 1, budgetMs: 1, log: (l) => assert.fail(l) });
  try {
    const { setup, dealt, bots } = race(8);
    pool.dealt('early', 1, setup, dealt, bots, 8);
    // Far past the 1 ms budget by the time the thread answers, but nobody had asked for it yet.
    await until('the thread decided', () => pool.counts.decided === 1, THREAD_WAIT_MS);
    assert.deepEqual(await plan(pool, 'early', 1, setup, dealt, bots, 8), decideBots(setup, dealt, bots, 8));
    assert.equal(pool.counts.late, 0);
  } finally {
    await pool.close();
  }
});

test('a decision a turn waits for goes ahead of decisions only dealt', async () => {
  // No urgent thread: the order of the one thread's queue alone.
  const pool = new BotPool({ size: 1, urgent: 0, log: (l) => assert.fail(l) });
  try {
    const { setup, dealt, bots } = race(9);
    // The one thread takes the first; the second and third wait, in the order dealt.
    for (const r of ['first', 'second', 'third']) pool.dealt(r, 1, setup, dealt, bots, 9);
    const third = await plan(pool, 'third', 1, setup, dealt, bots, 9);
    assert.deepEqual(third, decideBots(setup, dealt, bots, 9));
    // Answers come one at a time: when the third's is in, the second has not been made.
    assert.equal(pool.counts.decided, 2);
    await plan(pool, 'second', 1, setup, dealt, bots, 9);
    await plan(pool, 'first', 1, setup, dealt, bots, 9);
    assert.equal(pool.counts.decided, 3);
  } finally {
    await pool.close();
  }
});

test('a decision a turn waits for goes to the thread at the server\'s priority, whether it was still queued or being made at nice 10', async () => {
  const pool = new BotPool({ size: 1, log: (l) => assert.fail(l) });
  try {
    assert.equal(pool.size, 2, 'one thread at nice 10 and one urgent thread');
    const { setup, dealt, bots } = race(11);
    // The thread at nice 10 takes the first; the second and third wait for it.
    for (const r of ['first', 'second', 'third']) pool.dealt(r, 1, setup, dealt, bots, 11);
    assert.equal(pool.counts.urgent, 0, 'nothing goes to the urgent thread while no turn waits');
    // The third is taken (its turn waits): it is sent to the urgent thread at once, not queued behind the second.
    assert.equal(pool.decided('third', 1, setup, dealt, bots, 11), null);
    assert.equal(pool.counts.urgent, 1);
    assert.deepEqual(await plan(pool, 'third', 1, setup, dealt, bots, 11), decideBots(setup, dealt, bots, 11));
    // One being made at nice 10 when its turn takes it is made on the urgent thread too; the first answer counts.
    await until('both threads are idle', () => pool.counts.decided === 3, THREAD_WAIT_MS);
    pool.dealt('fourth', 1, setup, dealt, bots, 11);
    assert.equal(pool.decided('fourth', 1, setup, dealt, bots, 11), null);
    assert.equal(pool.counts.urgent, 2);
    assert.deepEqual(await plan(pool, 'fourth', 1, setup, dealt, bots, 11), decideBots(setup, dealt, bots, 11));
  } finally {
    await pool.close();
  }
});

/** The nice value of each thread of this process (Linux: the 19th field of /proc/self/task/{tid}/stat). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

test("the pool's threads run below the event loop's priority, so requests are served first", { skip: !existsSync('/proc/thread-self') && 'no /proc/thread-self (not Linux)' }, async () => {
  const before = threadNices().filter((n) => n === 7).length;
  const pool = new BotPool({ size: 2, nice: 7, log: (l) => assert.fail(l) });
  try {
    const { setup, dealt, bots } = race(10);
    // Each thread has begun once it has answered.
    await Promise.all([plan(pool, 'a', 1, setup, dealt, bots, 10), plan(pool, 'b', 1, setup, dealt, bots, 10)]);
    assert.equal(threadNices().filter((n) => n === 7).length - before, 2);
    assert.equal(threadNices()[0], getPriority(), 'the event loop keeps its priority');
  } finally {
    await pool.close();
  }
});

test('a thread that dies is replaced: its decision gets the fallback and the next decisions are made by the new thread', async () => {
  const lines: string[] = [];
  const pool = new BotPool({ size: 1, urgent: 0, log: (l) => lines.push(l) });
  try {
    const { setup, dealt, bots } = race(6);
    pool.dealt('dies', 1, setup, dealt, bots, 6);
    // The thread is ended under the pool while it decides.
    const threads = (pool as unknown as { threads: { worker: { terminate(): Promise<number> } }[] }).threads;
    await threads[0]!.worker.terminate();
    const got = await plan(pool, 'dies', 1, setup, dealt, bots, 6);
    assert.deepEqual(got, decideBots(setup, dealt, bots.map((b) => ({ seat: b.seat, level: 'random' as const })), 6));
    assert.equal(pool.counts.failed, 1);
    assert.match(lines[0]!, /its thread exited/);
    assert.deepEqual(await plan(pool, 'after', 1, setup, dealt, bots, 6), decideBots(setup, dealt, bots, 6));
    assert.equal(pool.size, 1);
  } finally {
    await pool.close();
  }
});

test('a decision that fails on its thread (a setup the engine refuses) gets the fallback; the thread goes on', async () => {
  const lines: string[] = [];
  const pool = new BotPool({ size: 1, log: (l) => lines.push(l) });
  try {
    const { setup, dealt, bots } = race(7);
    const broken = { ...setup, rules: { ...setup.rules, name: 'no-such-rules' } } as Setup;
    const got = await plan(pool, 'broken', 1, broken, dealt, bots, 7);
    assert.deepEqual(got, decideBots(setup, dealt, bots.map((b) => ({ seat: b.seat, level: 'random' as const })), 7));
    assert.match(lines[0]!, /failed: rules: unknown rule set/);
    assert.deepEqual(await plan(pool, 'fine', 1, setup, dealt, bots, 7), decideBots(setup, dealt, bots, 7));
  } finally {
    await pool.close();
  }
});

test("as the race service's planner, the pool starts deciding when a turn is dealt, and the turn is played with the bots' orders from the thread", async () => {
  const courses = shippedCourses();
  const { db } = await freshDb('sqlite');
  const pool = new BotPool({ size: 1, log: (l) => assert.fail(l) });
  try {
    const service = new RaceService({ db, clock: new TestClock(), course: (n) => courses.get(n), planner: pool });
    const created = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'strong' }, { name: 'Zap', bot: 'strong' }], deadline: { kind: 'live', seconds: 3600 } });
    assert.ok(created.ok);
    const { id } = created.value;
    // Dealt at creation: the thread decides before anybody's orders are in.
    await until('the bots decided on the thread', () => pool.counts.decided === 1, THREAD_WAIT_MS);
    const you = await service.seat(id, 0, created.value.seats[0]!.token!);
    assert.ok(you.ok);
    const y = (you.value as unknown as { you: { hand: string[]; openRegisters: number[] } }).you;
    const sent = await service.submit(id, 0, { token: created.value.seats[0]!.token! }, { turn: 1, program: y.hand.slice(0, y.openRegisters.length) });
    assert.ok(sent.ok);
    const view = await until('turn 1 played', async () => {
      const v = await service.view(id);
      return v.ok && (v.value as unknown as { turn: number }).turn === 2 ? v.value : null;
    });
    assert.ok(view);
    // Turn 2 was dealt, and its decision made on the thread without anybody asking.
    await until('the bots of turn 2 decided', () => pool.counts.decided === 2, THREAD_WAIT_MS);
  } finally {
    await pool.close();
    await db.destroy();
  }
});

test("the expert's time for a decision is the pool's decisionMs (90 ms by default), at most half the turn's wait", async () => {
  const pools = [new BotPool({ size: 1, urgent: 0 }), new BotPool({ size: 1, urgent: 0, decisionMs: 500 }), new BotPool({ size: 1, urgent: 0, budgetMs: 100, decisionMs: 500 })];
  try {
    assert.equal(DECISION_MS, 90);
    assert.deepEqual(pools.map((p) => p.decisionMs), [90, 500, 50]);
  } finally {
    for (const p of pools) await p.close();
  }
});

test('the pool chooses a new race\'s bots\' starting facings on a thread exactly as the driver\'s entrants does in the process', async () => {
  const pool = new BotPool({ size: 1, log: (l) => assert.fail(l) });
  try {
    for (const name of ['first-shift', 'cube-works']) {
      const course = shippedCourses().get(name)!;
      const made = makeSetup(course.board, 'classic', {}, course.boards.length);
      assert.ok(made.ok);
      const seats: SeatPlan[] = [{ name: 'Ava' }, { name: 'Bolt', level: 'strong' }, { name: 'Zap', level: 'expert' }, { name: 'Gus', level: 'greedy' }, { name: 'Rex', level: 'random' }, { name: 'Dot', level: 'strong', dir: 2 }];
      for (const seed of [1, 2]) {
        const placed = entrants(made.value, course, seats, seed);
        assert.ok(placed.ok);
        const faced = await pool.facings(made.value, course, seats, seed);
        assert.deepEqual(faced, botFacings(made.value, course, seats, seed));
        assert.deepEqual(Object.keys(faced), ['1', '2', '3', '4'], 'the bots without a facing, by seat');
        for (const [k, dir] of Object.entries(faced)) assert.equal(dir, placed.value[Number(k)]!.dir, `${name}, seed ${seed}, seat ${k}`);
      }
    }
  } finally {
    await pool.close();
  }
});

/** A race with six strong bots on cube-works sent as the race's own course object (its maps made for its own board). */
const CUBE = JSON.parse(readFileSync(join(COURSES_DIR, 'cube-works.json'), 'utf8'));
const sixStrong = (seed: number) => ({ course: { ...CUBE, name: 'My cube' }, deal: { secret: false, seed }, seats: [{ name: 'Ava' }, ...['B', 'C', 'D', 'E', 'F', 'G'].map((n) => ({ name: n, bot: 'strong' }))], deadline: { kind: 'live', seconds: 3600 } });

test('a race created with the bot pool as its planner has the same robots\' starting facings as one whose bots chose in the process', { timeout: 120_000 }, async () => {
  const courses = shippedCourses();
  const pooled = await freshDb('sqlite');
  const inProcess = await freshDb('sqlite');
  const pool = new BotPool({ size: 1, log: (l) => assert.fail(l) });
  try {
    const withPool = new RaceService({ db: pooled.db, clock: new TestClock(), course: (n) => courses.get(n), planner: pool });
    const inPlace = new RaceService({ db: inProcess.db, clock: new TestClock(), course: (n) => courses.get(n) });
    for (const body of [sixStrong(3), { course: 'first-shift', deal: { secret: false, seed: 4 }, seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'strong' }, { name: 'Zap', bot: 'expert' }, { name: 'Gus', bot: 'greedy' }] }]) {
      const a = await withPool.create(body);
      const b = await inPlace.create(body);
      assert.ok(a.ok && b.ok);
      const dirs = async (db: typeof pooled.db, id: string) => (await rigRaceState(db, id, () => undefined)).robots.map((r) => r.dir);
      assert.deepEqual(await dirs(pooled.db, a.value.id), await dirs(inProcess.db, b.value.id));
    }
  } finally {
    await pool.close();
    await pooled.db.destroy();
    await inProcess.db.destroy();
  }
});

/** A /api/health sent the moment `around`'s work is asked of the pool, and the order in which it and the work come back. */
function healthDuring(base: () => string) {
  const order: string[] = [];
  let health: Promise<number> | null = null;
  return {
    order,
    health: () => health,
    async around<T>(what: string, work: () => Promise<T>): Promise<T> {
      health = call(base(), 'GET', '/api/health').then((r) => (order.push('health'), r.status));
      const got = await work();
      order.push(what);
      return got;
    },
  };
}

test('while the pool chooses the facings of six strong bots on a course of the race\'s own, the server answers /api/health', { timeout: 120_000 }, async () => {
  const courses = shippedCourses();
  const { db } = await freshDb('sqlite');
  const pool = new BotPool({ size: 1, log: (l) => assert.fail(l) });
  let base = '';
  // The facings asked of the pool: a /api/health sent as they are asked is answered before they are back.
  const during = healthDuring(() => base);
  const planner: BotPlanner = {
    decided: (...a) => pool.decided(...a), ready: (...a) => pool.ready(...a),
    facings: (...a) => during.around('facings', () => pool.facings(...a)),
  };
  const service = new RaceService({ db, clock: new TestClock(), course: (n) => courses.get(n), planner });
  const app = await buildApp({ service, courses: () => [...courses].map(([name, course]) => ({ name, course })) });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const created = await createSeated(base, sixStrong(5));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.ok(during.health(), 'the facings were asked of the planner');
    assert.equal(await during.health(), 200);
    assert.deepEqual(during.order, ['health', 'facings'], 'the server answered while the facings were chosen');
  } finally {
    await app.close();
    await pool.close();
    await db.destroy();
  }
});

/** Courses of a race's own that are refused: a flag nobody reaches, a board that is no board, a start off the course. */
const BAD_COURSES = [
  { ...CUBE, flags: [...CUBE.flags.slice(0, -1), [-1, 0]] },
  { ...CUBE, boards: [{ board: 'no-such-board', x: 0, y: 0, rotation: 0 }] },
  { ...CUBE, start: [999, 999] },
];

test('the pool reads a course of a race\'s own on a thread exactly as the boards\' courseFromJson does in the process, its refusals included', { timeout: 120_000 }, async () => {
  const pool = new BotPool({ size: 1, log: (l) => assert.fail(l) });
  try {
    const good = await pool.course({ ...CUBE, name: 'My cube' });
    assert.ok(good?.ok);
    assert.deepEqual(good, courseFromJson({ ...CUBE, name: 'My cube' }));
    for (const bad of BAD_COURSES) {
      const read = await pool.course(bad);
      assert.equal(read?.ok, false, JSON.stringify(bad.flags));
      assert.deepEqual(read, courseFromJson(bad));
    }
  } finally {
    await pool.close();
  }
});

test('while the pool reads a course of the race\'s own, the server answers /api/health; a bad one is refused with the field and what was expected', { timeout: 120_000 }, async () => {
  const courses = shippedCourses();
  const { db } = await freshDb('sqlite');
  const pool = new BotPool({ size: 1, log: (l) => assert.fail(l) });
  let base = '';
  // The course given to the pool: a /api/health sent as it is is answered before the course is back.
  const during = healthDuring(() => base);
  const readCourse = (json: unknown) => during.around('course', () => pool.course(json));
  const service = new RaceService({ db, clock: new TestClock(), course: (n) => courses.get(n), planner: pool, readCourse });
  const app = await buildApp({ service, courses: () => [...courses].map(([name, course]) => ({ name, course })) });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const body = { course: { ...CUBE, name: 'My cube' }, deal: { secret: false, seed: 6 }, seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 } };
    const created = await createSeated(base, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.ok(during.health(), 'the course was given to the pool');
    assert.equal(await during.health(), 200);
    assert.deepEqual(during.order, ['health', 'course'], 'the server answered while the course was read');
    const view = await call(base, 'GET', `/api/races/${created.body.id}`);
    assert.equal(view.status, 200);
    for (const bad of BAD_COURSES) {
      const refused = await createSeated(base, { ...body, course: bad });
      const expected = courseFromJson(bad);
      assert.ok(!expected.ok);
      assert.deepEqual([refused.status, refused.body.error.field, refused.body.error.message], [422, expected.error.field, expected.error.message]);
    }
  } finally {
    await app.close();
    await pool.close();
    await db.destroy();
  }
});

test('a course of a race\'s own not back within the budget is given up (null), never read on the event loop, and logged', { timeout: 120_000 }, async () => {
  const logged: string[] = [];
  // A budget no thread meets: cube-works' checks take some 0.4 s.
  const pool = new BotPool({ size: 1, budgetMs: 1, log: (l) => logged.push(l) });
  try {
    assert.equal(await pool.course({ ...CUBE, name: 'My cube' }), null);
    assert.deepEqual(logged, ['a race\'s own course: late (budget 1 ms); the creation is refused']);
  } finally {
    await pool.close();
  }
});

test('the pool reads at most `courses` courses of races\' own at once: one more waits in line for a place and is read once the thread is done; more than the line holds are refused at once (null), and one whose wait ends first is refused then', { timeout: 120_000 }, async () => {
  const pool = new BotPool({ size: 1, courses: 1, courseQueue: 1, log: (l) => assert.fail(l) });
  try {
    const first = pool.course({ ...CUBE, name: 'My cube' });
    const second = pool.course({ ...CUBE, name: 'Another cube' });
    assert.equal(await pool.course({ ...CUBE, name: 'A third cube' }), null, 'the line is full');
    assert.deepEqual(await first, courseFromJson({ ...CUBE, name: 'My cube' }));
    assert.deepEqual(await second, courseFromJson({ ...CUBE, name: 'Another cube' }), 'read once the first was done');
  } finally {
    await pool.close();
  }
  const hurried = new BotPool({ size: 1, courses: 1, courseWaitMs: 1, log: (l) => assert.fail(l) });
  try {
    const first = hurried.course({ ...CUBE, name: 'My cube' });
    assert.equal(await hurried.course({ ...CUBE, name: 'Another cube' }), null, 'no place within its wait');
    assert.deepEqual(await first, courseFromJson({ ...CUBE, name: 'My cube' }));
  } finally {
    await hurried.close();
  }
});

test('a course read that outlasts the budget and the hang allowance is ended: its thread is replaced (freeing its reading place), and the pool says so', { timeout: 120_000 }, async () => {
  const logged: string[] = [];
  // cube-works' checks take some 0.2 s: far more than 1 ms of budget and 1 ms of allowance, as a read that never ends would.
  const pool = new BotPool({ size: 1, courses: 1, budgetMs: 1, hungMs: 1, log: (l) => logged.push(l) });
  try {
    assert.equal(await pool.course({ ...CUBE, name: 'My cube' }), null);
    await until('the hung read given up', () => logged.some((l) => l.includes('its thread hung reading it')));
    assert.ok(logged.some((l) => /^a race's own course: its thread hung reading it \(over 2 ms\); the thread is replaced$/.test(l)), logged.join('\n'));
  } finally {
    await pool.close();
  }
});

test('a creation whose course of its own the pool cannot read just now is refused 503 with Retry-After, naming the course, and creates nothing', { timeout: 120_000 }, async () => {
  const courses = shippedCourses();
  const { db } = await freshDb('sqlite');
  const service = new RaceService({ db, clock: new TestClock(), course: (n) => courses.get(n), readCourse: async () => null });
  const app = await buildApp({ service, courses: () => [...courses].map(([name, course]) => ({ name, course })) });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const res = await fetch(`${base}/api/races`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ course: { ...CUBE, name: 'My cube' }, seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 } }) });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '5');
    assert.equal(((await res.json()) as { error: { field: string } }).error.field, 'course');
    assert.equal(Number((await sql<{ n: number }>`select count(*) as n from races`.execute(db)).rows[0]!.n), 0);
  } finally {
    await app.close();
    await db.destroy();
  }
});
