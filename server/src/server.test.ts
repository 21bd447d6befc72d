import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { cardName } from '../../engine/src/index.js';
import { call, freshDb, postgresAnswers, shownProgram, startServer, TestClock, until, createSeated } from './testing.js';

const havePostgres = await postgresAnswers();
const DIALECTS = ['sqlite', 'postgres'] as const;
const skipFor = (d: string) => (d === 'postgres' && !havePostgres ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : false);

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function newRace(base: string, body: Record<string, unknown> = {}) {
  const r = await createSeated(base, {
    course: 'first-shift',
    seats: [{ name: 'Ava' }, { name: 'Bob' }],
    deadline: { kind: 'live', seconds: 60 },
    deal: { secret: false, seed: 7 },
    ...body,
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body as { id: string; moderatorKey: string; seats: { seat: number; token: string | null; link: string | null }[] };
}

async function hand(base: string, id: string, seat: number, token: string): Promise<{ turn: number; hand: string[]; openRegisters: number[]; needsProgram: boolean }> {
  const r = await call(base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(token));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return { ...r.body.you, turn: r.body.turn };
}

async function programFirstCards(base: string, id: string, seat: number, token: string) {
  const you = await hand(base, id, seat, token);
  const program = you.needsProgram ? you.hand.slice(0, you.openRegisters.length) : [];
  return call(base, 'PUT', `/api/races/${id}/seats/${seat}/orders`, { turn: you.turn, program }, auth(token));
}

/** The cards a robot revealed in turn 1, by name. */
async function playedBy(base: string, id: string, robot: number): Promise<string[]> {
  const ev = (await call(base, 'GET', `/api/races/${id}/events`)).body as { turn: number; event: { type: string; robot?: number; card?: number } }[];
  return ev.filter((e) => e.turn === 1 && e.event.type === 'revealed' && e.event.robot === robot).map((e) => cardName(e.event.card!));
}

/** The revealed cards begin the program (a robot destroyed mid-turn reveals no more). */
const isPrefix = (played: string[], program: string[]) => played.length > 0 && played.every((c, k) => c === program[k]);

for (const dialect of DIALECTS) {
  test(`[${dialect}] a race of bots runs from creation to its winner, turn after turn`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const race = await newRace(s.base, { seats: [{ name: 'Bolt', bot: 'strong' }, { name: 'Cog', bot: 'greedy' }, { name: 'Dash', bot: 'random' }], deal: { secret: false, seed: 3 } });
      for (let k = 0; k < 200; k++) {
        const v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
        if (v.status === 'over') break;
        s.clock.advance(1000);
        await s.service.tick();
      }
      const v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      assert.equal(v.status, 'over');
      assert.ok(v.finished.length > 0 || v.robots.every((r: { status: string }) => r.status === 'out'));
      const rep = await call(s.base, 'GET', `/api/races/${race.id}/turns/1/report?format=text`);
      assert.equal(rep.status, 200);
      assert.match(rep.body, /Register 1\nDmg +Name +Move +Notes/);
      const picture = await fetch(`${s.base}/api/races/${race.id}/turns/1/picture.svg`);
      assert.equal(picture.headers.get('content-type'), 'image/svg+xml');
      const svg = await picture.text();
      assert.match(svg, /^<svg/);
      assert.match(svg, /class="move programmed"/);
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}/turns/999/picture.svg`)).status, 404);
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] people race: orders are checked, echoed, replaced until the turn is played, and the turn plays once all are in`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const race = await newRace(s.base);
      const [a, b] = race.seats.map((x) => x.token!);
      const bad = await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: ['F1:500'] }, auth(a!));
      assert.equal(bad.status, 422);
      assert.equal(bad.body.error.field, 'program');
      const you = await hand(s.base, race.id, 0, a!);
      const first = await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: you.hand.slice(0, 5) }, auth(a!));
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.orders.program, you.hand.slice(0, 5));
      const changed = await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: you.hand.slice(4, 9) }, auth(a!));
      assert.deepEqual(changed.body.orders.program, you.hand.slice(4, 9));
      let v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      assert.equal(v.turn, 1);
      assert.deepEqual(v.seats.map((x: { submitted: boolean }) => x.submitted), [true, false]);
      await programFirstCards(s.base, race.id, 1, b!);
      v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      assert.equal(v.turn, 2);
      // What Ava last sent is what her robot played (as long as it stayed on the board).
      assert.ok(isPrefix(await playedBy(s.base, race.id, 0), you.hand.slice(4, 9)));
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] nobody sees another seat's hand or orders before the turn is played, through any endpoint or the stream`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const race = await newRace(s.base);
      const [a, b] = race.seats.map((x) => x.token!);
      const bHand = (await hand(s.base, race.id, 1, b!)).hand;
      await programFirstCards(s.base, race.id, 1, b!);
      const wsText: string[] = [];
      const ws = new WebSocket(`${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`);
      ws.on('message', (m) => wsText.push(String(m)));
      await new Promise((r) => ws.on('open', r));
      await until('the stream\'s backlog', () => wsText.length > 0);
      const seen = [
        JSON.stringify((await call(s.base, 'GET', `/api/races/${race.id}`)).body),
        JSON.stringify((await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, auth(a!))).body),
        JSON.stringify((await call(s.base, 'GET', `/api/races/${race.id}/events`)).body),
        wsText.join('\n'),
      ];
      for (const text of seen) for (const card of bHand) assert.ok(!text.includes(`"${card}"`), `${card} of Bob's hand shows in ${text.slice(0, 200)}`);
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}/seats/1`, undefined, auth(a!))).status, 401);
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}/seats/1`, undefined, { 'x-moderator-key': race.moderatorKey })).status, 401);
      ws.close();
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] two submissions racing each other are both stored in turn, and the turn is played exactly once`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const race = await newRace(s.base);
      const [a, b] = race.seats.map((x) => x.token!);
      const ha = (await hand(s.base, race.id, 0, a!)).hand;
      const hb = (await hand(s.base, race.id, 1, b!)).hand;
      const p1 = ha.slice(0, 5), p2 = ha.slice(4, 9);
      const results = await Promise.all([
        call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: p1 }, auth(a!)),
        call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: p2 }, auth(a!)),
      ]);
      for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
      const stored = (await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, auth(a!))).body.you.orders.program;
      assert.ok([JSON.stringify(p1), JSON.stringify(p2)].includes(JSON.stringify(stored)));
      // The last orders and two more attempts to play the turn, all at once.
      const done = await Promise.all([
        call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program: hb.slice(0, 5) }, auth(b!)),
        s.service.adjudicate(race.id, true, 1),
        s.service.adjudicate(race.id, true, 1),
      ]);
      // Bob's orders either made it in time or met the next turn (then his cards were filled at random).
      assert.ok([200, 409, 422].includes(done[0].status), JSON.stringify(done[0].body));
      assert.ok(isPrefix(await playedBy(s.base, race.id, 0), stored));
      const ev = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { event: { type: string; turn?: number } }[];
      assert.equal(ev.filter((e) => e.event.type === 'turnBegan' && e.event.turn === 2).length, 1);
      assert.equal(ev.filter((e) => e.event.type === 'turnEnded').length, 1);
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] a week of daily 22:00 deadlines runs in seconds; late programs are filled at random and the report says so`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const clock = new TestClock(Date.UTC(2026, 10, 2, 9, 0)); // 09:00 in London
    const s = await startServer(db, clock);
    try {
      const race = await newRace(s.base, { deadline: { kind: 'scheduled', time: '22:00', zone: 'Europe/London', minimumHours: 20 } });
      let v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      // 22:00 today leaves 13 hours: the first deadline is 22:00 tomorrow.
      assert.equal(new Date(v.deadlineAt).toISOString(), '2026-11-03T22:00:00.000Z');
      for (let day = 0; day < 7; day++) {
        clock.t = v.deadlineAt;
        assert.equal(await s.service.tick(), 1);
        v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
        if (v.status === 'over') break;
      }
      assert.ok(v.turn >= 7 || v.status === 'over');
      const ev = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { kind: string; event: { type: string } }[];
      assert.ok(ev.some((e) => e.event.type === 'filled'));
      const rep = await call(s.base, 'GET', `/api/races/${race.id}/turns/1/report?format=text`);
      assert.match(rep.body, /no program by the deadline, so registers? [\d, and]+ (is|are) programmed randomly/);
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] deadlines that expire while the server is down are played when it comes back, and no accepted orders are lost`, { skip: skipFor(dialect) }, async () => {
    const fresh = await freshDb(dialect);
    const clock = new TestClock();
    let s = await startServer(fresh.db, clock);
    const race = await newRace(s.base);
    const a = race.seats[0]!.token!;
    const ha = (await hand(s.base, race.id, 0, a)).hand;
    await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: ha.slice(2, 7) }, auth(a));
    await s.close();
    await fresh.db.destroy();
    clock.advance(5 * 60_000);
    const again = dialect === 'sqlite' ? await freshDb('sqlite', fresh.file) : { db: (await import('./db.js')).openDb({ url: fresh.url! }).db };
    s = await startServer(again.db, clock);
    try {
      assert.equal(await s.service.tick(), 1);
      const v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      assert.equal(v.turn, 2);
      assert.ok(isPrefix(await playedBy(s.base, race.id, 0), ha.slice(2, 7)));
    } finally {
      await s.close();
      await again.db.destroy();
    }
  });

  test(`[${dialect}] a live race whose last person the moderator hands to a bot plays on at bot speed, not at the people's deadline`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const race = await newRace(s.base, { seats: [{ name: 'Ava' }, { name: 'Bob', bot: 'random' }], deadline: { kind: 'live', seconds: 600 } });
      const mod = { 'x-moderator-key': race.moderatorKey };
      assert.equal(await s.service.tick(), 0, 'Ava has 600 s to program');
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/replace`, { seat: 0, level: 'random' }, mod)).status, 200);
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.deadlineAt, s.clock.now(), 'the deadline is now');
      await until('the turn played with no clock advanced', async () => (await s.service.tick(), (await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn >= 2));
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] the moderator pauses, extends, hands a seat to a bot, plays the turn and rewinds it`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      // Seed 2: Ava's robot lives through turn 1 and shows the five cards her correction uses.
      const race = await newRace(s.base, { deal: { secret: false, seed: 2 } });
      const mod = { 'x-moderator-key': race.moderatorKey };
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/pause`, {}, { 'x-moderator-key': 'nope' })).status, 401);
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/pause`, {}, mod)).status, 200);
      s.clock.advance(3600_000);
      assert.equal(await s.service.tick(), 0, 'a paused race keeps its turn');
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/resume`, {}, mod)).status, 200);
      const before = (await call(s.base, 'GET', `/api/races/${race.id}`)).body.deadlineAt;
      await call(s.base, 'POST', `/api/races/${race.id}/moderator/extend`, { seconds: 600 }, mod);
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.deadlineAt, before + 600_000);
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/replace`, { seat: 1, level: 'random' }, mod)).status, 200);
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/adjudicate`, {}, mod)).status, 200);
      const after = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      assert.equal(after.turn, 2);
      assert.equal(after.seats[1].kind, 'bot');
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/rewind`, {}, mod)).status, 200);
      const rewound = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      assert.equal(rewound.turn, 1);
      // A correction of Ava's orders by the moderator (the cards her robot showed, in another order), then the turn is played again.
      const shown = shownProgram((await call(s.base, 'GET', `/api/races/${race.id}/events`)).body, 0, 1);
      assert.equal(shown.length, 5, 'Ava showed five cards');
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: shown.reverse() }, mod)).status, 200);
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn, 2);
      const rep = await call(s.base, 'GET', `/api/races/${race.id}/turns/1/report`);
      assert.equal(rep.body.report.registers.length, 5);
    } finally {
      await s.close();
      await db.destroy();
    }
  });
}

test('bad input never changes a race: malformed JSON, unknown fields, oversized bodies, unknown races', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const race = await newRace(s.base);
    const a = race.seats[0]!.token!;
    const before = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, '{"program": [', auth(a))).status, 400);
    const unknown = await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, colour: 'red' }, auth(a));
    assert.deepEqual([unknown.status, unknown.body.error.field], [422, 'colour']);
    assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: ['x'.repeat(70_000)] }, auth(a))).status, 413);
    assert.equal((await call(s.base, 'GET', '/api/races/nope')).status, 404);
    const badRace = await createSeated(s.base, { course: 'first-shift', seats: [], deadline: { kind: 'live', seconds: 60 } });
    assert.deepEqual([badRace.status, badRace.body.error.field], [422, 'seats']);
    const badDeadline = await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'A' }], deadline: { kind: 'scheduled', time: '25:00' } });
    assert.deepEqual([badDeadline.status, badDeadline.body.error.field], [422, 'deadline.time']);
    const after = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    assert.deepEqual(after, before);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a client sending too many requests is refused with 429', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, new TestClock(), { max: 5, windowMs: 10_000 });
  try {
    const codes: number[] = [];
    for (let k = 0; k < 7; k++) codes.push((await call(s.base, 'GET', '/api/courses')).status);
    assert.deepEqual(codes, [200, 200, 200, 200, 200, 429, 429]);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('the stream sends what happened after the given seq, then each new entry once, in order', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const race = await newRace(s.base);
    const all = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { seq: number }[];
    const from = all[all.length - 2]!.seq;
    const got: number[] = [];
    const ws = new WebSocket(`${s.base.replace('http', 'ws')}/api/races/${race.id}/stream?after=${from}`);
    ws.on('message', (m) => {
      const frame = JSON.parse(String(m));
      // A batch of entries, alone or in one frame with the turn it played.
      const entries: { seq: number }[] = Array.isArray(frame) ? frame : frame.entries ?? [];
      got.push(...entries.map((e) => e.seq));
    });
    await new Promise((r) => ws.on('open', r));
    for (const seat of [0, 1]) await programFirstCards(s.base, race.id, seat, race.seats[seat]!.token!);
    const last = (await call(s.base, 'GET', `/api/races/${race.id}`)).body.lastSeq;
    await until('the stream to bring every entry', () => got.length >= last - from);
    assert.deepEqual(got, Array.from({ length: last - from }, (_, k) => from + 1 + k));
    ws.close();
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('the server describes its API in OpenAPI', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const doc = (await call(s.base, 'GET', '/api/openapi.json')).body;
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/api/races/{id}/seats/{seat}/orders'].put);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a played turn\'s replay carries the finishing order as the turn began: a pbem robot that finished in turn 1 is listed in the replays of turns 2 and 3, not of turn 1', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    // Ava starts at (9,10), a square north of the one flag; seed 1 deals her a Move 1.
    const course = {
      name: 'Edge', description: 'One flag.', players: [1, 4], complexity: 'easy', time: 'short', boards: [{ board: 'atoll', x: 0, y: 0, rotation: 0 }], flags: [[9, 11]], start: [10, 10],
      starts: [[9, 10], [11, 10], [10, 11], [11, 11]],
    };
    const race = await newRace(s.base, { course, rules: 'pbem', deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 1 } });
    const [a, b] = race.seats.map((x) => x.token!);
    assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, facing: 'S', program: ['F1', 'L', 'L', 'L', 'L'] }, auth(a!))).status, 200);
    assert.equal((await programFirstCards(s.base, race.id, 1, b!)).status, 200);
    for (const turn of [2, 3]) for (const [seat, token] of [[0, a], [1, b]] as const) assert.equal((await programFirstCards(s.base, race.id, seat, token!)).status, 200, `turn ${turn}, seat ${seat}`);
    const v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    assert.deepEqual([v.turn, v.status, v.finished], [4, 'running', [['Ava']]], 'the race plays on after Ava finished');
    const replays = await Promise.all([1, 2, 3].map(async (t) => (await call(s.base, 'GET', `/api/races/${race.id}/turns/${t}`)).body));
    assert.deepEqual(replays[0].events.filter((e: { type: string }) => e.type === 'finished'), [{ type: 'finished', robot: 0, place: 1 }]);
    assert.deepEqual(replays.map((r) => r.finished), [[], [['Ava']], [['Ava']]]);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a pbem race: instructions without priorities, a start per robot, five more rounds after the first finisher', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const race = await newRace(s.base, { rules: 'pbem', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'strong' }, { name: 'Cog', bot: 'greedy' }] });
    const a = race.seats[0]!.token!;
    const v = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    assert.equal(v.rules, 'pbem');
    assert.equal(new Set(v.robots.map((r: { x: number; y: number }) => `${r.x},${r.y}`)).size, 3, 'each robot on its own start');
    const you = await hand(s.base, race.id, 0, a);
    assert.equal(you.hand.length, 10, 'ten instructions at 0 damage (001 L57)');
    assert.ok(you.hand.every((c) => /^(F[123]|B|L|R|U)$/.test(c)));
    const wrong = await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: ['F2:670', null, null, null, null] }, auth(a));
    assert.deepEqual([wrong.status, wrong.body.error.field], [422, 'program[0]']);
    const ok = await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: you.hand.slice(0, 5) }, auth(a));
    assert.equal(ok.status, 200);
    assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn, 2);
    // The rest of the race with Ava's registers filled at each deadline.
    for (let k = 0; k < 80; k++) {
      const now = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      if (now.status === 'over') break;
      s.clock.advance(61_000);
      await s.service.tick();
    }
    const end = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    assert.ok(end.finished.length > 0, 'the strong bot finished the beginners\' course');
    const ev = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { turn: number; event: { type: string } }[];
    const first = ev.find((e) => e.event.type === 'finished')!.turn;
    assert.equal(end.status, 'over');
    assert.equal(end.turn, first + 5, 'play goes on five rounds after the first finisher (001 L331)');
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('answers holding a secret (a new race\'s moderator key and invites, a seat\'s token, hand and orders) say Cache-Control: no-store, so no cache keeps them, a seat view asked by ?token= under its URL included', async () => {
  const s = await startServer((await freshDb('sqlite')).db);
  try {
    const res = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(s.base + path, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const made = await res('POST', '/api/races', { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 60 } });
    assert.equal(made.status, 201);
    assert.equal(made.headers.get('cache-control'), 'no-store', 'the creation');
    const race = await made.json() as { id: string; seats: { invite: string }[] };
    const claimed = await res('POST', `/api/races/${race.id}/claim`, { invite: race.seats[0]!.invite });
    assert.equal(claimed.status, 200);
    assert.equal(claimed.headers.get('cache-control'), 'no-store', 'the seat taken: its token');
    const { token } = await claimed.json() as { token: string };
    const view = await res('GET', `/api/races/${race.id}/seats/0?token=${token}`);
    assert.equal(view.status, 200);
    assert.equal(view.headers.get('cache-control'), 'no-store', 'the seat\'s view');
    const you = (await view.json() as { turn: number; you: { hand: string[] } });
    const orders = await res('PUT', `/api/races/${race.id}/seats/0/orders`, { turn: you.turn, program: you.you.hand.slice(0, 5) }, auth(token));
    assert.equal(orders.status, 200);
    assert.equal(orders.headers.get('cache-control'), 'no-store', 'the orders as understood');
    const refused = await res('GET', `/api/races/${race.id}/seats/1?token=${token}`);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('cache-control'), 'no-store', 'a refusal of a seat\'s route');
  } finally {
    await s.close();
  }
});
