/**
 * The one reader of JSON files (boards, courses, scenarios, Tiled maps and tilesets): refuses
 * anything but a regular file (a FIFO, a device or a folder named `*.json` is answered, never
 * waited on), files over 4 MB, JSON nested deeper than 64 levels and an object with a key written
 * twice (JSON.parse would keep the last in silence), and names the file, line and column of a syntax
 * error. A leading byte-order mark is skipped. Never throws.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { err, ok, type Result } from '../../engine/src/index.js';

/** The largest JSON file read, in bytes: the biggest course is some 40 KB. */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;
/** The deepest nesting of objects and lists read; the project's files go 5 deep. */
export const MAX_JSON_DEPTH = 64;

/** Line and column (both from 1) of a position in a text. */
export function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1, start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) (line++, (start = i + 1));
  return { line, column: pos - start + 1 };
}

/** The first syntax error of a JSON text (RFC 8259), or null; nesting past the bound and a key twice in one object count as one. */
export function jsonSyntaxError(text: string, maxDepth = MAX_JSON_DEPTH): { pos: number; message: string } | null {
  let i = 0;
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const shown = () => (i >= text.length ? 'the end of the file' : JSON.stringify(text[i]));
  class Fail {
    constructor(readonly pos: number, readonly message: string) {}
  }
  const fail = (message: string, pos = i): never => {
    throw new Fail(pos, message);
  };
  const string = () => {
    const open = i++;
    for (;;) {
      if (i >= text.length) fail('unterminated string (no closing ")', open);
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail('a control character (such as a line break) inside a string; expected it escaped (\\n)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('expected four hex digits after \\u');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(`unknown escape \\${e ?? ''} in a string; expected one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`);
      } else i++;
    }
  };
  const value = (depth: number): void => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      if (depth >= maxDepth) fail(`nested deeper than ${maxDepth} levels of objects and lists`);
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      // Where each key of an object is first written: JSON.parse keeps the last of a key written twice, in silence.
      const keys = c === '{' ? new Map<string, number>() : null;
      for (;;) {
        if (keys) {
          if (text[i] !== '"') fail(`expected a property name in double quotes, found ${shown()}`);
          const at = i;
          string();
          const key = JSON.parse(text.slice(at, i)) as string;
          const first = keys.get(key);
          if (first !== undefined) fail(`the key ${JSON.stringify(key)} a second time in one object (first at line ${lineColumn(text, first).line}, column ${lineColumn(text, first).column}); expected each key once`, at);
          keys.set(key, at);
          ws();
          if (text[i] !== ':') fail(`expected ':' after the property name, found ${shown()}`);
          i++;
        }
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          continue;
        }
        if (text[i] === close) return void i++;
        fail(`expected ',' or '${close}' after ${c === '{' ? 'a property' : 'an element'}, found ${shown()}`);
      }
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return void (i += word.length);
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail(`expected a value (an object, a list, a string, a number, true, false or null), found ${shown()}`);
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail(`expected the end of the file after the JSON value, found ${shown()}`);
    return null;
  } catch (e) {
    if (e instanceof Fail) return { pos: e.pos, message: e.message };
    throw e;
  }
}

/** Parses JSON text; an error names `name:line:column`. A leading byte-order mark is skipped. */
export function parseJson(text: string, name: string): Result<unknown> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const bad = jsonSyntaxError(body);
  if (bad) {
    const { line, column } = lineColumn(body, bad.pos);
    return err(`${name}:${line}:${column}`, `not JSON: ${bad.message}`);
  }
  return ok(JSON.parse(body) as unknown);
}

const KINDS: [string, (s: import('node:fs').Stats) => boolean][] = [
  ['a folder', (s) => s.isDirectory()], ['a FIFO (named pipe)', (s) => s.isFIFO()], ['a socket', (s) => s.isSocket()],
  ['a device', (s) => s.isCharacterDevice() || s.isBlockDevice()],
];

/** Why a path cannot be opened, in words: a dangling symbolic link, a missing file, no permission. */
export function fileProblem(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    try {
      if (lstatSync(path).isSymbolicLink()) return 'is a symbolic link to nothing (its target does not exist)';
    } catch {
      // not there at all
    }
    return 'no such file or directory';
  }
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'is a loop of symbolic links';
  if (code === 'EISDIR') return 'is a folder, not a file';
  if (code === 'ENOTDIR') return 'a part of the path is not a folder';
  return `cannot be read (${code ?? (e as Error).message})`;
}

/**
 * Reads a JSON file: a regular file of at most `MAX_JSON_BYTES`, UTF-8, JSON nested at most
 * `MAX_JSON_DEPTH` deep. Errors name `name` (by default the path), and for JSON errors its line and
 * column. A FIFO is opened without waiting for a writer, and refused.
 */
export function readJsonFile(path: string, name = path): Result<unknown> {
  const text = readTextFile(path, name);
  return text.ok ? parseJson(text.value, name) : text;
}

/** Reads a regular file of at most `MAX_JSON_BYTES` as UTF-8 text; errors name `name`. */
export function readTextFile(path: string, name = path): Result<string> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return err(name, fileProblem(path, e));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return err(name, `is ${KINDS.find(([, is]) => is(st))?.[0] ?? 'not a regular file'}; expected a JSON file`);
    if (st.size > MAX_JSON_BYTES) return err(name, `is ${st.size} bytes; expected at most ${MAX_JSON_BYTES} (4 MB)`);
    // Read to the end, whatever the size said (a file may grow, /proc files say 0), up to the bound.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(st.size + 1, 65536), MAX_JSON_BYTES + 1 - total));
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) break;
      chunks.push(chunk.subarray(0, got));
      total += got;
      if (total > MAX_JSON_BYTES) return err(name, `is over ${MAX_JSON_BYTES} bytes (4 MB); expected less`);
    }
    return ok(Buffer.concat(chunks, total).toString('utf8'));
  } catch (e) {
    return err(name, fileProblem(path, e));
  } finally {
    closeSync(fd);
  }
}
