/** Robots moving under their own power (RULES.md "Movement and pushing"; 000 L117-120, L142-144, L218-228). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at, card, ofType, race, robot, turn, index } from './testing.js';
import { sortEight } from './phases/program.js';

const FLOOR = [
  '. . . . . .',
  '. . . . . .',
  '. . . . . .',
  '. . . . . .',
  '. . . . . .',
];
const one = (programs: Record<string, string[]>) => ({ programs, registers: 1 });

test('Move 1, 2 and 3 move a robot forward that many squares', () => {
  // 000 L118 "A Move 2 will move a robot forward two squares"
  for (const [c, y] of [['F1:490', 3], ['F2:670', 2], ['F3:790', 1]] as const) {
    const g = turn(race(FLOOR, [{ name: 'A', x: 2, y: 4, dir: 'N' }]), one({ A: [c] }));
    assert.deepEqual(at(g, 'A'), [2, y, 'N'], c);
  }
});

test('Back-Up moves a robot one square back and keeps its facing', () => {
  // 000 L118 "a Back-Up card will move a robot back one square"
  const g = turn(race(FLOOR, [{ name: 'A', x: 2, y: 2, dir: 'E' }]), one({ A: ['B:430'] }));
  assert.deepEqual(at(g, 'A'), [1, 2, 'E']);
});

test('rotations turn a robot without moving it', () => {
  // 000 L142 "The card rotates the robot, but doesn't move it."; 000 L118 "a U-Turn is a 180 degree turn"
  for (const [c, d] of [['R:80', 'E'], ['L:70', 'W'], ['U:10', 'S']] as const) {
    const g = turn(race(FLOOR, [{ name: 'A', x: 2, y: 2, dir: 'N' }]), one({ A: [c] }));
    assert.deepEqual(at(g, 'A'), [2, 2, d], c);
    const ev = ofType(g.events, 'turned')[0]!;
    assert.deepEqual([ev.from, ev.by], [0, 'card']);
  }
});

test('five registers run the five cards in order', () => {
  // 000 L70 "The first card is said to be in the first 'register,' and it is revealed during the first register phase"
  const g = turn(race(FLOOR, [{ name: 'A', x: 0, y: 4, dir: 'N' }]), { programs: { A: ['F1:490', 'R:80', 'F2:670', 'L:70', 'B:430'] } });
  assert.deepEqual(at(g, 'A'), [2, 4, 'N']);
});

test('a wall stops a robot and the rest of its move is lost, without damage', () => {
  // 000 L144 "a wall will simply stop a robot without damaging it"; 000 L343
  const g = turn(race({ grid: FLOOR, walls: ['2,2 N'] }, [{ name: 'A', x: 2, y: 4, dir: 'N' }]), one({ A: ['F3:790'] }));
  assert.deepEqual(at(g, 'A'), [2, 2, 'N']);
  assert.equal(robot(g, 'A').damage, 0);
  assert.equal(ofType(g.events, 'blocked').length, 1);
});

test('a wall is a wall from both sides', () => {
  // SCENARIOS.md: '"2,0 S" and "2,1 N" are the same wall'
  const g = turn(race({ grid: FLOOR, walls: ['2,1 S'] }, [{ name: 'A', x: 2, y: 1, dir: 'S' }]), one({ A: ['B:430'] }));
  const h = turn(race({ grid: FLOOR, walls: ['2,1 S'] }, [{ name: 'A', x: 2, y: 3, dir: 'N' }]), one({ A: ['F2:670'] }));
  assert.deepEqual(at(g, 'A'), [2, 0, 'S']); // backs away from the wall, unhindered
  assert.deepEqual(at(h, 'A'), [2, 2, 'N']);
});

test('Back-Up is stopped by a wall behind the robot', () => {
  // 000 L144; RULES.md "Back-Up moves one square backwards and pushes the same way"
  const g = turn(race({ grid: FLOOR, walls: ['2,2 S'] }, [{ name: 'A', x: 2, y: 2, dir: 'N' }]), one({ A: ['B:430'] }));
  assert.deepEqual(at(g, 'A'), [2, 2, 'N']);
});

test('a wall on the board edge stops a robot instead of letting it fall off', () => {
  // RULES.md "A wall on the board's edge is a wall"; 000 L207 "moves off a blank edge"
  const g = turn(race({ grid: FLOOR, walls: ['5,2 E'] }, [{ name: 'A', x: 4, y: 2, dir: 'E' }]), one({ A: ['F3:790'] }));
  assert.deepEqual(at(g, 'A'), [5, 2, 'E']);
  assert.equal(robot(g, 'A').lives, 3);
});

test('moving off an open board edge destroys the robot', () => {
  // 000 L207 "A robot is destroyed when it ... moves off a blank edge of the board"
  const g = turn(race(FLOOR, [{ name: 'A', x: 4, y: 2, dir: 'E' }]), one({ A: ['F3:790'] }));
  assert.equal(at(g, 'A'), 'destroyed');
  const ev = ofType(g.events, 'destroyed')[0]!;
  assert.deepEqual([ev.cause, ev.pushedBy, ev.lives], ['edge', null, 2]);
});

test('a pit destroys a robot that moves onto it, and cannot be jumped', () => {
  // 000 L144 "a pit will destroy any robot that moves over it"; 001 L299 "(you cannot jump over pits)"
  const grid = ['. . . . . .', '. . O . . .', '. . . . . .'];
  const g = turn(race(grid, [{ name: 'A', x: 0, y: 1, dir: 'E' }]), one({ A: ['F3:790'] }));
  assert.equal(at(g, 'A'), 'destroyed');
  assert.equal(ofType(g.events, 'destroyed')[0]!.cause, 'pit');
  assert.equal(ofType(g.events, 'moved').length, 2); // (0,1)→(1,1)→pit; no third square
});

test('Back-Up into a pit destroys the robot', () => {
  // 000 L144; 004 L97 "Any robots which move or are pushed onto a pit space is immediately destroyed"
  const g = turn(race(['. O .'], [{ name: 'A', x: 2, y: 0, dir: 'E' }]), one({ A: ['B:430'] }));
  assert.equal(at(g, 'A'), 'destroyed');
});

test('a robot in the way is pushed ahead and keeps its facing; pushing does no damage', () => {
  // 000 L144 "A robot in an intervening square would not prevent the robot from executing the movement but instead would be pushed forward"
  const g = turn(
    race(FLOOR, [{ name: 'A', x: 0, y: 2, dir: 'E' }, { name: 'B', x: 1, y: 2, dir: 'S', poweredDown: true }]),
    one({ A: ['F2:670'] }),
  );
  assert.deepEqual(at(g, 'A'), [2, 2, 'E']);
  assert.deepEqual(at(g, 'B'), [3, 2, 'S']);
  // B's only damage is A's laser in the laser step (A now faces it); the push itself did none
  assert.equal(robot(g, 'B').damage, 1);
  assert.deepEqual(ofType(g.events, 'shot').map((e) => [e.robot, e.by]), [[index(g, 'B'), { robot: index(g, 'A') }]]);
  const pushes = ofType(g.events, 'pushed');
  assert.equal(pushes.length, 2);
  assert.deepEqual(pushes[0]!.by, { robot: index(g, 'A') });
});

test('a push moves a whole chain of robots', () => {
  // 000 L144; 003 L11 "robots that run into each other will push each other around"; RULES.md "a chain of robots with it"
  const g = turn(
    race(FLOOR, [
      { name: 'A', x: 0, y: 2, dir: 'E' },
      { name: 'B', x: 1, y: 2, dir: 'N', poweredDown: true },
      { name: 'C', x: 2, y: 2, dir: 'W', poweredDown: true },
    ]),
    one({ A: ['F1:490'] }),
  );
  assert.deepEqual([at(g, 'A'), at(g, 'B'), at(g, 'C')], [[1, 2, 'E'], [2, 2, 'N'], [3, 2, 'W']]);
});

test('Back-Up pushes a robot behind it', () => {
  // RULES.md "Back-Up moves one square backwards and pushes the same way"
  const g = turn(
    race(FLOOR, [{ name: 'A', x: 2, y: 2, dir: 'N' }, { name: 'B', x: 2, y: 3, dir: 'E', poweredDown: true }]),
    one({ A: ['B:430'] }),
  );
  assert.deepEqual(at(g, 'A'), [2, 3, 'N']);
  assert.deepEqual(at(g, 'B'), [2, 4, 'E']);
});

test('a chain that would cross a wall does not move, and the mover loses the rest of its move', () => {
  // 001 L87 "A robot can't be pushed through a wall; the movement of a pushing robot will stop if the pushed robot runs into a wall"
  // RULES.md "If any robot in the chain would cross a wall, nobody moves and the mover's remaining squares are lost"
  const g = turn(
    race({ grid: FLOOR, walls: ['3,2 E'] }, [
      { name: 'A', x: 0, y: 2, dir: 'E' },
      { name: 'B', x: 2, y: 2, dir: 'N', poweredDown: true },
      { name: 'C', x: 3, y: 2, dir: 'N', poweredDown: true },
    ]),
    one({ A: ['F3:790'] }),
  );
  assert.deepEqual([at(g, 'A'), at(g, 'B'), at(g, 'C')], [[1, 2, 'E'], [2, 2, 'N'], [3, 2, 'N']]);
});

test('a robot pushed against a wall on the board edge stays, and the pusher stops', () => {
  // RULES.md "A wall on the board's edge is a wall"
  const g = turn(
    race({ grid: FLOOR, walls: ['5,2 E'] }, [{ name: 'A', x: 3, y: 2, dir: 'E' }, { name: 'B', x: 5, y: 2, dir: 'N', poweredDown: true }]),
    one({ A: ['F3:790'] }),
  );
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[4, 2, 'E'], [5, 2, 'N']]);
});

test('a robot pushed into a pit is destroyed and its pusher goes on moving', () => {
  // 001 L87 "even into a pit"; RULES.md "Entering a pit ... destroys a robot at once, mover or pushed; a pusher goes on moving (B-26)"
  const grid = ['. . . O . .'];
  const g = turn(
    race(grid, [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 1, y: 0, dir: 'N', poweredDown: true }]),
    one({ A: ['F2:670'] }),
  );
  assert.equal(at(g, 'B'), 'destroyed');
  assert.deepEqual(at(g, 'A'), [2, 0, 'E']);
  const d = ofType(g.events, 'destroyed')[0]!;
  assert.deepEqual([d.robot, d.cause, d.pushedBy], [index(g, 'B'), 'pit', { robot: index(g, 'A') }]);
});

test('a robot pushed off the board is destroyed and its pusher goes on moving', () => {
  // 000 L207; 004 L97 "Going off of the board is the same as falling down a pit"; RULES.md B-26
  const g = turn(
    race(['. . . . .'], [{ name: 'A', x: 2, y: 0, dir: 'E' }, { name: 'B', x: 3, y: 0, dir: 'N', poweredDown: true }]),
    one({ A: ['F3:790'] }),
  );
  assert.equal(at(g, 'B'), 'destroyed');
  const d = ofType(g.events, 'destroyed');
  assert.deepEqual([d[0]!.cause, d[0]!.pushedBy], ['edge', { robot: index(g, 'A') }]);
  // B goes off at the second square; A carries on: to (4,0), then off the edge itself.
  assert.equal(at(g, 'A'), 'destroyed');
  assert.equal(d[1]!.robot, index(g, 'A'));
});

test('the end of a chain falls off the board while the rest of the chain moves', () => {
  // RULES.md B-26: a pushed robot off the board is destroyed at once; the push goes on
  const g = turn(
    race(['. . . . .'], [
      { name: 'A', x: 2, y: 0, dir: 'E' },
      { name: 'B', x: 3, y: 0, dir: 'N', poweredDown: true },
      { name: 'C', x: 4, y: 0, dir: 'N', poweredDown: true },
    ]),
    one({ A: ['F1:490'] }),
  );
  assert.deepEqual([at(g, 'A'), at(g, 'B'), at(g, 'C')], [[3, 0, 'E'], [4, 0, 'N'], 'destroyed']);
});

test('a virtual robot passes through real robots without pushing them', () => {
  // 000 L48 "When a robot is virtual, it passes through other robots (without pushing them)"; 000 L107
  const g = turn(
    race(FLOOR, [{ name: 'V', x: 0, y: 2, dir: 'E', virtual: true }, { name: 'B', x: 1, y: 2, dir: 'N', poweredDown: true }]),
    one({ V: ['F1:490'] }),
  );
  assert.deepEqual([at(g, 'V'), at(g, 'B')], [[1, 2, 'E'], [1, 2, 'N']]);
  const h = turn(
    race(FLOOR, [{ name: 'V', x: 0, y: 2, dir: 'E', virtual: true }, { name: 'B', x: 1, y: 2, dir: 'N', poweredDown: true }]),
    one({ V: ['F3:790'] }),
  );
  assert.deepEqual([at(h, 'V'), at(h, 'B')], [[3, 2, 'E'], [1, 2, 'N']]);
  assert.equal(ofType(h.events, 'pushed').length, 0);
});

test('a real robot is not stopped by a virtual robot and does not push it', () => {
  // 000 L107 "virtual robots aren't pushed by other robots, and other robots don't push virtual robots"
  const g = turn(
    race(FLOOR, [{ name: 'A', x: 0, y: 2, dir: 'E' }, { name: 'V', x: 1, y: 2, dir: 'N', virtual: true, poweredDown: true }]),
    one({ A: ['F2:670'] }),
  );
  assert.deepEqual([at(g, 'A'), at(g, 'V')], [[2, 2, 'E'], [1, 2, 'N']]);
});

test('a virtual robot is still stopped by walls and destroyed by pits', () => {
  // 000 L107 "virtual robots are affected by all board elements; they are blocked by walls, can fall into pits"
  const g = turn(race({ grid: ['. . . O'], walls: ['1,0 E'] }, [{ name: 'V', x: 0, y: 0, dir: 'E', virtual: true }]), one({ V: ['F3:790'] }));
  assert.deepEqual(at(g, 'V'), [1, 0, 'E']);
  const h = turn(race(['. . . O'], [{ name: 'V', x: 1, y: 0, dir: 'E', virtual: true }]), one({ V: ['F3:790'] }));
  assert.equal(at(h, 'V'), 'destroyed');
});

test('the higher priority number moves first, then the lower one pushes it', () => {
  // 000 L120 "A higher number means a higher priority, so a robot with a 200 would move before a robot with a 100."
  // 000 L226 "The robot that moves first is the one with the highest priority number"; SCENARIOS.md sample
  const bots = [
    { name: 'Twonky', x: 0, y: 0, dir: 'E' as const },
    { name: 'Zoom', x: 2, y: 0, dir: 'W' as const },
  ];
  const g = turn(race(['. . . . .', '. . . . .'], bots), one({ Twonky: ['F1:650'], Zoom: ['F1:610'] }));
  assert.deepEqual([at(g, 'Twonky'), at(g, 'Zoom')], [[0, 0, 'E'], [1, 0, 'W']]);
  assert.deepEqual(g.state.order, [0, 1]);
  const h = turn(race(['. . . . .', '. . . . .'], bots), one({ Twonky: ['F1:610'], Zoom: ['F1:650'] }));
  assert.deepEqual([at(h, 'Twonky'), at(h, 'Zoom')], [[1, 0, 'E'], [2, 0, 'W']]);
  assert.deepEqual(h.state.order, [1, 0]);
});

test('the cards run highest first with eight robots and with more, whatever the robots\' order', () => {
  // 000 L120; eight robots (the sort without branches) and ten (the insertion sort)
  const cards = ['F1:490', 'L:70', 'F3:840', 'R:400', 'U:10', 'B:460', 'F2:700', 'L:330', 'R:80', 'F1:650'];
  for (const n of [8, 10]) {
    const bots = cards.slice(0, n).map((_, k) => ({ name: `R${k}`, x: 2 * k, y: 3, dir: 'N' as const }));
    const g = turn(race(Array(6).fill(Array(2 * n).fill('.').join(' ')), bots), one(Object.fromEntries(bots.map((b, k) => [b.name, [cards[k]!]]))));
    const byCard = bots.map((_, k) => k).sort((a, b) => card(cards[b]!) - card(cards[a]!));
    assert.deepEqual(g.state.order, byCard, `${n} robots`);
    assert.deepEqual(ofType(g.events, 'revealed').map((e) => e.robot), byCard, `${n} robots`);
  }
});

test('sortEight orders up to eight robots by card, highest first, a tie in robot order', () => {
  let seed = 7;
  const next = (m: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % m);
  for (let t = 0; t < 2000; t++) {
    const n = 2 + next(7);
    // n of the robots 0 to 7, in robot order (as the movers are found)
    const robots = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [next(1000), i] as const).sort((a, b) => a[0] - b[0]).slice(0, n).map(([, i]) => i).sort((a, b) => a - b);
    // Few distinct cards: ties (a Radio Control copy runs the shooter's card) are common here.
    const cards = robots.map(() => (next(4) ? 10 * next(6) : next(0x4000000)));
    const order = robots.slice();
    const scratch = new Int32Array(8);
    cards.forEach((c, k) => (scratch[k] = c));
    sortEight(order, scratch, n);
    const expected = robots.map((r, k) => [r, cards[k]!] as const).sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([r]) => r);
    assert.deepEqual(order, expected, JSON.stringify({ robots, cards }));
  }
});

test('priority is the number alone, not the kind of card', () => {
  // RULES.md "Priority is the number alone (B-23)"; 000 L120
  const g = turn(
    race(FLOOR, [{ name: 'A', x: 1, y: 2, dir: 'E' }, { name: 'B', x: 3, y: 2, dir: 'W' }]),
    one({ A: ['F1:500'], B: ['F1:490'] }),
  );
  // A (500) first to (2,2); B (490) then pushes A back to (1,2) and stands on (2,2)
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[1, 2, 'E'], [2, 2, 'W']]);
});

test('a card runs whole before the next robot moves', () => {
  // 003 L6 "Cards with HIGHER priorities are performed (fully) BEFORE cards with lower priorities"
  const g = turn(
    race(FLOOR, [{ name: 'A', x: 0, y: 2, dir: 'E' }, { name: 'B', x: 2, y: 0, dir: 'S' }]),
    one({ A: ['F3:800'], B: ['F2:780'] }),
  );
  // A crosses (2,2) and ends on (3,2) before B comes down column 2 onto (2,2): no collision
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[3, 2, 'E'], [2, 2, 'S']]);
  assert.deepEqual(ofType(g.events, 'moved').map((e) => e.robot), [0, 0, 0, 1, 1]);
  assert.equal(ofType(g.events, 'pushed').length, 0);
});

test('a pushed robot runs its own card later from its new square', () => {
  // 000 L226 Twonky example: the robot that moves first pushes; the other then moves from where it was pushed
  const g = turn(
    race(FLOOR, [{ name: 'A', x: 0, y: 2, dir: 'E' }, { name: 'B', x: 1, y: 2, dir: 'S' }]),
    one({ A: ['F1:600'], B: ['F1:500'] }),
  );
  assert.deepEqual([at(g, 'A'), at(g, 'B')], [[1, 2, 'E'], [2, 3, 'S']]);
});

test('a robot destroyed earlier in the register does not move', () => {
  // 000 L207; RULES.md "Powered-down and destroyed robots have no card this register"
  const g = turn(
    race(['. . O . .'], [{ name: 'A', x: 0, y: 0, dir: 'E' }, { name: 'B', x: 1, y: 0, dir: 'W' }]),
    one({ A: ['F1:600'], B: ['F1:500'] }),
  );
  // A (600) pushes B into the pit at (2,0); B's Move 1 (500) never runs
  assert.equal(at(g, 'B'), 'destroyed');
  assert.deepEqual(at(g, 'A'), [1, 0, 'E']);
  assert.equal(ofType(g.events, 'moved').filter((e) => e.robot === index(g, 'B')).length, 0);
  assert.equal(robot(g, 'B').lives, 2);
});
