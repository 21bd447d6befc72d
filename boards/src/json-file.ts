/**
 * The one reader of JSON files (boards, courses, scenarios, Tiled maps and tilesets): refuses
 * anything but a regular file (a FIFO, a device or a folder named `*.json` is answered, never
 * waited on), files over 4 MB, JSON nested deeper than 64 levels and an object with a key written
 * twice (JSON.parse would keep the last in silence), bytes that are no UTF-8 (read as U+FFFD, a
 * name would change in silence), and names the file, line and column of a syntax
 * error (json-text.ts). A leading byte-order mark is skipped. Never throws.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { err, ok, type Result } from '../../engine/src/index.js';
import { lineColumn, parseJson } from './json-text.js';

/** The largest JSON file read, in bytes: the biggest course is some 40 KB. */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;

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
    return utf8Text(Buffer.concat(chunks, total), name);
  } catch (e) {
    return err(name, fileProblem(path, e));
  } finally {
    closeSync(fd);
  }
}

/**
 * `bytes` as UTF-8 text, or the line and column of the first byte that is no UTF-8 (named
 * `name:line:column`): Node's decoder would read such bytes as U+FFFD in silence.
 */
export function utf8Text(bytes: Buffer, name: string): Result<string> {
  const text = bytes.toString('utf8');
  if (isUtf8(bytes)) return ok(text);
  const bad = notUtf8(bytes, text);
  return err(`${name}:${bad.line}:${bad.column}`, bad.message);
}

/** Where the first byte of `bytes` that is no UTF-8 is in `text` (`bytes` as Node decodes them), and what it is. */
export function notUtf8(bytes: Buffer, text: string): { line: number; column: number; message: string } {
  // The first U+FFFD that stands for bytes that are no UTF-8 (not for one written in UTF-8).
  let i = 0, at = 0;
  for (; i < text.length; i++) {
    const c = text.codePointAt(i)!;
    if (c === 0xfffd && !(bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd)) break;
    if (c > 0xffff) i++;
    at += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return { ...lineColumn(text, i), message: `byte 0x${bytes[at]!.toString(16).padStart(2, '0')} is no UTF-8 (text written in another encoding?); expected UTF-8` };
}
