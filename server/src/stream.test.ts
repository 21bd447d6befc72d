import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket, { WebSocketServer } from 'ws';
import type { Entry } from './races.js';
import { PAGES_PER_TURN, StreamHub, type StreamSource } from './stream.js';
import { call, freshDb, startServer, streamClient, touchRace, until, type TestServer, createSeated } from './testing.js';

const newRace = async (base: string) =>
  (await createSeated(base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 } })).body as { id: string; seats: { token: string }[] };

/** Adds `n` bulky entries (`bytes` each) to a race's log, as commits would, and announces them. */
async function grow(s: TestServer, id: string, n: number, bytes: number): Promise<number> {
  const race = await s.db.selectFrom('races').select(['last_seq']).where('id', '=', id).executeTakeFirstOrThrow();
  const pad = 'x'.repeat(bytes);
  for (let k = 0; k < n; k += 200) {
    const rows = Array.from({ length: Math.min(200, n - k) }, (_, m) => ({ race_id: id, seq: race.last_seq + k + m + 1, turn: 1, body: JSON.stringify({ kind: 'race', event: { type: 'note', pad } }) }));
    await s.db.insertInto('events').values(rows).execute();
  }
  const last = race.last_seq + n;
  await s.db.updateTable('races').set({ last_seq: last }).where('id', '=', id).execute();
  await touchRace(s.db, id);
  s.service.announce(id, last);
  return last;
}

/** A stream client that reads nothing once it is connected (its socket is paused). */
function deaf(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      resolve(ws);
    });
    ws.once('error', reject);
  });
}

/** A race's log in memory: `add(n)` appends n entries, as commits would, and returns the last seq. */
function noteLog() {
  const log: Entry[] = [];
  const add = (n: number) => {
    for (let k = 0; k < n; k++) log.push({ seq: log.length + 1, turn: 1, kind: 'race', event: { type: 'note' } as unknown as Entry['event'] });
    return log.length;
  };
  return { log, add };
}

/** A stream hub of race 'r' over `source` (a page of 10), its WebSocket server, and a client of it from the start. */
async function hubAndClient(source: StreamSource) {
  const hub = new StreamHub(source, { page: 10 });
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (socket) => hub.attach(socket, 'r', 0));
  await new Promise((r) => wss.once('listening', r));
  return { hub, wss, client: streamClient(`ws://127.0.0.1:${(wss.address() as { port: number }).port}`) };
}

const serverSockets = (s: TestServer) => [...(s.app as unknown as { websocketServer: { clients: Set<WebSocket> } }).websocketServer.clients];

test('200 stream clients that never read hold at most a page of the backlog each, and one that reads gets it all once, in order', { timeout: 120_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const page = 20;
  const s = await startServer(db, undefined, undefined, { page, maxBuffered: 256 * 1024, perAddress: 1000 }, { perAddress: 1000 });
  const clients: WebSocket[] = [];
  try {
    const race = await newRace(s.base);
    // A 12 MB log: more than the kernel's socket buffers take, so what is not sent stays in the server.
    const last = await grow(s, race.id, 1200, 10_000);
    const url = `${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`;
    for (let k = 0; k < 200; k++) clients.push(await deaf(url));
    await until('200 streams open on the server', () => serverSockets(s).length === 200);
    // Wait until every stream has had its first page handed to its socket (or to the kernel).
    let before = -1;
    await until('the servers\' buffers to settle', () => {
      const now = serverSockets(s).reduce((n, w) => n + w.bufferedAmount, 0);
      const settled = now === before;
      before = now;
      return settled && serverSockets(s).every((w) => w.bufferedAmount > 0 || (w as unknown as { _socket: { bytesWritten: number } })._socket.bytesWritten > 0);
    }, 60_000);
    const most = Math.max(...serverSockets(s).map((w) => w.bufferedAmount));
    assert.ok(most <= 2 * page * 10_100, `a client that reads nothing holds ${most} bytes of the server's memory`);
    // A client that reads: the whole log, each entry once, in order, a page per frame at most.
    const reader = streamClient(url);
    await until('the reader to have the whole log', () => reader.seqs.length >= last, 60_000);
    assert.deepEqual(reader.seqs, Array.from({ length: last }, (_, k) => k + 1));
    reader.close();
  } finally {
    for (const c of clients) c.terminate();
    await s.close();
    await db.destroy();
  }
});

test('a stream client that does not read while entries keep coming is dropped (its buffer full, or its pings unanswered), and catches up by after= when it comes back', { timeout: 60_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, { maxBuffered: 64 * 1024, pingMs: 1000 });
  try {
    const race = await newRace(s.base);
    const url = `${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`;
    const slow = await deaf(url);
    await until('the stream open on the server', () => serverSockets(s).length === 1);
    // (Its own socket paused, the client would not notice: the server's side tells.)
    const dropped = () => serverSockets(s).length === 0;
    // Entries keep coming, 2 MB at a time, up to 64 MB: it must be dropped long before.
    let last = 0;
    for (let k = 0; k < 32 && !dropped(); k++) {
      last = await grow(s, race.id, 200, 10_000);
      await until('the server to have sent the batch or dropped the client', () => dropped() || serverSockets(s).every((w) => w.bufferedAmount > 0), 5_000).catch(() => undefined);
    }
    await until('the slow client to be dropped', dropped, 10_000);
    slow.terminate();
    const back = streamClient(`${url}?after=5`);
    await until('the client back to have caught up', () => back.seqs.length >= last - 5, 30_000);
    assert.deepEqual(back.seqs, Array.from({ length: last - 5 }, (_, k) => k + 6));
    back.close();
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a turn played comes on the stream in one frame: its entries in seq order with its replay and report, the same entries the database holds', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const race = await newRace(s.base);
    const c = streamClient(`${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`);
    await c.ready;
    for (const seat of [0, 1]) {
      const auth = { authorization: `Bearer ${race.seats[seat]!.token}` };
      const you = (await call(s.base, 'GET', `/api/races/${race.id}/seats/${seat}`, undefined, auth)).body.you;
      await call(s.base, 'PUT', `/api/races/${race.id}/seats/${seat}/orders`, { turn: 1, program: you.hand.slice(0, 5) }, auth);
    }
    await until('the played turn on the stream', () => c.played.includes(1));
    const last = (await call(s.base, 'GET', `/api/races/${race.id}`)).body.lastSeq as number;
    await until('every entry', () => c.seqs.length >= last);
    assert.deepEqual(c.seqs, Array.from({ length: last }, (_, k) => k + 1), 'each entry once, in order: a gap would show in the seqs');
    // The frame that played turn 1 holds the turn's entries, up to its end, with its replay and report.
    const played = c.frames.filter((f) => !Array.isArray(f) && (f as { played?: unknown }).played) as { entries: Entry[]; played: { turn: number; replay: { events: unknown[] }; report: unknown } }[];
    assert.equal(played.length, 1, 'one frame for the played turn');
    const [frame] = played;
    assert.equal(frame!.played.turn, 1);
    assert.ok(frame!.played.replay.events.length > 0 && frame!.played.report, 'its replay and report');
    const ends = frame!.entries.filter((e) => e.event.type === 'turnEnded');
    assert.deepEqual(ends.map((e) => e.turn), [1], 'the entries of the turn played, to its end');
    assert.deepEqual(frame!.entries.map((e) => e.seq), frame!.entries.map((_, k) => frame!.entries[0]!.seq + k), 'in seq order, without a hole');
    assert.ok(c.frames.length <= 3, `${c.frames.length} frames for two PUTs and a turn played`);
    // What the stream sent live (this process's commits, not read back) is what the database holds.
    const stored = (await call(s.base, 'GET', `/api/races/${race.id}/events?after=0`)).body as Entry[];
    const sent = c.frames.flatMap((f) => (Array.isArray(f) ? f : (f as { entries?: Entry[] }).entries ?? []));
    assert.deepEqual(sent, stored);
    c.close();
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('entries a commit of this process hands over are sent without a database read when they follow on; after a hole the stream reads the database, so nothing is skipped', async () => {
  const log: Entry[] = [];
  const add = (n: number) => {
    const from = log.length;
    for (let k = 0; k < n; k++) log.push({ seq: log.length + 1, turn: 1, kind: 'race', event: { type: 'note', k: log.length } as unknown as Entry['event'] });
    return log.slice(from);
  };
  add(5);
  let reads = 0;
  const source: StreamSource = {
    entries: async (_id, after, limit) => (reads++, { ok: true, value: log.slice(after, after + limit) }),
    lastSeq: async () => log.length,
  };
  const { hub, wss, client } = await hubAndClient(source);
  try {
    await until('the backlog', () => client.seqs.length === 5);
    // The catching-up client's reads are done once it follows the live batches.
    await until('the client following live', () => (hub as unknown as { races: Map<string, { clients: Set<{ catchingUp: boolean }> }> }).races.get('r')?.clients.values().next().value?.catchingUp === false);
    const before = reads;
    const a = add(3);
    hub.committed('r', log.length, a);
    const b = add(2);
    hub.committed('r', log.length, b);
    await until('the handed-over entries', () => client.seqs.length === 10);
    assert.equal(reads, before, 'no read for entries handed over that follow on');
    // A commit this process did not hand over (another process's), then one that did: a hole.
    add(4);
    const c = add(1);
    hub.committed('r', log.length, c);
    await until('the entries after the hole', () => client.seqs.length === 15);
    assert.ok(reads > before, 'the hole was read from the database');
    assert.deepEqual(client.seqs, Array.from({ length: 15 }, (_, k) => k + 1));
    assert.deepEqual(client.frames.flat(), log);
  } finally {
    client.close();
    hub.close();
    await new Promise((r) => wss.close(r));
  }
});

/** Opens a stream: 'open', or the refusal's status, Retry-After and body. */
const attempt = (url: string) => new Promise<{ ws: WebSocket } | { status: number; retryAfter: unknown; body: string }>((resolve, reject) => {
  const ws = new WebSocket(url);
  ws.once('open', () => resolve({ ws }));
  ws.once('unexpected-response', (_req, res) => {
    let body = '';
    res.on('data', (d) => (body += String(d)));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
  });
  ws.once('error', reject);
});

/** A stream opened, once there is room for it (tried until one is taken). */
const taken = (url: string) => until('a stream taken once one closed', async () => {
  const x = await attempt(url);
  return 'ws' in x ? x.ws : null;
});

test('one address may hold only so many streams: one more is refused 429 with Retry-After before its upgrade (two at once for the last place: one taken, one refused), the same address without an upgrade says so, and once one closes a new one is taken', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, { perAddress: 3 });
  try {
    const race = await newRace(s.base);
    const url = `${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`;
    const open = [streamClient(url), streamClient(url)];
    await Promise.all(open.map((c) => c.ready));
    assert.equal((await call(s.base, 'GET', `/api/races/${race.id}/stream`)).status, 426, 'a place left: without an upgrade, 426');
    const [a, b] = await Promise.all([attempt(url), attempt(url)]);
    const last = [a, b].flatMap((x) => ('ws' in x ? [x.ws] : []));
    const refused = [a, b].flatMap((x) => ('ws' in x ? [] : [x]));
    assert.equal(last.length, 1, 'one of the two took the last place');
    assert.equal(refused[0]!.status, 429);
    assert.equal(refused[0]!.retryAfter, '5');
    assert.equal(JSON.parse(refused[0]!.body).error.field, 'streams');
    assert.match(JSON.parse(refused[0]!.body).error.message, /holds its most streams \(3\)/);
    const asked = await call(s.base, 'GET', `/api/races/${race.id}/stream`);
    assert.deepEqual([asked.status, asked.body.error.field], [429, 'streams'], 'without an upgrade: the refusal an upgrade would get');
    assert.equal((await call(s.base, 'GET', '/api/health')).status, 200);
    open[0]!.close();
    (await taken(url)).close();
    last[0]!.close();
    open[1]!.close();
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a stream whose database reads fail for a moment keeps its client: its backlog and the entries committed meanwhile arrive once, in order, when reads succeed again', { timeout: 30_000 }, async () => {
  const { log, add } = noteLog();
  add(30);
  let failing = 3; // the next reads that fail, as while PostgreSQL replaces a terminated connection
  let failed = 0;
  const source: StreamSource = {
    entries: async (_id, after, limit) => {
      if (failing > 0) {
        failing--;
        failed++;
        throw new Error('terminating connection due to administrator command');
      }
      return { ok: true, value: log.slice(after, after + limit) };
    },
    lastSeq: async () => {
      if (lastSeqFailing > 0) {
        lastSeqFailing--;
        throw new Error('Connection terminated unexpectedly');
      }
      return log.length;
    },
  };
  let lastSeqFailing = 1; // and where the first live client's reads begin
  const hub = new StreamHub(source, { page: 10 });
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (socket) => hub.attach(socket, 'r', 0));
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  const client = streamClient(`ws://127.0.0.1:${port}`);
  let closed = false;
  void client.closed.then(() => (closed = true));
  try {
    await until('the backlog read again after its failures', () => client.seqs.length === 30);
    assert.equal(failed, 3);
    assert.equal(lastSeqFailing, 0, 'the last seq was read again after its failure');
    // Live: entries committed while the reads fail come once they succeed.
    failing = 2;
    hub.committed('r', add(25));
    await until('the live entries read again after their failures', () => client.seqs.length === 55);
    assert.deepEqual(client.seqs, Array.from({ length: 55 }, (_, k) => k + 1));
    assert.equal(closed, false, 'the client kept its stream');
  } finally {
    client.close();
    hub.close();
    await new Promise((r) => wss.close(r));
  }
});

test('a commit announced while a race\'s first stream client looks up where its live reads begin comes to it at once, with no later commit to wake the stream', { timeout: 30_000 }, async () => {
  const { log, add } = noteLog();
  add(3);
  // The first client's look-up of the last seq is held: it reads the race as it was before the commit below.
  let asked!: () => void;
  const lookedUp = new Promise<void>((r) => (asked = r));
  let answer!: (seq: number) => void;
  const source: StreamSource = {
    entries: async (_id, after, limit) => ({ ok: true, value: log.slice(after, after + limit) }),
    lastSeq: () => {
      const seen = log.length;
      asked();
      return new Promise<number>((r) => (answer = () => r(seen)));
    },
  };
  const { hub, wss, client } = await hubAndClient(source);
  try {
    await lookedUp;
    // A commit (of another process: nothing handed over) announced meanwhile: the race's last one.
    hub.committed('r', add(2));
    answer(3);
    await until('the entries committed while the client joined', () => client.seqs.length >= 5, 5_000);
    assert.deepEqual(client.seqs, [1, 2, 3, 4, 5]);
  } finally {
    client.close();
    hub.close();
    await new Promise((r) => wss.close(r));
  }
});

test('the server holds only so many streams in all: one more is refused 503 with Retry-After before its upgrade, and once one closes a new one is taken', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, undefined, { total: 3, perAddress: 1000 });
  try {
    const race = await newRace(s.base);
    const url = `${s.base.replace('http', 'ws')}/api/races/${race.id}/stream`;
    const open = [streamClient(url), streamClient(url), streamClient(url)];
    await Promise.all(open.map((c) => c.ready));
    const fourth = await attempt(url);
    assert.ok(!('ws' in fourth), 'a fourth stream was taken');
    assert.equal(fourth.status, 503);
    assert.equal(fourth.retryAfter, '5');
    assert.equal(JSON.parse(fourth.body).error.field, 'streams');
    assert.equal((await call(s.base, 'GET', '/api/health')).status, 200);
    open[0]!.close();
    (await taken(url)).close();
    for (const c of open.slice(1)) c.close();
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a backlog page is read and serialized once for all the clients catching up, and each gets the whole log once, in order', async () => {
  const { log, add } = noteLog();
  add(35);
  const reads = new Map<number, number>();
  const source: StreamSource = {
    entries: async (_id, after, limit) => (reads.set(after, (reads.get(after) ?? 0) + 1), { ok: true, value: log.slice(after, after + limit) }),
    lastSeq: async () => log.length,
  };
  const { hub, wss, client } = await hubAndClient(source);
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
  // 16 streams from one address, the most it may hold.
  const clients = [client, ...Array.from({ length: 15 }, () => streamClient(url))];
  try {
    await until('every client\'s backlog', () => clients.every((c) => c.seqs.length === 35));
    for (const c of clients) assert.deepEqual(c.seqs, Array.from({ length: 35 }, (_, k) => k + 1));
    // The full pages (10 entries each) were read once for the 16 clients.
    assert.deepEqual([0, 10, 20].map((after) => reads.get(after)), [1, 1, 1]);
  } finally {
    for (const c of clients) c.close();
    hub.close();
    await new Promise((r) => wss.close(r));
  }
});

test('clients catching up are sent a few backlog pages per turn of the event loop, so that other work is done between them', async () => {
  const { log, add } = noteLog();
  add(100);
  const hub = new StreamHub({ entries: async (_id, after, limit) => ({ ok: true, value: log.slice(after, after + limit) }), lastSeq: async () => log.length }, { page: 10, perAddress: 1000 });
  let sent = 0;
  // A socket that takes every frame and never says it was written out: each client is sent one page.
  const socket = () => ({ readyState: 1, bufferedAmount: 0, send: () => void sent++, on: () => undefined, once: () => undefined, terminate: () => undefined, close: () => undefined, ping: () => undefined });
  try {
    // The event loop's next turn, asked for before the clients come.
    const next = new Promise((r) => setImmediate(r));
    for (let k = 0; k < 40; k++) hub.attach(socket() as unknown as WebSocket, 'r', 0);
    await next;
    assert.ok(sent > 0 && sent <= PAGES_PER_TURN, `${sent} pages sent before the event loop's next turn`);
    await until('a page to each client', () => sent === 40);
  } finally {
    hub.close();
  }
});

test('with the database away, the stream reads of many clients catching up are logged as one failure and one recovery, not a line each time each client tries again', { timeout: 30_000 }, async (t) => {
  const { log, add } = noteLog();
  add(30);
  let down = true;
  let failed = 0;
  const source: StreamSource = {
    entries: async (_id, after, limit) => {
      if (down) {
        failed++;
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      }
      return { ok: true, value: log.slice(after, after + limit) };
    },
    lastSeq: async () => log.length,
  };
  const lines: string[] = [];
  t.mock.method(console, 'error', (line: string) => void lines.push(line));
  const hub = new StreamHub(source, { page: 10 });
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (socket) => hub.attach(socket, 'r', 0));
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  const clients = Array.from({ length: 20 }, () => streamClient(`ws://127.0.0.1:${port}`));
  try {
    // Each client has tried three times or more.
    await until('the clients\' reads to fail again and again', () => failed >= 60, 20_000);
    down = false;
    await until('every client to have the log', () => clients.every((c) => c.seqs.length === 30), 20_000);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.equal(lines[0], 'reading a stream failed: race r: connect ECONNREFUSED 127.0.0.1:5432');
    assert.match(lines[1]!, /^reading a stream works again after \d+ failed tries$/);
  } finally {
    for (const c of clients) c.close();
    hub.close();
    await new Promise((r) => wss.close(r));
  }
});
