/**
 * `npm start`: the race server on http://localhost:8080, with its SQLite database under ./data,
 * or PostgreSQL when DATABASE_URL is set. PORT, HOST and DATA_DIR change the rest. With MAIL_FROM
 * and MAIL_RELAY_URL set, races are also run by e-mail (docs/mail.md).
 */
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyListenOptions } from 'fastify';
import { shippedCourses } from './courses.js';
import { buildApp } from './app.js';
import { migrateAtStart, openDb } from './db.js';
import { systemClock } from './deadline.js';
import { serialTicker } from './ticker.js';
import { RaceService } from './races.js';
import { postgresFanout, type Fanout } from './fanout.js';
import { registerMetrics } from './metrics.js';
import { BotPool } from './bot-pool.js';
import { MailGateway, mailConfigFromEnv, neverAnswered } from '../../mail/src/index.js';
import type { BotSeat, BotTurn } from '../../driver/src/index.js';
import { serverEnv } from './config.js';

/** A failure to start that says itself what to do: printed alone, without a stack. */
class StartError extends Error {}

/** A database URL as it may be printed: its password replaced by ***. */
function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'not a URL';
  }
}

/** A port in use or not allowed, said in one line with what to do. */
function cannotListen(e: unknown): never {
  const { code, address, port } = e as { code?: string; address?: string; port?: number };
  const where = `${address}:${port}`;
  if (code === 'EADDRINUSE') throw new StartError(`${where} is in use (another server?); stop it, or start on another port: PORT=${port === 8080 ? 8081 : Number(port) + 1} npm start`);
  if (code === 'EACCES') throw new StartError(`${where} may not be listened on by this user (a port below 1024?); start on another port: PORT=8080 npm start`);
  throw e;
}

/**
 * Takes the port before the database is opened, and keeps it: a second `npm start` in the same
 * folder, or any process that took the port meanwhile, would otherwise open the database and play
 * the first one's due deadlines before it found the port taken. Until the server is ready (its
 * database migrated, every listener wired) the port's holder answers every request `503` (and
 * `Retry-After`); the app then listens on the very socket (`listenOn`), without a moment's gap.
 */
async function holdPort(host: string, port: number): Promise<Server> {
  const body = JSON.stringify({ error: { field: 'server', message: 'the server is starting; try again in a moment' } });
  const head = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'retry-after': '1', connection: 'close' };
  const holder = createServer((_req, res) => res.writeHead(503, head).end(body));
  holder.on('upgrade', (_req, socket: Duplex) => socket.end(`HTTP/1.1 503 Service Unavailable\r\n${Object.entries(head).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`));
  await new Promise<void>((resolve, reject) => holder.once('error', reject).listen(port, host, () => resolve())).catch(cannotListen);
  return holder;
}

/**
 * The app takes over the socket `holder` listens on (Node's `listen(handle)`: the same listening
 * socket, its new connections the app's from then on). Named by the address it is bound to, so that
 * fastify binds no other (for `localhost` it would bind each of its addresses to this socket too).
 */
async function listenOn(app: FastifyInstance, holder: Server): Promise<void> {
  await app.listen({ host: (holder.address() as AddressInfo).address, handle: (holder as unknown as { _handle: object })._handle } as FastifyListenOptions);
}

async function main(): Promise<void> {
  // Every setting is read before anything starts: one not as expected is said in one line.
  const read = serverEnv(process.env);
  if (!read.ok) throw new StartError(`${read.error.field}: ${read.error.message}`);
  const env = read.value;
  let mailConfig: ReturnType<typeof mailConfigFromEnv>;
  try {
    mailConfig = mailConfigFromEnv(process.env);
  } catch (e) {
    throw new StartError((e as Error).message);
  }
  const { port, host, poolSize, queryTimeoutMs, synchronousCommit } = env;
  const holder = await holdPort(host, port);
  const url = env.databaseUrl;
  const config = url ? { url, ...(poolSize ? { poolSize } : {}), ...(queryTimeoutMs ? { queryTimeoutMs } : {}), ...(synchronousCommit ? { synchronousCommit } : {}) } : { file: join(env.dataDir, 'roborally.sqlite') };
  const { db, dialect, stats } = openDb(config);
  try {
    // Without DB_QUERY_TIMEOUT_MS: a long migration does not fail the start (db.ts).
    await migrateAtStart(config, db);
  } catch (e) {
    if (!url) throw e;
    await db.destroy().catch(() => undefined);
    throw new StartError(`the PostgreSQL database of DATABASE_URL (${withoutPassword(url)}) cannot be used: ${(e as Error).message}${(e as { code?: string }).code ? ` (${(e as { code?: string }).code})` : ''}. Start it or correct DATABASE_URL, or leave DATABASE_URL unset to keep the races in SQLite under ${env.dataDir}/.`);
  }
  const courses = shippedCourses();
  // Everything is wired before anything can arrive: the service, its streams, then the NOTIFY
  // listener (a notification may come the moment it listens), then the app takes the port over
  // (till then its holder answers 503).
  let fanout: Fanout | null = null;
  // The bots decide on worker threads, from the moment a turn is dealt (bot-pool.ts).
  const { botWorkers: workers, botBudgetMs: budgetMs, botDecisionMs: decisionMs, botNice: nice } = env;
  const bots = new BotPool({ ...(workers ? { size: workers } : {}), ...(budgetMs ? { budgetMs } : {}), ...(decisionMs ? { decisionMs } : {}), ...(nice ? { nice } : {}) });
  const service = new RaceService({ db, clock: systemClock, course: (n) => courses.get(n), readCourse: (json) => bots.course(json), published: (id, seq, note) => fanout?.publish(id, seq, note), drafted: (id, d) => fanout?.publishDraft(id, d), planner: bots,
    // PostgreSQL: alone while no other process is heard (fanout.ts); its own commits keep what it holds current.
    alone: dialect === 'sqlite' || (() => fanout?.alone() ?? false),
    // Other processes may share a PostgreSQL database: a turn's bots are decided by the one that dealt it.
    // Each tells the others what they decided, so that a turn's last orders play it wherever they arrive.
    ...(url ? {
      wantBots: (id: string, turn: number) => fanout?.publishBots('wanted', id, turn), tookBots: (id: string, turn: number) => fanout?.publishBots('taken', id, turn),
      sharedBots: (id: string, turn: number, b: readonly BotSeat[], orders: Readonly<Record<number, BotTurn>>) => fanout?.publishDecided(id, turn, b, orders),
    } : {}) });
  const { connectionsPerAddress: perAddress, maxConnections, streamsPerAddress: streams, maxStreams: total, requestsPer10s: requests, racesPerMinute, strangersPerAddress, strangersPerDay, trustProxy } = env;
  const app = await buildApp({
    service, courses: () => [...courses].map(([name, course]) => ({ name, course })),
    ...(perAddress || maxConnections ? { connections: { ...(perAddress ? { perAddress } : {}), ...(maxConnections ? { total: maxConnections } : {}) } } : {}),
    ...(streams || total ? { stream: { ...(streams ? { perAddress: streams } : {}), ...(total ? { total } : {}) } } : {}),
    ...(requests ? { rateLimit: { max: requests, windowMs: 10_000 } } : {}),
    ...(racesPerMinute ? { racesPerMinute } : {}),
    // Mail on: a race seats so many addresses that never answered (the gateway knows which).
    mail: mailConfig !== null,
    ...(mailConfig ? { strangers: { ...(strangersPerAddress ? { perAddress: strangersPerAddress } : {}), ...(strangersPerDay ? { perDay: strangersPerDay } : {}), neverAnswered: (a: readonly string[]) => neverAnswered(db, a) } } : {}),
    ...(trustProxy !== undefined ? { trustProxy } : {}),
  });
  // For the operator and the load benchmark: the event loop's delay and the memory, from outside.
  if (env.metrics) registerMetrics(app, () => ({ bots: { threads: bots.size, ...bots.counts }, ...(stats ? { db: { ...stats, notifies: fanout?.sent() ?? 0 }, handOvers: service.handOvers } : {}) }));
  // With PostgreSQL, several processes can serve one database: each commit's seq reaches every
  // process, whose streams read the entries for their own clients.
  fanout = url
    ? await postgresFanout(url, {
        entries: (raceId, seq, note) => service.committedElsewhere(raceId, seq, note),
        resync: () => service.missedNotes(),
        draft: (raceId, d) => service.relayDraft(raceId, d),
        bots: (kind, raceId, turn) => (kind === 'wanted' ? service.botsWanted(raceId, turn) : service.botsTaken(raceId, turn)),
        decided: (raceId, turn, b, orders) => service.botsDecided(raceId, turn, b, orders),
      })
    : null;
  // Off unless configured: orders in by SMTP or IMAP, the race's mails out through the relay.
  const mail = mailConfig ? new MailGateway({ service, db, clock: systemClock, config: mailConfig }) : null;
  await mail?.start();
  // Deadlines are in the database: whatever fell due while the server was down is played now.
  const tick = serialTicker('deadline check', () => service.tick(), (line) => console.error(line), systemClock);
  await tick();
  // A turn whose people's orders were all in when the last process stopped (waiting for its bots) is played now.
  try {
    await service.resume();
  } catch (e) {
    console.error('resuming turns whose orders are in failed:', (e as Error).message);
  }
  const timer = setInterval(tick, 500);
  await listenOn(app, holder);
  if (mail) console.log(`mail from ${mailConfig!.from}${mailConfig!.smtpListen ? `, SMTP listener on ${mailConfig!.smtpListen}` : ''}${mailConfig!.imapUrl ? ', IMAP mailbox polled' : ''}${mailConfig!.webUrl ? `, seats' pages linked at ${mailConfig!.webUrl}` : ''}`);
  const site = `http://${host === '0.0.0.0' ? 'localhost' : host}:${(app.server.address() as AddressInfo).port}`;
  console.log(`roborally server on ${site} (${dialect}${dialect === 'sqlite' ? `, ${join(env.dataDir, 'roborally.sqlite')}` : ''}); API at ${site}/api/openapi.json`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    await mail?.stop();
    await app.close();
    await bots.close();
    await fanout?.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// The process exits only on purpose (a signal, or a failure to start): anything else is logged
// and the server goes on serving.
process.on('uncaughtException', (e) => console.error('uncaught:', e));
process.on('unhandledRejection', (e) => console.error('unhandled rejection:', e));

main().catch((e) => {
  console.error(e instanceof StartError ? `roborally server: ${e.message}` : e);
  process.exit(1);
});
