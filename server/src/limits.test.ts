import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import WebSocket from 'ws';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, exited, freshDb, spawnServer, startServer, until } from './testing.js';

const port = (base: string) => Number(new URL(base).port);

/** A raw connection to the server, with what it answered and whether it was closed. */
/**
 * A server behind a trusted proxy (127.0.0.1), 2 connections a client, and a race: `stream(ip)`
 * opens its stream through the "proxy" for `ip`, the socket if it opened, else the status it was refused with.
 */
async function behindProxy() {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 100_000, windowMs: 10_000, trustProxy: '127.0.0.1' }, { perAddress: 100 }, { perAddress: 2 });
  const race = (await call(s.base, 'POST', '/api/races', { course: 'first-shift', seats: [{ name: 'Ava' }] })).body;
  const url = `${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`;
  const stream = (ip: string) =>
    new Promise<WebSocket | number>((resolve) => {
      const ws = new WebSocket(url, { headers: { 'x-forwarded-for': ip } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(ws));
      ws.on('error', () => undefined);
    });
  return { s, db, stream };
}

function raw(base: string): { socket: Socket; got: () => string; closed: () => boolean; ready: Promise<void> } {
  const socket = connect(port(base), '127.0.0.1');
  let text = '';
  let closed = false;
  socket.on('data', (d) => (text += String(d)));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return { socket, got: () => text, closed: () => closed, ready: new Promise((r) => socket.once('connect', () => r())) };
}

/**
 * A body of `size` bytes sent by Node's HTTP client as fast as the server takes it: the answer's
 * status and body, and any error the client saw while sending (EPIPE, ECONNRESET), once the request is done.
 */
function sendBody(base: string, size: number, how: { chunked: boolean; close: boolean }): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const got: { status?: number; body?: string; error?: string } = {};
    const headers: Record<string, string | number> = { 'content-type': 'application/json', ...(how.chunked ? {} : { 'content-length': size }) };
    // agent: false sends `connection: close`; Node's default agent keeps the connection.
    const req = request(`${base}/api/races`, { method: 'POST', headers, ...(how.close ? { agent: false } : {}) }, (res) => {
      let body = '';
      res.on('data', (c) => (body += String(c)));
      res.on('end', () => ((got.status = res.statusCode!), (got.body = body)));
    });
    req.on('error', (e: NodeJS.ErrnoException) => (got.error ??= e.code ?? e.message));
    req.on('close', () => resolve(got));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size && !req.destroyed) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

test('a 10 MB body sent to the real server is answered 413 in the {error: {field}} shape, the client never cut off by a reset (EPIPE): declared or chunked, keep-alive or connection: close', { timeout: 90_000 }, async () => {
  const port = 20000 + Math.floor(Math.random() * 12000);
  const child = await spawnServer({ PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), 'rr-413-')), DATABASE_URL: '' });
  const base = `http://127.0.0.1:${port}`;
  try {
    const seen: string[] = [];
    const kinds = [{ chunked: false, close: false }, { chunked: true, close: false }, { chunked: false, close: true }, { chunked: true, close: true }];
    const name = (how: (typeof kinds)[number]) => `${how.chunked ? 'chunked' : 'declared'}${how.close ? ', close' : ''}`;
    for (let k = 0; k < 4; k++) {
      for (const how of kinds) {
        const got = await sendBody(base, 10_000_000, how);
        seen.push(`${got.status ?? '-'}${got.error ? `/${got.error}` : ''} ${name(how)}`);
        if (got.status === 413) assert.equal(JSON.parse(got.body!).error.field, 'body');
      }
    }
    assert.deepEqual(seen, Array.from({ length: 4 }, () => kinds.map((how) => `413 ${name(how)}`)).flat());
    assert.equal((await call(base, 'GET', '/api/courses')).status, 200);
  } finally {
    child.kill('SIGKILL');
    await exited(child);
  }
});

test('a body far beyond what the server reads away (declared 100 MB) is answered 413 and its connection closed, not read to its end', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  const c = raw(s.base);
  try {
    await c.ready;
    c.socket.write('POST /api/races HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000000\r\n\r\n{');
    await until('the connection to be answered and closed', () => c.closed(), 10_000);
    assert.match(c.got(), /^HTTP\/1.1 413 /);
  } finally {
    c.socket.destroy();
    await s.close();
    await db.destroy();
  }
});

test('a body sent a byte at a time is cut off at the request timeout, and the server goes on answering', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, undefined, { requestMs: 1500, headersMs: 1000 });
  const slow: ReturnType<typeof raw>[] = [];
  try {
    for (let k = 0; k < 20; k++) {
      const c = raw(s.base);
      await c.ready;
      c.socket.write('POST /api/races HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{');
      slow.push(c);
    }
    // One more byte now and then, never the whole body.
    const drip = setInterval(() => slow.forEach((c) => !c.closed() && c.socket.write(' ')), 300);
    try {
      await until('every slow body to be cut off', () => slow.every((c) => c.closed()), 15_000);
    } finally {
      clearInterval(drip);
    }
    assert.ok(slow.every((c) => c.got() === '' || /^HTTP\/1.1 408/.test(c.got())), slow.map((c) => c.got().slice(0, 40)).join(' | '));
    assert.equal((await call(s.base, 'GET', '/api/courses')).status, 200);
  } finally {
    slow.forEach((c) => c.socket.destroy());
    await s.close();
    await db.destroy();
  }
});

test('a request cut off by its timeout, one that is no HTTP and one whose headers are too large are answered in the {error: {field}} shape', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, undefined, { requestMs: 1500, headersMs: 1000 });
  const slow = raw(s.base), junk = raw(s.base), big = raw(s.base);
  try {
    await Promise.all([slow.ready, junk.ready, big.ready]);
    slow.socket.write('POST /api/races HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{');
    junk.socket.write('NOT HTTP AT ALL\r\n\r\n');
    big.socket.write(`GET /api/courses HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await until('all three to be answered and closed', () => slow.closed() && junk.closed() && big.closed(), 15_000);
    for (const [c, status, field] of [[slow, 408, 'request'], [junk, 400, 'request'], [big, 431, 'headers']] as const) {
      const [head, body] = c.got().split('\r\n\r\n');
      assert.match(head!, new RegExp(`^HTTP/1.1 ${status} `), c.got().slice(0, 80));
      assert.equal(JSON.parse(body!).error.field, field, c.got());
    }
  } finally {
    for (const c of [slow, junk, big]) c.socket.destroy();
    await s.close();
    await db.destroy();
  }
});

test('headers sent a byte at a time are cut off at the headers timeout', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, undefined, { requestMs: 5000, headersMs: 1000 });
  const c = raw(s.base);
  try {
    await c.ready;
    c.socket.write('GET /api/courses HTTP/1.1\r\n');
    const drip = setInterval(() => !c.closed() && c.socket.write('x'), 300);
    try {
      await until('the connection to be closed', () => c.closed(), 10_000);
    } finally {
      clearInterval(drip);
    }
  } finally {
    c.socket.destroy();
    await s.close();
    await db.destroy();
  }
});

test('one address may hold only so many connections; the next is closed at once, and those it holds still work', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, undefined, { perAddress: 8 });
  const held: ReturnType<typeof raw>[] = [];
  try {
    for (let k = 0; k < 8; k++) {
      const c = raw(s.base);
      await c.ready;
      held.push(c);
    }
    await until('the server to count them', () => new Promise<boolean>((r) => s.app.server.getConnections((_e, n) => r(n === 8))));
    const extra = raw(s.base);
    await until('the ninth connection to be closed', () => extra.closed());
    assert.equal(extra.got(), '');
    held[0]!.socket.write('GET /api/courses HTTP/1.1\r\nhost: x\r\n\r\n');
    await until('an answer on a connection it holds', () => held[0]!.got().startsWith('HTTP/1.1 200'));
  } finally {
    held.forEach((c) => c.socket.destroy());
    await s.close();
    await db.destroy();
  }
});

test('the rate limit counts every route per client address: pages, assets, the API, unknown paths and the stream\'s upgrade', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 4, windowMs: 60_000 });
  try {
    const race = await call(s.base, 'POST', '/api/races', { course: 'first-shift', seats: [{ name: 'Ava' }] });
    assert.equal(race.status, 201);
    assert.notEqual((await call(s.base, 'GET', '/')).status, 429);
    assert.equal((await call(s.base, 'GET', '/no/such/page')).status, 404);
    assert.equal((await call(s.base, 'GET', '/api/health')).status, 200);
    const refused = await call(s.base, 'GET', '/api/courses');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.field, 'request');
    assert.equal((await call(s.base, 'GET', '/no/such/page')).status, 429);
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${s.base.replace('http', 'ws')}/api/races/${race.body.id}/stream`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => (ws.close(), resolve(101)));
      ws.on('error', () => undefined);
    });
    assert.equal(status, 429, 'the stream\'s upgrade is a request like any');
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a client creates so many races a minute (RACES_PER_MINUTE): one more is refused 429 with Retry-After, other clients and other requests go on', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 1000, windowMs: 60_000, trustProxy: '127.0.0.1', racesPerMinute: 2 });
  const race = (ip: string, body: object = { course: 'first-shift', seats: [{ name: 'Ava' }] }) => call(s.base, 'POST', '/api/races', body, { 'x-forwarded-for': ip });
  try {
    // A body that is no race is refused as before and does not count.
    assert.equal((await race('10.0.0.1', { course: 'first-shift' })).status, 422);
    assert.deepEqual([(await race('10.0.0.1')).status, (await race('10.0.0.1')).status], [201, 201]);
    const refused = await fetch(`${s.base}/api/races`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.0.0.1' }, body: JSON.stringify({ course: 'first-shift', seats: [{ name: 'Ava' }] }) });
    assert.equal(refused.status, 429);
    const body = await refused.json() as { error: { field: string; message: string } };
    assert.equal(body.error.field, 'races');
    assert.match(body.error.message, /more than 2 races created in a minute/);
    const after = Number(refused.headers.get('retry-after'));
    assert.ok(after >= 1 && after <= 60, `Retry-After: ${after}`);
    assert.equal((await race('10.0.0.2')).status, 201, 'another client creates its own');
    assert.equal((await call(s.base, 'GET', '/api/health', undefined, { 'x-forwarded-for': '10.0.0.1' })).status, 200, 'the client\'s other requests are served');
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('X-Forwarded-For names the client only when the proxy is trusted (TRUST_PROXY): then each player behind it has a budget of their own', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const direct = await startServer(db, undefined, { max: 2, windowMs: 60_000 });
  const proxied = await startServer(db, undefined, { max: 2, windowMs: 60_000, trustProxy: '127.0.0.1' });
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  try {
    // Not trusted: the header is anybody's to write, so every request counts against the socket's address.
    const codes = [];
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) codes.push((await call(direct.base, 'GET', '/api/health', undefined, from(ip))).status);
    assert.deepEqual(codes, [200, 200, 429]);
    // Trusted: the proxy's word for the client's address.
    const byPlayer = [];
    for (const ip of ['10.0.0.1', '10.0.0.1', '10.0.0.1', '10.0.0.2', '10.0.0.2', '10.0.0.3']) byPlayer.push((await call(proxied.base, 'GET', '/api/health', undefined, from(ip))).status);
    assert.deepEqual(byPlayer, [200, 200, 429, 200, 200, 200]);
  } finally {
    await direct.close();
    await proxied.close();
    await db.destroy();
  }
});

test('a client over its budget stays refused however many other addresses come meanwhile (no reset after N addresses)', { timeout: 120_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 2, windowMs: 600_000, trustProxy: true });
  const get = (ip: string) => s.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-for': ip } }).then((r) => r.statusCode);
  try {
    assert.deepEqual([await get('192.0.2.1'), await get('192.0.2.1'), await get('192.0.2.1')], [200, 200, 429]);
    for (let k = 0; k < 12_000; k++) await get(`10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`);
    assert.equal(await get('192.0.2.1'), 429);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('behind a trusted proxy (TRUST_PROXY) the connection cap counts the client the proxy names: its streams and requests in flight, not the proxy\'s own connections', { timeout: 30_000 }, async () => {
  const { s, db, stream } = await behindProxy();
  const held: WebSocket[] = [];
  try {
    for (const ip of ['10.0.0.1', '10.0.0.1', '10.0.0.2', '10.0.0.2']) {
      const ws = await stream(ip);
      assert.ok(ws instanceof WebSocket, `a stream for ${ip}: ${String(ws)}`);
      held.push(ws);
    }
    // Four connections from the proxy's own address, over a cap of 2: the proxy is not capped.
    assert.equal(await stream('10.0.0.1'), 429, 'a third stream of one client is refused');
    const r = await call(s.base, 'GET', '/api/health', undefined, { 'x-forwarded-for': '10.0.0.2' });
    assert.deepEqual([r.status, r.body.error?.field], [429, 'connections'], 'so is a request while its two streams are open');
    assert.equal((await call(s.base, 'GET', '/api/health', undefined, { 'x-forwarded-for': '10.0.0.3' })).status, 200, 'another client is served');
    held.shift()!.close();
    const again = await until('a stream of 10.0.0.1 once one of its two is closed', async () => {
      const ws = await stream('10.0.0.1');
      return ws instanceof WebSocket ? ws : null;
    });
    held.push(again);
  } finally {
    held.forEach((ws) => ws.close());
    await s.close();
    await db.destroy();
  }
});

test('the connection and stream caps count an IPv6 client by its /64, as the rate limit does: each of its 2^64 addresses had caps of its own', { timeout: 30_000 }, async () => {
  const { s, db, stream } = await behindProxy();
  const held: WebSocket[] = [];
  try {
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9']) {
      const ws = await stream(ip);
      assert.ok(ws instanceof WebSocket, `a stream for ${ip}: ${String(ws)}`);
      held.push(ws);
    }
    assert.equal(await stream('2001:db8:1:2::3'), 429, 'a third stream from the same /64 is refused');
    const r = await call(s.base, 'GET', '/api/health', undefined, { 'x-forwarded-for': '2001:db8:1:2::4' });
    assert.deepEqual([r.status, r.body.error?.field], [429, 'connections'], 'so is a request from it while its two streams are open');
    const other = await stream('2001:db8:1:3::1');
    assert.ok(other instanceof WebSocket, 'the next /64 is another client');
    held.push(other);
  } finally {
    held.forEach((ws) => ws.close());
    await s.close();
    await db.destroy();
  }
});

test('without TRUST_PROXY a forwarded address changes nothing: the cap counts the socket\'s address', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, undefined, { perAddress: 2 });
  const held: ReturnType<typeof raw>[] = [];
  try {
    for (let k = 0; k < 2; k++) {
      const c = raw(s.base);
      await c.ready;
      c.socket.write(`GET /api/health HTTP/1.1\r\nhost: x\r\nx-forwarded-for: 10.0.0.${k}\r\n\r\n`);
      held.push(c);
    }
    await until('both answered', () => held.every((c) => c.got().startsWith('HTTP/1.1 200')));
    const extra = raw(s.base);
    await until('a third connection to be closed, whatever it forwards', () => extra.closed());
  } finally {
    held.forEach((c) => c.socket.destroy());
    await s.close();
    await db.destroy();
  }
});
