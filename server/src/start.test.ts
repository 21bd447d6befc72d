/** `npm start` as a newcomer runs it: SQLite without any set-up, and a clear word when DATABASE_URL points nowhere. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, exitsWithin, spawnServer } from './testing.js';

const port = () => 20000 + Math.floor(Math.random() * 12000);

test('without DATABASE_URL the server starts on SQLite under DATA_DIR, whether PostgreSQL runs or not', { timeout: 60_000 }, async () => {
  const p = port();
  const child = await spawnServer({ PORT: String(p), DATA_DIR: mkdtempSync(join(tmpdir(), 'rr-start-')), DATABASE_URL: '' });
  try {
    assert.deepEqual(await call(`http://127.0.0.1:${p}`, 'GET', '/api/health'), { status: 200, body: { ok: true } });
  } finally {
    child.kill('SIGTERM');
    await exitsWithin(child, 30_000);
  }
});

test('a DATABASE_URL that points nowhere stops the start with one line naming it (without its password) and what to do', { timeout: 60_000 }, async () => {
  await assert.rejects(spawnServer({ PORT: String(port()), DATABASE_URL: 'postgres://racer:s3cret@127.0.0.1:1/races' }), (e: Error) => {
    assert.match(e.message, /server exited \(1\)/);
    assert.match(e.message, /roborally server: the PostgreSQL database of DATABASE_URL \(postgres:\/\/racer:\*\*\*@127\.0\.0\.1:1\/races\) cannot be used: .*ECONNREFUSED/);
    assert.match(e.message, /leave DATABASE_URL unset to keep the races in SQLite/);
    assert.doesNotMatch(e.message, /s3cret/);
    assert.doesNotMatch(e.message, /\n\s+at /, 'no stack');
    return true;
  });
});

test('a PORT already in use stops the start with one line naming the address and what to do, not a stack', { timeout: 60_000 }, async () => {
  const busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
  const p = (busy.address() as AddressInfo).port;
  try {
    await assert.rejects(spawnServer({ PORT: String(p), DATA_DIR: mkdtempSync(join(tmpdir(), 'rr-start-')), DATABASE_URL: '' }), (e: Error) => {
      assert.match(e.message, /server exited \(1\)/);
      assert.match(e.message, new RegExp(`roborally server: 127\\.0\\.0\\.1:${p} is in use \\(another server\\?\\); stop it, or start on another port: PORT=\\d+ npm start`));
      assert.doesNotMatch(e.message, /\n\s+at /, 'no stack');
      return true;
    });
  } finally {
    busy.close();
  }
});
