/** Setting a race up and ending it: teams, handicaps, playing on, RoboArena, the starting facing, limits. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBoard } from './board.js';
import { arenaStarts, chooseFacing, makeSetup, newRace } from './game.js';
import { formatStandings, raceOver, seriesStandings, standings, type Standing } from './ending.js';
import { parseSettings, type Settings } from './settings.js';
import { beginTurn, submitOrders } from './turn.js';
import { at, card, must, ofType, race, robot, turn } from './testing.js';
import type { GameState } from './state.js';

const ROW = ['. . . . . .', '. . . . . .'];
const FLAGS = { grid: ROW, flags: [[2, 0] as [number, number]] };

/** A race where A finishes in the first register of turn 1; B and C race on. */
function finishing(settings: Settings) {
  const g = race(FLAGS, [
    { name: 'A', x: 1, y: 0, dir: 'E' },
    { name: 'B', x: 0, y: 1, dir: 'N', archive: [0, 1] },
    { name: 'C', x: 5, y: 1, dir: 'N', archive: [5, 1] },
  ], { settings });
  return turn(g, { programs: { A: ['F1:490'] } });
}

test('without playOn a classic race ends at the first finish (000 L76 "The game can end when the winner has touched the last flag")', () => {
  const g = finishing({});
  assert.equal(raceOver(g.setup, g.state), true);
});

test('playOn: true plays on for the runners-up until every robot has finished or is out (000 L76, 004 L103)', () => {
  // 000 L76 "or play can continue to determine runners-up"; 004 L103 "The game may continue as long as desired to determine runners-up."
  let g = finishing({ playOn: true });
  assert.equal(raceOver(g.setup, g.state), false);
  g = turn(g, { programs: { B: ['F1:490', 'R:80'] } }); // B: (0,1) to (0,0), then faces E
  assert.equal(raceOver(g.setup, g.state), false);
  g = turn(g, { programs: { B: ['F2:670'] } }); // B to (2,0): second
  assert.deepEqual(ofType(g.events, 'finished').map((e) => [robot(g, 'B').name, e.place]), [['B', 2]]);
  assert.equal(raceOver(g.setup, g.state), false); // C still racing
  const out: GameState = { ...g.state, robots: g.state.robots.map((r) => (r.name === 'C' ? { ...r, status: 'out' as const } : r)) };
  assert.equal(raceOver(g.setup, out), true);
});

test('playOn: N plays N turns after the turn of the first finish', () => {
  let g = finishing({ playOn: 2 });
  assert.equal(raceOver(g.setup, g.state), false);
  g = turn(g);
  assert.equal(raceOver(g.setup, g.state), false);
  g = turn(g);
  assert.equal(raceOver(g.setup, g.state), true);
});

test('teams: a team wins when the first of its robots finishes, and the standings list teams (000 L21 "playing independently or on teams")', () => {
  const g = finishing({ playOn: true, teams: { Red: ['A', 'C'] } });
  const s = standings(g.setup, g.state);
  assert.deepEqual(s.map((x) => [x.place, x.name, x.team, x.finished]), [[1, 'Red', true, true], [2, 'B', false, false]]);
  assert.deepEqual(formatStandings(g.setup, g.state), ['1. Red (A, C)', '2. B: 0 flags']);
  // Red has placed, so with play on the race is over once B is placed too
  assert.equal(raceOver(g.setup, g.state), false);
  const bOut: GameState = { ...g.state, robots: g.state.robots.map((r) => (r.name === 'B' ? { ...r, status: 'out' as const } : r)) };
  assert.equal(raceOver(g.setup, bOut), true);
});

test('teams are refused when they name a robot not in the race, or one robot twice', () => {
  const board = must(parseBoard(FLAGS));
  const setup = must(makeSetup(board, 'classic', { teams: { Red: ['A', 'Zed'] } }));
  const r = newRace(setup, [{ name: 'A', start: [0, 0] }, { name: 'B', start: [0, 1] }], 1);
  assert.equal(r.ok, false);
  assert.match(!r.ok ? `${r.error.field}: ${r.error.message}` : '', /settings\.teams\.Red: no robot named "Zed"/);
  const twice = parseSettings({ teams: { Red: ['A'], Blue: ['A'] } }, 1);
  assert.equal(twice.ok, false);
});

test('standings: finishers by place, then the others by flags touched, robots still in before robots out; ties share a place', () => {
  const g = race({ grid: ROW, flags: [[2, 0], [4, 0]] }, [
    { name: 'A', x: 0, y: 0, dir: 'E', flags: 1 },
    { name: 'B', x: 0, y: 1, dir: 'E', flags: 1 },
    { name: 'C', x: 1, y: 1, dir: 'E' },
  ]);
  const st: GameState = { ...g.state, finished: [[2]], robots: g.state.robots.map((r) => (r.name === 'B' ? { ...r, status: 'out' as const } : r)) };
  assert.deepEqual(standings(g.setup, st).map((s) => [s.place, s.name]), [[1, 'C'], [2, 'A'], [3, 'B']]);
  const tie = { ...g.state, finished: [] };
  assert.deepEqual(standings(g.setup, tie).map((s) => [s.place, s.name]), [[1, 'A'], [1, 'B'], [3, 'C']]);
});

test('handicaps per seat: options, lives, damage and a start position of its own (004 L174 "You may also use the options to handicap players")', () => {
  const board = must(parseBoard({ grid: ROW, flags: [[2, 0]], start: [0, 0] }));
  const setup = must(makeSetup(board, 'classic', {}));
  const st = must(newRace(setup, [
    { name: 'A', options: ['Brakes'], lives: 2, damage: 3 },
    { name: 'B', start: [5, 1] },
  ], 1));
  assert.deepEqual(st.robots.map((r) => [r.name, r.options, r.lives, r.damage, r.x, r.y, r.virtual]), [
    ['A', ['Brakes'], 2, 3, 0, 0, false],
    ['B', [], 3, 0, 5, 1, false],
  ]);
  assert.ok(!st.optionDeck.includes('Brakes'), 'a handicap option is taken out of the option deck');
  const bad = newRace(setup, [{ name: 'A', damage: 10 }], 1);
  assert.equal(bad.ok, false);
  // A start of its own off the board is refused by the entrant's start, not by a robot's x.
  const off = newRace(setup, [{ name: 'A' }, { name: 'B', start: [99, 0] }], 1);
  assert.deepEqual(off.ok ? null : off.error.field, 'entrants[1].start');
});

test('the starting facing is chosen once the first hand is dealt, and only in the first turn (002 L38-39, 000 L56)', () => {
  // 002 L38-39 "Each player decides on the direction the robot faces to start once the first hand is dealt."
  const board = must(parseBoard({ grid: ROW, flags: [[2, 0]], start: [0, 0] }));
  const setup = must(makeSetup(board, 'classic', {}));
  const fresh = must(newRace(setup, [{ name: 'A' }], 1));
  assert.equal(chooseFacing(setup, fresh, 0, 1).ok, false, 'not before the deal');
  const dealt = must(beginTurn(setup, fresh)).state;
  assert.ok(dealt.robots[0]!.hand.length > 0);
  const faced = must(chooseFacing(setup, dealt, 0, 2));
  assert.equal(faced.state.robots[0]!.dir, 2);
  assert.deepEqual(faced.events, [{ type: 'faced', robot: 0, dir: 2 }]);
  assert.equal(dealt.robots[0]!.dir, 0, 'the input state is unchanged');
});

test('RoboArena starts the robots in the corners, facing inward (004 L217 "4 robots starting on the 4 corners")', () => {
  const board = must(parseBoard({ grid: ['O . . . .', '. . . . .', '. . . . .', '. . . . .'], start: [2, 2] }));
  assert.deepEqual(arenaStarts(board, 6), [[1, 0], [4, 0], [4, 3], [0, 3], [2, 0], [4, 1]]);
  const setup = must(makeSetup(board, 'classic', { variant: 'arena' }));
  const st = must(newRace(setup, ['A', 'B', 'C', 'D'].map((name) => ({ name })), 1));
  assert.deepEqual(st.robots.map((r) => [r.x, r.y, r.dir, r.virtual]), [[1, 0, 2, false], [4, 0, 3, false], [4, 3, 3, false], [0, 3, 1, false]]);
});

test('RoboArena ends with the last robot standing, or at the turn limit the race sets (004 L217)', () => {
  const g = race(FLAGS, [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 5, y: 1, dir: 'W' }], { settings: { variant: 'arena', turnLimit: 3 } });
  assert.equal(raceOver(g.setup, g.state), false);
  const atLimit: GameState = { ...g.state, turn: 3 };
  assert.equal(raceOver(g.setup, atLimit), true);
  const s = standings(g.setup, atLimit);
  assert.deepEqual(s.map((x) => [x.place, x.name]), [[1, 'A'], [1, 'B']]);
  assert.deepEqual(formatStandings(g.setup, atLimit), ['1. A: 3 lives left', '1. B: 3 lives left']);
  const refused = parseSettings({ variant: 'arena', infiniteLives: true }, 0);
  assert.equal(refused.ok, false);
  assert.match(!refused.ok ? refused.error.field : '', /turnLimit/);
});

test('noShutdowns: no power-down announcement and no re-entry powered down (004 L217 "no shut-downs")', () => {
  const g = race(FLAGS, [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 3 }, { name: 'B', x: 5, y: 1, dir: 'W', destroyed: true, archive: [5, 1] }], { settings: { noShutdowns: true } });
  const begun = must(beginTurn(g.setup, g.state, { 1: { poweredDown: true } }));
  assert.equal(begun.state.robots[1]!.poweredDown, false);
  const st = begun.state;
  st.robots[0]!.hand = ['F1:490', 'F1:500', 'F1:510', 'F1:520', 'F1:530'].map(card);
  const r = submitOrders(g.setup, st, 0, { program: st.robots[0]!.hand.slice(), powerDown: true });
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error.message : '', /no shut-downs/);
});

test('maxOptions: a robot at its limit draws no option at a two-wrench site and repairs instead (004 L217 "restrictions on options")', () => {
  const g = race({ grid: ['WW . .'] }, [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 3, options: ['Brakes'] }], { settings: { maxOptions: 1 } });
  const t = turn(g, { programs: { A: ['-'] }, orders: { A: { takeOption: true } } });
  assert.deepEqual(robot(t, 'A').options, ['Brakes']);
  assert.equal(robot(t, 'A').damage, 1);
  const free = race({ grid: ['. . .'] }, [{ name: 'A', x: 0, y: 0, dir: 'E' }], { settings: { oneFreeOption: true, maxOptions: 0 } });
  assert.deepEqual(robot(free, 'A').options, []);
});

test('turnLimit ends any race after that turn', () => {
  const g = race(FLAGS, [{ name: 'A', x: 0, y: 1, dir: 'N' }], { settings: { turnLimit: 1 } });
  assert.equal(raceOver(g.setup, g.state), false);
  assert.equal(raceOver(g.setup, turn(g).state), true);
});

test('a series keeps standings across races: points for the robots placed behind, then wins; a player missing a race has no place there', () => {
  const line = (place: number, name: string): Standing => ({ place, name, team: false, robots: [], finished: place === 1, flags: 0, lives: 0, out: false });
  const s = seriesStandings([
    { standings: [line(1, 'Ava'), line(2, 'Bob'), line(3, 'Cy')] },
    { standings: [line(1, 'Bob'), line(2, 'Ava'), line(2, 'Dee')] },
  ]);
  assert.deepEqual(s.map((l) => [l.place, l.name, l.points, l.wins, l.places]), [
    [1, 'Bob', 5, 1, [2, 1]],
    [2, 'Ava', 4, 1, [1, 2]],
    [3, 'Cy', 1, 0, [3, null]],
    [3, 'Dee', 1, 0, [null, 2]],
  ]);
});

test('standings by robot even when the race has teams (for a series)', () => {
  const g = finishing({ teams: { Red: ['A', 'C'] } });
  assert.deepEqual(standings(g.setup, g.state, { byTeam: false }).map((x) => [x.place, x.name]), [[1, 'A'], [2, 'B'], [2, 'C']]);
});

// Per rule of set-up and ending, each citing its source. Teams: 000 L21 names them and gives no rule;
// the project's reading is docs/rules.md (`teams`): a team wins when the first of its robots finishes.

test('teams: each robot touches its own flags in its own order, a teammate\'s touch counts for it alone (RULES.md L92-93 "the flag is the next in its order")', () => {
  // A touches flag 1; its teammate C stands on flag 2 with none touched: flag 2 is not next in C's order.
  const g = turn(race({ grid: ROW, flags: [[2, 0], [4, 0]] }, [
    { name: 'A', x: 1, y: 0, dir: 'E' },
    { name: 'C', x: 4, y: 0, dir: 'N' },
  ], { settings: { teams: { Red: ['A', 'C'] } } }), { programs: { A: ['F1:490'] } });
  assert.deepEqual(ofType(g.events, 'flagTouched').map((e) => [g.state.robots[e.robot]!.name, e.flag]), [['A', 1]]);
  assert.deepEqual([robot(g, 'A').flags, robot(g, 'C').flags], [1, 0]);
  // The team's line shows its best robot's flags, not the sum.
  assert.deepEqual(standings(g.setup, g.state).map((s) => [s.name, s.flags]), [['Red', 1]]);
});

test('teams: without playOn a classic race ends when a team\'s first robot finishes, its teammate still short of the flags (docs/rules.md `teams`; 000 L76)', () => {
  const g = finishing({ teams: { Red: ['B', 'A'] } });
  assert.deepEqual(ofType(g.events, 'finished').map((e) => [g.state.robots[e.robot]!.name, e.place]), [['A', 1]]);
  assert.equal(raceOver(g.setup, g.state), true);
  assert.deepEqual(formatStandings(g.setup, g.state), ['1. Red (A, B)', '2. C: 0 flags']);
});

test('several robots for one player (000 L40 "Each of the players controls one or more robots"): each robot has its own hand and its own program, played at its own priority', () => {
  // The engine knows robots, not players: two robots of one player are programmed one by one.
  const g0 = race(FLAGS, [{ name: 'Ava1', x: 0, y: 1, dir: 'E' }, { name: 'Ava2', x: 3, y: 1, dir: 'W' }]);
  const dealt = must(beginTurn(g0.setup, g0.state)).state;
  assert.equal(dealt.robots[0]!.hand.length, 9);
  assert.equal(dealt.robots[1]!.hand.length, 9);
  assert.equal(dealt.robots[0]!.hand.filter((c) => dealt.robots[1]!.hand.includes(c)).length, 0, 'no card dealt to both');
  // Ava2's F2 (670) runs first, to (1,1); then Ava1's F1 (490) enters (1,1) and pushes Ava2 on east.
  const g = turn(g0, { programs: { Ava1: ['F1:490'], Ava2: ['F2:670'] }, registers: 1 });
  assert.deepEqual([at(g, 'Ava1'), at(g, 'Ava2')], [[1, 1, 'E'], [2, 1, 'W']]);
  assert.deepEqual(ofType(g.events, 'pushed').map((e) => [g.state.robots[e.robot]!.name, e.to]), [['Ava2', [2, 1]]]);
});

test('handicap damage: the robot is dealt fewer cards from the first turn, 9 − damage in classic and 10 − ⌊damage / 2⌋ in pbem (004 L174; RULES.md L107)', () => {
  const board = must(parseBoard({ grid: ROW, flags: [[2, 0]], start: [0, 0] }));
  for (const [rules, damage, cards] of [['classic', 3, 6], ['pbem', 5, 8]] as const) {
    const setup = must(makeSetup(board, rules, {}));
    const st = must(newRace(setup, [{ name: 'A', damage, start: [0, 0] }, { name: 'B', start: [5, 1] }], 1));
    const dealt = must(beginTurn(setup, st)).state;
    assert.deepEqual(dealt.robots.map((r) => r.hand.length), [cards, rules === 'classic' ? 9 : 10], rules);
  }
});

test('handicap lives: a robot given one life is out of the race at its first destruction, the others re-enter (004 L174; RULES.md L139-140 "Out of the game when the last life is lost")', () => {
  const board = must(parseBoard({ grid: ROW, flags: [[2, 0]] }));
  const setup = must(makeSetup(board, 'classic', {}));
  const st = must(newRace(setup, [{ name: 'A', lives: 1, start: [0, 0], dir: 3 }, { name: 'B', start: [0, 1], dir: 3 }], 1));
  const g = turn({ setup, state: st, events: [] }, { programs: { A: ['F1:490'], B: ['F1:500'] }, registers: 1 });
  assert.deepEqual([at(g, 'A'), at(g, 'B')], ['out', 'destroyed']);
  assert.deepEqual([robot(g, 'A').lives, robot(g, 'B').lives], [0, 2]);
});

test('handicap options in pbem: the robot holds its upgrades from the start (004 L174 "use the options to handicap players")', () => {
  const board = must(parseBoard({ grid: ROW, flags: [[2, 0]] }));
  const setup = must(makeSetup(board, 'pbem', {}));
  const st = must(newRace(setup, [{ name: 'A', options: ['Brakes'], start: [0, 0] }, { name: 'B', start: [5, 1] }], 1));
  assert.deepEqual(st.robots.map((r) => r.options), [['Brakes'], []]);
});

test('pbem without playOn plays five more rounds after the first finish, then ends (001 L331 "the race will continue for five more rounds"; RULES.md L101)', () => {
  let g = race(FLAGS, [{ name: 'A', x: 1, y: 0, dir: 'E' }, { name: 'B', x: 0, y: 1, dir: 'N', archive: [0, 1] }], { rules: 'pbem' });
  g = turn(g, { programs: { A: ['F1', 'L', 'R', 'L', 'R'] } });
  assert.deepEqual(ofType(g.events, 'finished').map((e) => e.place), [1]);
  for (let k = 1; k <= 5; k++) {
    assert.equal(raceOver(g.setup, g.state), false, `round ${k} after the finish is still to play`);
    g = turn(g);
  }
  assert.equal(raceOver(g.setup, g.state), true);
});

test('play on: robots finishing in the same register share the next place, and the standings list them so (000 L76 "play can continue to determine runners-up"; RULES.md L100-101 "robots that do so in the same register share the place")', () => {
  // A finished in turn 1; B and C, virtual on one square, drive onto the flag in one register.
  const g0 = race({ grid: ['. . . . . .', '. . . . . .', '. . . . . .'], flags: [[2, 1]] }, [
    { name: 'A', x: 5, y: 0, dir: 'N', flags: 1 },
    { name: 'B', x: 1, y: 1, dir: 'E', virtual: true },
    { name: 'C', x: 1, y: 1, dir: 'E', virtual: true },
    { name: 'D', x: 5, y: 2, dir: 'N' },
  ], { settings: { playOn: true } });
  const g = turn({ ...g0, state: { ...g0.state, finished: [[0]], winTurn: 1 } }, { programs: { B: ['F1:490'], C: ['F1:500'] }, registers: 1 });
  assert.deepEqual(ofType(g.events, 'finished').map((e) => [g.state.robots[e.robot]!.name, e.place]), [['B', 2], ['C', 2]]);
  assert.deepEqual(standings(g.setup, g.state).map((s) => [s.place, s.name]), [[1, 'A'], [2, 'B'], [2, 'C'], [4, 'D']]);
  assert.equal(raceOver(g.setup, g.state), false, 'D races on');
});

test('RoboArena: a robot ending a register on a flag touches nothing (004 L192 "A variant played with no flags")', () => {
  const g = turn(race(FLAGS, [{ name: 'A', x: 1, y: 0, dir: 'E' }, { name: 'B', x: 5, y: 1, dir: 'N' }], { settings: { variant: 'arena' } }), { programs: { A: ['F1:490'] } });
  assert.deepEqual(at(g, 'A'), [2, 0, 'E']);
  assert.deepEqual(ofType(g.events, 'flagTouched'), []);
  assert.equal(robot(g, 'A').flags, 0);
  assert.equal(raceOver(g.setup, g.state), false);
});

test('RoboArena ends when one robot is left standing, placed first; the others by when they went out, the last out first (004 L192 "the object is simply to eliminate all of the other robots")', () => {
  let g = race({ grid: ['. . . . . .', '. . . . . .', '. . . . . .'] }, [
    { name: 'A', x: 0, y: 0, dir: 'W', lives: 1 },
    { name: 'B', x: 0, y: 2, dir: 'W', lives: 1 },
    { name: 'C', x: 3, y: 1, dir: 'N' },
  ], { settings: { variant: 'arena' } });
  g = turn(g, { programs: { A: ['F1:490'] } }); // A drives off the floor: out
  assert.deepEqual(at(g, 'A'), 'out');
  assert.equal(raceOver(g.setup, g.state), false, 'two robots still stand');
  g = turn(g, { programs: { B: ['F1:490'] } });
  assert.deepEqual(ofType(g.events, 'finished').map((e) => [g.state.robots[e.robot]!.name, e.place]), [['C', 1]]);
  assert.equal(raceOver(g.setup, g.state), true);
  assert.deepEqual(formatStandings(g.setup, g.state), ['1. C: last standing', '2. B: out', '3. A: out']);
});
