/**
 * Secret deals and the moderator key: a race's generator comes from 128 secure random bits that no
 * client chooses or sees; a seed is taken only for a race marked as no secret, and its view says
 * so; the moderator key opens no seat, and corrects a seat's orders only on a turn taken back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DECK, cardName } from '../../engine/src/index.js';
import { call, freshDb, postgresAnswers, startServer, createSeated } from './testing.js';

const havePostgres = await postgresAnswers();
const skipFor = (d: string) => (d === 'postgres' && !havePostgres ? 'no PostgreSQL server answers on 127.0.0.1:5432 (set TEST_DATABASE_URL)' : false);
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
/** A hand with its turns first: in the deal of seed 7 Bob's robot, so programmed, lives through turn 1 and shows its five cards. */
const turnsFirst = (h: string[]) => [...h.filter((c) => /^[LRU]/.test(c)), ...h.filter((c) => !/^[LRU]/.test(c))];
const body = (extra: Record<string, unknown> = {}) => ({ course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 60 }, ...extra });

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`[${dialect}] each race deals from 128 secure random bits that no view shows`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      const words: number[] = [];
      const hands = new Set<string>();
      for (let k = 0; k < 12; k++) {
        const r = await createSeated(s.base, body());
        assert.equal(r.status, 201, JSON.stringify(r.body));
        const row = await db.selectFrom('races').select(['deal']).where('id', '=', r.body.id).executeTakeFirstOrThrow();
        const deal = JSON.parse(row.deal!) as { secret: boolean; words: number[] };
        assert.equal(deal.secret, true);
        assert.equal(deal.words.length, 4, 'four 32-bit words: 128 bits');
        words.push(...deal.words);
        const view = await call(s.base, 'GET', `/api/races/${r.body.id}`);
        assert.deepEqual(view.body.deal, { secret: true });
        const seat = await call(s.base, 'GET', `/api/races/${r.body.id}/seats/0`, undefined, auth(r.body.seats[0].token));
        hands.add(seat.body.you.hand.join(' '));
        const events = await call(s.base, 'GET', `/api/races/${r.body.id}/events`);
        for (const text of [JSON.stringify(view.body), JSON.stringify(seat.body), JSON.stringify(events.body)])
          for (const w of deal.words) assert.ok(!text.includes(String(w)), `word ${w} of the deal shows`);
      }
      assert.ok(words.every((w) => Number.isInteger(w) && w >= 0 && w < 2 ** 32));
      assert.equal(new Set(words).size, words.length, 'no word repeats');
      // Drawn from 2^32 values each, not from 2^31 like the seeds of old: some word has its top bit set.
      assert.ok(words.some((w) => w >= 2 ** 31));
      assert.equal(hands.size, 12, 'every race deals another hand');
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] no client chooses the deal: a seed is refused unless the race is marked as no secret, and then its view shows it`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      for (const [extra, field] of [
        [{ seed: 5 }, 'seed'],
        [{ deal: { seed: 5 } }, 'deal.secret'],
        [{ deal: { secret: true, seed: 5 } }, 'deal.secret'],
        [{ deal: { secret: false } }, 'deal.seed'],
        [{ deal: { secret: false, seed: 2 ** 31 } }, 'deal.seed'],
        [{ deal: { secret: false, seed: 1.5 } }, 'deal.seed'],
        [{ deal: { secret: false, seed: 5, words: [1, 2, 3, 4] } }, 'deal.words'],
      ] as const) {
        const r = await createSeated(s.base, body(extra));
        assert.equal(r.status, 422, JSON.stringify(extra));
        assert.equal(r.body.error.field, field, JSON.stringify(extra));
      }
      assert.equal((await db.selectFrom('races').select('id').execute()).length, 0, 'nothing was made');
      const open = await createSeated(s.base, body({ deal: { secret: false, seed: 5 } }));
      assert.equal(open.status, 201);
      assert.deepEqual((await call(s.base, 'GET', `/api/races/${open.body.id}`)).body.deal, { secret: false, seed: 5 });
      // The same seed deals the same hands: what a replay needs.
      const again = await createSeated(s.base, body({ deal: { secret: false, seed: 5 } }));
      const hand = async (r: typeof open) => (await call(s.base, 'GET', `/api/races/${r.body.id}/seats/0`, undefined, auth(r.body.seats[0].token))).body.you.hand;
      assert.deepEqual(await hand(open), await hand(again));
    } finally {
      await s.close();
      await db.destroy();
    }
  });

  test(`[${dialect}] the moderator key opens no seat: orders sent with it are refused until the turn is taken back, then logged as a correction the seat sees`, { skip: skipFor(dialect) }, async () => {
    const { db } = await freshDb(dialect);
    const s = await startServer(db);
    try {
      // A known deal (turnsFirst): a correction uses only the cards shown, and Bob's robot shows all five.
      const race = (await createSeated(s.base, body({ deal: { secret: false, seed: 7 } }))).body;
      const mod = { 'x-moderator-key': race.moderatorKey };
      const you = async (seat: number) => (await call(s.base, 'GET', `/api/races/${race.id}/seats/${seat}`, undefined, auth(race.seats[seat].token))).body.you;
      const bob = await you(1);
      bob.hand = turnsFirst(bob.hand);
      const before = (await call(s.base, 'GET', `/api/races/${race.id}`)).body.lastSeq;
      // Neither Bob's own cards nor anything else: the key is refused before the orders are read.
      for (const program of [bob.hand.slice(0, 5), ['F1:490', 'F1:500', 'F1:510', 'F1:520', 'F1:530']]) {
        const r = await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program }, mod);
        assert.equal(r.status, 403);
        assert.equal(r.body.error.field, 'moderatorKey');
      }
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.lastSeq, before, 'nothing was stored');
      // Both play the turn; the moderator takes it back and corrects Bob's orders.
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: (await you(0)).hand.slice(0, 5) }, auth(race.seats[0].token))).status, 200);
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program: bob.hand.slice(0, 5) }, auth(race.seats[1].token))).status, 200);
      assert.equal((await call(s.base, 'GET', `/api/races/${race.id}`)).body.turn, 2);
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 2, program: bob.hand.slice(0, 5) }, mod)).status, 403, 'turn 2 is not taken back');
      assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/rewind`, {}, mod)).status, 200);
      // The cards Bob played, in another order: a correction uses only the cards the turn showed.
      const corrected = bob.hand.slice(0, 5).reverse();
      assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program: corrected }, mod)).status, 200);
      const entries = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { event: { type: string; seat?: number; by?: string } }[];
      const told = entries.filter((e) => e.event.type === 'corrected');
      assert.deepEqual(told.map((e) => e.event), [{ type: 'corrected', seat: 1, by: 'moderator' }]);
    } finally {
      await s.close();
      await db.destroy();
    }
  });
}

test('a correction on a turn taken back uses only the cards the turn showed: probed with each of the 84 cards, a card held but never played is answered byte for byte as one not held', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    // A deal of a known seed, in which Bob's robot lives through the turn and shows all five cards.
    const race = (await createSeated(s.base, body({ deal: { secret: false, seed: 7 } }))).body;
    const mod = { 'x-moderator-key': race.moderatorKey };
    const hand = async (seat: number): Promise<string[]> => (await call(s.base, 'GET', `/api/races/${race.id}/seats/${seat}`, undefined, auth(race.seats[seat].token))).body.you.hand;
    const hands = [await hand(0), await hand(1)];
    hands[1] = turnsFirst(hands[1]!);
    for (const seat of [0, 1]) assert.equal((await call(s.base, 'PUT', `/api/races/${race.id}/seats/${seat}/orders`, { turn: 1, program: hands[seat]!.slice(0, 5) }, auth(race.seats[seat].token))).status, 200);
    const shown = ((await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { event: { type: string; robot?: number } }[]).filter((e) => e.event.type === 'revealed' && e.event.robot === 1);
    assert.equal(shown.length, 5, 'Bob showed five cards');
    assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/rewind`, {}, mod)).status, 200);
    // Paused, so that a correction taken does not play the turn (both seats' orders are in).
    assert.equal((await call(s.base, 'POST', `/api/races/${race.id}/moderator/pause`, {}, mod)).status, 200);
    const played = hands[1]!.slice(0, 5), hidden = hands[1]!.slice(5);
    assert.equal(hidden.length, 4, 'four cards of Bob\'s hand were never shown');
    const correct = (program: unknown[]) => call(s.base, 'PUT', `/api/races/${race.id}/seats/1/orders`, { turn: 1, program }, mod);
    // Each card in register 1, Bob's played cards in the others: the answer with the card's name taken out.
    const answers = new Map<string, string>();
    for (const card of DECK.map(cardName)) {
      const r = await correct([card, ...played.slice(1)]);
      answers.set(card, JSON.stringify([r.status, r.body]).replaceAll(card, 'the card'));
    }
    assert.match(answers.get(played[0]!)!, /^\[200,/, 'the card Bob played there is taken');
    const unshown = [...answers].filter(([card]) => !played.includes(card));
    assert.equal(unshown.length, 84 - 5);
    assert.deepEqual(new Set(unshown.map(([, said]) => said)).size, 1, `one answer for every card not shown, held or not: ${[...new Set(unshown.map(([, said]) => said))].join('\n')}`);
    assert.match(unshown[0]![1], /^\[422,/);
    for (const card of hidden) assert.equal(answers.get(card), unshown.find(([c]) => !hands[1]!.includes(c))![1], card);
    // A register left to the random fill would draw from the cards never shown: refused, whatever the hand.
    const fill = await correct([null, ...played.slice(1)]);
    assert.deepEqual([fill.status, fill.body.error.field], [422, 'program']);
    // The cards played, in another order: taken, and logged as the moderator's.
    assert.equal((await correct(played.slice().reverse())).status, 200);
    const entries = (await call(s.base, 'GET', `/api/races/${race.id}/events`)).body as { event: { type: string; seat?: number } }[];
    assert.ok(entries.some((e) => e.event.type === 'corrected' && e.event.seat === 1));
  } finally {
    await s.close();
    await db.destroy();
  }
});
