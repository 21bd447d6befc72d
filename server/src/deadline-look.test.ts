import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shippedCourses } from './courses.js';
import { LEFT_TO_LOOKER_MS, LOOKER_ALIVE_MS, RaceService } from './races.js';
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
      await off();
    }
    assert.equal(looks, 2);
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /^the look for orders that came before the deadline of race \S+ took longer than 0\.05 s; the turn is played with the orders in$/);
    assert.match(lines[1]!, /^the look for orders that came before the deadline of race \S+ failed \(the mailbox is away\); the turn is played with the orders in$/);
  } finally {
    await db.destroy();
  }
});

test('another process leaves a mail race\'s deadline to the process that looks before it, for LEFT_TO_LOOKER_MS; it plays one at once when no looker is there, or one whose looker went without a word once its saying runs out', async (t) => {
  const { db } = await freshDb('sqlite');
  // Two processes on one database, each its own clock: `looker` looks before mail races' deadlines, `other` does not.
  const lookerClock = new TestClock();
  const otherClock = new TestClock();
  const looker = new RaceService({ db, clock: lookerClock, course });
  const other = new RaceService({ db, clock: otherClock, course });
  const lines: string[] = [];
  t.mock.method(console, 'error', (line: string) => void lines.push(line));
  const mailRace = async () => {
    const made = await seatedRace(other, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(made.ok);
    return { id: made.value.id, deadline: (await other.mailRace(made.value.id))!.deadlineAt! };
  };
  const at = (ms: number) => ((lookerClock.t = ms), (otherClock.t = ms));
  try {
    const web = await seatedRace(other, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Dee' }, { name: 'Eve' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(web.ok);
    const first = await mailRace();
    const off = looker.beforeDeadlinePlay({ look: async () => undefined, withinMs: 1000 });
    // The looker says so at its tick, just before the deadline; then it ticks no more (a process stuck, or slow).
    at(first.deadline - 1000);
    assert.equal(await looker.tick(), 0);
    at(first.deadline + 1000);
    assert.equal(await other.tick(), 1, 'the race without a seat raced by e-mail is played');
    assert.equal((await other.playedTurn(first.id, 1)).ok, false, 'the mail race is left to the looker');
    at(first.deadline + LEFT_TO_LOOKER_MS - 1);
    assert.equal(await other.tick(), 0);
    assert.deepEqual(lines, []);
    // Its deadline long past, the looker there (its saying not run out) but not playing it: played here, and that is told.
    at(first.deadline + LEFT_TO_LOOKER_MS);
    assert.equal(await other.tick(), 1);
    assert.ok((await other.playedTurn(first.id, 1)).ok);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, new RegExp(`^race ${first.id}: the process that looks into the mailbox did not play its deadline within 30 s; played here, without the last look for mailed orders$`));
    // The looker takes its look back (its gateway stops): the other plays the next deadline at once.
    await off();
    const second = await mailRace();
    at(second.deadline);
    await other.tick();
    assert.ok((await other.playedTurn(second.id, 1)).ok);
    // A looker that went without a word (a crash) is waited for until its last saying runs out.
    looker.beforeDeadlinePlay({ look: async () => undefined, withinMs: 1000 });
    const third = await mailRace();
    at(third.deadline - LOOKER_ALIVE_MS + LEFT_TO_LOOKER_MS / 2);
    await looker.tick();
    at(third.deadline);
    await other.tick();
    assert.equal((await other.playedTurn(third.id, 1)).ok, false, 'left to the looker');
    at(third.deadline + LEFT_TO_LOOKER_MS / 2);
    await other.tick();
    assert.ok((await other.playedTurn(third.id, 1)).ok, 'the looker\'s saying ran out');
    // (The first race's next deadline may have been played past its bound meanwhile, and told.)
    assert.deepEqual((lines as string[]).filter((l) => l.includes(third.id)), [], 'played with no looker there: nothing told');
  } finally {
    await db.destroy();
  }
});
