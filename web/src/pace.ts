/**
 * How long the replay of a turn lasts at 1×, from its events alone: the same steps and beats the
 * page plays (web/src/steps.ts, web/src/timeline.ts) and the same durations (web/src/animate.ts
 * and web/src/replay.ts take theirs from here). No page here: the race server imports it
 * (`@roborally/web/pace`) to bound how long a live race's clock waits for the replay to be watched,
 * once for every turn it plays, so the steps' pictures are not made (a third of what the server's
 * event loop allocated, issue 13): the beats' actions only, step by step as `steps` cuts them.
 */
import { stepMoments, turnSteps, type GameEvent } from '../../engine/src/index.js';
import { apply, robotsFromView } from './steps.js';
import { beatActions, type Action } from './timeline.js';

/**
 * Milliseconds at 1× for each kind of action; a beat lasts as long as its longest. Brisk, as a game
 * plays: a square's glide a fifth of a second, a register of four robots about two seconds (it
 * was 380 ms a glide, 250 ms between steps: a turn of four robots played 12–20 s, some 34 s).
 */
const DURATION: Readonly<Record<Action['kind'], number>> = { move: 200, turn: 200, fall: 300, wreck: 300, beam: 320, hit: 320, flag: 320, enter: 200, element: 200 };
/** A U-turn takes half as long again as a quarter turn. */
const UTURN = 1.5;
/** The pause between two steps, at 1×. */
export const STEP_GAP_MS = 60;
/** With reduced motion each step is a picture shown this long, at 1×. */
export const STILL_STEP_MS = 500;

/** An action's length at 1×. */
export const actionMs = (a: Action): number => DURATION[a.kind] * (a.kind === 'turn' && a.quarter === 2 ? UTURN : 1);

/** A beat's length at 1×: its longest action (an empty beat passes at once). */
const beatMs = (actions: readonly Action[]): number => Math.max(0, ...actions.map(actionMs));

/** A turn's replay at 1×, from the robots as it began (public view) and its events: its steps, and its length animated and with reduced motion. */
export function replayLengths(view: Parameters<typeof robotsFromView>[0], events: readonly GameEvent[]): { steps: number; animated: number; still: number } {
  // As `steps` goes: each step's beats from where the step before ended.
  const robots = robotsFromView(view);
  const cut = turnSteps(events);
  let animated = 0;
  for (const t of cut) {
    for (const actions of beatActions(robots, stepMoments(t))) animated += beatMs(actions);
    for (const e of t.events) apply(robots, e);
  }
  // Last, `steps`' whole turn at once: a picture, nothing to animate.
  const count = cut.length + 1;
  const gaps = (count - 1) * STEP_GAP_MS;
  return { steps: count, animated: animated + gaps, still: count * STILL_STEP_MS + gaps };
}

/** The replay of a turn at 1×: the longer of animated and reduced motion. */
export function replayMs(robots: Parameters<typeof robotsFromView>[0], events: readonly GameEvent[]): number {
  const { animated, still } = replayLengths(robots, events);
  return Math.max(animated, still);
}
