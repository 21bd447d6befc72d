/**
 * A race's course and the engine's setup for it: a shipped course by name, or the race's own (kept
 * as JSON with the race and parsed once per process).
 */
import { makeSetup, type Course, type Setup } from '../../engine/src/index.js';
import { courseFromJson } from '../../boards/src/index.js';
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
    const parsed = courseFromJson(JSON.parse(row.course_json));
    if (!parsed.ok) throw new Error(`race ${row.id}'s course: ${parsed.error.field}: ${parsed.error.message}`);
    if (!row.id) return parsed.value;
    if (this.custom.size >= CUSTOM_COURSES) this.custom.delete(this.custom.keys().next().value!);
    this.custom.set(row.id, parsed.value);
    return parsed.value;
  }

  /** The engine's setup of a race: its board, rule set and settings. */
  setupOf(row: Pick<RaceRow, 'course' | 'rules' | 'settings'> & Partial<Pick<RaceRow, 'id' | 'course_json'>>): Setup {
    const course = this.courseOf(row);
    const setup = makeSetup(course.board, row.rules, JSON.parse(row.settings), course.boards.length);
    if (!setup.ok) throw new Error(setup.error.message);
    return setup.value;
  }
}
