import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instruction, type CardType } from '../cards.js';
import type { GameEvent } from '../events.js';
import { beginTurn, playTurn, submitOrders } from '../turn.js';
import { createState, makeSetup } from '../game.js';
import { parseBoard } from '../board.js';
import type { Dir } from '../geometry.js';
import { narrateEvents } from './narrate.js';
import { formatTurnReport, turnReport } from './table.js';
import { awards, raceStats, startingPicks, type RobotStats } from './stats.js';

function must<T>(r: { ok: true; value: T } | { ok: false; error: { field: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
}

/** One pbem round from the given instructions (the robots in `down` announcing a power down), returning the report. */
function pbemRound(grid: string[], robots: { name: string; x: number; y: number; dir: Dir; lives?: number }[], programs: CardType[][], down: number[] = []) {
  const setup = must(makeSetup(must(parseBoard({ grid })), 'pbem'));
  const before = must(createState(setup, robots, 1));
  const begun = must(beginTurn(setup, before));
  let st = begun.state;
  const events: GameEvent[] = [...begun.events];
  programs.forEach((p, i) => {
    st.robots[i]!.hand = p.map(instruction);
    st = must(submitOrders(setup, st, i, { program: st.robots[i]!.hand, powerDown: down.includes(i) }));
  });
  const played = must(playTurn(setup, st));
  events.push(...played.events);
  return { report: turnReport(before, events), state: played.state, events };
}

const OPEN = ['. . . . .', '. . . . .', '. . . . .', '. . . . .', '. . . . .'];
/** Dale turns west and runs off the board in register 2; Ananta turns on the spot all turn. */
const offTheEdge = (dale: { lives?: number } = {}, down: number[] = []) =>
  pbemRound(OPEN, [{ name: 'Dale', x: 2, y: 1, dir: 0, ...dale }, { name: 'Ananta', x: 2, y: 3, dir: 2 }],
    [['L', 'F3', 'R', 'L', 'R'], ['L', 'R', 'L', 'R', 'U']], down);

test("the turn report writes 001's example row: a robot pushed south and then backing up reads S,B, pushed by Ananta", () => {
  // 001 L91-119: Ananta's F pushes Dale, whose B then runs; pushes are written as compass letters.
  const { report } = pbemRound(['. . . . .', '. . . . .', '. . . . .', '. . . . .', '. . . . .'],
    [{ name: 'Dale', x: 2, y: 1, dir: 0 }, { name: 'Ananta', x: 2, y: 0, dir: 2 }],
    [['B', 'L', 'R', 'L', 'R'], ['F1', 'L', 'R', 'L', 'R']]);
  const r1 = report.registers[0]!;
  const dale = r1.rows.find((r) => r.name === 'Dale')!;
  const ananta = r1.rows.find((r) => r.name === 'Ananta')!;
  assert.deepEqual(dale.move, ['S', 'B']);
  assert.ok(dale.notes.includes('pushed by Ananta'));
  assert.deepEqual(ananta.move, ['F']);
  assert.match(formatTurnReport(report), /Register 1\nDmg {2}Name {4}Move {2}Notes\n.*Dale {4}S,B {3}pushed by Ananta/);
});

test('the turn report writes belt moves as compass letters after the robot\'s own move, and damage at the end of the register', () => {
  const { report } = pbemRound(['. . . . .', '. . . . .', '. . > > .', '. . . . .', '. . . . .'],
    [{ name: 'Vicky', x: 2, y: 1, dir: 2 }],
    [['F1', 'L', 'L', 'L', 'L']]);
  assert.deepEqual(report.registers[0]!.rows[0]!.move, ['F', 'E']);
  assert.deepEqual(report.registers[1]!.rows[0]!.move, ['L', 'E']);
  assert.equal(report.registers[0]!.rows[0]!.dmg, 0);
});

test('the turn report notes shots, destruction and its cause', () => {
  const { report } = pbemRound(['. . . . .', '. . . . .', '. . . . .', '. . . . .', '. . . . .'],
    [{ name: 'A', x: 0, y: 2, dir: 1 }, { name: 'B', x: 4, y: 2, dir: 1 }],
    [['L', 'R', 'L', 'R', 'L'], ['F1', 'L', 'L', 'L', 'L']]);
  const r1 = report.registers[0]!;
  assert.ok(r1.rows.find((r) => r.name === 'B')!.notes.includes('fell off the board'));
  assert.equal(r1.rows.find((r) => r.name === 'A')!.notes.length, 0);
});

test('a robot that announced a power down and is destroyed later in the turn is reported with the power down cancelled', () => {
  // 001 L75 "If you announce a power down for the next round but get destroyed before then, the power down command is cancelled."
  const { report, state, events } = offTheEdge({}, [0]);
  assert.equal(state.robots[0]!.announced, false, 'the engine cancels it');
  assert.deepEqual(events.filter((e) => e.type === 'powerDownCancelled'), [{ type: 'powerDownCancelled', robot: 0 }]);
  assert.deepEqual(report.start, ['Dale announces a power down for next turn']);
  const dale = report.registers[1]!.rows.find((r) => r.name === 'Dale')!;
  assert.deepEqual(dale.notes.slice(0, 2), ['fell off the board', 'power down for next turn is cancelled']);
  assert.match(formatTurnReport(report), /Dale +F3 +fell off the board; power down for next turn is cancelled/);
  // The narration a register at a time (the CLI's, the web's replay) tells it in the register it happens.
  const second = events.slice(events.findIndex((e) => e.type === 'registerBegan' && e.register === 2), events.findIndex((e) => e.type === 'registerBegan' && e.register === 3));
  assert.ok(narrateEvents(second, { names: ['Dale', 'Ananta'] }).includes("Dale's power down for next turn is cancelled"));
});

test('a robot destroyed in a register is told once, out for the rest of the turn, with no rows in the registers after', () => {
  const { report } = offTheEdge();
  assert.deepEqual(report.registers.map((reg) => reg.rows.map((r) => r.name)), [['Dale', 'Ananta'], ['Dale', 'Ananta'], ['Ananta'], ['Ananta'], ['Ananta']]);
  assert.deepEqual(report.registers[1]!.rows[0]!.notes, ['fell off the board', 'out for the rest of the turn']);
  const text = formatTurnReport(report);
  assert.equal(text.match(/Dale/g)!.length, 2, text);
  // On its last life it is out of the race, and said so instead.
  const last = offTheEdge({ lives: 1 }).report;
  assert.deepEqual(last.registers[1]!.rows[0]!.notes, ['fell off the board', 'out of the race']);
  assert.deepEqual(last.registers[2]!.rows.map((r) => r.name), ['Ananta']);
});

const stat = (name: string, o: Partial<RobotStats>): RobotStats => ({
  name, damageDealt: 0, damageTaken: 0, kills: 0, falls: 0, deaths: 0, powerDowns: 0, questionable: 0, flags: 0, place: null, ...o,
});

test('statistics credit laser damage to the shooter and a push to doom as a kill worth 3 damage, and count every destruction as a death', () => {
  // 001 L337 "pushing a player and causing them to die counts as 3 damage. The last person to
  // directly push a robot is credited with the kill. A kill is not recorded if a robot dies of its own accord"
  const events: GameEvent[] = [
    { type: 'shot', robot: 1, by: { robot: 0 }, points: 1, from: [0, 0], to: [0, 3] },
    { type: 'damaged', robot: 1, points: 1, damage: 1 },
    { type: 'shot', robot: 0, by: { laser: 0 }, points: 2, from: [0, 0], to: [0, 1] },
    { type: 'damaged', robot: 0, points: 2, damage: 2 },
    { type: 'destroyed', robot: 1, cause: 'pit', pushedBy: { robot: 0 }, lives: 2 },
    { type: 'destroyed', robot: 0, cause: 'edge', pushedBy: null, lives: 2 },
    { type: 'destroyed', robot: 1, cause: 'pit', pushedBy: { pusher: 0 }, lives: 1 },
    { type: 'destroyed', robot: 0, cause: 'damage', pushedBy: null, lives: 1 },
    { type: 'destroyed', robot: 1, cause: 'crusher', pushedBy: null, lives: 0 },
    { type: 'poweredDown', robot: 1 },
    { type: 'programmed', robot: 1, filled: [{ register: 2, reason: 'missing' }, { register: 3, reason: 'illegal' }, { register: 4, reason: 'chosen' }] },
    { type: 'flagTouched', robot: 0, flag: 1 },
    { type: 'finished', robot: 0, place: 1 },
  ];
  const [a, b] = raceStats(['A', 'B'], events);
  assert.deepEqual(a, stat('A', { damageDealt: 1 + 3, damageTaken: 2, kills: 1, falls: 1, deaths: 2, flags: 1, place: 1 }));
  assert.deepEqual(b, stat('B', { damageTaken: 1, falls: 2, deaths: 3, powerDowns: 1, questionable: 2 }));
});

test("awards go to the least and most of each statistic, shared on a tie, in 001's order", () => {
  const list = awards([stat('A', { damageDealt: 5, damageTaken: 1 }), stat('B', { damageDealt: 0, damageTaken: 4, falls: 2 }), stat('C', { damageDealt: 0, damageTaken: 4 })]);
  assert.equal(list.length, 11, 'none for the most kills, power downs or questionable moves: nobody has any');
  const by = Object.fromEntries(list.map((a) => [a.award, a.robots]));
  assert.deepEqual(by['Pacifist robot'], ['B', 'C']);
  assert.deepEqual(by['Terminator robot'], ['A']);
  assert.deepEqual(by['Clumsy robot'], ['B']);
  assert.deepEqual(by['Ace robot'], ['A']);
  assert.deepEqual(by['Scrap robot'], ['B', 'C']);
});

test('an award for the most of something nobody did goes to nobody; the least of it, and the damage record, to all when all tie', () => {
  // Nobody powered down, fell, pushed a robot to its doom or made a questionable move.
  const list = awards([stat('A', { damageDealt: 2, damageTaken: 2 }), stat('B', { damageDealt: 2, damageTaken: 2 })]);
  const by = Object.fromEntries(list.map((a) => [a.award, a.robots]));
  for (const none of ['Shover robot', 'Clumsy robot', 'Hibernating robot', 'Confused robot']) assert.equal(by[none], undefined, none);
  assert.deepEqual(by['Terminator robot'], ['A', 'B']);
  assert.deepEqual(by['Swiss cheese robot'], ['A', 'B']);
  assert.deepEqual(by['Energizer robot'], ['A', 'B']);
  assert.deepEqual(by['Ace robot'], ['A', 'B'], 'a record of 0 is still the best record');
  assert.equal(list.length, 10);
  assert.ok(list.every((a) => a.robots.length > 0), 'no award names nobody');
});

test('starting picks: winner, then the most damage, then the other finishers, then by flags, newcomers last', () => {
  // 001 L333-351
  const stats = [
    stat('Third', { place: 3, flags: 3 }),
    stat('Winner', { place: 1, flags: 3 }),
    stat('Slow', { flags: 2 }),
    stat('Brute', { damageDealt: 12, flags: 0 }),
    stat('Second', { place: 2, flags: 3, damageDealt: 5 }),
    stat('Slower', { flags: 1 }),
  ];
  assert.deepEqual(startingPicks(stats, ['New'], 1), ['Winner', 'Brute', 'Second', 'Third', 'Slow', 'Slower', 'New']);
});

test('starting picks pass over a finisher who already picked for the damage pick', () => {
  const stats = [stat('Winner', { place: 1, damageDealt: 9 }), stat('Next', { damageDealt: 4 }), stat('Last', {})];
  assert.deepEqual(startingPicks(stats, [], 1), ['Winner', 'Next', 'Last']);
});
