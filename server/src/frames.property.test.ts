/**
 * What a stream client sends, fed as a fuzzer would over raw TCP: WebSocket frames of any opcode,
 * reserved bits, masked or not, lengths written in 7, 16 or 64 bits (up to 2^63), fragments that
 * never end, text that is no UTF-8, payloads past the 4 KiB the stream takes, and bytes that are no
 * frame at all. The stream reads nothing a client says: each such client is closed or left be,
 * the server stays up, and a client that behaves gets every entry of the race meanwhile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import { call, freshDb, startServer, streamClient, until, createSeated } from './testing.js';

/** One frame as written on the wire (a client's frame masked, unless `masked` is false). */
function frame(o: { fin: boolean; rsv: number; opcode: number; masked: boolean; length: number | bigint; lengthForm: 7 | 16 | 64; payload: Uint8Array }): Buffer {
  const head = [(o.fin ? 0x80 : 0) | ((o.rsv & 7) << 4) | (o.opcode & 15)];
  const m = o.masked ? 0x80 : 0;
  const len = BigInt(o.length);
  let ext = Buffer.alloc(0);
  if (o.lengthForm === 7) head.push(m | Number(len & 127n));
  else if (o.lengthForm === 16) (head.push(m | 126), (ext = Buffer.alloc(2)), ext.writeUInt16BE(Number(len & 0xffffn)));
  else (head.push(m | 127), (ext = Buffer.alloc(8)), ext.writeBigUInt64BE(len & 0xffffffffffffffffn));
  const key = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const body = Buffer.from(o.payload).map((b, i) => (o.masked ? b ^ key[i & 3]! : b));
  return Buffer.concat([Buffer.from(head), ext, o.masked ? key : Buffer.alloc(0), body]);
}

const frameArb = fc.record({
  fin: fc.boolean(), rsv: fc.oneof(fc.constant(0), fc.nat(7)), opcode: fc.oneof(fc.constantFrom(0, 1, 2, 8, 9, 10), fc.nat(15)), masked: fc.oneof(fc.constant(true), fc.boolean()),
  payload: fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.string({ maxLength: 100 }).map((t) => new TextEncoder().encode(t)), fc.constantFrom(new Uint8Array([0xc0, 0x80]), new Uint8Array([0xed, 0xa0, 0x80]), new Uint8Array([0x03, 0xe8]), new Uint8Array([0x00, 0x00]), new Uint8Array(5000))),
  lengthForm: fc.constantFrom<7 | 16 | 64>(7, 16, 64),
  lie: fc.oneof(fc.constant(null), fc.constantFrom(0, 1, 125, 126, 65535, 65536, 2 ** 31, 2n ** 63n - 1n)),
}).map(({ lie, ...f }) => frame({ ...f, length: lie ?? f.payload.length, lengthForm: f.payload.length > 65535 ? 64 : f.payload.length > 125 && f.lengthForm === 7 ? 16 : f.lengthForm }));

const junk = fc.oneof(frameArb, fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)));

/** Upgrades a raw socket to the race's stream; resolves once the 101 is read (or the socket ends). */
function upgraded(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let head = '';
    s.on('error', reject);
    s.once('connect', () => s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`));
    const onData = (d: Buffer) => {
      head += d.toString('latin1');
      if (head.includes('\r\n\r\n')) (s.off('data', onData), assert.match(head, /^HTTP\/1\.1 101/), resolve(s));
    };
    s.on('data', onData);
    s.once('close', () => reject(new Error(`closed before the upgrade: ${head}`)));
  });
}

test('any frames a stream client sends (any opcode, reserved bits, unmasked, lengths up to 2^63, broken UTF-8, endless fragments, no frame at all) leave the server up and a behaving client whole (property)', { timeout: 120_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 1_000_000, windowMs: 10_000 }, { perAddress: 1000 });
  const port = Number(new URL(s.base).port);
  try {
    const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'random' }], deadline: { kind: 'live', seconds: 3600 } })).body;
    const good = streamClient(`${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`);
    await good.ready;
    let closed = 0;
    await fc.assert(fc.asyncProperty(fc.array(junk, { minLength: 1, maxLength: 6 }), async (frames) => {
      const sock = await upgraded(port, `/api/races/${race.id}/stream`);
      const gone = new Promise<void>((r) => sock.once('close', () => r()));
      sock.on('error', () => undefined);
      sock.on('data', () => undefined);
      for (const f of frames) if (!sock.destroyed) sock.write(f);
      // The server closes the client or lets it be; either way it still answers.
      const answered = await call(s.base, 'GET', '/api/health');
      assert.equal(answered.status, 200);
      const ended = await Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))]);
      if (ended) closed++;
      sock.destroy();
      await gone;
    }), { numRuns: 150, seed: 20261129 });
    // The behaving client got the race's entries as they came: a turn played meanwhile arrives.
    const before = good.seqs.length;
    const you = (await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, { authorization: `Bearer ${race.seats[0].token}` })).body;
    assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: you.you.hand.slice(0, 5) }, { authorization: `Bearer ${race.seats[0].token}` })).status, 200);
    await until('the turn on the good stream', () => good.played.includes(1), 20_000);
    assert.ok(good.seqs.length > before);
    assert.deepEqual(good.seqs, [...good.seqs].sort((a, b) => a - b));
    assert.equal(new Set(good.seqs).size, good.seqs.length, 'no entry twice');
    // Most of the clients' frames broke the protocol: the server closed those.
    assert.ok(closed > 30, `${closed} of 150 closed`);
    good.close();
  } finally {
    await s.close();
    await db.destroy();
  }
});
