import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RaceService, type HandedPlay, type PlayedFrame } from './races.js';
import { shippedCourses } from './courses.js';
import { freshDb, TestClock, seatedRace } from './testing.js';

const courses = shippedCourses();

const program = async (service: RaceService, id: string, seat: number, token: string) => {
  const you = await service.seat(id, seat, token);
  assert.ok(you.ok);
  return { turn: you.value.turn, program: you.value.you.hand.slice(0, you.value.you.openRegisters.length) };
};

test('a turn played by this process is handed to the stream as a read of the database gives it, a turn played again after a rewind too', async () => {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course: (n) => courses.get(n), alone: true });
  // Another process on the same database, which keeps nothing: it reads each played turn.
  const reader = new RaceService({ db, clock, course: (n) => courses.get(n) });
  try {
    const created = await seatedRace(service, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 }, deal: { secret: false, seed: 5 } });
    assert.ok(created.ok);
    const { id, seats, moderatorKey } = created.value;
    const frames: PlayedFrame[] = [];
    service.bus.on('committed', (_id: string, _seq: number, _entries: unknown, played?: HandedPlay) => played && frames.push(played.frame()));
    const playTurn = async () => {
      for (const seat of [0, 1]) assert.ok((await service.submit(id, seat, { token: seats[seat]!.token! }, await program(service, id, seat, seats[seat]!.token!))).ok);
    };
    const same = async (frame: PlayedFrame) => {
      const read = await reader.played(id, frame.turn);
      assert.ok(read.ok);
      assert.deepEqual(JSON.parse(JSON.stringify(frame)), JSON.parse(JSON.stringify({ turn: frame.turn, ...read.value })), `turn ${frame.turn}`);
    };
    await playTurn();
    await playTurn();
    assert.deepEqual(frames.map((f) => f.turn), [1, 2]);
    for (const f of frames) await same(f);
    // Turn 2 taken back and played again: turn 3 is dealt again, and its first deal is no part of its play.
    assert.ok((await service.moderate(id, moderatorKey, 'rewind', {})).ok);
    assert.ok((await service.moderate(id, moderatorKey, 'adjudicate', { turn: 2 })).ok);
    await playTurn();
    assert.equal(frames.at(-1)!.turn, 3);
    await same(frames.at(-1)!);
  } finally {
    await db.destroy();
  }
});

test('a race kept in memory follows every change of this process, and one kept by another process is read again once the race has changed', async () => {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const a = new RaceService({ db, clock, course: (n) => courses.get(n) });
  const b = new RaceService({ db, clock, course: (n) => courses.get(n) });
  try {
    const created = await seatedRace(a, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(created.ok);
    const { id, seats } = created.value;
    const ava = seats[0]!.token!;
    const bob = seats[1]!.token!;
    // Both keep the race; b changes it (a robot chosen, orders in, the turn played), a sees each change.
    assert.equal((await a.view(id)).ok && (await b.view(id)).ok, true);
    assert.ok((await b.chooseRobot(id, 0, ava, { robot: 5 })).ok);
    const seen = await a.seat(id, 0, ava);
    assert.ok(seen.ok && seen.value.seats[0]!.robot === 5, 'the robot chosen in the other process');
    assert.ok((await b.submit(id, 0, { token: ava }, await program(b, id, 0, ava))).ok);
    // a's orders go on the version b left: they play the turn.
    assert.ok((await a.submit(id, 1, { token: bob }, await program(a, id, 1, bob))).ok);
    const after = await b.view(id);
    assert.ok(after.ok && after.value.turn === 2, 'b sees the turn a played');
    const you = await a.seat(id, 0, ava);
    assert.ok(you.ok && you.value.turn === 2 && you.value.you.orders === null);
  } finally {
    await db.destroy();
  }
});
