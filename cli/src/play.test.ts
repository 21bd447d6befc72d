import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classic, parseBoard, parseCard, renderText } from '../../engine/src/index.js';
import { ROBOT_DESIGNS } from '../../render/src/index.js';
import { MAX_BOTS, parseProgram, playRace, robotNames, type LineSource, type PlayOptions } from './play.js';
import { PLAY_BOARD } from './play-board.js';

/** The repository root (dist/cli/src → three levels up). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Output lines as printed, a multi-line print split into its lines. */
function capture(): { out: string[]; print: (s: string) => void } {
  const out: string[] = [];
  return { out, print: (s) => out.push(...s.split('\n')) };
}

/** The cards of the last hand shown, as `F2:670` names, in the order they are numbered. */
function lastHand(out: readonly string[]): string[] {
  const line = [...out].reverse().find((l) => l.startsWith('Your hand: '));
  assert.ok(line, 'no hand was shown');
  return [...line.matchAll(/(\d+) ([A-Z0-9]+:\d+)/g)].map((m) => m[2]!);
}

/** The lines of one turn, from its heading to the next turn's (or the summary). */
function turnLines(out: readonly string[], turn: number): string[] {
  const from = out.indexOf(`=== Turn ${turn} ===`);
  assert.ok(from >= 0, `turn ${turn} was not played`);
  const to = out.findIndex((l, k) => k > from && l.startsWith('==='));
  return out.slice(from, to < 0 ? undefined : to);
}

/** What a robot revealed in each register phase of a turn, in register order. */
function revealed(lines: readonly string[], robot: string): string[] {
  const cards: string[] = [];
  for (const l of lines) {
    if (!l.startsWith('Cards: ')) continue;
    const m = new RegExp(`(?:^Cards: |, )${robot} ([A-Z0-9]+:\\d+)`).exec(l);
    if (m) cards.push(m[1]!);
  }
  return cards;
}

/** A script that answers each prompt by looking at what has been printed so far. */
function responsive(out: readonly string[], answer: (out: readonly string[]) => string | null): AsyncIterable<string> {
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const line = answer(out);
        if (line === null) return;
        yield line;
      }
    },
  };
}

const race = async (options: PlayOptions, input: LineSource | readonly string[] | AsyncIterable<string>) => {
  const { out, print } = capture();
  const code = await playRace(options, input, print);
  return { code, out };
};

test('card numbers pick cards from the displayed hand, and the robot reveals them in register order', async () => {
  const { out, print } = capture();
  const typed: string[] = [];
  const input = responsive(out, (o) => {
    if (typed.length) return null;
    const hand = lastHand(o);
    typed.push(...[5, 3, 1, 2, 4].map((n) => hand[n - 1]!));
    return '5, 3 1 2 4';
  });
  const code = await playRace({ seed: 1, turns: 1 }, input, print);
  assert.equal(code, 0);
  assert.equal(typed.length, 5);
  const lines = turnLines(out, 1);
  const ran = revealed(lines, 'Ava');
  assert.ok(ran.length >= 1, 'Ava revealed no card');
  assert.deepEqual(ran, typed.slice(0, ran.length));
  if (ran.length < 5) assert.ok(lines.some((l) => l.startsWith('Ava is destroyed')), 'Ava stopped revealing cards without being destroyed');
});

test('instruction codes take the first unused card of their type in the hand, and codes with a priority take that card', () => {
  const hand = ['R:80', 'F2:710', 'L:210', 'L:110', 'B:440', 'F3:830', 'F3:810', 'L:250', 'B:480'].map((c) => parseCard(c, true)!);
  const p = parseProgram('L, l F2 r 9', hand, classic);
  assert.ok(p.ok);
  assert.deepEqual(p.value.orders.program, ['L:210', 'L:110', 'F2:710', 'R:80', 'B:480']);
  assert.equal(p.value.orders.powerDown, false);
  // A number or an exact card is set aside first; a code then takes the next card of its type.
  const q = parseProgram('L 3 F3:810 F3 pd B', hand, classic);
  assert.ok(q.ok);
  assert.deepEqual(q.value.orders.program, ['L:110', 'L:210', 'F3:810', 'F3:830', 'B:440']);
  assert.equal(q.value.orders.powerDown, true);
  const r = parseProgram('power down', hand, classic);
  assert.ok(r.ok);
  assert.deepEqual(r.value.orders.program, []);
  assert.equal(r.value.orders.powerDown, true);
  assert.equal(r.value.body.program, undefined, 'no program typed: every register to the random fill');
});

test('a code with no card of its type left in the hand is refused, naming the token', () => {
  const hand = ['R:80', 'F2:710', 'L:210'].map((c) => parseCard(c, true)!);
  const p = parseProgram('R R', hand, classic);
  assert.ok(!p.ok);
  assert.match(p.error.message, /"R": no R card left/);
  const q = parseProgram('U', hand, classic);
  assert.ok(!q.ok);
  assert.match(q.error.message, /"U": there is no U \(U-turn\) card in your hand/);
  const n = parseProgram('1 12', hand, classic);
  assert.ok(!n.ok);
  assert.match(n.error.message, /"12" is not a card number: your hand has cards 1 to 3/);
});

test('typed codes run as the cards the hand holds: the robot reveals the first card of each typed type', async () => {
  const { out, print } = capture();
  const expected: string[] = [];
  const input = responsive(out, (o) => {
    if (expected.length) return null;
    const hand = lastHand(o);
    const codes = hand.slice(4, 9).map((c) => c.split(':')[0]!); // the types of the last five cards
    const used = new Set<string>();
    for (const code of codes) {
      const c = hand.find((h) => h.startsWith(`${code}:`) && !used.has(h))!;
      used.add(c);
      expected.push(c);
    }
    return codes.join(' ');
  });
  assert.equal(await playRace({ seed: 7, turns: 1 }, input, print), 0);
  const ran = revealed(turnLines(out, 1), 'Ava');
  assert.ok(ran.length >= 1);
  assert.deepEqual(ran, expected.slice(0, ran.length));
});

test('in a script, a bad token is reported by name and the turn is played with random cards', async () => {
  const { code, out } = await race({ seed: 1, turns: 2 }, ['F2 X9 R', '']);
  assert.equal(code, 0);
  const turn1 = turnLines(out, 1);
  assert.ok(turn1.some((l) => l.includes('a card, not "X9"')), 'no error naming "X9"');
  assert.ok(turn1.includes('  (playing random cards this turn)'));
  assert.equal(revealed(turn1, 'Ava').length > 0, true, 'Ava ran no cards after the bad line');
  assert.ok(out.includes('=== Turn 2 ==='), 'the script did not go on to turn 2');
});

test('the notation\'s and the engine\'s refusals reach the player: a card used twice, a short program, a power down while undamaged', async () => {
  // Ava starts undamaged, so the power down comes first.
  const { out } = await race({ seed: 1, turns: 3 }, ['pd 1 2 3 4 5', '1 1 2 3 4', '1 2 3']);
  const t1 = turnLines(out, 1), t2 = turnLines(out, 2), t3 = turnLines(out, 3);
  assert.ok(t1.some((l) => l.includes('Ava: only a damaged robot may power down')), t1.join('\n'));
  assert.ok(t2.some((l) => /^ {2}"1": card 1 \([A-Z0-9]+:\d+\) is used twice$/.test(l)), t2.join('\n'));
  assert.ok(t3.some((l) => l.includes('expected 5 entries, one per open register (1, 2, 3, 4, 5), found 3')), t3.join('\n'));
});

test('an interactive player is asked again after a mistake, and the corrected program is the one run', async () => {
  const lines = ['F9', '1 2 3 4 5'];
  const src: LineSource = { interactive: true, read: async () => lines.shift() ?? null };
  const { code, out } = await race({ seed: 1, turns: 1 }, src);
  assert.equal(code, 0);
  const t1 = turnLines(out, 1);
  assert.ok(t1.some((l) => l.includes('a card, not "F9"')));
  assert.ok(t1.includes('Try again:'));
  assert.ok(!t1.includes('  (playing random cards this turn)'));
  const hand = lastHand(out);
  const ran = revealed(t1, 'Ava');
  assert.deepEqual(ran, hand.slice(0, ran.length));
});

test('a scripted three-turn race tells five registers a turn, draws the board after each, and ends with the summary', async () => {
  const { code, out } = await race({ seed: 3, turns: 3 }, ['', '', '']);
  assert.equal(code, 0);
  const board = parseBoard(PLAY_BOARD);
  assert.ok(board.ok);
  const height = renderText(board.value, undefined, { devices: false }).split('\n').length;
  for (let t = 1; t <= 3; t++) {
    const lines = turnLines(out, t);
    for (let r = 1; r <= 5; r++) {
      const at = lines.indexOf(`--- Register ${r} ---`);
      assert.ok(at >= 0, `turn ${t} has no register ${r}`);
      // The register's story is followed by a drawing of the whole board.
      const next = lines.findIndex((l, k) => k > at && /^(---|===)/.test(l));
      assert.ok((next < 0 ? lines.length : next) - at > height, `turn ${t} register ${r} has no board`);
    }
  }
  const end = out.indexOf('=== Race over after 3 turns ===');
  assert.ok(end >= 0, 'no summary');
  assert.match(out[end + 1]!, /Turn limit reached|wins!|share first place|nobody wins/);
  assert.ok(out.slice(end).includes('Standings:'));
  assert.match(out[out.length - 1]!, /^ {2}\S.*flags \d\/3/);
});

test('the same seed and input give the same race, and another seed deals other cards', async () => {
  const script = ['1 2 3 4 5', 'F1 F1 R F2 L', ''];
  const a = await race({ seed: 42, turns: 3 }, script);
  const b = await race({ seed: 42, turns: 3 }, script);
  const c = await race({ seed: 43, turns: 3 }, script);
  assert.deepEqual(a.out, b.out);
  assert.notDeepEqual(lastHand(turnLines(a.out, 1)), lastHand(turnLines(c.out, 1)));
});

test('a player who announces a power down is asked whether to stay down, and a yes keeps the robot down', async () => {
  const { out, print } = capture();
  // Always try to power down; say yes when asked to stay down.
  const input = responsive(out, (o) => (o[o.length - 1]!.startsWith('Ava is powered down this turn. Stay') ? 'y' : 'pd'));
  await playRace({ seed: 2, turns: 40 }, input, print);
  const asked = out.findIndex((l) => l.startsWith('Ava is powered down this turn. Stay powered down next turn?'));
  assert.ok(asked >= 0, 'Ava never powered down in 40 turns');
  assert.ok(out.slice(0, asked).includes('Ava announces a power down for next turn'));
  assert.equal(out[asked + 1], '> y');
  assert.equal(out[asked + 2], 'Ava stays powered down next turn');
  // The next turn she is still down: asked again, dealt no hand, running no card.
  const turn = Number(/\d+/.exec(out.slice(0, asked).reverse().find((l) => l.startsWith('=== Turn'))!)![0]);
  const next = out.indexOf(`=== Turn ${turn + 1} ===`);
  if (next >= 0 && !out.slice(asked, next).some((l) => l.startsWith('Ava is destroyed'))) {
    const lines = turnLines(out, turn + 1);
    assert.ok(lines.some((l) => l.startsWith('Ava is powered down this turn. Stay')));
    assert.ok(!lines.some((l) => l.startsWith('Your hand:')));
    assert.deepEqual(revealed(lines, 'Ava'), []);
  }
});

test('a powered-down player may answer in the notation: "stay down" keeps the robot down, "power down" is refused with why', async () => {
  const { out, print } = capture();
  let asked = 0;
  const input = responsive(out, (o) => {
    if (!o[o.length - 1]!.startsWith('Ava is powered down this turn. Stay')) return 'pd';
    return asked++ === 0 ? 'power down' : 'stay down';
  });
  await playRace({ seed: 2, turns: 40 }, input, print);
  const first = out.findIndex((l) => l.startsWith('Ava is powered down this turn. Stay powered down next turn?'));
  assert.ok(first >= 0, 'Ava never powered down in 40 turns');
  // Scripted, a refused answer counts as no; the next time she is asked, "stay down" keeps her down.
  assert.equal(out[first + 1], '> power down');
  assert.match(out[first + 2]!, /is not an answer: .*your robot is powered down this turn: write "stay down"/);
  const second = out.findIndex((l, k) => k > first && l.startsWith('Ava is powered down this turn. Stay'));
  assert.ok(second >= 0, 'Ava powered down only once in 40 turns');
  assert.equal(out[second + 1], '> stay down');
  assert.equal(out[second + 2], 'Ava stays powered down next turn');
});

test('roborally play with piped input exits 0 and prints the board', () => {
  const res = spawnSync(process.execPath, ['bin/roborally.js', 'play', '--seed', '1', '--turns', '2'], {
    cwd: ROOT,
    input: 'F2 R F1 L U\n1 2 3 4 5\n',
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(res.status, 0, res.stderr);
  const board = parseBoard(PLAY_BOARD);
  assert.ok(board.ok);
  // The express belt's top row has no robot on it at the start: it is printed as renderText draws it.
  const row = renderText(board.value).split('\n').find((l) => l.includes('<<'))!;
  assert.ok(res.stdout.split('\n').includes(row), res.stdout);
  assert.match(res.stdout, /=== Turn 2 ===/);
  assert.match(res.stdout, /=== Race over after 2 turns ===/);
});

test('the README\'s scripted race plays the program it types, as typed (its "F2 R F1 L U" named a U-turn the hand of seed 7 lacks, and random cards were played)', () => {
  const line = readFileSync(`${ROOT}README.md`, 'utf8').split('\n').find((l) => l.includes('| npx roborally play'));
  const m = line && /printf '([^']*)' \| npx roborally play (.*?)\s+#/.exec(line);
  assert.ok(m, `the README's scripted play: ${line}`);
  const typed = m[1]!.split('\\n');
  const res = spawnSync(process.execPath, ['bin/roborally.js', 'play', ...m[2]!.split(/\s+/)], { cwd: ROOT, input: typed.join('\n'), encoding: 'utf8', timeout: 30_000 });
  assert.equal(res.status, 0, res.stderr);
  const out = res.stdout.split('\n');
  const at = out.indexOf(`> ${typed[0]}`);
  assert.ok(at >= 0, res.stdout);
  const program = typed[0]!.split(' ');
  assert.match(out[at + 1]!, new RegExp(`^Ava's program: ${program.map((c, k) => `${k + 1}:${c}:\\d+`).join('  ')}$`), out.slice(at, at + 3).join('\n'));
});

test('roborally play refuses a --bots count out of range with a non-zero exit', () => {
  const res = spawnSync(process.execPath, ['bin/roborally.js', 'play', '--bots', '9'], {
    cwd: ROOT,
    input: '',
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.notEqual(res.status, 0);
  assert.match(res.stderr, /--bots/);
});

test('the terminal reads the same orders as a mail: the two-wrench choice and option decisions go with the program', () => {
  const hand = ['R:80', 'F2:710', 'L:210', 'L:110', 'B:440', 'F3:830', 'F3:810', 'L:250', 'B:480'].map((c) => parseCard(c, true)!);
  const p = parseProgram('take option', hand, classic);
  assert.ok(p.ok);
  assert.deepEqual([p.value.orders.program, p.value.body.takeOption, p.value.body.choices], [[], true, undefined]);
  const q = parseProgram('shield back', hand, classic, { options: ['Shield'] });
  assert.ok(q.ok);
  assert.deepEqual(q.value.body.choices, { shield: 'back' });
  const r = parseProgram('shield back', hand, classic);
  assert.ok(!r.ok);
  assert.match(r.error.message, /you hold none/);
});

test("the bots' default names differ in their initials and none is a robot design's name (a bot called Bolt would race in another design's body on the server)", () => {
  const designs = new Set(ROBOT_DESIGNS.map((d) => d.name));
  for (const player of ['Ava', 'Bob', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal', 'Ida', 'Jo', 'Zed']) {
    const names = robotNames(player, MAX_BOTS);
    assert.equal(names.length, MAX_BOTS + 1, player);
    assert.equal(new Set(names.map((n) => n[0])).size, names.length, `${player}: initials ${names.join(' ')}`);
    assert.deepEqual(names.slice(1).filter((n) => designs.has(n)), [], player);
  }
});
