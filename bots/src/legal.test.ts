/**
 * Bots hand in legal orders in every situation: the engine's `submitOrders` accepts them over many
 * random games (fast-check), with locked registers, powered-down robots, short hands, nine damage
 * and every register locked, destroyed and out robots, virtual robots, and pbem's duplicate
 * instructions. Each game is played on by the bots for a few turns, so the states they meet are
 * the states their own play leads to.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  beginTurn, cardType, createState, instruction, openRegisters, playTurn, raceOver, submitOrders, type GameState, type Reentry, type Setup,
} from '../../engine/src/index.js';
import { BOTS, LEVELS, type Level } from './index.js';
import { must, plainBoard, randomGame, setupOf } from './testing.js';

const RUNS = Number(process.env.BOT_PROPERTY_RUNS ?? 60);
const TURNS = 4;
/** The expert bot's budget here: enough for a few rounds of its look beyond the turn (the others spend none). */
const BUDGET = { evaluations: 6000 };

/** Every bot's orders for every robot, checked by the engine; the turn is then played. */
function playTurnChecked(setup: Setup, state: GameState, levels: readonly Level[], seed: number): GameState {
  const reentry: Record<number, Reentry> = {};
  state.robots.forEach((r, i) => {
    if (r.status === 'destroyed') reentry[i] = BOTS[levels[i]!].chooseReentry(setup, state, i, seed, BUDGET);
  });
  let st = must(beginTurn(setup, state, reentry, { events: false })).state;
  const dealt = st;
  for (let i = 0; i < st.robots.length; i++) {
    const r = dealt.robots[i]!;
    const orders = BOTS[levels[i]!].chooseOrders(setup, dealt, i, seed, BUDGET);
    if (r.status !== 'active') {
      assert.equal(orders.program?.length ?? 0, 0, `${levels[i]} gave a program to a robot that is ${r.status}`);
      assert.ok(!orders.powerDown, `${levels[i]} powered down a robot that is ${r.status}`);
      continue;
    }
    if (r.poweredDown) assert.equal(orders.program?.length ?? 0, 0, `${levels[i]} gave cards to a powered-down robot`);
    else assert.equal(orders.program?.length, openRegisters(r.locked).length, `${levels[i]}: one card per open register`);
    const res = submitOrders(setup, st, i, orders);
    assert.ok(res.ok, `${levels[i]} bot, robot ${i} (${JSON.stringify({ damage: r.damage, locked: r.locked, hand: r.hand, poweredDown: r.poweredDown })}): ${res.ok ? '' : `${res.error.field}: ${res.error.message}`}`);
    st = res.value;
  }
  return must(playTurn(setup, st, { events: false })).state;
}

describe('bots hand in legal orders', () => {
  for (const rules of ['classic', 'pbem'] as const) {
    test(`every level's orders are accepted by submitOrders over random ${rules} games, turn after turn`, () => {
      fc.assert(
        fc.property(fc.nat(), fc.array(fc.constantFrom(...LEVELS), { minLength: 6, maxLength: 6 }), (seed, levels) => {
          const game = randomGame(seed, rules);
          let state = game.state;
          for (let t = 0; t < TURNS && !raceOver(game.setup, state); t++) state = playTurnChecked(game.setup, state, levels, seed + t);
        }),
        { numRuns: RUNS, seed: 7 },
      );
    });
  }

  const board = plainBoard(6, 6, { '2,2': 'O' }, [[5, 5]]);
  const classic = setupOf(board);

  for (const level of LEVELS) {
    test(`${level}: nine damage, every register locked and no cards: an empty program`, () => {
      const st0 = must(createState(classic, [{ name: 'A', x: 0, y: 0, dir: 1, damage: 9, program: [490, 500, 510, 520, 530] }]));
      const st = must(beginTurn(classic, st0)).state;
      assert.equal(st.robots[0]!.hand.length, 0);
      const orders = BOTS[level].chooseOrders(classic, st, 0, 1);
      assert.deepEqual(orders.program ?? [], []);
      assert.ok(submitOrders(classic, st, 0, orders).ok);
    });

    test(`${level}: five damage, one register locked, four cards for four registers`, () => {
      const st0 = must(createState(classic, [{ name: 'A', x: 0, y: 0, dir: 1, damage: 5, program: [0, 0, 0, 0, 670] }]));
      const st = must(beginTurn(classic, st0)).state;
      const orders = BOTS[level].chooseOrders(classic, st, 0, 3);
      assert.equal(orders.program?.length, 4);
      assert.deepEqual([...orders.program!].sort(), st.robots[0]!.hand.slice().sort());
      assert.ok(submitOrders(classic, st, 0, orders).ok);
    });

    test(`${level}: a powered-down robot gives no program`, () => {
      const st0 = must(createState(classic, [{ name: 'A', x: 0, y: 0, dir: 1, damage: 3, poweredDown: true }]));
      const st = must(beginTurn(classic, st0)).state;
      assert.ok(st.robots[0]!.poweredDown);
      const orders = BOTS[level].chooseOrders(classic, st, 0, 1);
      assert.equal(orders.program?.length ?? 0, 0);
      assert.ok(submitOrders(classic, st, 0, orders).ok);
    });

    test(`${level}: a destroyed robot and a robot out of the game give no orders`, () => {
      const st0 = must(createState(classic, [
        { name: 'A', x: 0, y: 0, dir: 1, destroyed: true },
        { name: 'B', x: 1, y: 0, dir: 1 },
      ]));
      const out: GameState = { ...st0, robots: st0.robots.map((r, i) => (i === 1 ? { ...r, status: 'out' as const } : r)) };
      for (const i of [0, 1]) assert.deepEqual(BOTS[level].chooseOrders(classic, out, i, 1), {});
    });

    test(`${level}: pbem, a hand of duplicate instructions is programmed as a multiset`, () => {
      const pbem = setupOf(board, 'pbem');
      const st = must(beginTurn(pbem, must(createState(pbem, [{ name: 'A', x: 0, y: 0, dir: 1 }])))).state;
      const F1 = instruction('F1'), R = instruction('R');
      st.robots[0]!.hand = [F1, F1, F1, R, R, R, F1, R, F1, F1];
      const orders = BOTS[level].chooseOrders(pbem, st, 0, 5);
      assert.equal(orders.program?.length, 5);
      assert.ok(orders.program!.every((c) => cardType(c) === 'F1' || cardType(c) === 'R'));
      assert.ok(submitOrders(pbem, st, 0, orders).ok);
    });
  }
});
