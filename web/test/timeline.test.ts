/** The replay's beats: what moves where at each moment of a step, from the events alone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginTurn, cardName, createState, makeSetup, parseCard, playTurn, submitOrders, type Dir, type GameEvent } from '../../engine/src/index.js';
import { loadCourse } from '../../boards/src/index.js';
import type { Robot } from '../src/robots-state.js';
import { steps } from '../src/steps.js';
import { beats } from '../src/timeline.js';

const robot = (name: string, x: number, y: number, dir: Dir = 0): Robot =>
  ({ name, x, y, dir, damage: 0, status: 'active', virtual: false, poweredDown: false, lives: 3, flags: 0 });
const at = (b: { robots: Robot[] }, i: number) => [b.robots[i]!.x, b.robots[i]!.y];

test('a Move 3 glides square by square, one beat a square', () => {
  const ev: GameEvent[] = [
    { type: 'moved', robot: 0, from: [2, 5], to: [2, 4] },
    { type: 'moved', robot: 0, from: [2, 4], to: [2, 3] },
    { type: 'moved', robot: 0, from: [2, 3], to: [2, 2] },
  ];
  const b = beats([robot('Ava', 2, 5)], [ev]);
  assert.equal(b.length, 3);
  assert.deepEqual(b.map((x) => at(x, 0)), [[2, 4], [2, 3], [2, 2]]);
  assert.deepEqual(b[1]!.actions, [{ kind: 'move', robot: 0, from: [2, 4], to: [2, 3], how: 'programmed' }]);
});

test('a pushed robot moves in the same beat as the robot pushing it', () => {
  const ev: GameEvent[] = [
    { type: 'pushed', robot: 1, from: [3, 3], to: [4, 3], by: { robot: 0 } },
    { type: 'moved', robot: 0, from: [2, 3], to: [3, 3] },
    { type: 'pushed', robot: 1, from: [4, 3], to: [5, 3], by: { robot: 0 } },
    { type: 'moved', robot: 0, from: [3, 3], to: [4, 3] },
  ];
  const b = beats([robot('Ava', 2, 3, 1), robot('Bob', 3, 3)], [ev]);
  assert.equal(b.length, 2);
  assert.deepEqual(b[0]!.actions.map((a) => a.kind === 'move' && `${a.robot} ${a.how}`), ['1 pushed', '0 programmed']);
  assert.deepEqual([at(b[0]!, 0), at(b[0]!, 1)], [[3, 3], [4, 3]]);
  assert.deepEqual([at(b[1]!, 0), at(b[1]!, 1)], [[4, 3], [5, 3]]);
});

test('belts carry every robot at once, then turn them', () => {
  const ev: GameEvent[] = [
    { type: 'carried', robot: 0, from: [0, 0], to: [1, 0], express: false },
    { type: 'turned', robot: 0, from: 0, to: 1, by: 'belt' },
    { type: 'carried', robot: 1, from: [5, 5], to: [5, 6], express: false },
    { type: 'turned', robot: 1, from: 2, to: 1, by: 'belt' },
  ];
  const b = beats([robot('Ava', 0, 0), robot('Bob', 5, 5, 2)], [ev]);
  assert.equal(b.length, 2);
  assert.deepEqual(b[0]!.actions.map((a) => a.kind), ['move', 'move']);
  assert.deepEqual(b[1]!.actions.map((a) => a.kind === 'turn' && a.quarter), [1, -1]);
  assert.deepEqual(b[1]!.robots.map((r) => r.dir), [1, 1]);
});

test('a robot that moves onto a pit or off the edge falls in the next beat, where it went', () => {
  const ev: GameEvent[] = [
    { type: 'moved', robot: 0, from: [0, 1], to: [-1, 1] },
    { type: 'destroyed', robot: 0, cause: 'edge', pushedBy: null, lives: 2 },
  ];
  const b = beats([robot('Ava', 0, 1, 3)], [ev]);
  assert.equal(b.length, 2);
  assert.deepEqual(b[1]!.actions, [{ kind: 'fall', robot: 0, at: [-1, 1], cause: 'edge' }]);
  assert.equal(b[0]!.robots[0]!.status, 'active');
  assert.equal(b[1]!.robots[0]!.status, 'destroyed');
});

test('lasers fire together and the robots they hit blink in that beat', () => {
  const ev: GameEvent[] = [
    { type: 'shot', robot: 1, by: { laser: 0 }, points: 1, from: [0, 4], to: [3, 4] },
    { type: 'damaged', robot: 1, points: 1, damage: 1 },
    { type: 'shot', robot: 0, by: { robot: 1 }, points: 1, from: [3, 4], to: [3, 1] },
    { type: 'damaged', robot: 0, points: 1, damage: 1 },
  ];
  const b = beats([robot('Ava', 3, 1, 2), robot('Bob', 3, 4)], [ev]);
  assert.equal(b.length, 1);
  assert.deepEqual(b[0]!.actions.map((a) => `${a.kind} ${'robot' in a ? a.robot : ''}`), ['beam 1', 'hit 1', 'beam 0', 'hit 0']);
  assert.deepEqual(b[0]!.robots.map((r) => r.damage), [1, 1]);
});

test('every beam of the lasers\' step fires in one beat, two at one robot too, and the robots hit blink in it; the robot they wreck goes after', () => {
  // The engine's order: every shot, then the damage, then the destruction (B-28).
  const ev: GameEvent[] = [
    { type: 'registerBegan', register: 1 },
    { type: 'shot', robot: 1, by: { laser: 0 }, points: 1, from: [0, 4], to: [3, 4] },
    { type: 'shot', robot: 0, by: { robot: 1 }, points: 1, from: [3, 4], to: [3, 1] },
    { type: 'shot', robot: 1, by: { robot: 0 }, points: 1, from: [3, 1], to: [3, 4] },
    { type: 'damaged', robot: 0, points: 1, damage: 1 },
    { type: 'damaged', robot: 1, points: 2, damage: 10 },
    { type: 'destroyed', robot: 1, cause: 'damage', pushedBy: null, lives: 2 },
  ];
  const lasers = steps([robot('Ava', 3, 1, 2), robot('Bob', 3, 4)], ev).find((s) => s.label === 'Lasers fire')!;
  const kinds = lasers.beats.map((b) => b.actions.map((a) => `${a.kind} ${'robot' in a ? a.robot : ''}`));
  assert.deepEqual(kinds, [['beam 1', 'beam 0', 'beam 1', 'hit 0', 'hit 1'], ['wreck 1']]);
  assert.deepEqual(lasers.beats[0]!.robots.map((r) => r.status), ['active', 'active'], 'wrecked only after the beams');
});

test('pushers, gears and crushers at work are named in the beat they act', () => {
  const ev: GameEvent[] = [
    { type: 'pushed', robot: 0, from: [1, 1], to: [2, 1], by: { pusher: 3 } },
  ];
  assert.deepEqual(beats([robot('Ava', 1, 1)], [ev])[0]!.actions[1], { kind: 'element', element: 'pusher', pusher: 3 });
  const gear: GameEvent[] = [{ type: 'turned', robot: 0, from: 0, to: 3, by: 'gear' }];
  assert.deepEqual(beats([robot('Ava', 4, 4)], [gear])[0]!.actions, [
    { kind: 'turn', robot: 0, from: 0, to: 3, quarter: -1, by: 'gear' }, { kind: 'element', element: 'gear', at: [4, 4] }]);
});

test('each step of a turn begins where the one before ended, and its last beat is where the step ends', () => {
  const ev: GameEvent[] = [
    { type: 'turnBegan', turn: 1 },
    { type: 'registerBegan', register: 1 },
    { type: 'revealed', robot: 0, register: 1, card: parseCard('F2:670', true)! },
    { type: 'moved', robot: 0, from: [2, 5], to: [2, 4] },
    { type: 'moved', robot: 0, from: [2, 4], to: [2, 3] },
    { type: 'carried', robot: 0, from: [2, 3], to: [3, 3], express: false },
    { type: 'flagTouched', robot: 0, flag: 1 },
    { type: 'turnEnded', turn: 1 },
  ];
  const s = steps([robot('Ava', 2, 5)], ev);
  for (let k = 1; k < s.length - 1; k++) assert.deepEqual(s[k]!.before, s[k - 1]!.robots, `step ${k}`);
  for (const st of s) assert.deepEqual(st.beats[st.beats.length - 1]!.robots, st.robots);
  const flags = s.find((x) => x.label === 'Flags are touched')!;
  assert.deepEqual(flags.beats[0]!.actions, [{ kind: 'flag', robot: 0, flag: 1 }]);
});

test('crossing a fold of a cube course, a robot leaves one face and appears on the other in one beat, turned as the fold turns it: it never glides across the picture', () => {
  const course = loadCourse('cube-works');
  assert.ok(course.ok);
  const c = course.value.course;
  const setup = makeSetup(c.board, 'classic', {}, c.boards.length);
  assert.ok(setup.ok);
  // Ava on flyover's west edge, facing west: a Move 1 or more takes her over the fold onto sinkhole-warren.
  const made = createState(setup.value, [{ name: 'Ava', x: 12, y: 1, dir: 3, archive: [12, 1] }], 1);
  assert.ok(made.ok);
  const dealt = beginTurn(setup.value, made.value, {});
  assert.ok(dealt.ok);
  const hand = dealt.value.state.robots[0]!.hand;
  const forward = hand.find((k) => /^F/.test(cardName(k)))!;
  const orders = submitOrders(setup.value, dealt.value.state, 0, { program: [forward, ...hand.filter((k) => k !== forward).slice(0, 4)] });
  assert.ok(orders.ok);
  const played = playTurn(setup.value, orders.value, { events: true });
  assert.ok(played.ok);
  const first = steps([robot('Ava', 12, 1, 3)], played.value.events).find((s) => s.register === 1 && s.beats.some((b) => b.actions.length))!;
  const moves = first.beats.map((b) => b.actions.filter((a) => a.kind === 'move'));
  assert.deepEqual(moves[0], [{ kind: 'move', robot: 0, from: [12, 1], to: [1, 12], how: 'programmed', across: true }]);
  assert.deepEqual(first.beats[0]!.actions.filter((a) => a.kind === 'turn').map((a) => a.kind === 'turn' && [a.from, a.to, a.by]), [[3, 2, 'fold']], 'turned by the fold in the same beat');
  assert.deepEqual(first.beats[0]!.robots[0]!.dir, 2);
  // The squares after it are side by side: they glide.
  for (const m of moves.slice(1).flat()) assert.equal(m.kind === 'move' && m.across, undefined);
});
