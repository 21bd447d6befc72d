/**
 * The search's transpositions: a state met twice has its subtree searched once, and the search
 * keeps the same programs, in the same order, as without.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { beginTurn, createState, DECK } from '../../engine/src/index.js';
import { runBotRace } from '../../driver/src/index.js';
import { loadCourse } from '../../boards/src/index.js';
import { makeSetup } from '../../engine/src/index.js';
import { DEFAULT_WEIGHTS, Judge } from './strong.js';
import { Positions, searchPrograms } from './search.js';
import { Sim } from './sim.js';
import { deciders, hand, must, plainBoard, randomDecisions, setupOf, type Decision } from './testing.js';


/** Decisions of random games and of greedy bots' races on a shipped course (robots damaged and locked), after 2, 7 and 12 turns. */
function decisions(): Decision[] {
  const out = randomDecisions();
  const course = must(loadCourse('dogleg')).course;
  for (const rules of ['classic', 'pbem'] as const) {
    const setup = must(makeSetup(course.board, rules, {}, course.boards.length));
    for (const seed of [1, 2]) {
      for (let turns = 2; turns <= 12; turns += 5) {
        const st = runBotRace(setup, { levels: ['greedy', 'greedy', 'greedy', 'greedy'], seed, maxTurns: turns, starts: course.starts, untilOver: true }).state;
        if (st.phase === 'programming') out.push(...deciders(setup, st));
      }
    }
  }
  return out;
}

describe("the strong bot's search shares the subtrees of states met twice", () => {
  test('keeps the same best programs, in the same order and with the same scores, and simulates fewer registers', () => {
    let nodes = 0, nodesShared = 0, decided = 0;
    for (const { setup, st, i } of decisions()) {
      const judge = new Judge(setup, DEFAULT_WEIGHTS);
      const sim = new Sim(setup, st);
      const cards = st.robots[i]!.hand;
      for (const bound of [undefined, judge.bound(st.robots, i, { movers: true })]) {
        const o = { keep: DEFAULT_WEIGHTS.candidates, bound };
        const whole = searchPrograms(sim, i, cards, judge.scorer(i), o);
        const shared = searchPrograms(sim, i, cards, judge.scorer(i), { ...o, transpositions: true });
        assert.deepEqual(shared.top, whole.top);
        assert.deepEqual(shared.program, whole.program);
        nodes += whole.nodes;
        nodesShared += shared.nodes;
        decided++;
      }
    }
    assert.ok(decided > 60, `${decided} searches`);
    assert.ok(nodesShared < nodes * 0.9, `${nodesShared} of ${nodes} registers simulated`);
  });

  test('a robot facing a wall plays Move 1, 2 and 3 alike: their subtrees are searched once', () => {
    const setup = setupOf(plainBoard(6, 6, {}, [[5, 5]], { walls: ['2,2 N'] }));
    const st = must(beginTurn(setup, must(createState(setup, [{ name: 'A', x: 2, y: 2, dir: 0 }])))).state;
    const cards = hand(['F1', 'F2', 'F3', 'R', 'R', 'L', 'U', 'B', 'F1']);
    st.robots[0]!.hand = cards;
    const judge = new Judge(setup, DEFAULT_WEIGHTS);
    const sim = new Sim(setup, st);
    const whole = searchPrograms(sim, 0, cards, judge.scorer(0), { keep: 24 });
    const shared = searchPrograms(sim, 0, cards, judge.scorer(0), { keep: 24, transpositions: true });
    assert.deepEqual(shared.top, whole.top);
    assert.ok(shared.nodes < whole.nodes * 0.8, `${shared.nodes} of ${whole.nodes} registers simulated`);
  });
});

describe('the positions a search has met', () => {
  /** Two robots on a plain floor, one of them holding options memory and an option. */
  function sim(): Sim {
    const setup = setupOf(plainBoard(8, 8, {}, [[7, 7]]));
    const st = must(beginTurn(setup, must(createState(setup, [{ name: 'A', x: 1, y: 1, dir: 1 }, { name: 'B', x: 4, y: 4, dir: 2, damage: 2 }])))).state;
    st.robots[1]!.opt = {
      choices: {}, joined: [0, 0, 0, 0, 0], fcLocks: 0, flywheel: 0, aside: 0, copied: [0, 0, 0, 0, 0], copiedFrom: -1, superior: false, fresh: [], shown: [], recompiled: false, optionSite: null,
    };
    return new Sim(setup, st);
  }
  const left = new Int8Array(7).fill(1);

  test('a state equal to one kept is found again, whatever robot me holds in its registers', () => {
    const s = sim();
    const p = new Positions(s, 0);
    assert.equal(p.find(2, 0, left), -1);
    const e = p.add();
    s.robots[0]!.registers[3] = DECK[10]!;
    assert.equal(p.find(2, 0, left), e);
  });

  test('a state differing in anything a register can change is not taken for one kept', () => {
    const changes: [string, (s: Sim) => void][] = [
      ['x', (s) => (s.robots[0]!.x = 2)], ['y', (s) => (s.robots[1]!.y = 5)], ['dir', (s) => (s.robots[1]!.dir = 3)],
      ['damage', (s) => (s.robots[1]!.damage = 3)], ['lives', (s) => (s.robots[1]!.lives = 1)], ['flags', (s) => (s.robots[0]!.flags = 1)],
      ['status', (s) => (s.robots[1]!.status = 'destroyed')], ['locked', (s) => (s.robots[1]!.locked = 16)], ['destroyedAt', (s) => (s.robots[1]!.destroyedAt = 7)],
      ['archive', (s) => (s.robots[0]!.archive = [3, 3])], ['reentries', (s) => (s.robots[1]!.reentries = 1)], ['virtual', (s) => (s.robots[1]!.virtual = true)],
      ['poweredDown', (s) => (s.robots[0]!.poweredDown = true)], ['options', (s) => (s.robots[1]!.options = ['Brakes'])],
      ['the other robot\'s registers', (s) => (s.robots[1]!.registers[4] = DECK[3]!)], ['memory', (s) => (s.robots[1]!.opt!.fcLocks = 16)],
      ['memory list', (s) => s.robots[1]!.opt!.shown.push('Brakes')], ['memory gone', (s) => (s.robots[1]!.opt = null)],
      ['generator', (s) => (s.state.rng[2] = s.state.rng[2]! + 1)], ['order', (s) => (s.state.order = [1, 0])], ['destructions', (s) => (s.state.destructions += 1)],
      ['discard', (s) => s.state.discard.push(DECK[5]!)], ['finished', (s) => s.state.finished.push([0])], ['deck', (s) => (s.state.deck = s.state.deck.slice(1))],
    ];
    for (const [what, change] of changes) {
      const s = sim();
      const p = new Positions(s, 0);
      assert.equal(p.find(2, 0, left), -1);
      p.add();
      const root = s.newSnapshot();
      s.save(root);
      change(s);
      assert.ok(p.find(2, 0, left) < 0, what);
      s.restore(root);
      assert.equal(p.find(2, 0, left), 0, `${what}: restored`);
    }
    // The register, the finishing register and the types left are part of the position.
    const s = sim();
    const p = new Positions(s, 0);
    p.find(2, 0, left);
    p.add();
    assert.equal(p.find(3, 0, left), -1);
    assert.equal(p.find(2, 2, left), -1);
    assert.equal(p.find(2, 0, new Int8Array(7).fill(2)), -1);
  });
});
