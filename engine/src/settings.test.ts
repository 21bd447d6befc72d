/** Each setting docs/rules.md documents is read by some code (docs.test.ts keeps the table equal to the engine's settings). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseSettings } from './settings.js';

const root = new URL('../../../', import.meta.url).pathname;
const documented = [...readFileSync(join(root, 'docs/rules.md'), 'utf8').matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]!);

/** The non-test TypeScript sources of the folders that play races. */
function sources(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.ts') && !f.endsWith('.test.ts')) out.push(readFileSync(p, 'utf8'));
    }
  };
  for (const folder of ['engine/src', 'server/src', 'driver/src', 'mail/src']) {
    try {
      walk(join(root, folder));
    } catch {
      // a folder this checkout does not have
    }
  }
  return out.join('\n');
}

test('every setting documented in docs/rules.md is read by some code (engine, driver, server or mail)', () => {
  const code = sources();
  const unread = documented.filter((name) => !new RegExp(`settings\\??\\.${name}\\b`).test(code));
  assert.deepEqual(unread, [], `settings that nothing reads: ${unread.join(', ')}`);
});

test('a setting is one of the settings\' own names: "toString", "constructor" and "__proto__" are unknown settings', () => {
  for (const key of ['toString', 'constructor', 'hasOwnProperty', '__proto__']) {
    const read = parseSettings(JSON.parse(`{"${key}": {"lives": 99}}`), 1);
    assert.equal(read.ok, false, key);
    assert.equal(!read.ok && read.error.field, `settings.${key}`);
  }
  assert.deepEqual(parseSettings({ lives: 5 }, 1), { ok: true, value: { lives: 5 } });
});
