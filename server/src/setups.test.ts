import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Floor } from '../../engine/src/index.js';
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

test('a race\'s own course as this server stored it is read again after a restart without courseFromJson\'s checks (made at its creation), but still composed and bounded', () => {
  const setups = new RaceSetups((n) => shippedCourses().get(n));
  const json = JSON.parse(readFileSync(join(COURSES_DIR, 'cube-works.json'), 'utf8'));
  const cube = courseFromJson(json);
  assert.ok(cube.ok);
  // Its last flag moved onto a conveyor belt: refused by validateCourse, so checked it would throw.
  const belt = cube.value.board.floor.findIndex((f) => f === Floor.Belt);
  const w = cube.value.board.width;
  const stored = { ...json, flags: [...json.flags.slice(0, -1), [belt % w, Math.floor(belt / w)]] };
  assert.equal(courseFromJson(stored).ok, false);
  const read = setups.courseOf({ id: 'r2', course: 'Cube Works', course_json: JSON.stringify(stored) });
  assert.deepEqual(read.flags, stored.flags);
  assert.deepEqual(read.board.floor, cube.value.board.floor);
  assert.throws(() => setups.courseOf({ id: 'r3', course: 'x', course_json: JSON.stringify({ ...json, boards: [{ board: 'no-such-board', x: 0, y: 0, rotation: 0 }] }) }), /race r3's course: course\.boards/);
});
