/** The classic program deck and card names (RULES.md "The program deck"; 000 L30). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CARD_TYPES, DECK, cardAction, cardName, cardType, isDeckCard, parseCard, type CardType } from './cards.js';

test('the classic deck has 84 cards, every priority different', () => {
  // 000 L30 "84 program cards"; RULES.md "84 cards, every priority different"
  assert.equal(DECK.length, 84);
  assert.equal(new Set(DECK).size, 84);
});

test('the deck holds 18 Move 1, 12 Move 2, 6 Move 3, 6 Back-Up, 18 Rotate Right, 18 Rotate Left, 6 U-Turn', () => {
  // 000 L30 "(18 x Move 1, 12 x Move 2, 6 x Move 3, 6 x Back-up, 18 x Rotate Right, 18 x Rotate Left and 6 x U-Turn)"
  const count: Record<CardType, number> = { F1: 0, F2: 0, F3: 0, B: 0, L: 0, R: 0, U: 0 };
  for (const c of DECK) count[cardType(c)]++;
  assert.deepEqual(count, { F1: 18, F2: 12, F3: 6, B: 6, R: 18, L: 18, U: 6 });
  // 000 L30 "forty-two movement cards and forty-two rotate cards"
  assert.equal(count.F1 + count.F2 + count.F3 + count.B, 42);
  assert.equal(count.L + count.R + count.U, 42);
});

test('each card type has the priority range of RULES.md', () => {
  // RULES.md: U-Turn 10–60 (step 10), Rotate Left 70–410 (step 20), Rotate Right 80–420 (step 20),
  // Back-Up 430–480, Move 1 490–660, Move 2 670–780, Move 3 790–840 (step 10)
  const ranges: [CardType, number, number, number][] = [
    ['U', 10, 60, 10], ['L', 70, 410, 20], ['R', 80, 420, 20], ['B', 430, 480, 10],
    ['F1', 490, 660, 10], ['F2', 670, 780, 10], ['F3', 790, 840, 10],
  ];
  for (const [type, from, to, step] of ranges) {
    const want: number[] = [];
    for (let p = from; p <= to; p += step) want.push(p);
    assert.deepEqual(DECK.filter((c) => cardType(c) === type), want, type);
  }
});

test('the ranges put faster moves first and rotations last', () => {
  // 000 L219 "movement cards have a higher priority than rotate cards. The faster movement cards are executed before the slower"
  const lo = (t: CardType) => Math.min(...DECK.filter((c) => cardType(c) === t));
  const hi = (t: CardType) => Math.max(...DECK.filter((c) => cardType(c) === t));
  assert.ok(lo('F3') > hi('F2') && lo('F2') > hi('F1') && lo('F1') > hi('B'));
  assert.ok(lo('B') > Math.max(hi('L'), hi('R'), hi('U')));
});

test('a card is its priority, read from CODE:PRIORITY', () => {
  // SCENARIOS.md "Card codes": F1 Move 1 (also written F), F2, F3, B, L, R, U; the priority follows a colon
  assert.equal(parseCard('F2:670', true), 670);
  assert.equal(parseCard('F1:490', true), 490);
  assert.equal(parseCard('F:660', true), 660);
  assert.equal(parseCard('F3:840', true), 840);
  assert.equal(parseCard('B:430', true), 430);
  assert.equal(parseCard('L:70', true), 70);
  assert.equal(parseCard('R:420', true), 420);
  assert.equal(parseCard('U:10', true), 10);
  assert.equal(parseCard(' f2:670 ', true), 670);
});

test('parseCard refuses a card outside the deck or with the wrong type for its priority', () => {
  // RULES.md "A program or scenario that names a card outside this deck ... is an error"
  assert.equal(parseCard('F2:490', true), undefined); // 490 is a Move 1
  assert.equal(parseCard('F1:495', true), undefined); // no such priority
  assert.equal(parseCard('L:80', true), undefined); // 80 is a Rotate Right
  assert.equal(parseCard('R:70', true), undefined);
  assert.equal(parseCard('F3:850', true), undefined);
  assert.equal(parseCard('U:0', true), undefined);
  assert.equal(parseCard('F2', true), undefined); // classic cards carry a priority
  assert.equal(parseCard('X:100', true), undefined);
  assert.equal(parseCard('F4:800', true), undefined);
});

test('every deck card reads back from its name', () => {
  for (const c of DECK) {
    assert.ok(isDeckCard(c));
    assert.equal(parseCard(cardName(c), true), c);
  }
  assert.equal(cardName(670), 'F2:670');
  assert.ok(!isDeckCard(75) && !isDeckCard(850) && !isDeckCard(0));
});

test('card actions: moves forward 1–3, Back-Up one back, rotations turn without moving', () => {
  // 000 L118 "A Move 2 will move a robot forward two squares, a Back-Up card will move a robot back one square ...
  // rotate cards turn 90 degrees in the indicated direction, and a U-Turn is a 180 degree turn"; 000 L142
  assert.deepEqual(cardAction(490), { move: 1, turn: 0 });
  assert.deepEqual(cardAction(670), { move: 2, turn: 0 });
  assert.deepEqual(cardAction(790), { move: 3, turn: 0 });
  assert.deepEqual(cardAction(430), { move: -1, turn: 0 });
  assert.deepEqual(cardAction(70), { move: 0, turn: 3 });
  assert.deepEqual(cardAction(80), { move: 0, turn: 1 });
  assert.deepEqual(cardAction(10), { move: 0, turn: 2 });
  assert.equal(CARD_TYPES.length, 7);
});
