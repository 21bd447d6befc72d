/**
 * The docs list what the engine defines (DEVELOPERS: "where docs list things the code defines, a
 * test keeps them true"): docs/engine.md's "Events" section names every event type of
 * engine/src/events.ts and no other; docs/rules.md's "Settings" table has one row per setting of
 * engine/src/settings.ts and no other.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { SETTING_KINDS } from './settings.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string): string => readFileSync(ROOT + path, 'utf8');

/** The text of a markdown section, from its `## title` heading to the next heading of that level. */
function section(md: string, title: string): string {
  const start = md.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `no section "## ${title}"`);
  const end = md.indexOf('\n## ', start + 1);
  return md.slice(start, end < 0 ? undefined : end);
}

/** The `type` literals of the members of the GameEvent union, read with the TypeScript parser. */
function eventTypes(): string[] {
  const file = ts.createSourceFile('events.ts', read('engine/src/events.ts'), ts.ScriptTarget.Latest, true);
  const alias = file.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'GameEvent');
  assert.ok(alias && ts.isUnionTypeNode(alias.type), 'GameEvent is a union type in engine/src/events.ts');
  return alias.type.types.map((member) => {
    assert.ok(ts.isTypeLiteralNode(member), `a GameEvent member is an object type: ${member.getText(file)}`);
    const prop = member.members.find((m): m is ts.PropertySignature => ts.isPropertySignature(m) && m.name.getText(file) === 'type');
    const lit = prop?.type && ts.isLiteralTypeNode(prop.type) && ts.isStringLiteral(prop.type.literal) ? prop.type.literal.text : null;
    assert.ok(lit, `a GameEvent member has a string literal type: ${member.getText(file)}`);
    return lit;
  });
}

const backticked = (text: string): Set<string> => new Set([...text.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!));

test('docs/engine.md lists every event type the engine defines, and no other', () => {
  const types = eventTypes();
  assert.ok(types.length > 40, `found ${types.length} event types`);
  const listed = backticked(section(read('docs/engine.md'), 'Events'));
  assert.deepEqual(types.filter((t) => !listed.has(t)), [], 'event types missing from docs/engine.md "Events"');
  const known = new Set(types);
  assert.deepEqual([...listed].filter((t) => !known.has(t)), [], 'names in docs/engine.md "Events" that are no event type');
});

test('docs/rules.md lists every setting the engine defines, and nothing else', () => {
  const rows = section(read('docs/rules.md'), 'Settings')
    .split('\n')
    .map((line) => /^\|\s*`([A-Za-z]+)`\s*\|/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
  assert.deepEqual(rows.slice().sort(), Object.keys(SETTING_KINDS).sort());
  assert.equal(new Set(rows).size, rows.length, 'a setting listed twice');
});
