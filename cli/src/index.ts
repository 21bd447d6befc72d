/** cli: the `roborally` command (main.ts) and its `check` of conformance scenarios (check.ts). */
export { INTERNAL_ERROR, main } from './main.js';
export { checkFile, runCheck, scenarioFiles, type CheckOptions } from './check.js';
