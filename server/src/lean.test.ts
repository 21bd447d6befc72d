import { test } from 'node:test';
import net from 'node:net';
import assert from 'node:assert/strict';
import { type LogEvent } from 'kysely';
import pg from 'pg';
import { pbem, type RuleSet } from '../../engine/src/index.js';
import { openDb } from './db.js';
import type { RaceRepository } from './repository.js';
import type { WebSocket } from 'ws';
import { RaceService, type Entry, type HandedPlay, type PlayedFrame } from './races.js';
import { shippedCourses } from './courses.js';
import { ENTRIES_CHANNEL, entriesPayload, readNotification } from './fanout.js';
import { StreamHub } from './stream.js';
import { dropSchema, freshDb, PG_URL, postgresAnswers, TestClock, until, seatedRace } from './testing.js';

const havePostgres = await postgresAnswers();
const courses = shippedCourses();

// Writes to a socket (a syscall each, and on loopback the kernel's send path in the writing
// thread): in these tests only the database's connections write.
let socketWrites = 0;
const socket = net.Socket.prototype as unknown as { _writeGeneric: (...a: unknown[]) => unknown };
const writeGeneric = socket._writeGeneric;
socket._writeGeneric = function (this: unknown, ...a: unknown[]) {
  socketWrites++;
  return writeGeneric.apply(this, a);
};

/**
 * A race service over `kind`'s database whose every statement and transaction is counted, and on
 * PostgreSQL its round trips (db.ts's own count: statements sent together are one Kysely query).
 */
async function countedService(kind: 'sqlite' | 'postgres', alone = false) {
  const fresh = await freshDb(kind);
  await fresh.db.destroy();
  // The statements themselves are kept too, so that a count other than the bound says which they were.
  const counts = { statements: 0, transactions: 0, outside: 0, roundTrips: 0, sql: [] as string[] };
  let inside = false;
  const log = (e: LogEvent) => {
    const sql = e.query.sql.trim().toLowerCase();
    counts.sql.push(`${e.level}: ${sql.slice(0, 80)}`);
    if (sql === 'begin' || sql.startsWith('start transaction')) (counts.transactions++, (inside = true));
    else if (sql === 'commit' || sql === 'rollback') inside = false;
    else if (sql === '-- pipelined') counts.outside += inside ? 0 : 1;
    else (counts.statements++, inside || counts.outside++);
  };
  const { db, stats } = openDb(fresh.url ? { url: fresh.url, log } : { file: fresh.file!, log });
  // On PostgreSQL the statements are counted as sent (those sent together included).
  const sent = { statements: 0, roundTrips: 0, writes: 0 };
  const reset = () => {
    Object.assign(counts, { statements: 0, transactions: 0, outside: 0, roundTrips: 0, sql: [] });
    if (stats) Object.assign(sent, { statements: stats.statements, roundTrips: stats.roundTrips, writes: socketWrites });
  };
  const tally = () => ({
    statements: stats ? stats.statements - sent.statements : counts.statements,
    transactions: counts.transactions, outside: counts.outside,
    ...(stats ? { roundTrips: stats.roundTrips - sent.roundTrips, writes: socketWrites - sent.writes } : {}),
  });
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course: (n) => courses.get(n), alone });
  const close = async () => {
    await db.destroy();
    if (fresh.url) {
      const schema = /search_path%3D(\w+)/.exec(fresh.url)?.[1];
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  };
  return { service, counts, clock, close, reset, tally };
}

const firstCards = async (service: RaceService, id: string, seat: number, token: string) => {
  const you = await service.seat(id, seat, token);
  assert.ok(you.ok);
  return { turn: you.value.turn, program: you.value.you.hand.slice(0, you.value.you.openRegisters.length) };
};

// SQLite is served by one process (the race is kept in memory between requests, race-cache.ts),
// and so is PostgreSQL while no other process is heard (fanout.ts `alone`). When PostgreSQL is
// shared, a PUT takes the race it keeps unchecked too (races.ts `versioned`): its commit is checked
// against the version anyway. The writes are one transaction, and on PostgreSQL one round trip and
// one write to the socket: the transaction's begin and its commit go out with the writes (before:
// with another process heard, the version read first, then the writes, then the commit: 3).
for (const [kind, alone] of [['sqlite', true], ['postgres', false], ['postgres', true]] as const) {
  const trips = kind === 'sqlite' ? {} : { roundTrips: 1, writes: 1 };
  test(`[${kind}${kind === 'postgres' ? (alone ? ', alone' : ', shared') : ''}] orders cost a few statements, their writes in one transaction: a PUT that stores them 3, the last one of a turn, which plays it, 5${'roundTrips' in trips ? '; each one round trip, one write to the socket (the begin, the writes and the commit)' : ''}`, { skip: kind === 'postgres' && !havePostgres ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : false }, async () => {
    const { service, counts, close, reset, tally } = await countedService(kind, alone);
    const [storing, playing, outside] = [3, 5, 0];
    // PostgreSQL: the writes together, the begin and the commit with them.
    try {
      const created = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'strong' }], deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 3 } });
      assert.ok(created.ok);
      const { id, seats } = created.value;
      for (let turn = 1; turn <= 3; turn++) {
        const a = await firstCards(service, id, 0, seats[0]!.token!);
        const b = await firstCards(service, id, 1, seats[1]!.token!);
        assert.equal(a.turn, turn);
        reset();
        const stored = await service.submit(id, 0, { token: seats[0]!.token! }, a);
        assert.ok(stored.ok, JSON.stringify(stored));
        // Bump the version, append the entry, upsert the orders. The race, its seats and the turn's
        // orders are kept from the seat views.
        assert.deepEqual(tally(), { statements: storing, transactions: 1, outside, ...trips }, `a PUT that stores orders:\n${counts.sql.join('\n')}`);
        reset();
        const last = await service.submit(id, 1, { token: seats[1]!.token! }, b);
        assert.ok(last.ok, JSON.stringify(last));
        // The same, and the turn's first seq and the next turn.
        assert.deepEqual(tally(), { statements: playing, transactions: 1, outside, ...trips }, `the last PUT, which plays the turn:\n${counts.sql.join('\n')}`);
        const view = await service.view(id);
        assert.ok(view.ok && view.value.turn === turn + 1, 'the last orders played the turn');
      }
    } finally {
      await close();
    }
  });
}

test('a seat\'s orders are checked by the engine once a turn: when they are sent, not again when the turn is played', async () => {
  // Every check of orders that power down asks the rule set's power-down rule: a spy on it counts the checks.
  const rules = pbem as { powerDownRefusal: RuleSet['powerDownRefusal'] };
  const rule = rules.powerDownRefusal;
  let checks = 0;
  rules.powerDownRefusal = (r) => (checks++, rule(r));
  const { service, close } = await countedService('sqlite');
  try {
    const created = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(created.ok);
    const { id, seats } = created.value;
    const a = await firstCards(service, id, 0, seats[0]!.token!);
    const b = await firstCards(service, id, 1, seats[1]!.token!);
    assert.ok((await service.submit(id, 0, { token: seats[0]!.token! }, { ...a, powerDown: true })).ok);
    assert.equal(checks, 1, 'checked when sent');
    assert.ok((await service.submit(id, 1, { token: seats[1]!.token! }, b)).ok);
    const view = await service.view(id);
    assert.ok(view.ok && view.value.turn === 2, 'the last orders played the turn');
    assert.equal(checks, 1, 'not checked again when the turn was played');
  } finally {
    rules.powerDownRefusal = rule;
    await close();
  }
});

test('orders name their turn: another turn is refused with 409 turn, and nothing is stored', async () => {
  const { service, close } = await countedService('sqlite');
  try {
    const created = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(created.ok);
    const { id, seats } = created.value;
    const ava = { token: seats[0]!.token! };
    const a = await firstCards(service, id, 0, ava.token);
    const before = await service.lastSeq(id);
    for (const turn of [2, 99]) {
      const r = await service.submit(id, 0, ava, { ...a, turn });
      assert.ok(!r.ok && r.refusal.status === 409 && r.refusal.field === 'turn', JSON.stringify(r));
    }
    for (const turn of [undefined, 0, 1.5, '1', 2 ** 53]) {
      const r = await service.submit(id, 0, ava, { ...a, turn });
      assert.ok(!r.ok && r.refusal.status === 422 && r.refusal.field === 'turn', JSON.stringify(r));
    }
    assert.equal(await service.lastSeq(id), before, 'nothing was stored');
    // Turn 1 is played; a retry of turn 1's orders does not land on turn 2.
    assert.ok((await service.submit(id, 0, ava, a)).ok);
    assert.ok((await service.submit(id, 1, { token: seats[1]!.token! }, await firstCards(service, id, 1, seats[1]!.token!))).ok);
    const at2 = await service.lastSeq(id);
    const retried = await service.submit(id, 0, ava, a);
    assert.ok(!retried.ok && retried.refusal.status === 409 && retried.refusal.field === 'turn', JSON.stringify(retried));
    assert.equal(await service.lastSeq(id), at2);
    const you = await service.seat(id, 0, ava.token);
    assert.ok(you.ok && you.value.you.orders === null, 'no orders for turn 2');
  } finally {
    await close();
  }
});

test('orders that arrive after the deadline are refused with 409 deadline and never played, even before the turn is played', async () => {
  const { service, clock, close } = await countedService('sqlite');
  try {
    const created = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 60 }, deal: { secret: false, seed: 3 } });
    assert.ok(created.ok);
    const { id, seats } = created.value;
    const a = await firstCards(service, id, 0, seats[0]!.token!);
    clock.advance(60_000);
    const before = await service.lastSeq(id);
    const late = await service.submit(id, 0, { token: seats[0]!.token! }, a);
    assert.ok(!late.ok && late.refusal.status === 409 && late.refusal.field === 'deadline', JSON.stringify(late));
    assert.equal(await service.lastSeq(id), before, 'nothing was stored');
    // The deadline plays the turn without them: both seats are filled at random.
    assert.equal(await service.tick(), 1);
    const filled = (await service.entries(id, before)).ok ? (await service.entries(id, before)) : null;
    assert.ok(filled?.ok);
    assert.deepEqual(filled.value.filter((e) => e.event.type === 'filled').map((e) => (e.event as { seat: number }).seat), [0, 1]);
  } finally {
    await close();
  }
});

test('[sqlite] a turn as the benchmark plays it (two seat views, two PUTs, the played frame) costs 8 statements in 2 transactions: the race, its orders, its clock and the played turn are not read', async () => {
  const { service, counts, close, reset, tally } = await countedService('sqlite', true);
  try {
    const created = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 3 } });
    assert.ok(created.ok);
    const { id, seats } = created.value;
    const frames: PlayedFrame[] = [];
    service.bus.on('committed', (_id: string, _seq: number, _entries: unknown, played?: HandedPlay) => played && frames.push(played.frame()));
    for (let turn = 1; turn <= 3; turn++) {
      reset();
      const a = await firstCards(service, id, 0, seats[0]!.token!);
      const b = await firstCards(service, id, 1, seats[1]!.token!);
      assert.ok((await service.submit(id, 0, { token: seats[0]!.token! }, a)).ok);
      assert.ok((await service.submit(id, 1, { token: seats[1]!.token! }, b)).ok);
      // The seat views read nothing, the PUTs write (3 and 5 as above), the frame reads nothing.
      assert.deepEqual(tally(), { statements: 8, transactions: 2, outside: 0 }, `a turn:\n${counts.sql.join('\n')}`);
      assert.equal(frames.length, turn, 'the played turn was handed over with its announcement');
    }
  } finally {
    await close();
  }
});

/** A stream client as the hub sees it: a socket that takes every frame at once, keeping the seqs and the turns played it got. */
function heldSocket() {
  const got = { seqs: [] as number[], played: [] as number[] };
  const socket = {
    readyState: 1, bufferedAmount: 0,
    // As ws's: (data, callback) or (data, options, callback); data a string or its UTF-8 bytes.
    send(frame: string | Buffer, options?: object | (() => void), callback?: () => void) {
      const done = typeof options === 'function' ? options : callback;
      const f = JSON.parse(String(frame));
      for (const e of Array.isArray(f) ? f : f.entries ?? []) got.seqs.push(e.seq);
      if (f.played) got.played.push(f.played.turn);
      done?.();
    },
    on: () => undefined, ping: () => undefined,
    terminate: () => void (socket.readyState = 3), close: () => void (socket.readyState = 3),
  };
  return { socket: socket as unknown as WebSocket, got };
}

/**
 * Two server processes on one PostgreSQL database, in this one: each a race service with its own
 * pool (its statements and round trips counted) and its own stream hub, the NOTIFY between them
 * played by handing each commit's notification, as fanout.ts writes and reads it, to the other.
 * With `held`, the notifications wait there, each process's in order, until the test hands them on;
 * `max`: the longest notification (fanout.ts `entriesPayload`), to make a play too long to be told.
 */
async function twoCounted(held?: (() => void)[][], max?: number) {
  const fresh = await freshDb('postgres');
  await fresh.db.destroy();
  const clock = new TestClock();
  const procs: { service: RaceService; hub: StreamHub; stats: NonNullable<ReturnType<typeof openDb>['stats']>; db: ReturnType<typeof openDb>['db'] }[] = [];
  for (const k of [0, 1]) {
    const { db, stats } = openDb({ url: fresh.url! });
    const service = new RaceService({
      db, clock, course: (n) => courses.get(n), alone: false,
      published: (id, seq, note) => {
        const tell = () => {
          const heard = readNotification(ENTRIES_CHANNEL, entriesPayload(`p${k}`, id, seq, note, max), `p${1 - k}`);
          if (heard?.kind === 'entries') procs[1 - k]!.service.committedElsewhere(heard.race, heard.seq, heard.note);
        };
        if (held) held[k]!.push(tell);
        else setImmediate(tell);
      },
    });
    const hub = new StreamHub({
      entries: (id, after, limit) => service.entries(id, after, limit),
      lastSeq: (id) => service.lastSeq(id),
      played: async (id, turn) => {
        const got = await service.played(id, turn);
        return got.ok ? { turn, ...got.value } : null;
      },
    });
    service.bus.on('committed', (id: string, seq: number, entries?: readonly Entry[], played?: HandedPlay) => hub.committed(id, seq, entries, played));
    procs.push({ service, hub, stats: stats!, db });
  }
  const observer = openDb({ url: fresh.url! }).db;
  const counted = () => procs.reduce((a, p) => ({ statements: a.statements + p.stats.statements, roundTrips: a.roundTrips + p.stats.roundTrips }), { statements: 0, roundTrips: 0 });
  const close = async () => {
    await observer.destroy();
    for (const p of procs) {
      p.hub.close();
      await p.db.destroy();
    }
    await dropSchema(fresh.url);
  };
  return { procs, observer, counted, close };
}

test('[postgres] two processes: a turn as the benchmark plays it (a person on each, each with a stream client; a seat view and a PUT on each) costs 8 statements in 2 round trips over both, the PUTs\' (the seat views, sent with the last seq seen, read nothing; the play is followed from its notification), the last orders on either', { skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)', timeout: 60_000 }, async () => {
  const { procs, observer, counted, close } = await twoCounted();
  try {
    const created = await seatedRace(procs[0]!.service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }, { name: 'Bolt', bot: 'random' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 9 } });
    assert.ok(created.ok);
    const { id, seats } = created.value;
    const clients = procs.map((p) => {
      const c = heldSocket();
      p.hub.attach(c.socket, id, 0);
      return c.got;
    });
    // Every entry committed so far, and every turn played, on both clients: nothing is left to read
    // (the race as it stands read apart, not counted).
    const settled = async () => {
      const row = await observer.selectFrom('races').select(['last_seq', 'state', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
      // An ended race stays at its last turn.
      const played = (JSON.parse(row.state) as { turn: number }).turn - (row.status === 'over' ? 0 : 1);
      await until(`both stream clients to have the ${row.last_seq} entries and the ${played} turns played`, () => clients.every((c) => c.seqs.length === row.last_seq && c.played.length === played))
        .catch((e: Error) => assert.fail(`${e.message}: ${JSON.stringify(clients)}`));
      return played;
    };
    await settled();
    const perTurn: { statements: number; roundTrips: number }[] = [];
    for (let turn = 1; turn <= 7; turn++) {
      const before = counted();
      // The person on process 0 first on odd turns, the one on process 1 on even ones: the last orders land on each in turn.
      for (const seat of turn % 2 ? [0, 1] : [1, 0]) {
        const p = procs[seat]!.service;
        // With the last seq the seat's stream client has seen, as the web client sends it.
        const you = await p.seat(id, seat, seats[seat]!.token!, clients[seat]!.seqs.at(-1));
        assert.ok(you.ok, JSON.stringify(you));
        // A robot out or locked whole sends nothing: the turn goes on without it (the other's orders played it).
        if (you.value.turn !== turn || !you.value.you.needsProgram) continue;
        const program = you.value.you.hand.slice(0, you.value.you.openRegisters.length);
        assert.ok((await p.submit(id, seat, { token: seats[seat]!.token! }, { turn, program })).ok);
        await settled();
      }
      assert.equal(await settled(), turn, 'the last orders played the turn');
      const after = counted();
      perTurn.push({ statements: after.statements - before.statements, roundTrips: after.roundTrips - before.roundTrips });
      // Both clients got every entry once, in order.
      for (const c of clients) assert.deepEqual(c.seqs, Array.from({ length: c.seqs.length }, (_, k) => k + 1));
    }
    // The first turn reads the race in the process it was not created in. Then, a turn: each seat
    // view, sent with the last seq its stream client has seen, is answered from the race kept (it
    // reaches that seq) and reads nothing; the PUTs take the race kept
    // unchecked and write as one process does (3 + 5 statements, one round trip each, the commit
    // with the writes), and both notifications are followed from what they tell: the first PUT's
    // orders, and the play, told whole (compressed: its entries, its new state, the dealt turn's
    // beginning), its frame made from the turn's log kept there; nothing read. (On 079da87:
    // 25 statements, 12 round trips; on 7817dcb, the PUTs reading the version and committing apart:
    // 15 and 9; on e10c287, each seat view reading the race's version and the play read back by
    // the other process in one round trip of 3: 13 and 5.)
    assert.deepEqual(perTurn.slice(1), Array(6).fill({ statements: 8, roundTrips: 2 }), JSON.stringify(perTurn));
  } finally {
    await close();
  }
});

test('a process told that other processes\' notifications may have been missed (its listener was lost) lets the races it keeps go: the next seat view reads the race again', async () => {
  const { service, close, reset, tally } = await countedService('sqlite', true);
  try {
    const created = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 3 } });
    assert.ok(created.ok);
    const { id, seats } = created.value;
    const view = async () => {
      reset();
      assert.ok((await service.seat(id, 0, seats[0]!.token!)).ok);
      return tally().statements;
    };
    await view();
    assert.equal(await view(), 0, 'a race kept is not read');
    service.missedNotes();
    assert.ok(await view() > 0, 'read again once notifications may have been missed');
    assert.equal(await view(), 0, 'and kept again');
  } finally {
    await close();
  }
});

test('[postgres] two processes: a commit noted while the other process reads back the turn played before it waits for that read; the race kept there ends at the database\'s version, and its streams are handed each commit\'s entries in order', { skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)', timeout: 60_000 }, async () => {
  const held: (() => void)[][] = [[], []];
  // A play too long to be told (2 to 3 KB compressed): B reads it back. Orders' notes (a few hundred bytes) are told.
  const { procs, observer, close } = await twoCounted(held, 1000);
  const [A, B] = [procs[0]!.service, procs[1]!.service];
  const next = () => held[0]!.shift()!();
  try {
    const created = await seatedRace(A, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 9 } });
    assert.ok(created.ok);
    const { id, seats } = created.value;
    // The notes of the two seats taken go through first.
    while (held[0]!.length) next();
    const put = async (seat: number, turn: number) => {
      const you = await A.seat(id, seat, seats[seat]!.token!);
      assert.ok(you.ok && you.value.turn === turn && you.value.you.needsProgram, JSON.stringify(you));
      assert.ok((await A.submit(id, seat, { token: seats[seat]!.token! }, { turn, program: you.value.you.hand.slice(0, you.value.you.openRegisters.length) })).ok);
    };
    // B keeps the race (a seat view there) and streams it to a client.
    assert.ok((await B.seat(id, 1, seats[1]!.token!)).ok);
    const client = heldSocket();
    procs[1]!.hub.attach(client.socket, id, 0);
    const first = (await observer.selectFrom('races').select('last_seq').where('id', '=', id).executeTakeFirstOrThrow()).last_seq;
    await until('the client to have the race\'s first entries', () => client.got.seqs.length === first);
    const told: { seq: number; handed: boolean }[] = [];
    B.bus.on('committed', (_id: string, seq: number, entries?: readonly Entry[]) => told.push({ seq, handed: entries !== undefined }));
    // Turn 1 played on A (Ava's orders, then Bob's): two notes; B follows the first.
    await put(0, 1);
    await put(1, 1);
    assert.equal(held[0]!.length, 2);
    next();
    // B's read of the play is held once PostgreSQL has answered it (the race at the play's version
    // then), while Ava's orders of turn 2 are committed on A and their note arrives.
    const repo = (B as unknown as { repo: { db: object; cache: { get(id: string): { race: { version: number } } | undefined } } }).repo;
    const db = repo.db as { executeQuery: (...a: unknown[]) => Promise<unknown> };
    let answered!: () => void;
    const read = new Promise<void>((r) => (answered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    repo.db = new Proxy(db, {
      get: (target, key) => key === 'executeQuery'
        ? async (...a: unknown[]) => {
          const got = await target.executeQuery(...a);
          // The read of the play (db.ts `together`), not a stream's.
          if ((a[0] as { sql: string }).sql !== '-- pipelined') return got;
          answered();
          await gate;
          return got;
        }
        : typeof Reflect.get(target, key) === 'function' ? (Reflect.get(target, key) as (...a: unknown[]) => unknown).bind(target) : Reflect.get(target, key),
    });
    next();
    await read;
    repo.db = db;
    await put(0, 2);
    next();
    release();
    const row = await observer.selectFrom('races').select(['version', 'last_seq']).where('id', '=', id).executeTakeFirstOrThrow();
    await until('B told of the last commit', () => told.some((t) => t.seq === row.last_seq));
    await until('the client to have every entry', () => client.got.seqs.length === row.last_seq);
    assert.deepEqual(client.got.seqs, Array.from({ length: row.last_seq }, (_, k) => k + 1));
    assert.equal(repo.cache.get(id)?.race.version, Number(row.version), 'the race kept on B is at the database\'s version');
    assert.deepEqual(told.map((t) => t.seq), [...told.map((t) => t.seq)].sort((a, b) => a - b), `B's streams told of the commits in order: ${JSON.stringify(told)}`);
    assert.ok(told.every((t) => t.handed), `each commit's entries handed to B's streams, none read: ${JSON.stringify(told)}`);
  } finally {
    await close();
  }
});

test('[postgres] a change whose version bump finds no row keeps nothing, though its commit goes with its writes: not when another change came first, nor when the deadline it must beat has passed', { skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' }, async () => {
  const { service, close } = await countedService('postgres');
  try {
    const created = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 3 } });
    assert.ok(created.ok);
    const { id } = created.value;
    const repo = (service as unknown as { repo: RaceRepository }).repo;
    const stored = async () => {
      const race = await repo.race(id);
      const entries = await service.entries(id, 0);
      assert.ok(race && entries.ok);
      return { version: race.version, lastSeq: race.last_seq, entries: entries.value.length, deadline: race.deadline_at };
    };
    const was = await stored();
    const entry = [{ turn: 1, kind: 'race' as const, event: { type: 'paused' as const } }];
    // The deadline passed: the version is the race's, the entry's seq is free, yet nothing is kept.
    assert.equal(await repo.commitChange({ id, version: was.version, last_seq: was.lastSeq }, entry, { set: { deadline_at: null }, beforeDeadline: was.deadline! }), null);
    assert.deepEqual(await stored(), was, 'nothing of the change kept once its deadline passed');
    // Another version: nothing kept either.
    assert.equal(await repo.commitChange({ id, version: was.version - 1, last_seq: was.lastSeq }, entry, { set: { deadline_at: null } }), null);
    assert.deepEqual(await stored(), was, 'nothing of a change from another version kept');
    // The same change at the race's version, before its deadline: committed.
    assert.equal(await repo.commitChange({ id, version: was.version, last_seq: was.lastSeq }, entry, { set: { deadline_at: null }, beforeDeadline: was.deadline! - 1 }), was.lastSeq + 1);
    assert.deepEqual(await stored(), { version: was.version + 1, lastSeq: was.lastSeq + 1, entries: was.entries + 1, deadline: null });
  } finally {
    await close();
  }
});

/**
 * Two processes (`twoCounted`) whose notifications wait until the test hands them on (`release`),
 * and a live race of Ava and Bob created on the first (A).
 */
async function heldRace() {
  const held: (() => void)[][] = [[], []];
  const { procs, observer, close } = await twoCounted(held);
  const created = await seatedRace(procs[0]!.service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 9 } });
  if (!created.ok) {
    await close();
    assert.fail(JSON.stringify(created));
  }
  const release = () => {
    for (const k of [0, 1]) while (held[k]!.length) held[k]!.shift()!();
  };
  return { A: procs[0]!.service, B: procs[1]!.service, observer, close, release, ...created.value };
}

test('[postgres] two processes: orders sent to a process whose kept race is stale (the other\'s commit not noted there yet) are committed from a fresh read, the turn played once; orders for a turn the other process dealt are not refused from the stale copy', { skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)', timeout: 60_000 }, async () => {
  const { A, B, observer, close, release, id, seats } = await heldRace();
  try {
    const orders = async (p: RaceService, seat: number, turn: number) => {
      const you = await p.seat(id, seat, seats[seat]!.token!);
      assert.ok(you.ok && you.value.turn === turn, JSON.stringify(you));
      return { turn, program: you.value.you.hand.slice(0, you.value.you.openRegisters.length) };
    };
    const ended = async (turn: number) => (await observer.selectFrom('events').select('body').where('race_id', '=', id).where('turn', '=', turn).execute())
      .filter((r) => JSON.parse(r.body).event.type === 'turnEnded').length;
    // Both processes keep the race at turn 1.
    const bob1 = await orders(B, 1, 1);
    const ava1 = await orders(A, 0, 1);
    // Ava's orders on A, its notification to B held: B's copy does not have them.
    assert.ok((await A.submit(id, 0, { token: seats[0]!.token! }, ava1)).ok);
    // Bob's on B: from its copy, not the last; refused at the commit, they are taken again from a read, and play the turn.
    const bob = await B.submit(id, 1, { token: seats[1]!.token! }, bob1);
    assert.ok(bob.ok, JSON.stringify(bob));
    assert.equal(await ended(1), 1, 'turn 1 played once');
    // A's copy is at turn 1 (B's notification of the play held). Ava, who saw turn 2 dealt on B, sends its orders to A.
    const ava2 = await orders(B, 0, 2);
    const ava = await A.submit(id, 0, { token: seats[0]!.token! }, ava2);
    assert.ok(ava.ok, `orders for turn 2 answered from a stale copy: ${JSON.stringify(ava)}`);
    const stored = await observer.selectFrom('orders').select('seat').where('race_id', '=', id).where('turn', '=', 2).execute();
    assert.deepEqual(stored.map((r) => r.seat), [0]);
    release();
    assert.equal(await ended(1), 1);
    assert.equal(await ended(2), 0);
  } finally {
    await close();
  }
});

test('[postgres] two processes: orders of an older revision sent to a process whose kept race is stale (the newer orders, stored by the other, not noted there yet) are refused with 409 revision from a fresh read, and the newer orders stay', { skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)', timeout: 60_000 }, async () => {
  const { A, B, observer, close, release, id, seats } = await heldRace();
  try {
    const ava = { token: seats[0]!.token! };
    // Both processes keep the race at turn 1, with no orders.
    const { program } = await firstCards(A, id, 0, ava.token);
    await firstCards(B, id, 0, ava.token);
    const newer = { turn: 1, program: [...program].reverse(), revision: 2 };
    // The newer orders on B, its notification to A held: A's copy holds no orders of Ava's.
    assert.ok((await B.submit(id, 0, ava, newer)).ok);
    const late = await A.submit(id, 0, ava, { turn: 1, program, revision: 1 });
    assert.ok(!late.ok && late.refusal.status === 409 && late.refusal.field === 'revision', JSON.stringify(late));
    const stored = await observer.selectFrom('orders').select('body').where('race_id', '=', id).where('turn', '=', 1).where('seat', '=', 0).execute();
    assert.deepEqual(stored.map((r) => JSON.parse(r.body).program), [newer.program]);
    release();
  } finally {
    await close();
  }
});
