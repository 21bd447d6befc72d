/**
 * The boards and courses shipped with the project: board files in boards/factory, course files in
 * boards/courses, found by name or by path.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, parseBoardFile, parseCourse, type Board, type BoardFile, type Course, type Result } from '../../engine/src/index.js';
import { readJsonFile } from './json-file.js';

/** boards/ in the repository (this module runs from dist/boards/src). */
const ROOT = fileURLToPath(new URL('../../../boards', import.meta.url));
export const FACTORY_DIR = join(ROOT, 'factory');
export const COURSES_DIR = join(ROOT, 'courses');

const names = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => basename(f, '.json')).sort() : [];

export const boardNames = (): string[] => names(FACTORY_DIR);
export const courseNames = (): string[] => names(COURSES_DIR);

/** A board by name (boards/factory/NAME.json) or by the path of a board file. */
export function loadBoard(nameOrPath: string): Result<{ file: BoardFile; board: Board; path: string }> {
  const path = nameOrPath.endsWith('.json') ? resolve(nameOrPath) : join(FACTORY_DIR, `${nameOrPath}.json`);
  if (!existsSync(path)) return err('board', `no board "${nameOrPath}" (known: ${boardNames().join(', ') || 'none'})`);
  const json = readJsonFile(path);
  if (!json.ok) return json;
  const parsed = parseBoardFile(json.value, basename(path));
  return parsed.ok ? ok({ ...parsed.value, path }) : parsed;
}

/**
 * A course by name (boards/courses/NAME.json) or by path. Its boards are looked up beside a course
 * file given by path first (./NAME.json, ../factory/NAME.json), then among the shipped boards.
 */
export function loadCourse(nameOrPath: string): Result<{ course: Course; path: string }> {
  const path = nameOrPath.endsWith('.json') ? resolve(nameOrPath) : join(COURSES_DIR, `${nameOrPath}.json`);
  if (!existsSync(path)) return err('course', `no course "${nameOrPath}" (known: ${courseNames().join(', ') || 'none'})`);
  const json = readJsonFile(path);
  if (!json.ok) return json;
  const here = dirname(path);
  const boardJson = (name: string) => {
    for (const file of [join(here, `${name}.json`), join(here, '..', 'factory', `${name}.json`), join(FACTORY_DIR, `${name}.json`)]) {
      if (file === path || !existsSync(file)) continue;
      const b = loadBoard(file);
      return b.ok ? b.value.file : undefined;
    }
    return undefined;
  };
  const course = parseCourse(json.value, boardJson);
  if (!course.ok) return err(`${basename(path)}: ${course.error.field}`, course.error.message);
  return ok({ course: course.value, path });
}
