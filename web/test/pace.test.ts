/** How long a replay lasts at 1×, from its events: what a live race's clock waits for at most. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginTurn, createState, makeSetup, parseBoard, playTurn, raceOver, type GameEvent } from '../../engine/src/index.js';
import { Rand, randomBoard, randomOrders, randomReentry, randomRobots } from '../../testkit/src/index.js';
import { actionMs, replayLengths, replayMs, STEP_GAP_MS, STILL_STEP_MS } from '../src/pace.js';
import { robotsFromView, steps } from '../src/steps.js';

const robot = (name: string, x: number, y: number) =>
  ({ name, x, y, dir: 'N' as const, damage: 0, status: 'active' as const, virtual: false, poweredDown: false, lives: 3, flags: 0 });

test('a step lasts as long as its beats: a Move 3 is three glides, a U-turn half as long again as a quarter turn, with a pause between steps', () => {
  const ev: GameEvent[] = [
    { type: 'registerBegan', register: 1 },
    { type: 'moved', robot: 0, from: [2, 5], to: [2, 4] },
    { type: 'moved', robot: 0, from: [2, 4], to: [2, 3] },
    { type: 'moved', robot: 0, from: [2, 3], to: [2, 2] },
    { type: 'turned', robot: 1, from: 0, to: 2, by: 'card' },
  ];
  const robots = [robot('Ava', 2, 5), robot('Bob', 6, 6)];
  // Ava's move, Bob's U-turn, and the whole turn at once (a picture: nothing to animate).
  const glide = actionMs({ kind: 'move', robot: 0, from: [2, 5], to: [2, 4], how: 'programmed' });
  const quarter = actionMs({ kind: 'turn', robot: 1, from: 0, to: 1, quarter: 1, by: 'card' });
  const animated = 3 * glide + 1.5 * quarter + 0 + 2 * STEP_GAP_MS;
  const still = 3 * STILL_STEP_MS + 2 * STEP_GAP_MS;
  assert.deepEqual(replayLengths(robots, ev), { steps: 3, animated, still });
  assert.equal(replayMs(robots, ev), Math.max(animated, still), 'the longer of the two');
});

test('a step with nothing to animate passes at once when animated but is shown a while with reduced motion, and the wait covers the slower', () => {
  const ev: GameEvent[] = [
    { type: 'repaired', robot: 0, points: 1, damage: 1, by: 'wrench' },
    { type: 'repaired', robot: 0, points: 1, damage: 1, by: 'wrench' },
  ];
  const robots = [robot('Ava', 2, 5)];
  // The repairs, then the whole turn at once.
  assert.deepEqual(replayLengths(robots, ev), { steps: 2, animated: STEP_GAP_MS, still: 2 * STILL_STEP_MS + STEP_GAP_MS });
  assert.equal(replayMs(robots, ev), 2 * STILL_STEP_MS + STEP_GAP_MS);
});

test("the replay's length from the beats' actions alone is that of the page's steps and beats, turn after turn of random races", () => {
  // The page's length, from its steps with their pictures (what replayLengths computed before it left the pictures out).
  const pageLengths = (view: Parameters<typeof replayLengths>[0], events: readonly GameEvent[]) => {
    const all = steps(robotsFromView(view), events);
    const gaps = Math.max(0, all.length - 1) * STEP_GAP_MS;
    const animated = all.reduce((sum, s) => sum + s.beats.reduce((t, b) => t + Math.max(0, ...b.actions.map(actionMs)), 0), 0);
    return { steps: all.length, animated: animated + gaps, still: all.length * STILL_STEP_MS + gaps };
  };
  const DIRS = ['N', 'E', 'S', 'W'] as const;
  let turns = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const rnd = new Rand(seed);
    const board = parseBoard(randomBoard(seed, { width: 12, height: 12, pitRate: 0.03, beltLines: 2, expressLines: 1, feeders: 1, loops: 1, pushers: 2, crushers: 1, lasers: 2, walls: 5, edgeWalls: 0.2 }));
    assert.ok(board.ok);
    const setup = makeSetup(board.value, 'classic', {});
    assert.ok(setup.ok);
    const made = createState(setup.value, randomRobots(board.value, 4, rnd), seed);
    assert.ok(made.ok);
    let state = made.value;
    for (let t = 0; t < 8 && !raceOver(setup.value, state); t++) {
      const begun = beginTurn(setup.value, state, randomReentry(state, rnd));
      assert.ok(begun.ok);
      const ordered = randomOrders(setup.value, begun.value.state, rnd);
      assert.ok(ordered.ok);
      const view = ordered.value.robots.map((r) => ({ name: r.name, x: r.x, y: r.y, dir: DIRS[r.dir]!, damage: r.damage, status: r.status, virtual: r.virtual, poweredDown: r.poweredDown, lives: r.lives, flags: r.flags }));
      const played = playTurn(setup.value, ordered.value, { events: true });
      assert.ok(played.ok);
      assert.deepEqual(replayLengths(view, played.value.events), pageLengths(view, played.value.events), `seed ${seed}, turn ${t + 1}`);
      state = played.value.state;
      turns++;
    }
  }
  assert.ok(turns >= 50, `${turns} turns compared`);
});

test('a register of four robots each playing a Move 2, then the lasers, replays briskly: under 2.5 s at 1×', () => {
  const ev: GameEvent[] = [{ type: 'registerBegan', register: 1 }];
  const robots = [0, 1, 2, 3].map((k) => robot(`R${k}`, 2 * k + 1, 8));
  for (const k of [0, 1, 2, 3]) ev.push({ type: 'moved', robot: k, from: [2 * k + 1, 8], to: [2 * k + 1, 7] }, { type: 'moved', robot: k, from: [2 * k + 1, 7], to: [2 * k + 1, 6] });
  ev.push({ type: 'shot', robot: 1, by: { robot: 0 }, points: 1, from: [1, 6], to: [3, 6] });
  const { animated } = replayLengths(robots, ev);
  // 380 ms a glide and 250 ms between steps made it 4.6 s.
  assert.ok(animated < 2500, `${animated} ms`);
});
