/**
 * The boards and courses shipped with the project: board files in boards/factory, course files in
 * boards/courses, found by name or by path.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_TEXT, err, ok, parseBoardFile, parseCourse, validateCourse, type Board, type BoardFile, type Course, type Result } from '../../engine/src/index.js';
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
  const byPath = nameOrPath.endsWith('.json');
  const path = byPath ? resolve(nameOrPath) : join(FACTORY_DIR, `${nameOrPath}.json`);
  // A file named by its path answers for itself (missing, a folder, a link to nothing); a name is looked up.
  if (!byPath && !existsSync(path)) return err('board', `no board "${nameOrPath}" (known: ${boardNames().join(', ') || 'none'})`);
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
  const byPath = nameOrPath.endsWith('.json');
  const path = byPath ? resolve(nameOrPath) : join(COURSES_DIR, `${nameOrPath}.json`);
  if (!byPath && !existsSync(path)) return err('course', `no course "${nameOrPath}" (known: ${courseNames().join(', ') || 'none'})`);
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

/** Bounds of a course sent whole (by the API): boards, their placement, flags and starts. */
export const COURSE_BOUNDS = { boards: 12, offset: 96, flags: 16, starts: 8, text: MAX_TEXT } as const;

/**
 * A course sent as an object (a race's own course): its fields as a course file has them, its
 * boards among the shipped ones. Refused, naming the field, beyond COURSE_BOUNDS, with unknown
 * fields (the engine's course reader names them: one list of a course's keys), or when `validateCourse` finds a problem (boards that do not meet,
 * a flag that cannot be reached, …).
 */
export function courseFromJson(json: unknown): Result<Course> {
  const course = composedCourse(json);
  if (!course.ok) return course;
  const problems = validateCourse(course.value);
  if (problems.length) return err('course', problems.map((p) => p.message).join('; '));
  return course;
}

/**
 * A course that `courseFromJson` accepted and its caller stored (a race's own, kept by the server
 * with the race), read again: the same bounds, fields and composition, without `validateCourse`,
 * whose check that each flag can be reached takes seconds on the largest courses and found nothing
 * when it was accepted. Only for JSON its caller wrote itself after `courseFromJson`.
 */
export function storedCourse(json: unknown): Result<Course> {
  return composedCourse(json);
}

/** A course object read within COURSE_BOUNDS and composed on the shipped boards, unchecked. */
function composedCourse(json: unknown): Result<Course> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return err('course', 'expected a course object');
  const o = json as Record<string, unknown>;
  for (const k of ['name', 'author', 'description'])
    if (typeof o[k] === 'string' && (o[k] as string).length > COURSE_BOUNDS.text) return err(`course.${k}`, `at most ${COURSE_BOUNDS.text} characters`);
  const list = (k: string, most: number) => Array.isArray(o[k]) && (o[k] as unknown[]).length > most ? err(`course.${k}`, `at most ${most}`) : null;
  const long = list('boards', COURSE_BOUNDS.boards) ?? list('flags', COURSE_BOUNDS.flags) ?? list('starts', COURSE_BOUNDS.starts);
  if (long) return long;
  if (Array.isArray(o.boards)) {
    for (let k = 0; k < o.boards.length; k++) {
      const p = o.boards[k] as Record<string, unknown> | null;
      if (p && typeof p === 'object' && ((p.x as number) > COURSE_BOUNDS.offset || (p.y as number) > COURSE_BOUNDS.offset))
        return err(`course.boards[${k}].x`, `a board's corner lies at most ${COURSE_BOUNDS.offset} squares from the course's`);
    }
  }
  const shipped = (name: string) => {
    if (!boardNames().includes(name)) return undefined;
    const b = loadBoard(name);
    return b.ok ? b.value.file : undefined;
  };
  const course = parseCourse(json, shipped);
  if (!course.ok) return err(`course.${course.error.field}`, course.error.message);
  return ok(course.value);
}
