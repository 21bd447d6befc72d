/** Whole races of bots through the driver: played to their end with legal orders only. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runBotRace } from './index.js';
import { plainBoard, setupOf } from '../../bots/src/testing.js';

describe('bot races', () => {
  test('a race of all four levels runs to its end with no order refused', () => {
    const setup = setupOf(plainBoard(8, 8, { '3,3': 'O', '4,4': 'O' }, [[6, 1], [1, 6]], { start: [0, 0] }));
    const r = runBotRace(setup, { levels: ['strong', 'greedy', 'random', 'expert'], seed: 3, maxTurns: 40, timing: true, budgets: { expert: { evaluations: 5000 } } });
    assert.ok(r.turns >= 1 && r.turns <= 40);
    assert.ok(r.robots.every((x) => x.refused === 0));
    assert.ok(r.finished.length > 0, 'somebody finishes a small course in 40 turns');
    assert.equal(r.robots.filter((x) => x.place === 1).length, r.finished[0]!.length);
    assert.equal(r.decisionMs.strong.length, r.decisionCards.strong.length);
    assert.ok(r.decisionMs.expert.length > 0);
  });

  test('a lone strong bot finishes a small course', () => {
    const setup = setupOf(plainBoard(8, 8, { '3,3': 'O', '4,4': 'O' }, [[6, 1], [1, 6]], { start: [0, 0] }));
    for (const seed of [1, 2, 3]) {
      const r = runBotRace(setup, { levels: ['strong'], seed, maxTurns: 30 });
      assert.notEqual(r.robots[0]!.finishTurn, null, `seed ${seed}`);
    }
  });
});
