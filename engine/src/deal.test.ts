/** Dealing and programming (RULES.md "Damage, hands, locked registers"; 000 L80-85, L159-182, L191). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DECK } from './cards.js';
import { beginTurn, fillProgram, needsProgram, playRegister, submitOrders } from './turn.js';
import { card, must, ofType, race, turn, type Bot } from './testing.js';
import { unplayedOf } from './robots.js';
import type { Workspace } from './context.js';

const ROW = ['. . . . . . . . . . . .'];
const begin = (g: ReturnType<typeof race>) => must(beginTurn(g.setup, g.state));

test('each powered-up robot is dealt 9 cards minus its damage', () => {
  // 000 L80 "A robot with 1 point of damage receives eight program cards, a robot with 2 points of damage receives seven, etc."
  // 000 L164-174 table; RULES.md hand "9 − damage"
  const bots: Bot[] = [];
  for (let d = 0; d <= 9; d++) bots.push({ name: `R${d}`, x: d, y: 0, dir: 'N', damage: d });
  const { state, events } = begin(race(ROW, bots));
  state.robots.forEach((r, d) => assert.equal(r.hand.length, 9 - d, `${d} damage`));
  assert.deepEqual(ofType(events, 'dealt').map((e) => e.cards), [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
});

test('a robot with 9 damage gets no cards and needs no program', () => {
  // 000 L162 "when a robot has 9 points of damage it won't receive any new program cards"
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 9, program: ['F1:490', 'F1:500', 'F1:510', 'F1:520', 'F1:530'] }]);
  const { state } = begin(g);
  assert.equal(state.robots[0]!.hand.length, 0);
  assert.equal(needsProgram(state, 0), false);
  assert.equal(state.robots[0]!.programmed, true);
});

test('a powered-down robot is dealt no cards and may hand in none', () => {
  // 000 L191 "A robot that is powered down does not receive program cards"
  const g = race(ROW, [
    { name: 'A', x: 0, y: 0, dir: 'E', damage: 3, poweredDown: true },
    { name: 'B', x: 2, y: 0, dir: 'E' },
  ]);
  const { state, events } = begin(g);
  assert.equal(state.robots[0]!.hand.length, 0);
  assert.deepEqual(ofType(events, 'dealt').map((e) => e.robot), [1]);
  assert.equal(needsProgram(state, 0), false);
  const res = submitOrders(g.setup, state, 0, { program: [state.robots[1]!.hand[0]!] });
  assert.equal(res.ok, false);
  if (!res.ok) assert.equal(res.error.field, 'program');
});

test('locked registers keep last turn\'s cards, and those cards are dealt to nobody', () => {
  // 000 L180 "four of the five program cards are returned to the program deck, and only four are dealt back to
  // this player. The fifth card remains in the fifth register"; RULES.md "A locked register keeps last turn's card"
  const bots: Bot[] = [
    { name: 'A', x: 0, y: 0, dir: 'E', damage: 6, program: ['F1:490', 'F2:670', 'F3:790', 'R:80', 'F3:840'] },
  ];
  for (let k = 1; k <= 8; k++) bots.push({ name: `R${k}`, x: k + 1, y: 0, dir: 'N' });
  const { state } = begin(race(ROW, bots));
  const a = state.robots[0]!;
  assert.deepEqual(a.registers, [0, 0, 0, card('R:80'), card('F3:840')]);
  assert.equal(a.hand.length, 3);
  const dealt = state.robots.flatMap((r) => r.hand);
  assert.ok(!dealt.includes(80) && !dealt.includes(840), 'a locked card was dealt');
  assert.ok(!state.deck.includes(80) && !state.deck.includes(840), 'a locked card is in the deck');
  // Every other card is either dealt once or left in the deck: the whole deck is reshuffled (000 L40).
  const all = [...dealt, ...state.deck, 80, 840].sort((x, y) => x - y);
  assert.deepEqual(all, DECK);
});

test('the previous program\'s locked card runs again, and only the open registers take new cards', () => {
  // 000 L162 "the program cards from the previous turn are not discarded"; 002 L92-94 "4 new cards are dealt"
  const g = race(['. . . . . . . .'], [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 5, program: ['L:70', 'L:90', 'L:110', 'L:130', 'F1:490'] }]);
  const after = turn(g, { programs: { A: ['R:80', 'L:70', 'F1:500', 'U:10'] }, end: false });
  const a = after.state.robots[0]!;
  // R, L, F1 (to x=1), U (facing W), then the locked F1:490 moves it back west to x=0
  assert.deepEqual([a.x, a.y, a.dir], [0, 0, 3]);
  assert.deepEqual(ofType(after.events, 'revealed').map((e) => e.card), [80, 70, 500, 10, 490]);
});

test('the same seed deals the same hands; another seed deals others', () => {
  // RULES.md/SCENARIOS.md: "seed" decides anything random; the engine is deterministic
  const bots: Bot[] = [
    { name: 'A', x: 0, y: 0, dir: 'E' },
    { name: 'B', x: 1, y: 0, dir: 'E', damage: 2 },
  ];
  const hands = (seed: number) => begin(race(ROW, bots, { seed })).state.robots.map((r) => r.hand);
  assert.deepEqual(hands(42), hands(42));
  assert.notDeepEqual(hands(42), hands(43));
});

test('the deck is reshuffled and dealt again in full every turn', () => {
  // 000 L40 "all the cards are collected, shuffled, and dealt out again"
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 5, y: 0, dir: 'W' }]);
  const t1 = turn(g, { programs: { A: ['L:70', 'R:80', 'L:90', 'R:100', 'U:10'], B: ['L:110', 'R:120', 'L:130', 'R:140', 'U:20'] } });
  const { state } = begin(t1);
  assert.deepEqual([...state.deck, ...state.robots.flatMap((r) => r.hand)].sort((x, y) => x - y), DECK);
});

test('a program must use cards dealt to the robot', () => {
  // 000 L85 "choose the five program cards from their hand"; SCENARIOS.md "a card not dealt ... is bad input"
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E' }]);
  const { state } = begin(g);
  const hand = state.robots[0]!.hand;
  const stranger = DECK.find((c) => !hand.includes(c))!;
  const res = submitOrders(g.setup, state, 0, { program: [hand[0]!, hand[1]!, stranger, hand[2]!, hand[3]!] });
  assert.equal(res.ok, false);
  if (!res.ok) {
    assert.equal(res.error.field, 'program[2]');
    assert.match(res.error.message, /not dealt/);
  }
});

test('a program may not use one card twice', () => {
  // RULES.md "the same card twice in one turn, is an error"
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E' }]);
  const { state } = begin(g);
  const h = state.robots[0]!.hand;
  const res = submitOrders(g.setup, state, 0, { program: [h[0]!, h[1]!, h[2]!, h[1]!, h[3]!] });
  assert.equal(res.ok, false);
  if (!res.ok) {
    assert.equal(res.error.field, 'program[3]');
    assert.match(res.error.message, /twice/);
  }
});

test('a program must have one card per unlocked register', () => {
  // 000 L85 "choose the five program cards"; SCENARIOS.md "a wrong number of cards" is bad input
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E' }]);
  const { state } = begin(g);
  const h = state.robots[0]!.hand;
  for (const program of [h.slice(0, 4), h.slice(0, 6), []]) {
    const res = submitOrders(g.setup, state, 0, { program });
    assert.equal(res.ok, false);
    if (!res.ok) assert.equal(res.error.field, 'program');
  }
  assert.ok(submitOrders(g.setup, state, 0, { program: h.slice(0, 5) }).ok);
});

test('a program may not overwrite a locked register', () => {
  // 004 L94 "The program card most recently there cannot be changed"; 000 L305 "locked and unalterable"
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 5, program: ['L:70', 'L:90', 'L:110', 'L:130', 'F1:490'] }]);
  const { state } = begin(g);
  const h = state.robots[0]!.hand;
  assert.equal(h.length, 4);
  const five = submitOrders(g.setup, state, 0, { program: [...h, 490] });
  assert.equal(five.ok, false);
  if (!five.ok) {
    assert.equal(five.error.field, 'program');
    assert.match(five.error.message, /locked/);
  }
  // The locked card itself is not in the hand: it cannot be moved to another register either.
  const moved = submitOrders(g.setup, state, 0, { program: [490, h[1]!, h[2]!, h[3]!] });
  assert.equal(moved.ok, false);
  if (!moved.ok) assert.equal(moved.error.field, 'program[0]');
  const good = must(submitOrders(g.setup, state, 0, { program: h }));
  assert.deepEqual(good.robots[0]!.registers, [...h, 490]);
});

test('an undamaged robot may not announce a power down', () => {
  // 000 L93 "Only damaged robots may choose to power down."; RULES.md (B-15)
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 3, y: 0, dir: 'E', damage: 1 }]);
  const { state } = begin(g);
  const res = submitOrders(g.setup, state, 0, { program: state.robots[0]!.hand.slice(0, 5), powerDown: true });
  assert.equal(res.ok, false);
  if (!res.ok) assert.equal(res.error.field, 'powerDown');
  assert.ok(submitOrders(g.setup, state, 1, { program: state.robots[1]!.hand.slice(0, 5), powerDown: true }).ok);
});

test('unlock names registers 1 to 5 only', () => {
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E' }]);
  const { state } = begin(g);
  const res = submitOrders(g.setup, state, 0, { program: state.robots[0]!.hand.slice(0, 5), unlock: [4, 6] });
  assert.equal(res.ok, false);
  if (!res.ok) assert.equal(res.error.field, 'unlock[1]');
});

test('a refused program changes nothing, and the registers wait for every program', () => {
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 3, y: 0, dir: 'E' }]);
  const { state } = begin(g);
  const before = JSON.stringify(state);
  assert.equal(submitOrders(g.setup, state, 0, { program: [] }).ok, false);
  assert.equal(JSON.stringify(state), before);
  const one = must(submitOrders(g.setup, state, 0, { program: state.robots[0]!.hand.slice(0, 5) }));
  const res = playRegister(g.setup, one);
  assert.equal(res.ok, false);
  if (!res.ok) {
    assert.equal(res.error.field, 'programs');
    assert.match(res.error.message, /B/);
  }
});

test('unplayed cards are discarded when the registers begin', () => {
  // 000 L85 "arrange them face down ... discarding any remaining cards"
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'N' }]);
  const { state } = begin(g);
  const h = state.robots[0]!.hand;
  const st = must(submitOrders(g.setup, state, 0, { program: h.slice(0, 5) }));
  const after = must(playRegister(g.setup, st)).state;
  assert.deepEqual(after.robots[0]!.hand, []);
  for (const c of h.slice(5)) assert.ok(after.discard.includes(c));
});

test('the reveal discards the unplayed cards in hand order, robot by robot, the program in any order of the hand', () => {
  // 000 L85; the program taken from the middle and the end of the hand, out of hand order
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'N' }, { name: 'B', x: 5, y: 0, dir: 'N', damage: 2 }]);
  const { state } = begin(g);
  const a = state.robots[0]!.hand.slice(), b = state.robots[1]!.hand.slice();
  let st = must(submitOrders(g.setup, state, 0, { program: [a[8]!, a[1]!, a[4]!, a[6]!, a[2]!] }));
  st = must(submitOrders(g.setup, st, 1, { program: [b[0]!, b[6]!, b[3]!, b[5]!, b[2]!] }));
  const after = must(playRegister(g.setup, st)).state;
  assert.deepEqual(after.discard, [a[0], a[3], a[5], a[7], b[1], b[4]]);
});

test('unplayedOf finds the hand cards in no register, in hand order, and declines what is not a 32-bit integer', () => {
  const work = { unplayed: new Int32Array(2), nunplayed: 0 } as unknown as Workspace;
  const found = (hand: number[], reg: number[]): number[] | null =>
    unplayedOf(work, hand, reg) ? Array.from(work.unplayed.subarray(0, work.nunplayed)) : null;
  assert.deepEqual(found([700, 10, 840, 490, 80, 300, 20, 660, 450], [80, 660, 10, 300, 20]), [700, 840, 490, 450]);
  assert.deepEqual(found([10, 20], [10, 20, 30, 40, 50]), []);
  // pbem deals an instruction more than once: a register holding it keeps every copy out of the discard
  assert.deepEqual(found([1000, 1000, 1001, 1003], [1000, 1002, 1002, 1002, 1002]), [1001, 1003]);
  // an empty register (0) holds no card; cards far apart in value, and the sign bit
  assert.deepEqual(found([-2147483648, 2147483647, 1], [0, 0, 0, 0, 1]), [-2147483648, 2147483647]);
  assert.equal(found([10, 1.5], [10, 0, 0, 0, 0]), null);
  assert.equal(found([10, 2 ** 32 + 10], [10, 0, 0, 0, 0]), null);
  assert.equal(found([10, 20], [10, 20.5, 0, 0, 0]), null);
  assert.equal(found([10, 20], [10, NaN, 0, 0, 0]), null);
});

test('orders may be replaced until the registers begin', () => {
  // turn.ts submitOrders: "Orders may be replaced until the registers begin"
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 1 }]);
  const { state } = begin(g);
  const h = state.robots[0]!.hand;
  const first = must(submitOrders(g.setup, state, 0, { program: h.slice(0, 5), powerDown: true }));
  const second = must(submitOrders(g.setup, first, 0, { program: h.slice(3, 8) }));
  assert.deepEqual(second.robots[0]!.registers, h.slice(3, 8));
  assert.equal(second.robots[0]!.announced, false);
});

test('a late program is completed from the robot\'s unplayed cards at random, keeping the cards it chose', () => {
  // RULES.md threeMinuteRule: "a late player's empty registers are filled from its unplayed cards at random (a race on deadlines always fills a late classic program this way)"
  const g = race(ROW, [{ name: 'A', x: 0, y: 0, dir: 'E', damage: 2 }]);
  const { state } = begin(g);
  const h = state.robots[0]!.hand;
  const res = must(fillProgram(g.setup, state, 0, [h[0]!, 0, h[2]!]));
  const regs = res.state.robots[0]!.registers;
  assert.equal(regs[0], h[0]);
  assert.equal(regs[2], h[2]);
  assert.equal(new Set(regs).size, 5);
  for (const c of regs) assert.ok(h.includes(c));
  assert.equal(res.state.robots[0]!.programmed, true);
  assert.deepEqual(must(fillProgram(g.setup, state, 0, [h[0]!, 0, h[2]!])).state.robots[0]!.registers, regs);
});
