/**
 * The bots' working copy of a race plays register phases exactly as the engine does, and its
 * snapshot and restore bring back every part of the state a register can change; programs played
 * together, sharing their prefixes, score as each played alone from the start.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { beginTurn, playRegister, submitOrders, type GameState, type Setup } from '../../engine/src/index.js';
import { randomOrders } from './random.js';
import { Sim } from './sim.js';
import { playProgram, playPrograms, setProgram, type Evaluate } from './search.js';

import { must, randomGame } from './testing.js';

const RUNS = Number(process.env.BOT_PROPERTY_RUNS ?? 100);

/** What a register changes, robot by robot, as comparable plain data. */
const view = (st: GameState) => ({
  robots: st.robots.map((r) => ({
    x: r.x, y: r.y, dir: r.dir, damage: r.damage, lives: r.lives, flags: r.flags, status: r.status, virtual: r.virtual,
    locked: r.locked, archive: r.archive, poweredDown: r.poweredDown, options: r.options,
  })),
  finished: st.finished,
  winTurn: st.winTurn,
  rng: st.rng,
  dice: st.dice,
});

/** A random game after its first deal, every robot programmed at random. */
function programmed(seed: number, rules: 'classic' | 'pbem'): { setup: Setup; state: GameState } {
  const g = randomGame(seed, rules);
  let st = must(beginTurn(g.setup, g.state)).state;
  for (let i = 0; i < st.robots.length; i++) if (st.robots[i]!.status === 'active') st = must(submitOrders(g.setup, st, i, randomOrders(g.setup, st, i, seed)));
  return { setup: g.setup, state: st };
}

describe('the search simulator', () => {
  for (const rules of ['classic', 'pbem'] as const) {
    test(`ends every register where the engine's playRegister does (${rules}, random games)`, () => {
      fc.assert(
        fc.property(fc.nat(), (seed) => {
          const { setup, state } = programmed(seed, rules);
          const sim = new Sim(setup, state, { keepPrograms: () => true });
          let st = state;
          for (let reg = 1; reg <= 5; reg++) {
            st = must(playRegister(setup, st, { events: false })).state;
            sim.register(reg);
            assert.deepEqual(view(sim.state), view(st), `register ${reg}`);
          }
        }),
        { numRuns: RUNS, seed: 11 },
      );
    });

    test(`restores a snapshot exactly: a program replayed after a restore ends the same (${rules})`, () => {
      fc.assert(
        fc.property(fc.nat(), (seed) => {
          const { setup, state } = programmed(seed, rules);
          const sim = new Sim(setup, state, { keepPrograms: () => true });
          const snap = sim.newSnapshot();
          sim.save(snap);
          const runs = [0, 1].map(() => {
            sim.restore(snap);
            for (let reg = 1; reg <= 5; reg++) sim.register(reg);
            return JSON.stringify({ ...view(sim.state), occ: [...sim.occupancy] });
          });
          assert.equal(runs[0], runs[1]);
          sim.restore(snap);
          assert.deepEqual(view(sim.state), view(new Sim(setup, state).state));
        }),
        { numRuns: RUNS, seed: 13 },
      );
    });
    test(`plays programs sharing prefixes to the scores each gets played alone from the start (${rules})`, () => {
      const where: Evaluate = (sim, kind, reg, finishedAt) =>
        sim.robots.reduce((a, r, k) => a + (k + 1) * (r.x * 7 + r.y * 3 + r.dir + r.damage * 11 + (r.status === 'active' ? 0 : 97)), 0) + reg * 1000 + finishedAt * 10000 + (kind === 'end' ? 0 : 5);
      fc.assert(
        fc.property(fc.nat(), fc.array(fc.array(fc.nat(2), { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 12 }), (seed, picks) => {
          const { setup, state } = programmed(seed, rules);
          const me = state.robots.findIndex((r) => r.status === 'active' && r.hand.length);
          if (me < 0) return;
          // Programs of three of its cards: many share their first registers.
          const cards = state.robots[me]!.hand.slice(0, 3);
          const programs = picks.map((p) => p.map((k) => cards[k % cards.length]!));
          // The others play the programs they were given, set after the restore of the turn's start.
          const others = new Map(state.robots.flatMap((r, j) => (j === me ? [] : [[j, r.registers.filter((c, k) => c && !(r.locked & (1 << k)))] as const])));
          const sim = new Sim(setup, state);
          const root = sim.newSnapshot();
          sim.save(root);
          const alone = programs.map((p) => {
            sim.restore(root);
            for (const [j, q] of others) setProgram(sim, j, q);
            return playProgram(sim, me, p, where);
          });
          assert.deepEqual(playPrograms(sim, root, me, programs, where, others), alone);
        }),
        { numRuns: RUNS, seed: 17 },
      );
    });
  }

  test('hides the other robots\' unlocked registers unless told to keep them', () => {
    const { setup, state } = programmed(5, 'classic');
    const sim = new Sim(setup, state);
    sim.robots.forEach((r) => {
      for (let k = 0; k < 5; k++) if (!(r.locked & (1 << k))) assert.equal(r.registers[k], 0);
    });
  });
});
