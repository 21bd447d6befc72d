/**
 * Which addresses have never answered the race server (docs/mail.md, "Addresses that never
 * answer"): none of their mails to it was ever answered (`reply:…` in the outbox: orders, `help`,
 * `follow`, a refusal by the race). The race server asks it before it seats such addresses in a
 * new race (docs/server.md, "Strangers seated by e-mail").
 */
import { sql } from 'kysely';
import type { Db } from '../../server/src/index.js';
import { mailDb } from './store.js';

/** The addresses of `addresses` (compared regardless of case) that never answered, lower-cased. */
export async function neverAnswered(db: Db, addresses: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (!wanted.length) return [];
  const to = sql<string>`lower(${sql.ref('to')})`;
  const rows = await mailDb(db).selectFrom('mail_outbox').select(to.as('to')).distinct().where(to, 'in', wanted).where('key', 'like', 'reply:%').execute();
  const answered = new Set(rows.map((r) => r.to));
  return wanted.filter((a) => !answered.has(a));
}
