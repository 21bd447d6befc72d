import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, freshDb, startServer, createSeated } from '../../server/src/testing.js';
import { RULE_SETS, apiOrders, parseOrders, type NotationContext } from '../../engine/src/index.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

test("orders read from a mail with option decisions, joined cards and 003's conditional two-wrench order are taken by the server as written", async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const r = await createSeated(s.base, {
      course: 'first-shift', seats: [{ name: 'Fred' }], deadline: { kind: 'live', seconds: 60 }, deal: { secret: false, seed: 4 },
      settings: { oneFreeOption: true, optionDeck: ['Dual Processor'] },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const { id, seats } = r.body as { id: string; seats: { token: string }[] };
    const you = (await call(s.base, 'GET', `/api/races/${id}/seats/0`, undefined, auth(seats[0]!.token))).body.you;
    assert.deepEqual(you.options, ['Dual Processor']);
    const ctx: NotationContext = { rules: RULE_SETS.classic!, hand: you.hand, openRegisters: you.openRegisters, needsProgram: true, poweredDown: false, options: you.options, name: 'Fred' };
    // A rotation joined to a move card (written either way round), four more cards, and 003's order.
    const rotate = you.hand.findIndex((c: string) => /^[LRU]:/.test(c));
    const move = you.hand.findIndex((c: string) => /^(F[123]|B):/.test(c));
    assert.ok(rotate >= 0 && move >= 0, 'the seed deals a move card and a rotation');
    const rest = you.hand.filter((_: string, k: number) => k !== rotate && k !== move).slice(0, 4);
    const text = [`${you.hand[rotate]} + ${you.hand[move]}`, ...rest, 'If I finish on 2 spanner repair & damage > 3 repair, else take option card.'].join('\n');
    const parsed = parseOrders(text.replace(/:(\d+)/g, ' P$1'), ctx);
    assert.ok(parsed.ok, JSON.stringify(parsed));
    const put = await call(s.base, 'PUT', `/api/races/${id}/seats/0/orders`, { turn: 1, ...apiOrders(parsed.orders) }, auth(seats[0]!.token));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body.orders.choices, { takeOption: { ifDamageAtMost: 3 } });
    // The turn is played with the joined cards: the move card's priority, then the rotation.
    const events = (await call(s.base, 'GET', `/api/races/${id}/events`)).body as { event: { type: string; robot?: number; register?: number; card?: number; joined?: number } }[];
    const first = events.find((e) => e.event.type === 'revealed' && e.event.register === 1)!.event;
    assert.equal(first.card, Number(you.hand[move].split(':')[1]));
    assert.equal(first.joined, Number(you.hand[rotate].split(':')[1]));
  } finally {
    await s.close();
    await db.destroy();
  }
});
