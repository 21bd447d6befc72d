import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCommit, readDecided } from './fanout.js';

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

test('a commit notification of another process is read with the entries it carried, if they are entries that end at its seq; else with none (they are read from the database)', () => {
  const entries = [{ seq: 4, turn: 1, kind: 'race', event: { type: 'submitted', seat: 0 } }, { seq: 5, turn: 1, kind: 'game', event: { type: 'revealed' } }];
  const commit = (over: Record<string, unknown> = {}) => JSON.stringify({ from: 'other', race: 'r1', seq: 5, entries, ...over });
  assert.deepEqual(readCommit(commit(), 'me'), ['r1', 5, entries]);
  assert.deepEqual(readCommit(commit({ entries: undefined }), 'me'), ['r1', 5, undefined]);
  assert.equal(readCommit(commit(), 'other'), null);
  assert.equal(readCommit(commit({ seq: 'x' }), 'me'), null);
  assert.equal(readCommit('r1:5:other', 'me'), null);
  for (const bad of [
    [{ ...entries[0], seq: 3 }, entries[1]],
    [entries[0], { ...entries[1], kind: 'secret' }],
    [entries[0], { ...entries[1], hand: [1] }],
    [entries[0], { ...entries[1], event: 'revealed' }],
    [entries[0], { ...entries[1], event: {} }],
    [],
  ]) assert.deepEqual(readCommit(commit({ entries: bad }), 'me'), ['r1', 5, undefined], JSON.stringify(bad));
});
