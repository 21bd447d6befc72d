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
