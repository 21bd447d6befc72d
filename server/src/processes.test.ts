import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PG_URL, call, dropSchema, exited, freshDb, playRaces, postgresAnswers, spawnServer, streamClient, until, createSeated } from './testing.js';

const havePostgres = await postgresAnswers();
// Many streams from the one address of the test.
const start = (url: string, port: number) => spawnServer({ PORT: String(port), DATABASE_URL: url, STREAMS_PER_ADDRESS: '1000', MAX_CONNECTIONS_PER_ADDRESS: '1000', REQUESTS_PER_10S: '1000000', RACES_PER_MINUTE: '1000000', METRICS: '1' });

/** Two server processes on a fresh PostgreSQL schema. */
async function twoProcesses() {
  const { db, url } = await freshDb('postgres');
  await db.destroy();
  const port = 20000 + Math.floor(Math.random() * 12000);
  const procs = [await start(url!, port)];
  // The first is stopped if the second cannot start: nothing is left to keep the runner waiting.
  try {
    procs.push(await start(url!, port + 1));
  } catch (e) {
    procs[0]!.kill('SIGKILL');
    await exited(procs[0]!);
    await dropSchema(url);
    throw e;
  }
  return {
    A: `http://127.0.0.1:${port}`, B: `http://127.0.0.1:${port + 1}`,
    stop: async () => {
      procs.forEach((p) => p.kill('SIGKILL'));
      await Promise.all(procs.map(exited));
      await dropSchema(url);
    },
  };
}

test('two server processes on one PostgreSQL database: a client on each sees every entry once, and each turn is played once', {
  skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)',
  timeout: 60_000,
}, async () => {
  const { A, B, stop } = await twoProcesses();
  try {
    const created = await createSeated(A, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 9 } });
    const { id, seats } = created.body as { id: string; seats: { token: string }[] };
    const onA = streamClient(`${A.replace('http', 'ws')}/api/races/${id}/stream`);
    const onB = streamClient(`${B.replace('http', 'ws')}/api/races/${id}/stream`);
    await Promise.all([onA.ready, onB.ready]);
    for (let turn = 0; turn < 3; turn++) {
      for (const seat of [0, 1]) {
        const server = seat === 0 ? A : B; // each seat talks to its own process
        const auth = { authorization: `Bearer ${seats[seat]!.token}` };
        const view = (await call(server, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth)).body;
        const you = view.you;
        if (!you) continue;
        await call(server, 'PUT', `/api/races/${id}/seats/${seat}/orders`, { turn: view.turn, program: you.needsProgram ? you.hand.slice(0, you.openRegisters.length) : [] }, auth);
      }
    }
    const last = (await call(B, 'GET', `/api/races/${id}`)).body.lastSeq as number;
    await until('both clients to have every entry', () => onA.seqs.length >= last && onB.seqs.length >= last, 20_000);
    const all = Array.from({ length: last }, (_, k) => k + 1);
    assert.deepEqual(onA.seqs, all, 'the client of process A');
    assert.deepEqual(onB.seqs, all, 'the client of process B');
    const began = onA.types.filter((t) => t === 'turnBegan').length;
    const ended = onA.types.filter((t) => t === 'turnEnded').length;
    assert.equal(began, ended + 1, 'each turn begun once and played once');
    onA.close();
    onB.close();
  } finally {
    await stop();
  }
});

test('two server processes on one PostgreSQL database, the two people of a race on different ones: the process that dealt a turn shares its bots\' orders, and the last orders play the turn where they arrive, without asking it; each turn\'s bots are decided once', {
  skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)',
  timeout: 120_000,
}, async () => {
  const { A, B, stop } = await twoProcesses();
  // What the processes tell each other about bots (the channel is the database's, whatever the schema: only this race counts).
  const listener = new pg.Client({ connectionString: PG_URL });
  // Kept for every race (its id is known once its seats are taken, after its first bots may have decided); this race's counted.
  const heard: { race: string; turn: number; kind: string }[] = [];
  let id = '';
  listener.on('notification', (n) => {
    const m = JSON.parse(n.payload ?? '{}');
    heard.push({ race: m.race, turn: m.turn, kind: m.orders ? 'decided' : m.kind });
  });
  try {
    await listener.connect();
    await listener.query('LISTEN roborally_bots');
    const created = await createSeated(A, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'random' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 9 } });
    id = created.body.id;
    const { seats } = created.body as { seats: { token: string }[] };
    const server = (seat: number) => (seat === 0 ? A : B);
    const auth = (seat: number) => ({ authorization: `Bearer ${seats[seat]!.token}` });
    const turnNow = async () => (await call(A, 'GET', `/api/races/${id}/seats/0`, undefined, auth(0))).body.turn as number;
    const played = 4;
    for (let turn = 1; turn <= played; turn++) {
      // The last orders on B (A created the race and dealt its first turn), then on A, and so on.
      const order = turn % 2 ? [0, 1] : [1, 0];
      for (const seat of order) {
        // The dealing process has decided the turn's bots and said so: the last orders need ask nobody.
        if (seat === order[1]) await until(`the bots of turn ${turn} shared`, () => heard.some((t) => t.race === id && t.turn === turn && t.kind === 'decided'), 30_000);
        const view = (await call(server(seat), 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(seat))).body;
        const you = view.you;
        const put = await call(server(seat), 'PUT', `/api/races/${id}/seats/${seat}/orders`, { turn: view.turn, program: you.needsProgram ? you.hand.slice(0, you.openRegisters.length) : [] }, auth(seat));
        assert.equal(put.status, 200, JSON.stringify(put.body));
      }
      await until(`turn ${turn} played`, async () => (await turnNow()) === turn + 1, 30_000);
    }
    assert.deepEqual(heard.filter((t) => t.race === id && t.kind !== 'decided'), [], 'no process asked another for its bots');
    const decided = async (base: string) => {
      const c = (await call(base, 'GET', '/api/metrics')).body.bots as { decided: number; late: number; failed: number; full: number };
      return c.decided + c.late + c.failed + c.full;
    };
    // Every turn dealt (those played and the current one) once, by the process that dealt it: the
    // one that took its last orders (at most, as the current one's may be under way).
    const [a, b] = [await decided(A), await decided(B)];
    assert.ok(a >= 1 && b >= 1, `each process dealt turns and decided their bots (A ${a}, B ${b})`);
    assert.ok(a + b >= played && a + b <= played + 1, `${a + b} decisions for ${played + 1} turns dealt`);
    // The metrics tell so too: turns played with shared orders on each process, none asked for.
    const handOvers = await Promise.all([A, B].map(async (base) => (await call(base, 'GET', '/api/metrics')).body.handOvers as { withShared: number; askedFor: number }));
    assert.ok(handOvers.every((h) => h.withShared >= 1 && h.askedFor === 0), JSON.stringify(handOvers));
  } finally {
    await listener.end().catch(() => undefined);
    await stop();
  }
});

test('two server processes on one PostgreSQL database: a seat\'s draft sent to one reaches a stream client on each once, and a stream opened later on the other begins with it', {
  skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)',
  timeout: 60_000,
}, async () => {
  const { A, B, stop } = await twoProcesses();
  try {
    const created = await createSeated(A, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 } });
    const { id, seats } = created.body as { id: string; seats: { token: string }[] };
    const onA = streamClient(`${A.replace('http', 'ws')}/api/races/${id}/stream`);
    const onB = streamClient(`${B.replace('http', 'ws')}/api/races/${id}/stream`);
    await Promise.all([onA.ready, onB.ready]);
    await until('both streams caught up', () => onA.seqs.length && onB.seqs.length);
    const sent = await call(A, 'PUT', `/api/races/${id}/seats/0/draft`, { turn: 1, filled: 3 }, { authorization: `Bearer ${seats[0]!.token}` });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await until('the draft on both processes\' streams', () => onA.drafts.length && onB.drafts.length, 20_000);
    // A page opened on the other process mid-turn: its stream begins with the draft that came by NOTIFY.
    const lateB = streamClient(`${B.replace('http', 'ws')}/api/races/${id}/stream`);
    await until('the draft first on a stream opened later on the other process', () => lateB.drafts.length, 20_000);
    assert.ok(lateB.seqs.length > 0, 'the entries came before the drafts');
    // A later entry (Bob's orders) on both streams: by then a second copy of the draft would have come.
    const you = (await call(B, 'GET', `/api/races/${id}/seats/1`, undefined, { authorization: `Bearer ${seats[1]!.token}` })).body.you;
    await call(B, 'PUT', `/api/races/${id}/seats/1/orders`, { turn: 1, program: you.hand.slice(0, 5) }, { authorization: `Bearer ${seats[1]!.token}` });
    await until('Bob\'s orders on both streams', () => onA.types.includes('submitted') && onB.types.includes('submitted'), 20_000);
    await until('Bob\'s orders on the later stream', () => lateB.types.includes('submitted'), 20_000);
    for (const c of [onA, onB, lateB]) assert.deepEqual(c.drafts, [{ turn: 1, seat: 0, filled: 3 }]);
    onA.close();
    onB.close();
    lateB.close();
  } finally {
    await stop();
  }
});

test('two server processes ticking the same deadlines: each turn of a race is played by exactly one of them', {
  skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)',
  timeout: 60_000,
}, async () => {
  const { A, stop } = await twoProcesses();
  try {
    // A race of bots alone is due at once, turn after turn: both processes try every half second.
    const created = await createSeated(A, { course: 'first-shift', seats: [{ name: 'Bolt', bot: 'random' }, { name: 'Cog', bot: 'random' }], deadline: { kind: 'live', seconds: 60 }, deal: { secret: false, seed: 4 } });
    const id = created.body.id as string;
    await call(A, 'POST', `/api/races/${id}/moderator/adjudicate`, {}, { 'x-moderator-key': created.body.moderatorKey });
    const began = await until('more than 5 turns played', async () => {
      const entries = (await call(A, 'GET', `/api/races/${id}/events`)).body as { event: { type: string; turn?: number } }[];
      const got = entries.filter((e) => e.event.type === 'turnBegan').map((e) => e.event.turn!);
      return got.length > 5 ? got : null;
    }, 30_000);
    assert.deepEqual(began, Array.from({ length: began.length }, (_, k) => k + 1), 'no turn begun twice');
  } finally {
    await stop();
  }
});

test('two server processes, many races played across both for hundreds of turns: a stream client on each gets every entry once, in order', {
  skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)',
  timeout: 240_000,
}, async () => {
  const { A, B, stop } = await twoProcesses();
  // Each race's two seats send their orders to different processes, so either may play a turn.
  const load = playRaces([A, B], 8);
  const watchers: { id: string; on: ReturnType<typeof streamClient>[] }[] = [];
  try {
    // A client on each process for every race, from the moment it is created.
    const watch = (id: string) => watchers.push({ id, on: [A, B].map((base) => streamClient(`${base.replace('http', 'ws')}/api/races/${id}/stream`)) });
    await until('200 turns played', () => {
      for (const id of load.ids.slice(watchers.length)) watch(id);
      return load.turns() >= 200;
    }, 220_000);
    await load.stop();
    for (const { id, on } of watchers) {
      const last = (await call(A, 'GET', `/api/races/${id}`)).body.lastSeq as number;
      await until(`every entry of race ${id} on both processes' clients`, () => on.every((c) => c.seqs.length >= last), 20_000);
      for (const [k, c] of on.entries()) assert.deepEqual(c.seqs, Array.from({ length: last }, (_, n) => n + 1), `race ${id}, the client of process ${'AB'[k]}`);
      on.forEach((c) => c.close());
    }
  } finally {
    await load.stop();
    await stop();
  }
});

test('a server process alone on PostgreSQL keeps its bots\' orders out of its notifications and reads no race\'s version; once another process greets it, it answers, shares them and reads the version of each race it serves, unless a view\'s client has seen no seq beyond the race kept', {
  skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)',
  timeout: 60_000,
}, async (t) => {
  const { db, url } = await freshDb('postgres');
  await db.destroy();
  const port = 20000 + Math.floor(Math.random() * 12000);
  const proc = await start(url!, port);
  const A = `http://127.0.0.1:${port}`;
  const other = new pg.Client({ connectionString: PG_URL });
  try {
    await other.connect();
    const heard: { channel: string; payload: Record<string, unknown> }[] = [];
    other.on('notification', (n) => heard.push({ channel: n.channel, payload: JSON.parse(n.payload ?? 'null') as Record<string, unknown> }));
    await other.query('LISTEN roborally_entries');
    await other.query('LISTEN roborally_bots');
    const created = await createSeated(A, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Rob', bot: 'random' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 9 } });
    const id = created.body.id as string;
    const shared = (turn: number) => heard.filter((h) => h.channel === 'roborally_bots' && h.payload.race === id && h.payload.turn === turn && 'orders' in h.payload);
    const auth = { authorization: `Bearer ${created.body.seats[0].token}` };
    const play = async (turn: number) => {
      const view = (await call(A, 'GET', `/api/races/${id}/seats/0`, undefined, auth)).body;
      assert.equal(view.turn, turn);
      assert.equal((await call(A, 'PUT', `/api/races/${id}/seats/0/orders`, { turn, program: view.you.hand.slice(0, 5) }, auth)).status, 200);
      await until(`turn ${turn} played`, async () => (await call(A, 'GET', `/api/races/${id}/seats/0`, undefined, auth)).body.turn > turn, 20_000);
    };
    // Turn 1 played alone: its bots had decided (and would have been shared) before it was played, so
    // the greeting below cannot come before their decision (on a busy machine it could, when sent
    // right after the race was created).
    await play(1);
    // The statements a seat view costs (the server's own count).
    const statements = async () => (await call(A, 'GET', '/api/metrics')).body.db.statements as number;
    // `query`: the view's query (`?seen=SEQ`, the last seq the client has seen).
    let lastSeq = 0;
    const seatView = async (query = '') => {
      const before = await statements();
      const view = await call(A, 'GET', `/api/races/${id}/seats/0${query}`, undefined, auth);
      assert.equal(view.status, 200);
      lastSeq = view.body.lastSeq;
      return (await statements()) - before;
    };
    // (Alone, the server sends its notifications every 50 ms.)
    const self = (await until('a notification of the race', () => heard.find((h) => h.payload.race === id))).payload.from;
    // A server of another test on this database counts as another process (see below).
    const othersHeard = () => heard.some((h) => h.payload.from !== self && h.payload.from !== 'another');
    // Alone (once its greeting's answers would have come): the race kept is used as it is.
    await until('a seat view that reads nothing', async () => othersHeard() || (await seatView()) === 0, 10_000);
    if (othersHeard()) t.diagnostic('another server notified on this database: the server was not alone, its seat views not checked alone');
    // Another process starts: it greets, and the server answers.
    await other.query('SELECT pg_notify($1, $2)', ['roborally_bots', JSON.stringify({ from: 'another', hello: 1 })]);
    await until('the server\'s answer to the greeting', () => heard.some((h) => h.channel === 'roborally_bots' && h.payload.hello === 2), 10_000);
    // Another process may change the race: its version is read first. (The server's own statements
    // of the greeting, sharing the bots' orders it kept to itself, may fall between the two counts:
    // a view counted with nothing else in between reads exactly one; one that reads nothing never does.)
    await until('a seat view that reads the race\'s version, and only that', async () => (await seatView()) === 1, 10_000);
    // Unless the client says the last seq it has seen, and the race kept reaches it: then nothing is
    // read (the client has seen no change the copy lacks). One that the copy does not reach reads
    // the version (the same count rule as above).
    await until('a seat view with the last seq seen that reads nothing', async () => (await seatView(`?seen=${lastSeq}`)) === 0, 10_000);
    await until('a seat view with a seq beyond the race kept that reads the version', async () => (await seatView(`?seen=${lastSeq + 1}`)) === 1, 10_000);
    await play(2);
    await until('turn 3\'s bots\' orders shared', () => shared(3).length > 0, 20_000);
    // Channels are the database's: a server of another test (another schema) on it counts as another process.
    const before = heard.slice(0, heard.findIndex((h) => h.payload.hello === 2));
    if (!before.some((h) => h.payload.from !== self && h.payload.from !== 'another')) assert.equal(shared(1).length, 0, 'alone: turn 1\'s bots\' orders not notified');
    else t.diagnostic('another server notified on this database meanwhile: the server was not alone, turn 1 not checked');
  } finally {
    await other.end().catch(() => undefined);
    proc.kill('SIGKILL');
    await exited(proc);
    await dropSchema(url);
  }
});
