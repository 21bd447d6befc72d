/**
 * Each top-level folder is a package with a public face: its package.json `exports` map names the
 * modules other folders may import (`./src/index.ts`, and for some a `./testing` entry of test
 * helpers). This test reads every TypeScript file's imports with the TypeScript parser and fails
 * when one reaches into another folder past those entries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository (dist/testkit/src → three levels up). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', 'data', 'docs', 'scenarios', 'bin', 'test-output']);

/**
 * Imports that reach into another folder, as `file -> target` (both from the root), tolerated until
 * fixed: the 48 found when this test was written are fixed, and none may be added.
 */
const KNOWN: readonly string[] = [];

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.') || SKIP.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const topOf = (file: string): string => relative(ROOT, file).split(sep)[0]!;
const FOLDERS = readdirSync(ROOT).filter((n) => !n.startsWith('.') && !SKIP.has(n) && statSync(join(ROOT, n)).isDirectory() && tsFiles(join(ROOT, n)).length > 0).sort();

interface Manifest {
  readonly type?: string;
  readonly exports?: Record<string, string>;
}
const manifest = (folder: string): Manifest | null => {
  const file = join(ROOT, folder, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null;
};

/** The files a folder lets others import: its exports' targets, from the root, as .ts sources. */
function publicFiles(folder: string): Set<string> {
  return new Set(Object.values(manifest(folder)?.exports ?? {}).map((t) => relative(ROOT, resolve(ROOT, folder, t))));
}

/** The relative module specifiers of a file: imports, re-exports, `import()` and `import type`. */
function specifiers(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) out.push(n.moduleSpecifier.text);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) out.push(n.arguments[0].text);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out.filter((s) => s.startsWith('.'));
}

/** Every import of one folder's file by another's that is not one of its public entries. */
function violations(): string[] {
  const out: string[] = [];
  for (const folder of FOLDERS) {
    for (const file of tsFiles(join(ROOT, folder))) {
      for (const spec of specifiers(file)) {
        const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
        const to = topOf(target);
        if (to === folder || to.startsWith('..')) continue;
        const rel = relative(ROOT, target);
        if (!publicFiles(to).has(rel)) out.push(`${relative(ROOT, file)} -> ${rel}`);
      }
    }
  }
  return out.sort();
}

test('every top-level folder of TypeScript is an ES module package whose exports map names files that exist', () => {
  assert.ok(FOLDERS.includes('engine') && FOLDERS.length >= 10, `folders: ${FOLDERS.join(', ')}`);
  for (const folder of FOLDERS) {
    const m = manifest(folder);
    assert.ok(m, `${folder}/package.json is missing`);
    assert.equal(m.type, 'module', `${folder}/package.json: "type"`);
    assert.ok(m.exports && typeof m.exports === 'object', `${folder}/package.json has no "exports" map`);
    for (const [entry, target] of Object.entries(m.exports)) {
      assert.ok(entry === '.' || entry.startsWith('./'), `${folder}: export "${entry}"`);
      assert.ok(existsSync(resolve(ROOT, folder, target)), `${folder}: export "${entry}" names ${target}, which does not exist`);
    }
  }
});

test('no folder imports another folder\'s internals: only the modules its exports map names', () => {
  const found = violations();
  const known = new Set(KNOWN);
  assert.deepEqual(found.filter((v) => !known.has(v)), [], 'new imports of another folder\'s internals: import its public entry (src/index.ts), exporting what is needed there');
  assert.deepEqual(KNOWN.filter((v) => !found.includes(v)), [], 'these are fixed: strike them from KNOWN');
});
