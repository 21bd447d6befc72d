/**
 * The server's tables, versioned by Kysely's Migrator: each migration runs once per database, in
 * order, recorded in `kysely_migration` (a lock table keeps two processes from running one twice).
 * The first is the tables as they were made before migrations, created only where missing, so a
 * database made then takes it as done and goes on from there.
 */
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type Migration, type MigrationProvider, type SchemaMetadata, type TableMetadata } from 'kysely';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-tables': {
    async up(db: Kysely<any>): Promise<void> {
      const big = sql`bigint`;
      await db.schema
        .createTable('races').ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('course', 'text', (c) => c.notNull())
        .addColumn('rules', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('policy', 'text', (c) => c.notNull())
        .addColumn('moderator_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('last_seq', 'integer', (c) => c.notNull())
        .addColumn('deadline_at', big)
        .addColumn('paused_left', big)
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('seed', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('races_deadline').ifNotExists().on('races').column('deadline_at').execute();
      await db.schema
        .createTable('seats').ifNotExists()
        .addColumn('race_id', 'text', (c) => c.notNull())
        .addColumn('seat', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('level', 'text')
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('seats_pk', ['race_id', 'seat'])
        .execute();
      await db.schema
        .createTable('seat_mail').ifNotExists()
        .addColumn('race_id', 'text', (c) => c.notNull())
        .addColumn('seat', 'integer', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('seat_mail_pk', ['race_id', 'seat'])
        .execute();
      await db.schema
        .createTable('orders').ifNotExists()
        .addColumn('race_id', 'text', (c) => c.notNull())
        .addColumn('turn', 'integer', (c) => c.notNull())
        .addColumn('seat', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('submitted_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('orders_pk', ['race_id', 'turn', 'seat'])
        .execute();
      await db.schema
        .createTable('events').ifNotExists()
        .addColumn('race_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('turn', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('events_pk', ['race_id', 'seq'])
        .execute();
      await db.schema
        .createTable('turns').ifNotExists()
        .addColumn('race_id', 'text', (c) => c.notNull())
        .addColumn('turn', 'integer', (c) => c.notNull())
        .addColumn('before', 'text', (c) => c.notNull())
        .addColumn('dealt', 'text', (c) => c.notNull())
        .addColumn('first_seq', 'integer')
        .addPrimaryKeyConstraint('turns_pk', ['race_id', 'turn'])
        .execute();
    },
  },
  /** A race's deal (deal.ts) apart from its state: secret words, or a seed a client chose openly. */
  '0002-deal': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('races').addColumn('deal', 'text').execute();
    },
  },
  /**
   * A race's set-up (setup.ts): its own course, what happens with no person left, its series; a
   * seat's first-timer flag and whether it follows the race once out.
   */
  '0003-setup': {
    async up(db: Kysely<any>): Promise<void> {
      for (const column of ['course_json', 'unattended', 'series']) await db.schema.alterTable('races').addColumn(column, 'text').execute();
      for (const column of ['first_timer', 'follow'])
        await db.schema.alterTable('seats').addColumn(column, 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  /** The robot a seat races (one of render/src/robots.ts's designs); null for a seat made before: its seat number's. */
  '0004-seat-robot': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('seats').addColumn('robot', 'integer').execute();
    },
  },
  /**
   * A turn that waits for its bots in one process is played by any process once `play_by` has
   * passed (the process that took the last orders may have gone away).
   */
  '0005-play-by': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('races').addColumn('play_by', sql`bigint`).execute();
      await db.schema.createIndex('races_play_by').on('races').column('play_by').execute();
    },
  },
  /**
   * A race's place in its series (1 for the race after the first, …; null for a race on its own or
   * a series' first race): races created in the same millisecond are still in order. Races of a
   * series stored before are numbered in the order they were listed (creation time, then id).
   */
  '0006-series-seq': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('races').addColumn('series_seq', 'integer').execute();
      const rows = await db.selectFrom('races').select(['id', 'series']).where('series', 'is not', null).orderBy('series').orderBy('created_at').orderBy('id').execute();
      const next = new Map<string, number>();
      for (const r of rows as { id: string; series: string }[]) {
        const seq = (next.get(r.series) ?? 0) + 1;
        next.set(r.series, seq);
        await db.updateTable('races').set({ series_seq: seq }).where('id', '=', r.id).execute();
      }
      await db.schema.createIndex('races_series_seq').unique().on('races').columns(['series', 'series_seq']).execute();
    },
  },
  /**
   * The `Idempotency-Key`s races were created with (race-keys.ts): the key's hash, the body's, the
   * race and its first answer sealed with the key; kept a day (by `created_at`).
   */
  '0007-race-keys': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('race_keys')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('body_hash', 'text', (c) => c.notNull())
        .addColumn('race_id', 'text', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('created_at', sql`bigint`, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('race_keys_created_at').on('race_keys').column('created_at').execute();
    },
  },
  /**
   * A seat's invite (auth.ts): the hash of the code its link carries, spent ('') when a person takes
   * the seat with it and gets a token of their own. Seats made before keep the token they were made
   * with (their creator's answer held it).
   */
  '0008-seat-invites': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('seats').addColumn('invite_hash', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
  },
  /**
   * A race over and its rematch (races.ts `rematch`): the race's id is the key, so two people
   * asking at once, on two processes too, make one rematch (the second insert finds the first's row).
   */
  '0009-rematches': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('rematches')
        .addColumn('race_id', 'text', (c) => c.primaryKey())
        .addColumn('rematch_id', 'text', (c) => c.notNull())
        .execute();
    },
  },
  /**
   * Each token's hold of a person's seat, from its `seatTaken` to the `invited` that made it void
   * (races.ts `openedBefore`): a claim reads its seats' rows, not the race's whole log. Filled from
   * the logs of the races stored before.
   */
  '0010-seat-holds': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('seat_holds')
        .addColumn('race_id', 'text', (c) => c.notNull())
        .addColumn('seat', 'integer', (c) => c.notNull())
        .addColumn('from_turn', 'integer', (c) => c.notNull())
        .addColumn('to_turn', 'integer')
        .addColumn('to_seq', 'integer')
        .execute();
      await db.schema.createIndex('seat_holds_seat').on('seat_holds').columns(['race_id', 'seat']).execute();
      const rows = await db.selectFrom('events').select(['race_id', 'seq', 'turn', 'body'])
        .where((eb) => eb.or([eb('body', 'like', '%"seatTaken"%'), eb('body', 'like', '%"invited"%')])).orderBy('race_id').orderBy('seq').execute();
      const holds: { race_id: string; seat: number; from_turn: number; to_turn: number | null; to_seq: number | null }[] = [];
      const open = new Map<string, (typeof holds)[number]>();
      for (const r of rows as { race_id: string; seq: number; turn: number; body: string }[]) {
        const { kind, event } = JSON.parse(r.body) as { kind: string; event: { type: string; seats?: number[] } };
        if (kind !== 'race' || (event.type !== 'seatTaken' && event.type !== 'invited')) continue;
        for (const seat of event.seats ?? []) {
          const at = `${r.race_id}:${seat}`;
          const held = open.get(at);
          if (event.type === 'seatTaken') {
            const hold = { race_id: r.race_id, seat, from_turn: r.turn, to_turn: null, to_seq: null };
            holds.push(hold);
            open.set(at, hold);
          } else if (held) {
            Object.assign(held, { to_turn: r.turn, to_seq: r.seq });
            open.delete(at);
          }
        }
      }
      for (let k = 0; k < holds.length; k += 200) await db.insertInto('seat_holds').values(holds.slice(k, k + 200)).execute();
    },
  },
  /**
   * The processes that look into the mail gateway's mailbox before a mail race's deadline is played
   * (races.ts `beforeDeadlinePlay`): the others leave those deadlines to them.
   */
  '0011-deadline-lookers': {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('deadline_lookers')
        .addColumn('process', 'text', (c) => c.primaryKey())
        .addColumn('alive_until', sql`bigint`, (c) => c.notNull())
        .execute();
    },
  },
};

/**
 * What the Migrator asks of PostgreSQL (which tables and schemas there are), answered for the
 * connection's current schema alone. Kysely's own introspector reads every schema of the database
 * and calls functions that take a schema's name (has_schema_privilege, pg_get_serial_sequence), so
 * a schema dropped meanwhile by anyone else (a test, another application) failed the migration
 * with `schema "…" does not exist` (server/src/migrations.test.ts).
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    return (await sql<SchemaMetadata>`select current_schema() as name`.execute(this.db)).rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(this.db);
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** PostgreSQL as Kysely speaks it, its introspection held to the connection's current schema. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Runs every migration not yet run; throws, naming the migration, if one fails. In PostgreSQL the
 * Migrator's own tables live in the connection's current schema (the Migrator would otherwise take
 * another schema's for its own).
 */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const schema = postgres ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const { error, results } = await new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
