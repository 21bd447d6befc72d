/**
 * Several server processes on one PostgreSQL database: each tells the others, by NOTIFY, that a
 * race has new entries, and each sends them to its own stream clients. The payload is only the
 * race and its last seq; the entries themselves are read from the database.
 */
import pg from 'pg';

const CHANNEL = 'roborally_entries';

export interface Fanout {
  publish(raceId: string, lastSeq: number): void;
  close(): Promise<void>;
}

export async function postgresFanout(url: string, onEntries: (raceId: string) => void): Promise<Fanout> {
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  await listener.query(`LISTEN ${CHANNEL}`);
  listener.on('notification', (n) => {
    const raceId = n.payload?.split(':')[0];
    if (raceId) onEntries(raceId);
  });
  const sender = new pg.Client({ connectionString: url });
  await sender.connect();
  return {
    publish: (raceId, lastSeq) => {
      sender.query('SELECT pg_notify($1, $2)', [CHANNEL, `${raceId}:${lastSeq}`]).catch(() => undefined);
    },
    close: async () => {
      await listener.end().catch(() => undefined);
      await sender.end().catch(() => undefined);
    },
  };
}
