/**
 * How long a turn's programming phase lasts. A live race gives the policy's seconds, or with the
 * Three Minute Rule (004 L188) the rule's seconds to every person but first-timers ("Each player
 * (except for first timers) has no more than three minutes to program one's robot"): when that
 * time is up the late are filled at random while first-timers keep the policy's time. A scheduled
 * race keeps its clock time. A race with no person left plays at bot speed: its deadline is now.
 */
import type { Settings } from '../../engine/src/index.js';
import { nextDeadline, type DeadlinePolicy } from './deadline.js';

/** A person still racing: a human seat whose robot is not out. */
export interface Person {
  readonly firstTimer: boolean;
}

/** When the programming phase that begins `now` ends. */
export function turnDeadline(policy: DeadlinePolicy, settings: Settings, people: readonly Person[], now: number): number {
  if (!people.length) return now;
  if (policy.kind !== 'live') return nextDeadline(policy, now);
  const hurried = settings.threeMinuteRule !== undefined && people.some((p) => !p.firstTimer);
  return now + (hurried ? settings.threeMinuteRule! : policy.seconds) * 1000;
}

/**
 * The Three Minute Rule's time is up at `deadline` with first-timers still programming: the
 * first-timers' own deadline, the policy's seconds counted from the same start; null when the rule
 * does not apply (no rule, not live, or the first-timers' time is no longer).
 */
export function firstTimersDeadline(policy: DeadlinePolicy, settings: Settings, deadline: number): number | null {
  const t = settings.threeMinuteRule;
  if (t === undefined || policy.kind !== 'live' || policy.seconds <= t) return null;
  return deadline + (policy.seconds - t) * 1000;
}
