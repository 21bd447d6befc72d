/** The command as a user runs it (bin/roborally.js): exit codes and one-line answers, never a stack trace. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INTERNAL_ERROR, OUTPUT_ERROR, main } from './main.js';

const BIN = fileURLToPath(new URL('../../../bin/roborally.js', import.meta.url));

function run(args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

function inDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'rr-cli-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const COURSE = { name: 'c', players: [1, 2], complexity: 'easy', time: 'short', boards: [{ board: 'atoll', x: 0, y: 0 }], flags: [[5, 5]], start: [0, 0] };

test('course validate exits 1 for a course with an unknown key, naming its path, and for a missing file', () => inDir((dir) => {
  const file = join(dir, 'c.json');
  writeFileSync(file, JSON.stringify({ ...COURSE, boards: [{ board: 'atoll', x: 0, y: 0, rotaton: 90 }] }));
  const bad = run(['course', 'validate', file]);
  assert.equal(bad.code, 1);
  assert.match(bad.out, /^INVALID .*c\.json: c\.json: boards\[0\]\.rotaton: unknown key/);
  const missing = run(['course', 'validate', join(dir, 'none.json')]);
  assert.equal(missing.code, 1);
  assert.match(missing.out, /^INVALID /);
}));

test('show and course validate say once what is wrong with a file: missing, a link to nothing, a board with an unknown key; a name that is neither lists both', () => inDir((dir) => {
  const missing = join(dir, 'none.json');
  for (const args of [['show', missing], ['course', 'validate', missing]]) {
    const r = run(args);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.out, /none\.json: no such file or directory\n$/, args.join(' '));
  }
  const link = join(dir, 'gone.json');
  symlinkSync(join(dir, 'nowhere.json'), link);
  for (const args of [['show', link], ['course', 'validate', link]]) {
    const r = run(args);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.out, /gone\.json: is a symbolic link to nothing/, args.join(' '));
  }
  const board = join(dir, 'b.json');
  writeFileSync(board, JSON.stringify({ name: 'b', author: 'a', description: 'd', grid: ['. .'], lasers: [{ x: 0, y: 0, dir: 'E', beam: 3 }] }));
  const typo = run(['show', board]);
  assert.equal(typo.code, 1);
  assert.equal(typo.out, 'roborally show: b.json.lasers[0].beam: unknown key (expected one of x, y, dir, beams)\n');
  const neither = run(['show', 'nope']);
  assert.equal(neither.code, 1);
  assert.match(neither.out, /^roborally show: no board or course "nope" \(boards: atoll, .*; courses: .*first-shift/);
}));

test('course validate takes 160,000 files in one call (Math.max(...) over them overflowed the stack: an internal error): each missing one is refused, exit 1', () => {
  const files = Array.from({ length: 160_000 }, (_, k) => `m${k % 10}`);
  const r = spawnSync(process.execPath, [BIN, 'course', 'validate', ...files], { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'ignore', 'pipe'] });
  assert.equal(r.stderr, '');
  assert.equal(r.status, 1);
});

test('play --course with an empty name is refused, exit 2, as race refuses it (it raced on the built-in board instead)', () => {
  for (const command of ['play', 'race']) {
    const r = spawnSync(process.execPath, [BIN, command, '--course', '', '--turns', '1'], { encoding: 'utf8', timeout: 60_000, input: '' });
    assert.equal(r.status, 2, `${command}: ${r.stdout.slice(0, 200)}`);
    assert.match(r.stderr + r.stdout, /^roborally (play|race): course: no course ""/, command);
  }
});

test('race --rules named as a key every object has (constructor, __proto__, toString) is refused in one line, exit 1 (it was taken, and the race ended in an internal error, exit 70)', () => {
  for (const rules of ['constructor', '__proto__', 'toString']) {
    const r = run(['race', '--course', 'first-shift', '--bots', '2', '--turns', '1', '--rules', rules]);
    assert.equal(r.code, 1, `${rules}: ${r.out.slice(0, 200)}`);
    assert.match(r.out, new RegExp(`argument '${rules}' is invalid\\. expected classic or pbem`), rules);
  }
});

test('show, tiled import, tiled export and race say what they refuse on standard error, once, nothing on standard output (a refusal went to standard output, into a file it was sent to; import named its file twice)', () => inDir((dir) => {
  const missing = join(dir, 'missing.tmj');
  for (const args of [['show', 'nothing'], ['show', 'atoll', '--svg', dir], ['tiled', 'import', missing], ['tiled', 'import', join(dir, '..'), '--out', 'x.json'], ['tiled', 'export', 'nothing', join(dir, 'x.tmj')], ['tiled', 'export', 'atoll', dir], ['race', '--course', 'nothing']]) {
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
    assert.notEqual(r.status, 0, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
    assert.match(r.stderr, /^roborally [a-z ]+: [^\n]+\n$/, args.join(' '));
  }
  const r = run(['tiled', 'import', missing]);
  assert.equal(r.out, `roborally tiled import: ${missing}: no such file or directory\n`);
}));

test('JSON nested 10,000 deep is refused at its line and column by check, show, course validate and tiled import', () => inDir((dir) => {
  const file = join(dir, 'deep.json');
  writeFileSync(file, `${'['.repeat(10000)}${']'.repeat(10000)}`);
  for (const args of [['check', file], ['show', file], ['course', 'validate', file], ['tiled', 'import', file]]) {
    const r = run(args);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.out, /deep\.json:1:65: not JSON: nested deeper than 64 levels/, args.join(' '));
    assert.doesNotMatch(r.out, /RangeError|\n\s+at /, args.join(' '));
  }
}));

test('a scenario with "expect" written twice fails at the second, where the first expectation was dropped unchecked and the scenario passed', () => inDir((dir) => {
  const file = join(dir, 'twice.json');
  // The robot ends at (0,1): the first "expect" is false, the second true.
  writeFileSync(file, '{"id": "twice", "rules": "pbem", "board": {"grid": [". .", ". ."]}, "robots": [{"name": "A", "x": 0, "y": 0, "dir": "S"}],\n'
    + ' "turns": [{"programs": {"A": ["F", "U", "U", "U", "U"]}}],\n "expect": {"robots": {"A": {"x": 1, "y": 1}}},\n "expect": {"robots": {"A": {"x": 0, "y": 1}}}}');
  const r = run(['check', file]);
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /twice\.json:4:2: not JSON: the key "expect" a second time in one object \(first at line 3, column 2\); expected each key once/);
}));

test('check exits 1 when no scenario is found, and when a scenario checks nothing', () => inDir((dir) => {
  const none = run(['check', dir]);
  assert.equal(none.code, 1);
  assert.match(none.out, /FAIL no scenario found/);
  writeFileSync(join(dir, 's.json'), JSON.stringify({ id: 's', rules: 'classic', board: { grid: ['. .'] }, robots: [{ name: 'A', x: 0, y: 0, dir: 'N' }], turns: [], expect: {} }));
  const nothing = run(['check', dir]);
  assert.equal(nothing.code, 1);
  assert.match(nothing.out, /FAIL s: .*expect: the scenario checks nothing/);
}));

test('an output path that cannot be written gets a one-line answer, not a stack trace nor a wait', () => inDir((dir) => {
  execFileSync('mkfifo', [join(dir, 'pipe.png')]);
  for (const args of [
    ['show', 'atoll', '--png', join(dir, 'pipe.png')],
    ['show', 'atoll', '--svg', dir],
    ['tiled', 'export', 'atoll', join(dir, 'pipe.png')],
    ['tiled', 'import', join(dir, 'none.tmj')],
  ]) {
    const r = run(args);
    assert.equal(r.code, 1, args.join(' '));
    assert.equal(r.out.trim().split('\n').length, 1, r.out);
    assert.doesNotMatch(r.out, /\n\s+at |Error:/, args.join(' '));
  }
  const out = join(dir, 'a', 'b.json');
  const r = run(['tiled', 'import', join(dir, 'none.tmj'), '--out', out]);
  assert.match(r.out, /none\.tmj: no such file or directory/);
}));

test('standard output that cannot be written (a full disk) ends in exit code 74 and one line on standard error, not in silence', { skip: !existsSync('/dev/full') && 'no /dev/full here' }, () => {
  const full = openSync('/dev/full', 'w');
  try {
    for (const args of [['boards'], ['show', 'atoll'], ['tiled', 'import', fileURLToPath(new URL('../../../boards/tiled/example.tmj', import.meta.url))]]) {
      const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', full, 'pipe'] });
      assert.equal(r.status, OUTPUT_ERROR, args.join(' '));
      assert.equal(r.stderr, 'roborally: standard output: cannot be written: the disk is full\n', args.join(' '));
    }
  } finally {
    closeSync(full);
  }
});

test('a reader of standard output that goes away (| head) ends the command quietly', () => {
  const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" check --json "${fileURLToPath(new URL('../../../scenarios', import.meta.url))}" | head -c 10`], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.stdout.length, 10);
  assert.equal(r.stderr, '');
});

test('whatever throws inside a command ends in exit code 70 and one line on standard error', async () => {
  const log = console.log;
  const write = process.stderr.write;
  let err = '';
  console.log = () => {
    throw new Error('the output is gone');
  };
  process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
  try {
    assert.equal(await main(['boards']), INTERNAL_ERROR);
  } finally {
    console.log = log;
    process.stderr.write = write;
  }
  assert.equal(err, 'roborally: internal error: the output is gone\n');
});
