/**
 * Several server processes on one PostgreSQL database: each tells the others, by NOTIFY, that a
 * race's entries up to a seq are committed, and each reads them for its own stream clients. The
 * payload is only the race, that seq and the process (which skips its own: its streams had them
 * at once); the entries themselves are read from the database. The commits of one turn of the
 * event loop go in one statement (`pg_notify` over an array), not one each. A
 * seat's draft (drafts.ts: how many registers it has filled, stored in no database) goes the same way on
 * a channel of its own, whole; a process skips its own, which its streams had at once. So does a
 * turn's call for its bots (races.ts `wantBots`: the process that took a turn's last orders asks
 * the one that decides its bots to play it) and the answer (`tookBots`).
 *
 * A lost connection is never fatal: the listener reconnects with a growing pause (up to 5 s) and,
 * once back, `resync` lets the streams look for what was committed while it was away.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Draft } from './drafts.js';

const CHANNEL = 'roborally_entries';
const DRAFTS = 'roborally_drafts';
const BOTS = 'roborally_bots';

export interface Fanout {
  /** Statements sent to notify (each carries the commits of one turn of the event loop), for the metrics. */
  readonly sent: () => number;
  publish(raceId: string, lastSeq: number): void;
  publishDraft(raceId: string, draft: Draft): void;
  /** `wanted`: this process asks for the bots of a race's turn; `taken`: it plays that turn once they have decided. */
  publishBots(kind: BotsCall, raceId: string, turn: number): void;
  close(): Promise<void>;
}

export interface FanoutHandlers {
  /** Entries of `raceId` up to `seq` are committed (by any process). */
  readonly entries: (raceId: string, seq: number) => void;
  /** The listener was away: notifications may have been missed. */
  readonly resync: () => void;
  /** Another process took a seat's draft of race `raceId`. */
  readonly draft: (raceId: string, draft: Draft) => void;
  /** Another process asks for the bots of a race's turn (`wanted`), or plays it once they have decided (`taken`). */
  readonly bots: (kind: BotsCall, raceId: string, turn: number) => void;
}

export type BotsCall = 'wanted' | 'taken';

const whole = (v: unknown, max: number): v is number => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;

/** Another process's notification as an object, or null (not JSON, not an object, or this process's own). */
function fromOther(payload: string, self: string): Record<string, unknown> | null {
  let m: unknown;
  try {
    m = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null || (m as Record<string, unknown>).from === self) return null;
  return m as Record<string, unknown>;
}

/** A draft notification of another process, checked: [race, draft], or null. */
function readDraft(payload: string, self: string): [string, Draft] | null {
  const m = fromOther(payload, self);
  if (m === null) return null;
  const { race, turn, seat, filled } = m;
  if (typeof race !== 'string' || !whole(turn, 2 ** 31) || !whole(seat, 64) || !whole(filled, 5)) return null;
  return [race, { turn, seat, filled }];
}

/** A call about a turn's bots of another process, checked: [kind, race, turn], or null. */
function readBots(payload: string, self: string): [BotsCall, string, number] | null {
  const m = fromOther(payload, self);
  if (m === null) return null;
  const { kind, race, turn } = m;
  if ((kind !== 'wanted' && kind !== 'taken') || typeof race !== 'string' || !whole(turn, 2 ** 31)) return null;
  return [kind, race, turn];
}

const clientConfig = (url: string): pg.ClientConfig => ({
  connectionString: url,
  connectionTimeoutMillis: 5000,
  ...(process.env.PG_APPLICATION_NAME ? { application_name: process.env.PG_APPLICATION_NAME } : {}),
});

export async function postgresFanout(url: string, on: FanoutHandlers): Promise<Fanout> {
  let closed = false;
  let listener: pg.Client | null = null;
  let pause = 100;
  // This process's name on the drafts' channel: its own come back to it and are skipped.
  const self = randomUUID();
  const connect = async (): Promise<void> => {
    const c = new pg.Client(clientConfig(url));
    c.on('error', (e) => {
      console.error(`NOTIFY listener: ${e.message}; reconnecting`);
      lost(c);
    });
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      if (n.channel === DRAFTS) {
        const d = readDraft(n.payload ?? '', self);
        if (d) on.draft(...d);
        return;
      }
      if (n.channel === BOTS) {
        const b = readBots(n.payload ?? '', self);
        if (b) on.bots(...b);
        return;
      }
      const [raceId, seq, from] = (n.payload ?? '').split(':');
      if (from === self) return;
      const s = Number(seq);
      if (raceId && Number.isSafeInteger(s)) on.entries(raceId, s);
    });
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    await c.query(`LISTEN ${DRAFTS}`);
    await c.query(`LISTEN ${BOTS}`);
    listener = c;
  };
  const lost = (c: pg.Client) => {
    if (listener !== c) return;
    listener = null;
    c.end().catch(() => undefined);
    if (!closed) setTimeout(retry, pause).unref();
  };
  const retry = async () => {
    if (closed || listener) return;
    try {
      await connect();
      pause = 100;
      on.resync();
    } catch (e) {
      console.error(`NOTIFY listener: ${(e as Error).message}; trying again in ${pause} ms`);
      pause = Math.min(pause * 2, 5000);
      setTimeout(retry, pause).unref();
    }
  };
  await connect();
  // A pool queues its queries (one client never runs two at once) and replaces a lost connection.
  const sender = new pg.Pool({ ...clientConfig(url), max: 2 });
  sender.on('error', (e) => console.error(`NOTIFY sender: ${e.message}`));
  sender.on('connect', (client) => client.on('error', (e) => console.error(`NOTIFY sender: ${e.message}`)));
  let sent = 0;
  let queued: string[] = [];
  const flush = () => {
    const payloads = queued;
    queued = [];
    sent++;
    sender.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [CHANNEL, payloads])
      .catch((e: Error) => console.error(`NOTIFY of ${payloads.length} commits (${payloads[0]}…): ${e.message}`));
  };
  return {
    sent: () => sent,
    publish: (raceId, lastSeq) => {
      if (!queued.length) setImmediate(flush);
      queued.push(`${raceId}:${lastSeq}:${self}`);
    },
    publishDraft: (raceId, d) => {
      const payload = JSON.stringify({ from: self, race: raceId, turn: d.turn, seat: d.seat, filled: d.filled });
      sent++;
      sender.query('SELECT pg_notify($1, $2)', [DRAFTS, payload]).catch((e: Error) => console.error(`NOTIFY draft of ${raceId}: ${e.message}`));
    },
    publishBots: (kind, raceId, turn) => {
      sent++;
      sender.query('SELECT pg_notify($1, $2)', [BOTS, JSON.stringify({ from: self, kind, race: raceId, turn })]).catch((e: Error) => console.error(`NOTIFY bots ${kind} of ${raceId}: ${e.message}`));
    },
    close: async () => {
      closed = true;
      const l = listener;
      listener = null;
      await l?.end().catch(() => undefined);
      await sender.end().catch(() => undefined);
    },
  };
}
