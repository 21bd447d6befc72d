/** `roborally race` prints a progress bar and the summary (finishing order, turns, deaths). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './main.js';
import { RACE_MAX_BOTS, progressLine, runRace } from './race.js';
import { ROBOT_DESIGNS } from '../../render/src/index.js';
import { plainBoard } from '../../bots/src/testing.js';

/** A course file of our own, with its one board beside it. */
function courseFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bots-race-'));
  const board = plainBoard(8, 8, { '3,3': 'O', '4,3': 'O', '1,5': 'O', '6,6': 'W', '1,1': 'W' }, [], {
    walls: ['5,2 S', '2,6 E'],
    lasers: [{ x: 7, y: 4, dir: 'W', beams: 1 }],
  });
  writeFileSync(join(dir, 'yard.json'), JSON.stringify({ name: 'Yard', author: 'tests', description: 'A small yard for bot races.', ...board }));
  const course = {
    name: 'Test Yard', author: 'tests', description: 'Two flags across a yard with pits.', players: [1, 4],
    complexity: 'easy', time: 'short', boards: [{ board: 'yard', x: 0, y: 0, rotation: 0 }],
    flags: [[6, 1], [2, 6]], start: [1, 1], starts: [[0, 0], [1, 0], [0, 1], [2, 0]],
  };
  const path = join(dir, 'test-yard.json');
  writeFileSync(path, JSON.stringify(course));
  return path;
}

describe('roborally race', () => {
  test("the bots' names are none of the robot designs' (a bot called Bolt would race in another design's body on the server)", () => {
    const lines: string[] = [];
    assert.equal(runRace({ course: 'grand-tour', bots: RACE_MAX_BOTS, level: ['random'], seed: 1, turns: 1 }, { print: (l) => lines.push(l), problem: (l) => assert.fail(l), progress: () => undefined }), 0);
    const rows = lines.filter((l) => /^(\d+|-)\s+\S+\s+random\s/.test(l)).map((l) => l.split(/\s+/)[1]!);
    assert.equal(rows.length, RACE_MAX_BOTS, lines.join('\n'));
    const designs = new Set(ROBOT_DESIGNS.map((d) => d.name));
    assert.deepEqual(rows.filter((n) => designs.has(n)), []);
  });

  test('roborally race prints the finishing order, the turns and the deaths of each robot', () => {
    const lines: string[] = [];
    const bars: string[] = [];
    const code = runRace(
      { course: courseFile(), bots: 3, level: ['strong', 'greedy'], seed: 2, turns: 30 },
      { print: (l) => lines.push(l), problem: (l) => assert.fail(l), progress: (l) => bars.push(l) },
    );
    assert.equal(code, 0);
    const text = lines.join('\n');
    assert.match(lines[0]!, /^Race on Test Yard \(classic\), 2 strong, 1 greedy bots, seed 2: \d+ turns?$/);
    assert.match(text, /place\s+robot\s+level\s+finished\s+flags\s+deaths/);
    assert.match(text, /^1\s+\w+\s+(strong|greedy)\s+turn \d+\s+2\/2\s+\d+/m);
    assert.match(text, /strong decisions: \d+, median [\d.]+ ms/);
    assert.ok(bars.length >= 1);
    assert.match(bars[0]!, /^\[[#.]{30}\] turn 1\/30 {2}leader \w+ \d\/2 flags {2}\d finished$/);
  });

  test('roborally race plays pbem from the course\'s starts, and refuses too many robots for them', () => {
    const path = courseFile();
    const lines: string[] = [];
    assert.equal(runRace({ course: path, bots: 2, level: ['greedy'], seed: 1, turns: 5, rules: 'pbem' }, { print: (l) => lines.push(l), problem: (l) => assert.fail(l) }), 0);
    assert.match(lines[0]!, /\(pbem\), 2 greedy bots/);
    const refused: string[] = [];
    assert.equal(runRace({ course: path, bots: 5, level: ['random'], seed: 1, turns: 5, rules: 'pbem' }, { print: (l) => assert.fail(l), problem: (l) => refused.push(l) }), 2);
    assert.match(refused[0]!, /4 starts of one robot each \(pbem gives each robot its own\), not enough for 5 robots/);
  });

  test('roborally race refuses an unknown course and an unknown level', async () => {
    const lines: string[] = [];
    assert.equal(runRace({ course: 'no-such-course', bots: 2, level: ['strong'], seed: 1, turns: 5 }, { print: (l) => assert.fail(l), problem: (l) => lines.push(l) }), 2);
    assert.match(lines[0]!, /no course "no-such-course"/);
    const err = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      assert.notEqual(await main(['race', '--course', courseFile(), '--level', 'genius']), 0);
    } finally {
      process.stderr.write = err;
    }
  });

  test('the progress bar fills with the leader\'s flags', () => {
    assert.equal(progressLine(0, 4, 1, 100, 0, 'Bolt'), `[${'.'.repeat(30)}] turn 1/100  leader Bolt 0/4 flags  0 finished`);
    assert.equal(progressLine(2, 4, 9, 100, 0, 'Cog'), `[${'#'.repeat(15)}${'.'.repeat(15)}] turn 9/100  leader Cog 2/4 flags  0 finished`);
    assert.equal(progressLine(4, 4, 12, 100, 1, 'Cog').slice(0, 32), `[${'#'.repeat(30)}]`);
  });
});
