import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shippedCourses, RaceService } from '../../server/src/index.js';
import { freshDb, TestClock, until } from '../../server/src/testing.js';
import { MailGateway } from './gateway.js';
import { smtpSink } from './testing.js';

const courses = shippedCourses();

test('mail rounds that fail on every tick (the database gone) are logged once, then once a minute, never queued behind each other', async () => {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course: (n) => courses.get(n) });
  const sink = await smtpSink();
  const logged: string[] = [];
  const gateway = new MailGateway({ service, db, clock, config: { from: 'race@rr.test', relay: `smtp://127.0.0.1:${sink.port}`, remindHours: 3, pumpMs: 10, log: (l) => logged.push(l) } });
  await gateway.start();
  let rounds = 0;
  let running = 0;
  let most = 0;
  const pump = gateway.pump.bind(gateway);
  gateway.pump = async () => {
    rounds++;
    running++;
    most = Math.max(most, running);
    try {
      await pump();
    } finally {
      running--;
    }
  };
  try {
    await db.destroy();
    await until('30 failed rounds', () => rounds >= 30);
    const failed = () => logged.filter((l) => l.startsWith('mail round failed'));
    assert.equal(failed().length, 1, logged.join('\n'));
    clock.advance(60_000);
    const seen = rounds;
    await until('a round a minute later', () => rounds >= seen + 2);
    assert.equal(failed().length, 2, logged.join('\n'));
    assert.match(failed()[1]!, /^mail round failed \(\d+ tries in a row\)/);
    assert.equal(most, 1);
  } finally {
    await gateway.stop();
    await sink.close();
  }
});
