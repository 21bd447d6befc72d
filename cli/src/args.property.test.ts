/**
 * The command's arguments as a fuzzer would type them: every command but `play` (it reads the
 * terminal), with its options and arguments given values a person would not (keys every object
 * has, empty, negative, huge, NUL, unicode, paths that are no file, folders, devices), in any order
 * and number. Run in this process through `main`: each answer is an exit code and what was
 * printed (the process in a folder of its own, so output files named at random land there), never a throw nor an internal error (exit 70), and a refusal says what is wrong on
 * standard error (or in the FAIL and INVALID lines of the reports of `check` and
 * `course validate`), without a stack trace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { INTERNAL_ERROR, main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-args-'));
const BOARD = join(dir, 'board.json');
writeFileSync(BOARD, JSON.stringify({ name: 'B', author: 'A', description: 'D', grid: ['. .', '. .'] }));
const BAD = join(dir, 'bad.json');
writeFileSync(BAD, '{"grid": ["constructor"], "grid": 1');

/** Values no command takes, and a few it does. */
const value = fc.oneof(
  fc.constantFrom(
    ...Object.getOwnPropertyNames(Object.prototype), '', ' ', '-', '--', '-1', '0', '1', '2', '1e3', '0x10', '1.5', 'NaN', 'Infinity',
    '9'.repeat(30), '\u0000', 'ﬀ', '🤖', 'a,b', ',', 'random,greedy', 'greedy', 'random', 'classic', 'pbem', 'first-shift', 'atoll',
    'grand-tour', '../../../etc/passwd', '/dev/null', '/dev/full', '/dev/zero', '/proc/self/mem', dir, BOARD, BAD,
    join(dir, 'missing.json'), join(dir, 'out.svg'), join(dir, 'out.tmj'), join(dir, 'no', 'such', 'folder', 'x.png'),
  ),
  fc.string({ maxLength: 12 }),
);

const OPTIONS: Record<string, { readonly prefix: string[]; readonly options: string[] }> = {
  check: { prefix: ['check'], options: ['--json', '--show'] },
  show: { prefix: ['show'], options: ['--svg', '--png'] },
  race: { prefix: ['race', '--turns', '1', '--level', 'random'], options: ['--course', '--bots', '--level', '--seed', '--turns', '--rules'] },
  boards: { prefix: ['boards'], options: [] },
  validate: { prefix: ['course', 'validate'], options: [] },
  import: { prefix: ['tiled', 'import'], options: ['--out'] },
  export: { prefix: ['tiled', 'export'], options: [] },
  none: { prefix: [], options: ['--help', '--version', '-h'] },
};

/** Levels that play slowly (strong, expert) are left out: the race is about its arguments here. */
const quick = (args: string[]): boolean => !args.some((a) => /strong|expert/.test(a));

const argv = fc.constantFrom(...Object.keys(OPTIONS)).chain((command) => {
  const { prefix, options } = OPTIONS[command]!;
  const word = fc.oneof(value, ...(options.length ? [fc.constantFrom(...options)] : []), fc.constantFrom('--unknown', '-x', '--', '--help'));
  return fc.array(word, { maxLength: 6 }).map((rest) => [...prefix, ...rest]);
}).filter(quick);

test('any arguments to any command are answered with an exit code, never a throw or an internal error, a refusal in words and no stack trace', async () => {
  const log = console.log;
  const error = console.error;
  const write = process.stderr.write;
  const stdout = process.stdout.write;
  let err = '';
  let out = '';
  // Relative names (`random`, `atoll`) given as output files are written here, not in the checkout.
  const cwd = process.cwd();
  process.chdir(dir);
  const keep = (s: string | Uint8Array) => ((err += String(s)), true);
  try {
    await fc.assert(fc.asyncProperty(argv, async (args) => {
      err = '';
      out = '';
      console.log = (...s: unknown[]) => (out += `${s.join(' ')}\n`);
      console.error = (...s: unknown[]) => keep(`${s.join(' ')}\n`);
      process.stderr.write = keep as typeof process.stderr.write;
      process.stdout.write = (() => true) as typeof process.stdout.write;
      let code: number;
      try {
        code = await main(args);
      } finally {
        console.log = log;
        console.error = error;
        process.stderr.write = write;
        process.stdout.write = stdout;
      }
      const shown = `${JSON.stringify(args)} → ${code}: ${err.slice(0, 300)}`;
      assert.notEqual(code, INTERNAL_ERROR, shown);
      assert.ok(Number.isInteger(code) && code >= 0 && code <= 2, shown);
      assert.doesNotMatch(err, /^\s+at /m, shown);
      // A refusal is said in words: on standard error, or in the report of `check` (FAIL, or "fail" in JSON) or `course validate` (INVALID).
      if (code !== 0) assert.ok(err.trim() !== '' || /^(FAIL|INVALID) |^\{"id":.*"result":"fail"/m.test(out), shown);
    }), { numRuns: 1000 });
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
});
