/**
 * Cards and events in words, for the program and the replay: "Move 2 (670)", "Bolt is shot by
 * Ava's Tractor Beam". No page here, so it is tested without a browser.
 */
import { cardName, type Card, type GameEvent } from '../../engine/src/index.js';

const CARD_WORDS: Record<string, string> = { F1: 'Move 1', F2: 'Move 2', F3: 'Move 3', B: 'Back up', L: 'Turn left', R: 'Turn right', U: 'U-turn' };
/** "Move 2 (670)" for F2:670, "Move 2" for the pbem F2. */
export function cardWords(name: string): string {
  const [code, priority] = name.split(':');
  return `${CARD_WORDS[code!] ?? code}${priority ? ` (${priority})` : ''}`;
}

const LETTER = ['N', 'E', 'S', 'W'];
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const cardText = (c: Card) => cardWords(cardName(c));

/** One line per event worth telling in a step's list; null for those that are not. */
export const describe = (names: readonly string[]) => (e: GameEvent): string | null => {
  const n = 'robot' in e ? names[e.robot] : '';
  const by = (i: number) => names[i] ?? `robot ${i}`;
  switch (e.type) {
    case 'reentered': return `${n} re-enters at (${e.x},${e.y}) facing ${LETTER[e.dir]}`;
    case 'poweredDown': return `${n} is powered down`;
    case 'programmed': return e.filled.length ? `${n}: registers ${e.filled.map((f) => f.register).join(', ')} filled at random` : null;
    case 'moved': case 'pushed': case 'carried': case 'slid':
      return `${n} ${e.type === 'moved' ? 'moves' : e.type === 'pushed' ? 'is pushed' : e.type === 'carried' ? 'rides a belt' : 'slides'} to (${e.to[0]},${e.to[1]})`;
    case 'teleported': return `${n} is teleported to (${e.to[0]},${e.to[1]})`;
    case 'turned': return `${n} turns to face ${LETTER[e.to]}`;
    case 'blocked': return `${n} is blocked`;
    case 'shot': {
      const weapon = !e.weapon || e.weapon === 'main' ? '' : e.weapon === 'rear' ? '\'s rear laser' : `'s ${e.weapon}`;
      return `${n} is shot by ${'robot' in e.by ? `${by(e.by.robot)}${weapon}` : 'a board laser'}`;
    }
    case 'blockedShot': return `${n}'s ${e.by} stops ${plural(e.points, 'point')} of damage`;
    case 'exchanged': return `${n} discards ${e.option} instead of a point of damage`;
    case 'markerLocked': return `${by(e.by)}'s Fire Control locks ${n}'s register ${e.register}`;
    case 'optionDestroyed': return `${by(e.by)}'s Fire Control destroys ${n}'s ${e.option}`;
    case 'rammed': return `${by(e.by)} rams ${n}: ${plural(e.points, 'point')} of damage`;
    case 'scrambled': return `${by(e.by)}'s Scrambler scrambles ${n}'s register ${e.register}: now ${cardText(e.card)}`;
    case 'radioControlled': return `${by(e.by)} radio-controls ${n}: register${e.registers.length === 1 ? '' : 's'} ${e.registers.join(', ')} play ${by(e.by)}'s cards`;
    case 'aborted': return `${n}'s Abort Switch: register ${e.register} now holds ${cardText(e.card)}`;
    case 'swapped': return `${n}'s Conditional Program puts ${cardText(e.card)} in register ${e.register}`;
    case 'stored': return `${n}'s Flywheel keeps a card for the next turn`;
    case 'recompiled': return `${n} recompiles: a new hand of ${plural(e.cards, 'card')}`;
    case 'optionDrawn': return `${n} draws ${e.option}`;
    case 'optionUsed': return `${n} uses ${e.option}`;
    case 'optionDiscarded': return `${n} discards ${e.option} (${e.why})`;
    case 'optionRecharged': return `${n} recharges ${e.option}`;
    case 'optionLost': return `${n} loses ${e.option}`;
    case 'circuitBreaker': return `${n}'s Circuit Breaker trips at ${plural(e.damage, 'damage point')}: powered down next turn`;
    case 'damaged': return `${n} has ${e.damage} damage`;
    case 'locked': return `${n}: register ${e.registers.join(', ')} locked`;
    case 'destroyed': return `${n} is destroyed (${e.cause})`;
    case 'out': return `${n} is out of the race`;
    case 'flagTouched': return `${n} touches flag ${e.flag}`;
    case 'finished': return `${n} finishes, place ${e.place}`;
    case 'repaired': return `${n} is repaired to ${e.damage} damage`;
    case 'upgraded': return `${n} gets ${e.option}`;
    default: return null;
  }
};
