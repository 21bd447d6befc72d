/**
 * Cards and events in words, for the program and the replay: "Move 2 (670)", "Bolt is shot by
 * Ava's Tractor Beam", by the engine's narrator. No page here, so it is tested without a browser.
 */
import { narrate, type GameEvent } from '../../engine/src/index.js';

export { cardWords } from '../../engine/src/index.js';

/** Shown elsewhere in the replay (the turn's and register's headings, the cards revealed) or nothing to tell. */
const SHOWN_ELSEWHERE = new Set<GameEvent['type']>(['turnBegan', 'registerBegan', 'turnEnded', 'dealt', 'revealed']);

/** One line per event worth telling in a step's list; null for those that are not. */
export const describe = (names: readonly string[]) => (e: GameEvent): string | null =>
  SHOWN_ELSEWHERE.has(e.type) || (e.type === 'programmed' && !e.filled.length) ? null : narrate(e, { names });

/** What a turn's result tells: a robot destroyed or out, a flag touched, a finish. */
const RESULT = new Set<GameEvent['type']>(['destroyed', 'out', 'flagTouched', 'finished']);

/**
 * The turn's result in a few lines, the viewer's robot (`you`) first: each robot destroyed or out,
 * each flag touched and each finish (the engine's sentences), then the damage each robot still on
 * the floor took ("Bolt takes 2 damage (3 total)"), from the robots as the turn began and as it
 * ended; the viewer's robot on the floor with nothing else to tell "takes no damage".
 */
export function turnResult(names: readonly string[], events: readonly GameEvent[], before: readonly { damage: number }[], after: readonly { damage: number; status: string }[], you?: number): { robot: number; text: string }[] {
  const said = events.filter((e): e is Extract<GameEvent, { robot: number }> => RESULT.has(e.type) && 'robot' in e);
  const told = said.map((e) => ({ robot: e.robot, text: narrate(e, { names }) }));
  const wrecked = new Set(said.filter((e) => e.type === 'destroyed' || e.type === 'out').map((e) => e.robot));
  const hurt = after.flatMap((r, k) => (!wrecked.has(k) && r.status === 'active' && r.damage > before[k]!.damage ? [{ robot: k, text: `${names[k]} takes ${r.damage - before[k]!.damage} damage (${r.damage} total)` }] : []));
  const lines = [...told, ...hurt];
  // The viewer's robot always, first; the rest in the order they came.
  if (you !== undefined && after[you]?.status === 'active' && !lines.some((l) => l.robot === you)) lines.push({ robot: you, text: `${names[you]} takes no damage` });
  return lines.sort((a, b) => +(b.robot === you) - +(a.robot === you));
}
