/**
 * What the bots decide: the same state and seed give the same orders; the strong bot takes a flag
 * one move away, keeps out of an adjacent pit, finds its way round walls and pits, and powers down
 * when badly damaged; the distance maps measure the real paths.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  beginTurn, cardType, cloneState, createState, DECK, instruction, makeSetup, parseBoard, playTurn, submitOrders,
  type Card, type GameState, type Setup,
} from '../../engine/src/index.js';
import { courseMaps, stateIndex, FAR } from './distance.js';
import { BOTS, LEVELS, chooseOrders } from './index.js';
import { DEFAULT_WEIGHTS, Judge, movingRegisters, priorityVariants } from './strong.js';
import { loadCourse } from '../../boards/src/index.js';
import { Rand } from '../../testkit/src/index.js';
import { playPrograms, searchPrograms } from './search.js';
import { Sim } from './sim.js';
import { runBotRace } from '../../driver/src/index.js';
import { deciders, hand, must, plainBoard, randomDecisions, randomGame, setupOf, type Decision } from './testing.js';


/** A lone robot at (x, y) facing dir, dealt the given hand, ready to program. */
function dealt(setup: Setup, x: number, y: number, dir: 0 | 1 | 2 | 3, cards: Card[], damage = 0): GameState {
  const st = must(beginTurn(setup, must(createState(setup, [{ name: 'A', x, y, dir, damage }])))).state;
  st.robots[0]!.hand = cards;
  return st;
}

/** Plays robot 0's orders for the turn. */
function play(setup: Setup, st: GameState, orders = chooseOrders(setup, st, 0, 1)): GameState {
  return must(playTurn(setup, must(submitOrders(setup, st, 0, orders)))).state;
}

describe('bots decide deterministically', () => {
  for (const level of LEVELS) {
    test(`${level}: the same state and seed give the same orders, and the state is left untouched`, () => {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const g = randomGame(seed, seed % 2 ? 'classic' : 'pbem');
        const st = must(beginTurn(g.setup, g.state)).state;
        const before = JSON.stringify(st);
        for (let i = 0; i < st.robots.length; i++) {
          const a = BOTS[level].chooseOrders(g.setup, st, i, seed);
          const b = BOTS[level].chooseOrders(g.setup, cloneState(st), i, seed);
          assert.deepEqual(a, b);
        }
        assert.equal(JSON.stringify(st), before);
      }
    });
  }

  test('a whole race of bots is the same race for the same seed', () => {
    const setup = setupOf(plainBoard(8, 8, { '3,3': 'O', '4,5': 'O' }, [[6, 1], [1, 6]], { start: [0, 0] }));
    const run = () => runBotRace(setup, { levels: ['strong', 'greedy', 'random'], seed: 9, maxTurns: 15 });
    assert.deepEqual(run().state, run().state);
  });
});

describe('the strong bot', () => {
  const classic = setupOf(plainBoard(7, 7, {}, [[3, 2]]));

  test('touches a flag that is one move away', () => {
    // Facing north, the flag one square ahead; a hand with one Move 1 among turns and backs.
    for (const dir of [0, 1, 3] as const) {
      const st = dealt(classic, 3, 3, dir, hand(['F1', 'B', 'U', 'L', 'R', 'L', 'R', 'B', 'U']));
      const after = play(classic, st);
      assert.equal(after.robots[0]!.flags, 1, `facing ${dir}`);
      assert.equal(after.finished.length, 1);
    }
  });

  test('touches the flag in the first register it can', () => {
    const st = dealt(classic, 3, 4, 0, hand(['F2', 'F1', 'F1', 'L', 'R', 'U', 'B', 'L', 'R']));
    const orders = chooseOrders(classic, st, 0, 1);
    assert.equal(cardType(orders.program![0]!), 'F2');
  });

  test('does not drive into the pit in front of it', () => {
    // A pit straight ahead, the flag beyond it; a hand full of forward moves.
    const setup = setupOf(plainBoard(7, 7, { '3,2': 'O' }, [[3, 0]]));
    for (let seed = 1; seed <= 5; seed++) {
      const st = dealt(setup, 3, 3, 0, hand(['F1', 'F2', 'F3', 'F1', 'F2', 'F1', 'R', 'B', 'F2']));
      const after = play(setup, st, chooseOrders(setup, st, 0, seed));
      assert.equal(after.robots[0]!.status, 'active');
    }
  });

  test('does not step off the board next to it, even towards the flag', () => {
    const setup = setupOf(plainBoard(5, 5, {}, [[4, 4]]));
    const st = dealt(setup, 0, 2, 3, hand(['F3', 'F2', 'F1', 'F1', 'F2', 'L', 'B', 'F3', 'F1']));
    assert.equal(play(setup, st).robots[0]!.status, 'active');
  });

  test('powers down with most registers locked, where standing still is safe', () => {
    const st = dealt(classic, 0, 6, 1, [], 9);
    st.robots[0]!.registers = [70, 80, 90, 100, 110].map((c) => c * 1);
    const orders = chooseOrders(classic, st, 0, 1);
    assert.deepEqual(orders.program ?? [], []);
    assert.equal(orders.powerDown, true);
  });

  test('does not power down when undamaged', () => {
    const st = dealt(classic, 3, 6, 0, hand(['F1', 'F2', 'L', 'R', 'U', 'B', 'F1', 'F3', 'L']));
    assert.ok(!chooseOrders(classic, st, 0, 1).powerDown);
  });

  test('re-enters facing the way to its next flag', () => {
    const setup = setupOf(plainBoard(7, 7, {}, [[6, 3]]));
    const st0 = must(createState(setup, [{ name: 'A', x: 1, y: 3, dir: 0, destroyed: true }]));
    assert.deepEqual(BOTS.strong.chooseReentry(setup, st0, 0, 1), { dir: 1 });
  });

  test('finishes a course with a wall and pits in the straight line to each flag, alone, in both rule sets', () => {
    const json = plainBoard(9, 9, { '4,3': 'O', '4,4': 'O', '4,5': 'O', '2,7': 'O' }, [[7, 4], [1, 8]], {
      start: [1, 4], walls: ['5,4 W', '5,3 W', '5,5 W', '5,2 W', '5,6 W'],
    });
    for (const rules of ['classic', 'pbem'] as const) {
      const setup = must(makeSetup(must(parseBoard(json)), rules));
      for (let seed = 1; seed <= 3; seed++) {
        const r = runBotRace(setup, { levels: ['strong'], seed, maxTurns: 30, starts: [[1, 4]] });
        assert.notEqual(r.robots[0]!.finishTurn, null, `${rules} seed ${seed}`);
        assert.equal(r.robots[0]!.deaths, 0, `${rules} seed ${seed}`);
      }
    }
  });

  test('pbem: programs duplicate instructions and reaches a flag two squares ahead', () => {
    const pbem = setupOf(plainBoard(7, 7, {}, [[3, 1]]), 'pbem');
    const st = must(beginTurn(pbem, must(createState(pbem, [{ name: 'A', x: 3, y: 3, dir: 0 }])))).state;
    const F1 = instruction('F1'), L = instruction('L');
    st.robots[0]!.hand = [L, L, L, F1, F1, L, L, L, L, L];
    const after = must(playTurn(pbem, must(submitOrders(pbem, st, 0, chooseOrders(pbem, st, 0, 1))))).state;
    assert.equal(after.robots[0]!.flags, 1);
  });
});

describe('distance maps', () => {
  test('count the registers a lone robot needs, round walls and never over pits', () => {
    const setup = setupOf(plainBoard(6, 3, { '2,1': 'O' }, [[4, 1]], { walls: ['3,0 W'] }));
    const m = courseMaps(setup);
    const b = setup.board;
    const d = (x: number, y: number, dir: number) => m.fewest[0]![stateIndex(b, x, y, dir, 1)]!;
    assert.equal(d(4, 1, 0), 0);
    assert.equal(d(3, 1, 1), 1); // facing the flag, one square away
    assert.equal(d(2, 2, 1), 3); // Move 2 to (4,2), turn left, Move 1
    // The pit at (2,1) is in the way: right, Move 1, left, Move 3 to (4,2), left, Move 1.
    assert.equal(d(1, 1, 1), 6);
    // The wall west of (3,0) stops a robot going east along the top row.
    assert.equal(d(3, 0, 1), 3);
    assert.ok(d(2, 0, 1) > d(3, 0, 1) + 1);
    // The expected registers with a dealt hand are never fewer than the fewest.
    for (let s = 0; s < m.states; s++) if (m.fewest[0]![s]! < FAR) assert.ok(m.toFlag[0]![s]! >= m.fewest[0]![s]! - 1e-6);
  });

  test('say a flag walled off all round cannot be reached', () => {
    const setup = setupOf(plainBoard(5, 5, {}, [[2, 2]], { walls: ['2,2 N', '2,2 E', '2,2 S', '2,2 W'] }));
    const m = courseMaps(setup);
    assert.equal(m.fewest[0]![stateIndex(setup.board, 0, 0, 1, 1)], FAR);
  });

  test('are built when the first square of the board is a repulsor field', () => {
    const setup = setupOf(plainBoard(5, 5, { '0,0': 'RF' }, [[4, 4]]));
    const m = courseMaps(setup);
    assert.equal(m.fewest[0]![stateIndex(setup.board, 4, 3, 2, 1)], 1);
  });

  test('are built once per board and rule set', () => {
    const setup = setupOf(plainBoard(5, 5, {}, [[2, 2]]));
    assert.equal(courseMaps(setup), courseMaps({ ...setup }));
    assert.notEqual(courseMaps(setup), courseMaps(must(makeSetup(setup.board, 'pbem'))));
  });
});

describe('the strong bot weighs priorities', () => {
  test('a program varied in its priorities: each register tries the other cards of its type, from the hand or swapped', () => {
    const [m1a, m1b, m1c] = DECK.filter((c) => cardType(c) === 'F1').slice(0, 3) as [Card, Card, Card];
    const [r1, r2] = DECK.filter((c) => cardType(c) === 'R').slice(0, 2) as [Card, Card];
    const u = DECK.find((c) => cardType(c) === 'U')!;
    const program = [m1a, r1, m1b, u, r2];
    const variants = priorityVariants(program, [m1a, m1b, m1c, r1, r2, u]);
    const keys = variants.map((v) => v.join());
    // Every variant keeps the types register by register, and uses each card once.
    for (const v of variants) {
      assert.deepEqual(v.map(cardType), program.map(cardType));
      assert.equal(new Set(v).size, v.length);
    }
    assert.equal(new Set(keys).size, keys.length, 'no variant twice');
    assert.ok(!keys.includes(program.join()), 'not the program itself');
    for (const expected of [[m1b, r1, m1a, u, r2], [m1c, r1, m1b, u, r2], [m1a, r1, m1c, u, r2], [m1a, r2, m1b, u, r1]])
      assert.ok(keys.includes(expected.join()), `missing ${expected.join()}`);
    assert.equal(variants.length, 4);
  });
});

describe("the others' likely programs are played", () => {
  test('a scenario moves the other robot even when it holds options memory (which a restore brings its registers back from)', () => {
    const setup = setupOf(plainBoard(8, 8, {}, [[7, 7]]));
    let st = must(beginTurn(setup, must(createState(setup, [{ name: 'A', x: 1, y: 1, dir: 1 }, { name: 'B', x: 1, y: 5, dir: 1 }])))).state;
    // The driver's option orders (a conditional take of an option) give every robot options memory from its first turn on.
    const turns = hand(['L', 'R', 'L', 'R', 'U', 'L', 'R', 'L', 'R', 'U']);
    for (const i of [0, 1]) {
      const program = turns.slice(5 * i, 5 * i + 5);
      st.robots[i]!.hand = program;
      st = must(submitOrders(setup, st, i, { program, choices: { takeOption: { ifDamageAtMost: 2 } } }));
    }
    st = must(beginTurn(setup, must(playTurn(setup, st)).state)).state;
    assert.ok(st.robots[1]!.opt, 'robot B holds options memory');
    const sim = new Sim(setup, st);
    const root = sim.newSnapshot();
    sim.save(root);
    const { x, y } = sim.robots[1]!;
    const moves = hand(['F1', 'F1', 'F1', 'F1', 'F1']);
    let moved: [number, number] = [x, y];
    playPrograms(sim, root, 0, [[], hand(['L'])], (s) => ((moved = [s.robots[1]!.x, s.robots[1]!.y]), 0), new Map([[1, moves]]));
    assert.notDeepEqual(moved, [x, y], 'robot B moved with its program');
  });
});

describe("the strong bot's search cuts branches by a bound", () => {
  /** Decisions of random games, and of greedy bots' races on shipped courses where another robot runs locked moves (damage locked them). */
  function decisions(): Decision[] {
    const out = randomDecisions();
    for (const name of ['grand-tour', 'northrups-square']) {
      const course = must(loadCourse(name)).course;
      for (const rules of ['classic', 'pbem'] as const) {
        const setup = must(makeSetup(course.board, rules, {}, course.boards.length));
        for (const seed of [1, 2, 3]) {
          for (const turns of [6, 10, 14]) {
            const st = runBotRace(setup, { levels: ['greedy', 'greedy', 'greedy', 'greedy'], seed, maxTurns: turns, starts: course.starts, untilOver: true }).state;
            if (st.phase === 'programming') out.push(...deciders(setup, st, (i) => st.robots.some((o, j) => j !== i && o.status === 'active' && movingRegisters(o) !== 0)));
          }
        }
      }
    }
    return out;
  }

  test('the bound after a register is never below the score of a program played on from there', () => {
    let checked = 0, withMovers = 0;
    for (const { setup, st, i } of decisions()) {
      const judge = new Judge(setup, DEFAULT_WEIGHTS);
      const bound = judge.bound(st.robots, i, { movers: true });
      if (!bound) continue;
      const evaluate = judge.scorer(i);
      const sim = new Sim(setup, st);
      const root = sim.newSnapshot();
      sim.save(root);
      const cards = st.robots[i]!.hand;
      // Programs from rotations of the hand (the first five cards of each), and shuffles of it.
      const rand = new Rand(cards.length + i);
      const programs = cards.map((_, k) => [...cards.slice(k), ...cards.slice(0, k)].slice(0, 5));
      for (let k = 0; k < 30; k++) {
        const p = cards.slice();
        for (let a = p.length - 1; a > 0; a--) {
          const b = rand.int(a + 1);
          [p[a], p[b]] = [p[b]!, p[a]!];
        }
        programs.push(p.slice(0, 5));
      }
      for (const program of programs) {
        const bounds: number[] = [];
        sim.restore(root);
        const r = sim.robots[i]!;
        let score = NaN;
        for (let reg = 1; reg <= 5; reg++) {
          if (!(r.locked & (1 << (reg - 1)))) sim.setCard(i, reg, program[reg - 1]!);
          sim.register(reg);
          if (r.status !== 'active') {
            score = evaluate(sim, 'destroyed', reg, 0);
            break;
          }
          if (reg < 5) bounds.push(bound(sim, reg));
          else score = evaluate(sim, 'end', 5, 0);
        }
        for (const b of bounds) assert.ok(b >= score, `bound ${b} under the score ${score} (${JSON.stringify(program)})`);
        checked += bounds.filter(Number.isFinite).length;
        if (st.robots.some((o, j) => j !== i && o.status === 'active' && movingRegisters(o))) withMovers += bounds.filter(Number.isFinite).length;
      }
    }
    assert.ok(checked > 200, `${checked} finite bounds checked`);
    assert.ok(withMovers > 200, `${withMovers} finite bounds checked with another robot running locked moves`);
  });

  test('holds where another robot behind runs a locked Move 3 that pushes robot me on', () => {
    const setup = setupOf(plainBoard(12, 4, {}, [[11, 2]]));
    // B's register 5 is locked (5 damage) with the highest Move 3: it moves first and pushes C and A
    // three squares on (C, facing away, takes B's shots).
    const f3 = DECK.filter((c) => cardType(c) === 'F3').sort((a, b) => b - a);
    const st = must(beginTurn(setup, must(createState(setup, [
      { name: 'A', x: 2, y: 2, dir: 1 }, { name: 'B', x: 0, y: 2, dir: 1, damage: 5, program: [0, 0, 0, 0, f3[0]!] }, { name: 'C', x: 1, y: 2, dir: 0 },
    ])))).state;
    assert.ok(movingRegisters(st.robots[1]!), 'robot B runs a locked move');
    const program = [...hand(['L', 'R', 'L', 'R']), f3[1]!];
    st.robots[0]!.hand = [...program, ...hand(['U', 'F1', 'F1', 'B'])];
    const judge = new Judge(setup, DEFAULT_WEIGHTS);
    assert.equal(judge.bound(st.robots, 0), undefined, "the expert's bound: none where another robot runs locked registers");
    const bound = judge.bound(st.robots, 0, { movers: true })!;
    const sim = new Sim(setup, st);
    const bounds: number[] = [];
    for (let reg = 1; reg <= 5; reg++) {
      sim.setCard(0, reg, program[reg - 1]!);
      sim.register(reg);
      if (reg < 5) bounds.push(bound(sim, reg));
    }
    assert.equal(sim.robots[0]!.x, 8, 'pushed three squares, then its own three');
    const score = judge.scorer(0)(sim, 'end', 5, 0);
    for (const b of bounds) assert.ok(b >= score, `bound ${b} under the score ${score}`);
  });

  test("holds for a robot holding Brakes, Fourth Gear and Crab Legs it has no orders for; none once it has", () => {
    const setup = setupOf(plainBoard(12, 4, {}, [[11, 2]]));
    const st = must(beginTurn(setup, must(createState(setup, [{ name: 'A', x: 2, y: 2, dir: 1, options: ['Brakes', 'Fourth Gear', 'Crab Legs'] }])))).state;
    const cards = hand(['F3', 'F3', 'F1', 'F2', 'L', 'R', 'U', 'B', 'F1']);
    st.robots[0]!.hand = cards;
    const judge = new Judge(setup, DEFAULT_WEIGHTS);
    assert.equal(judge.bound(st.robots, 0), undefined, "the expert's bound: none with options that move the robot");
    const bound = judge.bound(st.robots, 0, { movers: true });
    assert.ok(bound, 'a bound');
    const sim = new Sim(setup, st);
    const whole = searchPrograms(sim, 0, cards, judge.scorer(0), { keep: DEFAULT_WEIGHTS.candidates });
    const cut = searchPrograms(sim, 0, cards, judge.scorer(0), { keep: DEFAULT_WEIGHTS.candidates, bound });
    assert.deepEqual(cut.top, whole.top);
    assert.ok(cut.pruned > 0, 'branches cut');
    const ordered = cloneState(st);
    ordered.robots[0]!.opt = { ...(ordered.robots[0]!.opt ?? memoryOf()), choices: { fourthGear: [1] } };
    assert.equal(judge.bound(ordered.robots, 0, { movers: true }), undefined, 'Fourth Gear ordered in register 1');
  });

  test('keeps the same best programs as the search without it, and simulates fewer registers', () => {
    let nodes = 0, nodesCut = 0, pruned = 0;
    for (const { setup, st, i } of decisions()) {
      const judge = new Judge(setup, DEFAULT_WEIGHTS);
      const sim = new Sim(setup, st);
      const hand = st.robots[i]!.hand;
      const whole = searchPrograms(sim, i, hand, judge.scorer(i), { keep: DEFAULT_WEIGHTS.candidates });
      const cut = searchPrograms(sim, i, hand, judge.scorer(i), { keep: DEFAULT_WEIGHTS.candidates, bound: judge.bound(st.robots, i, { movers: true }) });
      assert.deepEqual(cut.top, whole.top);
      nodes += whole.nodes;
      nodesCut += cut.nodes;
      pruned += cut.pruned;
    }
    assert.ok(pruned > 0 && nodesCut < nodes * 0.9, `${nodesCut} of ${nodes} registers simulated, ${pruned} branches cut`);
  });
});

/** Empty options memory. */
function memoryOf(): NonNullable<GameState['robots'][number]['opt']> {
  return { choices: {}, joined: [0, 0, 0, 0, 0], fcLocks: 0, flywheel: 0, aside: 0, copied: [0, 0, 0, 0, 0], copiedFrom: -1, superior: false, fresh: [], shown: [], recompiled: false, optionSite: null };
}
