/** The engine's in-place simulator (simulator.ts) and the one list of a robot's fields it copies. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulator } from './simulator.js';
import { cloneState, copyRobotInto, type RobotState } from './state.js';
import { memory } from './options/held.js';
import { playRegister } from './turn.js';
import { card, must, program, race } from './testing.js';

/** A value of the same kind as v that differs from it. */
function other(v: unknown): unknown {
  if (typeof v === 'number') return v + 7;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'string') return `${v}x`;
  if (Array.isArray(v)) return [...v, 99];
  if (v === null) return [9, 9];
  return { ...(v as object), changed: true };
}

test('copyRobotInto copies every field of a robot and of its option memory, whatever fields they have', () => {
  const g = race(['. . . .', '. . . .'], [{ name: 'A', x: 1, y: 1, dir: 'E', options: ['Shield'], archive: [0, 0] }]);
  const from = g.state.robots[0]!;
  memory(from);
  const to = cloneState(g.state).robots[0]!;
  for (const key of Object.keys(to) as (keyof RobotState)[]) (to as unknown as Record<string, unknown>)[key] = other(to[key]);
  // Its option memory differs in every field too (copied into the memory it has: no field may be left out).
  to.opt = Object.fromEntries(Object.entries(from.opt!).map(([k, v]) => [k, other(v)])) as unknown as RobotState['opt'];
  for (const key of Object.keys(from)) assert.notDeepEqual((to as unknown as Record<string, unknown>)[key], (from as unknown as Record<string, unknown>)[key], key);
  copyRobotInto(to, from);
  assert.deepEqual(to, from);
  to.registers[0] = card('F1:490');
  copyRobotInto(to, from, false); // a search's cards stay
  assert.equal(to.registers[0], card('F1:490'));
});

test('the simulator plays registers as playRegister does, and a restore brings back the snapshot', () => {
  const board = { grid: ['. . . . .', '. > > O .', '. . . . .', '. . . . .'], lasers: [{ x: 4, y: 2, dir: 'W' as const, beams: 1 }] };
  const g = program(race(board, [{ name: 'A', x: 0, y: 1, dir: 'E' }, { name: 'B', x: 1, y: 2, dir: 'N' }]), {
    programs: { A: ['F1:490', 'R:80', 'F2:670', 'L:70', 'B:430'], B: ['F1:500', 'U:10', 'F1:510', 'R:100', 'F3:790'] },
  });
  const sim = new Simulator(g.setup, g.state);
  for (const r of sim.robots) r.hand = []; // the reveal's discards are playRegister's alone
  const snap = sim.newSnapshot();
  sim.save(snap);
  const view = (rs: readonly RobotState[]) => rs.map((r) => [r.x, r.y, r.dir, r.damage, r.status]);
  for (let pass = 0; pass < 2; pass++) {
    let st = g.state;
    for (let reg = 1; reg <= 5; reg++) {
      st = must(playRegister(g.setup, st, { events: false })).state;
      sim.register(reg);
      assert.deepEqual(view(sim.robots), view(st.robots), `pass ${pass}, register ${reg}`);
    }
    sim.restore(snap);
    assert.deepEqual(view(sim.robots), view(g.state.robots));
  }
});
