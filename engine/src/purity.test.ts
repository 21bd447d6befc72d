import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The engine's TypeScript sources (dist/engine/src → engine/src). */
const SRC = fileURLToPath(new URL('../../../engine/src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [p] : [];
  });
}

test('the engine imports nothing outside its own folder, not even Node built-ins', () => {
  const bad: string[] = [];
  for (const file of sources(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*from\s+'([^']+)'/g)) {
      const target = join(file, '..', m[1]!);
      if (!m[1]!.startsWith('.') || relative(SRC, target).startsWith('..')) bad.push(`${relative(SRC, file)} imports ${m[1]}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('the engine uses no clock, no Math.random and no I/O', () => {
  const bad: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''); // code, not comments
    for (const word of ['Math.random', 'Date.now', 'new Date', 'performance.now', 'process.', 'console.', 'require('])
      if (text.includes(word)) bad.push(`${relative(SRC, file)} uses ${word}`);
  }
  assert.deepEqual(bad, []);
});
