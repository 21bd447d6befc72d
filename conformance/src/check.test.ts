import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFile, runCheck, scenarioFiles } from '../../cli/src/index.js';
import { OPTION_CARDS, UPGRADES, optionName } from '../../engine/src/index.js';

/** ../shared/scenarios beside the repository (dist/conformance/src → repository root). */
const SHARED = fileURLToPath(new URL('../../../../shared/scenarios', import.meta.url));
/** One test per scenario file, named by its id and title: the behaviour it checks. */
function eachScenario(dir: string, skip: string | false): void {
  const { files } = existsSync(dir) ? scenarioFiles([dir]) : { files: [] };
  for (const f of files) {
    const raw = JSON.parse(readFileSync(f, 'utf8')) as { id?: string; title?: string };
    test(`scenario ${raw.id}: ${raw.title ?? ''}`, { skip }, () => {
      const res = checkFile(f);
      assert.equal(res.result, 'pass', res.messages.join('; '));
    });
  }
}

const PUBLIC_SKIP = !existsSync(SHARED) && 'no ../shared/scenarios beside this checkout';
test('the public scenarios are there (over 100 files)', { skip: PUBLIC_SKIP }, () => {
  assert.ok(scenarioFiles([SHARED]).files.length > 100);
});
eachScenario(SHARED, PUBLIC_SKIP);

/** The project's own scenarios (dist/conformance/src → scenarios/). */
const OWN = fileURLToPath(new URL('../../../scenarios', import.meta.url));
test('our own scenarios hold each classic option card and each pbem upgrade in at least two scenarios', () => {
  const count = new Map<string, number>();
  for (const f of scenarioFiles([OWN]).files) {
    const raw = JSON.parse(readFileSync(f, 'utf8')) as { rules: string; robots: { options?: string[] }[] };
    const names = new Set(raw.robots.flatMap((r) => (r.options ?? []).map((o) => `${raw.rules} ${optionName(o)}`)));
    for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  }
  const few = [...OPTION_CARDS.map((o) => `classic ${o}`), ...UPGRADES.map((o) => `pbem ${o}`)].filter((n) => (count.get(n) ?? 0) < 2);
  assert.deepEqual(few, []);
});
eachScenario(OWN, false);

const good = {
  id: 'good',
  rules: 'classic',
  board: { grid: ['. . .', '. . .', '. . .'] },
  robots: [{ name: 'A', x: 1, y: 2, dir: 'N' }],
  turns: [{ programs: { A: ['F1:500', 'R:80', 'L:70', 'U:10', 'U:20'] } }],
  expect: { robots: { A: { x: 1, y: 1, dir: 'N', damage: 0 } } },
};

function variant(patch: (s: any) => void): any {
  const s = structuredClone(good);
  patch(s);
  return s;
}

function dirWith(files: Record<string, string | object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rr-check-'));
  for (const [name, body] of Object.entries(files))
    writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
  return dir;
}

function check(dir: string, o = {}): { code: number; lines: string[] } {
  const lines: string[] = [];
  const code = runCheck([dir], o, (l) => lines.push(l));
  return { code, lines };
}

const BAD_INPUT: [string, any, RegExp][] = [
  ['bad JSON', '{"id": "x", ', /bad-json\.json:1:13: not JSON: expected a property name in double quotes, found the end of the file/],
  ['a byte-order mark and bad JSON on line 2', '\uFEFF{"id": "x",\n  "rules": classic}', /bad-json\.json:2:12: not JSON: expected a value/],
  ['JSON nested 10,000 deep', `${'['.repeat(10000)}${']'.repeat(10000)}`, /bad-json\.json:1:65: not JSON: nested deeper than 64 levels/],
  ['no expectations', variant((s) => delete s.expect), /expect: the scenario checks nothing/],
  ['empty expectations', variant((s) => (s.expect = {})), /expect: the scenario checks nothing/],
  ['expectations of no field', variant((s) => (s.expect = { robots: { A: {} } })), /expect: the scenario checks nothing/],
  ['an unknown key in an upgrade on the board', variant((s) => ((s.rules = 'pbem'), (s.board.upgrades = [{ x: 0, y: 0, name: 'Brakes', agee: 1 }]))), /board\.upgrades\[0\]\.agee: unknown key/],
  ['an unknown key in a laser', variant((s) => (s.board.lasers = [{ x: 0, y: 0, dir: 'E', beam: 3 }])), /board\.lasers\[0\]\.beam: unknown key/],
  ['a pusher of no register', variant((s) => (s.board.pushers = [{ x: 0, y: 0, dir: 'E', registers: [] }])), /board\.pushers\[0\]\.registers: expected a list of one to five register numbers/],
  ['an archive on a pit', variant((s) => ((s.board.grid[0] = 'O . .'), (s.robots[0].archive = [0, 0]))), /robots\[0\]\.archive: \(0,0\) is a pit; expected a square a robot can stand on/],
  ['a start on a pit', variant((s) => ((s.board.grid[0] = 'O . .'), (s.robots[0].start = [0, 0]))), /robots\[0\]\.start: \(0,0\) is a pit/],
  ['a board 49 squares wide', variant((s) => (s.board.grid = Array(3).fill(Array(49).fill('.').join(' ')))), /board\.grid\[0\]: 49 cells; expected at most 48/],
  ['an unknown cell token', variant((s) => (s.board.grid[0] = '. Q .')), /board\.grid\[0\]: unknown cell token "Q"/],
  ['a robot off the board', variant((s) => (s.robots[0].x = 7)), /robots\[0\]\.x: A at \(7,2\) is off the 3x3 board/],
  ['a robot on a pit', variant((s) => (s.board.grid[2] = '. O .')), /robots\[0\]\.x: A stands on the pit/],
  ['two real robots on one square', variant((s) => s.robots.push({ name: 'B', x: 1, y: 2, dir: 'S' })), /robots\[1\]\.x: B and A are both real robots on \(1,2\)/],
  ['a card outside the deck', variant((s) => (s.turns[0].programs.A[0] = 'F1:430')), /turns\[0\]\.programs\.A\[0\]: "F1:430" is not a card of the deck/],
  ['a card used twice', variant((s) => (s.turns[0].programs.A[4] = 'U:10')), /turns\[0\]\.programs\.A\[4\]: U:10 is used twice/],
  ['a program with the wrong number of cards', variant((s) => s.turns[0].programs.A.pop()), /turns\[0\]\.programs\.A: A needs 5 cards for five registers, found 4/],
  ['a program that touches a locked register', variant((s) => (s.robots[0].damage = 5)), /programs\.A: A needs 4 cards for registers 1, 2, 3, 4 \(the others are locked\), found 5/],
  ['a missing program', variant((s) => (s.turns[0].programs = {})), /turns\[0\]\.programs: no program for A/],
  ['a program for an unknown robot', variant((s) => (s.turns[0].programs.Z = [])), /turns\[0\]\.programs\.Z: no robot named "Z"/],
  ['an unknown key', variant((s) => (s.robots[0].colour = 'red')), /robots\[0\]\.colour: unknown key/],
  ['an id of 129 characters, named by its file', variant((s) => (s.id = 'x'.repeat(129))), /^FAIL bad: .*bad\.json: id: expected a non-empty string of at most 128 characters/],
  ['a title that is not text', variant((s) => (s.title = 5)), /title: expected text of at most 2000 characters/],
  ['a source of 2,001 characters', variant((s) => (s.source = 'x'.repeat(2001))), /source: expected text of at most 2000 characters/],
  ['101 turns', variant((s) => (s.turns = Array(101).fill(s.turns[0]))), /turns: 101 turns; a scenario plays at most 100/],
  ['65 robots', variant((s) => (s.robots = Array.from({ length: 65 }, (_, k) => ({ name: `R${k}`, x: 1, y: 1, dir: 'N', virtual: true })))), /robots: 65 robots; a scenario holds at most 64/],
  ['a robot of 10,000 lives', variant((s) => (s.robots[0].lives = 10000)), /robots\[0\]\.lives: expected a whole number of lives, 1 to 9999, found 10000/],
  ['a power down by an undamaged robot', variant((s) => (s.turns[0].powerDown = ['A'])), /turns\[0\]\.powerDown: A: only a damaged robot may power down/],
];

for (const [what, body, message] of BAD_INPUT) {
  test(`check fails a scenario with ${what}, naming the file and the field, and goes on to the next file`, () => {
    const dir = dirWith({ 'bad-json.json': typeof body === 'string' ? body : '{}', 'bad.json': typeof body === 'string' ? good : body, 'good.json': good });
    const name = typeof body === 'string' ? 'bad-json.json' : 'bad.json';
    const { code, lines } = check(dir);
    assert.equal(code, 1);
    const line = lines.find((l) => l.includes(name));
    assert.ok(line?.startsWith('FAIL '), `no FAIL line for ${name}: ${lines.join('\n')}`);
    assert.match(line!, message);
    assert.ok(lines.includes('PASS good'), 'the good scenario after it still ran');
    assert.match(lines.at(-1)!, /^\d+ passed, \d+ failed$/);
  });
}

test('a scenario that expects an error passes when it is refused with that message', () => {
  const dir = dirWith({ 'e.json': variant((s) => ((s.turns[0].programs.A[4] = 'U:10'), (s.expect = { error: 'used twice' }))) });
  assert.deepEqual(check(dir).lines, ['PASS good', '1 passed, 0 failed']);
});

test('a scenario that expects an error fails when it plays without one', () => {
  const dir = dirWith({ 'e.json': variant((s) => (s.expect = { error: true })) });
  const { code, lines } = check(dir);
  assert.equal(code, 1);
  assert.match(lines[0]!, /^FAIL good: .*expected the scenario to be refused/);
});

test('a scenario that expects a different error fails and quotes both', () => {
  const dir = dirWith({ 'e.json': variant((s) => ((s.turns[0].programs.A[4] = 'U:10'), (s.expect = { error: 'locked' }))) });
  assert.match(check(dir).lines[0]!, /refused with ".*used twice.*", expected a message containing "locked"/);
});

test('a wrong expectation fails with what differed', () => {
  const dir = dirWith({ 'w.json': variant((s) => (s.expect.robots.A.y = 0)) });
  const { code, lines } = check(dir);
  assert.equal(code, 1);
  assert.match(lines[0]!, /FAIL good: .*A\.y is 1, expected 0 \(end\)/);
});

test('check --json prints one object per scenario with the final state, then the summary', () => {
  const dir = dirWith({ 'g.json': good });
  const { lines } = check(dir, { json: true });
  assert.equal(lines.length, 2);
  const o = JSON.parse(lines[0]!);
  assert.equal(o.id, 'good');
  assert.equal(o.result, 'pass');
  assert.deepEqual(o.messages, []);
  assert.deepEqual(o.state.A, {
    x: 1, y: 1, dir: 'N', damage: 0, lives: 3, flags: 0, archive: [1, 2], virtual: false,
    poweredDown: false, destroyed: false, out: false, options: [], locked: 0,
  });
  assert.equal(lines[1], '1 passed, 0 failed');
});

test('check --show draws the board after each register', () => {
  const dir = dirWith({ 'g.json': good });
  const { lines } = check(dir, { show: true });
  const pictures = lines.filter((l) => /register \d/.test(l));
  assert.equal(pictures.length, 5);
  assert.match(pictures[0]!, /turns\[0\] register 1\n.*\n.*A\^/);
});

test('a scenario with an option the rule set does not know is refused, naming the robot and the card', () => {
  const dir = dirWith({ 'p.json': variant((s) => ((s.robots[0].options = ['Jet Pack']), (s.id = 'bad-option'))) });
  const { code, lines } = check(dir);
  assert.equal(code, 1);
  assert.match(lines[0]!, /^FAIL bad-option: .*robots\[0\]\.options\[0\]: "Jet Pack" is not an option of classic/);
});

test('check fails a path that does not exist', () => {
  const { code, lines } = check(join(tmpdir(), 'no-such-scenarios-here'));
  assert.equal(code, 1);
  assert.match(lines[0]!, /^FAIL .*no such file or directory/);
});

test('check fails, with exit code 1, a folder holding no scenario', () => {
  const { code, lines } = check(dirWith({ 'notes.txt': 'nothing here' }));
  assert.equal(code, 1);
  assert.deepEqual(lines, [`FAIL no scenario found: no *.json file in ${lines[0]!.slice(lines[0]!.lastIndexOf(' ') + 1)}`, '0 passed, 1 failed']);
});

test('check answers a FIFO and a dangling symbolic link named *.json without waiting, and goes on', { skip: process.platform === 'win32' && 'no FIFOs' }, () => {
  const dir = dirWith({ 'good.json': good });
  execFileSync('mkfifo', [join(dir, 'fifo.json')]);
  symlinkSync(join(dir, 'gone'), join(dir, 'dangling.json'));
  mkdirSync(join(dir, 'loop'));
  symlinkSync(dir, join(dir, 'loop', 'back'));
  const { code, lines } = check(dir);
  assert.equal(code, 1);
  assert.deepEqual(lines, [
    `FAIL dangling: ${join(dir, 'dangling.json')}: is a symbolic link to nothing (its target does not exist)`,
    `FAIL fifo: ${join(dir, 'fifo.json')}: is a FIFO (named pipe); expected a JSON file`,
    'PASS good', '1 passed, 2 failed',
  ]);
});

test('check finds scenarios in nested directories in name order', () => {
  const dir = dirWith({ 'b.json': good, 'a.json': good });
  assert.deepEqual(readdirSync(dir).sort(), ['a.json', 'b.json']);
  assert.deepEqual(scenarioFiles([dir]).files.map((f) => f.slice(dir.length + 1)), ['a.json', 'b.json']);
});
