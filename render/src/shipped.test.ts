import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { boardNames, courseNames, loadBoard, loadCourse } from '../../boards/src/index.js';
import { checkSnapshots, snapshotDir, updating, type SnapshotCase } from './snapshots.js';

/** Every shipped board and course, drawn as the CLI draws them (`roborally show --svg`). */
function shippedCases(): SnapshotCase[] {
  const cases: SnapshotCase[] = [];
  for (const name of boardNames()) {
    const b = loadBoard(name);
    if (b.ok) cases.push({ name: `board-${name}`, board: b.value.board, options: { title: `${b.value.file.name} by ${b.value.file.author}` } });
  }
  for (const name of courseNames()) {
    const c = loadCourse(name);
    if (c.ok) cases.push({ name: `course-${name}`, board: c.value.course.board, options: { title: c.value.course.name } });
  }
  return cases;
}

test('every shipped board and course draws as its reviewed snapshot in render/snapshots/shipped', () => {
  const cases = shippedCases();
  assert.equal(cases.length, boardNames().length + courseNames().length, 'a shipped board or course did not load');
  for (const r of checkSnapshots(cases, join(snapshotDir(), 'shipped'))) {
    if (updating()) assert.ok(r.status === 'same' || r.status === 'written', r.name);
    else assert.equal(r.status, 'same', `${r.file}: ${r.status} ${r.detail ?? ''} (UPDATE_SNAPSHOTS=1 rewrites it after review)`);
  }
});
