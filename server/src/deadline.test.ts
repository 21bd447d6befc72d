import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextDeadline } from './deadline.js';

/** The wall clock of the zone at instant t, as YYYY-MM-DD HH:MM. */
const wall = (t: number, zone: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(t));
const due = (time: string, zone: string, now: string) => nextDeadline({ kind: 'scheduled', time, zone, minimumHours: 0 }, Date.parse(now));

test('a scheduled deadline whose clock time the zone skips that day (summer time begins) falls after the gap, on its own day, in every zone', () => {
  // Europe/London skips 01:00-02:00 on 2027-03-28; America/New_York 02:00-03:00 on 2027-03-14;
  // America/Santiago 00:00-01:00 on 2027-09-05: the due time is moved on by the gap, never back before it.
  assert.equal(wall(due('01:30', 'Europe/London', '2027-03-27T12:00:00Z'), 'Europe/London'), '2027-03-28 02:30');
  assert.equal(wall(due('02:30', 'America/New_York', '2027-03-13T12:00:00Z'), 'America/New_York'), '2027-03-14 03:30');
  assert.equal(wall(due('00:00', 'America/Santiago', '2027-09-04T12:00:00Z'), 'America/Santiago'), '2027-09-05 01:00');
});

test('a scheduled deadline whose clock time comes twice that day (summer time ends) is due at its first coming, in every zone', () => {
  assert.equal(due('01:30', 'Europe/London', '2027-10-30T12:00:00Z'), Date.parse('2027-10-31T00:30:00Z'));
  assert.equal(due('01:30', 'America/New_York', '2027-11-06T12:00:00Z'), Date.parse('2027-11-07T05:30:00Z'));
});

test('a scheduled deadline on an ordinary day, and across a change of offset, is due at that clock time', () => {
  assert.equal(due('22:00', 'Europe/London', '2027-03-27T23:00:00Z'), Date.parse('2027-03-28T21:00:00Z'));
  assert.equal(due('22:00', 'America/New_York', '2027-07-01T12:00:00Z'), Date.parse('2027-07-02T02:00:00Z'));
  assert.equal(due('00:30', 'Australia/Lord_Howe', '2027-10-02T12:00:00Z'), Date.parse('2027-10-02T14:00:00Z'));
});

test('a scheduled deadline is never the instant it is set at: a turn played at the very millisecond of its deadline (minimumHours 0) is due at the next day\'s time, also at the first of a time shown twice', () => {
  const at = Date.parse('2027-07-02T02:00:00Z');
  assert.equal(due('22:00', 'America/New_York', '2027-07-02T02:00:00Z'), at + 86_400_000);
  // 01:30 comes twice on 2027-11-07 in New York: played at its first coming, due the next day, not at its second.
  assert.equal(due('01:30', 'America/New_York', '2027-11-07T05:30:00Z'), Date.parse('2027-11-08T06:30:00Z'));
  // A deadline exactly the minimum away still leaves it ("at least"), as before.
  assert.equal(nextDeadline({ kind: 'scheduled', time: '22:00', zone: 'UTC', minimumHours: 20 }, Date.parse('2027-07-01T02:00:00Z')), Date.parse('2027-07-01T22:00:00Z'));
});
