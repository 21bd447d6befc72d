import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The engine's TypeScript sources (dist/engine/src → engine/src). */
const SRC = fileURLToPath(new URL('../../../engine/src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [p] : [];
  });
}

test('the engine imports nothing outside its own folder, not even Node built-ins', () => {
  const bad: string[] = [];
  for (const file of sources(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*from\s+'([^']+)'/g)) {
      const target = join(file, '..', m[1]!);
      if (!m[1]!.startsWith('.') || relative(SRC, target).startsWith('..')) bad.push(`${relative(SRC, file)} imports ${m[1]}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('the engine uses no clock, no Math.random and no I/O', () => {
  const bad: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''); // code, not comments
    for (const word of ['Math.random', 'Date.now', 'new Date', 'performance.now', 'process.', 'console.', 'require('])
      if (text.includes(word)) bad.push(`${relative(SRC, file)} uses ${word}`);
  }
  assert.deepEqual(bad, []);
});

const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'add', 'delete', 'clear']);
const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken, ts.SyntaxKind.PlusEqualsToken, ts.SyntaxKind.MinusEqualsToken, ts.SyntaxKind.AsteriskEqualsToken,
  ts.SyntaxKind.SlashEqualsToken, ts.SyntaxKind.PercentEqualsToken, ts.SyntaxKind.AmpersandEqualsToken, ts.SyntaxKind.BarEqualsToken,
  ts.SyntaxKind.CaretEqualsToken, ts.SyntaxKind.LessThanLessThanEqualsToken, ts.SyntaxKind.GreaterThanGreaterThanEqualsToken,
  ts.SyntaxKind.GreaterThanGreaterThanGreaterThanEqualsToken, ts.SyntaxKind.BarBarEqualsToken, ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.AsteriskAsteriskEqualsToken,
]);

/** The identifier an access chain starts from (`a` in `a.b[c].d`), if any. */
function root(e: ts.Expression): string | null {
  while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return ts.isIdentifier(e) ? e.text : null;
}

/**
 * Module-level mutable state in one source file, read with the TypeScript parser: every `let` or
 * `var` at the top level, and every top-level `const` that code inside a function changes (an
 * element or property assigned, ++/--, delete, or a mutating method called on it). Filling a
 * constant table while the module loads (top-level statements, their callbacks included) is not state.
 */
function moduleState(name: string, text: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const consts = new Set<string>();
  const line = (n: ts.Node) => file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1;
  for (const st of file.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const isConst = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of st.declarationList.declarations) {
      const names = ts.isIdentifier(d.name) ? [d.name.text] : d.name.elements.flatMap((e) => (ts.isBindingElement(e) && ts.isIdentifier(e.name) ? [e.name.text] : []));
      for (const n of names) {
        if (isConst) consts.add(n);
        else found.push(`${name}:${line(d)} module-level ${st.declarationList.flags & ts.NodeFlags.Let ? 'let' : 'var'} ${n}`);
      }
    }
  }
  const changed = (e: ts.Expression, n: ts.Node, how: string) => {
    const r = root(e);
    if (r && consts.has(r)) found.push(`${name}:${line(n)} changes module-level ${r} (${how})`);
  };
  const visit = (n: ts.Node, inFunction: boolean): void => {
    const fn = inFunction || ts.isFunctionLike(n);
    if (fn && !ts.isFunctionLike(n)) {
      // A local name for a module-level constant (`const out = moving`) is that constant.
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isIdentifier(n.initializer) && consts.has(n.initializer.text))
        consts.add(n.name.text);
      if (ts.isBinaryExpression(n) && ASSIGNMENTS.has(n.operatorToken.kind) && !ts.isIdentifier(n.left)) changed(n.left, n, 'assigned');
      if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken) && !ts.isIdentifier(n.operand))
        changed(n.operand, n, 'incremented');
      if (ts.isDeleteExpression(n)) changed(n.expression, n, 'delete');
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && MUTATORS.has(n.expression.name.text))
        changed(n.expression.expression, n, `${n.expression.name.text}()`);
    }
    ts.forEachChild(n, (c) => visit(c, fn));
  };
  // Statements at the top level run once, as the module loads (callbacks too: `TABLE.forEach(...)`).
  for (const st of file.statements) if (!ts.isExpressionStatement(st) && !ts.isForStatement(st) && !ts.isForOfStatement(st)) visit(st, false);
  return found;
}

test('the state finder catches a module-level let and a module-level constant a function changes', () => {
  const src = [
    'let spare = null;',
    'const chain = [];',
    'const grid = new Int16Array(4);',
    'const seen = new Map();',
    'const TABLE = [];',
    'for (let i = 0; i < 3; i++) TABLE.push(i);', // filled as the module loads: a constant table
    '[4, 5].forEach((v) => (TABLE[v] = v));',
    'export function f(x) { chain.push(x); grid[x] = 1; seen.set(x, 1); return TABLE[x]; }',
    'export function g() { const out = chain; out[0] = 2; }',
  ].join('\n');
  assert.deepEqual(moduleState('m.ts', src), [
    'm.ts:1 module-level let spare',
    'm.ts:8 changes module-level chain (push())',
    'm.ts:8 changes module-level grid (assigned)',
    'm.ts:8 changes module-level seen (set())',
    'm.ts:9 changes module-level out (assigned)',
  ]);
});

test('the engine keeps no module-level mutable state: what a call works on lives in its context', () => {
  const bad = sources(SRC).flatMap((file) => moduleState(relative(SRC, file), readFileSync(file, 'utf8')));
  assert.deepEqual(bad, []);
});
