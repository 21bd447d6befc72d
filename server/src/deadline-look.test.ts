import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shippedCourses } from './courses.js';
import { RaceService } from './races.js';
import { freshDb, seatedRace, TestClock, until } from './testing.js';

const courses = shippedCourses();
const course = (n: string) => courses.get(n);
const RANDOM = { turn: 1, program: [null, null, null, null, null] };

test('a deadline of a race raced by e-mail is played after the look registered for it, the others meanwhile; during it mailed orders count from their arrival, others from now', async () => {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course });
  try {
    const mailed = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }, { name: 'Cy' }], deadline: { kind: 'live', seconds: 600 } });
    const web = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Dee' }, { name: 'Eve' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(mailed.ok && web.ok);
    const id = mailed.value.id;
    const race = await service.mailRace(id);
    assert.ok(race);
    const secret = (seat: number) => race.mail.find((m) => m.seat === seat)!.secret;
    const deadline = race.deadlineAt!;
    let release = () => undefined as void;
    const gate = new Promise<void>((r) => (release = r));
    const looks: (readonly string[])[] = [];
    const lines: string[] = [];
    service.beforeDeadlinePlay({ look: async (ids) => (looks.push(ids), gate), withinMs: 60_000, log: (l) => lines.push(l) });
    clock.t = deadline + 1000;
    const ticked = service.tick();
    await until('the race without mail seats played', async () => (await service.playedTurn(web.value.id, 1)).ok);
    await until('the look begun', () => looks.length === 1);
    assert.deepEqual(looks, [[id]]);
    assert.equal((await service.playedTurn(id, 1)).ok, false, 'the mail race waits for the look');
    // A mail that reached the mailbox 2 s before the deadline counts; one a second after it, or one without its arrival, or the web seat's, not.
    assert.ok((await service.submit(id, 0, { mailSecret: secret(0), arrivedAt: deadline - 2000 }, RANDOM)).ok);
    for (const [seat, who] of [[1, { mailSecret: secret(1), arrivedAt: deadline + 1000 }], [1, { mailSecret: secret(1) }], [2, { token: mailed.value.seats[2]!.token!, arrivedAt: deadline - 2000 }]] as const) {
      const late = await service.submit(id, seat, who, RANDOM);
      assert.ok(!late.ok && late.refusal.field === 'deadline', JSON.stringify(late));
    }
    release();
    assert.equal(await ticked, 2);
    assert.deepEqual(await service.ordersIn(id, 1), [0], 'Ava\'s orders, taken during the look, played; Bob\'s and Cy\'s filled at random');
    const played = await service.playedTurn(id, 1);
    assert.ok(played.ok);
    assert.deepEqual(lines, []);
  } finally {
    await db.destroy();
  }
});

test('a look that never ends holds the deadline\'s play for its bound only; a look that fails does not hold it; both are logged', async () => {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course });
  try {
    const lines: string[] = [];
    let looks = 0;
    for (const look of [() => new Promise<void>(() => undefined), () => Promise.reject(new Error('the mailbox is away'))]) {
      const made = await seatedRace(service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 600 } });
      assert.ok(made.ok);
      const off = service.beforeDeadlinePlay({ look: () => (looks++, look()), withinMs: 50, log: (l) => lines.push(l) });
      const race = await service.mailRace(made.value.id);
      clock.t = race!.deadlineAt! + 1000;
      assert.equal(await service.tick(), 1);
      assert.ok((await service.playedTurn(made.value.id, 1)).ok);
      off();
    }
    assert.equal(looks, 2);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /^the look for orders that came before the deadline of race \S+ took longer than 0\.05 s; the turn is played with the orders in$/);
    assert.match(lines[1]!, /^the look for orders that came before the deadline of race \S+ failed \(the mailbox is away\); the turn is played with the orders in$/);
  } finally {
    await db.destroy();
  }
});
