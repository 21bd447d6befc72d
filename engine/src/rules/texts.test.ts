/**
 * docs/rules.md and the start mail tell the rules from one source: the texts of
 * engine/src/rules/texts.ts. These tests read docs/rules.md and check it says what the texts say.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classic } from './classic.js';
import { pbem } from './pbem.js';
import { goalLine, rulesLines, rulesText, SETTING_TEXTS } from './texts.js';

const DOC = readFileSync(fileURLToPath(new URL('../../../../docs/rules.md', import.meta.url)), 'utf8');
const section = (title: string): string => {
  const start = DOC.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `no section "## ${title}" in docs/rules.md`);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start + title.length + 5, end < 0 ? undefined : end);
};
const words = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');
/** The rows of a markdown table, less its heading and rule, as trimmed cells. */
const rows = (md: string): string[][] =>
  md.split('\n').filter((l) => l.startsWith('|')).slice(2).map((l) => l.trim().replace(/^\||\|$/g, '').split(' | ').map((c) => c.trim()));

test('docs/rules.md tells the classic rule set in the words of its text', () => {
  const t = rulesText(classic);
  assert.equal(words(section('`classic`')), `${t.title} (\`engine/src/rules/classic.ts\`): ${t.summary}`);
});

test("docs/rules.md's pbem table is the pbem rule set's rules, row for row", () => {
  const t = rulesText(pbem);
  const md = section('`pbem`');
  assert.ok(words(md).startsWith(`${t.title} (\`engine/src/rules/pbem.ts\`):`), 'the title');
  assert.deepEqual(rows(md), t.rules!.map((r) => [r.rule, r.text, r.source]));
});

test("docs/rules.md's settings table is the settings' texts, row for row", () => {
  assert.deepEqual(rows(section('Settings')), Object.entries(SETTING_TEXTS).map(([name, s]) => [`\`${name}\``, s.value, s.effect]));
});

test("a race's rules for its start mail: the rule set's, then each setting it sets, with what it does", () => {
  const lines = rulesLines(pbem, { lives: 2, secretOptions: true, teams: { Red: ['Ava', 'Bob'] }, optionDeck: ['Brakes'], exchangeWhilePoweredDown: false });
  assert.match(lines[0]!, /^Rules: pbem, the moderated e-mail game of 001:$/);
  assert.ok(lines.includes('  - destroyed: at 22 damage (001 L297)'));
  assert.ok(lines.includes('  - lives = 2: lives per robot (default 3)'));
  assert.ok(lines.some((l) => l.startsWith('  - secretOptions = on: the others see an option only once it has been used')));
  assert.ok(lines.some((l) => l.startsWith('  - teams = Red: Ava, Bob: teams (000 L21')));
  assert.ok(lines.some((l) => l.startsWith('  - exchangeWhilePoweredDown = off: option exchange is not allowed while powered down')));
  assert.ok(lines.some((l) => l.startsWith('  - optionDeck = set (its cards are not told): ')), 'the deck\'s order is not told');
  assert.ok(!lines.some((l) => l.includes('Brakes')));
  assert.ok(!lines.some((l) => l.includes('`')), 'no code marks in a mail');
  assert.match(rulesLines(classic, {})[0]!, /^Rules: classic, the 1994 manual with the FAQ's readings: the 84-card deck/);
  assert.equal(rulesLines(classic, {}).length, 1);
});

test('the goal line tells a player the flags or RoboArena\'s last robot standing, the turn limit, and its own lives and starting damage', () => {
  assert.equal(goalLine({}, 3, { lives: 3, damage: 0 }), 'Touch the 3 flags in order. Your robot has 3 lives.');
  assert.equal(goalLine({ turnLimit: 20 }, 4, { lives: 1, damage: 2 }), 'Touch the 4 flags in order; the race ends after turn 20 at the latest. Your robot has 1 life and starts with 2 damage.');
  assert.equal(goalLine({ variant: 'arena', infiniteLives: true, turnLimit: 12 }, 3, { lives: 3, damage: 0 }),
    'RoboArena: no flag counts, the last robot not out of the race wins; the race ends after turn 12 at the latest. Your robot has lives that never run out.');
});
