/** The HTTP JSON API and the WebSocket stream of a race's events. */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { courseRuleSets, type Course } from '../../engine/src/index.js';
import { renderSvg } from '../../render/src/index.js';
import type { Answer } from './errors.js';
import { OPENAPI } from './openapi.js';
import type { Entry, RaceService } from './races.js';
import { isStatic, registerWeb } from './web.js';

export interface AppOptions {
  readonly service: RaceService;
  readonly courses: () => { name: string; course: Course }[];
  /** Requests per client per window (default 300 per 10 s). */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number };
  readonly now?: () => number;
}

const BODY_LIMIT = 64 * 1024;

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
  const app = Fastify({ bodyLimit: BODY_LIMIT, logger: false });
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
    return { ...about(c.name, c.course), layout: c.course.layout };
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

  // The stream: what happened after `after`, then everything as it is committed. A client that
  // reconnects with the last seq it saw misses nothing and sees nothing twice.
  app.get<{ Params: { id: string }; Querystring: { after?: string } }>('/api/races/:id/stream', { websocket: true }, async (socket, req) => {
    const id = req.params.id;
    let last = Number(req.query.after ?? 0) || 0;
    const push = (entries: Entry[]) => {
      for (const e of entries) {
        if (e.seq <= last) continue;
        last = e.seq;
        socket.send(JSON.stringify(e));
      }
    };
    // Entries committed while the backlog is read wait, so everything goes out in order.
    let waiting: Entry[] | null = [];
    const listener = (entries: Entry[]) => (waiting ? waiting.push(...entries) : push(entries));
    svc.bus.on(`race:${id}`, listener);
    socket.on('close', () => svc.bus.off(`race:${id}`, listener));
    const backlog = await svc.entries(id, last);
    if (!backlog.ok) {
      socket.send(JSON.stringify({ error: backlog.refusal }));
      socket.close();
      return;
    }
    push(backlog.value);
    push(waiting.sort((a, b) => a.seq - b.seq));
    waiting = null;
  });

  app.get('/api', async () => ({
    name: 'roborally',
    about: 'An unofficial RoboRally race server. The API is described at /api/openapi.json; the web client is at /.',
    courses: '/api/courses',
  }));
  registerWeb(app);
  return app;
}
