/**
 * A robot's next flag and where it is from the robot, in words a player can act on: the one home
 * of "where do I go now" for the mail, the CLI and the web (the rules: 000 L73, L135; 001 L167).
 */
import type { Setup } from './context.js';
import type { Square } from './geometry.js';
import type { GameState } from './state.js';

export interface NextFlag {
  /** The next flag's number (1 = the first), or null once the robot has touched them all. */
  readonly flag: number | null;
  /** Where it stands, null once every flag is touched. */
  readonly at: Square | null;
  /** What the player reads: the flag, its square, and how far it is east or west and north or south. */
  readonly text: string;
}

const way = (n: number, plus: string, minus: string): string =>
  `${Math.abs(n)} square${Math.abs(n) === 1 ? '' : 's'} ${n > 0 ? plus : minus}`;

/**
 * The next flag of robot `robot`: flags count only in order, so it is flag `flags + 1`, measured
 * from the robot's square, or, while it is off the board, from its archive marker (its start
 * before it has one), where it re-enters (000 L271-275; 001 L307). Under the Dice Rule a die still
 * on the flag is said, with the damage it can still absorb (004 L182). On a cube course the squares
 * are the net's, as the picture lays it out. Null in RoboArena (no flag counts, 004 L192) and for a
 * robot out of the race.
 */
export function nextFlag(setup: Pick<Setup, 'board' | 'settings'>, st: GameState, robot: number): NextFlag | null {
  const r = st.robots[robot]!;
  const flags = setup.board.flags;
  if (setup.settings.variant === 'arena' || r.status === 'out') return null;
  if (r.flags >= flags.length) return { flag: null, at: null, text: `Every flag touched (${flags.length} of ${flags.length}).` };
  const at = flags[r.flags]!;
  const on = r.status === 'active';
  const [fx, fy]: Square = on ? [r.x, r.y] : (r.archive ?? r.start);
  const dx = at[0] - fx, dy = at[1] - fy;
  const from = on ? 'you' : `your ${r.archive ? 'archive marker' : 'start'} at (${fx},${fy}), where your robot re-enters`;
  const where = dx || dy ? `${[dx ? way(dx, 'east', 'west') : '', dy ? way(dy, 'south', 'north') : ''].filter(Boolean).join(' and ')} of ${from}` : `on the square of ${from}`;
  const die = st.dice[r.flags] ?? 0;
  return {
    flag: r.flags + 1,
    at,
    text: [
      `Next: flag ${r.flags + 1} of ${flags.length} at (${at[0]},${at[1]}), ${where}.`,
      ...(die > 0 ? [`A die blocks it until shot away: it absorbs ${die} more damage (Dice Rule).`] : []),
      ...(setup.board.fold ? ['Squares as the picture lays the cube out: over a fold the way may be shorter.'] : []),
    ].join(' '),
  };
}
