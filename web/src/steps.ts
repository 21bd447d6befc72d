/**
 * A played turn cut into the steps of its replay: the engine's steps and headings (`turnSteps`,
 * `stepHeading`, engine/src/report/steps.ts), each with the robots as they stand before and after
 * it and its beats (web/src/timeline.ts); last, the whole turn at once.
 */
import { cardName, stepHeading, stepMoments, turnSteps, type GameEvent } from '../../engine/src/index.js';
import { apply, type Robot } from './robots-state.js';
import { beats, type Beat } from './timeline.js';

export { apply, robotsFromView, type Robot } from './robots-state.js';

export interface Step {
  /** 0 before the registers, 1 to 5, 6 after them. */
  readonly register: number;
  readonly label: string;
  readonly events: GameEvent[];
  /** The events of its register up to and including this step (or of the step outside registers). */
  readonly registerEvents: GameEvent[];
  readonly robots: Robot[];
  /** The robots as the step begins. */
  readonly before: Robot[];
  /** The step as it is animated: what moves at once, one beat after another (web/src/timeline.ts). */
  readonly beats: Beat[];
  /** The cards revealed in its register so far, in the order the robots move (a joined card; Radio Control's copy). */
  readonly cards: { robot: number; card: string; joined?: string; copy?: boolean }[];
}

/** The steps of a turn, from the robots as it began and its events. */
export function steps(start: readonly Robot[], events: readonly GameEvent[]): Step[] {
  const names = start.map((r) => r.name);
  const robots = start.map((r) => ({ ...r }));
  const out: Step[] = turnSteps(events).map((t) => {
    const before = robots.map((r) => ({ ...r }));
    for (const e of t.events) apply(robots, e);
    return {
      register: t.register, label: stepHeading(t, names), events: t.events, registerEvents: t.registerEvents,
      robots: robots.map((r) => ({ ...r })), before, beats: beats(before, stepMoments(t)),
      cards: t.revealed.map((c) => ({ robot: c.robot, card: cardName(c.card), ...(c.joined ? { joined: cardName(c.joined) } : {}), ...(c.copy ? { copy: true } : {}) })),
    };
  });
  // Last, the whole turn at once: every move as 001's picture draws it.
  out.push({ register: 6, label: 'The whole turn', events: [], registerEvents: events.filter((e) => e.type !== 'shot'), robots: robots.map((r) => ({ ...r })), before: start.map((r) => ({ ...r })), beats: [{ actions: [], robots: robots.map((r) => ({ ...r })) }], cards: [] });
  return out;
}
