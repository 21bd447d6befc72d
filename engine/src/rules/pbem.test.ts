import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBoard } from '../board.js';
import { createState, makeSetup } from '../game.js';
import { instruction, type CardType } from '../cards.js';
import { beginTurn, playTurn, submitOrders } from '../turn.js';
import type { GameState } from '../state.js';
import type { Setup } from '../context.js';
import { UPGRADES } from '../options/catalog.js';

function must<T>(r: { ok: true; value: T } | { ok: false; error: { field: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
}

/** One round in which every robot turns in place. */
function round(setup: Setup, st: GameState, cards: CardType[] = ['L', 'R', 'L', 'R', 'L']): { state: GameState; events: ReturnType<typeof playTurn> } {
  let s = must(beginTurn(setup, st)).state;
  s.robots.forEach((r, i) => {
    if (r.status !== 'active' || r.poweredDown) return;
    r.hand = cards.map(instruction);
    s = must(submitOrders(setup, s, i, { program: r.hand.slice() }));
  });
  const played = playTurn(setup, s);
  return { state: must(played).state, events: played };
}

test('each pbem hammer site offers an upgrade from the start, drawn from the 22', () => {
  const setup = must(makeSetup(must(parseBoard({ grid: ['. WW .', '. . WW'] })), 'pbem'));
  const st = must(createState(setup, [{ name: 'A', x: 0, y: 0, dir: 0 }], 1));
  assert.equal(st.offers.length, 2);
  for (const o of st.offers) assert.ok((UPGRADES as readonly string[]).includes(o.option));
});

test('a robot ending a pbem round on a hammer site repairs 2 and takes the upgrade on offer, which is replaced at once', () => {
  // 001 L181 "repair two damage AND upgrade with the upgrade at that spot. Once a robot has been
  // upgraded, a new random upgrade will become available at that spot."
  const setup = must(makeSetup(must(parseBoard({ grid: ['. WW .'] })), 'pbem'));
  const st = must(createState(setup, [{ name: 'A', x: 1, y: 0, dir: 0, damage: 3 }], 2));
  const offered = st.offers[0]!.option;
  const after = round(setup, st).state;
  assert.equal(after.robots[0]!.damage, 1);
  assert.deepEqual(after.robots[0]!.options, [offered]);
  assert.equal(after.offers.length, 1);
  assert.equal(after.offers[0]!.since, 2);
});

test('an upgrade left on a hammer site for five rounds is replaced by a new one', () => {
  // 001 L181 "An upgrade that has been available for five rounds will be replaced by a new random upgrade."
  const setup = must(makeSetup(must(parseBoard({ grid: ['. WW .', '. . .'] })), 'pbem'));
  let st = must(createState(setup, [{ name: 'A', x: 0, y: 1, dir: 0 }], 3));
  for (let k = 1; k <= 4; k++) {
    st = round(setup, st).state;
    assert.equal(st.offers[0]!.since, 1, `after round ${k} the first offer is still there`);
  }
  st = round(setup, st).state;
  assert.equal(st.offers[0]!.since, 6, 'at the end of its fifth round it was replaced');
});

test('a pbem robot destroyed loses one of its upgrades at random', () => {
  // 001 L305 "A destroyed robot immediately loses a random upgrade (if it has any)."
  const setup = must(makeSetup(must(parseBoard({ grid: ['. . .', '. . .'] })), 'pbem'));
  const st = must(createState(setup, [{ name: 'A', x: 1, y: 0, dir: 0, options: ['Brakes', 'Flywheel'] }], 4));
  const { state, events } = round(setup, st, ['F1', 'L', 'R', 'L', 'R']);
  assert.equal(state.robots[0]!.status, 'destroyed');
  assert.equal(state.robots[0]!.options.length, 1);
  const lost = must(events).events.find((e) => e.type === 'optionLost');
  assert.ok(lost && lost.type === 'optionLost' && ['Brakes', 'Flywheel'].includes(lost.option));
});
