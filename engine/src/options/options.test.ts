/**
 * The option rules a scenario cannot show: reading decisions, the option deck, hands (Recompile,
 * the fill of pbem's upgrade codes), the bookkeeping of Secret Options and Fire Control markers.
 * Each option's effect on the floor is checked by the scenarios (scenarios/options).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instruction, upgradeCode } from '../cards.js';
import { createState, makeSetup } from '../game.js';
import { parseBoard } from '../board.js';
import { beginTurn, fillProgram, playRegister, recompile, submitOrders } from '../turn.js';
import { end, must, ofType, program, race, robot, turn } from '../testing.js';
import { OPTION_CARDS } from './catalog.js';
import { parseChoices } from './choices.js';

const open5 = ['. . . . .', '. . . . .', '. . . . .'];

test('parseChoices names the key and what it expects, and refuses a decision about an option the robot does not hold', () => {
  // OPTIONS.md 1.4 "A choice naming an option the robot does not hold is an input error."
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N', options: ['Shield', 'Fire Control'] }]);
  const r = g.state.robots[0]!;
  const read = (v: unknown) => parseChoices(v, g.setup, r);
  assert.deepEqual(must(read({ shield: 'left', fireControl: { 2: 'lock:3,4' } })), {
    shield: 3, fireControl: { 2: [{ kind: 'lock', register: 3 }, { kind: 'lock', register: 4 }] },
  });
  const refusal = (v: unknown) => {
    const res = read(v);
    assert.equal(res.ok, false);
    return res.ok ? null : res.error;
  };
  assert.deepEqual(refusal({ gyro: true }), { field: 'choices.gyro', message: 'A does not hold Gyroscopic Stabilizer' });
  assert.equal(refusal({ shield: 'up' })!.field, 'choices.shield');
  assert.equal(refusal({ active: ['Pressor Beam'] })!.field, 'choices.active'); // a pbem key in classic
  assert.equal(refusal({ weapon: { 6: 'Tractor Beam' } })!.field, 'choices.weapon.6');
  assert.equal(refusal({ exchange: ['Brakes'] })!.field, 'choices.exchange[0]');
  assert.equal(refusal({ chopShop: { register: 2, draw: true } })!.field, 'choices.chopShop.draw');
});

test('a register key is the digit alone, and a shield side a string: "0x3", "3.0", " 3" and ["back"] are refused', () => {
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N', options: ['Shield', 'Fire Control', 'Tractor Beam'] }]);
  const read = (v: unknown) => parseChoices(v, g.setup, g.state.robots[0]!);
  for (const key of ['0x3', '3.0', ' 3', '03', '3 ']) {
    assert.deepEqual(read({ weapon: { [key]: 'Tractor Beam' } }), { ok: false, error: { field: `choices.weapon.${key}`, message: 'expected a register number 1 to 5 as the key' } });
    assert.equal(read({ fireControl: { [key]: 'damage' } }).ok, false, key);
  }
  assert.deepEqual(must(read({ weapon: { 3: 'Tractor Beam' } })), { weapon: { 3: 'Tractor Beam' } });
  assert.equal(read({ shield: ['back'] }).ok, false);
  assert.deepEqual(must(read({ shield: 'back' })), { shield: 2 });
});

test('decisions are bounded: damage thresholds up to the damage that destroys, at most 5 registers, names of at most 64 characters, no unknown key', () => {
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N', options: ['Brakes', 'Shield'] }]);
  const read = (v: unknown) => parseChoices(v, g.setup, g.state.robots[0]!);
  const field = (v: unknown) => {
    const r = read(v);
    return r.ok ? null : r.error.field;
  };
  // 000 L207: the tenth point of damage destroys a classic robot.
  assert.deepEqual(must(read({ takeOption: { ifDamageAtMost: 10 } })), { takeOption: { ifDamageAtMost: 10 } });
  for (const n of [11, 2 ** 31, 2 ** 53, 1e308, -1, 1.5]) {
    assert.equal(field({ takeOption: { ifDamageAtMost: n } }), 'choices.takeOption', String(n));
    assert.equal(field({ takeOption: { ifDamageAtLeast: n } }), 'choices.takeOption', String(n));
  }
  assert.equal(field({ brakes: [1, 2, 3, 4, 5, 1] }), 'choices.brakes');
  assert.deepEqual(must(read({ brakes: [1, 2] })), { brakes: [1, 2] });
  const long = read({ lose: 'B'.repeat(65) });
  assert.ok(!long.ok && long.error.field === 'choices.lose' && long.error.message.length < 100, JSON.stringify(long));
  assert.equal(field({ exchange: ['Brakes', 'Shield', 'Brakes'] }), 'choices.exchange', 'more than the robot holds');
  assert.equal(field({ chopShop: { register: 'end', draw: true, extra: 1 } }), 'choices.chopShop');
  const card = read({ flywheel: 'F'.repeat(10_000) });
  assert.ok(!card.ok && card.error.message.length < 100, 'a long card is not echoed');
  // 001 L297: 22 damage destroys a pbem robot.
  const p = race(open5, [{ name: 'P', x: 1, y: 1, dir: 'N', options: ['Circuit Breaker'] }], { rules: 'pbem' });
  const breaker = (n: unknown) => parseChoices({ circuitBreaker: n }, p.setup, p.state.robots[0]!);
  assert.deepEqual(must(breaker(22)), { circuitBreaker: 22 });
  for (const n of [0, 23, 2 ** 53, 1e308, 1.5]) assert.equal(breaker(n).ok, false, String(n));
});

test('a decision may name a card with uses as it is written in the robot\'s options ("Mini Howitzer:3")', () => {
  // OPTIONS.md 1.4 "Cards with uses are written NAME:LEFT in a robot's options"
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N', options: ['Mini Howitzer:3', 'Fire Control'] }]);
  const c = must(parseChoices({ lose: 'Mini Howitzer:3', exchange: ['Mini Howitzer:3'], fireControl: { 1: 'option:Mini Howitzer:2' } }, g.setup, g.state.robots[0]!));
  assert.deepEqual([c.lose, c.exchange, c.fireControl], ['Mini Howitzer', [{ option: 'Mini Howitzer' }], { 1: [{ kind: 'option', option: 'Mini Howitzer' }] }]);
});

test('the option deck holds each card once, the setting\'s cards on top, none a robot starts with', () => {
  // OPTIONS.md 1.1 "each card exists once ... Cards that robots hold at the start are not in the deck."
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N', options: ['Brakes'] }], { settings: { optionDeck: ['Shield', 'Recompile'] } });
  const deck = g.state.optionDeck;
  assert.deepEqual(deck.slice(0, 2), ['Shield', 'Recompile']);
  assert.equal(deck.length, OPTION_CARDS.length - 1);
  assert.ok(!deck.includes('Brakes'));
  assert.equal(new Set(deck).size, deck.length);
});

test('One Free Option deals each robot the top option as the race is made', () => {
  // 004 L188 "At the beginning of the game, each player draws a free option."
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N' }, { name: 'B', x: 3, y: 1, dir: 'N' }], { settings: { oneFreeOption: true, optionDeck: ['Shield', 'Recompile'] } });
  assert.deepEqual(g.state.robots.map((r) => r.options), [['Shield'], ['Recompile']]);
});

test('an option drawn at a two-wrench site works only from the next turn; with the deck empty the robot repairs instead', () => {
  // OPTIONS.md 1.1 "A new option works from the next turn on." "If the deck is empty, the robot repairs 2 instead"
  const g = race(['. WW .'], [{ name: 'A', x: 1, y: 0, dir: 'N', damage: 3 }], { settings: { optionDeck: ['Shield'] } });
  const t1 = turn(g, { programs: { A: [] }, orders: { A: { takeOption: true } } });
  assert.deepEqual(robot(t1, 'A').options, ['Shield']);
  assert.deepEqual(robot(t1, 'A').opt!.fresh, ['Shield']);
  const t2 = turn({ ...t1, state: { ...t1.state, optionDeck: [] } }, { programs: { A: [] }, orders: { A: { takeOption: true } } });
  assert.deepEqual(robot(t2, 'A').opt!.fresh, [], 'the option is no longer new');
  assert.equal(robot(t2, 'A').damage, 1, 'an empty deck: repair 2');
});

test('Recompile deals a new hand of the same size from the undealt cards, then costs a point; only once a turn', () => {
  // OPTIONS.md 2.22; classic: "then the robot takes 1 point"
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N', options: ['Recompile'] }]);
  const begun = must(beginTurn(g.setup, g.state)).state;
  const old = begun.robots[0]!.hand.slice();
  const res = must(recompile(g.setup, begun, 0));
  const a = res.state.robots[0]!;
  assert.equal(a.hand.length, old.length);
  assert.ok(a.hand.every((c) => !old.includes(c)), 'the new cards come from the undealt deck');
  assert.equal(a.damage, 1);
  assert.deepEqual(ofType(res.events, 'recompiled').map((e) => e.cards), [old.length]);
  assert.equal(recompile(g.setup, res.state, 0).ok, false);
});

test('a robot\'s option with a line break in its name is refused naming the option, not thrown on', () => {
  const b = must(parseBoard({ grid: open5 }));
  const setup = must(makeSetup(b, 'classic'));
  for (const o of ['Brakes\r\nx', 'Brakes\n', '\nBrakes', 'Mini Howitzer\n:3']) {
    const made = createState(setup, [{ name: 'A', x: 1, y: 1, dir: 0, options: [o] }]);
    assert.ok(!made.ok, JSON.stringify(o));
    assert.equal(made.error.field, 'robots[0].options[0]');
  }
});

test('pbem Recompile takes its 2 damage first, so the new count of instructions reflects it', () => {
  // 001 L227; OPTIONS.md part 3, 22 "costs 2 damage, taken first, so the new count reflects it"
  const b = must(parseBoard({ grid: open5 }));
  const setup = must(makeSetup(b, 'pbem'));
  const st = must(createState(setup, [{ name: 'A', x: 1, y: 1, dir: 0, damage: 3, options: ['Recompile'] }]));
  const begun = must(beginTurn(setup, st)).state;
  assert.equal(begun.robots[0]!.hand.length, 9); // 10 - ⌊3/2⌋
  const a = must(recompile(setup, begun, 0)).state.robots[0]!;
  assert.equal(a.damage, 5);
  assert.equal(a.hand.length, 8); // 10 - ⌊5/2⌋
});

test('at the deadline a pbem upgrade code stays only for a robot holding the upgrade; otherwise it is illegal and filled', () => {
  // 001 L83 "An illegal or missing instruction will be replaced"; OPTIONS.md part 3 "legal only for a robot that holds the upgrade"
  const b = must(parseBoard({ grid: open5 }));
  const setup = must(makeSetup(b, 'pbem'));
  const st = must(createState(setup, [
    { name: 'A', x: 1, y: 1, dir: 0, options: ['Brakes'] },
    { name: 'B', x: 3, y: 1, dir: 0 },
  ]));
  const begun = must(beginTurn(setup, st)).state;
  const F = instruction('F1');
  for (const r of begun.robots) r.hand = [F, F, F, F, F, F, F];
  const sent = [upgradeCode('F0'), F, F, F, F];
  const a = must(fillProgram(setup, begun, 0, sent));
  assert.equal(a.state.robots[0]!.registers[0], upgradeCode('F0'));
  assert.equal(a.events.length, 0);
  const bFilled = must(fillProgram(setup, begun, 1, sent));
  assert.equal(bFilled.state.robots[1]!.registers[0], F);
  assert.deepEqual(ofType(bFilled.events, 'programmed')[0]!.filled, [{ register: 1, reason: 'illegal' }]);
});

test('an option the robot uses is marked as seen by the others (Secret Options)', () => {
  // 004 L188 "Any options drawn are kept face-down until used."
  const g = race(open5, [{ name: 'A', x: 1, y: 2, dir: 'N', options: ['Brakes', 'Shield'] }]);
  const t = turn(g, { programs: { A: ['F1:500', 'R:80', 'L:70', 'R:100', 'L:90'] }, orders: { A: { choices: { brakes: [1] } } } });
  assert.deepEqual(robot(t, 'A').opt!.shown, ['Brakes']);
  assert.deepEqual([robot(t, 'A').x, robot(t, 'A').y], [1, 2]);
});

test('Extra Memory is used when it deals its card, and the Flywheel when it stores one: the hand\'s size and the log tell the others, so they are shown (Secret Options)', () => {
  // 004 L188 "kept face-down until used"; OPTIONS.md 2.9 "one extra card each round", 2.11 the stored card.
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N', options: ['Extra Memory', 'Flywheel', 'Shield'] }, { name: 'B', x: 3, y: 1, dir: 'N', options: ['Shield'] }]);
  const begun = must(beginTurn(g.setup, g.state));
  assert.deepEqual(begun.state.robots.map((r) => r.hand.length), [10, 9]);
  assert.deepEqual(begun.state.robots[0]!.opt!.shown, ['Extra Memory']);
  assert.deepEqual(ofType(begun.events, 'optionUsed'), [{ type: 'optionUsed', robot: 0, option: 'Extra Memory' }]);
  const hand = begun.state.robots[0]!.hand;
  const a = must(submitOrders(g.setup, begun.state, 0, { program: hand.slice(0, 5), choices: { flywheel: hand[5]! } }));
  const sent = must(submitOrders(g.setup, a, 1, { program: begun.state.robots[1]!.hand.slice(0, 5) }));
  const played = must(playRegister(g.setup, sent));
  assert.deepEqual(played.state.robots[0]!.opt!.shown, ['Extra Memory', 'Flywheel']);
  assert.equal(played.state.robots[1]!.opt?.shown.length ?? 0, 0, 'B used nothing');
});

test('lasers that change a shot which hits, and Superior Archive as its robot re-enters undamaged, are used, so shown (Secret Options)', () => {
  // 004 L188; OPTIONS.md 2.7 Double-Barreled (two points), 2.14 High-Power, 2.21 Rear-Firing, 2.25 Superior Archive.
  const armed = ['Double-Barreled Laser', 'High-Power Laser', 'Rear-Firing Laser'];
  const g = race(open5, [{ name: 'A', x: 2, y: 1, dir: 'E', options: [...armed, 'Shield'] }, { name: 'B', x: 4, y: 1, dir: 'N' }, { name: 'C', x: 0, y: 1, dir: 'N' }]);
  const shot = turn(g, { programs: { A: [], B: [], C: [] }, registers: 1 });
  assert.deepEqual([...robot(shot, 'A').opt!.shown].sort(), armed);
  const alone = turn(race(open5, [{ name: 'A', x: 2, y: 1, dir: 'E', options: armed }]), { programs: { A: [] }, registers: 1 });
  assert.deepEqual(robot(alone, 'A').opt?.shown ?? [], [], 'a shot that meets nothing shows nothing');
  const fell = turn(race(['. . .'], [{ name: 'A', x: 1, y: 0, dir: 'N', options: ['Superior Archive'] }]), { programs: { A: ['F1:500'] } });
  const back = program(fell);
  assert.equal(robot(back, 'A').damage, 0);
  assert.deepEqual(robot(back, 'A').opt!.shown, ['Superior Archive']);
});

test('a repair point frees the lowest-numbered locked register first, removing a Fire Control marker before damage', () => {
  // OPTIONS.md 2.10 [def] "a point of repair frees the lowest-numbered locked register (removing its marker or its damage point)"
  const g = race(['. W .'], [{ name: 'A', x: 1, y: 0, dir: 'N', damage: 5, fcLocks: [2] }]);
  assert.equal(robot(g, 'A').locked, 0b10010);
  const t = end(turn(g, { programs: { A: ['R:80', 'L:70', 'R:100'] }, end: false }));
  assert.equal(robot(t, 'A').locked, 0b10000, 'the marker on register 2 is gone');
  assert.equal(robot(t, 'A').damage, 5, 'and no damage was repaired');
});

test('003\'s conditional order at a two-wrench site: an option with 3 damage or less, a repair with more', () => {
  // 003 L75 "If I finish on 2 spanner repair & damage > 3 repair, else take option card."
  const play = (damage: number) => {
    const g = race(['. WW .'], [{ name: 'A', x: 1, y: 0, dir: 'N', damage }], { settings: { optionDeck: ['Shield'] } });
    const t = turn(g, { programs: { A: [] }, orders: { A: { choices: { takeOption: { ifDamageAtMost: 3 } } } } });
    return [robot(t, 'A').damage, robot(t, 'A').options];
  };
  assert.deepEqual(play(3), [3, ['Shield']]);
  assert.deepEqual(play(4), [2, []]);
});

test('a card set aside for the Flywheel stays in the hand until the programs are revealed, so orders can be replaced with it; then it is stored, unnamed in the log', () => {
  // OPTIONS.md 2.11 "After all programs are set, one unused card of the hand may be placed on the card"
  const g = race(open5, [{ name: 'A', x: 1, y: 1, dir: 'N', options: ['Flywheel'] }]);
  const st = must(beginTurn(g.setup, g.state)).state;
  const hand = st.robots[0]!.hand;
  const first = must(submitOrders(g.setup, st, 0, { program: hand.slice(0, 5), choices: { flywheel: hand[5]! } }));
  const again = must(submitOrders(g.setup, first, 0, { program: [hand[5]!, ...hand.slice(1, 5)], choices: { flywheel: hand[0]! } }));
  const played = must(playRegister(g.setup, again));
  assert.equal(played.state.robots[0]!.opt!.flywheel, hand[0]);
  assert.ok(!played.state.discard.includes(hand[0]!), 'the stored card is not discarded');
  assert.deepEqual(ofType(played.events, 'stored'), [{ type: 'stored', robot: 0 }]);
});
