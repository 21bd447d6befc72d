import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from './sqlite.js';
import { until } from './testing.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'rr-sqlite-')), 'race.sqlite');

test('SQLite commits to the write-ahead log without an fsync of its own (synchronous NORMAL) and never checkpoints on the event loop', () => {
  const db = openSqlite(tempFile());
  try {
    assert.equal(db.database.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.database.pragma('synchronous', { simple: true }), 1);
    assert.equal(db.database.pragma('wal_autocheckpoint', { simple: true }), 0);
  } finally {
    db.close();
  }
});

test('the checkpointer thread copies what was committed into the database file', async () => {
  const file = tempFile();
  const db = openSqlite(file, { checkpointMs: 20 });
  try {
    db.prepare('create table t (x text)').run([]);
    const before = statSync(file).size;
    const insert = db.prepare('insert into t values (?)');
    db.prepare('begin').run([]);
    for (let i = 0; i < 500; i++) insert.run(['x'.repeat(1000)]);
    db.prepare('commit').run([]);
    // The commit is in the log; the database file grows only when a checkpoint copies it there.
    await until('the commit copied into the database file', () => statSync(file).size > before + 400_000);
  } finally {
    db.close();
  }
});

test('a statement is prepared once: the same SQL gives the same statement, and the least recently used leaves a full cache', () => {
  const db = openSqlite(':memory:', { statements: 2 });
  try {
    const a = db.prepare('select 1');
    assert.equal(db.prepare('select 1'), a);
    const b = db.prepare('select 2');
    assert.equal(db.prepare('select 1'), a);
    db.prepare('select 3');
    assert.equal(db.prepare('select 1'), a, 'used last, so kept');
    assert.notEqual(db.prepare('select 2'), b, 'the least recently used was dropped');
  } finally {
    db.close();
  }
});
