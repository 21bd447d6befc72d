/**
 * A race's course and the engine's setup for it: a shipped course by name, or the race's own (kept
 * as JSON with the race, checked when the race was created, and read again once per process
 * without its flags' paths checked: `storedCourse`).
 */
import { makeSetup, type Course, type Setup } from '../../engine/src/index.js';
import { storedCourse } from '../../boards/src/index.js';
import type { RaceRow } from './db.js';

/** Custom courses kept parsed, by race id. */
const CUSTOM_COURSES = 500;

export class RaceSetups {
  private readonly custom = new Map<string, Course>();

  constructor(private readonly shipped: (name: string) => Course | undefined) {}

  /** A shipped course by name. */
  shippedCourse(name: string): Course | undefined {
    return this.shipped(name);
  }

  /** A race's course: a shipped one by name, or the race's own. */
  courseOf(row: Pick<RaceRow, 'course'> & Partial<Pick<RaceRow, 'id' | 'course_json'>>): Course {
    if (!row.course_json) {
      const course = this.shipped(row.course);
      if (!course) throw new Error(`course ${row.course} has gone`);
      return course;
    }
    const cached = row.id ? this.custom.get(row.id) : undefined;
    if (cached) return cached;
    // Written by this server once `courseFromJson` had accepted it: its flags' paths are not checked
    // again (seconds on the largest courses, on the event loop at a race's first request after a restart).
    const parsed = storedCourse(JSON.parse(row.course_json));
    if (!parsed.ok) throw new Error(`race ${row.id}'s course: ${parsed.error.field}: ${parsed.error.message}`);
    if (row.id) this.keep(row.id, parsed.value);
    return parsed.value;
  }

  /**
   * Keeps `course`, parsed already, as race `id`'s own (a race just created on it): parsing a
   * course of one's own takes up to a second or two on the event loop (cube-works), and the
   * race's setup then shares the board object the creation used (the bots' tables are kept per board).
   */
  keep(id: string, course: Course): void {
    if (this.custom.size >= CUSTOM_COURSES) this.custom.delete(this.custom.keys().next().value!);
    this.custom.set(id, course);
  }

  /** The engine's setup of a race: its board, rule set and settings. */
  setupOf(row: Pick<RaceRow, 'course' | 'rules' | 'settings'> & Partial<Pick<RaceRow, 'id' | 'course_json'>>): Setup {
    return RaceSetups.setupOn(this.courseOf(row), row);
  }

  /** The engine's setup on `course` (parsed already) with a race's rule set and settings. */
  static setupOn(course: Course, row: Pick<RaceRow, 'rules' | 'settings'>): Setup {
    const setup = makeSetup(course.board, row.rules, JSON.parse(row.settings), course.boards.length);
    if (!setup.ok) throw new Error(setup.error.message);
    return setup.value;
  }
}
