/**
 * The web client's assets: the pages' modules (compiled by tsc into dist/web/src) bundled and
 * minified by esbuild, with the shared code in a chunk of its own, and the style sheet, each named
 * by its content's hash, into dist/web/assets, with a manifest of the names. `npm run build` runs
 * it; the server serves the files with long cache lives (server/src/web.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** dist/ (this module runs from dist/web/build) and the repository's web/public. */
const DIST = fileURLToPath(new URL('../../', import.meta.url));
const PUBLIC = fileURLToPath(new URL('../../../web/public/', import.meta.url));
export const ASSETS = `${DIST}web/assets/`;

/** The manifest: each entry's name (home.js, race.js, app.css) and the hashed file serving it; each shared chunk's name, itself. */
export type Manifest = Record<string, string>;

export async function bundle(): Promise<Manifest> {
  rmSync(ASSETS, { recursive: true, force: true });
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
    logLevel: 'warning',
  });
  const manifest: Manifest = {};
  // The entries by their own names; the chunks they share by theirs.
  for (const [file, out] of Object.entries(result.metafile.outputs)) manifest[out.entryPoint ? basename(out.entryPoint) : basename(file)] = basename(file);
  writeFileSync(`${ASSETS}manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const m = await bundle();
  console.log(`web assets in ${ASSETS}: ${Object.values(m).join(', ')}`);
}
