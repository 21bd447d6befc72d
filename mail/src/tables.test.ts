/**
 * The gateway keeps to its own tables: what it knows of races it asks the race service
 * (server/'s RaceService: mailRace, mailRaces, ordersOf…), never the server's tables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The sources (dist/mail/src → the repository's mail/src). */
const SRC = fileURLToPath(new URL('../../../mail/src/', import.meta.url));

test('the gateway\'s code reads and writes only its own tables (mail_*), none of the server\'s', () => {
  const files = readdirSync(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'testing.ts');
  assert.ok(files.includes('outbox.ts') && files.includes('gateway.ts'), files.join(', '));
  const touched: string[] = [];
  for (const f of files) {
    const src = readFileSync(SRC + f, 'utf8');
    for (const m of src.matchAll(/\b(?:selectFrom|updateTable|insertInto|deleteFrom|createTable|createIndex|alterTable|leftJoin|innerJoin)\(\s*'([^']+)'/g)) touched.push(`${f}: ${m[1]!.split(' ')[0]!.split('.')[0]}`);
    // Raw SQL: the tables named in sql`…` templates.
    for (const q of src.matchAll(/sql`([^`]*)`/g)) for (const m of q[1]!.matchAll(/\b(?:from|join|update|into)\s+"?(\w+)/gi)) touched.push(`${f}: ${m[1]}`);
  }
  assert.ok(touched.length > 0, 'the outbox\'s own tables are found');
  assert.deepEqual(touched.filter((t) => !/: mail_\w+$/.test(t)), []);
});
