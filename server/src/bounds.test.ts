/**
 * Every number a client can send, in a path, a query or a body, is bounded: out-of-range, fractional,
 * huge and non-numbers are answered 4xx naming the field, never 500, on SQLite and on PostgreSQL;
 * so is a body nested thousands deep. Nothing is changed by a refused request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COURSES_DIR } from '../../boards/src/index.js';
import { call, dropSchema, freshDb, postgresAnswers, startServer, createSeated } from './testing.js';

const havePostgres = await postgresAnswers();
const skipFor = (d: string) => (d === 'postgres' && !havePostgres ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : false);
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Numbers no field takes, as they would be written in a path or query, and in JSON. */
const TEXT = ['2147483648', '9007199254740992', '1e308', '1.5', '-1', 'NaN', 'Infinity', 'abc', '0x10000000000', '1e3', '+1', '0x10', ' 1', '1 '];
const JSON_NUMBERS = [2 ** 31, 2 ** 53, 1e308, 1.5, -1, -(2 ** 31) - 1];

/** The status of a WebSocket upgrade the server refused (0 if it was accepted). */
const upgradeStatus = (url: string) =>
  new Promise<number>((resolve) => {
    const ws = new WebSocket(url);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => (ws.close(), resolve(0)));
    ws.on('error', () => undefined);
  });

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] every number in a path or query at 2^31, 2^53, 1e308, 1.5, below zero, not a number or not plain digits (1e3, +1, 0x10, spaces) is answered 4xx naming it`, { skip: skipFor(dialect), timeout: 120_000 }, async () => {
    const { db, url } = await freshDb(dialect);
    const s = await startServer(db, undefined, { max: 100_000, windowMs: 10_000 });
    try {
      const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deal: { secret: false, seed: 1 } })).body;
      const before = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      const a = auth(race.seats[0].token);
      const routes: [string, (n: string) => string, string, unknown?][] = [
        ['GET', (n) => `/api/races/${race.id}/turns/${n}`, 'turn'],
        ['GET', (n) => `/api/races/${race.id}/turns/${n}/report`, 'turn'],
        ['GET', (n) => `/api/races/${race.id}/turns/${n}/picture.svg`, 'turn'],
        ['GET', (n) => `/api/races/${race.id}/events?after=${n}`, 'after'],
        ['GET', (n) => `/api/races/${race.id}/seats/${n}`, 'seat'],
        ['PUT', (n) => `/api/races/${race.id}/seats/${n}/orders`, 'seat', { turn: 1, program: [] }],
        ['POST', (n) => `/api/races/${race.id}/seats/${n}/recompile`, 'seat'],
        ['PUT', (n) => `/api/races/${race.id}/seats/${n}/draft`, 'seat', { turn: 1, filled: 1 }],
      ];
      for (const [method, path, field, body] of routes)
        for (const n of TEXT) {
          const r = await call(s.base, method, path(encodeURIComponent(n)), body, a);
          assert.equal(r.status, 422, `${method} ${path(n)}: ${JSON.stringify(r.body)}`);
          assert.equal(r.body.error.field, field, `${method} ${path(n)}`);
        }
      const ws = `${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`;
      for (const n of TEXT) assert.equal(await upgradeStatus(`${ws}?after=${encodeURIComponent(n)}`), 422, `stream?after=${n}`);
      // The largest that is taken is answered as usual.
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}/turns/2147483647`)).status, 404);
      assert.deepEqual((await call(s.base, 'GET', `/api/races/${race.id}/events?after=2147483647`)).body, []);
      assert.deepEqual((await call(s.base, 'GET', `/api/races/${race.id}`)).body, before);
    } finally {
      await s.close();
      await db.destroy();
      await dropSchema(url);
    }
  });

  test(`[${dialect}] every number in a body at 2^31, 2^53, 1e308, 1.5 or below its least is refused naming its field, and nothing is made`, { skip: skipFor(dialect), timeout: 120_000 }, async () => {
    const { db, url } = await freshDb(dialect);
    const s = await startServer(db, undefined, { max: 100_000, windowMs: 10_000 });
    try {
      const base = { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }] };
      const races: [string, (n: number) => Record<string, unknown>][] = [
        ['deal.seed', (n) => ({ ...base, deal: { secret: false, seed: n } })],
        ['deadline.seconds', (n) => ({ ...base, deadline: { kind: 'live', seconds: n } })],
        ['deadline.minimumHours', (n) => ({ ...base, deadline: { kind: 'scheduled', time: '22:00', minimumHours: n === 1.5 ? -1.5 : n } })],
        ['seats[0].lives', (n) => ({ ...base, seats: [{ name: 'Ava', lives: n }] })],
        ['seats[0].damage', (n) => ({ ...base, seats: [{ name: 'Ava', damage: n }] })],
        ['seats[0].start[0]', (n) => ({ ...base, seats: [{ name: 'Ava', start: [n, 0] }] })],
        ...['lives', 'turnLimit', 'threeMinuteRule', 'maxOptions', 'playOn'].map((k) => [`settings.${k}`, (n: number) => ({ ...base, settings: { [k]: n } })] as [string, (n: number) => Record<string, unknown>]),
        ['settings.diceRule[0]', (n) => ({ ...base, settings: { diceRule: [n, 1, 1] } })],
      ];
      for (const [field, make] of races)
        for (const n of JSON_NUMBERS) {
          const r = await createSeated(s.base, make(n));
          assert.equal(r.status, 422, `${field} = ${n}: ${JSON.stringify(r.body)}`);
          assert.equal(r.body.error.field, field, `${field} = ${n}`);
        }
      assert.equal((await db.selectFrom('races').select('id').execute()).length, 0, 'nothing was made');

      const race = (await createSeated(s.base, { ...base, deal: { secret: false, seed: 2 ** 31 - 1 } })).body;
      assert.ok(race.id, 'the largest seed is taken');
      const mod = { 'x-moderator-key': race.moderatorKey };
      const before = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
      const moderated: [string, string, (n: number) => unknown][] = [
        ['extend', 'seconds', (n) => ({ seconds: n })],
        ['replace', 'seat', (n) => ({ seat: n })],
        ['adjudicate', 'turn', (n) => ({ turn: n })],
      ];
      for (const [action, field, make] of moderated)
        for (const n of JSON_NUMBERS) {
          const r = await call(s.base, 'POST', `/api/races/${race.id}/moderator/${action}`, make(n), mod);
          assert.deepEqual([r.status, r.body.error?.field], [422, field], `${action} ${n}: ${JSON.stringify(r.body)}`);
        }
      for (const n of JSON_NUMBERS) {
        const r = await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, unlock: [n] }, auth(race.seats[0].token));
        assert.deepEqual([r.status, r.body.error?.field], [422, 'unlock[0]'], `unlock ${n}`);
      }
      assert.deepEqual((await call(s.base, 'GET', `/api/races/${race.id}`)).body, before, 'nothing changed');
    } finally {
      await s.close();
      await db.destroy();
      await dropSchema(url);
    }
  });

  test(`[${dialect}] a body nested 5,000 deep is refused before it is read, and the server goes on`, { skip: skipFor(dialect) }, async () => {
    const { db, url } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }] })).body;
      const deep = (open: string, close: string) => `${open.repeat(5000)}${close.repeat(5000)}`;
      for (const [path, text] of [
        [`/api/races/${race.id}/seats/0/orders`, `{"program": ${deep('[', ']')}}`],
        [`/api/races/${race.id}/seats/0/orders`, `{"choices": {"shield": ${deep('{"a":', '}').replace(/\{"a":\}/, '{}')}}}`],
        ['/api/races', `{"course": ${deep('{"boards":', '}').replace(/\{"boards":\}/, '{}')}, "seats": [{"name": "A"}]}`],
      ] as const) {
        const r = await call(s.base, path.endsWith('orders') ? 'PUT' : 'POST', path, text, auth(race.seats[0].token));
        assert.deepEqual([r.status, r.body.error?.field], [422, 'body'], `${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      // Strings may hold brackets: only the structure counts.
      const brackets = await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, `{"program": ["${'['.repeat(40)}"]}`, auth(race.seats[0].token));
      assert.notEqual(brackets.body.error?.message, 'the body nests deeper than 32 levels');
      assert.equal((await call(s.base, 'GET', '/api/health')).status, 200);
    } finally {
      await s.close();
      await db.destroy();
      await dropSchema(url);
    }
  });

  test(`[${dialect}] /api/health answers 200 while the database answers, and 503 naming the database once it does not`, { skip: skipFor(dialect) }, async () => {
    const { db, url } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      assert.deepEqual(await call(s.base, 'GET', '/api/health'), { status: 200, body: { ok: true } });
      await db.destroy();
      const down = await call(s.base, 'GET', '/api/health');
      assert.equal(down.status, 503, JSON.stringify(down.body));
      assert.equal(down.body.error.field, 'database');
    } finally {
      await s.close();
      await dropSchema(url);
    }
  });
}

test('a body with a key written twice in one object is refused 422 naming its line and column, and nothing is changed (JSON.parse played the second "program" in silence)', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }] })).body;
    const hand: string[] = (await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, auth(race.seats[0].token))).body.you.hand;
    const lastSeq = async () => (await call(s.base, 'GET', `/api/races/${race.id}`)).body.lastSeq;
    const before = await lastSeq();
    const orders = `/api/races/${race.id}/seats/0/orders`;
    const program = (cards: string[]) => JSON.stringify(cards);
    for (const [path, text, message] of [
      [orders, `{"turn": 1, "program": ${program(hand.slice(0, 5))},\n "program": ${program(hand.slice(4, 9))}}`, 'line 2, column 2: the key "program" a second time in one object (first at line 1, column 13)'],
      [orders, `{"turn": 1, "program": ${program(hand.slice(0, 5))}, "reenter": {"dir": "N", "dir": "S"}}`, 'the key "dir" a second time'],
      ['/api/races', '{"course": "first-shift", "seats": [{"name": "A"}], "seats": [{"name": "B"}, {"name": "C"}]}', 'the key "seats" a second time'],
    ] as const) {
      const r = await call(s.base, path === orders ? 'PUT' : 'POST', path, text, auth(race.seats[0].token));
      assert.deepEqual([r.status, r.body.error?.field], [422, 'body'], `${text}: ${JSON.stringify(r.body)}`);
      assert.ok(r.body.error.message.includes(message), r.body.error.message);
    }
    assert.equal(await lastSeq(), before, 'no orders stored');
    assert.equal((await db.selectFrom('races').select('id').execute()).length, 1, 'no race made');
    // Each key once (and a byte-order mark first): taken.
    assert.equal((await call(s.base, 'PUT', orders, `\ufeff{"turn": 1, "program": ${program(hand.slice(0, 5))}}`, auth(race.seats[0].token))).status, 200);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a body sent compressed (Content-Encoding gzip, deflate, br) is refused 415 naming content-encoding, not as JSON that does not parse, and nothing is made', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const text = JSON.stringify({ course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }] });
    for (const [coding, body] of [['gzip', gzipSync(text)], ['deflate', deflateSync(text)], ['br', brotliCompressSync(text)], ['GZIP, identity', gzipSync(text)]] as const) {
      const res = await fetch(`${s.base}/api/races`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': coding }, body });
      const answer = (await res.json()) as { error?: { field?: string; message?: string } };
      assert.deepEqual([res.status, answer.error?.field], [415, 'content-encoding'], `${coding}: ${JSON.stringify(answer)}`);
      assert.match(answer.error!.message!, /no coding is accepted/);
    }
    assert.equal((await db.selectFrom('races').select('id').execute()).length, 0, 'no race made');
    // Identity is no coding: taken.
    const res = await fetch(`${s.base}/api/races`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, body: text });
    assert.equal(res.status, 201);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a body with bytes that are no UTF-8 is refused 400 naming the line and column of the first, where a course named in Latin-1 was taken as U+FFFD in silence, and nothing is made', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const course = JSON.parse(readFileSync(join(COURSES_DIR, 'first-shift.json'), 'utf8')) as Record<string, unknown>;
    const text = JSON.stringify({ course, seats: [{ name: 'Ava' }, { name: 'Bob' }] }, null, 1);
    const at = text.indexOf('"First Shift"');
    assert.ok(at > 0, 'the course\'s name in the body');
    const body = Buffer.concat([Buffer.from(text.slice(0, at + 6)), Buffer.from([0xe9]), Buffer.from(text.slice(at + 7))]);
    const res = await fetch(`${s.base}/api/races`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const answer = (await res.json()) as { error?: { field?: string; message?: string } };
    const line = text.slice(0, at).split('\n').length, column = at - text.lastIndexOf('\n', at) + 6;
    assert.deepEqual([res.status, answer.error], [400, { field: 'body', message: `line ${line}, column ${column}: byte 0xe9 is no UTF-8 (text written in another encoding?); expected UTF-8` }]);
    assert.equal((await db.selectFrom('races').select('id').execute()).length, 0, 'no race made');
    // A U+FFFD written in UTF-8 is a character like any other.
    const taken = await fetch(`${s.base}/api/races`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text.replace('"First Shift"', '"First \uFFFD"') });
    assert.equal(taken.status, 201);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a path the router cannot read (a race id longer than any, bytes that are no UTF-8) is answered 4xx naming the path, in the {error: {field}} shape', async () => {
  const { db, url } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    for (const path of [`/api/races/${'a'.repeat(5000)}`, `/api/races/${'a'.repeat(5000)}/seats/0`, '/api/races/%FF%FE', '/api/races/%FF/events?after=1', '/%C0%AF']) {
      const r = await call(s.base, 'GET', path);
      assert.ok(r.status >= 400 && r.status < 500, `${path.slice(0, 40)}: ${r.status}`);
      assert.equal(r.body.error?.field, 'path', `${path.slice(0, 40)}: ${JSON.stringify(r.body).slice(0, 200)}`);
      assert.ok(JSON.stringify(r.body).length < 300, 'the answer does not echo the path');
    }
  } finally {
    await s.close();
    await db.destroy();
    await dropSchema(url);
  }
});

test('a key in the query of a route that takes no query is refused 422 naming it', async () => {
  const { db, url } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }] })).body;
    for (const path of [`/api/races/${race.id}?zzz=1`, `/api/races/${race.id}/course?zzz=1`, '/api/courses?zzz=1', '/api/health?zzz=1', `/api/series/${race.id}?zzz=1`]) {
      const r = await call(s.base, 'GET', path);
      assert.deepEqual([r.status, r.body.error?.field], [422, 'zzz'], `${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
    }
    assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).status, 200);
  } finally {
    await s.close();
    await db.destroy();
    await dropSchema(url);
  }
});
