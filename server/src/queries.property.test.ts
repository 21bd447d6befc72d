/**
 * The readers of paths, query strings and request headers, fed as a fuzzer would: every GET route
 * (and the stream's upgrade) with random path segments (unicode, NUL, broken percent escapes,
 * huge numbers, long runs), random queries (keys repeated, `__proto__`, `constructor`, `a[]`,
 * keys no route knows, values of any text) and odd headers (Authorization, If-None-Match,
 * Accept-Encoding, Idempotency-Key). Every answer is below 500, every refusal of the API is JSON
 * naming a field in a few kilobytes at most, and a seat's view is never shown to a wrong token.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { freshDb, startServer, createSeated } from './testing.js';

/** A path segment or query value as a fuzzer would write it, percent-encoded or not quite. */
const text = fc.oneof(
  fc.constantFrom('', '0', '1', '-1', '1.5', '1e3', '0x10', '+1', '%201', '2147483647', '2147483648', '9007199254740993', '1e308', 'NaN', 'Infinity', 'null', 'true', '[]', '{}',
    '__proto__', 'constructor', 'prototype', 'json', 'text', 'first-shift', '..', '.', '%', '%zz', '%00', '%C0%80', '%ED%A0%80', '%FF', '%2F', '%3F', 'a'.repeat(5000), '9'.repeat(400)),
  fc.string({ maxLength: 80 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.uint8Array({ maxLength: 30 }).map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')),
  fc.nat().map(String),
);
const key = fc.oneof(fc.constantFrom('after', 'token', 'format', 'seat', 'x', '__proto__', 'constructor', 'constructor[prototype]', 'after[]', 'after[0]', 'toString', 'hasOwnProperty', ''), text);
const query = fc.oneof(
  fc.constantFrom('', '?', '?&', '?=&=', '?after', '?after=1&after=2', '?token=a&token=b'),
  fc.array(fc.tuple(key, text, fc.boolean()), { minLength: 1, maxLength: 5 }).map((kv) => `?${kv.map(([k, v, bare]) => (bare ? k : `${k}=${v}`)).join('&')}`),
);

/** The answer to a raw request (the path as written, not normalised by a URL parser). */
function raw(port: number, agent: Agent, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), body }));
      res.on('error', reject);
    });
    // A stream's upgrade that is taken: its socket is closed at once.
    req.on('upgrade', (res, socket) => (socket.destroy(), resolve({ status: res.statusCode!, type: '', body: '' })));
    req.on('error', reject);
    req.end();
  });
}

test('any path segment, query and header on the GET routes and the stream is answered below 500, a refusal in JSON naming a field, and a seat view only to its token (property)', { timeout: 120_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 1_000_000, windowMs: 10_000 });
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'random' }], deadline: { kind: 'live', seconds: 3600 } })).body;
    const token = race.seats[0].token as string;
    const port = Number(new URL(s.base).port);
    const id = fc.oneof(fc.constant(race.id as string), text);
    const seat = fc.oneof(fc.constantFrom('0', '1', '2'), text);
    const turn = fc.oneof(fc.constantFrom('1', '2'), text);
    const course = fc.oneof(fc.constant('first-shift'), text);
    const path = fc.oneof(
      id.map((i) => `/api/races/${i}`), id.map((i) => `/api/races/${i}/course`), id.map((i) => `/api/series/${i}`),
      fc.tuple(id, seat).map(([i, n]) => `/api/races/${i}/seats/${n}`), id.map((i) => `/api/races/${i}/events`),
      fc.tuple(id, turn).map(([i, t]) => `/api/races/${i}/turns/${t}`), fc.tuple(id, turn).map(([i, t]) => `/api/races/${i}/turns/${t}/report`),
      fc.tuple(id, turn).map(([i, t]) => `/api/races/${i}/turns/${t}/picture.svg`), course.map((c) => `/api/courses/${c}`), course.map((c) => `/api/courses/${c}/picture.svg`),
      fc.constantFrom('/api/courses', '/api/boards', '/api/health', '/api', '/', '/editor', '/nowhere', '/api/nowhere'), id.map((i) => `/race/${i}`),
    );
    const headers = fc.record({
      authorization: fc.oneof(fc.constantFrom(`Bearer ${token}`, 'Bearer ', 'Bearer', `bearer ${token}`, `Bearer ${token}x`, `Basic ${token}`, `Bearer ${'x'.repeat(6000)}`), fc.string({ maxLength: 60 }).map((v) => v.replace(/[^\x20-\x7e]/g, ''))),
      'if-none-match': fc.oneof(fc.constantFrom('*', '""', 'W/"x"', '"a", "b"', 'x'.repeat(6000)), fc.string({ maxLength: 40 }).map((v) => v.replace(/[^\x20-\x7e]/g, ''))),
      'accept-encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', '*;q=0', 'gzip;q=NaN, br;q=1e400', 'x'.repeat(3000), ''),
      'idempotency-key': fc.constantFrom('k', '', 'x'.repeat(6000)),
    }, { requiredKeys: [] });
    await fc.assert(fc.asyncProperty(path, query, headers, fc.boolean(), async (p, q, h, upgrade) => {
      const url = `${p}${q}`;
      const stream = upgrade && p.endsWith('/events');
      const at = stream ? url.replace(/\/events/, '/stream') : url;
      const a = await raw(port, agent, 'GET', at, stream ? { ...h, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } : h);
      const what = `GET ${at.slice(0, 200)} ${JSON.stringify(h).slice(0, 200)}: ${a.status} ${a.body.slice(0, 300)}`;
      assert.ok(a.status < 500, what);
      if (a.status >= 400 && at.startsWith('/api/')) {
        assert.match(a.type, /application\/json/, what);
        const e = JSON.parse(a.body) as { error?: { field?: unknown; message?: unknown } };
        assert.equal(typeof e.error?.field, 'string', what);
        assert.equal(typeof e.error?.message, 'string', what);
        assert.ok(a.body.length < 4096, `${what}: a refusal of ${a.body.length} characters`);
      }
      // A seat's view (its hand) goes only to its token.
      if (a.status === 200 && /^\/api\/races\/[^/]+\/seats\//.test(at)) assert.ok(h.authorization === `Bearer ${token}` || at.includes(`token=${token}`), what);
    }), { numRuns: 300, seed: 20261129 });
  } finally {
    agent.destroy();
    await s.close();
    await db.destroy();
  }
});

test('a refused stream upgrade (a bad query, no such path) says Connection: close, as its socket is closed once answered, not keep-alive', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const port = Number(new URL(s.base).port);
    for (const path of ['/api/races/abc/stream?after=x', '/api/races/abc/stream?x=1', '/api/races/a%zz/stream', '/api/races/abc/nowhere']) {
      const answer = await new Promise<string>((resolve) => {
        const c = connect(port, '127.0.0.1', () => c.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`));
        let got = '';
        c.on('data', (d) => (got += String(d)));
        // Closed by the server, or (the deadline) left open.
        const deadline = setTimeout(() => (c.destroy(), resolve(`${got}[left open]`)), 5000);
        c.on('close', () => (clearTimeout(deadline), resolve(got)));
      });
      assert.match(answer, /^HTTP\/1\.1 4\d\d /, path);
      assert.match(answer, /\r\nconnection: close\r\n/i, `${path}: ${answer.slice(0, 300)}`);
      assert.doesNotMatch(answer, /\[left open\]$/, path);
    }
  } finally {
    await s.close();
    await db.destroy();
  }
});
