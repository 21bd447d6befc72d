/** The courses the server offers: the shipped ones, read once. */
import type { Course } from '../../engine/src/index.js';
import { courseNames, loadCourse } from '../../boards/src/index.js';

export function shippedCourses(): Map<string, Course> {
  const out = new Map<string, Course>();
  for (const name of courseNames()) {
    const c = loadCourse(name);
    if (c.ok) out.set(name, c.value.course);
  }
  return out;
}
