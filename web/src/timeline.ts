/**
 * A step of a replay cut into beats: what moves where, at the same moment, from the engine's
 * events alone (no rules run again). A robot's Move 3 is three beats, one square each; the robot
 * it pushes moves in the same beat as it; belts carry every robot at once, then turn them; a robot
 * moved onto a pit or off the edge falls in the next beat; lasers fire together and the robots hit
 * blink in that beat. What happens at once is the engine's word (`stepMoments`): each moment of a
 * step begins after the one before has ended (the robots a laser wrecks, once every beam has hit). Each beat holds the robots as they stand after it, so a test (or the table
 * beside the board) can ask where everyone is at any moment of the animation.
 */
import type { Dir, GameEvent } from '../../engine/src/index.js';

/** A step's events in the moments the engine cuts them into (`stepMoments`): one moment after another. */
export type Moments = readonly (readonly GameEvent[])[];
import { apply, type Robot } from './robots-state.js';

export type Cell = readonly [number, number];

/** One thing that happens in a beat, drawn by the player (web/src/animate.ts). */
export type Action =
  /**
   * A robot glides one square (or a belt's run, or a teleport): by its program, pushed, or carried.
   * `across`: the two squares are not side by side in the picture (a cube course's fold, 004 L179):
   * the robot leaves one and appears on the other, never gliding across the floor between them.
   */
  | { kind: 'move'; robot: number; from: Cell; to: Cell; how: 'programmed' | 'pushed' | 'carried' | 'teleported'; across?: true }
  /** A robot turns, by its card, a gear or a turning belt; `quarter` is +1 right, −1 left, 2 a U-turn. */
  | { kind: 'turn'; robot: number; from: Dir; to: Dir; quarter: number; by: 'card' | 'gear' | 'belt' | 'fold' }
  /** A robot falls into a pit or off the board's edge where it stands. */
  | { kind: 'fall'; robot: number; at: Cell; cause: 'pit' | 'edge' }
  /** A robot is destroyed where it stands: by damage or a crusher. */
  | { kind: 'wreck'; robot: number; at: Cell; cause: 'damage' | 'crusher' }
  /** A laser beam, from a board laser or a robot, to the square of the robot it hits. */
  | { kind: 'beam'; robot: number; from: Cell; to: Cell; source: 'board' | 'robot'; points: number }
  /** A robot hit (by a shot, a ram, a fall down a ledge…): it blinks. */
  | { kind: 'hit'; robot: number; points: number }
  /** A robot touches a flag: the flag lights. */
  | { kind: 'flag'; robot: number; flag: number }
  /** A robot enters the board again (at the turn's start). */
  | { kind: 'enter'; robot: number; at: Cell; dir: Dir }
  /** A board element at work: the pusher (by index) that pushes, the gear or the crusher at a square. */
  | { kind: 'element'; element: 'pusher'; pusher: number }
  | { kind: 'element'; element: 'gear' | 'crusher'; at: Cell };

export interface Beat {
  readonly actions: Action[];
  /** The robots after this beat. */
  readonly robots: Robot[];
}

/** Each move, push, slide and belt's carry is one square: between squares not side by side in the picture, a fold was crossed. */
const moveAction = (robot: number, from: Cell, to: Cell, how: 'programmed' | 'pushed' | 'carried' | 'teleported'): Action =>
  how !== 'teleported' && Math.abs(from[0] - to[0]) + Math.abs(from[1] - to[1]) > 1
    ? { kind: 'move', robot, from, to, how, across: true }
    : { kind: 'move', robot, from, to, how };

/** The action an event shows, if any (null for events with nothing to animate). */
function action(e: GameEvent, robots: readonly Robot[]): Action | null {
  switch (e.type) {
    case 'moved': case 'slid': return moveAction(e.robot, e.from, e.to, 'programmed');
    case 'teleported': return moveAction(e.robot, e.from, e.to, 'teleported');
    case 'pushed': return moveAction(e.robot, e.from, e.to, 'pushed');
    case 'carried': return moveAction(e.robot, e.from, e.to, 'carried');
    case 'turned': {
      const q = (((e.to - e.from) % 4) + 4) % 4;
      return { kind: 'turn', robot: e.robot, from: e.from, to: e.to, quarter: q === 3 ? -1 : q, by: e.by };
    }
    case 'destroyed': {
      const r = robots[e.robot]!;
      const at: Cell = [r.x, r.y];
      return e.cause === 'pit' || e.cause === 'edge' ? { kind: 'fall', robot: e.robot, at, cause: e.cause } : { kind: 'wreck', robot: e.robot, at, cause: e.cause };
    }
    case 'shot': return { kind: 'beam', robot: e.robot, from: e.from, to: e.to, source: 'laser' in e.by ? 'board' : 'robot', points: e.points };
    case 'damaged': return e.points > 0 ? { kind: 'hit', robot: e.robot, points: e.points } : null;
    case 'flagTouched': return { kind: 'flag', robot: e.robot, flag: e.flag };
    case 'reentered': return { kind: 'enter', robot: e.robot, at: [e.x, e.y], dir: e.dir };
    default: return null;
  }
}

/**
 * The beats of one step, from the robots as it begins and its events in their moments. Within a
 * moment each robot's motions take its next free beat, so belts carry everyone in the first beat
 * and turn them in the second; a pushed robot and the robot pushing it share one; every beam of
 * the moment fires in its first beat. Events with nothing to animate (and hits, flags) stay in the
 * beat of the event before them.
 */
export function beats(before: readonly Robot[], moments: Moments): Beat[] {
  const { placed, count } = place(before, moments);
  const now = before.map((r) => ({ ...r }));
  const out: Beat[] = [];
  for (let k = 0; k < count; k++) {
    const these = placed.filter((p) => p.beat === k);
    for (const p of these) apply(now, p.e);
    out.push({ actions: these.flatMap((p) => p.actions), robots: now.map((r) => ({ ...r })) });
  }
  return out;
}

/**
 * The actions of each of `beats`' beats, in the same order, without the robots' pictures: what a
 * replay's length needs (pace.ts; the race server computes one for every turn it plays).
 */
export function beatActions(before: readonly Robot[], moments: Moments): Action[][] {
  const { placed, count } = place(before, moments);
  const out: Action[][] = Array.from({ length: count }, () => []);
  for (const p of placed) out[p.beat]!.push(...p.actions);
  return out;
}

/** Which beat each event goes in, with its actions, and how many beats there are. */
function place(before: readonly Robot[], moments: Moments): { placed: { beat: number; e: GameEvent; actions: Action[] }[]; count: number } {
  const robots = before.map((r) => ({ ...r }));
  const next = new Map<number, number>();
  const placed: { beat: number; e: GameEvent; actions: Action[] }[] = [];
  // The first beat of the moment being placed: the one after the last beat of the moment before.
  let start = 0;
  const free = (i: number) => Math.max(start, next.get(i) ?? 0);
  let prev = 0;
  // How many beats the moments so far take.
  let count = 0;
  for (const [m, events] of moments.entries()) {
    if (m > 0) prev = start = count;
    for (const e of events) {
      // Where the robots stand as the events come, for the squares of falls, gears and crushers.
      const a = action(e, robots);
      let beat = prev;
      const actions: Action[] = [];
      if (a) {
        if (a.kind === 'turn' && a.by === 'fold') {
          // A fold crossed turns the robot as it crosses: in the beat of its move across.
          beat = Math.max(0, free(a.robot) - 1);
        } else if (a.kind === 'move' || a.kind === 'turn' || a.kind === 'fall' || a.kind === 'enter') {
          const pusher = e.type === 'pushed' && 'robot' in e.by ? e.by.robot : null;
          beat = Math.max(free(a.robot), pusher === null ? 0 : free(pusher));
          next.set(a.robot, beat + 1);
          // The pusher's own move, next in the events, goes in this beat.
          if (pusher !== null) next.set(pusher, beat);
        } else if (a.kind === 'wreck') {
          next.set(a.robot, Math.max(free(a.robot), beat + 1));
        } else if (a.kind === 'beam') {
          beat = start;
        }
        actions.push(a);
        if (e.type === 'pushed' && 'pusher' in e.by) actions.push({ kind: 'element', element: 'pusher', pusher: e.by.pusher });
        if (e.type === 'turned' && e.by === 'gear') actions.push({ kind: 'element', element: 'gear', at: [robots[e.robot]!.x, robots[e.robot]!.y] });
        if (e.type === 'destroyed' && e.cause === 'crusher') actions.push({ kind: 'element', element: 'crusher', at: [robots[e.robot]!.x, robots[e.robot]!.y] });
      }
      placed.push({ beat, e, actions });
      prev = beat;
      count = Math.max(count, beat + 1);
      apply(robots, e);
    }
  }
  return { placed, count: Math.max(1, count) };
}
