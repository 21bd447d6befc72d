/**
 * A seat's orders as sent (`readOrders`, `storedTurn`) and as entered at the deadline
 * (`enterOrders`, `enterCheckedOrders`): one reader for the API, the mail, the terminal and the web,
 * errors naming the field's path, and the engine's check made once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginTurn, cardName, enterCheckedOrders, instruction, shownCards, type GameEvent, enterOrders, fillProgram, readOrders, storedOrders, storedTurn, submitOrders, type GameState, type Setup } from './index.js';
import { card, must, race } from './testing.js';

const HAND = ['F2:670', 'R:80', 'B:440', 'L:90', 'U:20', 'F1:500', 'F1:510', 'R:100', 'F3:800'];

/** Ava alone on an empty floor, the first turn dealt, holding HAND (classic). */
function dealt(more: { options?: string[]; damage?: number; rules?: 'classic' | 'pbem' } = {}): { setup: Setup; st: GameState } {
  const { rules, ...bot } = more;
  const g = race(['. . . . .', '. . . . .', '. . . . .'], [{ name: 'Ava', x: 2, y: 1, dir: 'N', ...bot }], rules ? { rules } : {});
  const st = structuredClone(must(beginTurn(g.setup, g.state)).state);
  if (!rules || rules === 'classic') st.robots[0]!.hand = HAND.slice(0, st.robots[0]!.hand.length).map(card);
  return { setup: g.setup, st };
}

const refusal = (r: { ok: boolean; error?: { field: string; message: string } }): [string, string] => {
  assert.equal(r.ok, false, 'expected a refusal');
  return [r.error!.field, r.error!.message];
};

test('orders are read as written and as the engine enters them: a card per open register, 0 for the random fill, the cards kept for another use', () => {
  const { setup, st } = dealt({ options: ['Crab Legs', 'Conditional Program'] });
  const body = { turn: 1, program: ['F2:670', null, 'F1:500+R:80', 'L:90', null], powerDown: false, reenter: { dir: 'W' }, facing: 'E', choices: { conditional: { card: 'F3:800', register: 2 } } };
  const read = must(readOrders(setup, st, 0, body));
  assert.deepEqual(read.written, { turn: 1, program: body.program, powerDown: false, stayDown: false, takeOption: false, unlock: [], reenter: { dir: 'W' }, facing: 'E', choices: body.choices });
  assert.deepEqual(read.turn.orders.program, [card('F2:670'), 0, card('F1:500'), card('L:90'), 0]);
  assert.deepEqual(read.turn.orders.joined, [0, 0, card('R:80'), 0, 0]);
  assert.deepEqual(read.turn.reserved, [card('R:80'), card('F3:800')]);
  assert.deepEqual([read.turn.reentry, read.turn.facing], [{ dir: 3 }, 1]);
  // What a server keeps (the written orders) reads back to the same turn.
  assert.deepEqual(storedTurn(setup, st, 0, read.written), read.turn);
});

test('refusals name the field\'s path: unknown keys, values of the wrong kind, a program of the wrong length, entries that are no card', () => {
  const { setup, st } = dealt();
  const five = ['F2:670', 'R:80', 'B:440', 'L:90', 'U:20'];
  const cases: [unknown, string, RegExp][] = [
    [[], 'body', /expected an object/],
    [{ program: five, rotaton: 1 }, 'rotaton', /unknown field/],
    [{ program: five, powerDown: 'yes' }, 'powerDown', /true or false/],
    [{ program: five, turn: 1.5 }, 'turn', /number of the turn/],
    [{ program: five, unlock: [1, 2, 3, 4, 5, 1] }, 'unlock', /register numbers 1 to 5/],
    [{ program: five, reenter: { dir: 'up' } }, 'reenter.dir', /N, E, S, W/],
    [{ program: five, reenter: { facing: 'N' } }, 'reenter', /expected \{"dir"/],
    [{ program: five.slice(0, 4) }, 'program', /expected 5 entries, one per open register \(1, 2, 3, 4, 5\), found 4/],
    [{ program: ['F2:670', 'R:80', 'Q:1', 'L:90', 'U:20'] }, 'program[2]', /is not a card/],
    [{ program: ['F2:670', 'R:80', 'F'.repeat(100_000), 'L:90', 'U:20'] }, 'program[2]', /at most 32 characters/],
    [{ program: Array(6).fill(null) }, 'program', /a list of cards/],
    [{ program: five, choices: { shield: 'back' } }, 'choices.shield', /does not hold Shield/],
  ];
  for (const [body, field, message] of cases) {
    const [f, m] = refusal(readOrders(setup, st, 0, body));
    assert.equal(f, field, JSON.stringify(body));
    assert.match(m, message, JSON.stringify(body));
  }
});

test('the engine has the last word: a card not dealt, a card used twice, a power down the rule set refuses', () => {
  const { setup, st } = dealt();
  assert.deepEqual(refusal(readOrders(setup, st, 0, { program: ['F2:670', 'R:80', 'B:440', 'L:90', 'U:30'] })), ['program[4]', 'U:30 was not dealt to Ava']);
  assert.deepEqual(refusal(readOrders(setup, st, 0, { program: ['F2:670', 'R:80', 'B:440', 'L:90', 'R:80'] })), ['program[4]', 'R:80 is used twice']);
  assert.match(refusal(readOrders(setup, st, 0, { powerDown: true }))[1], /^Ava: .*damaged/);
  assert.equal(refusal(readOrders(setup, st, 0, { facing: 'E', program: [null, null, null, null, null], reenter: null, stayDown: true }))[0], 'stayDown');
});

test('checked orders are entered at the deadline as the fill and submitOrders enter them, without a second check', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const { setup, st } = dealt({ options: ['Crab Legs'] });
    const hand = st.robots[0]!.hand.map(cardName);
    // Registers left to the fill, the others from the hand, a joined pair where the seed says.
    const program = [0, 1, 2, 3, 4].map((k) => ((seed >> k) & 1 ? null : hand[k]!));
    if (seed % 3 === 0) program[0] = 'F1:500+R:100';
    const read = must(readOrders(setup, st, 0, { program, powerDown: false, takeOption: seed % 2 === 0 }));
    const entered = must(enterCheckedOrders(setup, st, 0, read.turn));
    // The way the deadline entered them before: the fill, then the whole orders submitted.
    const filled = must(fillProgram(setup, st, 0, read.turn.orders.program, read.turn.reserved));
    const r = filled.state.robots[0]!;
    const cards = [1, 2, 3, 4, 5].map((reg) => r.registers[reg - 1]!);
    const joined = cards.map((c, k) => (c === read.turn.orders.program![k] ? read.turn.orders.joined![k]! : 0));
    const before = must(submitOrders(setup, filled.state, 0, { ...read.turn.orders, program: cards, joined }));
    assert.deepEqual(entered.state, before, `seed ${seed}`);
    assert.deepEqual(entered.events, filled.events);
    assert.equal(entered.refused, null);
  }
});

test('unchecked orders (a bot\'s) are checked when entered: what the engine refuses is dropped, the program kept', () => {
  const { setup, st } = dealt();
  const program = HAND.slice(0, 5).map(card);
  const entered = must(enterOrders(setup, st, 0, { orders: { program, powerDown: true } }));
  assert.equal(entered.refused?.field, 'powerDown');
  assert.deepEqual(entered.state.robots[0]!.registers, program);
  assert.equal(entered.state.robots[0]!.announced, false);
});

test('checked orders whose cards the hand no longer holds (a turn taken back after a Recompile) are checked again', () => {
  const { setup, st } = dealt();
  const read = must(readOrders(setup, st, 0, { program: HAND.slice(0, 5) }));
  const other = structuredClone(st);
  other.robots[0]!.hand = HAND.map((c) => card(c === 'F2:670' ? 'U:30' : c));
  const entered = must(enterCheckedOrders(setup, other, 0, read.turn));
  assert.equal(entered.state.robots[0]!.registers.includes(card('F2:670')), false, 'a card not dealt is never played');
  assert.deepEqual(entered.events.flatMap((e) => (e.type === 'programmed' ? e.filled.map((f) => f.register) : [])), [1]);
});

test('orders keep each card as the engine names it (f2:0670 is kept as F2:670), and a register named twice in unlock is refused', () => {
  const { setup, st } = dealt({ options: ['Crab Legs'] });
  const read = must(readOrders(setup, st, 0, { program: [' f2:0670', 'r:80', 'F1:500+r:100', 'L:90', null] }));
  assert.deepEqual(read.written.program, ['F2:670', 'R:80', 'F1:500+R:100', 'L:90', null]);
  assert.deepEqual(refusal(readOrders(setup, st, 0, { program: HAND.slice(0, 5), unlock: [1, 1] })), ['unlock', 'expected register numbers 1 to 5, each once']);
  assert.deepEqual(refusal(readOrders(setup, st, 0, { program: HAND.slice(0, 5), choices: { unlock: [2, 2] } })), ['choices.unlock', 'expected a list of register numbers 1 to 5, each at most once']);
});

test('stored orders that no longer read are named with the reader\'s error, and their registers filled at random as unreadable, never in silence', () => {
  const { setup, st } = dealt();
  // An entry in a notation the engine no longer reads (a corrupt or older row): that register only.
  const stale = storedTurn(setup, st, 0, { program: ['F2:670', 'Move two', null, 'L:90', 7], powerDown: false, stayDown: false, takeOption: false, unlock: [], reenter: null, choices: null });
  assert.deepEqual(stale.unread?.map((u) => u.field), ['program[1]', 'program[4]']);
  assert.ok(stale.unread!.every((u) => u.message.length > 0), 'each with its reader\'s error');
  assert.deepEqual(stale.unreadable, [1, 4]);
  const filled = must(enterCheckedOrders(setup, st, 0, stale));
  assert.deepEqual(filled.events, [{ type: 'programmed', robot: 0, filled: [{ register: 2, reason: 'unreadable' }, { register: 3, reason: 'chosen' }, { register: 5, reason: 'unreadable' }] }]);
  // No program at all (an old format), or no object: every register is filled as unreadable.
  for (const row of [{ cards: ['F2:670'] }, 'not orders', null]) {
    const t = storedTurn(setup, st, 0, row);
    assert.equal(t.unread?.length, 1, JSON.stringify(row));
    const all = must(enterCheckedOrders(setup, st, 0, t));
    assert.deepEqual(all.events, [{ type: 'programmed', robot: 0, filled: [1, 2, 3, 4, 5].map((register) => ({ register, reason: 'unreadable' })) }]);
  }
  // A decision that no longer reads is named and left out; the program stands.
  const choice = storedTurn(setup, st, 0, { program: ['F2:670', 'R:80', 'B:440', 'L:90', 'U:20'], powerDown: 'yes', choices: { brakes: [9] } });
  assert.deepEqual(choice.unread?.map((u) => u.field).sort(), ['choices.brakes', 'powerDown'].sort());
  assert.equal(choice.unreadable, undefined);
  assert.deepEqual(must(enterCheckedOrders(setup, st, 0, choice)).events, []);
});

test('stored orders are shown to their seat as they will be played: what no longer reads as left to the random fill or left out, and named', () => {
  const { setup, st } = dealt();
  const read = must(readOrders(setup, st, 0, { program: HAND.slice(0, 5), takeOption: false }));
  assert.deepEqual(storedOrders(setup, st, 0, read.written), { orders: read.written, unread: [] }, 'orders that read are shown as stored');
  const row = { program: ['F2:670', 'Move two', null, 'L:90', 7], powerDown: 'yes', stayDown: false, takeOption: false, unlock: [], reenter: null, choices: { brakes: [9] } };
  const shown = storedOrders(setup, st, 0, row);
  assert.deepEqual(shown.orders.program, ['F2:670', null, null, 'L:90', null]);
  assert.equal(shown.orders.powerDown, false);
  assert.equal(shown.orders.choices, null);
  assert.deepEqual(shown.unread.map((u) => u.field), ['program[1]', 'program[4]', 'powerDown', 'choices.brakes']);
  // What is shown is what is played: the same registers filled, as unreadable.
  const played = must(enterCheckedOrders(setup, st, 0, storedTurn(setup, st, 0, row)));
  const filled = played.events.flatMap((e) => (e.type === 'programmed' ? e.filled.map((f) => f.register) : []));
  assert.deepEqual(filled, shown.orders.program.flatMap((c, k) => (c === null ? [k + 1] : [])));
  // No object at all: every open register left to the random fill.
  assert.deepEqual(storedOrders(setup, st, 0, null).orders.program, [null, null, null, null, null]);
});

test('the cards a turn showed of a hand: each play\'s open registers, as often as one play showed them, none drawn from the deck, copied or locked, none from before a Recompile', () => {
  const st = { robots: [{ locked: 0 }, { locked: 0b10000 }] } as unknown as GameState;
  const f1 = instruction('F1');
  const play = (...events: GameEvent[]): GameEvent[] => [{ type: 'registerBegan', register: 1 }, ...events];
  const events: GameEvent[] = [
    ...play(
      { type: 'revealed', robot: 1, register: 1, card: card('R:80') },
      { type: 'revealed', robot: 0, register: 1, card: card('L:90') },
      { type: 'revealed', robot: 1, register: 2, card: f1, joined: card('U:20') },
      { type: 'aborted', robot: 1, register: 3, card: card('F3:800') },
      { type: 'revealed', robot: 1, register: 3, card: card('F3:800') },
      { type: 'revealed', robot: 1, register: 4, card: card('B:440'), copy: true },
      { type: 'revealed', robot: 1, register: 5, card: card('F2:670') },
    ),
    // Played again after a rewind: F1 twice, R:80 once more; the turn shows F1 twice, R:80 once.
    ...play(
      { type: 'revealed', robot: 1, register: 1, card: f1 },
      { type: 'revealed', robot: 1, register: 2, card: f1 },
      { type: 'revealed', robot: 1, register: 3, card: card('R:80') },
    ),
  ];
  const names = (cards: number[]) => cards.map(cardName).sort();
  assert.deepEqual(names(shownCards(st, 1, events)), names([card('R:80'), f1, f1, card('U:20')]));
  assert.deepEqual(names(shownCards(st, 0, events)), names([card('L:90')]));
  // A Recompile deals a new hand: what was shown of the old one is none of it.
  assert.deepEqual(shownCards(st, 1, [...events, { type: 'recompiled', robot: 1, cards: 9 }]), []);
});
