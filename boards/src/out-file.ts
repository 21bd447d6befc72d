/**
 * Writing an output file (a picture, a board file, a Tiled map) with an answer instead of a throw:
 * a folder, a FIFO with no reader, a missing folder or a path without permission is refused in
 * words, and nothing waits for a reader.
 */
import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { err, ok, type Result } from '../../engine/src/index.js';

/** Why `path` could not be written, in words, from the error a write or an open threw. */
export function writeProblem(path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'cannot be written: permission denied';
  if (code === 'ENOENT')
    return existsSync(dirname(path)) ? `cannot be written: ${dirname(path)} takes no new files (or the name is a symbolic link to nothing)` : `cannot be written: no folder ${dirname(path)}`;
  if (code === 'ENOTDIR') return 'cannot be written: a part of the path is not a folder';
  if (code === 'EISDIR') return 'is a folder; expected a file name';
  if (code === 'ENXIO') return 'is a FIFO (named pipe) that nothing reads; expected a file';
  if (code === 'ENOSPC') return 'cannot be written: the disk is full';
  if (code === 'ELOOP') return 'is a loop of symbolic links';
  return `cannot be written (${code ?? (e as Error).message})`;
}

/** Creates the missing folders of a path one by one (mkdirSync's recursive mode loops on /proc). */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
  for (const d of missing.reverse()) mkdirSync(d);
}

/** Writes `data` to `path` (a regular file or a terminal-like device such as /dev/stdout). */
export function writeOutputFile(path: string, data: string | Uint8Array, o: { makeFolder?: boolean } = {}): Result<void> {
  let fd: number;
  try {
    if (o.makeFolder) makeFolders(dirname(path));
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK, 0o666);
  } catch (e) {
    return err(path, writeProblem(path, e));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() && !st.isCharacterDevice()) return err(path, `is ${st.isFIFO() ? 'a FIFO (named pipe)' : st.isSocket() ? 'a socket' : 'not a regular file'}; expected a file`);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let n = 0; n < bytes.length; ) n += writeSync(fd, bytes, n, bytes.length - n);
    return ok(undefined);
  } catch (e) {
    return err(path, writeProblem(path, e));
  } finally {
    closeSync(fd);
  }
}
