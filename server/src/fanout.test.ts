import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDecided } from './fanout.js';

const decision = (over: Record<string, unknown> = {}) => JSON.stringify({
  from: 'other', race: 'r1', turn: 3, bots: [{ seat: 2, level: 'strong' }],
  orders: { 2: { level: 'strong', orders: { program: [120, 340, 500, 10, 80], powerDown: false } } }, ...over,
});

test('a bot decision another process shared is read with its race, turn, bots and orders; this process\'s own is skipped', () => {
  assert.deepEqual(readDecided(decision(), 'me'), ['r1', 3, [{ seat: 2, level: 'strong' }], { 2: { level: 'strong', orders: { program: [120, 340, 500, 10, 80], powerDown: false } } }]);
  assert.equal(readDecided(decision(), 'other'), null);
  assert.deepEqual(readDecided(decision({ orders: { 2: { level: 'random', orders: null } } }), 'me')?.[3], { 2: { level: 'random', orders: null } });
});

test('a bot decision of another shape is ignored: unknown keys, an unknown level, cards that are no numbers, a bot without orders, orders of a seat that is no bot', () => {
  const bad = [
    'not json',
    decision({ orders: { 2: { level: 'strong', orders: { program: [1], launch: true } } } }),
    decision({ orders: { 2: { level: 'strong', orders: null, extra: 1 } } }),
    decision({ orders: { 2: { level: 'godlike', orders: null } } }),
    decision({ orders: { 2: { level: 'strong', orders: { program: ['F1'] } } } }),
    decision({ orders: { 2: { level: 'strong', orders: { powerDown: 'yes' } } } }),
    decision({ orders: {} }),
    decision({ orders: { 2: { level: 'strong', orders: null }, 1: { level: 'strong', orders: null } } }),
    decision({ bots: [{ seat: 2, level: 'nope' }] }),
    decision({ turn: -1 }),
    decision({ race: 7 }),
  ];
  for (const p of bad) assert.equal(readDecided(p, 'me'), null, p);
});
