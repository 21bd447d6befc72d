import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBoard } from '../board.js';
import type { EventType, GameEvent } from '../events.js';
import { createState, makeSetup } from '../game.js';
import { narrate, narrateEvents } from './narrate.js';
import { formatTurnReport, turnReport } from './table.js';

/** One event of every kind the engine emits: a new kind does not compile until it is added here. */
export const EVERY_EVENT: { [K in EventType]: Extract<GameEvent, { type: K }> } = {
  turnBegan: { type: 'turnBegan', turn: 3 },
  faced: { type: 'faced', robot: 1, dir: 2 },
  reentered: { type: 'reentered', robot: 0, x: 1, y: 2, dir: 1, damage: 2, virtual: true, poweredDown: false },
  poweredDown: { type: 'poweredDown', robot: 1 },
  poweredUp: { type: 'poweredUp', robot: 1 },
  dealt: { type: 'dealt', robot: 0, cards: 9 },
  programmed: { type: 'programmed', robot: 0, filled: [{ register: 2, reason: 'missing' }] },
  powerDownAnnounced: { type: 'powerDownAnnounced', robot: 1 },
  powerDownCancelled: { type: 'powerDownCancelled', robot: 1 },
  registerBegan: { type: 'registerBegan', register: 1 },
  revealed: { type: 'revealed', robot: 0, register: 1, card: 670 },
  moved: { type: 'moved', robot: 0, from: [1, 2], to: [2, 2] },
  pushed: { type: 'pushed', robot: 1, from: [2, 2], to: [3, 2], by: { robot: 0 } },
  carried: { type: 'carried', robot: 1, from: [3, 2], to: [3, 3], express: true },
  blocked: { type: 'blocked', robot: 0, x: 2, y: 2, dir: 1 },
  slipped: { type: 'slipped', robot: 0 },
  slid: { type: 'slid', robot: 0, from: [2, 2], to: [2, 3] },
  teleported: { type: 'teleported', robot: 0, from: [2, 3], to: [0, 0] },
  rampSlide: { type: 'rampSlide', robot: 0, x: 0, y: 1 },
  ledgeDrop: { type: 'ledgeDrop', robot: 1, points: 1 },
  turned: { type: 'turned', robot: 1, from: 0, to: 1, by: 'gear' },
  shot: { type: 'shot', robot: 1, by: { robot: 0 }, points: 1, from: [0, 1], to: [3, 1], weapon: 'Tractor Beam' },
  blockedShot: { type: 'blockedShot', robot: 1, by: 'Shield', points: 1 },
  exchanged: { type: 'exchanged', robot: 1, option: 'Brakes' },
  markerLocked: { type: 'markerLocked', robot: 1, register: 5, by: 0 },
  optionDestroyed: { type: 'optionDestroyed', robot: 1, option: 'Gyroscopic Stabilizer', by: 0 },
  rammed: { type: 'rammed', robot: 1, by: 0, points: 1 },
  scrambled: { type: 'scrambled', robot: 1, register: 3, card: 90, by: 0 },
  radioControlled: { type: 'radioControlled', robot: 1, by: 0, registers: [4, 5] },
  aborted: { type: 'aborted', robot: 0, register: 2, card: 800 },
  swapped: { type: 'swapped', robot: 0, register: 4, card: 800 },
  stored: { type: 'stored', robot: 0 },
  recompiled: { type: 'recompiled', robot: 0, cards: 8 },
  optionDrawn: { type: 'optionDrawn', robot: 0, option: 'Flywheel' },
  optionUsed: { type: 'optionUsed', robot: 0, option: 'Flywheel' },
  optionDiscarded: { type: 'optionDiscarded', robot: 0, option: 'Mini Howitzer', why: 'spent' },
  optionRecharged: { type: 'optionRecharged', robot: 0, option: 'Mini Howitzer' },
  circuitBreaker: { type: 'circuitBreaker', robot: 1, damage: 3 },
  damaged: { type: 'damaged', robot: 1, points: 1, damage: 4 },
  locked: { type: 'locked', robot: 1, registers: [5] },
  unlocked: { type: 'unlocked', robot: 1, registers: [5] },
  destroyed: { type: 'destroyed', robot: 1, cause: 'pit', pushedBy: { robot: 0 }, lives: 2 },
  out: { type: 'out', robot: 1 },
  flagTouched: { type: 'flagTouched', robot: 0, flag: 1 },
  archived: { type: 'archived', robot: 0, x: 3, y: 3 },
  finished: { type: 'finished', robot: 0, place: 1 },
  repaired: { type: 'repaired', robot: 0, points: 1, damage: 1, by: 'wrench' },
  upgraded: { type: 'upgraded', robot: 0, option: 'Brakes' },
  offered: { type: 'offered', x: 3, y: 3, option: 'Brakes' },
  optionLost: { type: 'optionLost', robot: 1, option: 'Ramming Gear' },
  becameReal: { type: 'becameReal', robot: 0 },
  dieHit: { type: 'dieHit', flag: 2, points: 1, left: 2 },
  turnEnded: { type: 'turnEnded', turn: 3 },
};

const names = ['Ava', 'Bolt'];

test('every kind of event has its own sentence, naming its robot and what it carries', () => {
  const seen = new Set<string>();
  for (const e of Object.values(EVERY_EVENT) as GameEvent[]) {
    const s = narrate(e, { names });
    assert.ok(s.length > 8, `${e.type}: "${s}"`);
    assert.ok(!seen.has(s), `${e.type} says what another kind says: "${s}"`);
    seen.add(s);
    if ('robot' in e) assert.match(s, new RegExp(names[e.robot]!), `${e.type}: "${s}" does not name its robot`);
    if ('option' in e) assert.ok(s.includes(e.option), `${e.type}: "${s}" does not name ${e.option}`);
    if ('by' in e && typeof e.by === 'number') assert.ok(s.includes(names[e.by]!), `${e.type}: "${s}" does not name who did it`);
  }
});

test('the narrator tells the events the old reports left out: dice, offers, oil, portals, ledges, ramps, archives, upgrades', () => {
  const say = (e: GameEvent) => narrate(e, { names });
  assert.equal(say(EVERY_EVENT.dieHit), 'the die on flag 2 takes 1 point (2 left)');
  assert.equal(say({ type: 'dieHit', flag: 2, points: 1, left: 0 }), 'the die on flag 2 takes 1 point (destroyed: the flag is open)');
  assert.equal(say(EVERY_EVENT.offered), 'the upgrade site at (3,3) offers Brakes');
  assert.equal(say(EVERY_EVENT.slid), 'Ava slides on the oil from (2,2) to (2,3)');
  assert.equal(say(EVERY_EVENT.teleported), 'Ava goes through the portal at (2,3) and comes out at (0,0)');
  assert.equal(say(EVERY_EVENT.ledgeDrop), 'Bolt drops down a ledge: 1 point of damage');
  assert.equal(say(EVERY_EVENT.rampSlide), 'Ava stops on the ramp and slides back down to (0,1)');
  assert.equal(say(EVERY_EVENT.archived), "Ava's archive moves to (3,3)");
  assert.equal(say(EVERY_EVENT.upgraded), 'Ava is upgraded with Brakes');
  assert.equal(say(EVERY_EVENT.repaired), 'Ava repairs 1 damage on the repair site (1 left)');
  assert.equal(say(EVERY_EVENT.revealed), 'Ava reveals Move 2 (670) in register 1');
});

test("a program filled at random says why, in 001's moderator's words: no program by the deadline, left to chance as ordered, an illegal instruction replaced", () => {
  // 001 L83 "An illegal or missing instruction will be replaced with a random available instruction from your list"; L393 "Missing the deadline results in your robot being programmed randomly"
  const say = (filled: Extract<GameEvent, { type: 'programmed' }>['filled']) => narrate({ type: 'programmed', robot: 0, filled }, { names });
  const all = [1, 2, 3, 4, 5].map((register) => ({ register, reason: 'missing' as const }));
  assert.equal(say(all), 'Ava: no program by the deadline, so registers 1, 2, 3, 4 and 5 are programmed randomly');
  assert.equal(say([{ register: 2, reason: 'chosen' }]), 'Ava: register 2 left to chance as ordered, so it gets a random available instruction from the list');
  assert.equal(say([{ register: 3, reason: 'illegal' }, { register: 1, reason: 'chosen' }, { register: 4, reason: 'chosen' }]),
    'Ava: registers 1 and 4 left to chance as ordered, so they get random available instructions from the list; the illegal instruction in register 3 replaced with a random available instruction from the list');
  assert.ok(!say(all).includes('(missing)'));
});

test('a batch tells a card\'s steps as one move and the pushes it makes as one push per robot', () => {
  const b = parseBoard({ grid: ['. . . . .', '. . . . .', '. . . . .'] });
  assert.ok(b.ok);
  const lines = narrateEvents([
    { type: 'registerBegan', register: 1 },
    { type: 'revealed', robot: 0, register: 1, card: 670 },
    { type: 'moved', robot: 0, from: [0, 1], to: [1, 1] },
    { type: 'pushed', robot: 1, from: [1, 1], to: [2, 1], by: { robot: 0 } },
    { type: 'moved', robot: 0, from: [1, 1], to: [2, 1] },
    { type: 'pushed', robot: 1, from: [2, 1], to: [3, 1], by: { robot: 0 } },
    EVERY_EVENT.dieHit,
  ], { names, board: b.value });
  assert.deepEqual(lines, [
    '--- Register 1 ---', 'Cards: Ava F2:670', 'Ava moves F2:670 from (0,1) to (2,1)', 'Bolt is pushed by Ava from (1,1) to (3,1)', 'the die on flag 2 takes 1 point (2 left)',
  ]);
});

test('the turn report gives every kind of event a place: the Move column, a note, or a line of its own', () => {
  const b = parseBoard({ grid: ['. . . . .', '. . . . .', '. . . . .', '. . . . .'] });
  assert.ok(b.ok);
  const setup = makeSetup(b.value, 'classic');
  assert.ok(setup.ok);
  const st = createState(setup.value, [{ name: 'Ava', x: 1, y: 2, dir: 1 }, { name: 'Bolt', x: 2, y: 2, dir: 1 }], 1);
  assert.ok(st.ok);
  const all = Object.values(EVERY_EVENT) as GameEvent[];
  const atEnd = ['repaired', 'offered', 'upgraded', 'circuitBreaker', 'becameReal'];
  const inRegister = all.filter((e) => !['turnBegan', 'turnEnded', 'registerBegan', ...atEnd].includes(e.type));
  const events: GameEvent[] = [
    EVERY_EVENT.turnBegan, ...[1, 2, 3, 4, 5].map((register) => ({ type: 'registerBegan', register }) as GameEvent), ...inRegister,
    ...all.filter((e) => atEnd.includes(e.type)), EVERY_EVENT.turnEnded,
  ];
  const text = formatTurnReport(turnReport(st.value, events));
  // Told in words somewhere: everything but the deal (the player's own) and an option's use (told by its effect).
  for (const e of all.filter((e) => !['turnBegan', 'turnEnded', 'registerBegan'].includes(e.type))) {
    if (e.type === 'dealt' || e.type === 'optionUsed' || e.type === 'revealed' || e.type === 'moved' || e.type === 'carried') continue;
    const words: Partial<Record<EventType, RegExp>> = {
      pushed: /pushed by Ava/, blocked: /blocked/, turned: /turned right by a gear/, shot: /shot by Ava's Tractor Beam/, damaged: /^ *\d+ {2}Bolt/m,
      destroyed: /fell into a pit \(pushed by Ava\)/, flagTouched: /touched flag 1/, finished: /finished 1st/, slid: /slides on oil/, teleported: /portal/,
      locked: /register 5 locked/, unlocked: /register 5 unlocked/, out: /out of the race/,
    };
    const want = words[e.type] ?? new RegExp(narrate(e, { names }).replace(/^(Ava|Bolt)('s|:)? /, '').replace(/[()+?.*]/g, '\\$&'));
    assert.match(text, want, `${e.type} is missing from the report:\n${text}`);
  }
  // The robot's own moves with 003's priority, the belt's as a compass letter.
  assert.match(text, /Ava +F2 P670/);
  assert.match(text, /Bolt +E,S/);
});

test('end-of-turn repairs and upgrades come under "End of turn", after the fifth register\'s damage', () => {
  const b = parseBoard({ grid: ['. . .', '. . .'] });
  assert.ok(b.ok);
  const setup = makeSetup(b.value, 'classic');
  assert.ok(setup.ok);
  const st = createState(setup.value, [{ name: 'Ava', x: 0, y: 0, dir: 1 }], 1);
  assert.ok(st.ok);
  st.value.robots[0]!.damage = 3;
  const events: GameEvent[] = [
    ...[1, 2, 3, 4, 5].map((register) => ({ type: 'registerBegan', register }) as GameEvent),
    { type: 'repaired', robot: 0, points: 1, damage: 2, by: 'wrench' }, { type: 'offered', x: 0, y: 0, option: 'Brakes' }, { type: 'upgraded', robot: 0, option: 'Brakes' },
    { type: 'turnEnded', turn: 1 },
  ];
  const rep = turnReport(st.value, events);
  assert.equal(rep.registers[4]!.rows[0]!.dmg, 3);
  assert.deepEqual(rep.end, ['Ava repairs 1 damage on the repair site (2 left)', 'the upgrade site at (0,0) offers Brakes', 'Ava is upgraded with Brakes']);
});
