/** The HTTP JSON API and the WebSocket stream of a race's events. */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { courseFile, courseRuleSets, type Course } from '../../engine/src/index.js';
import { boardNames, loadBoard } from '../../boards/src/index.js';
import { renderSvg } from '../../render/src/index.js';
import type { Socket } from 'node:net';
import { databaseUnavailable } from './db.js';
import type { Answer } from './errors.js';
import { OPENAPI } from './openapi.js';
import type { RaceService } from './races.js';
import { StreamHub, type StreamLimits } from './stream.js';
import { isStatic, registerWeb } from './web.js';

export interface AppOptions {
  readonly service: RaceService;
  readonly courses: () => { name: string; course: Course }[];
  /** Requests per client per window (default 300 per 10 s). */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number };
  readonly now?: () => number;
  /** The stream's bounds (server/src/stream.ts). */
  readonly stream?: Partial<StreamLimits>;
  readonly connections?: Partial<ConnectionLimits>;
}

const BODY_LIMIT = 64 * 1024;

/** How long a client may take, and how many connections one address may hold (docs/server.md). */
export interface ConnectionLimits {
  /** The whole request, body included (default 20 s): a body sent a byte at a time is cut off. */
  readonly requestMs: number;
  /** The request's headers (default 10 s). */
  readonly headersMs: number;
  /** A connection with nothing going on (default 60 s; keep-alive connections close sooner). */
  readonly idleMs: number;
  /** Open connections per client address, streams included (default 64). */
  readonly perAddress: number;
}

export const CONNECTION_DEFAULTS: ConnectionLimits = { requestMs: 20_000, headersMs: 10_000, idleMs: 60_000, perAddress: 64 };

function send<T>(reply: FastifyReply, a: Answer<T>, status = 200): FastifyReply {
  if (a.ok) return reply.code(status).send(a.value);
  return reply.code(a.refusal.status).send({ error: { field: a.refusal.field, message: a.refusal.message } });
}

const bearer = (req: FastifyRequest): string | undefined => {
  const h = req.headers.authorization;
  if (h?.startsWith('Bearer ')) return h.slice(7);
  const q = (req.query as Record<string, unknown>).token;
  return typeof q === 'string' ? q : undefined;
};

const seatNumber = (v: string): number => (/^\d{1,2}$/.test(v) ? Number(v) : -1);

export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  const limits = { ...CONNECTION_DEFAULTS, ...o.connections };
  const app = Fastify({
    bodyLimit: BODY_LIMIT, logger: false,
    requestTimeout: limits.requestMs, connectionTimeout: limits.idleMs, keepAliveTimeout: 5000,
    // Timed-out requests are looked for every second, not every 30 (Node's default).
    http: { headersTimeout: limits.headersMs, connectionsCheckingInterval: 1000 },
  });
  // Connections per address: one more is closed at once, before it costs anything.
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const from = socket.remoteAddress ?? '';
    const n = (open.get(from) ?? 0) + 1;
    if (n > limits.perAddress) {
      socket.destroy();
      return;
    }
    open.set(from, n);
    socket.once('close', () => {
      const left = (open.get(from) ?? 1) - 1;
      if (left > 0) open.set(from, left);
      else open.delete(from);
    });
  });
  await app.register(websocket, { options: { maxPayload: 4096 } });
  const svc = o.service;
  const now = o.now ?? (() => Date.now());

  // A few requests per second per client are plenty for racing; more is refused, never queued.
  const limit = o.rateLimit ?? { max: 300, windowMs: 10_000 };
  const hits = new Map<string, { start: number; n: number }>();
  app.addHook('onRequest', async (req, reply) => {
    if (isStatic(req.url)) return undefined;
    const t = now();
    const h = hits.get(req.ip);
    if (!h || t - h.start >= limit.windowMs) hits.set(req.ip, { start: t, n: 1 });
    else if (++h.n > limit.max) return reply.code(429).send({ error: { field: 'request', message: `more than ${limit.max} requests in ${limit.windowMs / 1000} s; slow down` } });
    if (hits.size > 10_000) hits.clear();
    return undefined;
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, _req, reply) => {
    // The database is away (restarting, a lost connection): the request may be sent again later.
    if (databaseUnavailable(error)) return reply.code(503).header('retry-after', '2').send({ error: { field: 'database', message: 'the database cannot be reached just now; try again shortly' } });
    if (!error.statusCode || error.statusCode >= 500) console.error(`${_req.method} ${_req.url.split('?')[0]}: ${(error as Error).stack ?? error.message}`);
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const field = status === 413 ? 'body' : status === 400 ? 'body' : 'server';
    reply.code(status).send({ error: { field, message: status === 500 ? 'internal error' : error.message } });
  });
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ error: { field: 'path', message: `no ${req.method} ${req.url.split('?')[0]}` } }));

  app.get('/api/openapi.json', async () => OPENAPI);
  const about = (name: string, c: Course) => ({
    name, title: c.name, description: c.description, players: c.players, complexity: c.complexity, time: c.time,
    boards: c.boards.length, flags: c.flags.length, starts: c.starts.length, rules: courseRuleSets(c),
  });
  app.get('/api/courses', async () => o.courses().map(({ name, course }) => about(name, course)));
  // One course with its composed board (the board grammar of docs/formats.md), for the web client to draw.
  app.get<{ Params: { name: string } }>('/api/courses/:name', async (req, reply) => {
    const c = o.courses().find((x) => x.name === req.params.name);
    if (!c) return reply.code(404).send({ error: { field: 'course', message: `no course "${req.params.name}"` } });
    return { ...about(c.name, c.course), layout: c.course.layout, file: courseFile(c.course) };
  });
  // The shipped boards, for composing a course of one's own (the course editor): each board's
  // grammar as its file has it, read once.
  let boards: { name: string; title: string; description: string; board: object }[] | null = null;
  app.get('/api/boards', async () => {
    boards ??= boardNames().flatMap((name) => {
      const b = loadBoard(name);
      if (!b.ok) return [];
      const { name: title, author: _author, description, ...board } = b.value.file;
      return [{ name, title, description, board }];
    });
    return boards;
  });
  app.get<{ Params: { name: string } }>('/api/courses/:name/picture.svg', async (req, reply) => {
    const c = o.courses().find((x) => x.name === req.params.name);
    if (!c) return reply.code(404).send({ error: { field: 'course', message: `no course "${req.params.name}"` } });
    return reply.type('image/svg+xml').send(renderSvg(c.course.board, { title: c.course.name }));
  });

  app.post('/api/races', async (req, reply) => {
    const created = await svc.create(req.body);
    if (!created.ok) return send(reply, created);
    const v = created.value;
    return reply.code(201).send({
      ...v,
      seats: v.seats.map((s) => ({ ...s, link: s.token ? `/race/${v.id}?seat=${s.seat}&token=${s.token}` : null })),
    });
  });
  app.get<{ Params: { id: string } }>('/api/races/:id', async (req, reply) => send(reply, await svc.view(req.params.id)));
  app.get<{ Params: { id: string } }>('/api/races/:id/course', async (req, reply) => send(reply, await svc.raceCourse(req.params.id)));
  app.get<{ Params: { id: string } }>('/api/series/:id', async (req, reply) => send(reply, await svc.series(req.params.id)));
  app.post<{ Params: { id: string; seat: string } }>('/api/races/:id/seats/:seat/recompile', async (req, reply) =>
    send(reply, await svc.recompile(req.params.id, seatNumber(req.params.seat), { token: bearer(req) })));
  // The seat's person has watched or skipped the replay: a live race's clock starts once every person has (ready.ts).
  app.post<{ Params: { id: string; seat: string } }>('/api/races/:id/seats/:seat/ready', async (req, reply) =>
    send(reply, await svc.ready(req.params.id, seatNumber(req.params.seat), bearer(req), req.body)));
  app.get<{ Params: { id: string; seat: string } }>('/api/races/:id/seats/:seat', async (req, reply) =>
    send(reply, await svc.seat(req.params.id, seatNumber(req.params.seat), bearer(req))));
  app.put<{ Params: { id: string; seat: string } }>('/api/races/:id/seats/:seat/orders', async (req, reply) => {
    const key = req.headers['x-moderator-key'];
    const who = typeof key === 'string' ? { moderatorKey: key } : { token: bearer(req) };
    return send(reply, await svc.submit(req.params.id, seatNumber(req.params.seat), who, req.body));
  });
  app.get<{ Params: { id: string }; Querystring: { after?: string } }>('/api/races/:id/events', async (req, reply) =>
    send(reply, await svc.entries(req.params.id, Number(req.query.after ?? 0) || 0)));
  app.get<{ Params: { id: string; turn: string }; Querystring: { format?: string } }>('/api/races/:id/turns/:turn/report', async (req, reply) => {
    const rep = await svc.report(req.params.id, Number(req.params.turn) || 0);
    if (rep.ok && req.query.format === 'text') return reply.type('text/plain; charset=utf-8').send(rep.value.text);
    return send(reply, rep);
  });
  // A played turn for a replay: the robots as it began and its events, all revealed by now.
  app.get<{ Params: { id: string; turn: string } }>('/api/races/:id/turns/:turn', async (req, reply) =>
    send(reply, await svc.replay(req.params.id, Number(req.params.turn) || 0)));
  // The picture of a played turn: the floor after it, with programmed moves as blue arrows and
  // pushes and belt moves as green ones, as 001's moderator drew them.
  app.get<{ Params: { id: string; turn: string } }>('/api/races/:id/turns/:turn/picture.svg', async (req, reply) => {
    const played = await svc.playedTurn(req.params.id, Number(req.params.turn) || 0);
    if (!played.ok) return send(reply, played);
    const { setup, after, events } = played.value;
    return reply.type('image/svg+xml').send(renderSvg(setup.board, { state: after, events, title: `Turn ${req.params.turn}` }));
  });
  app.post<{ Params: { id: string; action: string } }>('/api/races/:id/moderator/:action', async (req, reply) => {
    const key = req.headers['x-moderator-key'];
    return send(reply, await svc.moderate(req.params.id, typeof key === 'string' ? key : undefined, req.params.action, req.body ?? {}));
  });

  // The stream (server/src/stream.ts): what happened after `after`, a page at a time, then each
  // batch as it is committed. A client that reconnects with the last seq it saw misses nothing and
  // sees nothing twice.
  const hub = new StreamHub({
    entries: (id, after, limit) => svc.entries(id, after, limit),
    lastSeq: (id) => svc.lastSeq(id),
    played: async (id, turn) => {
      const [replay, report] = await Promise.all([svc.replay(id, turn), svc.report(id, turn)]);
      return replay.ok && report.ok ? { turn, replay: replay.value, report: report.value } : null;
    },
  }, o.stream);
  const onCommitted = (id: string, seq: number) => hub.committed(id, seq);
  const onResync = () => hub.resync();
  svc.bus.on('committed', onCommitted);
  svc.bus.on('resync', onResync);
  app.addHook('onClose', async () => {
    svc.bus.off('committed', onCommitted);
    svc.bus.off('resync', onResync);
    hub.close();
  });
  app.get<{ Params: { id: string }; Querystring: { after?: string } }>('/api/races/:id/stream', { websocket: true }, (socket, req) => {
    const after = Number(req.query.after ?? 0);
    hub.attach(socket, req.params.id, Number.isSafeInteger(after) && after > 0 ? after : 0, req.ip);
  });

  app.get('/api', async () => ({
    name: 'roborally',
    about: 'An unofficial RoboRally race server. The API is described at /api/openapi.json; the web client is at /.',
    courses: '/api/courses',
  }));
  registerWeb(app);
  return app;
}
