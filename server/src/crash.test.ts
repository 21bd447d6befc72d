import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cardName } from '../../engine/src/index.js';
import pg from 'pg';
import { call, dropSchema, exited, freshDb, PG_URL, postgresAnswers, spawnServer, until, createSeated } from './testing.js';

const havePostgres = await postgresAnswers();

/** A seeded generator for the test's own choices (how long to wait before the kill). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}

/**
 * Orders flow in while the server is killed (`kill -9`) at random moments and restarted: every
 * acknowledged order is still there, or was played as sent. `env` is the server's database;
 * `meanwhile`, if given, is done at a random moment of each round before the kill (its
 * PostgreSQL connections terminated).
 */
async function killedAndRestarted(env: Record<string, string>, meanwhile?: () => Promise<unknown>): Promise<void> {
  const port = 20000 + Math.floor(Math.random() * 12000);
  const start = () => spawnServer({ PORT: String(port), ...env });
  const base = `http://127.0.0.1:${port}`;
  const rand = rng(42);
  let child = await start();
  try {
    const created = await createSeated(base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 5 } });
    assert.equal(created.status, 201);
    const { id, seats } = created.body as { id: string; seats: { token: string }[] };
    const auth = (seat: number) => ({ authorization: `Bearer ${seats[seat]!.token}` });
    /**
     * Per turn and seat: the last orders acknowledged, and the orders sent after them whose answer
     * never came or was a 5xx (a kill, a terminated connection: committed or not, nobody can tell;
     * either may be what is kept).
     */
    const acked = new Map<string, { program: string[]; open: number[]; unknown: string[][] }>();
    for (let round = 0; round < 6; round++) {
      // Orders flow in; the server is killed at a random moment in the middle of it (after the
      // round's first acknowledged order, so a slow machine still sees orders between kills).
      let answered = 0;
      let done = false;
      const sending = (async () => {
        for (let k = 0; k < 40; k++) {
          // Each round begins with the other seat, so both seats' orders get through even when
          // the kill comes early (a busy machine answers only a request or two before it).
          const seat = (k + round) % 2;
          const you = await call(base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(seat)).catch(() => null);
          if (!you || you.status !== 200 || you.body.status !== 'running') return;
          const { hand, openRegisters, needsProgram } = you.body.you as { hand: string[]; openRegisters: number[]; needsProgram: boolean };
          const start = k % Math.max(1, hand.length - openRegisters.length + 1);
          const program = needsProgram ? hand.slice(start, start + openRegisters.length) : [];
          const r = await call(base, 'PUT', `/api/races/${id}/seats/${seat}/orders`, { turn: you.body.turn, program }, auth(seat)).catch(() => null);
          if (r?.status === 200) {
            acked.set(`${r.body.turn}/${seat}`, { program, open: openRegisters, unknown: [] });
            answered++;
          } else if (!r || r.status >= 500) acked.get(`${you.body.turn}/${seat}`)?.unknown.push(program);
        }
      })().finally(() => (done = true));
      await until('an order acknowledged in this round', () => answered > 0 || done, 30_000);
      await new Promise((r) => setTimeout(r, rand() * 150));
      if (meanwhile) {
        await meanwhile();
        await new Promise((r) => setTimeout(r, rand() * 150));
      }
      child.kill('SIGKILL');
      await exited(child);
      await sending;
      child = await start();
      // Every acknowledged order is either still waiting for its turn or was played as sent, unless
      // orders sent after it whose outcome is unknown took its place.
      const race = (await call(base, 'GET', `/api/races/${id}`)).body as { turn: number; status: string };
      const events = (await call(base, 'GET', `/api/races/${id}/events`)).body as { turn: number; event: { type: string; robot?: number; card?: number; register?: number } }[];
      for (const [key, { program, open, unknown }] of acked) {
        const [turn, seat] = key.split('/').map(Number) as [number, number];
        if (turn === race.turn && race.status === 'running') {
          const kept = (await call(base, 'GET', `/api/races/${id}/seats/${seat}`, undefined, auth(seat))).body.you.orders?.program;
          if (!unknown.some((p) => JSON.stringify(p) === JSON.stringify(kept))) assert.deepEqual(kept, program, `turn ${turn} seat ${seat}: stored orders`);
        } else {
          // Locked registers replay last turn's cards; the open ones play what was sent (those
          // played: the race may end within the turn).
          const played = events.filter((e) => e.turn === turn && e.event.type === 'revealed' && e.event.robot === seat && open.includes(e.event.register!))
            .map((e) => ({ register: e.event.register!, card: cardName(e.event.card!) }));
          const sent = (p: string[]) => played.map(({ register }) => ({ register, card: p[open.indexOf(register)] }));
          if (!unknown.some((p) => JSON.stringify(sent(p)) === JSON.stringify(played))) assert.deepEqual(played, sent(program), `turn ${turn} seat ${seat}: the cards played`);
        }
      }
      for (const key of [...acked.keys()]) if (Number(key.split('/')[0]) < race.turn) acked.delete(key);
    }
    const last = (await call(base, 'GET', `/api/races/${id}`)).body as { turn: number };
    assert.ok(last.turn > 1, 'the race went on across the restarts');
  } finally {
    child.kill('SIGKILL');
    await exited(child);
  }
}

test('after kill -9 at random moments and a restart, no acknowledged orders are lost and the race goes on', { timeout: 120_000 }, async () => {
  await killedAndRestarted({ DATA_DIR: mkdtempSync(join(tmpdir(), 'rr-crash-')), DATABASE_URL: '' });
});

test('[postgres] with DB_SYNCHRONOUS_COMMIT=off (commits not waiting for their fsync): after its connections are terminated and kill -9 at random moments, and a restart, no acknowledged orders are lost', { skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)', timeout: 180_000 }, async () => {
  const { db, url } = await freshDb('postgres', undefined, { tables: false });
  await db.destroy();
  const appName = `rr_crash_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await killedAndRestarted({ DATABASE_URL: url!, DB_SYNCHRONOUS_COMMIT: 'off', PG_APPLICATION_NAME: appName },
      () => admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [appName]));
  } finally {
    await admin.end();
    await dropSchema(url);
  }
});
