/** The HTTP JSON API and the WebSocket stream of a race's events. */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import swagger from '@fastify/swagger';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { RaceBudget, StrangerBudget } from './creation-budget.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { courseFile, courseRuleSets, type Course } from '../../engine/src/index.js';
import { boardNames, loadBoard } from '../../boards/src/index.js';
import { renderSvg } from '../../render/src/index.js';
import type { Socket } from 'node:net';
import { createServer, STATUS_CODES } from 'node:http';
import { boundInFlight, connectionsInAll, ShutOut } from './limits.js';
import proxyAddr from '@fastify/proxy-addr';
import { databaseFull, databaseUnavailable } from './db.js';
import type { Answer } from './errors.js';
import type { Entry, HandedPlay, RaceService } from './races.js';
import { AfterQuery, AnyObject, NoQuery, ClaimSchema, RenewSchema, CourseParams, DraftSchema, ErrorSchema, FollowSchema, IdParams, MODERATOR_ACTIONS, NewRace, NewRaceHeaders, OrdersSchema, ReadySchema, ReportQuery, RobotSchema, SeatParams, SeatViewQuery, SeenQuery, SeriesParams, TokenQuery, TurnParams } from './schemas.js';
import { StreamHub, type StreamLimits } from './stream.js';
import type { Draft } from './drafts.js';
import { boundJsonDepth, describeSchemaError, validatorCompiler } from './validation.js';
import { dressed } from './views.js';
import { prepare, registerWeb, send as sendPrepared, type Prepared } from './web.js';

export interface AppOptions {
  readonly service: RaceService;
  readonly courses: () => { name: string; course: Course }[];
  /** Requests per client per window (default 300 per 10 s). */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number };
  /** Races one client may create in a minute (default 10): a creation costs far more than a request. */
  readonly racesPerMinute?: number;
  /**
   * Addresses seated by e-mail that never answered the server (strangers) one client address may
   * seat in 24 hours (`perAddress`), and all clients together (`perDay`); `neverAnswered` tells
   * which of a creation's addresses are strangers (the mail gateway's; without it, when mail is
   * off, nobody is mailed and nothing is counted).
   */
  readonly strangers?: { readonly perAddress?: number; readonly perDay?: number; readonly neverAnswered: (addresses: readonly string[]) => Promise<string[]> };
  /**
   * Whether the server mails (its mail gateway runs). Without it a seat with an `email` is refused:
   * such a seat gets no invite, only its mails bring its person in, and none would come.
   */
  readonly mail?: boolean;
  /**
   * Which proxies to believe about the client's address (X-Forwarded-For): fastify's `trustProxy`,
   * true (any), addresses and CIDR ranges separated by commas, or a function of (address, hop).
   * Off by default: the socket's address is the client's.
   */
  readonly trustProxy?: boolean | string | ((address: string, hop: number) => boolean);
  /** The stream's bounds (server/src/stream.ts). */
  readonly stream?: Partial<StreamLimits>;
  readonly connections?: Partial<ConnectionLimits>;
}

const BODY_LIMIT = 64 * 1024;
/**
 * A body over BODY_LIMIT is answered 413 at once, and what the client is still sending is read and
 * thrown away up to this many bytes: a socket closed with unread bytes is reset, and a client still
 * sending would see EPIPE instead of the answer. A body declared larger, or one that goes on past
 * this, has its connection closed.
 */
const DISCARD_LIMIT = 16 * 1024 * 1024;
/** Client addresses whose request counts are kept (least recently seen dropped first). */
const RATE_LIMITED_ADDRESSES = 20_000;
/**
 * How long an address whose connection was closed for piling up requests (`ConnectionLimits.inFlight`),
 * or that went on as far again past its rate limit, has its connections closed at once.
 */
const SHUT_OUT_MS = 10_000;

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
  /**
   * Open connections in all, streams included (default: the process's descriptors less a reserve,
   * limits.ts `connectionsInAll`); one more is closed as it is accepted.
   */
  readonly total: number;
  /**
   * Requests of one connection whose answers have not left the process (default 16): pipelined
   * ahead of their answers, or answered to a client that does not read; one more closes the connection.
   */
  readonly inFlight: number;
}

const CONNECTION_DEFAULTS: Omit<ConnectionLimits, 'total'> = { requestMs: 20_000, headersMs: 10_000, idleMs: 60_000, perAddress: 64, inFlight: 16 };

/**
 * Whether to believe the peer at `hop` (0: the socket's) about the client's address, as fastify's
 * `trustProxy` would (true: any; addresses and CIDR ranges separated by commas; a function); null:
 * nobody. Fastify is given this very function, so the connection cap and `req.ip` agree.
 */
export function trustFunction(tp: AppOptions['trustProxy']): ((address: string, hop: number) => boolean) | null {
  if (tp === undefined || tp === false) return null;
  if (typeof tp === 'function') return tp;
  if (tp === true) return () => true;
  return proxyAddr.compile(tp.split(',').map((x) => x.trim()));
}

function send<T>(reply: FastifyReply, a: Answer<T>, status = 200): FastifyReply {
  if (a.ok) return reply.code(status).send(a.value);
  // The server too busy just now (503): the request may be sent again in a few seconds.
  if (a.refusal.status === 503) reply.header('retry-after', '5');
  return reply.code(a.refusal.status).send({ error: { field: a.refusal.field, message: a.refusal.message } });
}

/**
 * The client an address stands for, as every per-address bound counts it (the rate limiter, the
 * connections, the streams, the creations, the strangers): an IPv6 address by its /64, which one
 * subscriber holds whole (each of its 2^64 addresses counted apart had its own 64 connections and 16
 * streams); an IPv4 address written as IPv6 as itself.
 */
const clientOf = (address: string): string => normalizeIP(address);

/** A seat's token: the Bearer token, or the invite link's ?token=. */
const bearer = (authorization: string | undefined, query: string | undefined): string | undefined =>
  authorization?.startsWith('Bearer ') ? authorization.slice(7) : query;

/**
 * The rest of a refused body, read and dropped (up to DISCARD_LIMIT) once the 413 is sent, so the
 * client reads its answer and the connection is reused or times out like any other; fastify's
 * `connection: close` would reset a socket the client is still writing to.
 */
function readAway(req: FastifyRequest['raw'], reply: FastifyReply): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (req.complete || declared > DISCARD_LIMIT) return;
  reply.removeHeader('connection');
  // A client that asked for the connection to close has it closed once its body is in, not before.
  reply.raw.shouldKeepAlive = true;
  let dropped = 0;
  // Node reads an unread body away itself once the answer is sent (and drops the 'data' listeners
  // it finds then): the count starts after that.
  reply.raw.once('finish', () => req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_LIMIT) req.socket.destroy();
  }));
}

/**
 * An upgrade refused with an answer (a path that is no URL encoding, no such route, a bad query):
 * Node has handed its socket over and times it out no more, so it is ended with the answer and
 * says so. Left open it was held for ever (a descriptor and a place in the address's connections,
 * and `app.close()` waited on it), and it said `keep-alive` to a client that sent more on it.
 */
function endRefusedUpgrade(req: FastifyRequest, reply: FastifyReply): void {
  if (req.headers.upgrade === undefined || reply.statusCode === 101) return;
  reply.header('connection', 'close');
  reply.raw.once('finish', () => req.raw.socket.destroySoon());
}

export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  const limits: ConnectionLimits = { ...CONNECTION_DEFAULTS, total: connectionsInAll(), ...o.connections };
  // One notion of the client's address for the rate limit, the connections and the streams: fastify's `req.ip` with this trust.
  const trust = trustFunction(o.trustProxy);
  // Connections per client address, the address the rate limiter counts by: a direct client's
  // connection counts from the moment it is made, and one more is closed at once, before it costs
  // anything. A trusted proxy's connections carry many clients: there each request in flight and
  // each open stream counts for the client the proxy names, and one more is answered 429.
  const open = new Map<string, number>();
  const hold = (from: string): boolean => {
    const n = (open.get(from) ?? 0) + 1;
    if (n > limits.perAddress) return false;
    open.set(from, n);
    return true;
  };
  const release = (from: string) => {
    const left = (open.get(from) ?? 1) - 1;
    if (left > 0) open.set(from, left);
    else open.delete(from);
  };
  // An address whose connection was closed for piling up requests, or that floods past its rate
  // limit, is shut out for a while (SHUT_OUT_MS): its new connections are closed as they come, and
  // the next request on one it holds closes that one, before any route's hook runs.
  const shutOut = new ShutOut(SHUT_OUT_MS, RATE_LIMITED_ADDRESSES);
  /** The client of each direct connection (a trusted proxy's have none). */
  const clientOfSocket = new WeakMap<Socket, string>();
  const piledUp = (socket: Socket) => {
    const from = clientOfSocket.get(socket);
    if (from !== undefined) shutOut.add(from);
  };
  const notShutOut = (socket: Socket) => {
    const from = clientOfSocket.get(socket);
    return from === undefined || !shutOut.has(from);
  };
  const countConnection = (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (trust?.(address, 0)) return;
    const from = clientOf(address);
    if (shutOut.has(from) || !hold(from)) {
      socket.destroy();
      return;
    }
    clientOfSocket.set(socket, from);
    socket.once('close', () => release(from));
  };
  const app = Fastify({
    bodyLimit: BODY_LIMIT, logger: false, trustProxy: trust ?? false,
    // Every server fastify listens with (one per address of `localhost`) is made here, with the
    // connections' bounds: so many in all (Node's `maxConnections` closes one more as it is
    // accepted, before it is a socket), so many per address, so many requests in flight on one.
    // Timed-out requests are looked for every second, not every 30 (Node's default).
    serverFactory: (handle) => {
      const server = createServer({ headersTimeout: limits.headersMs, connectionsCheckingInterval: 1000 }, boundInFlight(handle, limits.inFlight, { admitted: notShutOut, piledUp }));
      server.keepAliveTimeout = 5000;
      server.requestTimeout = limits.requestMs;
      server.setTimeout(limits.idleMs);
      server.maxConnections = limits.total;
      server.on('connection', countConnection);
      return server;
    },
    // A request Node's parser refuses (no HTTP, headers too large) or cut off by its timeout is
    // answered in the API's own shape too, and its connection closed.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, field, message] = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'request', 'the request did not arrive in time']
        : err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'headers', 'the headers are larger than the server takes']
        : [400, 'request', 'the request is no HTTP the server can read'];
      const body = JSON.stringify({ error: { field, message } });
      if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
      socket.destroy(err);
    },
    // A path the router cannot read (bytes that are no UTF-8, a part longer than any id) is
    // refused in the API's own shape, without echoing the path back.
    frameworkErrors: (error, req, reply: FastifyReply) => {
      endRefusedUpgrade(req, reply);
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      reply.code(tooLong ? 414 : 400).send({ error: { field: 'path', message: tooLong ? 'a part of the path is longer than any the API takes' : 'the path is not valid URL encoding' } });
    },
  });
  if (trust) {
    app.addHook('onRequest', async (req, reply) => {
      const socket = req.raw.socket;
      if (!trust(socket.remoteAddress ?? '', 0)) return;
      const from = clientOf(req.ip);
      const upgrade = req.headers.upgrade !== undefined;
      if (!hold(from)) {
        // A refused upgrade's socket belongs to nobody once answered: it is ended with the answer.
        if (upgrade) reply.raw.once('finish', () => socket.end());
        return reply.code(429).send({ error: { field: 'connections', message: `more than ${limits.perAddress} connections at once from one address` } });
      }
      let held = true;
      const done = () => (held ? ((held = false), release(from)) : undefined);
      // A stream holds its place while its socket is open; a request until it is answered.
      if (upgrade) socket.once('close', done);
      else (reply.raw.once('finish', done), reply.raw.once('close', done));
    });
  }
  boundJsonDepth(app);
  app.setValidatorCompiler(validatorCompiler);
  // The answers' schemas are for the document only: answers are sent as they are.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'roborally race server',
        version: '0.1.0',
        description: 'An unofficial RoboRally referee. A person takes their seat with the invite of their link (POST /api/races/{id}/claim, once) and acts with the token that answer gives them alone, as a Bearer token or ?token=; the race\'s creator moderates with the X-Moderator-Key header. Nobody sees another seat\'s hand or orders before the turn is played. Every field of a request is checked against its schema here; a refusal is {"error": {"field", "message"}} naming the field\'s path.',
      },
      components: {
        securitySchemes: {
          seat: { type: 'http', scheme: 'bearer', description: 'the seat\'s token' },
          moderator: { type: 'apiKey', in: 'header', name: 'X-Moderator-Key' },
        },
      },
    },
    // The pages and assets of the web client are no part of the API.
    transform: ({ schema, url }) => ({ schema: url.startsWith('/api/') && !url.endsWith('/stream') ? schema : { ...schema, hide: true }, url }),
  });
  // A few requests per second per client are plenty for racing; more is refused, never queued.
  // Every route counts, pages, assets, the API and the stream's upgrade alike, per client address
  // (behind a trusted proxy, the address it forwards); the counts live in an LRU of addresses.
  const limit = o.rateLimit ?? { max: 300, windowMs: 10_000 };
  await app.register(rateLimit, {
    global: true, max: limit.max, timeWindow: limit.windowMs, cache: RATE_LIMITED_ADDRESSES,
    // A client that goes on past its budget as far again within the window (`ban`) is flooding: each
    // 429 still costs the routes' hooks. A direct one has its connection closed and is shut out like
    // one that piles up requests; behind a trusted proxy it goes on being answered 429.
    ban: limit.max,
    onBanReach: (req) => {
      const socket = req.raw.socket;
      if (trust?.(socket.remoteAddress ?? '', 0)) return;
      shutOut.add(clientOf(req.ip));
      socket.destroy();
    },
    errorResponseBuilder: (_req, c) => Object.assign(new Error(`more than ${c.max} requests in ${limit.windowMs / 1000} s; slow down (try again in ${c.after})`), { statusCode: 429, field: 'request' }),
  });
  // Creating a race costs far more than any other request (its course checked and set up, its
  // bots' facings chosen, its rows written): one client creates so many a minute, per client
  // address as the rate limiter counts it, after the body is found well formed. A creation the
  // server refused for its own reasons (5xx) or for its strangers (429) gives its share back, and a retry with the
  // Idempotency-Key of a race made this minute counts no second time (creation-budget.ts).
  const racesPerMinute = o.racesPerMinute ?? 10;
  const creations = new RaceBudget(racesPerMinute, RATE_LIMITED_ADDRESSES);
  const creationBudget = async (req: FastifyRequest, reply: FastifyReply) => {
    const taken = creations.take(clientOf(req.ip), req.headers['idempotency-key'] as string | undefined);
    if (!taken.ok) return reply.code(429).header('retry-after', String(taken.retryAfterS)).send({ error: { field: 'races', message: `more than ${racesPerMinute} races created in a minute from one address; try again in ${taken.retryAfterS} s` } });
    // A rematch asked for counts only when it made the race (201; else another request had made it).
    const rematch = req.routeOptions.url?.endsWith('/rematch');
    reply.raw.once('finish', () => (reply.statusCode === 201 ? taken.made() : (rematch || reply.statusCode >= 500 || reply.statusCode === 429) && taken.release()));
  };
  // Whom a new race mails: addresses that never answered the server, so many a client a day and
  // so many in all, refused at creation naming the seat (a race cannot make the server mail
  // strangers by the thousand: docs/server.md, "Strangers seated by e-mail").
  const strangers = o.strangers ? new StrangerBudget(o.strangers.perAddress ?? 20, o.strangers.perDay ?? 1000, RATE_LIMITED_ADDRESSES) : null;
  const seatStrangers = async (req: FastifyRequest, reply: FastifyReply) => {
    const seats = ((req.body as { seats?: { email?: unknown }[] }).seats ?? []).map((s, i) => ({ i, email: typeof s.email === 'string' ? s.email.toLowerCase() : null }));
    const mailed = seats.filter((s) => s.email !== null);
    if (!o.mail && mailed.length) {
      return reply.code(422).send({ error: { field: `seats[${mailed[0]!.i}].email`, message: 'this server sends no mail (its mail gateway is off): a seat raced by e-mail would get no way in; seat its person without an e-mail, and send them the seat\'s invite link' } });
    }
    if (!strangers || !mailed.length) return;
    const never = new Set(await o.strangers!.neverAnswered(mailed.map((s) => s.email!)));
    const asked = mailed.filter((s) => never.has(s.email!));
    const seated = strangers.seat(clientOf(req.ip), asked.map((s) => s.email!));
    if (!seated.ok) {
      const { perAddress = 20, perDay = 1000 } = o.strangers!;
      const bound = seated.whose === 'address' ? `${perAddress} addresses from one client address` : `${perDay} addresses in all`;
      return reply.code(429).header('retry-after', String(seated.retryAfterS)).send({ error: { field: `seats[${asked[seated.index]!.i}].email`, message: `a race mails the addresses it seats, and the server seats at most ${bound} in 24 hours that have never answered it; this one has not: seat it once its player has answered a race's mail, or without its e-mail (the invite link plays on the web); try again in ${seated.retryAfterS} s` } });
    }
    reply.raw.once('finish', () => reply.statusCode !== 201 && seated.release());
  };
  await app.register(websocket, { options: { maxPayload: 4096 } });
  const svc = o.service;

  app.setErrorHandler((error: FastifyError & { field?: string }, req, reply) => {
    // A request that does not meet its route's schema: the field's path and what was expected.
    // A header that is not as its schema says (the Idempotency-Key) is a request that is not well formed: 400.
    if (error.validation) return reply.code(error.validationContext === 'headers' ? 400 : 422).send({ error: describeSchemaError(error.validation, error.validationContext ?? 'body') });
    // A body over the limit: what the client is still sending is read away after the 413.
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') readAway(req.raw, reply);
    // The database's disk is full: nothing was kept; the request may be sent again later.
    if (databaseFull(error)) {
      console.error(`${req.method} ${req.url.split('?')[0]}: the database's disk is full (${error.message})`);
      return reply.code(507).header('retry-after', '30').send({ error: { field: 'database', message: 'the database has no room left on its disk: nothing was changed; try again later' } });
    }
    // The database is away (restarting, a lost connection): the request may be sent again later.
    if (databaseUnavailable(error)) return reply.code(503).header('retry-after', '2').send({ error: { field: 'database', message: 'the database cannot be reached just now; try again shortly' } });
    if (!error.statusCode || error.statusCode >= 500) console.error(`${req.method} ${req.url.split('?')[0]}: ${error.stack ?? error.message}`);
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const field = error.field ?? (status === 415 ? 'content-type' : status === 408 ? 'request' : status === 400 || status === 413 ? 'body' : status === 404 ? 'path' : 'server');
    return reply.code(status).send({ error: { field, message: status === 500 ? 'internal error' : error.message } });
  });
  app.addHook('onSend', async (req, reply) => endRefusedUpgrade(req, reply));
  // Answers that may hold a secret (a new race's moderator key and invites, a seat's token, a seat's hand
  // and orders) are kept by no cache: a seat's view asked by ?token= would be kept under its URL.
  app.addHook('onSend', async (req, reply) => {
    const route = req.routeOptions.url ?? '';
    if ((route === '/api/races' && req.method === 'POST') || route === '/api/races/:id/claim' || route.startsWith('/api/races/:id/seats/') || route === '/api/races/:id/moderator/invite') reply.header('cache-control', 'no-store');
  });
  // A route of the API that takes no query refuses one too (`?foo=1`), as the others refuse keys they do not know.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.schema && !route.schema.querystring) route.schema = { ...route.schema, querystring: NoQuery };
  });
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (req, reply) => reply.code(404).send({ error: { field: 'path', message: `no ${req.method} ${req.url.split('?')[0]}` } }));

  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const refused = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema, 429: ErrorSchema, 503: ErrorSchema, 507: ErrorSchema };
  const answer = (description: string) => ({ 200: AnyObject(description), ...refused });
  const asSeat = [{ seat: [] }];

  // Written and compressed once (125 KB of JSON, some 15 KB in brotli): written for each request it cost
  // a stringify and its own 125 KB while the client read it.
  let openapi: Promise<Prepared> | undefined;
  api.get('/api/openapi.json', { schema: { summary: 'This document', response: { 200: AnyObject('OpenAPI 3.1') } } }, async (req, reply) =>
    sendPrepared(req, reply, await (openapi ??= prepare(Buffer.from(JSON.stringify(app.swagger())), 'application/json; charset=utf-8')), 'no-cache'));
  // A query that reads the races table: the database answers, or the server says it cannot serve.
  api.get('/api/health', { schema: { summary: 'Whether the server can serve: 200 when its database answers, else 503', response: { 200: Type.Object({ ok: Type.Literal(true) }), 503: ErrorSchema } } }, async (_req, reply) => {
    try {
      await svc.lastSeq('');
      return { ok: true as const };
    } catch (e) {
      return reply.code(503).header('retry-after', '2').send({ error: { field: 'database', message: `the database does not answer: ${(e as Error).message}` } });
    }
  });
  const about = (name: string, c: Course) => ({
    name, title: c.name, description: c.description, players: c.players, complexity: c.complexity, time: c.time,
    boards: c.boards.length, flags: c.flags.length, starts: c.starts.length, rules: courseRuleSets(c),
  });
  api.get('/api/courses', { schema: { summary: 'The courses to race on', response: { 200: Type.Array(AnyObject('a course')) } } }, async () => o.courses().map(({ name, course }) => about(name, course)));
  // One course with its composed board (the board grammar of docs/formats.md), for the web client to draw.
  api.get('/api/courses/:name', { schema: { summary: 'A course, its composed board (`layout`, the board grammar of docs/formats.md) and the course `file` as docs/formats.md gives it', params: CourseParams, response: answer('the course') } }, async (req, reply) => {
    const c = o.courses().find((x) => x.name === req.params.name);
    if (!c) return reply.code(404).send({ error: { field: 'course', message: `no course "${req.params.name}"` } });
    return { ...about(c.name, c.course), layout: c.course.layout, file: courseFile(c.course) };
  });
  // The shipped boards, for composing a course of one's own (the course editor, docs/web.md): each
  // board's grammar as its file has it, read once.
  let boards: { name: string; title: string; description: string; board: object }[] | null = null;
  api.get('/api/boards', { schema: { summary: 'The shipped boards, to compose a course of one\'s own: each {name, title, description, board} with the board\'s grammar as its file has it (docs/formats.md)', response: { 200: Type.Array(AnyObject('a board')) } } }, async () => {
    boards ??= boardNames().flatMap((name) => {
      const b = loadBoard(name);
      if (!b.ok) return [];
      const { name: title, author: _author, description, ...board } = b.value.file;
      return [{ name, title, description, board }];
    });
    return boards;
  });
  // A course's picture (the home page shows them all): drawn and compressed once per course, revalidated by its ETag after an hour.
  const pictures = new WeakMap<object, Promise<Prepared>>();
  api.get('/api/courses/:name/picture.svg', { schema: { summary: 'A course drawn as SVG (compressed when the client accepts it; ETag)', params: CourseParams, produces: ['image/svg+xml'], response: { 200: Type.String({ description: 'SVG' }), 304: Type.Null(), 404: ErrorSchema } } }, async (req, reply) => {
    const c = o.courses().find((x) => x.name === req.params.name);
    if (!c) return reply.code(404).send({ error: { field: 'course', message: `no course "${req.params.name}"` } });
    let picture = pictures.get(c.course);
    if (!picture) pictures.set(c.course, (picture = prepare(Buffer.from(renderSvg(c.course.board, { title: c.course.name })), 'image/svg+xml')));
    return sendPrepared(req, reply, await picture, 'public, max-age=3600');
  });

  api.post('/api/races', { schema: { summary: 'Create a race and begin its first turn (with an Idempotency-Key, a retry makes no second race)', headers: NewRaceHeaders, body: NewRace, response: { 201: AnyObject('the race, its moderator key and each seat\'s invite link'), 400: ErrorSchema, ...refused } }, preHandler: [creationBudget, seatStrangers] }, async (req, reply) => {
    const created = await svc.create(req.body, req.headers['idempotency-key']);
    if (!created.ok) return send(reply, created);
    const v = created.value;
    return reply.code(201).send({
      ...v,
      seats: v.seats.map((s) => ({ ...s, link: s.invite ? `/race/${v.id}?seat=${s.seat}&invite=${s.invite}` : null })),
    });
  });
  // A person takes their seats: the invite is spent, the token made is theirs alone (auth.ts).
  api.post('/api/races/:id/claim', {
    schema: { summary: 'Take your seats with the invite of your link: the first claim spends it (a second, anybody\'s, is refused 401), and the answer\'s token, given to nobody else, opens them (Bearer or ?token=). A seat raced by e-mail has no invite: its mails link its page. openedBefore: each time another token held one of those seats before (taken, then made void by the moderator\'s new invite), from turn to turn: whoever held it saw their hand then', params: IdParams, body: ClaimSchema, response: answer('{token, seats, openedBefore: [{seat, from, to}]}') },
  }, async (req, reply) => send(reply, await svc.claim(req.params.id, req.body)));
  // A race over raced again, made once whoever asks first (races.ts rematch): the asker's seats in it taken with their token here.
  api.post('/api/races/:id/seats/:seat/rematch', {
    schema: { summary: 'The race, over, raced again: made by the first to ask (201; asked again, or by another seat\'s person, the same race: 200), the same course, rules, settings, deadline and seats on a new deal, and your seats in it taken as a claim takes them, with this token and the browser\'s own key (sent again, the same token): answered {id, made, token, seats, openedBefore}. Nobody is given another\'s seat: each person takes theirs with the token of their seats here', params: SeatParams, querystring: TokenQuery, body: RenewSchema, security: asSeat, response: answer('{id, made, token, seats, openedBefore}') },
    preHandler: creationBudget,
  }, async (req, reply) => {
    const got = await svc.rematch(req.params.id, req.params.seat, bearer(req.headers.authorization, req.query.token), req.body);
    return send(reply, got, got.ok && got.value.made ? 201 : 200);
  });
  // A seat's person makes their link the seat's only one (races.ts renewToken).
  api.post('/api/races/:id/seats/:seat/token', {
    schema: { summary: 'Make this link the seat\'s only one: a new token for the seats this token opens, which opens them from now on; the old one opens them no more (the seat\'s links on other devices, or a link somebody gave you instead of an invite). Sent again with the same browser key, its answer lost, it answers the same token. Not for a seat raced by e-mail (409)', params: SeatParams, querystring: TokenQuery, body: RenewSchema, security: asSeat, response: answer('{token, seats}') },
  }, async (req, reply) => send(reply, await svc.renewToken(req.params.id, req.params.seat, bearer(req.headers.authorization, req.query.token), req.body)));
  api.get('/api/races/:id', { schema: { summary: 'What anybody may see of a race', params: IdParams, querystring: SeenQuery, response: answer('public view') } }, async (req, reply) => send(reply, await svc.view(req.params.id, req.query.seen)));
  api.get('/api/races/:id/course', { schema: { summary: 'The race\'s course, shipped or its own, with its composed board', params: IdParams, response: answer('the course') } }, async (req, reply) => send(reply, await svc.raceCourse(req.params.id)));
  api.get('/api/series/:id', { schema: { summary: 'A series: its races and the standings across those that are over', params: SeriesParams, response: answer('{races, standings}') } }, async (req, reply) => send(reply, await svc.series(req.params.id)));
  api.post('/api/races/:id/seats/:seat/recompile', {
    schema: { summary: 'Recompile: discard the hand for a new one, taking the damage the rule set says (the robot must hold Recompile); orders already sent this turn are withdrawn', params: SeatParams, querystring: TokenQuery, security: asSeat, response: answer('{turn, hand}') },
  }, async (req, reply) => send(reply, await svc.recompile(req.params.id, req.params.seat, { token: bearer(req.headers.authorization, req.query.token) })));
  // The seat's person has watched or skipped the replay: a live race's clock starts once every person has (ready.ts).
  api.post('/api/races/:id/seats/:seat/ready', {
    schema: { summary: 'The seat\'s person has watched or skipped the replay of the turn just played: a live race\'s programming clock starts once every person still racing has, or at the latest at the view\'s clock.startsBy (the replay\'s length and a margin)', params: SeatParams, querystring: TokenQuery, body: ReadySchema, security: asSeat, response: answer('{turn, clockStarted, deadlineAt}') },
  }, async (req, reply) => send(reply, await svc.ready(req.params.id, req.params.seat, bearer(req.headers.authorization, req.query.token), req.body)));
  api.get('/api/races/:id/seats/:seat', { schema: { summary: 'A seat\'s view: the race, its hand and its orders', params: SeatParams, querystring: SeatViewQuery, security: asSeat, response: answer('seat view') } }, async (req, reply) =>
    send(reply, await svc.seat(req.params.id, req.params.seat, bearer(req.headers.authorization, req.query.token), req.query.seen)));
  // A seat chooses its robot before the first turn is played (a design no other seat races).
  api.put('/api/races/:id/seats/:seat/robot', {
    schema: { summary: 'Choose the seat\'s robot, one of the eight designs no other seat races, before the first turn is played', params: SeatParams, querystring: TokenQuery, body: RobotSchema, security: asSeat, response: answer('{seat, robot}') },
  }, async (req, reply) => send(reply, await svc.chooseRobot(req.params.id, req.params.seat, bearer(req.headers.authorization, req.query.token), req.body)));
  // While a seat's person programs: how many registers are filled, relayed to the race's streams, stored in no database (the latest of each seat kept in memory for streams opened mid-turn: drafts.ts).
  api.put('/api/races/:id/seats/:seat/draft', {
    schema: { summary: 'While the seat programs: how many of its open registers hold a card so far (a count, never which cards), relayed to everyone on the race\'s stream as {"draft": {turn, seat, filled}} and stored in no database (a stream opened mid-turn begins with the latest count of each seat). Refused once the seat\'s orders for the turn are in (409 orders), for another turn than the current one (409 turn), and beyond a few a second per seat (429)', params: SeatParams, querystring: TokenQuery, body: DraftSchema, security: asSeat, response: answer('{turn, seat, filled}') },
  }, async (req, reply) => send(reply, await svc.draft(req.params.id, req.params.seat, bearer(req.headers.authorization, req.query.token), req.body)));
  // Whether a seat raced by mail keeps receiving the turn mails once its robot is out (the mail words "follow" / "stop following").
  api.put('/api/races/:id/seats/:seat/follow', {
    schema: { summary: 'Whether the seat keeps receiving the turn mails once its robot is out of the race (as the mail words "follow" and "stop following" say), while the race runs', params: SeatParams, querystring: TokenQuery, body: FollowSchema, security: asSeat, response: answer('{seat, follow, out}') },
  }, async (req, reply) => send(reply, await svc.follow(req.params.id, req.params.seat, { token: bearer(req.headers.authorization, req.query.token) }, req.body.follow)));
  api.put('/api/races/:id/seats/:seat/orders', {
    schema: { summary: 'Send or replace a seat\'s orders for the current turn (the moderator key: only on a turn taken back by rewind)', params: SeatParams, querystring: TokenQuery, body: OrdersSchema, security: [{ seat: [] }, { moderator: [] }], response: answer('the orders as understood') },
  }, async (req, reply) => {
    const key = req.headers['x-moderator-key'];
    const who = typeof key === 'string' ? { moderatorKey: key } : { token: bearer(req.headers.authorization, req.query.token) };
    return send(reply, await svc.submit(req.params.id, req.params.seat, who, req.body));
  });
  api.get('/api/races/:id/events', { schema: { summary: 'The race\'s entries after a seq', params: IdParams, querystring: AfterQuery, response: { 200: Type.Array(AnyObject('{seq, turn, kind, event}')), ...refused } } }, async (req, reply) => {
    const got = await svc.entriesJson(req.params.id, req.query.after ?? 0);
    // Sent as it is: fastify serializes no string, whatever the route's schema.
    return got.ok ? reply.type('application/json; charset=utf-8').send(got.value as never) : send(reply, got);
  });
  api.get('/api/races/:id/turns/:turn/report', { schema: { summary: '001\'s table of a turn played', params: TurnParams, querystring: ReportQuery, response: { 200: Type.Union([AnyObject('{turn, report, text}'), Type.String({ description: 'format=text' })]), ...refused } } }, async (req, reply) => {
    const rep = await svc.report(req.params.id, req.params.turn);
    if (rep.ok && req.query.format === 'text') return reply.type('text/plain; charset=utf-8').send(rep.value.text);
    return send(reply, rep);
  });
  // A played turn for a replay: the robots as it began, who had finished by then, and its events, all revealed by now.
  api.get('/api/races/:id/turns/:turn', { schema: { summary: 'A played turn for its replay: the robots as it began (public view), the finishing order as it stood then (finished: names in groups tied for a place) and its events', params: TurnParams, response: answer('{turn, robots, finished, events}') } }, async (req, reply) =>
    send(reply, await svc.replay(req.params.id, req.params.turn)));
  // The picture of a played turn: the floor after it, with programmed moves as blue arrows and
  // pushes and belt moves as green ones, as 001's moderator drew them.
  api.get('/api/races/:id/turns/:turn/picture.svg', { schema: { summary: 'A played turn drawn as SVG', params: TurnParams, produces: ['image/svg+xml'], response: { 200: Type.String({ description: 'SVG' }), 404: ErrorSchema, 422: ErrorSchema } } }, async (req, reply) => {
    const played = await svc.playedTurn(req.params.id, req.params.turn);
    if (!played.ok) return send(reply, played);
    const { setup, after, events, designs } = played.value;
    return reply.type('image/svg+xml').send(renderSvg(setup.board, { state: dressed(after, designs), events, title: `Turn ${req.params.turn}` }));
  });
  for (const [action, { summary, body }] of Object.entries(MODERATOR_ACTIONS)) {
    api.post(`/api/races/:id/moderator/${action}`, { schema: { summary, params: IdParams, body, security: [{ moderator: [] }], response: answer('{done}') }, ...(action === 'rematch' ? { preHandler: creationBudget } : {}) }, async (req, reply) => {
      const key = req.headers['x-moderator-key'];
      const got = await svc.moderate(req.params.id, typeof key === 'string' ? key : undefined, action, req.body ?? {});
      return send(reply, got, got.ok && got.value.made ? 201 : 200);
    });
  }

  // The stream (server/src/stream.ts): what happened after `after`, a page at a time, then each
  // batch as it is committed. A client that reconnects with the last seq it saw misses nothing and
  // sees nothing twice.
  const hub = new StreamHub({
    entries: (id, after, limit) => svc.entries(id, after, limit),
    lastSeq: (id) => svc.lastSeq(id),
    played: async (id, turn) => {
      const got = await svc.played(id, turn);
      return got.ok ? { turn, ...got.value } : null;
    },
    drafts: (id) => svc.drafts(id),
  }, o.stream);
  const onCommitted = (id: string, seq: number, entries?: readonly Entry[], played?: HandedPlay) => hub.committed(id, seq, entries, played);
  const onResync = () => hub.resync();
  const onDraft = (id: string, draft: Draft) => hub.draft(id, draft);
  svc.bus.on('committed', onCommitted);
  svc.bus.on('resync', onResync);
  svc.bus.on('draft', onDraft);
  app.addHook('onClose', async () => {
    svc.bus.off('committed', onCommitted);
    svc.bus.off('resync', onResync);
    svc.bus.off('draft', onDraft);
    hub.close();
  });
  // The server holds so many streams in all (`MAX_STREAMS`), and so many from one address
  // (`STREAMS_PER_ADDRESS`): one more is refused before its upgrade, nothing held for it. The same
  // address without an upgrade answers the refusal an upgrade would get now, else 426: a browser,
  // told nothing of a refused upgrade, asks it why.
  const refuse = (reply: FastifyReply, why: 'total' | 'address') => {
    const { total, perAddress } = hub.most;
    return why === 'total'
      ? reply.code(503).header('retry-after', '5').send({ error: { field: 'streams', message: `the server holds its most streams (${total}); try again shortly` } })
      : reply.code(429).header('retry-after', '5').send({ error: { field: 'streams', message: `this address holds its most streams (${perAddress}): close a page of a race, or try again shortly` } });
  };
  const admitted = async (req: FastifyRequest, reply: FastifyReply) => {
    const refused = req.ws ? hub.admit(req.raw.socket, clientOf(req.ip)) : null;
    if (refused) return refuse(reply, refused);
  };
  api.route({
    method: 'GET', url: '/api/races/:id/stream', schema: { hide: true, params: IdParams, querystring: AfterQuery }, preHandler: admitted,
    handler: async (req, reply) => {
      const refused = hub.refusal(clientOf(req.ip));
      if (refused) return refuse(reply, refused);
      return reply.code(426).header('upgrade', 'websocket').send({ error: { field: 'stream', message: 'the stream is a WebSocket: ask with an upgrade' } });
    },
    wsHandler: (socket, req) => hub.attach(socket, req.params.id, req.query.after ?? 0),
  });

  api.get('/api', { schema: { summary: 'The server\'s name, where its API is described, and whether it mails (`mail`: seats may race by e-mail)', response: { 200: AnyObject('about') } } }, async () => ({
    name: 'roborally',
    about: 'An unofficial RoboRally race server. The API is described at /api/openapi.json; the web client is at /.',
    courses: '/api/courses',
    mail: o.mail === true,
  }));
  registerWeb(app);
  return app;
}
