/**
 * Several server processes on one PostgreSQL database: each tells the others, by NOTIFY, that a
 * race's entries up to a seq are committed, and each reads them for its own stream clients. The
 * payload is only the race and that seq; the entries themselves are read from the database.
 *
 * A lost connection is never fatal: the listener reconnects with a growing pause (up to 5 s) and,
 * once back, `resync` lets the streams look for what was committed while it was away.
 */
import pg from 'pg';

const CHANNEL = 'roborally_entries';

export interface Fanout {
  publish(raceId: string, lastSeq: number): void;
  close(): Promise<void>;
}

export interface FanoutHandlers {
  /** Entries of `raceId` up to `seq` are committed (by any process). */
  readonly entries: (raceId: string, seq: number) => void;
  /** The listener was away: notifications may have been missed. */
  readonly resync: () => void;
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
  const connect = async (): Promise<void> => {
    const c = new pg.Client(clientConfig(url));
    c.on('error', (e) => {
      console.error(`NOTIFY listener: ${e.message}; reconnecting`);
      lost(c);
    });
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      const [raceId, seq] = (n.payload ?? '').split(':');
      const s = Number(seq);
      if (raceId && Number.isSafeInteger(s)) on.entries(raceId, s);
    });
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
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
  return {
    publish: (raceId, lastSeq) => {
      sender.query('SELECT pg_notify($1, $2)', [CHANNEL, `${raceId}:${lastSeq}`]).catch((e: Error) => console.error(`NOTIFY ${raceId}:${lastSeq}: ${e.message}`));
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
