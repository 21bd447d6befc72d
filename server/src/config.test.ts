/**
 * The server's environment, read as a fuzzer would write it: numbers in other notations, out of
 * range, past what a timer can wait; an unreadable TRUST_PROXY; and `npm start` stopped by any of
 * them in one line, before it opens a database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MAX_TIMER_MS, serverEnv } from './config.js';
import { mailConfigFromEnv } from '../../mail/src/index.js';
import { spawnServer } from './testing.js';

const NAMES = ['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'DB_POOL_SIZE', 'DB_QUERY_TIMEOUT_MS', 'DB_SYNCHRONOUS_COMMIT', 'BOT_WORKERS', 'BOT_BUDGET_MS', 'BOT_DECISION_MS', 'BOT_NICE', 'MAX_CONNECTIONS_PER_ADDRESS', 'MAX_CONNECTIONS', 'STREAMS_PER_ADDRESS', 'MAX_STREAMS', 'REQUESTS_PER_10S', 'RACES_PER_MINUTE', 'TRUST_PROXY', 'METRICS'];

test('a time past what a timer can wait (2^31 ms fires after 1 ms), a number in another notation or out of range is refused naming its variable', () => {
  for (const [name, value] of [
    ['BOT_BUDGET_MS', '2147483648'], ['DB_QUERY_TIMEOUT_MS', '10000000000'], ['PORT', 'abc'], ['PORT', '65536'], ['PORT', '8080x'],
    ['PORT', '1e3'], ['PORT', '0x1f90'], ['DB_POOL_SIZE', ' 5'], ['DB_POOL_SIZE', '5.0'], ['BOT_WORKERS', '100000'], ['BOT_NICE', '20'], ['BOT_NICE', '0'],
    ['BOT_DECISION_MS', '0'], ['BOT_DECISION_MS', '90ms'], ['REQUESTS_PER_10S', '-1'], ['RACES_PER_MINUTE', '0'], ['RACES_PER_MINUTE', '10/min'], ['STREAMS_PER_ADDRESS', '99999999999999999999'], ['MAX_STREAMS', '0'], ['MAX_CONNECTIONS', '0'],
  ] as const) {
    const r = serverEnv({ [name]: value });
    assert.ok(!r.ok, `${name}=${value} was taken`);
    assert.equal(r.error.field, name);
    assert.match(r.error.message, /^expected a whole number from \d+ to \d+ \(.+\), written in digits; got ".*"$/);
  }
  const r = serverEnv({ TRUST_PROXY: '10.0.0.1, proxy.example' });
  assert.ok(!r.ok && r.error.field === 'TRUST_PROXY' && /invalid IP address: proxy\.example/.test(r.error.message), JSON.stringify(r));
});

test('an empty variable is an unset one: PORT="" is 8080, not any free port, and HOST="" 127.0.0.1, not every address', () => {
  const r = serverEnv({ PORT: '', HOST: '', DATA_DIR: '', DATABASE_URL: '', BOT_BUDGET_MS: '' });
  assert.ok(r.ok);
  assert.deepEqual(r.value, { port: 8080, host: '127.0.0.1', dataDir: 'data', metrics: false });
  assert.deepEqual(serverEnv({ PORT: '0', BOT_BUDGET_MS: String(MAX_TIMER_MS), TRUST_PROXY: '2' }).ok, true);
});

test('the mail numbers are refused in other notations, out of range or past what a timer can wait, naming the variable', () => {
  const base = { MAIL_FROM: 'race@rr.test', MAIL_RELAY_URL: 'smtp://relay:25', MAIL_SMTP_LISTEN: '127.0.0.1:2525' };
  for (const [name, value] of [
    ['MAIL_IMAP_POLL_SECONDS', 'Infinity'], ['MAIL_IMAP_POLL_SECONDS', '0.000001'], ['MAIL_IMAP_POLL_SECONDS', '1e9'], ['MAIL_RELAY_TIMEOUT_SECONDS', '3000000'],
    ['MAIL_REMIND_HOURS', '0x10'], ['MAIL_REMIND_HOURS', ' 3'],
  ] as const) {
    assert.throws(() => mailConfigFromEnv({ ...base, [name]: value }), new RegExp(`^Error: mail: ${name}: expected a number of \\w+ from [\\d.]+ to \\d+, written in digits`), `${name}=${value}`);
  }
  assert.deepEqual(mailConfigFromEnv({ ...base, MAIL_REMIND_HOURS: '0.5', MAIL_IMAP_POLL_SECONDS: '' }), { from: 'race@rr.test', relay: 'smtp://relay:25', smtpListen: '127.0.0.1:2525', remindHours: 0.5 });
});

test('any environment is read into settings within bounds, or refused naming one of its variables, never thrown (property)', () => {
  const value = fc.oneof(
    fc.string(), fc.string({ unit: 'binary' }), fc.nat().map(String), fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
    fc.double().map(String), fc.constantFrom('', ' ', '0', '1', '19', '20', '65535', '65536', '2147483647', '2147483648', 'true', 'false', '\u0000', '1,2', '127.0.0.1/33', '::1', '10.0.0.0/8', 'on', 'off'),
  );
  fc.assert(fc.property(fc.dictionary(fc.constantFrom(...NAMES), value), (env) => {
    const r = serverEnv(env);
    if (!r.ok) {
      assert.ok(NAMES.includes(r.error.field), r.error.field);
      assert.equal(typeof r.error.message, 'string');
      return;
    }
    const v = r.value;
    assert.ok(Number.isInteger(v.port) && v.port >= 0 && v.port <= 65535);
    for (const ms of [v.queryTimeoutMs, v.botBudgetMs]) assert.ok(ms === undefined || (Number.isInteger(ms) && ms >= 1 && ms <= MAX_TIMER_MS));
    assert.ok(v.synchronousCommit === undefined || v.synchronousCommit === 'off');
    for (const k of ['poolSize', 'botWorkers', 'botNice', 'connectionsPerAddress', 'streamsPerAddress', 'maxStreams', 'requestsPer10s', 'racesPerMinute'] as const) assert.ok(v[k] === undefined || (Number.isSafeInteger(v[k]) && v[k]! >= 1));
  }), { numRuns: 500, seed: 20261129 });
});

test('npm start with a setting not as expected stops in one line naming it, before it opens a database', { timeout: 120_000 }, async () => {
  for (const [name, value] of [['PORT', 'abc'], ['BOT_BUDGET_MS', '2147483648'], ['TRUST_PROXY', 'proxy.example'], ['MAIL_IMAP_POLL_SECONDS', 'Infinity']] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'rr-env-'));
    const mail: Record<string, string> = name.startsWith('MAIL_') ? { MAIL_FROM: 'race@rr.test', MAIL_RELAY_URL: 'smtp://127.0.0.1:1', MAIL_SMTP_LISTEN: '127.0.0.1:0' } : {};
    // A server that starts after all is stopped at once (and the test fails).
    const failed = await spawnServer({ PORT: '0', DATA_DIR: dir, DATABASE_URL: '', ...mail, [name]: value }, 60_000).then((child) => void child.kill('SIGKILL'), (e: Error) => e);
    assert.ok(failed, `${name}=${value}: the server started`);
    assert.match(failed.message, /server exited \(1\)/, `${name}=${value}`);
    assert.match(failed.message, new RegExp(`roborally server: (mail: )?${name}: expected`), `${name}=${value}: ${failed.message}`);
    assert.doesNotMatch(failed.message, /\n\s+at /, `${name}=${value}: no stack`);
    assert.deepEqual(readdirSync(dir), [], `${name}=${value}: no database opened`);
  }
});
