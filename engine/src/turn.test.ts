/**
 * The start and the end of a turn: repair, locks, power down, destruction, re-entry, virtual robots,
 * lives (RULES.md "The start and the end of a turn" and after; 000 L80-109, L161-216).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginTurn, endTurn, playRegister, playTurn, submitOrders } from './turn.js';
import { newRace } from './game.js';
import { at, card, dir, end, index, must, ofType, play, program, race, robot, turn, type Bot } from './testing.js';
import type { BoardJson } from './board.js';

/** A whole turn in which nobody runs a card. */
const idle = (board: BoardJson | string[], bots: Bot[]) => turn(race(board, bots));

// ---------------------------------------------------------------- repair and options at the end of a turn

test('a robot ending the turn on a one-wrench site repairs 1 point, at the end of the turn only', () => {
  // 000 L102 "Robots on a repair site or checkpoint may now repair 1 point of damage"; 000 L188 "sites with a single wrench repair 1 point"
  const g0 = race(['. W .'], [{ name: 'A', x: 1, y: 0, dir: 'N', damage: 3 }]);
  const r5 = turn(g0, { end: false });
  assert.equal(robot(r5, 'A').damage, 3);
  const e = end(r5);
  assert.equal(robot(e, 'A').damage, 2);
  assert.deepEqual(ofType(e.events, 'repaired').map((x) => [x.robot, x.points, x.damage, x.by]), [[0, 1, 2, 'wrench']]);
});

test('a robot ending the turn on a flag repairs 1 point', () => {
  // 000 L275 "Each checkpoint also serves as a one-wrench repair site and an archive location."
  const g = idle({ grid: ['. . .'], flags: [[1, 0]] }, [{ name: 'A', x: 1, y: 0, dir: 'N', damage: 3, flags: 1 }]);
  assert.equal(robot(g, 'A').damage, 2);
  assert.equal(ofType(g.events, 'repaired')[0]!.by, 'flag');
});

test('a robot ending the turn on a two-wrench site repairs 2 points', () => {
  // 000 L188 "sites with two wrenches repair 2 points"
  const g = idle(['. WW .'], [{ name: 'A', x: 1, y: 0, dir: 'N', damage: 3 }]);
  assert.equal(robot(g, 'A').damage, 1);
});

test('repair never takes damage below 0', () => {
  // catalog A16.8 [inferred]
  const g = idle(['. WW .'], [{ name: 'A', x: 1, y: 0, dir: 'N', damage: 1 }]);
  assert.equal(robot(g, 'A').damage, 0);
  assert.deepEqual(ofType(g.events, 'repaired').map((e) => e.points), [1]);
  const h = idle(['. WW .'], [{ name: 'A', x: 1, y: 0, dir: 'N' }]);
  assert.equal(ofType(h.events, 'repaired').length, 0);
});

test('a robot on plain floor repairs nothing', () => {
  // 000 L188 "One way to repair damage is to end a turn on a repair site."
  const g = idle(['. W .'], [{ name: 'A', x: 0, y: 0, dir: 'N', damage: 3 }]);
  assert.equal(robot(g, 'A').damage, 3);
});

test('on a two-wrench site a robot may take an option instead of repairing', () => {
  // 000 L188 "a player ending a turn on a two-wrench repair site may choose to take an option card instead of repairing 2 points of damage"
  const g = turn(race(['. WW .'], [{ name: 'A', x: 1, y: 0, dir: 'N', damage: 3 }]), { programs: { A: [] }, orders: { A: { takeOption: true } } });
  assert.equal(robot(g, 'A').damage, 3);
  assert.deepEqual(ofType(g.events, 'optionDrawn').map((e) => e.robot), [0]);
  assert.equal(robot(g, 'A').options.length, 1);
  assert.equal(ofType(g.events, 'repaired').length, 0);
});

test('the option order does nothing on a one-wrench site: the robot repairs', () => {
  // SCENARIOS.md takeOption "a standing order: it does nothing for a robot that ends elsewhere or is powered down"
  const g = turn(race(['. W .'], [{ name: 'A', x: 1, y: 0, dir: 'N', damage: 3 }]), { programs: { A: [] }, orders: { A: { takeOption: true } } });
  assert.equal(robot(g, 'A').damage, 2);
  assert.equal(ofType(g.events, 'optionDrawn').length, 0);
});

test('a powered-down robot repairs nothing on a repair site and takes no option (B-20)', () => {
  // RULES.md "Powered-down robots repair nothing there (B-20)"; 000 L201 "nor can it acquire or use option cards"
  const board = { grid: ['W .', 'WW .'], lasers: [{ x: 0, y: 0, dir: 'E', beams: 1 }] };
  const g = turn(race(board, [
    { name: 'A', x: 0, y: 0, dir: 'S', poweredDown: true },
    { name: 'B', x: 0, y: 1, dir: 'E', damage: 2, poweredDown: true },
  ]), { orders: { B: { takeOption: true } } });
  assert.equal(robot(g, 'A').damage, 5); // hit in each register; its powered-down turn began at 0
  assert.equal(robot(g, 'B').damage, 0);
  assert.equal(ofType(g.events, 'repaired').filter((e) => e.by !== 'powerDown').length, 0);
  assert.equal(ofType(g.events, 'optionDrawn').length, 0);
  // the same beam on a powered-up robot, for comparison: 5 hits, 1 repaired
  const h = idle(board, [{ name: 'A', x: 0, y: 0, dir: 'S' }]);
  assert.equal(robot(h, 'A').damage, 4);
});

// ---------------------------------------------------------------- freeing locked registers

test('repair frees the lowest-numbered locked register first, and its card is discarded', () => {
  // RULES.md "When damage is repaired, the lowest-numbered locked register is freed first"; 000 L182 "(and the program card is discarded)"
  const g = idle(['W .'], [{ name: 'A', x: 0, y: 0, dir: 'N', damage: 7, program: ['-', '-', 'L:70', 'R:80', 'U:10'] }]);
  const a = robot(g, 'A');
  assert.equal(a.damage, 6);
  assert.equal(a.locked, 0b11000);
  assert.deepEqual(a.registers, [0, 0, 0, 80, 10]);
  assert.ok(g.state.discard.includes(70));
  assert.deepEqual(ofType(g.events, 'unlocked').map((e) => e.registers), [[3]]);
});

test('with registers 3, 4 and 5 locked, a player may free register 4 (B-07)', () => {
  // 000 L188 "if registers 3, 4, and 5 are locked, a player can choose to repair the point of damage locking the fourth register"
  const g0 = race(['W .'], [{ name: 'A', x: 0, y: 0, dir: 'N', damage: 7, program: ['-', '-', 'L:70', 'R:80', 'U:10'] }]);
  const g = turn(g0, { programs: { A: [] }, orders: { A: { unlock: [4] } } });
  const a = robot(g, 'A');
  assert.equal(a.damage, 6);
  assert.equal(a.locked, 0b10100);
  assert.deepEqual(a.registers, [0, 0, 70, 0, 10]);
  assert.deepEqual(ofType(g.events, 'unlocked').map((e) => e.registers), [[4]]);
  // next turn: 3 cards, for registers 1, 2 and 4
  const n = program(g);
  assert.equal(robot(n, 'A').hand.length, 3);
  const h = robot(n, 'A').hand;
  const st = must(submitOrders(n.setup, n.state, 0, { program: h }));
  assert.deepEqual(st.robots[0]!.registers, [h[0], h[1], 70, h[2], 10]);
});

test('the next point of damage locks the highest unlocked register again', () => {
  // 000 L305 "Damage chits after the fourth are placed on top of the robot's program cards, starting with the last one"
  const board = { grid: ['W .', '. .'], lasers: [{ x: 0, y: 1, dir: 'E', beams: 1 }] };
  const g0 = race(board, [{ name: 'A', x: 0, y: 0, dir: 'S', damage: 7, program: ['-', '-', 'L:70', 'R:80', 'U:10'] }]);
  const t1 = turn(g0, { programs: { A: [] }, orders: { A: { unlock: [4] } } }); // registers 3 and 5 locked
  assert.deepEqual(at(t1, 'A'), [0, 0, 'N']);
  // turn 2: A backs into the beam in register 1 and is hit: 7 damage, register 4 locked again
  const t2 = play(program(t1, { programs: { A: ['B:430'] } }), 1);
  assert.equal(robot(t2, 'A').damage, 7);
  assert.equal(robot(t2, 'A').locked, 0b11100);
  assert.deepEqual(ofType(t2.events, 'locked').map((e) => e.registers), [[4]]);
});

// ---------------------------------------------------------------- power down

test('an announced power down takes effect next turn: damage discarded, registers freed, no cards (Joey, turns 6-7)', () => {
  // 000 L193 "she must announce this a turn in advance ... Her robot must play out the current turn and the robot powers down on the next turn.
  // At the beginning of the next turn, all damage chits are discarded and the player receives no program cards."; 000 L195 Joey
  const g0 = race(['. . . . . .'], [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 5, program: ['-', '-', '-', '-', 'R:80'] }]);
  const t1 = turn(g0, { programs: { A: ['F1:490'] }, orders: { A: { powerDown: true } } });
  assert.deepEqual(at(t1, 'A'), [1, 0, 'S']); // it played out its turn, locked register included
  assert.equal(robot(t1, 'A').poweredDown, false);
  assert.equal(ofType(t1.events, 'powerDownAnnounced').length, 1);
  const t2 = program(t1);
  const a = robot(t2, 'A');
  assert.deepEqual([a.poweredDown, a.damage, a.locked, a.hand.length], [true, 0, 0, 0]);
  assert.deepEqual(a.registers, [0, 0, 0, 0, 0]);
  assert.equal(ofType(t2.events, 'poweredDown').length, 1);
  assert.deepEqual(ofType(t2.events, 'repaired').map((e) => [e.points, e.by]), [[5, 'powerDown']]);
  assert.equal(ofType(t2.events, 'dealt').length, 0);
  // it runs no cards: the register phases leave it where it is
  const t2e = turn(t1);
  assert.deepEqual(at(t2e, 'A'), [1, 0, 'S']);
});

test('a robot that announced a power down powers down even if repaired to 0 damage first (B-18)', () => {
  // catalog B-18 default: "it powers down. The limit is checked only when the declaration is made."; RULES.md "announced with the program, it takes effect next turn"
  const t1 = turn(race(['W .'], [{ name: 'A', x: 0, y: 0, dir: 'N', damage: 1 }]), { programs: { A: [] }, orders: { A: { powerDown: true } } });
  assert.equal(robot(t1, 'A').damage, 0);
  assert.equal(robot(program(t1), 'A').poweredDown, true);
});

test('a powered-down robot does not move or fire, but belts move it and lasers hit it', () => {
  // 000 L201 "it can't fire weapons ... they may be moved by pushers, gears, and conveyor belts. They may also be pushed by other robots and shot at by lasers."
  const g = turn(race(['> . . .'], [{ name: 'P', x: 0, y: 0, dir: 'E', damage: 2, poweredDown: true }, { name: 'B', x: 3, y: 0, dir: 'W' }]), { registers: 1 });
  assert.deepEqual(at(g, 'P'), [1, 0, 'E']);
  assert.deepEqual([robot(g, 'P').damage, robot(g, 'B').damage], [1, 0]);
  // and it is pushed by other robots
  const h = turn(race(['. . . .'], [{ name: 'P', x: 1, y: 0, dir: 'N', damage: 2, poweredDown: true }, { name: 'B', x: 0, y: 0, dir: 'E' }]), { programs: { B: ['F1:490'] }, registers: 1 });
  assert.deepEqual([at(h, 'P'), at(h, 'B')], [[2, 0, 'N'], [1, 0, 'E']]);
});

test('damage taken while powered down stays, unless the robot stays down: then it is discarded again (Joey, turns 7-8)', () => {
  // 000 L93 "Any damage sustained while the robot is powered down is ... new damage"; 000 L197 "At the beginning of each turn that a robot is powered down, all damage is discarded."
  // 000 L199 "he announces his decision to stay powered down. As the other players are dealt cards for the eighth turn, Joey discards his 2 new damage chits."
  const bots: Bot[] = [{ name: 'Joey', x: 0, y: 0, dir: 'N', damage: 4, poweredDown: true }, { name: 'B', x: 3, y: 0, dir: 'W' }];
  const plan = { programs: { B: ['-', '-', 'R:80'] } }; // B shoots Joey in registers 1 and 2, then turns away
  const down = turn(race(['. . . .', '. . . .'], bots), { ...plan, orders: { Joey: { stayDown: true } } });
  assert.equal(robot(down, 'Joey').damage, 2);
  const t8 = program(down);
  assert.deepEqual([robot(t8, 'Joey').poweredDown, robot(t8, 'Joey').damage, robot(t8, 'Joey').hand.length], [true, 0, 0]);
  const up = turn(race(['. . . .', '. . . .'], bots), plan);
  const u8 = program(up);
  assert.deepEqual([robot(u8, 'Joey').poweredDown, robot(u8, 'Joey').damage, robot(u8, 'Joey').hand.length], [false, 2, 7]);
  assert.equal(ofType(u8.events, 'poweredUp').length, 1);
});

test('a robot powering up with 5 or more new damage has an empty locked register, which does nothing (B-38)', () => {
  // RULES.md "A locked register with no card (after a powered-down turn) does nothing (B-38)"
  const board = { grid: ['. . .', '. . .'], lasers: [{ x: 0, y: 0, dir: 'E', beams: 1 }] };
  const t1 = idle(board, [{ name: 'A', x: 1, y: 0, dir: 'S', poweredDown: true }]);
  assert.equal(robot(t1, 'A').damage, 5);
  const t2 = turn(t1, { programs: { A: ['F1:490', '-', '-', '-'] } });
  assert.deepEqual(at(t2, 'A'), [1, 1, 'S']);
  assert.deepEqual(ofType(t2.events, 'revealed').map((e) => [e.register, e.card]), [[1, 490]]);
});

test('power-down orders are checked: only a damaged robot announces, only a powered-down robot stays down', () => {
  // 000 L93 "Only damaged robots may choose to power down."; 000 L197 "a player may decide to leave her robot powered down"
  const g = race(['. . . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'P', x: 2, y: 0, dir: 'N', damage: 1, poweredDown: true }]);
  const { state } = must(beginTurn(g.setup, g.state));
  const five = state.robots[0]!.hand.slice(0, 5);
  const refusals = [
    submitOrders(g.setup, state, 0, { program: five, powerDown: true }),
    submitOrders(g.setup, state, 0, { program: five, stayDown: true }),
    submitOrders(g.setup, state, 1, { powerDown: true }),
  ];
  assert.deepEqual(refusals.map((r) => (r.ok ? 'accepted' : r.error.field)), ['powerDown', 'stayDown', 'powerDown']);
  assert.ok(submitOrders(g.setup, state, 1, { stayDown: true }).ok);
});

// ---------------------------------------------------------------- destruction, lives, re-entry

test('a destroyed robot loses a life and re-enters next turn on its archive with 2 damage, facing as when destroyed', () => {
  // 000 L207 "Each time a robot is destroyed, it loses a life" (L46); 000 L82 "reenter the game at their last 'archive' location"
  // 000 L212 "two damage chits are taken"; RULES.md "facing as its player chooses (by default as when destroyed)"
  const g0 = race(['. . O .', '. . . .'], [{ name: 'A', x: 1, y: 0, dir: 'E', archive: [0, 1] }]);
  const t1 = turn(g0, { programs: { A: ['F1:490'] } });
  assert.equal(at(t1, 'A'), 'destroyed');
  assert.equal(robot(t1, 'A').lives, 2);
  const t2 = program(t1);
  assert.deepEqual(at(t2, 'A'), [0, 1, 'E']);
  assert.deepEqual([robot(t2, 'A').damage, robot(t2, 'A').hand.length, robot(t2, 'A').virtual], [2, 7, false]);
  const e = ofType(t2.events, 'reentered')[0]!;
  assert.deepEqual([e.x, e.y, e.dir, e.damage, e.virtual, e.poweredDown], [0, 1, 1, 2, false, false]);
  // re-entry comes before the deal
  const types = t2.events.map((x) => x.type);
  assert.ok(types.indexOf('reentered') < types.indexOf('dealt'));
});

test('a re-entering robot has 2 damage in all, whatever it had before, and no locked register', () => {
  // 000 L269 "archive copies start with two points of damage"; RULES.md "with 2 damage in all" (B-10)
  const g0 = race(['. . O .'], [{ name: 'A', x: 1, y: 0, dir: 'E', damage: 6, archive: [3, 0], program: ['-', '-', '-', 'L:70', 'R:80'] }]);
  const t2 = program(turn(g0, { programs: { A: ['F1:490', '-', '-'] } }));
  const a = robot(t2, 'A');
  assert.deepEqual([a.damage, a.locked, a.hand.length], [2, 0, 7]);
  assert.deepEqual(a.registers, [0, 0, 0, 0, 0]);
});

test('a re-entering robot faces as its player chooses, and may re-enter powered down with its damage discarded', () => {
  // 000 L212 "the player chooses the direction the robot will face"; 000 L216 "a player may decide to reenter the race powered down (to repair the 2 damage points)"
  const g0 = race(['. . O .', '. . . .'], [{ name: 'A', x: 1, y: 0, dir: 'E', archive: [0, 1] }]);
  const t1 = turn(g0, { programs: { A: ['F1:490'] } });
  const facing = program(t1, { reenter: { A: { dir: 'S' } } });
  assert.deepEqual(at(facing, 'A'), [0, 1, 'S']);
  const down = program(t1, { reenter: { A: { dir: 'W', poweredDown: true } } });
  const a = robot(down, 'A');
  assert.deepEqual([at(down, 'A'), a.poweredDown, a.damage, a.hand.length], [[0, 1, 'W'], true, 0, 0]);
});

test('a robot with no archive yet re-enters on its start', () => {
  // RULES.md "no archive means its start position" (pbem), classic start square is an archive (000 L210); SCENARIOS.md archive null
  const g0 = race(['. . O .'], [{ name: 'A', x: 1, y: 0, dir: 'E', archive: null, start: [3, 0] }]);
  const t2 = program(turn(g0, { programs: { A: ['F1:490'] } }));
  assert.deepEqual(at(t2, 'A'), [3, 0, 'E']);
});

test('a robot destroyed on its last life is out of the game for good', () => {
  // 000 L207 "If this is the third time that a robot has been destroyed, that robot is permanently out of the game."
  const g0 = race(['. . O .'], [{ name: 'A', x: 1, y: 0, dir: 'E', lives: 1 }, { name: 'B', x: 3, y: 0, dir: 'N' }]);
  const t1 = turn(g0, { programs: { A: ['F1:490'] } });
  assert.equal(at(t1, 'A'), 'out');
  assert.deepEqual(ofType(t1.events, 'destroyed').map((e) => e.lives), [0]);
  assert.deepEqual(ofType(t1.events, 'out').map((e) => e.robot), [0]);
  const t2 = program(t1);
  assert.equal(at(t2, 'A'), 'out');
  assert.equal(ofType(t2.events, 'reentered').length, 0);
  assert.equal(robot(t2, 'A').hand.length, 0);
});

test('a power down announced by a robot destroyed the same turn lapses (B-17)', () => {
  // RULES.md "in classic the announcement lapses and the player chooses again when it re-enters (B-17)"; 000 L216
  const g0 = race(['. . O .', '. . . .'], [{ name: 'A', x: 1, y: 0, dir: 'E', damage: 1, archive: [0, 1] }]);
  const t1 = turn(g0, { programs: { A: ['F1:490'] }, orders: { A: { powerDown: true } } });
  const t2 = program(t1);
  assert.deepEqual([robot(t2, 'A').poweredDown, robot(t2, 'A').damage, robot(t2, 'A').hand.length], [false, 2, 7]);
  const t2down = program(t1, { reenter: { A: { poweredDown: true } } });
  assert.deepEqual([robot(t2down, 'A').poweredDown, robot(t2down, 'A').damage], [true, 0]);
});

test('two robots re-entering on one archive both re-enter virtual', () => {
  // 000 L214 "If another player is also withdrawing an archive copy on the same checkpoint or repair site, both players start out with virtual robots."
  const g0 = race(['. . O O', '. . . .'], [
    { name: 'A', x: 1, y: 0, dir: 'E', archive: [0, 1] }, { name: 'B', x: 2, y: 1, dir: 'N', archive: [0, 1] },
  ]);
  const t2 = program(turn(g0, { programs: { A: ['F1:490'], B: ['F1:500'] } }));
  assert.deepEqual([at(t2, 'A'), at(t2, 'B')], [[0, 1, 'E'], [0, 1, 'N']]);
  assert.deepEqual([robot(t2, 'A').virtual, robot(t2, 'B').virtual], [true, true]);
});

test('a robot re-entering where another robot stands re-enters virtual; the other stays real', () => {
  // 000 L214 "If another robot is already on that square, the player withdrawing the archive copy starts with a virtual robot."
  const g0 = race(['. . O .', '. . . .'], [{ name: 'A', x: 1, y: 0, dir: 'E', archive: [0, 1] }, { name: 'C', x: 0, y: 1, dir: 'N' }]);
  const t2 = program(turn(g0, { programs: { A: ['F1:490'] } }));
  assert.deepEqual([at(t2, 'A'), robot(t2, 'A').virtual, robot(t2, 'C').virtual], [[0, 1, 'E'], true, false]);
});

test('a robot re-entering alone on its archive is real', () => {
  // 000 L214 "Otherwise, players start out with 'real' robots."
  const g0 = race(['. . O O', '. . . .'], [
    { name: 'A', x: 1, y: 0, dir: 'E', archive: [0, 1] }, { name: 'B', x: 2, y: 1, dir: 'N', archive: [3, 1] },
  ]);
  const t2 = program(turn(g0, { programs: { A: ['F1:490'], B: ['F1:500'] } }));
  assert.deepEqual([robot(t2, 'A').virtual, robot(t2, 'B').virtual], [false, false]);
});

test('destroyed robots re-enter in the order they were destroyed', () => {
  // RULES.md "destroyed robots re-enter (in the order they were destroyed)"; 000 L82
  const g0 = race(['. . O O', '. . . .'], [
    { name: 'A', x: 1, y: 0, dir: 'E', archive: [0, 1] }, { name: 'B', x: 2, y: 1, dir: 'N', archive: [3, 1] },
  ]);
  // B (500) falls in register 1; A falls in register 2
  const t2 = program(turn(g0, { programs: { A: ['L:70', 'R:80', 'F1:490'], B: ['F1:500'] } }));
  assert.deepEqual(ofType(t2.events, 'reentered').map((e) => e.robot), [1, 0]);
});

test('a destroyed robot is off the board: it blocks no move and no beam', () => {
  // RULES.md "Destroyed ...: removed at once; it no longer blocks, fires or is hit"; 004 L153 "the robot is immediately removed from the board"
  const board = { grid: ['. . . . .', '. . . . .', '. . . . .'], lasers: [{ x: 0, y: 0, dir: 'E', beams: 1 }] };
  const g = turn(race(board, [
    { name: 'A', x: 1, y: 0, dir: 'N', damage: 9, program: ['-', '-', '-', '-', '-'] },
    { name: 'B', x: 3, y: 0, dir: 'N' },
    { name: 'C', x: 1, y: 2, dir: 'N' },
  ]), { programs: { C: ['-', '-', '-', 'F2:670'] }, registers: 4 });
  assert.equal(at(g, 'A'), 'destroyed'); // register 1: the beam's tenth point
  assert.deepEqual(ofType(g.events, 'shot').filter((e) => e.robot === 1).length, 2); // registers 2-3: the beam passes where A stood
  assert.deepEqual(at(g, 'C'), [1, 0, 'N']); // register 4: C drives onto A's last square; nothing there to push
  assert.equal(ofType(g.events, 'pushed').length, 0);
  assert.deepEqual([robot(g, 'B').damage, robot(g, 'C').damage], [2, 1]);
});

test('a destroyed robot loses an option, by default its newest', () => {
  // 000 L207 "A destroyed robot immediately loses an option card of the player's choice"; RULES.md "by default the newest"
  const g = turn(race(['. O'], [{ name: 'A', x: 0, y: 0, dir: 'E', options: ['Brakes', 'Fourth Gear'] }]), { programs: { A: ['F1:490'] }, registers: 1 });
  assert.deepEqual(robot(g, 'A').options, ['Brakes']);
  assert.deepEqual(ofType(g.events, 'optionLost').map((e) => [e.robot, e.option]), [[0, 'Fourth Gear']]);
});

test('a robot may re-enter as a powered-down virtual robot', () => {
  // 000 L216 "It is possible to reenter as a powered-down virtual robot!"
  const g0 = race(['. . O .', '. . . .'], [{ name: 'A', x: 1, y: 0, dir: 'E', archive: [0, 1] }, { name: 'C', x: 0, y: 1, dir: 'N' }]);
  const t2 = program(turn(g0, { programs: { A: ['F1:490'] } }), { reenter: { A: { poweredDown: true } } });
  const a = robot(t2, 'A');
  assert.deepEqual([a.virtual, a.poweredDown, a.damage], [true, true, 0]);
});

test('naming a register that is not locked frees the lowest locked one', () => {
  // RULES.md "the lowest-numbered locked register is freed first; in classic a player may name another (B-07)"
  const g0 = race(['W .'], [{ name: 'A', x: 0, y: 0, dir: 'N', damage: 7, program: ['-', '-', 'L:70', 'R:80', 'U:10'] }]);
  const g = turn(g0, { programs: { A: [] }, orders: { A: { unlock: [2] } } });
  assert.equal(robot(g, 'A').locked, 0b11000);
});

test('a race starts every robot virtual on the start square, its archive', () => {
  // 000 L56 "All robots start on the indicated starting square ... all robots begin the game as virtual robots"; 000 L210 "(every robot starts out on one)"
  const b = race({ grid: ['. W .'], start: [1, 0] }, []);
  const st = must(newRace(b.setup, [{ name: 'A', dir: dir('E') }, { name: 'B' }], 5));
  assert.deepEqual(st.robots.map((r) => [r.x, r.y, r.virtual, r.archive]), [[1, 0, true, [1, 0]], [1, 0, true, [1, 0]]]);
  assert.equal(st.robots[0]!.dir, dir('E'));
});

// ---------------------------------------------------------------- virtual robots

test('a virtual robot becomes real at the end of a turn on which it stands alone, not before', () => {
  // 000 L109 "At the end of a turn, if a virtual robot is on a square all by itself, it then becomes a 'real' robot."
  const g0 = race(['. . . .'], [{ name: 'A', x: 0, y: 0, dir: 'E', virtual: true }, { name: 'B', x: 0, y: 0, dir: 'S', virtual: true }]);
  const r5 = turn(g0, { programs: { A: ['F1:490'] }, end: false });
  assert.deepEqual([robot(r5, 'A').virtual, robot(r5, 'B').virtual], [true, true]);
  const e = end(r5);
  assert.deepEqual([robot(e, 'A').virtual, robot(e, 'B').virtual], [false, false]);
  assert.deepEqual(ofType(e.events, 'becameReal').map((x) => x.robot).sort(), [0, 1]);
});

test('virtual robots sharing a square at the end of a turn stay virtual, even with a real robot', () => {
  // 000 L109 "on a square all by itself"; 000 L214 a robot already there stays real (B-44)
  const g = idle(['. . . .'], [
    { name: 'A', x: 0, y: 0, dir: 'N', virtual: true }, { name: 'B', x: 0, y: 0, dir: 'N', virtual: true },
    { name: 'C', x: 2, y: 0, dir: 'N', virtual: true }, { name: 'R', x: 2, y: 0, dir: 'N' },
  ]);
  assert.deepEqual(['A', 'B', 'C', 'R'].map((n) => robot(g, n).virtual), [true, true, true, false]);
  assert.equal(ofType(g.events, 'becameReal').length, 0);
});

test('a robot made real is pushed from then on', () => {
  // 000 L107 virtual robots aren't pushed; 000 L109 once real, the ordinary rules apply
  const t1 = idle(['. . . .'], [{ name: 'V', x: 1, y: 0, dir: 'N', virtual: true }, { name: 'B', x: 3, y: 0, dir: 'N' }]);
  assert.equal(robot(t1, 'V').virtual, false);
  const t2 = turn(t1, { programs: { B: ['L:70', 'F2:670'] }, registers: 2 });
  assert.deepEqual([at(t2, 'B'), at(t2, 'V')], [[1, 0, 'W'], [0, 0, 'N']]);
});

// ---------------------------------------------------------------- lives and settings

test('robots start with 3 lives, or the lives setting', () => {
  // 000 L56 "(Each robot has a total of three lives.)"; RULES.md Settings "lives"
  const bots: Bot[] = [{ name: 'A', x: 0, y: 0, dir: 'N' }];
  assert.equal(robot(race(['. .'], bots), 'A').lives, 3);
  assert.equal(robot(race(['. .'], bots, { settings: { lives: 5 } }), 'A').lives, 5);
});

test('extraLives adds a life for 5 or more robots and one for 5 or more boards', () => {
  // 000 L59-63 "Start with 3 lives, then / add 1 life for 5 or more players / add 1 life for 5 or more factory tiles"
  const bots = (n: number): Bot[] => Array.from({ length: n }, (_, k) => ({ name: `R${k}`, x: k, y: 0, dir: 'N' as const }));
  const grid = ['. . . . . .'];
  const lives = (n: number, boards: number, extraLives: boolean) => robot(race(grid, bots(n), { settings: { extraLives }, boards }), 'R0').lives;
  assert.equal(lives(4, 4, true), 3);
  assert.equal(lives(5, 4, true), 4);
  assert.equal(lives(4, 5, true), 4);
  assert.equal(lives(5, 6, true), 5); // 000 L63 "five players on 6 tiles ... 5 lives"
  assert.equal(lives(5, 6, false), 3);
});

// ---------------------------------------------------------------- 9 damage

test('with 9 damage a robot gets no cards and runs its previous program again', () => {
  // 000 L162 "when a robot has 9 points of damage it won't receive any new program cards. It may still move ... the previous turn's program is executed again."
  const g0 = race(['. . . . . . . . . . . .'], [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 9, program: ['F1:490', 'F1:500', 'F1:510', 'F1:520', 'F1:530'] }]);
  const t1 = turn(g0);
  assert.deepEqual(at(t1, 'A'), [5, 0, 'E']);
  const t2 = turn(t1);
  assert.deepEqual(at(t2, 'A'), [10, 0, 'E']);
  assert.equal(ofType(t2.events, 'dealt')[0]!.cards, 0);
  assert.deepEqual(robot(t2, 'A').registers, [490, 500, 510, 520, 530]);
});

// ---------------------------------------------------------------- events and the turn's calls

test('events name their causes: moved, pushed by a robot or a pusher, carried, turned by a gear, shot, destroyed', () => {
  // The engine's contract (events.ts): every change of state says what caused it
  const board = {
    grid: ['. . O . . .', '> G+ . . . .', '. . . . . .'],
    lasers: [{ x: 5, y: 2, dir: 'W', beams: 1 }],
    pushers: [{ x: 5, y: 0, dir: 'E', registers: [1] }],
  };
  const g = turn(race(board, [
    { name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 1, y: 0, dir: 'N' }, { name: 'C', x: 0, y: 1, dir: 'N' },
    { name: 'D', x: 3, y: 2, dir: 'N' }, { name: 'E', x: 5, y: 0, dir: 'S' }, { name: 'F', x: 0, y: 2, dir: 'E' },
  ]), { programs: { A: ['F1:600'] }, registers: 1 });
  const [A, B, C, D, E, F] = ['A', 'B', 'C', 'D', 'E', 'F'].map((n) => index(g, n));
  const ev = g.events.filter((e) => !['turnBegan', 'dealt', 'registerBegan', 'revealed', 'damaged'].includes(e.type));
  assert.deepEqual(ev, [
    { type: 'pushed', robot: B, from: [1, 0], to: [2, 0], by: { robot: A } },
    { type: 'destroyed', robot: B, cause: 'pit', pushedBy: { robot: A }, lives: 2 },
    { type: 'moved', robot: A, from: [0, 0], to: [1, 0] },
    { type: 'carried', robot: C, from: [0, 1], to: [1, 1], express: false },
    { type: 'pushed', robot: E, from: [5, 0], to: [6, 0], by: { pusher: 0 } },
    { type: 'destroyed', robot: E, cause: 'edge', pushedBy: { pusher: 0 }, lives: 2 },
    { type: 'turned', robot: C, from: 0, to: 1, by: 'gear' },
    { type: 'shot', robot: D, by: { laser: 0 }, points: 1, from: [5, 2], to: [3, 2] },
    { type: 'shot', robot: D, by: { robot: F }, points: 1, from: [0, 2], to: [3, 2] },
  ]);
  assert.deepEqual(ofType(g.events, 'damaged'), [{ type: 'damaged', robot: D, points: 2, damage: 2 }]);
});

test('a turn\'s events begin with turnBegan and the deal, and the end brings turnEnded', () => {
  const g = turn(race(['. . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }]), { programs: { A: ['L:70', 'R:80', 'L:90', 'R:100', 'U:10'] } });
  const types = g.events.map((e) => e.type);
  assert.equal(types[0], 'turnBegan');
  assert.equal(types[1], 'dealt');
  assert.equal(types.filter((t) => t === 'registerBegan').length, 5);
  assert.deepEqual(ofType(g.events, 'revealed').map((e) => [e.register, e.card]), [[1, 70], [2, 80], [3, 90], [4, 100], [5, 10]]);
  assert.equal(types.at(-1), 'turnEnded');
});

test('playTurn plays the remaining registers and the end of the turn, as playRegister and endTurn do', () => {
  const g0 = race({ grid: ['> . . G+', '. W . .'], flags: [[3, 0]] }, [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 2 }, { name: 'B', x: 1, y: 1, dir: 'W', damage: 3 }]);
  const p = program(g0, { programs: { A: ['F1:490', 'L:70', 'R:80', 'U:10', 'B:430'] } });
  const whole = must(playTurn(p.setup, p.state));
  let st = p.state;
  for (let k = 0; k < 5; k++) st = must(playRegister(p.setup, st)).state;
  const stepwise = must(endTurn(p.setup, st));
  assert.deepEqual(whole.state, stepwise.state);
});

test('the turn\'s calls come in order: no second turn before the end, no end before the fifth register, no sixth register', () => {
  const g = race(['. . .'], [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  const p = program(g, { programs: { A: ['L:70', 'R:80', 'L:90', 'R:100', 'U:10'] } });
  const field = (r: { ok: boolean; error?: { field: string } }) => (r.ok ? 'accepted' : r.error!.field);
  assert.equal(field(beginTurn(p.setup, p.state)), 'phase');
  assert.equal(field(endTurn(p.setup, p.state)), 'phase');
  const r5 = play(p, 5);
  assert.equal(field(playRegister(r5.setup, r5.state)), 'phase');
  assert.equal(field(submitOrders(r5.setup, r5.state, 0, { program: [card('F1:490')] })), 'phase');
  assert.ok(endTurn(r5.setup, r5.state).ok);
});

test('the state passed in is never changed', () => {
  // turn.ts: "Each public function takes a state and returns a new one; the input is never changed"
  const g = race(['> . O'], [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 2 }]);
  const before = JSON.stringify(g.state);
  const p = program(g, { programs: { A: ['F1:490'] } });
  assert.equal(JSON.stringify(g.state), before);
  const mid = JSON.stringify(p.state);
  turn(g, { programs: { A: ['F1:490'] } });
  play(p, 5);
  assert.equal(JSON.stringify(p.state), mid);
});
