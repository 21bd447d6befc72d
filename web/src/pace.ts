/**
 * How long the replay of a turn lasts at 1×, from its events alone: the same steps and beats the
 * page plays (web/src/steps.ts, web/src/timeline.ts) and the same durations (web/src/animate.ts
 * and web/src/replay.ts take theirs from here). No page here: the race server imports it
 * (`@roborally/web/pace`) to bound how long a live race's clock waits for the replay to be watched.
 */
import type { GameEvent } from '../../engine/src/index.js';
import { robotsFromView, steps } from './steps.js';
import type { Action, Beat } from './timeline.js';

/** Milliseconds at 1× for each kind of action; a beat lasts as long as its longest. */
const DURATION: Readonly<Record<Action['kind'], number>> = { move: 380, turn: 380, fall: 520, wreck: 520, beam: 600, hit: 600, flag: 600, enter: 300, element: 380 };
/** A U-turn takes half as long again as a quarter turn. */
const UTURN = 1.5;
/** The pause between two steps, at 1×. */
export const STEP_GAP_MS = 250;
/** With reduced motion each step is a picture shown this long, at 1×. */
export const STILL_STEP_MS = 900;

/** An action's length at 1×. */
export const actionMs = (a: Action): number => DURATION[a.kind] * (a.kind === 'turn' && a.quarter === 2 ? UTURN : 1);

/** A beat's length at 1×: its longest action (an empty beat passes at once). */
const beatMs = (b: Beat): number => Math.max(0, ...b.actions.map(actionMs));

/** A turn's replay at 1×, from the robots as it began (public view) and its events: its steps, and its length animated and with reduced motion. */
export function replayLengths(robots: Parameters<typeof robotsFromView>[0], events: readonly GameEvent[]): { steps: number; animated: number; still: number } {
  const all = steps(robotsFromView(robots), events);
  const gaps = Math.max(0, all.length - 1) * STEP_GAP_MS;
  const animated = all.reduce((sum, s) => sum + s.beats.reduce((t, b) => t + beatMs(b), 0), 0);
  return { steps: all.length, animated: animated + gaps, still: all.length * STILL_STEP_MS + gaps };
}

/** The replay of a turn at 1×: the longer of animated and reduced motion. */
export function replayMs(robots: Parameters<typeof robotsFromView>[0], events: readonly GameEvent[]): number {
  const { animated, still } = replayLengths(robots, events);
  return Math.max(animated, still);
}
