/**
 * The settings the server and its mail gateway read from the environment are the ones
 * docs/server.md and docs/mail.md describe: a variable read in the code and named in neither fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The variables a source reads: `env.NAME`, and the keys of its tables of bounded numbers (`NAME: [min, max, …]`). */
function settingsRead(source: string): string[] {
  const names = [...source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g), ...source.matchAll(/^\s+([A-Z][A-Z0-9_]+): \[[\d_.]+, /gm)].map((m) => m[1]!);
  return [...new Set(names)];
}

test('every environment variable the server and the mail gateway read is named in docs/server.md or docs/mail.md', () => {
  const docs = ['server', 'mail'].map((d) => readFileSync(join(ROOT, 'docs', `${d}.md`), 'utf8')).join('\n');
  const read: string[] = [];
  for (const dir of ['server/src', 'mail/src']) {
    for (const f of readdirSync(join(ROOT, dir))) {
      // Tests and their helpers read the tests' own settings (TEST_DATABASE_URL, …).
      if (!f.endsWith('.ts') || f.endsWith('.test.ts') || f === 'testing.ts') continue;
      read.push(...settingsRead(readFileSync(join(ROOT, dir, f), 'utf8')).map((n) => `${n} (${dir}/${f})`));
    }
  }
  assert.ok(read.some((r) => r.startsWith('PORT ')) && read.some((r) => r.startsWith('MAIL_IMAP_POLL_SECONDS ')), `the scan finds the settings: ${read.join(', ')}`);
  const missing = read.filter((r) => !docs.includes('`' + r.split(' ')[0]!));
  assert.deepEqual(missing, [], 'settings read but described in neither docs/server.md nor docs/mail.md');
});
