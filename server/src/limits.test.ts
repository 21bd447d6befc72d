import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { call, freshDb, startServer, until } from './testing.js';

const port = (base: string) => Number(new URL(base).port);

/** A raw connection to the server, with what it answered and whether it was closed. */
function raw(base: string): { socket: Socket; got: () => string; closed: () => boolean; ready: Promise<void> } {
  const socket = connect(port(base), '127.0.0.1');
  let text = '';
  let closed = false;
  socket.on('data', (d) => (text += String(d)));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return { socket, got: () => text, closed: () => closed, ready: new Promise((r) => socket.once('connect', () => r())) };
}

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
