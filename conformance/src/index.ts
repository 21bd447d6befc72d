/** conformance: the scenario format of SCENARIOS.md, read (scenario.ts) and played against the engine (run.ts). */
export { checkScenario, type ScenarioResult, type Verdict } from './run.js';
export { parseScenario, type Expect, type ExpectRobot, type Scenario, type TurnSpec } from './scenario.js';
