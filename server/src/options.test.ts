import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, freshDb, startServer, createSeated } from './testing.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A live classic race of two people, Ava dealt Recompile and Bob Shield by One Free Option. */
async function optionRace(settings: Record<string, unknown> = {}) {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  const r = await createSeated(s.base, {
    course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 60 }, deal: { secret: false, seed: 11 },
    settings: { oneFreeOption: true, optionDeck: ['Recompile', 'Shield'], ...settings },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const race = r.body as { id: string; moderatorKey: string; seats: { token: string }[] };
  const seat = async (k: number) => (await call(s.base, 'GET', `/api/races/${race.id}/seats/${k}`, undefined, auth(race.seats[k]!.token))).body;
  const close = async () => {
    await s.close();
    await db.destroy();
  };
  return { s, race, seat, close };
}

test('option decisions travel with the orders: one about an option the robot lacks is refused by name, one it holds is echoed', async () => {
  const { s, race, seat, close } = await optionRace();
  try {
    const ava = (await seat(0)).you;
    assert.deepEqual(ava.options, ['Recompile']);
    assert.ok(ava.choiceKeys.includes('shield'));
    const program = ava.hand.slice(0, 5);
    const put = (body: object) => call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, ...body }, auth(race.seats[0]!.token));
    const refused = await put({ program, choices: { shield: 'left' } });
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.body.error, { field: 'choices.shield', message: 'Ava does not hold Shield' });
    const unknown = await put({ program, choices: { jetPack: true } });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.error.field, 'choices.jetPack');
    const joined = await put({ program: [`${program[0]}+${program[1]}`, ...program.slice(2, 6)] });
    assert.equal(joined.status, 422, 'two cards in one register need Crab Legs or Dual Processor');
    const bob = (await seat(1)).you;
    const ok = await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program: bob.hand.slice(0, 5), choices: { shield: 'back' } }, auth(race.seats[1]!.token));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.orders.choices, { shield: 'back' });
  } finally {
    await close();
  }
});

test('Recompile by the seat: a new hand of the same size and a point of damage, the orders sent before withdrawn, and only once a turn', async () => {
  const { s, race, seat, close } = await optionRace();
  try {
    const before = (await seat(0)).you;
    await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: before.hand.slice(0, 5) }, auth(race.seats[0]!.token));
    const re = await call(s.base, 'POST', `/api/races/${race.id}/seats/0/recompile`, undefined, auth(race.seats[0]!.token));
    assert.equal(re.status, 200, JSON.stringify(re.body));
    assert.equal(re.body.hand.length, before.hand.length);
    const after = await seat(0);
    assert.deepEqual(after.you.hand, re.body.hand);
    assert.equal(after.you.orders, null);
    assert.equal(after.robots[0].damage, 1);
    assert.equal(after.seats[0].submitted, false);
    const again = await call(s.base, 'POST', `/api/races/${race.id}/seats/0/recompile`, undefined, auth(race.seats[0]!.token));
    assert.equal(again.status, 422);
    const bob = await call(s.base, 'POST', `/api/races/${race.id}/seats/1/recompile`, undefined, auth(race.seats[1]!.token));
    assert.equal(bob.status, 422, 'Bob holds no Recompile');
    const thief = await call(s.base, 'POST', `/api/races/${race.id}/seats/0/recompile`, undefined, auth(race.seats[1]!.token));
    assert.equal(thief.status, 401);
  } finally {
    await close();
  }
});

test('a rewind keeps the Recompile made in the turn taken back: the new hand, its damage and the orders from it are played again', async () => {
  const { s, race, seat, close } = await optionRace();
  try {
    const mod = { 'x-moderator-key': race.moderatorKey };
    const re = await call(s.base, 'POST', `/api/races/${race.id}/seats/0/recompile`, undefined, auth(race.seats[0]!.token));
    assert.equal(re.status, 200, JSON.stringify(re.body));
    const ava = re.body.hand.slice(0, 5);
    assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: ava }, auth(race.seats[0]!.token))).status, 200);
    const bob = (await seat(1)).you.hand.slice(0, 5);
    assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program: bob }, auth(race.seats[1]!.token))).status, 200);
    const first = await call(s.base, 'GET', `/api/races/${race.id}/turns/1/report`);
    assert.equal(first.status, 200, 'both orders in: turn 1 is played');
    const rewind = await call(s.base, 'POST', `/api/races/${race.id}/moderator/rewind`, {}, mod);
    assert.equal(rewind.status, 200, JSON.stringify(rewind.body));
    const back = await seat(0);
    assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn, 1);
    assert.deepEqual(back.you.hand, re.body.hand, 'the hand Recompile dealt, not the one dealt first');
    assert.equal(back.robots[0].damage, 1, "Recompile's point of damage stays");
    assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/adjudicate`, {}, mod)).status, 200);
    const again = await call(s.base, 'GET', `/api/races/${race.id}/turns/1/report`);
    assert.deepEqual(again.body, first.body, 'played again with the same orders, the turn goes as it went');
  } finally {
    await close();
  }
});

test('Secret Options: the public view and the other seat see an option only once it is used, and the log does not name a drawn one', async () => {
  const { s, race, seat, close } = await optionRace({ secretOptions: true });
  try {
    const pub = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    assert.deepEqual(pub.robots.map((r: { options: string[]; hiddenOptions: number }) => [r.options, r.hiddenOptions]), [[[], 1], [[], 1]]);
    const bobSees = await seat(1);
    assert.deepEqual(bobSees.robots[0].options, []);
    assert.deepEqual(bobSees.you.options, ['Shield']);
    // Ava recompiles: Recompile is used, so now everybody sees it.
    await call(s.base, 'POST', `/api/races/${race.id}/seats/0/recompile`, undefined, auth(race.seats[0]!.token));
    const now = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    assert.deepEqual(now.robots[0].options, ['Recompile']);
    assert.deepEqual(now.robots[1].options, []);
    const log = JSON.stringify((await call(s.base, 'GET', `/api/races/${race.id}/events`)).body);
    assert.ok(!log.includes('Shield'), 'the log names a secret option');
  } finally {
    await close();
  }
});

test('pbem upgrade codes are orders only for a robot holding the upgrade', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const r = await createSeated(s.base, { course: 'first-shift', rules: 'pbem', seats: [{ name: 'Ava' }], deadline: { kind: 'live', seconds: 60 }, deal: { secret: false, seed: 5 } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const token = r.body.seats[0].token;
    const you = (await call(s.base, 'GET', `/api/races/${r.body.id}/seats/0`, undefined, auth(token))).body.you;
    const f = you.hand.indexOf('F1');
    assert.ok(f >= 0, 'seed 5 deals an F1');
    const program = [...you.hand.slice(0, f), ...you.hand.slice(f + 1)].slice(0, 4);
    program.unshift('F0');
    const put = await call(s.base, 'PUT', `/api/races/${r.body.id}/seats/0/orders`, { turn: 1, program }, auth(token));
    assert.equal(put.status, 422);
    assert.match(put.body.error.message, /F0 needs Brakes/);
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('Secret Options: a correction on a turn taken back joins no cards, so its answer does not tell who holds Dual Processor', async () => {
  const { s, race, close } = await optionRace({ secretOptions: true, optionDeck: ['Dual Processor', 'Shield'] });
  try {
    const mod = { 'x-moderator-key': race.moderatorKey };
    const hands = [(await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, auth(race.seats[0]!.token))).body.you, (await call(s.base, 'GET', `/api/races/${race.id}/seats/1`, undefined, auth(race.seats[1]!.token))).body.you];
    assert.deepEqual(hands.map((y) => y.options), [['Dual Processor'], ['Shield']]);
    for (const k of [0, 1]) assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/${k}/orders`, { turn: 1, program: hands[k].hand.slice(0, 5) }, auth(race.seats[k]!.token))).status, 200);
    assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/rewind`, {}, mod)).status, 200);
    assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/pause`, {}, mod)).status, 200);
    const said: string[] = [];
    for (const k of [0, 1]) {
      const p: string[] = hands[k].hand.slice(0, 5);
      // Each move card joined with each turn card the seat played (Dual Processor's pairs), the fifth
      // register a card again: without the guard, the holder was refused for that, the other for the option.
      for (const move of p.filter((c) => /^[FB]/.test(c))) for (const turn of p.filter((c) => /^[LR]/.test(c))) {
        const rest = p.filter((c) => c !== move && c !== turn);
        const r = await call(s.base, 'PUT', `/api/races/${race.id}/seats/${k}/orders`, { turn: 1, program: [`${move}+${turn}`, ...rest, rest[0]] }, mod);
        said.push(JSON.stringify([r.status, r.body]).replace(/[FBLRU]\d?:\d+/g, 'a card').replaceAll(hands[k].name ?? (k ? 'Bob' : 'Ava'), 'the robot'));
      }
    }
    assert.ok(said.length >= 2, 'pairs were tried');
    assert.equal(new Set(said).size, 1, said.join('\n'));
    assert.match(said[0]!, /^\[422,.*"field":"program".*secret/);
  } finally {
    await close();
  }
});

test('Secret Options: the cards a robot was dealt do not tell the others of an option the public view hides (Extra Memory is shown once it deals its card)', async () => {
  const { s, race, close } = await optionRace({ secretOptions: true, optionDeck: ['Extra Memory', 'Shield'] });
  try {
    const pub = (await call(s.base, 'GET', `/api/races/${race.id}`)).body;
    const seen = pub.robots.map((r: { cards: number; damage: number; options: string[]; hiddenOptions: number }) => [r.cards - (9 - r.damage), r.options, r.hiddenOptions]);
    assert.deepEqual(seen, [[1, ['Extra Memory'], 0], [0, [], 1]], 'each card beyond 9 - damage is told by an option shown');
  } finally {
    await close();
  }
});
