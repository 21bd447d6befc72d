/**
 * The lone turn on the course maps (lone.ts) against the simulator: for a robot alone, with a
 * dealt hand and its locked registers, the best turn found on the maps' transitions scores what
 * the simulator's search of every ordering scores with the same judgement (on boards without
 * lasers: the maps know no damage).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CARD_TYPES, DECK, Floor, createState, instruction, shuffle, seedRng, type Card, type Dir } from '../../engine/src/index.js';
import { Rand } from '../../testkit/src/index.js';
import { courseMaps, togo } from './distance.js';
import { bestLoneTurn, searchLone, typeCounts } from './lone.js';
import { byType, playProgram, programOf, searchPrograms, type Evaluate } from './search.js';
import { Sim } from './sim.js';
import { must, randomGame } from './testing.js';

const DESTROYED = 40;

type Setup = ReturnType<typeof randomGame>['setup'];

/** The squares of the board a robot can stand on. */
const standable = ({ board: b }: Setup): number[] =>
  [...Array(b.width * b.height).keys()].filter((c) => b.floor[c] !== Floor.Pit && b.floor[c] !== Floor.Void && b.floor[c] !== Floor.Repulsor);

/** A robot alone on one of `cells`, its facing and the flags it has touched drawn at random. */
function loneRobot(setup: Setup, rnd: Rand, cells: readonly number[]) {
  const b = setup.board;
  const c = rnd.pick(cells);
  const x = c % b.width, y = (c - x) / b.width;
  const dir = rnd.range(0, 3) as Dir;
  const flags = rnd.range(0, b.flags.length - 1);
  const st = must(createState(setup, [{ name: 'A', x, y, dir }]));
  st.robots[0]!.flags = flags;
  return { x, y, dir, flags, st };
}

/** `n` cards: dealt from the deck where cards have priorities, else instructions drawn at random. */
const randomCards = (setup: Setup, rnd: Rand, n: number): Card[] =>
  setup.rules.priorities
    ? shuffle(seedRng(rnd.u32()), DECK.slice()).slice(0, n)
    : Array.from({ length: n }, () => instruction(rnd.pick(CARD_TYPES)));

test('the best lone turn on the maps scores what the simulator finds for a robot alone, flags touched on the way, locked registers played, and the simulator playing the program it names scores the same', () => {
  let compared = 0, finishing = 0, boards = 0;
  for (let seed = 1; boards < 40; seed++) {
    const rules = seed % 2 ? 'classic' : 'pbem';
    const { setup } = randomGame(seed, rules);
    const b = setup.board;
    // The maps know no damage: boards whose lasers could destroy a robot in one turn are left out.
    if (b.lasers.length) continue;
    boards++;
    const m = courseMaps(setup);
    const rnd = new Rand(seed * 7919);
    const cells = standable(setup);
    for (let k = 0; k < 6 && cells.length; k++) {
      const { x, y, dir, flags, st } = loneRobot(setup, rnd, cells);
      const deal = randomCards(setup, rnd, 11);
      // On one position in three the last registers are locked, holding cards of the deal.
      const locks = k % 3 === 2 ? rnd.range(1, 2) : 0;
      const registers = [0, 0, 0, 0, 0];
      let locked = 0;
      for (let n = 0; n < locks; n++) {
        registers[4 - n] = deal.pop()!;
        locked |= 1 << (4 - n);
      }
      const hand = deal.slice(0, 9 - locks);
      const r0 = st.robots[0]!;
      r0.locked = locked;
      r0.registers = registers.slice();
      const evaluate: Evaluate = (s, kind, _reg, finishedAt) => {
        const r = s.robots[0]!;
        if (finishedAt) return 5 - finishedAt;
        if (kind === 'destroyed') return -DESTROYED;
        return -togo(m, r.flags, r.x, r.y, r.dir, 1);
      };
      const sim = new Sim(setup, st, { alone: 0 });
      const expected = searchPrograms(sim, 0, hand, evaluate).score;
      const lone = bestLoneTurn(m, { x, y, dir, flags, locked, registers, destroyed: DESTROYED }, typeCounts(hand));
      assert.ok(Math.abs(lone.score - expected) < 1e-4, `seed ${seed} (${rules}) at ${x},${y} facing ${dir}, ${flags} flags: maps ${lone.score}, simulator ${expected}`);
      assert.ok(lone.leaves > 0);
      // The program the maps' search names scores the same when the simulator plays it.
      const m5 = (s: number, f: number) => -(m.toFlag[f]![s - (s % 5)]! + m.after[f]!);
      const named = searchLone(m, { x, y, dir, flags, locked, registers, destroyed: DESTROYED }, typeCounts(hand), { end: m5, finished: (reg) => 5 - reg, destroyed: () => -DESTROYED });
      const program = programOf(named.types, locked, byType(hand));
      const played = playProgram(new Sim(setup, st, { alone: 0 }), 0, program, evaluate);
      assert.ok(Math.abs(played - expected) < 1e-4, `seed ${seed}: the program ${program.join()} plays ${played}, the best ${expected}`);
      compared++;
      if (expected > 0) finishing++;
    }
  }
  assert.ok(compared >= 200 && finishing > 0, `${compared} positions, ${finishing} finishing`);
});

test("with the hits' costs, the best lone turn counts the board lasers it ends registers in: it scores what the simulator finds charging the damage taken (classic boards with lasers)", () => {
  let compared = 0, hit = 0, boards = 0;
  for (let seed = 1; boards < 30 && seed < 2000; seed++) {
    const rules = seed % 2 ? 'classic' : 'pbem';
    const { setup } = randomGame(seed, rules);
    const b = setup.board;
    // Ledges damage a robot dropping off them, which the maps do not count: boards without them.
    if (!b.lasers.length || b.ledges.some((l) => l !== 0)) continue;
    const m = courseMaps(setup);
    // A turn's hits must not destroy the robot (the maps know no destruction by damage).
    if (5 * Math.max(...m.laserBeams) >= setup.rules.destroyAt) continue;
    boards++;
    // A cost per point rising with the damage, as the judge's does.
    const hits = Float64Array.from({ length: setup.rules.destroyAt }, (_, n) => 0.3 * n + 0.1 * n * n);
    const rnd = new Rand(seed * 104729);
    const cells = standable(setup);
    for (let k = 0; k < 6 && cells.length; k++) {
      const { x, y, dir, flags, st } = loneRobot(setup, rnd, cells);
      const hand = randomCards(setup, rnd, 9);
      const evaluate: Evaluate = (s, kind, _reg, finishedAt) => {
        const r = s.robots[0]!;
        if (finishedAt) return 5 - finishedAt;
        if (kind === 'destroyed') return -DESTROYED;
        return -togo(m, r.flags, r.x, r.y, r.dir, 1) - hits[r.damage]!;
      };
      const expected = searchPrograms(new Sim(setup, st, { alone: 0 }), 0, hand, evaluate).score;
      const start = { x, y, dir, flags, locked: 0, registers: [0, 0, 0, 0, 0], destroyed: DESTROYED };
      const lone = bestLoneTurn(m, start, typeCounts(hand), hits);
      assert.ok(Math.abs(lone.score - expected) < 1e-4, `seed ${seed} (${rules}) at ${x},${y} facing ${dir}: maps ${lone.score}, simulator ${expected}`);
      if (bestLoneTurn(m, start, typeCounts(hand)).score > lone.score + 1e-4) hit++;
      compared++;
    }
  }
  assert.ok(compared >= 120 && hit > 0, `${compared} positions, ${hit} where the hits cost something`);
});
