import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshDb } from '../../server/src/testing.js';
import { migrateMail, mailDb } from './store.js';
import { neverAnswered } from './strangers.js';

test('an address that was ever answered with a reply (its orders, help, follow) is no stranger, whatever its case; every other address is, lower-cased', async () => {
  const { db } = await freshDb('sqlite');
  try {
    const m = mailDb(db);
    await migrateMail(m);
    const row = (key: string, to: string) => ({ key, race_id: 'r', seq: 1, created_at: 1, to, body: '{}', sent_at: 1, claimed_until: null, attempts: 1, error: null });
    await m.insertInto('mail_outbox').values([row('reply:<1@x>', 'Ava@Example.org'), row('r:2:turnBegan:0', 'bob@example.org')]).execute();
    assert.deepEqual(await neverAnswered(db, ['ava@example.ORG', 'Bob@example.org', 'cy@example.org', 'bob@example.org']), ['bob@example.org', 'cy@example.org']);
    assert.deepEqual(await neverAnswered(db, []), []);
  } finally {
    await db.destroy();
  }
});
