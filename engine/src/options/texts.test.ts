import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classic } from '../rules/classic.js';
import { pbem } from '../rules/pbem.js';
import { OPTION_CARDS, UPGRADES, WEAPONS, optionStep } from './catalog.js';
import { optionText } from './texts.js';

test('every option card a rule set deals says what it does, in that rule set\'s words', () => {
  for (const o of OPTION_CARDS) assert.ok(optionText(o, classic), `classic ${o}`);
  for (const o of UPGRADES) assert.ok(optionText(o, pbem), `pbem ${o}`);
  assert.match(optionText('Ablative Coat:2', classic)!, /three points/);
  assert.match(optionText('Ablative Coat', pbem)!, /six damage/);
  assert.equal(optionText('No Such Card', classic), null);
});

test('an option used is placed in the step of the register it acts in: moves, cards, lasers, or none of them', () => {
  assert.equal(optionStep('Brakes:2'), 'move', 'a card with uses is read by its name');
  assert.equal(optionStep('Crab Legs'), 'move');
  assert.equal(optionStep('Abort Switch'), 'cards');
  for (const w of WEAPONS) assert.equal(optionStep(w), 'lasers', w);
  assert.equal(optionStep('Double-Barreled Lasers'), 'lasers', "pbem's name of the classic Double-Barreled Laser");
  for (const o of ['Shield', 'Superior Archive', 'Recompile', 'Ablative Coat']) assert.equal(optionStep(o), null, o);
  const named = [...OPTION_CARDS, ...UPGRADES].filter((o) => optionStep(o) !== null);
  assert.equal(new Set(named).size, 17, 'seventeen options of the two decks act within a register step');
});
