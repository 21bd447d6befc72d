/** The RoboRally rules engine: a pure library (no I/O, no clock, no Math.random). */
export * from './result.js';
export * from './geometry.js';
export * from './cards.js';
export * from './board.js';
export * from './events.js';
export * from './settings.js';
export * from './state.js';
export type { Setup } from './context.js';
export type { RuleSet, RegisterStep, Reentry } from './rules/ruleset.js';
export { classic } from './rules/classic.js';
export { pbem } from './rules/pbem.js';
export * from './game.js';
export * from './turn.js';
export * from './text.js';
export * from './course.js';
export * from './paths.js';
export * from './validate.js';
