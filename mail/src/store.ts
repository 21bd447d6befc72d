/**
 * The mail gateway's tables, in the race database (SQLite or PostgreSQL, through Kysely): the
 * outbox of mails to send, per race how far into its entries the mails have been written, and the
 * IMAP mailboxes the poller has begun to mark.
 * Mails are written from the durable entries log in the same transaction that moves the cursor,
 * and each has a key of its own, so a restart neither loses one nor writes one twice. The gateway
 * sees only these tables: what it knows of races it asks the race service (server/'s RaceService).
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../server/src/index.js';
import type { FirstLooks } from './imap.js';

export interface OutboxRow {
  /** What the mail is, unique: `<race>:<seq>:<kind>:<seat>`, `reply:<incoming mail>`, `remind:…`. */
  key: string;
  race_id: string;
  /** Order of sending within a race: the entry that caused it. */
  seq: number;
  created_at: number;
  to: string;
  /** The mail (subject, text, html, attachments as base64) as JSON. */
  body: string;
  sent_at: number | null;
  /** A process sending it holds it until then (wall clock, ms). */
  claimed_until: number | null;
  attempts: number;
  error: string | null;
}

export interface CursorRow {
  race_id: string;
  /** The last entry whose mails are in the outbox. */
  seq: number;
}

/** A mailbox the IMAP poller has looked into with its keyword (imap.ts `FirstLooks`). */
export interface ImapRow {
  /** user@host:port/MAILBOX */
  mailbox: string;
  begun_at: number;
}

export type MailTables = {
  mail_outbox: OutboxRow;
  mail_cursor: CursorRow;
  mail_imap: ImapRow;
};

export type MailDb = Kysely<MailTables>;

/** The race database as the gateway uses it: its own tables only (the server's are the race service's). */
export const mailDb = (db: Db): MailDb => db.withTables<MailTables>() as unknown as MailDb;

/** Creates the mail tables if they are not there yet. */
export async function migrateMail(db: MailDb): Promise<void> {
  const big = sql`bigint`;
  await db.schema
    .createTable('mail_outbox').ifNotExists()
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('race_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('to', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('sent_at', big)
    .addColumn('claimed_until', big)
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('mail_outbox_unsent').ifNotExists().on('mail_outbox').columns(['sent_at', 'created_at']).execute();
  await db.schema.createIndex('mail_outbox_race').ifNotExists().on('mail_outbox').columns(['race_id', 'created_at']).execute();
  await db.schema.createIndex('mail_outbox_to').ifNotExists().on('mail_outbox').expression(sql`lower("to")`).execute();
  await db.schema
    .createTable('mail_cursor').ifNotExists()
    .addColumn('race_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('mail_imap').ifNotExists()
    .addColumn('mailbox', 'text', (c) => c.primaryKey())
    .addColumn('begun_at', big, (c) => c.notNull())
    .execute();
}

/**
 * The IMAP poller's first looks, kept in the database: a mailbox is new to it unless recorded; mails
 * were read from it before when the gateway has answered a mail (an outbox `reply:` row).
 */
export function firstLooks(db: MailDb, now: () => number): FirstLooks {
  return {
    begun: async (mailbox) => {
      if (await db.selectFrom('mail_imap').select('mailbox').where('mailbox', '=', mailbox).executeTakeFirst()) return 'begun';
      const answered = await db.selectFrom('mail_outbox').select('key').where('key', 'like', 'reply:%').limit(1).executeTakeFirst();
      return answered ? 'read before' : 'new';
    },
    begin: async (mailbox) => {
      await db.insertInto('mail_imap').values({ mailbox, begun_at: now() }).onConflict((c) => c.column('mailbox').doNothing()).execute();
    },
  };
}
