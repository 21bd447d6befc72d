/** The race driver: placing the entrants, the deal, the bots' decisions, the fill, the turn, the end. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { beginTurn, cardName, createState, makeSetup, openRegisters, parseBoard, readOrders, storedTurn, type CheckedTurn, type GameState, type Setup } from '../../engine/src/index.js';
import { plainBoard, randomGame, setupOf } from '../../bots/src/testing.js';
import { chooseOrders } from '../../bots/src/index.js';
import { adjudicate, botSeed, decideBot, decideBots, entrants, startRace } from './index.js';

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { field: string; message: string } }): T => {
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
};

/** A person's orders as the server takes them: read and checked by the engine when sent, kept as written, read back at the deadline. */
function sent(setup: Setup, st: GameState, seat: number, body: Record<string, unknown>): CheckedTurn {
  return storedTurn(setup, st, seat, must(readOrders(setup, st, seat, body)).written);
}

const board = plainBoard(8, 8, { '3,3': 'O', '4,4': 'O' }, [[6, 1], [1, 6]], { start: [0, 0] });
const course = { start: [0, 0] as const, starts: [[0, 0], [1, 0], [2, 0]] as const };

describe('entrants', () => {
  test('a rule set with one start for all places every robot on the course\'s start square', () => {
    const setup = setupOf(board, 'classic');
    const got = must(entrants(setup, course, [{ name: 'Ava', dir: 1 }, { name: 'Bo' }], 1));
    assert.deepEqual(got, [{ name: 'Ava', dir: 1 }, { name: 'Bo' }]);
    const race = must(startRace(setup, got, 1));
    assert.ok(race.created.robots.every((r) => r.x === 0 && r.y === 0 && r.virtual));
  });

  test('a rule set with a start per robot places them on the course\'s starts in pick order, and refuses too many robots', () => {
    const setup = setupOf(board, 'pbem');
    const got = must(entrants(setup, course, [{ name: 'Ava' }, { name: 'Bo' }], 1));
    assert.deepEqual(got.map((e) => e.start), [[0, 0], [1, 0]]);
    const refused = entrants(setup, course, ['A', 'B', 'C', 'D'].map((name) => ({ name })), 1);
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.error.message : '', /3 starts of one robot each.*not enough for 4 robots/);
  });

  test('a rule set with one start for all refuses a course without one', () => {
    const refused = entrants(setupOf(board, 'classic'), { start: null, starts: [[1, 1]] }, [{ name: 'Ava' }], 1);
    assert.deepEqual(refused.ok ? null : refused.error.field, 'rules');
  });

  test('a bot given no facing chooses its own', () => {
    const setup = setupOf(board, 'classic');
    const [bot] = must(entrants(setup, course, [{ name: 'Bolt', level: 'strong' }], 1));
    // From the corner (0,0) the strong bot faces into the board, toward its first flag: east or south.
    assert.ok(bot!.dir === 1 || bot!.dir === 2, `faces ${bot!.dir}`);
  });
});

describe('bot seeds', () => {
  test('follow from the race seed, the turn and the seat, and are 32-bit', () => {
    const words = [1, 2, 3, 4];
    assert.equal(botSeed(words, 3, 1), botSeed([1, 2, 3, 4], 3, 1));
    const seen = new Set([botSeed(words, 3, 1), botSeed(words, 4, 1), botSeed(words, 3, 2), botSeed([1, 2, 3, 5], 3, 1), botSeed(7, 3, 1)]);
    assert.equal(seen.size, 5);
    for (const s of seen) assert.ok(Number.isInteger(s) && s >= 0 && s < 2 ** 32);
  });
});

/** A lone robot on a two-wrench site it cannot leave, with a hand of turns only. */
function onTwoWrenches(damage: number): { setup: Setup; state: GameState } {
  const b = must(parseBoard({ grid: ['x x x x x', 'x . WW . x', 'x x x x x'] }));
  const setup = must(makeSetup(b, 'classic', { optionDeck: ['Shield'] }));
  const state = must(beginTurn(setup, must(createState(setup, [{ name: 'Bot', x: 2, y: 1, dir: 0, damage }])))).state;
  const r = state.robots[0]!;
  r.hand = [10, 20, 30, 40, 50, 60, 70, 90, 110].slice(0, r.hand.length);
  return { setup, state };
}

describe('adjudicate', () => {
  test('the bots decide with their option decisions: a greedy bot nearly whole on a two-wrench site takes the option', () => {
    const { setup, state } = onTwoWrenches(1);
    const bot = decideBot(setup, state, 0, 'greedy', 7);
    const played = must(adjudicate(setup, state, {}, { 0: bot }, 7));
    assert.deepEqual(played.ended.robots[0]!.options, ['Shield']);
    assert.deepEqual(played.fills, []);
  });

  test('is pure: the same turn and orders give the same result, and the state given is left as it was', () => {
    const setup = setupOf(board, 'classic');
    const race = must(startRace(setup, must(entrants(setup, course, [{ name: 'Ava' }, { name: 'Bolt', level: 'strong' }, { name: 'Cog', level: 'random' }], 5)), 5));
    const dealt = race.dealt.state;
    const copy = structuredClone(dealt);
    const bots = decideBots(setup, dealt, [{ seat: 1, level: 'strong' }, { seat: 2, level: 'random' }], 5);
    const a = must(adjudicate(setup, dealt, {}, bots, 5));
    const b = must(adjudicate(setup, dealt, {}, bots, 5));
    assert.deepEqual(a, b);
    assert.deepEqual(dealt, copy);
    assert.equal(a.state.turn, 2);
    assert.equal(a.state.phase, 'programming');
  });

  test('a person\'s missing registers are filled at random and named; nothing sent is a missing seat', () => {
    const setup = setupOf(board, 'classic');
    const race = must(startRace(setup, must(entrants(setup, course, [{ name: 'Ava' }, { name: 'Bo' }], 2)), 2));
    const dealt = race.dealt.state;
    const hand = dealt.robots[0]!.hand;
    const program = [cardName(hand[0]!), null, cardName(hand[1]!), null, null];
    const played = must(adjudicate(setup, dealt, { 0: sent(setup, dealt, 0, { program }) }, {}, 2));
    assert.deepEqual(played.fills.map((f) => [f.seat, f.registers, f.missing]), [[0, [2, 4, 5], false], [1, openRegisters(0), true]]);
    const revealed = played.played.find((e) => e.type === 'revealed');
    assert.ok(revealed, 'the programs are revealed');
  });

  test('a bot\'s refused card is filled, and the turn is still played', () => {
    const setup = setupOf(board, 'classic');
    const race = must(startRace(setup, must(entrants(setup, course, [{ name: 'Bolt', level: 'random' }], 3)), 3));
    const dealt = race.dealt.state;
    const notInHand = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140].find((c) => !dealt.robots[0]!.hand.includes(c))!;
    const hand = dealt.robots[0]!.hand;
    const played = must(adjudicate(setup, dealt, {}, { 0: { level: 'random', orders: { program: [notInHand, hand[1]!, hand[2]!, hand[3]!, hand[4]!] } } }, 3));
    assert.deepEqual(played.fills.map((f) => [f.seat, f.registers]), [[0, [1]]]);
  });

  test('a person\'s orders are checked by the engine once, when sent, and a bot\'s once, when the turn is played', () => {
    // The rule set's power-down rule is asked by every check of orders that power down: it counts them.
    const base = setupOf(board, 'pbem');
    let checks = 0;
    const setup: Setup = { ...base, rules: { ...base.rules, powerDownRefusal: (r) => (checks++, base.rules.powerDownRefusal(r)) } };
    const race = must(startRace(setup, must(entrants(setup, course, [{ name: 'Ava' }, { name: 'Bolt', level: 'random' }], 4)), 4));
    const dealt = race.dealt.state;
    const person = sent(setup, dealt, 0, { powerDown: true });
    assert.equal(checks, 1, 'checked when sent');
    const bot = { level: 'random' as const, orders: { program: dealt.robots[1]!.hand.slice(0, 5), powerDown: true } };
    const played = must(adjudicate(setup, dealt, { 0: person }, { 1: bot }, 4));
    assert.equal(checks, 2, 'the bot\'s orders checked when the turn is played, the person\'s not again');
    assert.deepEqual(played.fills.map((f) => [f.seat, f.registers, f.refused]), [[0, [1, 2, 3, 4, 5], false]]);
    assert.deepEqual(played.played.flatMap((e) => (e.type === 'powerDownAnnounced' ? [e.robot] : [])), [0, 1], 'both power downs were entered');
  });

  test('with onRegister, the state after each of the five register phases is shown, and the turn comes out as without', () => {
    const setup = setupOf(board, 'classic');
    const race = must(startRace(setup, must(entrants(setup, course, [{ name: 'Bolt', level: 'strong' }, { name: 'Cog', level: 'random' }], 6)), 6));
    const dealt = race.dealt.state;
    const bots = decideBots(setup, dealt, [{ seat: 0, level: 'strong' }, { seat: 1, level: 'random' }], 6);
    const seen: [number, number, string][] = [];
    const shown = must(adjudicate(setup, dealt, {}, bots, 6, { onRegister: (st, k) => seen.push([k, st.register, st.phase]) }));
    assert.deepEqual(seen, [1, 2, 3, 4, 5].map((k) => [k, k, 'registers']));
    assert.deepEqual(shown, must(adjudicate(setup, dealt, {}, bots, 6)));
  });

  test('says when the race is over and deals nothing more', () => {
    // One flag next to the start; the robot faces it and finishes in its first register.
    const setup = setupOf(plainBoard(4, 1, {}, [[1, 0]], { start: [0, 0] }), 'classic');
    const race = must(startRace(setup, must(entrants(setup, { start: [0, 0], starts: [] }, [{ name: 'Ava', dir: 1 }], 1)), 1));
    const dealt = structuredClone(race.dealt.state);
    dealt.robots[0]!.hand = [490, 10, 20, 30, 40, 50, 60, 70, 80]; // one F1, then turns on the spot
    const played = must(adjudicate(setup, dealt, { 0: sent(setup, dealt, 0, { program: [490, 10, 20, 30, 40].map(cardName) }) }, {}, 1));
    assert.deepEqual(played.ended.finished, [[0]]);
    assert.equal(played.over, true);
    assert.equal(played.next, null);
    assert.equal(played.state, played.ended);
  });
});

describe('what a bot sees', () => {
  /** Random games' first turns with Secret Options, another robot holding an option it has not used. */
  const cases = [[7, 1, 'Rear-Firing Laser'], [9, 1, 'Double-Barreled Laser'], [11, 1, 'Ablative Coat'], [23, 1, 'Double-Barreled Laser']] as const;
  const withOption = (seed: number, other: number, option: string) => {
    const g = randomGame(seed, 'classic');
    const setup: Setup = { ...g.setup, settings: { ...g.setup.settings, secretOptions: true } };
    const without = must(beginTurn(setup, g.state)).state;
    const held = structuredClone(without);
    held.robots[other]!.options = [...held.robots[other]!.options, option];
    return { setup, without, held };
  };

  test('under Secret Options a bot decides as if the others\' options not yet used were not there', () => {
    let changed = 0;
    for (const [seed, other, option] of cases) {
      const { setup, without, held } = withOption(seed, other, option);
      const botsSeed = botSeed(5, held.turn, 0);
      const hidden = chooseOrders(setup, without, 0, botsSeed, 'strong');
      // Known, the option changes the strong bot's plan (in one case at least); hidden, it does not.
      if (!isDeepStrictEqual(chooseOrders(setup, held, 0, botsSeed, 'strong'), hidden)) changed++;
      assert.deepEqual(decideBot(setup, held, 0, 'strong', 5).orders, hidden, `game ${seed}, ${option}`);
    }
    assert.ok(changed > 0, 'no hidden option changed a plan: the cases check nothing');
  });

  test('where the options are no secret a bot decides on them all', () => {
    for (const [seed, other, option] of cases) {
      const { setup, held } = withOption(seed, other, option);
      const open: Setup = { ...setup, settings: { ...setup.settings, secretOptions: false } };
      assert.deepEqual(decideBot(open, held, 0, 'strong', 5).orders, chooseOrders(open, held, 0, botSeed(5, held.turn, 0), 'strong'));
    }
  });
});
