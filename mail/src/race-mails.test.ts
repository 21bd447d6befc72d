import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SMTPServer } from 'smtp-server';
import { formatStandings, writeProgram } from '../../engine/src/index.js';
import { shippedCourses, RaceService } from '../../server/src/index.js';
import { freshDb, rigRaceState, shownProgram, TestClock, seatedRace } from '../../server/src/testing.js';
import { MailGateway, type MailConfig } from './gateway.js';
import { gainedLines } from './outbox.js';
import { endMail, followWord, helpWord, reportMail, seriesLines } from './templates.js';
import { mailDb } from './store.js';
import { sendMail, smtpSink, until, type Caught } from './testing.js';

const courses = shippedCourses();
const course = (n: string) => courses.get(n);
const FROM = 'RoboRally <race@rr.test>';
const MINUTE = 60_000;

async function setup(config: Partial<MailConfig> = {}) {
  const { db } = await freshDb('sqlite');
  const clock = new TestClock();
  const service = new RaceService({ db, clock, course });
  const sink = await smtpSink();
  const logged: string[] = [];
  const gateway = new MailGateway({
    service, db, clock,
    config: { from: FROM, relay: `smtp://127.0.0.1:${sink.port}`, smtpListen: '127.0.0.1:0', remindHours: 3, pumpMs: 3_600_000, log: (l) => logged.push(l), ...config },
  });
  await gateway.start();
  return {
    db, clock, service, sink, gateway, logged,
    close: async () => {
      await gateway.stop();
      await sink.close();
      await db.destroy();
    },
  };
}

const text = (c: Caught) => c.mail.text ?? '';
const subject = (c: Caught) => c.mail.subject ?? '';
const replyTo = (c: Caught) => c.mail.replyTo!.value[0]!.address!;
const header = (c: Caught, k: string) => String(c.mail.headers.get(k) ?? '');
const refs = (c: Caught): string[] => (c.mail.references === undefined ? [] : Array.isArray(c.mail.references) ? c.mail.references : [c.mail.references]);

/** Each seat sends "random" in reply to its latest instructions; a live race then plays the turn. */
async function everyoneRandom(t: Awaited<ReturnType<typeof setup>>, emails: readonly string[], turn: number): Promise<void> {
  for (const email of emails) {
    const deal = t.sink.mails.filter((c) => c.to.includes(email) && new RegExp(`Turn ${turn}: your instructions`).test(subject(c))).at(-1);
    if (!deal) continue;
    await sendMail(t.gateway.smtpPort, { from: email, to: replyTo(deal), subject: `Re: ${subject(deal)}`, text: 'random' });
  }
  await t.gateway.pump();
}

test('the mails of a whole race under Secret Options: none names another seat\'s unused option, each seat is told of its own; every mail is threaded and marked auto-generated or auto-replied', async () => {
  const t = await setup();
  try {
    const emails = ['ava@a.test', 'bob@b.test'];
    const secret = ['Abort Switch', 'Conditional Program'];
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic', settings: { secretOptions: true, oneFreeOption: true, optionDeck: secret },
      seats: emails.map((email, i) => ({ name: ['Ava', 'Bob'][i], email })), deadline: { kind: 'live', seconds: 120 },
    });
    assert.ok(created.ok);
    const id = created.value.id;
    await t.gateway.pump();
    for (let turn = 1; turn <= 4; turn++) await everyoneRandom(t, emails, turn);
    // The options as the race began (a robot destroyed later loses one).
    const first = await t.service.playedTurn(id, 1);
    assert.ok(first.ok);
    const held = first.value.before.robots.map((r) => r.options);
    assert.deepEqual(held.flat().sort(), [...secret].sort(), 'each robot holds its free option');
    assert.ok(t.sink.mails.filter((c) => /: report$/.test(subject(c))).length >= 4, 'reports of several turns to both seats');
    for (const [seat, email] of emails.entries()) {
      const mine = t.sink.mails.filter((c) => c.to.includes(email));
      const others = held.filter((_, i) => i !== seat).flat();
      for (const c of mine) for (const o of others) assert.ok(!text(c).includes(o) && !String(c.mail.html ?? '').includes(o), `"${subject(c)}" to ${email} names ${o}:\n${text(c)}`);
      // Each report mail tells its turn whole: the race's report of it (the engine's table and narration of every event, as the API gives it).
      for (const c of mine) {
        // (An answer to a mail with a report names it in its subject too.)
        const turn = Number(/^(?!Re: ).*Turn (\d+): report$/.exec(subject(c))?.[1] ?? 0);
        if (!turn) continue;
        const rep = await t.service.report(id, turn);
        assert.ok(rep.ok && rep.value.text.includes('Register 5'), 'a report of five registers');
        assert.ok(text(c).includes(rep.value.text), `the report of turn ${turn} to ${email} is whole:\n${text(c)}`);
      }
      // Its own option, by name, in its instructions; another's counted in the report while held.
      const deal = mine.find((c) => /Turn 1: your instructions$/.test(subject(c)))!;
      assert.match(text(deal), new RegExp(`options: ${held[seat]![0]}`));
      const report = mine.find((c) => /Turn 1: report$/.test(subject(c)))!;
      if (first.value.after.robots[1 - seat]!.options.length) assert.match(text(report), /options: 1 secret option/);
      // One thread a seat: the start mail is its root; every other mail refers to it.
      const root = `<${id}.s${seat}.race@rr.test>`;
      const start = mine.find((c) => /starts on first-shift/.test(subject(c)))!;
      assert.equal(start.mail.messageId, root);
      // The rules of the race in the start mail, as docs/rules.md has them: the rule set's, and its settings'.
      assert.match(text(start), /^Rules: classic, the 1994 manual with the FAQ's readings: the 84-card deck, 9 − damage cards/m);
      assert.match(text(start), /^ {2}- oneFreeOption = on: each robot draws an option when the race is made \(004 L188\)$/m);
      assert.match(text(start), /^ {2}- secretOptions = on: the others see an option only once it has been used/m);
      assert.doesNotMatch(text(start), /docs\/rules\.md/);
      for (const c of mine) {
        assert.match(header(c, 'auto-submitted'), /^auto-(generated|replied)$/, subject(c));
        if (c === start) continue;
        assert.equal(refs(c)[0], root, `"${subject(c)}" is in the seat's thread`);
        assert.ok(c.mail.inReplyTo, `"${subject(c)}" answers a mail`);
      }
      // An acknowledgement answers the player's mail, in the thread, as an auto-reply.
      const ack = mine.find((c) => /^Re: /.test(subject(c)))!;
      assert.equal(header(ack, 'auto-submitted'), 'auto-replied');
      assert.equal(refs(ack).length, 2);
      assert.equal(ack.mail.inReplyTo, refs(ack)[1]);
    }
  } finally {
    await t.close();
  }
});

test('a player who gains an option is told how to order it, with examples: in the report of the turn, or in the start mail for an option held from the start', async () => {
  const setupOf = new RaceService({ db: null as never, clock: new TestClock(), course }).setupOf({ course: 'first-shift', rules: 'classic', settings: '{}' });
  assert.deepEqual(gainedLines(['Brakes'], ['Brakes', 'Mini Howitzer:3'], setupOf), [
    'Your robot gained Mini Howitzer. How to order it: name the register it fires in instead of the main laser. To discard it instead of a point of damage: "exchange Mini Howitzer".',
    'For example:', '  weapon 3 Mini Howitzer',
  ]);
  assert.deepEqual(gainedLines(['Brakes'], ['Brakes'], setupOf), []);
  const t = await setup();
  try {
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic', settings: { oneFreeOption: true, optionDeck: ['Shield'] },
      seats: [{ name: 'Ava', email: 'ava@a.test' }], deadline: { kind: 'live', seconds: 120 },
    });
    assert.ok(created.ok);
    await t.gateway.pump();
    const start = t.sink.mails.find((c) => /starts on/.test(subject(c)))!;
    assert.match(text(start), /Your robot holds Shield\. How to order it: say which side it guards this turn[^\n]*\nFor example:\n {2}shield back/);
  } finally {
    await t.close();
  }
});

test('a vacation notice, a bounce or a list mail to a seat\'s address is not answered and not read as orders', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    await t.gateway.pump();
    const deal = t.sink.mails.find((c) => c.to.includes('ava@a.test') && /your instructions/.test(subject(c)))!;
    const n = t.sink.mails.length;
    const mail = (k: number, extra: string, from = 'ava@a.test') =>
      `Message-ID: <auto${k}@a.test>\r\nFrom: ${from}\r\nTo: ${replyTo(deal)}\r\nSubject: Out of office: ${subject(deal)}\r\n${extra}\r\nI am away until Monday.\r\nF F F F F\r\n`;
    assert.equal(await t.gateway.receive(mail(1, 'Auto-Submitted: auto-replied\r\n'), []), 'automatic');
    assert.equal(await t.gateway.receive(mail(2, 'Precedence: bulk\r\n'), []), 'automatic');
    assert.equal(await t.gateway.receive(mail(3, 'X-Autoreply: yes\r\n'), []), 'automatic');
    assert.equal(await t.gateway.receive(mail(4, '', 'MAILER-DAEMON@a.test'), []), 'automatic');
    // "Auto-Submitted: no" is a person's mail: read (and answered: these lines are no orders).
    assert.equal(await t.gateway.receive(mail(5, 'Auto-Submitted: no\r\n'), []), 'unreadable');
    await t.gateway.pump();
    assert.equal(t.sink.mails.length, n + 1, 'only the person\'s mail was answered');
    const v = await t.service.view(created.value.id);
    assert.ok(v.ok && v.value.seats.every((s) => !s.submitted), 'no orders were taken');
  } finally {
    await t.close();
  }
});

test('a turn the moderator took back and that was played again comes as a corrected report, in subject and body, its picture under a Content-ID of its own, and the race\'s end again as corrected standings', async () => {
  const t = await setup();
  try {
    const emails = ['ava@a.test'];
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', settings: { turnLimit: 1 }, seats: [{ name: 'Ava', email: emails[0] }], deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    const { id, moderatorKey } = created.value;
    await t.gateway.pump();
    await everyoneRandom(t, emails, 1);
    assert.ok(t.sink.mails.some((c) => /Turn 1: report$/.test(subject(c))));
    const back = await t.service.moderate(id, moderatorKey, 'rewind', {});
    assert.ok(back.ok, JSON.stringify(back));
    await t.gateway.pump();
    assert.ok(t.sink.mails.some((c) => /Turn 1: taken back by the moderator$/.test(subject(c)) && /taken turn 1 back to correct it/.test(text(c))));
    await everyoneRandom(t, emails, 1);
    const reports = t.sink.mails.filter((c) => /Turn 1: (corrected )?report$/.test(subject(c)));
    assert.deepEqual(reports.map(subject).map((s) => s.replace(/^\[RR [^\]]+\] /, '')), ['Turn 1: report', 'Turn 1: corrected report']);
    assert.match(text(reports[1]!), /^CORRECTED: the moderator took turn 1 back and it has been played again\. This report replaces the earlier report of turn 1\./);
    assert.doesNotMatch(text(reports[0]!), /CORRECTED/);
    // Two pictures in one thread, each under a Content-ID of its own (RFC 2045 7), naming the race.
    const cids = reports.map((c) => c.mail.attachments[0]!.cid);
    assert.notEqual(cids[0], cids[1]);
    for (const cid of cids) assert.match(cid ?? '', new RegExp(`^turn-1\\.${id}\\.\\d+@rr\\.test$`));
    await t.gateway.pump();
    const ends = t.sink.mails.filter((c) => /Race over/.test(subject(c)));
    assert.deepEqual(ends.map(subject).map((s) => s.replace(/^\[RR [^\]]+\] /, '')), ['Race over: standings and awards', 'Race over: corrected standings and awards']);
    assert.match(text(ends[1]!), /^CORRECTED: the moderator took the last turn back and it has been played again\. These standings replace the earlier ones\./);
    assert.doesNotMatch(text(ends[0]!), /CORRECTED/);
  } finally {
    await t.close();
  }
});

/**
 * The cards seat 1's robot showed in turn 1, in reverse order: a correction the moderator may make
 * once the turn is taken back (the races deal from a known seed, in which it lives through turn 1).
 */
async function shownOf(t: Awaited<ReturnType<typeof setup>>, id: string): Promise<string[]> {
  const entries = await t.service.entries(id, 0);
  assert.ok(entries.ok);
  const shown = shownProgram(entries.value as never, 1, 1);
  assert.equal(shown.length, 5, 'seat 1 showed five cards');
  return shown.reverse();
}

test('a rewound race\'s mails: the taking back to everybody, the corrected orders to their seat with the program as it now stands, the other seats told whose orders were corrected but not what they are, then the corrected report', async () => {
  const t = await setup();
  try {
    const emails = ['ava@a.test', 'bob@b.test'];
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'classic', seats: emails.map((email, i) => ({ name: ['Ava', 'Bob'][i], email })), deadline: { kind: 'live', seconds: 120 }, deal: { secret: false, seed: 1 } });
    assert.ok(created.ok);
    const { id, moderatorKey } = created.value;
    await t.gateway.pump();
    await everyoneRandom(t, emails, 1);
    const back = await t.service.moderate(id, moderatorKey, 'rewind', {});
    assert.ok(back.ok, JSON.stringify(back));
    await t.gateway.pump();
    const hand = await shownOf(t, id);
    const fixed = await t.service.submit(id, 1, { moderatorKey }, { turn: 1, program: hand });
    assert.ok(fixed.ok, JSON.stringify(fixed));
    await t.gateway.pump();
    await everyoneRandom(t, emails, 1);
    const of = (email: string) => t.sink.mails.filter((c) => c.to.includes(email)).map((c) => subject(c).replace(/^\[RR [^\]]+\] /, ''));
    const after = (email: string) => of(email).slice(of(email).indexOf('Turn 2: your instructions; Turn 1: report'));
    assert.deepEqual(after('bob@b.test').filter((x) => !/^Re: /.test(x)), [
      'Turn 2: your instructions; Turn 1: report', 'Turn 1: taken back by the moderator', 'Turn 1: your orders were corrected by the moderator', 'Turn 2: your instructions; Turn 1: corrected report',
    ]);
    assert.deepEqual(after('ava@a.test').filter((x) => !/^Re: /.test(x)), [
      'Turn 2: your instructions; Turn 1: report', 'Turn 1: taken back by the moderator', 'Turn 1: the moderator corrected Bob\'s orders', 'Turn 2: your instructions; Turn 1: corrected report',
    ]);
    const told = t.sink.mails.find((c) => /corrected by the moderator/.test(subject(c)))!;
    assert.ok(told.to.includes('bob@b.test'));
    assert.ok(text(told).includes(`Your program is now: ${writeProgram(hand.slice(0, 5))}`), text(told));
    assert.equal(refs(told)[0], `<${id}.s1.race@rr.test>`, 'in the seat\'s thread');
    const notice = t.sink.mails.find((c) => /the moderator corrected Bob's orders$/.test(subject(c)))!;
    assert.ok(notice.to.includes('ava@a.test'));
    assert.match(text(notice), /^The moderator has corrected Bob's orders for turn 1 of race .*, the turn taken back to be played again\./);
    for (const c of hand.slice(0, 5)) assert.ok(!text(notice).includes(writeProgram([c])), `Bob's program is not told to Ava (${c})`);
    assert.equal(refs(notice)[0], `<${id}.s0.race@rr.test>`, 'in Ava\'s thread');
    // The stream's entry, public: every seat's page hears whose orders were corrected.
    const entries = await t.service.entries(id, 0);
    assert.deepEqual(entries.ok ? entries.value.filter((x) => x.kind === 'race' && x.event.type === 'corrected').map((x) => x.event) : null, [{ type: 'corrected', seat: 1, by: 'moderator' }]);
  } finally {
    await t.close();
  }
});

test('a player whose robot is out gets the report of the turn it went out in, then none until it writes "follow", and none again after "stop following"', async () => {
  const t = await setup();
  try {
    const emails = ['ava@a.test', 'bob@b.test'];
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: emails.map((email, i) => ({ name: ['Ava', 'Bob'][i], email })), deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    const id = created.value.id;
    // Bob's robot is out of the race before the first turn.
    await rigRaceState(t.db, id, (st) => Object.assign(st.robots[1]!, { status: 'out', lives: 0, hand: [], programmed: true }));
    await t.gateway.pump();
    const start = t.sink.mails.find((c) => c.to.includes('bob@b.test') && /starts on/.test(subject(c)))!;
    assert.match(text(start), /^ {2}follow +keep receiving the turn reports once your robot is out of the race$/m);
    assert.match(text(start), /^ {2}stop following +receive no more turn reports/m);
    const reports = () => t.sink.mails.filter((c) => c.to.includes('bob@b.test') && /: report$/.test(subject(c))).map((c) => subject(c).replace(/^.*(Turn \d+).*$/, '$1'));
    // The report of the turn it went out in (it was in when the turn began) is its last.
    await everyoneRandom(t, emails, 1);
    assert.deepEqual(reports(), ['Turn 1']);
    assert.match(text(t.sink.mails.find((c) => c.to.includes('bob@b.test') && /Turn 1: report$/.test(subject(c)))!), /This is your last turn report: reply "follow"/);
    const word = async (w: string) => {
      await sendMail(t.gateway.smtpPort, { from: 'bob@b.test', to: replyTo(start), subject: `Re: ${subject(start)}`, text: `${w}\n\nThanks,\nBob` });
      await t.gateway.pump();
      return text(t.sink.mails.filter((c) => c.to.includes('bob@b.test')).at(-1)!);
    };
    assert.match(await word('Follow.'), /^You follow race .*: the turn reports come to you again from the next turn on, until the race is over\./);
    await everyoneRandom(t, emails, 2);
    assert.deepEqual(reports(), ['Turn 1', 'Turn 2']);
    const second = t.sink.mails.filter((c) => c.to.includes('bob@b.test') && /Turn 2: report$/.test(subject(c)))[0]!;
    assert.match(text(second), /Your robot is out of the race; you follow it\. Reply "stop following"/);
    assert.match(await word('stop following'), /^You stop following race .*: no more turn reports come to you; the standings come at the end\./);
    await everyoneRandom(t, emails, 3);
    assert.deepEqual(reports(), ['Turn 1', 'Turn 2']);
    assert.ok(t.sink.mails.some((c) => c.to.includes('ava@a.test') && /Turn 3: report$/.test(subject(c))), 'the race went on');
  } finally {
    await t.close();
  }
});

test('the mails of a whole race with a team, read back: each parses with its seat code, threading and Auto-Submitted; the notation help needs no other page; the end mail lists the engine\'s standings with the team', async () => {
  const t = await setup();
  try {
    const emails = ['ava@a.test', 'bob@b.test', 'cy@c.test'];
    const names = ['Ava', 'Bob', 'Cy'];
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic', settings: { turnLimit: 2 },
      seats: emails.map((email, i) => ({ name: names[i], email, ...(i < 2 ? { team: 'Red' } : {}) })), deadline: { kind: 'live', seconds: 120 },
    });
    assert.ok(created.ok);
    const id = created.value.id;
    await t.gateway.pump();
    for (let turn = 1; turn <= 2; turn++) await everyoneRandom(t, emails, turn);
    const v = await t.service.view(id);
    assert.ok(v.ok && v.value.status !== 'running', 'the race is over at its turn limit');
    const race = (await t.service.mailRace(id))!;
    const standings = formatStandings(race.setup, race.state);
    assert.ok(standings.some((l) => /^\d\. Red \(Ava, Bob\)/.test(l)), standings.join('\n'));
    for (const [seat, email] of emails.entries()) {
      const mine = t.sink.mails.filter((c) => c.to.includes(email));
      const kinds = mine.map((c) => subject(c).replace(/^\[RR [^\]]+\] /, '').replace(/^Re: .*/, 'answer'));
      assert.deepEqual(kinds, [
        'Race ' + id + ' starts on first-shift', 'Turn 1: your instructions', 'answer', 'Turn 2: your instructions; Turn 1: report', 'answer', 'Turn 2: report', 'Race over: standings',
      ]);
      for (const c of mine) {
        assert.ok(subject(c).includes(`[RR ${id} s${seat} `), subject(c));
        assert.match(replyTo(c), new RegExp(`^race\\+${id}\\.${seat}\\.`));
        assert.match(header(c, 'auto-submitted'), /^auto-(generated|replied)$/);
        assert.doesNotMatch(text(c), /docs\//, `"${subject(c)}" sends the player to a page it does not have`);
      }
      const start = mine[0]!;
      for (const row of ['F2 P670', 'random', 'no power down', 'unlock 5 4', 'Turn 4', 'follow', 'stop following', 'help', '-- '])
        assert.ok(text(start).split('\n').some((l) => l.startsWith(`  ${row} `)), `the start mail explains "${row}":\n${text(start)}`);
      const end = mine.at(-1)!;
      assert.ok(text(end).includes(['Standings:', ...standings.map((l) => `  ${l}`)].join('\n')), text(end));
    }
    // The next race of the series is seated in the order the end mail announced (001 L333-351), the newcomer last.
    const picks = /^Starting picks for the next race \(001 L333-351\): (.*)\.$/m.exec(text(t.sink.mails.filter((c) => c.to.includes('ava@a.test')).at(-1)!))![1]!.split(', ');
    assert.deepEqual([...picks].sort(), [...names].sort());
    // A series lists its races in the order they were made.
    t.clock.advance(MINUTE);
    const next = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic', settings: { turnLimit: 1 }, deadline: { kind: 'live', seconds: 120 },
      after: { race: id, moderatorKey: created.value.moderatorKey }, seats: [...names, 'Dee'].reverse().map((name) => ({ name, email: `${name.toLowerCase()}@x.test` })),
    });
    assert.ok(next.ok, JSON.stringify(next));
    assert.deepEqual(next.value.seats.map((s) => s.name), [...picks, 'Dee']);
    // Its end mail gives the series' standings across both races, as GET /api/series does.
    await t.gateway.pump();
    await everyoneRandom(t, [...names, 'Dee'].map((n) => `${n.toLowerCase()}@x.test`), 1);
    const series = await t.service.series(id);
    assert.ok(series.ok && series.value.standings.length === 4);
    const last = text(t.sink.mails.filter((c) => c.to.includes('dee@x.test')).at(-1)!);
    assert.ok(last.includes([`Standings of the series ${id} after 2 races (a point for each robot placed behind, plus one for racing):`, ...seriesLines(series.value.standings).map((l) => `  ${l}`)].join('\n')), last);
    assert.match(last, /^ {2}\d\. Dee: \d+ points?, [01] wins? \(places: -, \d\)$/m);
    const firstEnd = text(t.sink.mails.filter((c) => c.to.includes('ava@a.test')).at(-1)!);
    assert.doesNotMatch(firstEnd, /Standings of the series/, 'a race on its own (as yet) has none');
  } finally {
    await t.close();
  }
});

test('the end mail lists 001\'s awards where the rule set gives them, and says so in its subject', () => {
  const ctx = { race: 'r1', course: 'c', rules: 'pbem', policy: { kind: 'live', seconds: 60 } as const, seat: 0, name: 'Ava', code: '[RR r1 s0 x]', replyTo: 'race+r1.0.x@rr.test' };
  const given = endMail(ctx, ['1. Ava: 3 flags'], [{ award: 'Terminator robot', for: 'dealt the most amount of damage', robots: ['Ava'] }], ['Ava']);
  assert.equal(given.subject, '[RR r1 s0 x] Race over: standings and awards');
  assert.match(given.text, /^Awards \(001 L353-383\):\n {2}Terminator robot: Ava \(dealt the most amount of damage\)$/m);
  const none = endMail({ ...ctx, rules: 'classic' }, ['1. Ava: 3 flags'], [], ['Ava']);
  assert.equal(none.subject, '[RR r1 s0 x] Race over: standings');
  assert.doesNotMatch(none.text, /Awards/);
});

test('the report of the turn a robot goes out in says it is the last unless the player writes "follow"', () => {
  const ctx = { race: 'r1', course: 'c', rules: 'pbem', policy: { kind: 'live', seconds: 60 } as const, seat: 0, name: 'Ava', code: '[RR r1 s0 x]', replyTo: 'race+r1.0.x@rr.test' };
  const rep = { turn: 3, start: [], registers: [], end: [] } as unknown as Parameters<typeof reportMail>[1];
  const pic = { filename: 'p.png', contentType: 'image/png', cid: 'p@rr', content: '' };
  assert.match(reportMail(ctx, rep, '', [], pic, { out: 'last' }).text, /Your robot is out of the race\. This is your last turn report: reply "follow" to keep receiving them/);
  assert.doesNotMatch(reportMail(ctx, rep, '', [], pic).text, /out of the race/);
  assert.equal(followWord('> follow\nF F F F F'), null, 'a quoted word is not read');
  assert.equal(followWord('keep following the race'), true);
  assert.equal(followWord('Unfollow!'), false);
  assert.equal(followWord('F F F\n-- \nfollow'), null, 'nor one in the signature');
});

test('a reminder never comes sooner than an hour after the instructions', async () => {
  // Reminders 48 hours ahead: the window is open from the deal on.
  const t = await setup({ remindHours: 48 });
  try {
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }], deadline: { kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 },
    });
    assert.ok(created.ok);
    await t.gateway.pump();
    const reminders = () => t.sink.mails.filter((c) => /reminder/.test(subject(c))).length;
    assert.ok(t.sink.mails.some((c) => /your instructions/.test(subject(c))));
    assert.equal(reminders(), 0);
    t.clock.advance(59 * MINUTE);
    await t.gateway.pump();
    assert.equal(reminders(), 0, 'not within the hour');
    t.clock.advance(2 * MINUTE);
    await t.gateway.pump();
    assert.equal(reminders(), 1);
  } finally {
    await t.close();
  }
});

test('a mail the relay refuses is logged with its error and sent again later', async () => {
  let refuse = 1;
  const got: string[] = [];
  const relay = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], disableReverseLookup: true, logger: false,
    onData(stream, _session, done) {
      stream.resume();
      stream.on('end', () => {
        if (refuse-- > 0) return done(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
        got.push('sent');
        done();
      });
    },
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()));
  const a = relay.server.address();
  const t = await setup({ relay: `smtp://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` });
  try {
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }], deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    await t.gateway.pump();
    assert.equal(t.logged.length, 1, t.logged.join('\n'));
    assert.match(t.logged[0]!, /^mail: the relay refused ".*starts on first-shift" to ava@a\.test \(attempt 1\): .*mailbox busy, try later; trying again in 5 s$/);
    // The pause over (its claim lapsed), the mail goes out, and those held behind it follow.
    await mailDb(t.db).updateTable('mail_outbox').set({ claimed_until: 0 }).execute();
    await t.gateway.pump();
    assert.equal(got.length, 2, 'the start and the instructions');
  } finally {
    await t.close();
    await new Promise<void>((r) => relay.close(() => r()));
  }
});

test('a mail whose address the relay refuses for good (550 at RCPT TO) is logged once and not sent again; the other players\' mails go out', async () => {
  const tried: string[] = [];
  const got: string[] = [];
  const relay = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], disableReverseLookup: true, logger: false,
    onRcptTo(address, _session, done) {
      tried.push(address.address);
      if (address.address === 'gone@b.test') return done(Object.assign(new Error('no such user here'), { responseCode: 550 }));
      done();
    },
    onData(stream, session, done) {
      stream.resume();
      stream.on('end', () => {
        got.push(...session.envelope.rcptTo.map((r) => r.address));
        done();
      });
    },
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()));
  const a = relay.server.address();
  const t = await setup({ relay: `smtp://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` });
  try {
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'gone@b.test' }], deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    await t.gateway.pump();
    const refused = tried.filter((x) => x === 'gone@b.test').length;
    assert.equal(refused, 2, 'the start and the instructions were offered once each');
    assert.deepEqual(got, ['ava@a.test', 'ava@a.test']);
    assert.equal(t.logged.length, 2, t.logged.join('\n'));
    for (const l of t.logged) assert.match(l, /^mail: the relay refused ".*" to gone@b\.test for good: .*no such user here; not sent again$/);
    const rows = await mailDb(t.db).selectFrom('mail_outbox').select(['sent_at', 'error']).where('to', '=', 'gone@b.test').execute();
    assert.ok(rows.every((r) => r.sent_at !== null && /^refused for good: /.test(r.error ?? '')), JSON.stringify(rows));
    // Every claim lapsed: nothing is offered to the address again.
    await mailDb(t.db).updateTable('mail_outbox').set({ claimed_until: 0 }).execute();
    await t.gateway.pump();
    assert.equal(tried.filter((x) => x === 'gone@b.test').length, refused);
  } finally {
    await t.close();
    await new Promise<void>((r) => relay.close(() => r()));
  }
});

test('a relay that takes the mail\'s data and never answers is given up on after the relay timeout: the mail is logged and tried again, and the gateway stops at once', { timeout: 60_000 }, async () => {
  const hung: (() => void)[] = [];
  const relay = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], disableReverseLookup: true, logger: false,
    // The data is read, and the answer never comes (held until the test ends).
    onData(stream, _session, done) {
      stream.resume();
      stream.on('end', () => hung.push(() => done()));
    },
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()));
  const a = relay.server.address();
  const t = await setup({ relay: `smtp://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`, relayTimeoutSeconds: 0.5 });
  try {
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }], deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    await t.gateway.pump();
    assert.equal(hung.length, 1, 'the relay got the first mail');
    assert.equal(t.logged.length, 1, t.logged.join('\n'));
    assert.match(t.logged[0]!, /^mail: the relay refused ".*starts on first-shift" to ava@a\.test \(attempt 1\): .*[Tt]imeout.*; trying again in 5 s$/);
    const rows = await mailDb(t.db).selectFrom('mail_outbox').select(['sent_at', 'attempts']).execute();
    assert.ok(rows.every((r) => r.sent_at === null), 'nothing marked sent');
  } finally {
    await t.close();
    hung.forEach((f) => f());
    await new Promise<void>((r) => relay.close(() => r()));
  }
});

test('the instructions say which flag is next and the way to it from the robot: on first-shift after its first flag, flag 2 at (5,6)', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    // Ava has touched flag 1 (9,3) and stands at (3,9).
    await rigRaceState(t.db, created.value.id, (st) => Object.assign(st.robots[0]!, { flags: 1, x: 3, y: 9, archive: [9, 3] }));
    await t.gateway.pump();
    const deal = t.sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(subject(c)))!;
    assert.ok(text(deal).includes('Next: flag 2 of 3 at (5,6), 2 squares east and 3 squares north of you.'), text(deal));
    const bob = t.sink.mails.find((c) => c.to.includes('bob@b.test') && /Turn 1: your instructions/.test(subject(c)))!;
    assert.match(text(bob), /Next: flag 1 of 3 at \(9,3\), /);
  } finally {
    await t.close();
  }
});

test('a locked register is named in the instructions, and in the answer to a program with a card too many', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'classic', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    const id = created.value.id;
    // Ava's register 5 is locked with a card from the deck (as 5 damage would lock it).
    let card = 0;
    const st = await rigRaceState(t.db, id, (st) => {
      const held = new Set(st.robots.flatMap((r) => r.hand));
      card = [500, 510, 520, 530, 540].find((c) => !held.has(c))!;
      st.robots[0]!.damage = 5;
      st.robots[0]!.locked = 0b10000;
      st.robots[0]!.registers[4] = card;
      st.deck = st.deck.filter((c) => c !== card);
    });
    await t.gateway.pump();
    const deal = t.sink.mails.find((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(subject(c)))!;
    const locked = `Locked: register 5 keeps F1 P${card} and plays it again. Write 4 cards, for registers 1, 2, 3, 4 only.`;
    assert.ok(text(deal).includes(locked), text(deal));
    const five = st.robots[0]!.hand.slice(0, 5).map((_, k) => String(k + 1)).join(' ');
    await sendMail(t.gateway.smtpPort, { from: 'ava@a.test', to: replyTo(deal), subject: `Re: ${subject(deal)}`, text: five });
    await t.gateway.pump();
    const answer = text(t.sink.mails.at(-1)!);
    assert.match(answer, /could not be read/);
    assert.ok(answer.includes(locked), answer);
  } finally {
    await t.close();
  }
});

test('the start mail tells each player its goal and its own lives and damage, and every robot\'s team, bot and handicaps, options only as Secret Options lets it see them', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic', settings: { secretOptions: true },
      seats: [
        { name: 'Ava', email: 'ava@a.test', team: 'Red' }, { name: 'Bob', email: 'bob@b.test', team: 'Red', lives: 2, damage: 2 },
        { name: 'Cy', email: 'cy@c.test', options: ['Shield'] }, { name: 'Bolt', bot: 'random' },
      ],
    });
    assert.ok(created.ok, JSON.stringify(created));
    await t.gateway.pump();
    const start = (email: string) => text(t.sink.mails.find((c) => c.to.includes(email) && /starts on/.test(subject(c)))!);
    assert.match(start('ava@a.test'), /^Touch the 3 flags in order\. Your robot has 3 lives\.$/m);
    assert.match(start('bob@b.test'), /^Touch the 3 flags in order\. Your robot has 2 lives and starts with 2 damage\.$/m);
    assert.match(start('ava@a.test'), /^Robots: Ava \(team Red\), Bob \(team Red; 2 lives; starts with 2 damage\), Cy \(holds 1 secret option\), Bolt \(a bot\)\.$/m);
    assert.match(start('cy@c.test'), /^Robots: .*, Cy \(holds Shield\), Bolt \(a bot\)\.$/m);
    for (const email of ['ava@a.test', 'bob@b.test']) assert.ok(!start(email).includes('Shield'), `${email} is not told Cy's option`);
    const arena = await seatedRace(t.service, { course: 'first-shift', settings: { variant: 'arena', turnLimit: 8 }, seats: [{ name: 'Dee', email: 'dee@d.test' }, { name: 'Bolt', bot: 'random' }] });
    assert.ok(arena.ok);
    await t.gateway.pump();
    assert.match(start('dee@d.test'), /^RoboArena: no flag counts, the last robot not out of the race wins; the race ends after turn 8 at the latest\. Your robot has 3 lives\.$/m);
  } finally {
    await t.close();
  }
});

test('the whole notation comes in the start mail, in the answer to orders that are refused and to "help"; a turn\'s instructions only point to it', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'classic', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bolt', bot: 'random' }], deadline: { kind: 'live', seconds: 120 } });
    assert.ok(created.ok);
    await t.gateway.pump();
    /** Lines of the notation table (docs/mail.md): each a row of the engine's orderHelp. */
    const explains = (c: Caught) => ['F2 P670', 'random', 'no power down', 'Turn 4', 'follow', 'help', '-- '].filter((row) => text(c).split('\n').some((l) => l.startsWith(`  ${row} `)));
    const all = ['F2 P670', 'random', 'no power down', 'Turn 4', 'follow', 'help', '-- '];
    const start = t.sink.mails.find((c) => /starts on first-shift$/.test(subject(c)))!;
    assert.deepEqual(explains(start), all);
    const deal = t.sink.mails.find((c) => /Turn 1: your instructions$/.test(subject(c)))!;
    assert.deepEqual(explains(deal), [], `the instructions repeat the notation:\n${text(deal)}`);
    assert.ok(text(deal).includes(`How to write your orders: as your start mail ("${subject(start)}") tells; reply "help" to have it again.`), text(deal));
    const answerTo = async (body: string) => {
      const n = t.sink.mails.length;
      await sendMail(t.gateway.smtpPort, { from: 'ava@a.test', to: replyTo(deal), subject: `Re: ${subject(deal)}`, text: body });
      await t.gateway.pump();
      return until('the answer', () => t.sink.mails.slice(n).find((c) => /^Re: /.test(subject(c))));
    };
    const unreadable = await answerTo('F9 F9 xyzzy');
    assert.match(text(unreadable), /could not be read, so nothing was changed/);
    assert.deepEqual(explains(unreadable), all, 'the answer to orders that cannot be read brings the notation');
    const help = await answerTo('help\n-- \nAva');
    assert.deepEqual(explains(help), all);
    assert.match(text(help), /^Nothing in this mail was read as orders\.$/m);
    const v = await t.service.view(created.value.id);
    assert.ok(v.ok && v.value.seats.every((x) => !x.submitted), '"help" is no orders');
    const ok = await answerTo('random');
    assert.match(text(ok), /are in\. As understood/);
    assert.deepEqual(explains(ok), [], 'an acknowledgement does not repeat it');
    const next = await until('the instructions of turn 2', () => t.sink.mails.find((c) => /^(?!Re: ).*Turn 2: your instructions/.test(subject(c))));
    assert.deepEqual(explains(next), []);
  } finally {
    await t.close();
  }
  assert.equal(helpWord('> help\nF F F F F'), false, 'a quoted word is not read');
  assert.equal(helpWord('F F F\n-- \nhelp'), false, 'nor one in the signature');
  assert.equal(helpWord('Help!'), true);
});

test('a player racing two robots, one of them out: the other\'s instructions come alone, and a reply written with its "Robot NAME" section programs it', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic',
      seats: [{ name: 'Ava', email: 'ava@a.test', player: 'ava' }, { name: 'Ava2', email: 'ava@a.test', player: 'ava' }, { name: 'Bob', email: 'bob@b.test' }],
      deadline: { kind: 'live', seconds: 120 },
    });
    assert.ok(created.ok);
    const id = created.value.id;
    await rigRaceState(t.db, id, (st) => { st.robots[0]!.status = 'out'; st.robots[0]!.lives = 0; });
    await t.gateway.pump();
    const deals = t.sink.mails.filter((c) => c.to.includes('ava@a.test') && /Turn 1: your instructions/.test(subject(c)));
    assert.deepEqual(deals.map((c) => subject(c).replace(/^\[RR [^\]]+\] /, '')), ['Turn 1: your instructions (robot Ava2)']);
    await sendMail(t.gateway.smtpPort, { from: 'ava@a.test', to: replyTo(deals[0]!), subject: `Re: ${subject(deals[0]!)}`, text: 'Robot Ava2\nrandom' });
    await t.gateway.pump();
    const answer = t.sink.mails.find((c) => /^Re: /.test(subject(c)))!;
    assert.match(text(answer), /^Robot Ava2:\n {2}Your orders for turn 1 are in\./m, text(answer));
    assert.doesNotMatch(text(answer), /No section/);
    assert.deepEqual([...await t.service.ordersIn(id, 1)], [1]);
  } finally {
    await t.close();
  }
});

test('a whole race by mail with one address racing two robots (000 L40): one instructions mail and one report a turn with a section a robot, replies with a section a robot, a section missing or wrong named, a heading of no robot of the player\'s refused, the instructions naming the one start mail by its subject; a player racing one robot reads the mails as ever', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic', settings: { turnLimit: 2 },
      seats: [{ name: 'Ava', email: 'ava@a.test', player: 'ava' }, { name: 'Ava2', email: 'AVA@a.test', player: 'ava' }, { name: 'Bob', email: 'bob@b.test' }],
      deadline: { kind: 'live', seconds: 120 },
    });
    assert.ok(created.ok);
    const id = created.value.id;
    await t.gateway.pump();
    const ava = () => t.sink.mails.filter((c) => c.to.some((x) => x.toLowerCase() === 'ava@a.test'));
    const bob = () => t.sink.mails.filter((c) => c.to.includes('bob@b.test'));
    const deal = (turn: number) => {
      const deals = ava().filter((c) => !/^Re: /.test(subject(c)) && new RegExp(`Turn ${turn}: your instructions`).test(subject(c)));
      assert.equal(deals.length, 1, `one instructions mail for both robots in turn ${turn}`);
      return deals[0]!;
    };
    /** Sends `body` as Ava's player, in reply to its instructions of `turn`, and returns the answer. */
    const reply = async (turn: number, body: string) => {
      const d = deal(turn);
      const before = ava().length;
      await sendMail(t.gateway.smtpPort, { from: 'ava@a.test', to: replyTo(d), subject: `Re: ${subject(d)}`, text: body });
      await t.gateway.pump();
      await until('the answer', () => ava().length > before);
      return ava().slice(before).find((c) => /^Re: /.test(subject(c)))!;
    };
    const d1 = deal(1);
    assert.match(subject(d1), new RegExp(`^\\[RR ${id} s0 \\w+\\] Turn 1: your instructions \\(robots Ava, Ava2\\)$`));
    // A section a robot: its robot, its hand numbered as dealt, how to reply with sections.
    const sections = text(d1).split(/^Robot (?=Ava2?$)/m).slice(1);
    assert.deepEqual(sections.map((x) => x.split('\n')[0]), ['Ava', 'Ava2'], text(d1));
    for (const [k, x] of sections.entries()) {
      assert.match(x, new RegExp(`^Your robot ${['Ava', 'Ava2'][k]}: at `, 'm'));
      assert.match(x, /^ {3}1\. \w+ P\d+$/m, `the hand of ${['Ava', 'Ava2'][k]} numbered`);
    }
    assert.match(text(d1), /^Reply with a section for each robot, each begun by a line "Robot NAME"/m);
    // The notation is pointed to by the subject of the one start mail the player got, for both robots.
    const start = ava().find((c) => /starts on/.test(subject(c)))!;
    assert.ok(text(d1).includes(`as your start mail ("${subject(start)}") tells`), text(d1));

    // Ava's section only: stored, and the answer says Ava2's is missing.
    const onlyAva = await reply(1, 'Robot Ava\nrandom\n\nThanks');
    assert.match(text(onlyAva), /^Robot Ava:\n {2}Your orders for turn 1 are in\./m, text(onlyAva));
    assert.match(text(onlyAva), /No section for "Robot Ava2"/);
    assert.doesNotMatch(text(onlyAva), /^For your robot/);
    assert.deepEqual([...await t.service.ordersIn(id, 1)].sort(), [0]);
    // A wrong section is refused naming its robot, the other stored.
    const wrong = await reply(1, 'Robot ava2:\nF9 F9 F9\nRobot Ava\nrandom');
    assert.match(text(wrong), /^Robot Ava2:\n {2}Your orders for turn 1 could not be read/m, text(wrong));
    assert.match(text(wrong), /^Robot Ava:\n {2}Your orders for turn 1 are in\./m);
    assert.deepEqual([...await t.service.ordersIn(id, 1)].sort(), [0]);
    // A heading that names no robot of the player's: nothing used.
    const zed = await reply(1, 'Robot Zed\nrandom');
    assert.match(text(zed), /"Robot Zed" names no robot of yours \(you race Ava, Ava2\)/);
    // Ava2's section alone, a line before it for every section, a quoted copy of the instructions left out.
    await reply(1, `Turn 1\nRobot Ava2\n1 2 3 4 5\n\n> ${text(d1).split('\n').join('\n> ')}`);
    assert.deepEqual([...await t.service.ordersIn(id, 1)].sort(), [0, 1]);
    const b1 = bob().find((c) => /Turn 1: your instructions$/.test(subject(c)))!;
    await sendMail(t.gateway.smtpPort, { from: 'bob@b.test', to: replyTo(b1), subject: `Re: ${subject(b1)}`, text: 'random' });
    await t.gateway.pump();
    await until('turn 1 played', async () => (await t.service.view(id)).ok && ava().some((c) => /Turn 1: report/.test(subject(c))));
    await t.gateway.pump();

    // Turn 2: both sections in one reply.
    const both = await reply(2, 'Robot Ava\nrandom\nRobot Ava2\nrandom\n-- \nAva');
    assert.match(text(both), /^Robot Ava:\n {2}Your orders for turn 2 are in/m);
    assert.match(text(both), /^Robot Ava2:\n {2}Your orders for turn 2 are in/m);
    assert.doesNotMatch(text(both), /No section/);
    const b2 = bob().find((c) => /^(?!Re: ).*Turn 2: your instructions; Turn 1: report$/.test(subject(c)))!;
    await sendMail(t.gateway.smtpPort, { from: 'bob@b.test', to: replyTo(b2), subject: `Re: ${subject(b2)}`, text: 'random' });
    await t.gateway.pump();
    await until('the end mails', async () => {
      await t.gateway.pump();
      return t.sink.mails.filter((c) => /Race over/.test(subject(c))).length === 2;
    });
    // One report a turn for both robots, each robot's options shown as its own.
    for (const turn of [1, 2]) {
      const reports = ava().filter((c) => !/^Re: /.test(subject(c)) && new RegExp(`Turn ${turn}: report`).test(subject(c)));
      assert.equal(reports.length, 1, `one report of turn ${turn} for both robots`);
      assert.match(subject(reports[0]!), /\(robots Ava, Ava2\)$/);
      const rep = await t.service.report(id, turn);
      assert.ok(rep.ok && text(reports[0]!).includes(rep.value.text));
    }
    // The start and the end come once for both robots too, under the first robot's seat code.
    for (const what of [/starts on/, /Race over/]) {
      const mails = ava().filter((x) => what.test(subject(x)));
      assert.equal(mails.length, 1, `one ${what} mail for both robots`);
      assert.match(subject(mails[0]!), new RegExp(`^\\[RR ${id} s0 \\w+\\] .*\\(robots Ava, Ava2\\)$`));
      assert.ok(text(mails[0]!).startsWith('You race Ava, Ava2 in this race: this mail is for all of them.'), text(mails[0]!));
    }
    // A player racing one robot reads the mails as ever.
    for (const c of bob()) {
      assert.doesNotMatch(subject(c), /\(robots? /);
      assert.doesNotMatch(text(c), /^For your robot|^Robot Ava/m);
    }
    assert.ok(bob().some((c) => /Turn 2: report$/.test(subject(c))));
  } finally {
    await t.close();
  }
});

test('a player racing two robots gets one mail for both of each of the start, the moderator\'s pause, resume and taking back, the correction of one robot\'s orders and the end, all in the thread of its first robot\'s start mail; "follow" follows both', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic', settings: { turnLimit: 1 },
      seats: [{ name: 'Ava', email: 'ava@a.test', player: 'ava' }, { name: 'Ava2', email: 'ava@a.test', player: 'ava', options: ['Brakes'] }, { name: 'Bob', email: 'bob@b.test' }],
      deadline: { kind: 'live', seconds: 120 }, deal: { secret: false, seed: 7 },
    });
    assert.ok(created.ok);
    const { id, moderatorKey } = created.value;
    await t.gateway.pump();
    const ava = () => t.sink.mails.filter((c) => c.to.includes('ava@a.test') && !/^Re: /.test(subject(c)));
    const bob = () => t.sink.mails.filter((c) => c.to.includes('bob@b.test') && !/^Re: /.test(subject(c)));
    const bare = (c: Caught) => subject(c).replace(/^\[RR [^\]]+\] /, '');
    const start = ava().find((c) => /starts on/.test(subject(c)))!;
    assert.equal(ava().filter((c) => /starts on/.test(subject(c))).length, 1, 'one start mail');
    assert.equal(start.mail.messageId, `<${id}.s0.race@rr.test>`);
    assert.match(subject(start), /starts on .*\(robots Ava, Ava2\)$/);
    assert.match(text(start), /^Welcome to race \S+ on .*, Ava and Ava2!$/m);
    // Each robot's goal and options under its heading, and how to reply with a section a robot.
    const [, own1, own2] = text(start).split(/^Robot (?:Ava|Ava2)$/m);
    assert.ok(own1 && own2, text(start));
    assert.doesNotMatch(own1!, /Brakes/);
    assert.match(own2!, /Your robot holds Brakes\. How to order it:/);
    assert.match(text(start), /^Reply with a section for each robot, each begun by a line "Robot NAME"/m);
    assert.match(text(start), /Each turn's instructions and report come in one mail for all your robots\./);
    // Bob, racing one robot, reads his start mail as ever and sees Ava2's option (no Secret Options).
    const bobStart = bob().find((c) => /starts on/.test(subject(c)))!;
    assert.match(text(bobStart), /^Welcome to race \S+ on .*, Bob!$/m);
    for (const action of ['pause', 'resume'] as const) {
      assert.ok((await t.service.moderate(id, moderatorKey, action, {})).ok, action);
      await t.gateway.pump();
    }
    // "follow" written to the first robot's address follows both robots.
    await sendMail(t.gateway.smtpPort, { from: 'ava@a.test', to: replyTo(start), subject: `Re: ${subject(start)}`, text: 'follow\n\nThanks, Ava' });
    await t.gateway.pump();
    const followed = t.sink.mails.filter((c) => c.to.includes('ava@a.test') && /^Re: /.test(subject(c))).at(-1)!;
    assert.match(text(followed), /^You follow race \S+: once your robots are out of the race, the turn reports keep coming until the race is over\./);
    assert.deepEqual((await t.service.mailRace(id))!.seats.filter((x) => x.seat < 2).map((x) => x.follow), [true, true]);
    // Turn 1: Ava's player programs both robots in one reply, left to chance; Bob too.
    const turn1 = () => ava().filter((c) => /Turn 1: your instructions/.test(subject(c))).at(-1)!;
    await sendMail(t.gateway.smtpPort, { from: 'ava@a.test', to: replyTo(turn1()), subject: `Re: ${subject(turn1())}`, text: 'Robot Ava\nrandom\nRobot Ava2\nrandom' });
    await everyoneRandom(t, ['bob@b.test'], 1);
    await until('turn 1 reported', async () => {
      await t.gateway.pump();
      return ava().some((c) => /Turn 1: report/.test(subject(c)));
    });
    // The report tells the programs left to chance in 001's moderator's words.
    assert.match(text(ava().find((c) => /Turn 1: report/.test(subject(c)))!), /Ava: registers 1, 2, 3, 4 and 5 left to chance as ordered, so they get random available instructions from the list/);
    assert.ok((await t.service.moderate(id, moderatorKey, 'rewind', {})).ok);
    await t.gateway.pump();
    const hand = await shownOf(t, id);
    assert.ok((await t.service.submit(id, 1, { moderatorKey }, { turn: 1, program: hand })).ok);
    await t.gateway.pump();
    // The moderator's correction completes the orders of the turn taken back: it is played again, and the race ends again.
    await until('the corrected end', async () => {
      await t.gateway.pump();
      return ava().some((c) => /Race over: corrected/.test(subject(c)));
    });
    assert.deepEqual(ava().map(bare).filter((x) => !/^Turn \d: (your instructions|report|corrected report)/.test(x)), [
      `Race ${id} starts on first-shift (robots Ava, Ava2)`,
      'Turn 1: the deadline has changed (robots Ava, Ava2)',
      'Turn 1: the deadline has changed (robots Ava, Ava2)',
      'Race over: standings (robots Ava, Ava2)',
      'Turn 1: taken back by the moderator (robots Ava, Ava2)',
      "Turn 1: Ava2's orders were corrected by the moderator (robots Ava, Ava2)",
      'Race over: corrected standings (robots Ava, Ava2)',
    ]);
    const fixed = ava().find((c) => /corrected by the moderator/.test(subject(c)))!;
    assert.match(text(fixed), /^The moderator has corrected the orders of your robot Ava2 for turn 1 of race /m);
    assert.ok(text(fixed).includes(`Ava2's program is now: ${writeProgram(hand.slice(0, 5))}`), text(fixed));
    assert.match(text(fixed), /replace them \(in a section "Robot Ava2"\)\.$/m);
    assert.ok(bob().some((c) => bare(c) === "Turn 1: the moderator corrected Ava2's orders"), 'Bob told whose orders, not what');
    // Every mail to the address, the answers too, is in the thread of the first robot's start mail.
    for (const c of t.sink.mails.filter((x) => x.to.includes('ava@a.test') && x !== start)) assert.equal(refs(c)[0], `<${id}.s0.race@rr.test>`, subject(c));
  } finally {
    await t.close();
  }
});

test('a player who writes a new mail with no seat code is told, once a turn at its own address, that nothing was read, with the reply address and code of each of its races; a newcomer still gets how to join', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test', player: 'ava' }, { name: 'Ava2', email: 'ava@a.test', player: 'ava' }, { name: 'Bob', email: 'bob@b.test' }],
      deadline: { kind: 'live', seconds: 120 },
    });
    assert.ok(created.ok);
    const id = created.value.id;
    await t.gateway.pump();
    const start = t.sink.mails.find((c) => c.to.includes('ava@a.test') && /starts on/.test(subject(c)))!;
    const answers = () => t.sink.mails.filter((c) => c.to.includes('ava@a.test') && /^Re: My orders/.test(subject(c)));
    // Written twice to the race's own address (the sender's address in another case): neither names a seat.
    for (let k = 0; k < 2; k++) {
      await sendMail(t.gateway.smtpPort, { from: 'Ava <AVA@a.test>', to: 'race@rr.test', subject: 'My orders', text: 'F F F F F\n\nThanks, Ava' });
      await t.gateway.pump();
    }
    assert.equal(answers().length, 1, 'once a turn');
    const told = text(answers()[0]!);
    assert.match(told, /^Your mail "My orders" carried no seat code, so it counted for no seat: nothing in it was read as orders/);
    assert.ok(told.includes(`Race ${id} on first-shift, turn 1 (Ava, Ava2): reply to ${replyTo(start)}, or keep ${subject(start).match(/^\[RR [^\]]+\]/)![0]} in the subject.`), told);
    assert.equal(String(answers()[0]!.mail.headers.get('auto-submitted')), 'auto-replied');
    assert.equal(refs(answers()[0]!)[0], `<${id}.s0.race@rr.test>`);
    assert.deepEqual(await t.service.ordersIn(id, 1), []);
    // A newcomer is answered with how to join, as ever.
    await sendMail(t.gateway.smtpPort, { from: 'newcomer@n.test', to: 'race@rr.test', subject: 'Hello', text: 'Can I race?' });
    await t.gateway.pump();
    assert.match(text(t.sink.mails.find((c) => c.to.includes('newcomer@n.test'))!), /Your mail named no seat of a race/);
  } finally {
    await t.close();
  }
});

test('orders that come just after the deadline, the turn not played yet, are answered too late naming the subject of the next instructions; a reply to an old turn\'s mail names the subject of the current one, which came with a report', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava', email: 'ava@a.test' }, { name: 'Bob', email: 'bob@b.test' }], deadline: { kind: 'live', seconds: 600 } });
    assert.ok(created.ok);
    await t.gateway.pump();
    const ava = () => t.sink.mails.filter((c) => c.to.includes('ava@a.test'));
    const d1 = ava().find((c) => /Turn 1: your instructions$/.test(subject(c)))!;
    const view = await t.service.view(created.value.id);
    assert.ok(view.ok && view.value.deadlineAt !== null);
    // The deadline has just passed; the race's clock has not played the turn yet.
    t.clock.t = view.value.deadlineAt;
    await sendMail(t.gateway.smtpPort, { from: 'ava@a.test', to: replyTo(d1), subject: `Re: ${subject(d1)}`, text: '1 2 3 4 5' });
    await t.gateway.pump();
    const late = await until('the answer', () => ava().find((c) => /^Re: /.test(subject(c))));
    assert.match(text(late), /Your orders for turn 1 came too late: the deadline of turn 1 has passed/);
    assert.match(text(late), /The instructions of the next turn come in the mail whose subject says "Turn 2: your instructions": reply to that one\./);
    assert.equal(await t.service.tick(), 1);
    await t.gateway.pump();
    const d2 = await until('the instructions of turn 2', () => ava().find((c) => /Turn 2: your instructions; Turn 1: report$/.test(subject(c))));
    await sendMail(t.gateway.smtpPort, { from: 'ava@a.test', to: replyTo(d1), subject: `Re: ${subject(d1)}`, text: '1 2 3 4 5' });
    await t.gateway.pump();
    const old = await until('the answer to the old mail', () => ava().filter((c) => /^Re: /.test(subject(c)))[1]);
    assert.match(text(old), /These orders are for turn 1, but race \S+ is at turn 2; they were not used\. The instructions of turn 2 came in the mail whose subject says "Turn 2: your instructions": reply to that one\./);
    assert.ok(subject(d2).includes('Turn 2: your instructions'));
  } finally {
    await t.close();
  }
});

test('a player whose first robot goes out while its other races is not told that this is its last report; the instructions of the other come with it, pointing to the one start mail', async () => {
  const t = await setup();
  try {
    const created = await seatedRace(t.service, {
      course: 'first-shift', rules: 'classic', settings: { lives: 1 }, deal: { secret: false, seed: 11 },
      seats: [{ name: 'Dee', email: 'dee@d.test' }, { name: 'Eve', email: 'eve@e.test', player: 'eve' }, { name: 'Eve2', email: 'eve@e.test', player: 'eve' }],
      deadline: { kind: 'live', seconds: 600 },
    });
    assert.ok(created.ok);
    await t.gateway.pump();
    const eve = () => t.sink.mails.filter((c) => c.to.includes('eve@e.test') && !/^Re: /.test(subject(c)));
    const start = eve().find((c) => /starts on/.test(subject(c)))!;
    const d1 = eve().find((c) => /Turn 1: your instructions/.test(subject(c)))!;
    // Eve turns around and drives off the board (seed 11 deals it U P20 and F3 P820); Eve2 turns on the spot.
    await sendMail(t.gateway.smtpPort, { from: 'eve@e.test', to: replyTo(d1), subject: `Re: ${subject(d1)}`, text: 'Robot Eve\nU P20 F3 P820 F1 P510 F1 P610 R P360\nRobot Eve2\nL P90 L P250 L P290 L P190 R P120' });
    await everyoneRandom(t, ['dee@d.test'], 1);
    const d2 = await until('the report of turn 1 with the instructions of turn 2', async () => {
      await t.gateway.pump();
      return eve().find((c) => /Turn 2: your instructions; Turn 1: report/.test(subject(c)));
    });
    assert.match(text(d2), /^Robot Eve:\nYour robot is out of the race\. The turn reports keep coming while Eve2 races; once none does, reply "follow"/m, text(d2));
    assert.doesNotMatch(text(d2), /last turn report/);
    assert.ok(text(d2).includes(`as your start mail ("${subject(start)}") tells`), text(d2));
  } finally {
    await t.close();
  }
});
