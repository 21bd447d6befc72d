import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { call, freshDb, postgresAnswers, spawnServer } from './testing.js';

const havePostgres = await postgresAnswers();
const start = (url: string, port: number) => spawnServer({ PORT: String(port), DATABASE_URL: url });

/** Two server processes on a fresh PostgreSQL schema. */
async function twoProcesses() {
  const { db, url } = await freshDb('postgres');
  await db.destroy();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const procs = [await start(url!, port), await start(url!, port + 1)];
  return { A: `http://127.0.0.1:${port}`, B: `http://127.0.0.1:${port + 1}`, stop: () => procs.forEach((p) => p.kill('SIGKILL')) };
}

function collect(url: string): { seqs: number[]; types: string[]; ready: Promise<unknown>; close(): void } {
  const ws = new WebSocket(url);
  const seqs: number[] = [];
  const types: string[] = [];
  ws.on('message', (m) => {
    const e = JSON.parse(String(m));
    seqs.push(e.seq);
    types.push(e.event.type);
  });
  return { seqs, types, ready: new Promise((r) => ws.on('open', r)), close: () => ws.close() };
}

test('two server processes on one PostgreSQL database: a client on each sees every entry once, and each turn is played once', {
  skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)',
  timeout: 60_000,
}, async () => {
  const { A, B, stop } = await twoProcesses();
  try {
    const created = await call(A, 'POST', '/api/races', { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 9 } });
    const { id, seats } = created.body as { id: string; seats: { token: string }[] };
    const onA = collect(`${A.replace('http', 'ws')}/api/races/${id}/stream`);
    const onB = collect(`${B.replace('http', 'ws')}/api/races/${id}/stream`);
    await Promise.all([onA.ready, onB.ready]);
    for (let turn = 0; turn < 3; turn++) {
      for (const seat of [0, 1]) {
        const server = seat === 0 ? A : B; // each seat talks to its own process
        const auth = { authorization: `Bearer ${seats[seat]!.token}` };
        const you = (await call(server, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth)).body.you;
        if (!you) continue;
        await call(server, 'PUT', `/api/races/${id}/seats/${seat}/orders`, { program: you.needsProgram ? you.hand.slice(0, you.openRegisters.length) : [] }, auth);
      }
    }
    await new Promise((r) => setTimeout(r, 1500));
    const last = (await call(B, 'GET', `/api/races/${id}`)).body.lastSeq as number;
    const all = Array.from({ length: last }, (_, k) => k + 1);
    assert.deepEqual(onA.seqs, all, 'the client of process A');
    assert.deepEqual(onB.seqs, all, 'the client of process B');
    const began = onA.types.filter((t) => t === 'turnBegan').length;
    const ended = onA.types.filter((t) => t === 'turnEnded').length;
    assert.equal(began, ended + 1, 'each turn begun once and played once');
    onA.close();
    onB.close();
  } finally {
    stop();
  }
});

test('two server processes ticking the same deadlines: each turn of a race is played by exactly one of them', {
  skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)',
  timeout: 60_000,
}, async () => {
  const { A, stop } = await twoProcesses();
  try {
    // A race of bots alone is due at once, turn after turn: both processes try every half second.
    const created = await call(A, 'POST', '/api/races', { course: 'first-shift', seats: [{ name: 'Bolt', bot: 'random' }, { name: 'Cog', bot: 'random' }], deadline: { kind: 'live', seconds: 60 }, deal: { secret: false, seed: 4 } });
    const id = created.body.id as string;
    await call(A, 'POST', `/api/races/${id}/moderator/adjudicate`, {}, { 'x-moderator-key': created.body.moderatorKey });
    await new Promise((r) => setTimeout(r, 4000));
    const entries = (await call(A, 'GET', `/api/races/${id}/events`)).body as { event: { type: string; turn?: number } }[];
    const began = entries.filter((e) => e.event.type === 'turnBegan').map((e) => e.event.turn!);
    assert.ok(began.length > 3, `only ${began.length} turns`);
    assert.deepEqual(began, Array.from({ length: began.length }, (_, k) => k + 1), 'no turn begun twice');
  } finally {
    stop();
  }
});
