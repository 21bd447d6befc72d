import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { ENTRIES_CHANNEL, entriesPayload, postgresFanout, readNotification } from './fanout.js';
import pg from 'pg';
import { PG_URL, postgresAnswers, until } from './testing.js';

const havePostgres = await postgresAnswers();

const readDecided = (payload: string, self: string) => {
  const h = readNotification('roborally_bots', payload, self);
  if (h !== null && h.kind !== 'decided') assert.fail(`read as ${h.kind}`);
  return h && [h.race, h.turn, h.bots, h.orders] as const;
};

const decision = (over: Record<string, unknown> = {}) => JSON.stringify({
  from: 'other', race: 'r1', turn: 3, bots: [{ seat: 2, level: 'strong' }],
  orders: { 2: { level: 'strong', orders: { program: [120, 340, 500, 10, 80], powerDown: false } } }, ...over,
});

test('a bot decision another process shared is read with its race, turn, bots and orders; this process\'s own is skipped', () => {
  assert.deepEqual(readDecided(decision(), 'me'), ['r1', 3, [{ seat: 2, level: 'strong' }], { 2: { level: 'strong', orders: { program: [120, 340, 500, 10, 80], powerDown: false } } }]);
  assert.equal(readDecided(decision(), 'other'), null);
  assert.deepEqual(readDecided(decision({ orders: { 2: { level: 'random', orders: null } } }), 'me')?.[3], { 2: { level: 'random', orders: null } });
});

test('a bot decision of another shape is ignored: unknown keys, an unknown level, cards that are no numbers, a bot without orders, orders of a seat that is no bot', () => {
  const bad = [
    'not json',
    decision({ orders: { 2: { level: 'strong', orders: { program: [1], launch: true } } } }),
    decision({ orders: { 2: { level: 'strong', orders: null, extra: 1 } } }),
    decision({ orders: { 2: { level: 'godlike', orders: null } } }),
    decision({ orders: { 2: { level: 'strong', orders: { program: ['F1'] } } } }),
    decision({ orders: { 2: { level: 'strong', orders: { powerDown: 'yes' } } } }),
    decision({ orders: {} }),
    decision({ orders: { 2: { level: 'strong', orders: null }, 1: { level: 'strong', orders: null } } }),
    decision({ bots: [{ seat: 2, level: 'nope' }] }),
    decision({ turn: -1 }),
    decision({ race: 7 }),
  ];
  for (const p of bad) assert.equal(readDecided(p, 'me'), null, p);
});

test('a notification is read once into what it says, by its channel: greetings, entries, drafts, calls for bots; other shapes and this process\'s own are ignored', () => {
  assert.deepEqual(readNotification('roborally_bots', '{"from":"o","hello":1}', 'me'), { kind: 'hello', answer: true });
  assert.deepEqual(readNotification('roborally_bots', '{"from":"o","hello":2}', 'me'), { kind: 'hello', answer: false });
  assert.deepEqual(readNotification('roborally_entries', '{"from":"o","race":"r1","seq":12}', 'me'), { kind: 'entries', race: 'r1', seq: 12 });
  assert.deepEqual(readNotification('roborally_drafts', '{"from":"o","race":"r1","turn":3,"seat":1,"filled":2}', 'me'), { kind: 'draft', race: 'r1', draft: { turn: 3, seat: 1, filled: 2 } });
  assert.deepEqual(readNotification('roborally_bots', '{"from":"o","kind":"wanted","race":"r1","turn":3}', 'me'), { kind: 'bots', call: 'wanted', race: 'r1', turn: 3 });
  for (const [channel, payload] of [
    ['roborally_entries', '{"from":"me","race":"r1","seq":12}'],
    ['roborally_entries', '{"from":"o","race":"r1","seq":-1}'],
    ['roborally_entries', '{"from":"o","hello":1}'],
    ['roborally_drafts', '{"from":"o","race":"r1","turn":3,"seat":1,"filled":6}'],
    ['roborally_bots', '{"from":"o","kind":"asked","race":"r1","turn":3}'],
    ['roborally_bots', '{"from":"o","race":"r1","seq":12}'],
    ['elsewhere', '{"from":"o","race":"r1","seq":12}'],
    ['roborally_bots', '[1'],
  ]) assert.equal(readNotification(channel!, payload!, 'me'), null, `${channel} ${payload}`);
});

test('greetings are not counted among the notifying statements sent; a commit\'s notification is; a process alone sends the notifications of many turns of its event loop in one statement', { skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' }, async (t) => {
  const heard: string[] = [];
  const listener = new pg.Client({ connectionString: PG_URL });
  await listener.connect();
  listener.on('notification', (n) => heard.push(n.payload ?? ''));
  await listener.query('LISTEN roborally_entries');
  const fanout = await postgresFanout(PG_URL, { entries: () => undefined, resync: () => undefined, draft: () => undefined, bots: () => undefined, decided: () => undefined });
  try {
    const race = `pgcpu-${Math.random().toString(36).slice(2)}`;
    // The greeting on start is flushed at once, or at the latest with the first commits.
    fanout.publish(race, 1);
    await until('the first notification', () => heard.some((p) => p.includes(race)));
    assert.equal(fanout.sent(), 1);
    // Alone once the others' answers to its greeting would have come (unless another server is on this database).
    const alone = await until('the process to count itself alone', () => fanout.alone(), 5000).catch(() => false);
    const before = fanout.sent();
    // Twenty commits, each in a turn of the event loop of its own.
    for (let seq = 2; seq <= 21; seq++) {
      fanout.publish(race, seq);
      await new Promise((r) => setImmediate(r));
    }
    await until('the twenty notifications', () => heard.filter((p) => p.includes(race)).length === 21);
    // Another server on this database (another test's) counts as another process: then one statement a turn of the loop.
    if (alone && fanout.alone()) assert.ok(fanout.sent() - before <= 10, `${fanout.sent() - before} statements for 20 commits`);
    else t.diagnostic('another server notified on this database: not alone, not checked');
  } finally {
    await fanout.close();
    await listener.end();
  }
});

test('a process alone on PostgreSQL does not count itself alone while its listener is lost, nor once back until the others could have answered its greeting; back, it is told to resync', { skip: !havePostgres && 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)', timeout: 30_000 }, async (t) => {
  const name = `fanout-lost-${Math.random().toString(36).slice(2)}`;
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}application_name=${name}`;
  let resyncs = 0;
  // Whether the process counted itself alone when it was told to resync.
  const aloneAtResync: boolean[] = [];
  const fanout: Awaited<ReturnType<typeof postgresFanout>> = await postgresFanout(url, {
    entries: () => undefined, resync: () => (resyncs++, aloneAtResync.push(fanout.alone())), draft: () => undefined, bots: () => undefined, decided: () => undefined,
  });
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    if (!(await until('the process to count itself alone', () => fanout.alone(), 10_000).catch(() => false))) return t.skip('another server notified on this database: never alone');
    // Its listener's connection ends (a database restart, a lost network).
    const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and query like 'LISTEN%'`, [name]);
    assert.equal(killed.rowCount, 1, 'the listener found');
    await until('the process to stop counting itself alone', () => !fanout.alone(), 5000);
    await until('the listener back, and the process told to resync', () => resyncs === 1, 10_000);
    assert.deepEqual(aloneAtResync, [false], 'not alone the moment it is back');
    await until('alone again once the others could have answered', () => fanout.alone(), 10_000);
  } finally {
    await admin.end();
    await fanout.close();
  }
});

test('a commit\'s notification tells its version and, when the whole fits, its entries and writes; a play, compressed, whole too, and one too long even so only that it dealt a turn; a note of another shape is dropped, the seq kept', () => {
  const entries = [{ turn: 3, kind: 'race' as const, event: { type: 'submitted' as const, seat: 1 } }];
  const small = { version: 7, entries, set: { play_by: 123 }, orders: { turn: 3, seat: 1, body: '{"program":[1,2]}' } };
  assert.deepEqual(readNotification(ENTRIES_CHANNEL, entriesPayload('o', 'r1', 12, small), 'me'), { kind: 'entries', race: 'r1', seq: 12, note: small });
  const opaque = { version: 8, entries, set: { state: '{}', deadline_at: null }, opaque: true as const, seatsChanged: true as const };
  assert.deepEqual(readNotification(ENTRIES_CHANNEL, entriesPayload('o', 'r1', 12, opaque), 'me'), { kind: 'entries', race: 'r1', seq: 12, note: opaque });
  const long = { version: 9, dealt: 4, entries: Array.from({ length: 200 }, () => ({ turn: 3, kind: 'game' as const, event: { type: 'moved', pad: 'x'.repeat(40) } as never })) };
  const told = entriesPayload('o', 'r1', 212, long);
  assert.ok(Buffer.byteLength(told) < 8000, 'within a notification');
  assert.deepEqual(readNotification(ENTRIES_CHANNEL, told, 'me'), { kind: 'entries', race: 'r1', seq: 212, note: { version: 9, dealt: 4 } });
  assert.deepEqual(readNotification(ENTRIES_CHANNEL, entriesPayload('o', 'r1', 12), 'me'), { kind: 'entries', race: 'r1', seq: 12 });
  // A play is told whole, compressed: its entries, columns, first seq and the dealt turn's beginning.
  const state = JSON.stringify({ turn: 4, robots: Array.from({ length: 8 }, (_, k) => ({ seat: k, hand: [10 * k, 20, 30, 40, 50, 60, 70, 80, 90], damage: 0 })) });
  const play = { version: 10, dealt: 4, entries: long.entries, set: { state, deadline_at: 99, status: 'running', play_by: null }, played: { first: 13, before: state.replace('"turn":4', '"turn":3') } };
  const whole = entriesPayload('o', 'r1', 212, play);
  assert.ok(Buffer.byteLength(whole) < 8000 && Buffer.byteLength(JSON.stringify(play)) > 8000, `a play longer than a notification told in one: ${Buffer.byteLength(whole)} bytes`);
  assert.deepEqual(readNotification(ENTRIES_CHANNEL, whole, 'me'), { kind: 'entries', race: 'r1', seq: 212, note: play });
  // Too long even so: only that it dealt the turn.
  assert.deepEqual(readNotification(ENTRIES_CHANNEL, entriesPayload('o', 'r1', 212, play, 200), 'me'), { kind: 'entries', race: 'r1', seq: 212, note: { version: 10, dealt: 4 } });
  const z = (m: unknown) => deflateRawSync(JSON.stringify(m)).toString('base64');
  const head = { from: 'o', race: 'r1', seq: 12, v: 7 };
  for (const bad of [
    { v: -1 }, { v: 7, t: 'x' }, { e: [] }, { e: [{ turn: 3, kind: 'note', event: { type: 'x' } }] }, { e: [{ turn: 3, kind: 'race', event: { type: 1 } }] },
    { e: [{ turn: 3, kind: 'race', event: { type: 'x' }, seq: 4 }] }, { e: [{ turn: 3, kind: 'race', event: { type: 'x' } }], s: { version: 3 } },
    { e: [{ turn: 3, kind: 'race', event: { type: 'x' } }], s: { deadline_at: 'soon' } }, { e: [{ turn: 3, kind: 'race', event: { type: 'x' } }], o: { turn: 3, seat: 1 } },
    { s: { play_by: 1 } },
    // A compressed play: without its turn dealt, not deflated, of another shape, with something else beside it.
    { z: z({ e: play.entries, s: {}, f: 13, d: '{}' }) }, { t: 4, z: 'not deflated' }, { t: 4, z: z({ e: play.entries, s: {}, f: 13 }) },
    { t: 4, z: z({ e: play.entries, s: { version: 3 }, f: 13, d: '{}' }) }, { t: 4, z: z({ e: play.entries, s: {}, f: 13, d: '{}', x: 1 }) },
    { t: 4, z: z({ e: play.entries, s: {}, f: 13, d: '{}' }), e: play.entries }, { t: 4, z: 7 },
  ]) assert.deepEqual(readNotification(ENTRIES_CHANNEL, JSON.stringify({ ...head, ...bad }), 'me'), { kind: 'entries', race: 'r1', seq: 12 }, JSON.stringify(bad));
});
