/** The one JSON file reader: where errors are, what it refuses, and that it never throws. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MAX_JSON_BYTES, readJsonFile } from './json-file.js';
import { MAX_JSON_DEPTH, jsonSyntaxError, lineColumn, parseJson } from './json-text.js';
import { writeOutputFile } from './out-file.js';

function inDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'rr-json-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a JSON error names the file, line and column, and what was expected', () => {
  assert.deepEqual(parseJson('{\n  "a": 1\n  "b": 2\n}', 'f.json'), { ok: false, error: { field: 'f.json:3:3', message: 'not JSON: expected \',\' or \'}\' after a property, found "\\""' } });
  assert.deepEqual(parseJson('[1, 2,]', 'f.json'), { ok: false, error: { field: 'f.json:1:7', message: 'not JSON: expected a value (an object, a list, a string, a number, true, false or null), found "]"' } });
  assert.deepEqual(parseJson('', 'f.json'), { ok: false, error: { field: 'f.json:1:1', message: 'not JSON: expected a value (an object, a list, a string, a number, true, false or null), found the end of the file' } });
  assert.equal(parseJson('"a\nb"', 'f').ok, false);
  assert.equal(parseJson('{} {}', 'f').ok, false);
  assert.deepEqual(lineColumn('ab\ncd\nef', 7), { line: 3, column: 2 });
});

test('a byte-order mark before the JSON is skipped', () => {
  assert.deepEqual(parseJson('\uFEFF{"a": [1, "\\u00e9"]}', 'f'), { ok: true, value: { a: [1, 'é'] } });
});

test('nesting is bounded at 64 levels, before JSON.parse could overflow the stack', () => {
  const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  assert.ok(parseJson(nest(MAX_JSON_DEPTH), 'f').ok);
  assert.deepEqual(parseJson(nest(MAX_JSON_DEPTH + 1), 'f'), { ok: false, error: { field: 'f:1:65', message: 'not JSON: nested deeper than 64 levels of objects and lists' } });
  assert.equal(parseJson(nest(1_000_000), 'f').ok, false);
  assert.equal(parseJson(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, 'f').ok, false);
});

test('the syntax check agrees with JSON.parse on any text, JSON or not', () => {
  const jsonish = fc.oneof(fc.json(), fc.string(), fc.json().map((j) => j.slice(0, -1)), fc.json().chain((j) => fc.nat(j.length).map((k) => j.slice(0, k) + j.slice(k + 1))));
  fc.assert(fc.property(jsonish, (text) => {
    let parses = true;
    try {
      JSON.parse(text);
    } catch {
      parses = false;
    }
    // A key written twice is refused where JSON.parse keeps the last of it.
    const bad = jsonSyntaxError(text, 1000);
    if (parses && bad && /a second time in one object/.test(bad.message)) return;
    assert.equal(bad === null, parses, text);
  }), { numRuns: 3000 });
});

test('a key written twice in one object is refused at its second place, naming the first, where JSON.parse keeps the last in silence', () => {
  assert.deepEqual(parseJson('{\n  "flags": [[1, 1]],\n  "start": [0, 0],\n  "flags": [[2, 2]]\n}', 'c.json'), {
    ok: false, error: { field: 'c.json:4:3', message: 'not JSON: the key "flags" a second time in one object (first at line 2, column 3); expected each key once' },
  });
  // Written differently, the same key: an escape reads as its letter.
  assert.match((parseJson('{"a": {"x": 1, "\\u0078": 2}}', 'f') as { error: { message: string } }).error.message, /the key "x" a second time/);
  // The same key in two objects, or in an object and one inside it, is no repeat.
  assert.deepEqual(parseJson('{"a": {"a": 1}, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}', 'f').ok, true);
  assert.deepEqual(parseJson('{"__proto__": 1, "__proto__": 2}', 'f').ok, false);
});

test('a file with bytes that are no UTF-8 is refused at the line and column of the first, where they were read as U+FFFD in silence; a U+FFFD written in UTF-8 is taken', () => inDir((dir) => {
  const f = join(dir, 'b.json');
  writeFileSync(f, Buffer.concat([Buffer.from('{\n  "name": "Caf'), Buffer.from([0xe9]), Buffer.from('"\n}')]));
  assert.deepEqual(readJsonFile(f, 'b.json'), { ok: false, error: { field: 'b.json:2:15', message: 'byte 0xe9 is no UTF-8 (text written in another encoding?); expected UTF-8' } });
  // A truncated sequence at the very end, after a character of four bytes.
  writeFileSync(f, Buffer.concat([Buffer.from('["\u{1F916}",\n"\uFFFD", "'), Buffer.from([0xe2, 0x82])]));
  assert.deepEqual(readJsonFile(f, 'b.json'), { ok: false, error: { field: 'b.json:2:7', message: 'byte 0xe2 is no UTF-8 (text written in another encoding?); expected UTF-8' } });
  writeFileSync(f, '["\u{1F916}", "\uFFFD"]');
  assert.deepEqual(readJsonFile(f, 'b.json'), { ok: true, value: ['\u{1F916}', '\uFFFD'] });
}));

test('a file over 4 MB is refused without being parsed', () => inDir((dir) => {
  const file = join(dir, 'big.json');
  writeFileSync(file, `[${'0,'.repeat(MAX_JSON_BYTES / 2)}0]`);
  const r = readJsonFile(file);
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error.message : '', /expected at most 4194304 \(4 MB\)/);
}));

test('a folder, a FIFO, a dangling symbolic link and a missing file are answered, never waited on', () => inDir((dir) => {
  mkdirSync(join(dir, 'folder.json'));
  execFileSync('mkfifo', [join(dir, 'fifo.json')]);
  symlinkSync(join(dir, 'gone'), join(dir, 'dangling.json'));
  const why = (name: string) => {
    const r = readJsonFile(join(dir, name), name);
    return r.ok ? 'read' : `${r.error.field}: ${r.error.message}`;
  };
  assert.equal(why('folder.json'), 'folder.json: is a folder; expected a JSON file');
  assert.equal(why('fifo.json'), 'fifo.json: is a FIFO (named pipe); expected a JSON file');
  assert.equal(why('dangling.json'), 'dangling.json: is a symbolic link to nothing (its target does not exist)');
  assert.equal(why('missing.json'), 'missing.json: no such file or directory');
}));

test('an output file that cannot be written is answered in words: a folder, a FIFO nobody reads, a missing folder', () => inDir((dir) => {
  execFileSync('mkfifo', [join(dir, 'fifo.png')]);
  const why = (path: string) => {
    const r = writeOutputFile(path, 'x');
    return r.ok ? 'written' : r.error.message;
  };
  assert.equal(why(dir), 'is a folder; expected a file name');
  assert.equal(why(join(dir, 'fifo.png')), 'is a FIFO (named pipe) that nothing reads; expected a file');
  assert.equal(why(join(dir, 'no', 'such', 'x.png')), `cannot be written: no folder ${join(dir, 'no', 'such')}`);
  assert.equal(why(join(dir, 'ok.png')), 'written');
  assert.equal(writeOutputFile(join(dir, 'made', 'here', 'ok.png'), 'x', { makeFolder: true }).ok, true);
}));
