/** `roborally check FILE_OR_DIR...`: runs conformance scenarios (SCENARIOS.md). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkScenario, type ScenarioResult } from '../../conformance/src/run.js';

export interface CheckOptions {
  readonly json?: boolean;
  readonly show?: boolean;
}

/** Every *.json below each directory, recursively, in name order; files as given. */
export function scenarioFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.json')) files.push(p);
    }
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      missing.push(p);
      continue;
    }
    if (st.isDirectory()) walk(p);
    else files.push(p);
  }
  return { files, missing };
}

/** Reads and checks one file; a file that cannot be read fails with its name and the reason. */
export function checkFile(file: string, o: CheckOptions = {}): ScenarioResult {
  const id = basename(file, '.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return { id, result: 'fail', messages: [`${file}: ${(e as Error).message}`], state: null, pictures: [] };
  }
  const res = checkScenario(raw, id, o);
  return res.result === 'fail' ? { ...res, messages: res.messages.map((m) => `${file}: ${m}`) } : res;
}

/** Prints a line per scenario and the summary; returns the exit code (0 only if nothing failed). */
export function runCheck(paths: readonly string[], o: CheckOptions, print: (line: string) => void): number {
  const { files, missing } = scenarioFiles(paths);
  let passed = 0, failed = 0;
  for (const m of missing) {
    failed++;
    print(`FAIL ${m}: no such file or directory`);
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
