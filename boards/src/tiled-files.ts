/**
 * Tiled maps and the tileset as files (docs/tiled.md): `importTiledFile` reads a .tmj map and the
 * JSON tilesets it references (paths relative to the map), `exportTiledFile` writes a board as a
 * .tmj map that references boards/tiled/roborally.tsj, `writeTileset` writes the tileset files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, type Result } from '../../engine/src/index.js';
import { readTextFile } from './json-file.js';
import { parseJson } from './json-text.js';
import { writeOutputFile } from './out-file.js';
import { fromTiled, toTiled, type BoardFile, type TiledMap } from './tiled.js';
import { TILESET_FILE, TILESET_IMAGE, tilesetJson, tilesetPng } from './tileset.js';

/** The folder of the committed tileset, boards/tiled/ (this file runs from dist/boards/src/). */
export const TILESET_DIR = fileURLToPath(new URL('../../../boards/tiled/', import.meta.url));
/** The committed tileset file, boards/tiled/roborally.tsj. */
export const TILESET_PATH = resolve(TILESET_DIR, TILESET_FILE);

function readJson(path: string, what: string): Result<unknown> {
  const text = readTextFile(path, what);
  if (!text.ok) return text;
  if (/^\uFEFF?\s*</.test(text.value)) return err(what, 'is XML (.tmx/.tsx); expected Tiled\'s JSON format: save it from Tiled as .tmj/.tsj (JSON)');
  return parseJson(text.value, what);
}

/** Reads a Tiled JSON map file into a board file; its external tilesets are read relative to it. */
export function importTiledFile(path: string): Result<BoardFile> {
  const json = readJson(path, path);
  if (!json.ok) return json;
  const base = dirname(resolve(path));
  return fromTiled(json.value, (source) => readJson(resolve(base, source), `tileset "${source}"`));
}

/**
 * Writes a Tiled JSON map (.tmj) of a board to `outPath`, creating its folder, referencing the
 * tileset (by default the committed boards/tiled/roborally.tsj) by a path relative to the map.
 */
export function exportTiledFile(board: BoardFile, outPath: string, tilesetPath: string = TILESET_PATH): Result<void> {
  const out = resolve(outPath);
  const source = relative(dirname(out), resolve(tilesetPath)).split(sep).join('/');
  const written = writeOutputFile(out, formatMap(toTiled(board, source)), { makeFolder: true });
  return written.ok ? written : err(outPath, written.error.message);
}

/** JSON with two-space indents, each tile layer's data one map row to a line, as Tiled writes CSV. */
export function formatMap(map: TiledMap): string {
  const rows: string[] = [];
  const marked = {
    ...map,
    layers: map.layers.map((l) => {
      if (l.type !== 'tilelayer') return l;
      const lines: string[] = [];
      for (let y = 0; y < l.height; y++) lines.push(l.data.slice(y * l.width, (y + 1) * l.width).join(', '));
      rows.push(lines.join(',\n        '));
      return { ...l, data: `@@data${rows.length - 1}@@` };
    }),
  };
  return `${JSON.stringify(marked, null, 2).replace(/"@@data(\d+)@@"/g, (_, k: string) => `[\n        ${rows[Number(k)]}\n      ]`)}\n`;
}

/** Writes the tileset (roborally.tsj and roborally.png) into `dir`, by default boards/tiled/. */
export function writeTileset(dir: string = TILESET_DIR): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, TILESET_FILE), `${JSON.stringify(tilesetJson(), null, 2)}\n`);
  writeFileSync(resolve(dir, TILESET_IMAGE), tilesetPng());
}
