/**
 * The expert bot: deterministic for a seed and a budget of evaluations, within the budget it is
 * given (evaluations, or a time on the caller's clock), its orders legal, its re-entry facing and
 * two-wrench choice taken by its own evaluation.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DECK, beginTurn, cardType, cloneState, createState, playTurn, submitOrders, type GameState } from '../../engine/src/index.js';
import { EXPERT_WEIGHTS, againstRivals, expertDecision, expertOptionThreshold, expertReentry, lookedAt, type Candidate } from './expert.js';
import { playProgram } from './search.js';
import { Sim } from './sim.js';
import { Judge, shouldPowerDown } from './strong.js';
import { chooseOrders } from './index.js';
import { must, plainBoard, randomGame, setupOf } from './testing.js';

/** Dealt states of random games with a robot to decide for (both rule sets). */
function positions(): { setup: ReturnType<typeof setupOf>; st: GameState; i: number; seed: number }[] {
  const out = [];
  for (let seed = 1; seed <= 12; seed++) {
    const g = randomGame(seed, seed % 2 ? 'classic' : 'pbem');
    const st = must(beginTurn(g.setup, g.state, {}, { events: false })).state;
    const i = st.robots.findIndex((r) => r.status === 'active' && !r.poweredDown && r.hand.length >= 5);
    if (i >= 0) out.push({ setup: g.setup, st, i, seed });
  }
  return out;
}

describe('the expert bot', () => {
  test('the same state, seed and budget of evaluations give the same orders, and the state is left untouched', () => {
    for (const { setup, st, i, seed } of positions()) {
      const before = JSON.stringify(st);
      const a = expertDecision(setup, st, i, seed, { evaluations: 8000 });
      const b = expertDecision(setup, cloneState(st), i, seed, { evaluations: 8000 });
      assert.deepEqual(a, b);
      assert.equal(JSON.stringify(st), before);
    }
  });

  test('it stops within its budget of evaluations: the first search, then no piece of work begun past the budget', () => {
    for (const { setup, st, i, seed } of positions()) {
      const none = expertDecision(setup, st, i, seed, { evaluations: 1 });
      const some = expertDecision(setup, st, i, seed, { evaluations: 10_000 });
      const more = expertDecision(setup, st, i, seed, { evaluations: 60_000 });
      assert.ok(none.evaluations >= 1);
      // A piece of work (a search of a next hand, or of the others' hands) begins only while the budget lasts.
      assert.ok(some.evaluations <= Math.max(10_000, none.evaluations) + 3 * 5_100, `${some.evaluations}`);
      assert.ok(more.evaluations >= some.evaluations);
      for (const d of [none, some, more]) assert.ok(submitOrders(setup, st, i, d.orders).ok);
    }
  });

  test('after `narrowAfter` rounds the next hands are looked at only for the `contenders` best programs so far, a same-type variant standing for its program', () => {
    const program = (k: number): Candidate =>
      ({ program: [DECK[k]!], turn: -k, samples: 1, next: -k, hands: 4, ended: undefined });
    const programs = Array.from({ length: 10 }, (_, k) => program(k));
    // A variant of the last program (other cards of the same types) scores best of all this turn.
    const variant: Candidate = { ...program(9), program: [DECK[40]!], turn: 100, parent: programs[9] };
    const cands = [...programs, variant];
    const w = { narrowAfter: 4, contenders: 6 };
    for (const round of [0, 3]) assert.deepEqual(lookedAt(cands, round, w), programs, `round ${round}: every program, no variant`);
    for (const round of [4, 15]) assert.deepEqual(lookedAt(cands, round, w), [...programs.slice(0, 5), programs[9]], `round ${round}`);
    // A program not looked at yet (hands 0) counts the mean next turn of those looked at.
    const fresh: Candidate = { ...program(0), next: 0, hands: 0, turn: 3 };
    assert.deepEqual(lookedAt([...programs, fresh], 4, { narrowAfter: 4, contenders: 3 }), [programs[0], programs[1], fresh]);
  });

  test('with a budget that does not bind, the narrowed look spends fewer evaluations than looking at every program in every round, deterministic and legal', () => {
    let fewer = 0;
    for (const { setup, st, i, seed } of positions()) {
      const narrowed = expertDecision(setup, st, i, seed, { evaluations: 10_000_000 });
      const again = expertDecision(setup, cloneState(st), i, seed, { evaluations: 10_000_000 });
      const every = expertDecision(setup, st, i, seed, { evaluations: 10_000_000 }, { ...EXPERT_WEIGHTS, contenders: Infinity });
      assert.deepEqual(narrowed, again);
      assert.ok(narrowed.evaluations <= every.evaluations, `${narrowed.evaluations} > ${every.evaluations}`);
      if (narrowed.evaluations < every.evaluations) fewer++;
      assert.ok(submitOrders(setup, st, i, narrowed.orders).ok);
    }
    assert.ok(fewer > 0);
  });

  test('a time budget is read on the clock the caller gives: a deadline already passed leaves only the first search', () => {
    let t = 0;
    const now = () => (t += 1); // a clock that moves one millisecond each time it is read
    for (const { setup, st, i, seed } of positions()) {
      const passed = expertDecision(setup, st, i, seed, { ms: 0, now });
      const first = expertDecision(setup, st, i, seed, { evaluations: 1 });
      assert.equal(passed.evaluations, first.evaluations);
      assert.deepEqual(passed.orders, first.orders);
      const reads = t;
      expertDecision(setup, st, i, seed, { ms: 5, now });
      assert.ok(t - reads <= 8, `read the clock ${t - reads} times for a 5 ms budget on a clock moving 1 ms a read`);
    }
  });

  test('it takes a flag two squares ahead', () => {
    const setup = setupOf(plainBoard(6, 6, {}, [[3, 1]]));
    const st0 = must(createState(setup, [{ name: 'A', x: 3, y: 3, dir: 0 }]));
    const st = must(beginTurn(setup, st0)).state;
    const used = new Set<number>();
    st.robots[0]!.hand = (['R', 'L', 'U', 'B', 'R', 'F2', 'L', 'R', 'B'] as const).map((t) => {
      const c = DECK.find((d) => cardType(d) === t && !used.has(d))!;
      used.add(c);
      return c;
    });
    const orders = chooseOrders(setup, st, 0, 1, 'expert', { evaluations: 20_000 });
    const ended = must(playTurn(setup, must(submitOrders(setup, st, 0, orders)), { events: false })).state;
    assert.equal(ended.robots[0]!.flags, 1);
  });

  test('re-entry: it faces a way its next turn can use, never into the wall beside its archive', () => {
    // Archive in the corner (0, 0) with the flag to the south-east: facing north or west wastes the turn.
    const setup = setupOf(plainBoard(6, 6, {}, [[0, 5]]));
    const st0 = must(createState(setup, [{ name: 'A', x: 0, y: 0, dir: 0, destroyed: true }]));
    const choice = expertReentry(setup, st0, 0, 3, { evaluations: 50_000 });
    assert.ok(choice.dir === 2 || choice.dir === 1, `faced ${choice.dir}`);
  });

  test('against the others: a program that pushes another robot into a pit scores `kill` more, a shot point of its damage `hurt` more', () => {
    const setup = setupOf(plainBoard(7, 7, { '3,1': 'O' }, [[0, 6]]));
    const w = { ...EXPERT_WEIGHTS, kill: 8, hurt: 1 };
    const judge = new Judge(setup, w);
    const f1 = DECK.find((c) => cardType(c) === 'F1')!;
    // A behind B, the pit beyond B: A's Move 1 pushes B into it.
    const push = must(createState(setup, [{ name: 'A', x: 3, y: 3, dir: 0 }, { name: 'B', x: 3, y: 2, dir: 0 }]));
    const scored = (st: GameState, program: number[]) => {
      const sim = new Sim(setup, st);
      const root = sim.newSnapshot();
      sim.save(root);
      const plain = playProgram(sim, 0, program, judge.scorer(0));
      sim.restore(root);
      const versus = playProgram(sim, 0, program, againstRivals(judge.scorer(0), st, [1], w));
      return versus - plain;
    };
    assert.equal(scored(push, [f1]), 8);
    // B two squares ahead, facing away along the row: A standing still shoots it in each of the five registers.
    const shot = must(createState(setup, [{ name: 'A', x: 3, y: 5, dir: 0 }, { name: 'B', x: 3, y: 3, dir: 1 }]));
    assert.equal(scored(shot, []), 5);
    // Without weights, the judge's score alone.
    const alone = judge.scorer(0);
    assert.equal(againstRivals(alone, shot, [1], { ...w, kill: 0, hurt: 0 }), alone);
  });

  test('where priorities decide the move order (classic), it powers down by the strong bot\'s rule on the program it chose, whatever budget is left', () => {
    let decided = 0;
    let down = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const g = randomGame(seed, 'classic');
      const st = must(beginTurn(g.setup, g.state, {}, { events: false })).state;
      st.robots.forEach((r, i) => {
        if (r.status !== 'active' || r.poweredDown || !r.hand.length || g.setup.rules.powerDownRefusal(r) !== null) return;
        // A budget of one evaluation: the first search, nothing after it.
        const { orders } = expertDecision(g.setup, st, i, seed, { evaluations: 1 });
        const strong = shouldPowerDown(new Judge(g.setup, EXPERT_WEIGHTS), new Sim(g.setup, st), i, orders.program ?? []);
        assert.equal(orders.powerDown === true, strong, `seed ${seed}, robot ${i}`);
        decided++;
        if (strong) down++;
      });
    }
    assert.ok(down > 0 && decided > down, `${down} of ${decided} power down`);
  });

  test('two-wrench choice: an option while whole, the repair when badly damaged', () => {
    const setup = setupOf(plainBoard(6, 6, {}, [[0, 5]]));
    const most = expertOptionThreshold(setup);
    assert.ok(most >= 0 && most < setup.rules.destroyAt - 2, `takes an option up to ${most} damage`);
  });
});
