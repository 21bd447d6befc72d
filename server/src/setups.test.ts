import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COURSES_DIR, courseFromJson } from '../../boards/src/index.js';
import { shippedCourses } from './courses.js';
import { RaceSetups } from './setups.js';

test('a course of the race\'s own parsed at its creation is kept for the race: its setup is made on it, its JSON never parsed again', () => {
  const setups = new RaceSetups((n) => shippedCourses().get(n));
  const json = JSON.parse(readFileSync(join(COURSES_DIR, 'cube-works.json'), 'utf8'));
  const parsed = courseFromJson({ ...json, name: 'My cube' });
  assert.ok(parsed.ok);
  setups.keep('r1', parsed.value);
  // A course_json that no parse would take: the kept course answers.
  const row = { id: 'r1', course: 'My cube', course_json: '{"not": "a course"}', rules: 'classic', settings: '{}' };
  assert.equal(setups.courseOf(row), parsed.value);
  assert.equal(setups.setupOf(row).rules.name, 'classic', 'its setup made on the kept course');
});
