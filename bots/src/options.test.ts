import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RULE_SETS, beginTurn, createState, endTurn, makeSetup, openRegisters, parseBoard, playRegister, submitOrders, type GameState, type Setup } from '../../engine/src/index.js';
import { chooseOrders } from './index.js';

function onTwoWrenches(rules: 'classic' | 'pbem', damage: number): { setup: Setup; state: GameState } {
  const board = parseBoard({ grid: ['x x x x x', 'x . WW . x', 'x x x x x'] });
  if (!board.ok) throw new Error(board.error.message);
  const setup = makeSetup(board.value, rules, RULE_SETS[rules]!.optionDeck ? { optionDeck: ['Shield'] } : {});
  if (!setup.ok) throw new Error(setup.error.message);
  const st = createState(setup.value, [{ name: 'Bot', x: 2, y: 1, dir: 0, damage }]);
  if (!st.ok) throw new Error(st.error.message);
  const begun = beginTurn(setup.value, st.value);
  if (!begun.ok) throw new Error(begun.error.message);
  return { setup: setup.value, state: begun.value.state };
}

/** The bot's whole turn on a two-wrench site it cannot leave (holes all round, walls keep it in). */
function botTurn(level: 'greedy' | 'strong', damage: number): GameState {
  const { setup, state } = onTwoWrenches('classic', damage);
  // A hand of U-turns and rotations keeps it on the site; its own orders for everything else.
  const r = state.robots[0]!;
  r.hand = [10, 20, 30, 40, 50, 60, 70, 90, 110].slice(0, r.hand.length);
  const orders = chooseOrders(setup, state, 0, 7, level);
  const spin = r.hand.slice(0, openRegisters(r.locked).length);
  let st = submitOrders(setup, state, 0, { ...orders, program: spin });
  if (!st.ok) throw new Error(st.error.message);
  let s = st.value;
  for (let k = 0; k < 5; k++) {
    const r = playRegister(setup, s);
    if (!r.ok) throw new Error(r.error.message);
    s = r.value.state;
  }
  const e = endTurn(setup, s);
  if (!e.ok) throw new Error(e.error.message);
  return e.value.state;
}

test('in classic, greedy and strong bots take an option at a two-wrench site while nearly whole, and repair when damaged', () => {
  for (const level of ['greedy', 'strong'] as const) {
    assert.deepEqual(botTurn(level, 1).robots[0]!.options, ['Shield'], `${level} with 1 damage`);
    const hurt = botTurn(level, 5).robots[0]!;
    assert.deepEqual([hurt.options, hurt.damage], [[], 3], `${level} with 5 damage repairs 2`);
  }
});

test('in pbem a bot gives no two-wrench order: the hammer site always repairs and upgrades', () => {
  const { setup, state } = onTwoWrenches('pbem', 1);
  const o = chooseOrders(setup, state, 0, 7, 'strong');
  assert.equal(o.takeOption ?? false, false);
  assert.equal(o.choices?.takeOption, undefined);
});

test('in classic, strong and expert bots holding a Pressor Beam name it in every register on condition that it drops its target (pbem: no such order); the engine takes the orders', () => {
  const held = 'Pressor Beam';
  const board = parseBoard({ grid: ['. . . . .', '. . . . .', '. . . O .'], flags: [[4, 0]] });
  if (!board.ok) throw new Error(board.error.message);
  for (const rules of ['classic', 'pbem'] as const) {
    const namesWeapons = RULE_SETS[rules]?.options.toggles === false; // toggled weapons fire without naming (pbem)
    const setup = makeSetup(board.value, rules, {});
    if (!setup.ok) throw new Error(setup.error.message);
    const st = createState(setup.value, [{ name: 'Bot', x: 0, y: 0, dir: 1, options: [held] }, { name: 'Other', x: 3, y: 1, dir: 0 }]);
    if (!st.ok) throw new Error(st.error.message);
    const begun = beginTurn(setup.value, st.value);
    if (!begun.ok) throw new Error(begun.error.message);
    for (const level of ['strong', 'expert'] as const) {
      const o = chooseOrders(setup.value, begun.value.state, 0, 5, level, { evaluations: 5000 });
      if (namesWeapons) {
        assert.deepEqual(o.choices?.weapon, { 1: held, 2: held, 3: held, 4: held, 5: held }, `${level}`);
        assert.deepEqual(o.choices?.weaponIfFalls, [1, 2, 3, 4, 5]);
      } else assert.equal(o.choices?.weapon, undefined, `${level} in pbem (toggles)`);
      assert.ok(submitOrders(setup.value, begun.value.state, 0, o).ok, `${level} in ${rules}`);
    }
    const greedy = chooseOrders(setup.value, begun.value.state, 0, 5, 'greedy');
    assert.equal(greedy.choices?.weapon, undefined);
  }
});
