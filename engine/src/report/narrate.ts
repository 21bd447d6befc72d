/**
 * The one narrator of events: a sentence for every kind of event the engine emits, used by the
 * turn report's text, the mails, the CLI and the web's replay. `narrate` tells one event;
 * `narrateEvents` tells a batch (a turn's start, one register, a turn's end) the way a reader
 * follows it: a card's steps as one move, the pushes it makes as one push per robot, a lone shot
 * with its damage. A new kind of event does not compile until it has its sentence here.
 */
import { type Board, wallAt } from '../board.js';
import { cardName, cardType, type Card } from '../cards.js';
import type { GameEvent, PushSource, ShotSource } from '../events.js';
import { dirName, type Dir, type Square } from '../geometry.js';
import { cardWords } from '../notation.js';


export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
/** "1", "1 and 2", "1, 2 and 5". */
export const list = (xs: readonly (string | number)[]): string =>
  xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
export const ordinal = (n: number): string => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
};
const TURN_WORDS: Record<number, string> = { 1: 'right', 2: 'around', 3: 'left' };
const turnWord = (from: number, to: number): string => TURN_WORDS[(to - from + 4) & 3] ?? 'nowhere';
const DESTROYED: Record<string, string> = { pit: 'fell into a pit', edge: 'fell off the board', damage: 'too much damage', crusher: 'crushed' };
const REGISTERS = (rs: readonly number[]) => `${rs.length === 1 ? 'register' : 'registers'} ${list(rs.slice().sort((a, b) => a - b))}`;

/** What a narration needs besides the events: the robots' names, and the board for squares and walls. */
export interface Narration {
  readonly names: readonly string[];
  readonly board?: Board;
}

/** A square, or "off the board" for one past the board's edge. */
function at(p: readonly [number, number], b?: Board): string {
  return b && (p[0] < 0 || p[1] < 0 || p[0] >= b.width || p[1] >= b.height) ? 'off the board' : `(${p[0]},${p[1]})`;
}
/** Where a move ends: `to (x,y)`, or `off the board`. */
function dest(p: readonly [number, number], b?: Board): string {
  const a = at(p, b);
  return a.startsWith('(') ? `to ${a}` : a;
}

/** Who pushed: a robot's name, a pusher, a repulsor field. */
export function pushSource(src: PushSource, name: (i: number) => string): string {
  return 'robot' in src ? name(src.robot) : 'pusher' in src ? `pusher ${src.pusher + 1}` : `the repulsor field at (${src.repulsor.join(',')})`;
}
/** Who shot: a robot (and the weapon if not its main laser), or the board laser at a square. */
function shotSource(src: ShotSource, e: Extract<GameEvent, { type: 'shot' }>, name: (i: number) => string): string {
  if ('laser' in src) return `the board laser at (${e.from[0]},${e.from[1]})`;
  const weapon = !e.weapon || e.weapon === 'main' ? '' : e.weapon === 'rear' ? "'s rear laser" : `'s ${e.weapon}`;
  return `${name(src.robot)}${weapon}`;
}
/** What stopped a move that went nowhere: a wall, or robots that could not be pushed. */
function blockedBy(e: Extract<GameEvent, { type: 'blocked' }>, b?: Board): string {
  if (!b) return `going ${dirName(e.dir)} from (${e.x},${e.y})`;
  return wallAt(b, e.x, e.y, e.dir as Dir) ? `a wall on the ${dirName(e.dir)} side of (${e.x},${e.y})` : `robots that cannot be pushed, ${dirName(e.dir)} of (${e.x},${e.y})`;
}

/**
 * A program completed at random, in 001's moderator's words (001 L83 "An illegal or missing
 * instruction will be replaced with a random available instruction from your list", L393
 * "Missing the deadline results in your robot being programmed randomly"), each reason once.
 */
function filledSentence(robot: string, filled: Extract<GameEvent, { type: 'programmed' }>['filled']): string {
  const of = (reason: string) => filled.filter((f) => f.reason === reason).map((f) => f.register);
  const parts: string[] = [];
  const missing = of('missing');
  if (missing.length) parts.push(`no program by the deadline, so ${REGISTERS(missing)} ${missing.length === 1 ? 'is' : 'are'} programmed randomly`);
  const chosen = of('chosen');
  if (chosen.length) parts.push(`${REGISTERS(chosen)} left to chance as ordered, so ${chosen.length === 1 ? 'it gets a random available instruction' : 'they get random available instructions'} from the list`);
  const illegal = of('illegal');
  if (illegal.length) parts.push(`the illegal instruction${illegal.length === 1 ? '' : 's'} in ${REGISTERS(illegal)} replaced with ${illegal.length === 1 ? 'a random available instruction' : 'random available instructions'} from the list`);
  const unreadable = of('unreadable');
  if (unreadable.length) parts.push(`the stored orders for ${REGISTERS(unreadable)} unreadable, replaced with ${unreadable.length === 1 ? 'a random available instruction' : 'random available instructions'}`);
  return `${robot}: ${parts.join('; ')}`;
}

/** One event in one sentence. Every kind has one (the switch is exhaustive). */
export function narrate(e: GameEvent, n: Narration): string {
  const name = (i: number): string => n.names[i] ?? `robot ${i + 1}`;
  const b = n.board;
  switch (e.type) {
    case 'turnBegan': return `Turn ${e.turn} begins`;
    case 'registerBegan': return `Register ${e.register}`;
    case 'turnEnded': return `Turn ${e.turn} ends`;
    case 'dealt': return `${name(e.robot)} is dealt ${plural(e.cards, 'card')}`;
    case 'programmed':
      return e.filled.length ? filledSentence(name(e.robot), e.filled) : `${name(e.robot)}'s program is in`;
    case 'revealed':
      return `${name(e.robot)} reveals ${cardWords(cardName(e.card))}${e.joined ? ` + ${cardWords(cardName(e.joined))}` : ''} in register ${e.register}${e.copy ? ' (a copy)' : ''}`;
    case 'reentered':
      return `${name(e.robot)} re-enters at (${e.x},${e.y}) facing ${dirName(e.dir)} with ${e.damage} damage${e.virtual ? ', as a virtual robot' : ''}${e.poweredDown ? ', powered down' : ''}`;
    case 'faced': return `${name(e.robot)} starts facing ${dirName(e.dir)}`;
    case 'poweredDown': return `${name(e.robot)} is powered down this turn`;
    case 'poweredUp': return `${name(e.robot)} powers up again`;
    case 'powerDownAnnounced': return `${name(e.robot)} announces a power down for next turn`;
    case 'powerDownCancelled': return `${name(e.robot)}'s power down for next turn is cancelled`;
    case 'moved': return `${name(e.robot)} moves from ${at(e.from, b)} ${dest(e.to, b)}`;
    case 'pushed': return `${name(e.robot)} is pushed by ${pushSource(e.by, name)} from ${at(e.from, b)} ${dest(e.to, b)}`;
    case 'carried': return `${name(e.robot)} is carried by the ${e.express ? 'express belt' : 'belt'} from ${at(e.from, b)} ${dest(e.to, b)}`;
    case 'blocked': return `${name(e.robot)} is blocked by ${blockedBy(e, b)}`;
    case 'slipped': return `${name(e.robot)} starts on oil and loses its first square`;
    case 'slid': return `${name(e.robot)} slides on the oil from ${at(e.from, b)} ${dest(e.to, b)}`;
    case 'teleported': return `${name(e.robot)} goes through the portal at (${e.from.join(',')}) and comes out at (${e.to.join(',')})`;
    case 'rampSlide': return `${name(e.robot)} stops on the ramp and slides back down to (${e.x},${e.y})`;
    case 'ledgeDrop': return `${name(e.robot)} drops down a ledge: ${plural(e.points, 'point')} of damage`;
    case 'turned':
      return e.by === 'card'
        ? `${name(e.robot)} turns ${turnWord(e.from, e.to)}, now facing ${dirName(e.to)}`
        : e.by === 'fold' ? `${name(e.robot)} goes over the fold of the cube, now facing ${dirName(e.to)}`
        : `${name(e.robot)} is turned ${turnWord(e.from, e.to)} by the ${e.by}, now facing ${dirName(e.to)}`;
    case 'shot': return `${name(e.robot)} is shot by ${shotSource(e.by, e, name)}${e.points > 1 ? ` (${e.points} points)` : ''}`;
    case 'blockedShot': return `${name(e.robot)}'s ${e.by} stops ${plural(e.points, 'point')} of damage`;
    case 'exchanged': return `${name(e.robot)} discards ${e.option} instead of a point of damage`;
    case 'markerLocked': return `${name(e.by)}'s Fire Control locks ${name(e.robot)}'s register ${e.register}`;
    case 'optionDestroyed': return `${name(e.by)}'s Fire Control destroys ${name(e.robot)}'s ${e.option}`;
    case 'rammed': return `${name(e.by)} rams ${name(e.robot)}: ${plural(e.points, 'point')} of damage`;
    case 'scrambled': return `${name(e.by)}'s Scrambler scrambles ${name(e.robot)}'s register ${e.register}: now ${cardWords(cardName(e.card))}`;
    case 'radioControlled': return `${name(e.by)} radio-controls ${name(e.robot)}: ${REGISTERS(e.registers)} play ${name(e.by)}'s cards`;
    case 'aborted': return `${name(e.robot)}'s Abort Switch: register ${e.register} now holds ${cardWords(cardName(e.card))}`;
    case 'swapped': return `${name(e.robot)}'s Conditional Program puts ${cardWords(cardName(e.card))} in register ${e.register}`;
    case 'stored': return `${name(e.robot)}'s Flywheel keeps a card for the next turn`;
    case 'recompiled': return `${name(e.robot)} recompiles: a new hand of ${plural(e.cards, 'card')}`;
    case 'optionDrawn': return `${name(e.robot)} draws ${e.option}`;
    case 'optionUsed': return `${name(e.robot)} uses ${e.option}`;
    case 'optionDiscarded':
      return e.why === 'spent' ? `${name(e.robot)}'s ${e.option} is used up`
        : e.why === 'scrapped' ? `${name(e.robot)} scraps ${e.option} at the chop shop`
          : e.why === 'destroyed' ? `${name(e.robot)}'s ${e.option} is destroyed`
            : `${name(e.robot)} gives up ${e.option}`;
    case 'optionRecharged': return `${name(e.robot)} recharges ${e.option} at the chop shop`;
    case 'optionLost': return `${name(e.robot)} loses ${e.option}`;
    case 'circuitBreaker': return `${name(e.robot)}'s Circuit Breaker trips at ${plural(e.damage, 'damage point')}: powered down next turn`;
    case 'damaged': return `${name(e.robot)} takes ${e.points} damage (${e.damage} total)`;
    case 'locked': return `${name(e.robot)}: ${REGISTERS(e.registers)} locked`;
    case 'unlocked': return `${name(e.robot)}: ${REGISTERS(e.registers)} unlocked`;
    case 'destroyed':
      return `${name(e.robot)} is destroyed (${DESTROYED[e.cause]}${e.pushedBy ? `, pushed by ${pushSource(e.pushedBy, name)}` : ''})${e.lives > 0 ? `: ${plural(e.lives, 'life', 'lives')} left` : ''}`;
    case 'out': return `${name(e.robot)} is out of the race`;
    case 'flagTouched': return `${name(e.robot)} touches flag ${e.flag}`;
    case 'archived': return `${name(e.robot)}'s archive moves to (${e.x},${e.y})`;
    case 'finished': return `${name(e.robot)} has touched the last flag: ${ordinal(e.place)} place!`;
    case 'repaired':
      return e.by === 'powerDown'
        ? `${name(e.robot)} is powered down: ${e.points} damage discarded (${e.damage} left)`
        : `${name(e.robot)} repairs ${e.points} damage on the ${e.by === 'flag' ? 'flag' : 'repair site'} (${e.damage} left)`;
    case 'upgraded': return `${name(e.robot)} is upgraded with ${e.option}`;
    case 'offered': return `the upgrade site at (${e.x},${e.y}) offers ${e.option}`;
    case 'becameReal': return `${name(e.robot)} is no longer virtual`;
    case 'dieHit': return `the die on flag ${e.flag} takes ${plural(e.points, 'point')} (${e.left ? `${e.left} left` : 'destroyed: the flag is open'})`;
    default:
      return e satisfies never;
  }
}

interface MoveLine { kind: 'move'; robot: number; from?: Square; to?: Square; blocked?: string }
interface PushLine { kind: 'push'; robot: number; by: string; from: Square; to: Square }
interface ShotLine { kind: 'shot'; robot: number; by: string; points: number; total?: number }
/** The cards revealed in a register, in the order they run. */
interface CardsLine { kind: 'cards'; cards: string[] }
type Entry = string | MoveLine | PushLine | ShotLine | CardsLine;

/** Events a batch leaves to its reader: the headings of turns, and the deals (the caller shows the hand). */
const UNTOLD = new Set<GameEvent['type']>(['turnBegan', 'turnEnded', 'dealt', 'optionUsed']);

/**
 * Sentences for a batch of events (a turn's start, one register, a turn's end). A card's steps
 * are told as one move, the pushes it makes as one push per robot, a lone shot with its damage;
 * every other event by `narrate`.
 */
export function narrateEvents(events: readonly GameEvent[], n: Narration): string[] {
  const name = (i: number): string => n.names[i] ?? `robot ${i + 1}`;
  const b = n.board;
  const out: Entry[] = [];
  const cards = new Map<number, Card>();
  const moves = new Map<number, MoveLine>();
  const pushes = new Map<string, PushLine>();
  const shots = new Map<number, ShotLine[]>();
  let revealed: CardsLine | null = null;
  const moveOf = (i: number): MoveLine => {
    let m = moves.get(i);
    if (!m) {
      m = { kind: 'move', robot: i };
      moves.set(i, m);
      out.push(m);
    }
    return m;
  };
  for (const e of events) {
    if (e.type !== 'revealed') revealed = null;
    if (UNTOLD.has(e.type)) continue;
    switch (e.type) {
      case 'registerBegan':
        out.push(`--- Register ${e.register} ---`);
        break;
      case 'revealed':
        cards.set(e.robot, e.card);
        if (!revealed) {
          revealed = { kind: 'cards', cards: [] };
          out.push(revealed);
        }
        revealed.cards.push(`${name(e.robot)} ${cardName(e.card)}${e.joined ? `+${cardName(e.joined)}` : ''}`);
        break;
      case 'programmed':
      case 'unlocked':
        if (e.type === 'programmed' ? e.filled.length : e.registers.length) out.push(narrate(e, n));
        break;
      case 'turned':
        if (e.by === 'card') {
          const c = cards.get(e.robot);
          out.push(`${name(e.robot)} turns ${turnWord(e.from, e.to)}${c ? ` ${cardName(c)}` : ''}, now facing ${dirName(e.to)}`);
        } else out.push(narrate(e, n));
        break;
      case 'moved': {
        const m = moveOf(e.robot);
        m.from ??= e.from;
        m.to = e.to;
        break;
      }
      case 'pushed': {
        if ('robot' in e.by) moveOf(e.by.robot); // the pusher's move is told first
        const src = 'robot' in e.by ? `r${e.by.robot}` : 'pusher' in e.by ? `p${e.by.pusher}` : `f${e.by.repulsor.join(',')}`;
        const key = `${e.robot}/${src}`;
        const p = pushes.get(key);
        if (p) p.to = e.to;
        else {
          const line: PushLine = { kind: 'push', robot: e.robot, by: pushSource(e.by, name), from: e.from, to: e.to };
          pushes.set(key, line);
          out.push(line);
        }
        break;
      }
      case 'blocked':
        moveOf(e.robot).blocked = blockedBy(e, b);
        break;
      case 'shot': {
        const line: ShotLine = { kind: 'shot', robot: e.robot, by: shotSource(e.by, e, name), points: e.points };
        shots.set(e.robot, [...(shots.get(e.robot) ?? []), line]);
        out.push(line);
        break;
      }
      case 'damaged': {
        const hit = shots.get(e.robot) ?? [];
        if (hit.length === 1 && hit[0]!.points === e.points) hit[0]!.total = e.damage;
        else if (hit.length > 1) out.push(`${name(e.robot)} now has ${e.damage} damage`);
        else out.push(narrate(e, n));
        break;
      }
      default:
        out.push(narrate(e, n));
    }
  }
  return out.map((x) => {
    if (typeof x === 'string') return x;
    switch (x.kind) {
      case 'cards':
        return `Cards: ${x.cards.join(', ')}`;
      case 'move': {
        const c = cards.get(x.robot);
        const card = c ? ` ${cardName(c)}` : '';
        const verb = c && cardType(c) === 'B' ? 'backs up' : 'moves';
        if (!x.from) return `${name(x.robot)} plays${card} but is blocked by ${x.blocked ?? 'something'}`;
        return `${name(x.robot)} ${verb}${card} from ${at(x.from, b)} ${dest(x.to!, b)}${x.blocked ? `, stopped by ${x.blocked}` : ''}`;
      }
      case 'push':
        return `${name(x.robot)} is pushed by ${x.by} from ${at(x.from, b)} ${dest(x.to, b)}`;
      case 'shot':
        return `${name(x.robot)} is shot by ${x.by}: ${x.points} damage${x.total !== undefined ? ` (${x.total} total)` : ''}`;
    }
  });
}
