/**
 * The web client's assets: the pages' modules (compiled by tsc into dist/web/src) bundled and
 * minified by esbuild, with the shared code in a chunk of its own, and the style sheet, each named
 * by its content's hash, into dist/web/assets, with a manifest of the names. `npm run build` runs
 * it; the server serves the files with long cache lives (server/src/web.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** dist/ (this module runs from dist/web/build) and the repository's web/public. */
const DIST = fileURLToPath(new URL('../../', import.meta.url));
const PUBLIC = fileURLToPath(new URL('../../../web/public/', import.meta.url));
export const ASSETS = `${DIST}web/assets/`;

/** The manifest: each entry's name (home.js, race.js, app.css) and the hashed file serving it; each shared chunk's name, itself. */
export type Manifest = Record<string, string>;

/**
 * Bundles into dist/web/assets. Safe while a server serves from there (the web tests' files each
 * bundle before their tests, and `node --test` runs files side by side): a file whose content is
 * unchanged is left as it is, a new one is written beside and renamed into place, and only then
 * are the files no build of these sources names taken away. (Emptying the folder first left a
 * moment with no assets, and a server reading one then answered 404 to every page after.)
 */
export async function bundle(): Promise<Manifest> {
  mkdirSync(ASSETS, { recursive: true });
  const result = await build({
    entryPoints: [`${DIST}web/src/home.js`, `${DIST}web/src/race.js`, `${DIST}web/src/editor.js`, `${PUBLIC}app.css`],
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    outdir: ASSETS,
    entryNames: '[name]-[hash]',
    chunkNames: 'shared-[hash]',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  const manifest: Manifest = {};
  // The entries by their own names; the chunks they share by theirs.
  for (const [file, out] of Object.entries(result.metafile.outputs)) manifest[out.entryPoint ? basename(out.entryPoint) : basename(file)] = basename(file);
  const files = [...result.outputFiles.map((f) => ({ name: basename(f.path), contents: f.contents })), { name: 'manifest.json', contents: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) }];
  for (const f of files) place(f.name, f.contents);
  const kept = new Set(files.map((f) => f.name));
  for (const name of readdirSync(ASSETS)) if (!kept.has(name) && !name.includes('.tmp-')) rmSync(`${ASSETS}${name}`, { force: true });
  return manifest;
}

/** Puts a file in the assets: left alone when it holds these bytes already, else written beside it and renamed over it at once. */
function place(name: string, contents: Uint8Array): void {
  const path = `${ASSETS}${name}`;
  if (existsSync(path) && Buffer.compare(readFileSync(path), contents) === 0) return;
  const tmp = `${ASSETS}.tmp-${process.pid}-${name}`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const m = await bundle();
  console.log(`web assets in ${ASSETS}: ${Object.values(m).join(', ')}`);
}
