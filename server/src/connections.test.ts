/**
 * The bounds of a connection below the routes (limits.ts): requests piled up on one connection
 * ahead of their answers, and connections in all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { freshDb, startServer, until } from './testing.js';
import { connectionsInAll, descriptorLimit, ShutOut } from './limits.js';

const port = (base: string) => Number(new URL(base).port);
const HEALTH = 'GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n';

/** A raw connection from `from` (an address of the loopback's 127/8), what it was answered, whether it was closed. */
function raw(base: string, from = '127.0.0.1') {
  const socket = connect({ port: port(base), host: '127.0.0.1', localAddress: from });
  let text = '';
  let closed = false;
  socket.on('data', (d) => (text += String(d)));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return { socket, got: () => text, closed: () => closed, ready: new Promise<void>((r) => socket.once('connect', () => r())) };
}

/**
 * A client that writes GET /api/health pipelined as fast as the server takes it and never reads an
 * answer: how many requests it wrote, and whether its connection was closed.
 */
function flood(base: string, from: string) {
  const socket = connect({ port: port(base), host: '127.0.0.1', localAddress: from });
  socket.pause();
  const batch = Buffer.from(HEALTH.repeat(256));
  let sent = 0;
  let closed = false;
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  const pump = () => {
    while (!socket.destroyed) {
      sent += 256;
      if (!socket.write(batch)) return void socket.once('drain', pump);
    }
  };
  socket.once('connect', pump);
  return { socket, sent: () => sent, closed: () => closed };
}

/** /api/health asked on a connection of its own from 127.0.0.1: its status, or 0 if unanswered within 10 s. */
async function health(base: string): Promise<number> {
  const r = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
  return r?.status ?? 0;
}

test('connections that pipeline requests and never read the answers are closed once 16 of them are unanswered, their addresses shut out a while, and the server answers others meanwhile', { timeout: 60_000 }, async () => {
  const { db } = await freshDb('sqlite');
  // Timeouts far away: only the bound on requests in flight can close the flood's connections.
  const s = await startServer(db, undefined, { max: 1_000_000, windowMs: 10_000 }, undefined, { headersMs: 50_000, requestMs: 50_000, idleMs: 50_000 });
  const floods = [1, 2, 3, 4].map((k) => flood(s.base, `127.0.1.${k}`));
  try {
    const asked: Promise<number>[] = [];
    await until('every flooding connection to be closed', () => {
      if (asked.length < 50) asked.push(health(s.base));
      return floods.every((f) => f.closed());
    }, 20_000);
    assert.ok(floods.every((f) => f.sent() > 1000), `each wrote far more than 16 requests: ${floods.map((f) => f.sent()).join(', ')}`);
    assert.deepEqual(new Set(await Promise.all(asked)), new Set([200]), 'health asked from another address while the flood ran: answered');
    // The flooding address reconnecting is closed at once, nothing read; another address is served.
    const again = raw(s.base, '127.0.1.1');
    await until('a new connection from a flooding address to be closed', () => again.closed());
    assert.equal(again.got(), '');
    assert.equal(await health(s.base), 200);
  } finally {
    floods.forEach((f) => f.socket.destroy());
    await s.close();
    await db.destroy();
  }
});

test('a client that pipelines a dozen requests and reads the answers has every one answered, in order', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 1_000_000, windowMs: 10_000 });
  const c = raw(s.base);
  try {
    await c.ready;
    c.socket.write(HEALTH.repeat(11) + 'GET /api/nothing-here HTTP/1.1\r\nhost: x\r\n\r\n');
    // An answer's status line follows the body before it on the same line.
    await until('twelve answers', () => (c.got().match(/HTTP\/1\.1 \d+/g) ?? []).length === 12);
    assert.deepEqual(c.got().match(/HTTP\/1\.1 \d+/g)!.map((l) => l.slice(9)), [...Array(11).fill('200'), '404']);
    assert.equal(c.closed(), false);
  } finally {
    c.socket.destroy();
    await s.close();
    await db.destroy();
  }
});

test('a client that goes on past its rate limit as far again within the window is shut out a while: its connections closed, its next ones closed as they come; another address is served', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 4, windowMs: 60_000 });
  const held = raw(s.base, '127.0.11.1');
  const c = raw(s.base, '127.0.11.1');
  try {
    await Promise.all([held.ready, c.ready]);
    const statuses = () => (c.got().match(/HTTP\/1\.1 \d+/g) ?? []).map((l) => l.slice(9));
    // One after the other: requests in flight at once are all counted before any is answered.
    for (let k = 1; k <= 8; k++) {
      c.socket.write(HEALTH);
      await until(`answer ${k}`, () => statuses().length === k);
    }
    assert.deepEqual(statuses(), ['200', '200', '200', '200', '429', '429', '429', '429']);
    c.socket.write(HEALTH);
    await until('the connection to be closed at the ninth', () => c.closed());
    assert.equal(statuses().length, 8);
    held.socket.write(HEALTH);
    await until('a connection the address held to be closed at its next request', () => held.closed());
    assert.equal(held.got(), '');
    const again = raw(s.base, '127.0.11.1');
    await until('a new connection from it to be closed', () => again.closed());
    assert.equal(again.got(), '');
    assert.equal(await health(s.base), 200);
  } finally {
    held.socket.destroy();
    c.socket.destroy();
    await s.close();
    await db.destroy();
  }
});

test('the server holds so many connections in all (MAX_CONNECTIONS): one more is closed as it comes, those held still work, and a place freed is taken again', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, undefined, { total: 4 });
  const held: ReturnType<typeof raw>[] = [];
  try {
    // From four addresses: the cap in all, not the one per address.
    for (let k = 1; k <= 4; k++) {
      const c = raw(s.base, `127.0.3.${k}`);
      await c.ready;
      held.push(c);
    }
    await until('the server to count them', () => new Promise<boolean>((r) => s.app.server.getConnections((_e, n) => r(n === 4))));
    const extra = raw(s.base, '127.0.3.9');
    await until('a fifth connection to be closed', () => extra.closed());
    assert.equal(extra.got(), '');
    held[0]!.socket.write(HEALTH);
    await until('an answer on a connection held', () => held[0]!.got().startsWith('HTTP/1.1 200'));
    held.pop()!.socket.destroy();
    await until('a place freed to be taken by a new connection', async () => {
      const c = raw(s.base, '127.0.3.9');
      c.socket.write(HEALTH);
      await until('it to be answered or closed', () => c.got() !== '' || c.closed());
      c.socket.destroy();
      return c.got().startsWith('HTTP/1.1 200');
    });
  } finally {
    held.forEach((c) => c.socket.destroy());
    await s.close();
    await db.destroy();
  }
});

test('connections in all default to the process\'s descriptors less a reserve of an eighth, at least 256', () => {
  assert.equal(descriptorLimit(() => 'Limit  Soft Limit  Hard Limit  Units\nMax open files            20000                20000                files\n'), 20000);
  assert.equal(descriptorLimit(() => 'Max open files  unlimited  unlimited  files\n'), null);
  assert.equal(descriptorLimit(() => { throw new Error('ENOENT'); }), null);
  assert.deepEqual([20000, 1000, 100, null].map((n) => connectionsInAll(n)), [17500, 744, 16, 3584]);
});

test('an address shut out stays out for its time, then comes back; the oldest is let in first beyond the most kept', () => {
  let now = 0;
  const out = new ShutOut(10_000, 2, () => now);
  out.add('a');
  now = 9_999;
  assert.equal(out.has('a'), true);
  now = 10_000;
  assert.equal(out.has('a'), false);
  out.add('a');
  out.add('b');
  out.add('c');
  assert.deepEqual(['a', 'b', 'c'].map((x) => out.has(x)), [false, true, true]);
});
