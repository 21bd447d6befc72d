import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classic } from '../rules/classic.js';
import { pbem } from '../rules/pbem.js';
import { OPTION_CARDS, UPGRADES } from './catalog.js';
import { optionText } from './texts.js';

test('every option card a rule set deals says what it does, in that rule set\'s words', () => {
  for (const o of OPTION_CARDS) assert.ok(optionText(o, classic), `classic ${o}`);
  for (const o of UPGRADES) assert.ok(optionText(o, pbem), `pbem ${o}`);
  assert.match(optionText('Ablative Coat:2', classic)!, /three points/);
  assert.match(optionText('Ablative Coat', pbem)!, /six damage/);
  assert.equal(optionText('No Such Card', classic), null);
});
