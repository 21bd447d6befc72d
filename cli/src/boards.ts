/** `roborally boards`, `show`, `course validate` and `tiled import|export`. */
import { courseRuleSets, renderText, validateCourse } from '../../engine/src/index.js';
import { renderPng, renderSvg } from '../../render/src/index.js';
import { resolve } from 'node:path';
import { boardNames, courseNames, loadBoard, loadCourse, exportTiledFile, importTiledFile, readJsonFile, writeOutputFile } from '../../boards/src/index.js';

type Print = (line: string) => void;

/** Where a command's output goes, and where it says what is wrong (standard error, so a refusal never lands in a file the output is sent to). */
export interface Out {
  readonly print: Print;
  readonly problem: Print;
}

/** Lists the shipped boards and courses, one line each. */
export function listBoards(print: Print): number {
  print('Boards (boards/factory):');
  for (const name of boardNames()) {
    const b = loadBoard(name);
    print(b.ok ? `  ${name.padEnd(22)} ${b.value.board.width}x${b.value.board.height}  ${b.value.file.name}: ${b.value.file.description}` : `  ${name.padEnd(22)} unreadable: ${b.error.message}`);
  }
  print('Courses (boards/courses):');
  for (const name of courseNames()) {
    const c = loadCourse(name);
    if (!c.ok) {
      print(`  ${name.padEnd(22)} unreadable: ${c.error.field}: ${c.error.message}`);
      continue;
    }
    const k = c.value.course;
    const rules = courseRuleSets(k).join(', ');
    print(`  ${name.padEnd(22)} ${k.name}: ${k.boards.length} board${k.boards.length > 1 ? 's' : ''}, ${k.flags.length} flags, players ${k.players[0]}-${k.players[1]}, ${k.complexity}, ${k.time} (${rules})`);
  }
  return 0;
}

export interface ShowOptions {
  /** Write an SVG picture here. */
  readonly svg?: string;
  /** Write a PNG picture here. */
  readonly png?: string;
}

/** Draws a board or a course (by name or file): as text, or as an SVG or PNG picture. */
export function showBoard(nameOrPath: string, o: ShowOptions, { print, problem }: Out): number {
  const course = loadCourse(nameOrPath);
  const board = course.ok ? null : loadBoard(nameOrPath);
  const found = course.ok
    ? { title: course.value.course.name, from: course.value.path, board: course.value.course.board }
    : board?.ok
      ? { title: `${board.value.file.name} by ${board.value.file.author}`, from: board.value.path, board: board.value.board }
      : null;
  if (found) {
    if (!o.svg && !o.png) {
      print(`${found.title} (${found.from})`);
      print(renderText(found.board));
      return 0;
    }
    const svg = renderSvg(found.board, { title: found.title });
    for (const [out, data] of [[o.svg, () => svg], [o.png, () => renderPng(svg)]] as const) {
      if (!out) continue;
      const written = writeOutputFile(out, data());
      if (!written.ok) {
        problem(`roborally show: ${out}: ${written.error.message}`);
        return 1;
      }
      print(`wrote ${out}`);
    }
    return 0;
  }
  if (course.ok || !board || board.ok) return 1;
  problem(`roborally show: ${showRefusal(nameOrPath, board.error, course.error)}`);
  return 1;
}

/**
 * Why `show` drew nothing, said once: a file that cannot be read as JSON answers for itself; a file
 * with a `grid` was meant as a board and one without as a course; a name is neither's.
 */
function showRefusal(nameOrPath: string, board: { field: string; message: string }, course: { field: string; message: string }): string {
  if (!nameOrPath.endsWith('.json')) {
    if (boardNames().includes(nameOrPath)) return `${board.field}: ${board.message}`;
    if (courseNames().includes(nameOrPath)) return `${course.field}: ${course.message}`;
    return `no board or course "${nameOrPath}" (boards: ${boardNames().join(', ') || 'none'}; courses: ${courseNames().join(', ') || 'none'})`;
  }
  const json = readJsonFile(resolve(nameOrPath));
  if (!json.ok) return `${json.error.field}: ${json.error.message}`;
  const isBoard = typeof json.value === 'object' && json.value !== null && 'grid' in json.value;
  return isBoard ? `${board.field}: ${board.message}` : `${course.field}: ${course.message}`;
}

/** Checks a course file; prints each problem with its square, and exits 1 if there is any. */
export function validateCourseFile(path: string, print: Print): number {
  const loaded = loadCourse(path);
  if (!loaded.ok) {
    print(`INVALID ${path}: ${loaded.error.field}: ${loaded.error.message}`);
    return 1;
  }
  const problems = validateCourse(loaded.value.course);
  if (!problems.length) {
    print(`VALID ${path}`);
    return 0;
  }
  for (const p of problems) print(`INVALID ${path}${p.at ? ` (${p.at[0]},${p.at[1]})` : ''}: ${p.message}`);
  return 1;
}

/** Reads a map drawn in Tiled and writes it as a board file (or prints it). */
export function importTiled(mapPath: string, out: string | undefined, { print, problem }: Out): number {
  const board = importTiledFile(mapPath);
  if (!board.ok) {
    // A file that cannot be read names itself in its field (`map.tmj:2:1`, `map.tmj`): said once.
    const where = board.error.field.startsWith(mapPath) ? board.error.field : `${mapPath}: ${board.error.field}`;
    problem(`roborally tiled import: ${where}: ${board.error.message}`);
    return 1;
  }
  const text = `${JSON.stringify(board.value, null, 2)}\n`;
  if (out) {
    const written = writeOutputFile(out, text);
    if (!written.ok) {
      problem(`roborally tiled import: ${out}: ${written.error.message}`);
      return 1;
    }
    print(`wrote ${out}`);
  } else print(text.trimEnd());
  return 0;
}

/** Writes a board (by name or file) as a Tiled map that uses the project's tileset. */
export function exportTiled(nameOrPath: string, out: string, { print, problem }: Out): number {
  const board = loadBoard(nameOrPath);
  if (!board.ok) {
    problem(`roborally tiled export: ${board.error.field}: ${board.error.message}`);
    return 1;
  }
  const written = exportTiledFile(board.value.file, out);
  if (!written.ok) {
    problem(`roborally tiled export: ${out}: ${written.error.message}`);
    return 1;
  }
  print(`wrote ${out}`);
  return 0;
}
