/** A seat's view of the state (view.ts): what a bot decides on. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginTurn, optionsSeen, seatState, type GameState, type RobotState, type Setup } from './index.js';
import { card, must, race } from './testing.js';

const board = ['. . . . .', '. . . . .', '. . . . .'];

/** A dealt turn: Bo with damage enough to lock register 5, holding two options. */
function dealt(secretOptions: boolean): { setup: Setup; state: GameState } {
  const g = race(board, [
    { name: 'Ava', x: 0, y: 0, dir: 'E', options: ['Shield'] },
    { name: 'Bo', x: 4, y: 2, dir: 'W', damage: 5, options: ['Rear-Firing Laser', 'Ablative Coat:3'], program: ['F1', 'F2', 'U', 'L', 'R'] },
  ], { settings: { secretOptions } });
  const state = must(beginTurn(g.setup, g.state)).state;
  // It has used the Ablative Coat (the others have seen it) and keeps an F3 on a Flywheel.
  state.robots[1]!.opt = {
    choices: {}, joined: [0, 0, 0, 0, 0], fcLocks: 0, flywheel: card('F3'), aside: 0, copied: [0, 0, 0, 0, 0],
    copiedFrom: -1, superior: false, fresh: [], shown: ['Ablative Coat'], recompiled: false, optionSite: null,
  };
  return { setup: g.setup, state };
}

/** What anybody may see of a robot: all but its hand, its open registers, its option memory and its options. */
const publicPart = ({ hand: _h, registers, opt: _o, options: _p, ...rest }: RobotState) => ({ ...rest, lockedCards: registers.filter((_, k) => rest.locked & (1 << k)) });

test('a seat\'s view keeps everything public and its own hand and options, and takes the others\' hands, open registers and stored card', () => {
  const { setup, state } = dealt(false);
  assert.ok(state.robots[1]!.hand.length > 0 && state.robots[1]!.locked === 0b10000);
  const seen = seatState(setup, state, 0);
  const { robots: _a, rng: _c, deck: _d, discard: _e, optionDeck: _f, ...rest } = seen;
  const { robots: _b, rng: _g, deck: _h, discard: _i, optionDeck: _j, ...was } = state;
  assert.deepEqual(rest, was);
  assert.deepEqual(seen.robots.map(publicPart), state.robots.map(publicPart));
  assert.deepEqual(seen.robots[0], state.robots[0]);
  const bo = seen.robots[1]!;
  assert.deepEqual(bo.hand, []);
  assert.deepEqual(bo.registers, [0, 0, 0, 0, state.robots[1]!.registers[4]]);
  assert.equal(bo.opt!.flywheel, 0);
  // Options are no secret in this race: all of them are seen.
  assert.deepEqual(bo.options, ['Rear-Firing Laser', 'Ablative Coat:3']);
  assert.equal(state.robots[1]!.hand.length > 0 && state.robots[1]!.opt!.flywheel, card('F3'), 'the state given is left as it was');
});

test('under Secret Options a seat\'s view drops the others\' options not yet used, and keeps its own and those used', () => {
  const { setup, state } = dealt(true);
  assert.deepEqual(seatState(setup, state, 0).robots[1]!.options, ['Ablative Coat:3']);
  assert.deepEqual(optionsSeen(state.robots[1]!, true), ['Ablative Coat:3']);
  assert.deepEqual(seatState(setup, state, 1).robots[1]!.options, ['Rear-Firing Laser', 'Ablative Coat:3']);
  assert.deepEqual(seatState(setup, state, 1).robots[0]!.options, []);
});

test('a seat\'s view foretells no deal or draw: the undealt cards are every card it cannot place, in card order, its generator and option deck the same whatever the race\'s are', () => {
  const { setup, state } = dealt(false);
  const seen = seatState(setup, state, 0);
  const bo = state.robots[1]!;
  const hidden = [...state.deck, ...state.discard, ...bo.hand, ...bo.registers.slice(0, 4), bo.opt!.flywheel].filter((c) => c).sort((a, b) => a - b);
  assert.deepEqual(seen.deck, hidden);
  assert.deepEqual(seen.discard, []);
  // Another generator and another order of the same undealt cards: the same view.
  const other: GameState = { ...state, rng: state.rng.map((w) => (w ^ 0x5bd1e995) >>> 0), deck: [...state.deck].reverse(), optionDeck: [...state.optionDeck].reverse() };
  assert.notDeepEqual(other.rng, state.rng);
  assert.deepEqual(seatState(setup, other, 0), seen);
  assert.notDeepEqual(seen.rng, state.rng);
});

test('under Secret Options the option cards a seat cannot place are the option deck and the others\' options not yet used', () => {
  const { setup, state } = dealt(true);
  const seen = seatState(setup, state, 0);
  assert.deepEqual([...seen.optionDeck].sort(), [...state.optionDeck, 'Rear-Firing Laser'].sort());
  assert.deepEqual([...seatState(setup, state, 1).optionDeck].sort(), [...state.optionDeck, 'Shield'].sort());
});
