/** `roborally check FILE_OR_DIR...`: runs conformance scenarios (SCENARIOS.md). */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkScenario, type ScenarioResult } from '../../conformance/src/index.js';
import { fileProblem, readJsonFile } from '../../boards/src/index.js';

export interface CheckOptions {
  readonly json?: boolean;
  readonly show?: boolean;
}

/**
 * Every *.json below each directory, recursively, in name order; files as given. A folder reached
 * twice through symbolic links is walked once. `missing` holds what could not be read, with why.
 */
export function scenarioFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const isDir = (p: string): boolean => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false; // a dangling link: read as a file, and refused there with its reason
    }
  };
  const walk = (dir: string): void => {
    let real: string, names: string[];
    try {
      real = realpathSync(dir);
      names = readdirSync(dir).sort();
    } catch (e) {
      missing.push(`${dir}: ${fileProblem(dir, e)}`);
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    for (const name of names) {
      const p = join(dir, name);
      if (isDir(p)) walk(p);
      else if (name.endsWith('.json')) files.push(p);
    }
  };
  for (const p of paths) {
    try {
      statSync(p);
    } catch (e) {
      missing.push(`${p}: ${fileProblem(p, e)}`);
      continue;
    }
    if (isDir(p)) walk(p);
    else files.push(p);
  }
  return { files, missing };
}

/** Reads and checks one file; a file that cannot be read fails with its name and the reason. */
export function checkFile(file: string, o: CheckOptions = {}): ScenarioResult {
  const id = basename(file, '.json');
  const raw = readJsonFile(file);
  if (!raw.ok) return { id, result: 'fail', messages: [`${raw.error.field}: ${raw.error.message}`], state: null, pictures: [] };
  const res = checkScenario(raw.value, id, o);
  return res.result === 'fail' ? { ...res, messages: res.messages.map((m) => `${file}: ${m}`) } : res;
}

/**
 * Prints a line per scenario and the summary; returns the exit code: 0 only if at least one
 * scenario was found and nothing failed.
 */
export function runCheck(paths: readonly string[], o: CheckOptions, print: (line: string) => void): number {
  const { files, missing } = scenarioFiles(paths);
  let passed = 0, failed = 0;
  for (const m of missing) {
    failed++;
    print(`FAIL ${m}`);
  }
  if (!files.length && !missing.length) {
    failed++;
    print(`FAIL no scenario found: no *.json file in ${paths.join(', ')}`);
  }
  for (const file of files) {
    const res = checkFile(file, o);
    if (res.result === 'pass') passed++;
    else failed++;
    if (o.json) print(JSON.stringify({ id: res.id, result: res.result, messages: res.messages, state: res.state }));
    else {
      const verdict = res.result.toUpperCase();
      print(res.messages.length && res.result !== 'pass' ? `${verdict} ${res.id}: ${res.messages.join('; ')}` : `${verdict} ${res.id}`);
    }
    if (o.show) for (const p of res.pictures) print(p);
  }
  print(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}
