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

  test("each robot's deaths are the lives it lost: every destruction is counted once, whatever destroyed it", () => {
    // Pits all around the start: random bots fall often.
    const pits: Record<string, string> = {};
    for (const [x, y] of [[1, 0], [0, 1], [1, 1], [2, 2], [3, 1], [1, 3], [2, 0], [0, 2]] as const) pits[`${x},${y}`] = 'O';
    const setup = setupOf(plainBoard(6, 6, pits, [[5, 5]], { start: [0, 0] }), 'classic', 3);
    let died = 0;
    for (const seed of [1, 2, 3, 4]) {
      const r = runBotRace(setup, { levels: ['random', 'random', 'random'], seed, maxTurns: 20 });
      for (const x of r.robots) assert.equal(x.deaths, 3 - x.lives, `seed ${seed} ${x.name}`);
      died += r.robots.reduce((n, x) => n + x.deaths, 0);
    }
    assert.ok(died > 0, 'robots died');
  });

  test('a lone strong bot finishes a small course', () => {
    const setup = setupOf(plainBoard(8, 8, { '3,3': 'O', '4,4': 'O' }, [[6, 1], [1, 6]], { start: [0, 0] }));
    for (const seed of [1, 2, 3]) {
      const r = runBotRace(setup, { levels: ['strong'], seed, maxTurns: 30 });
      assert.notEqual(r.robots[0]!.finishTurn, null, `seed ${seed}`);
    }
  });
});
