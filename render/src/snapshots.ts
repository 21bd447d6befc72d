/**
 * Snapshot pictures: committed SVG files in render/snapshots compared with fresh renders, so a
 * change to how boards look is seen in review. `UPDATE_SNAPSHOTS=1` rewrites them. Works on any
 * list of named boards: the test boards here, the shipped boards and courses later.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Board } from '../../engine/src/index.js';
import { renderSvg, type RenderOptions } from './render.js';

export interface SnapshotCase {
  /** The file name without `.svg`: letters, digits, `.`, `_` and `-`. */
  readonly name: string;
  readonly board: Board;
  readonly options?: RenderOptions;
}

export interface SnapshotResult {
  readonly name: string;
  readonly file: string;
  /** same: matches; written: (re)written because updating; missing or changed: a failure. */
  readonly status: 'same' | 'written' | 'missing' | 'changed';
  /** For a change: the first line that differs, committed and fresh. */
  readonly detail?: string;
}

/** render/snapshots, found from this module (dist/render/src/ when built, render/src/ from sources). */
export function snapshotDir(): string {
  const built = fileURLToPath(new URL('../../../render/snapshots/', import.meta.url));
  const source = fileURLToPath(new URL('../snapshots/', import.meta.url));
  return existsSync(fileURLToPath(new URL('../../../render/src/', import.meta.url))) ? built : source;
}

export const updating = (): boolean => process.env.UPDATE_SNAPSHOTS === '1';

/** Where two texts first differ: line, column, and a little of each around it. */
function firstDifference(a: string, b: string): string {
  const la = a.split('\n'), lb = b.split('\n');
  for (let k = 0; k < Math.max(la.length, lb.length); k++) {
    const x = la[k], y = lb[k];
    if (x === y) continue;
    if (x === undefined || y === undefined) return `line ${k + 1}: ${x === undefined ? 'only in the fresh render' : 'only in the committed file'}`;
    let col = 0;
    while (col < x.length && x[col] === y[col]) col++;
    const around = (s: string) => JSON.stringify(s.slice(Math.max(0, col - 40), col + 60));
    return `line ${k + 1} column ${col + 1}: committed ${around(x)} / fresh ${around(y)}`;
  }
  return 'same lines, different bytes';
}

/**
 * Renders each case and compares it with `dir/NAME.svg`; with `update` writes the files that are
 * missing or different instead. Returns one result per case, in order.
 */
export function checkSnapshots(cases: readonly SnapshotCase[], dir = snapshotDir(), update = updating()): SnapshotResult[] {
  const names = new Set<string>();
  const out: SnapshotResult[] = [];
  for (const c of cases) {
    if (!/^[A-Za-z0-9._-]+$/.test(c.name)) throw new Error(`snapshot name ${JSON.stringify(c.name)}: use letters, digits, ".", "_" and "-"`);
    if (names.has(c.name)) throw new Error(`snapshot name ${c.name} given twice`);
    names.add(c.name);
    const file = join(dir, `${c.name}.svg`);
    const fresh = renderSvg(c.board, c.options);
    const old = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (old === fresh) {
      out.push({ name: c.name, file, status: 'same' });
    } else if (update) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, fresh);
      out.push({ name: c.name, file, status: 'written' });
    } else if (old === null) {
      out.push({ name: c.name, file, status: 'missing', detail: 'no committed snapshot; run with UPDATE_SNAPSHOTS=1 to write it' });
    } else {
      out.push({ name: c.name, file, status: 'changed', detail: `${firstDifference(old, fresh)}; if the change is meant, run with UPDATE_SNAPSHOTS=1 and review the new file` });
    }
  }
  return out;
}
