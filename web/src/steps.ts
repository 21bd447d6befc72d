/**
 * A played turn cut into the steps of its replay, from the engine's events alone: the start of the
 * turn, then per register the cards revealed, each robot's move in priority order (with the robots
 * it pushes), and each kind of board element (belts, pushers, gears, crushers, lasers, flags), then
 * the end of the turn. Each step holds the robots as they stand after it; `describe` tells its
 * events in words, options' among them.
 */
import { WEAPONS, cardName, parseDir, type Card, type Dir, type GameEvent } from '../../engine/src/index.js';
import type { RobotOnFloor } from '../../render/src/overlay.js';
import type { PublicRobot } from './api.js';

export interface Robot extends RobotOnFloor {
  lives: number;
  flags: number;
}

export interface Step {
  /** 0 before the registers, 1 to 5, 6 after them. */
  readonly register: number;
  readonly label: string;
  readonly events: GameEvent[];
  /** The events of its register up to and including this step (or of the step outside registers). */
  readonly registerEvents: GameEvent[];
  readonly robots: Robot[];
  /** The cards revealed in its register so far, in the order the robots move (a joined card; Radio Control's copy). */
  readonly cards: { robot: number; card: string; joined?: string; copy?: boolean }[];
}

export const robotsFromView = (rs: readonly PublicRobot[]): Robot[] =>
  rs.map((r) => ({ name: r.name, x: r.x, y: r.y, dir: parseDir(r.dir) as Dir, damage: r.damage, status: r.status, virtual: r.virtual, poweredDown: r.poweredDown, lives: r.lives, flags: r.flags }));

/** What an event does to the robots a picture shows. */
export function apply(robots: Robot[], e: GameEvent): void {
  switch (e.type) {
    case 'moved': case 'pushed': case 'carried': case 'slid': case 'teleported': {
      const r = robots[e.robot]!;
      [r.x, r.y] = e.to;
      break;
    }
    case 'turned':
      robots[e.robot]!.dir = e.to;
      break;
    case 'damaged': case 'repaired':
      robots[e.robot]!.damage = e.damage;
      break;
    case 'destroyed':
      Object.assign(robots[e.robot]!, { status: 'destroyed', lives: e.lives });
      break;
    case 'out':
      robots[e.robot]!.status = 'out';
      break;
    case 'reentered':
      Object.assign(robots[e.robot]!, { status: 'active', x: e.x, y: e.y, dir: e.dir, damage: e.damage, virtual: e.virtual, poweredDown: e.poweredDown });
      break;
    case 'poweredDown':
      robots[e.robot]!.poweredDown = true;
      break;
    case 'poweredUp':
      robots[e.robot]!.poweredDown = false;
      break;
    case 'flagTouched':
      robots[e.robot]!.flags = e.flag;
      break;
    case 'becameReal':
      robots[e.robot]!.virtual = false;
      break;
    default:
      break;
  }
}

const CARD_WORDS: Record<string, string> = { F1: 'Move 1', F2: 'Move 2', F3: 'Move 3', B: 'Back up', L: 'Turn left', R: 'Turn right', U: 'U-turn' };
/** "Move 2 (670)" for F2:670, "Move 2" for the pbem F2. */
export function cardWords(name: string): string {
  const [code, priority] = name.split(':');
  return `${CARD_WORDS[code!] ?? code}${priority ? ` (${priority})` : ''}`;
}

/**
 * Who acts in an event: consecutive events of one actor make one step. Null: the event belongs
 * to the step it follows (damage, destruction, locked registers…).
 */
function actor(e: GameEvent, names: readonly string[], card: Map<number, Revealed>): string | null {
  const robotMove = (i: number) => {
    const c = card.get(i);
    return `${names[i]} plays ${c ? `${cardWords(cardName(c.card))}${c.joined ? ` + ${cardWords(cardName(c.joined))}` : ''}` : 'its card'}`;
  };
  switch (e.type) {
    case 'revealed': return 'Cards revealed';
    case 'aborted': case 'swapped': return CHANGES;
    case 'optionUsed':
      return MOVE_OPTIONS.includes(e.option) ? robotMove(e.robot) : CARD_OPTIONS.includes(e.option) ? CHANGES : LASER_OPTIONS.includes(e.option) ? 'Lasers fire' : null;
    case 'moved': case 'blocked': case 'slipped': case 'slid': case 'teleported': case 'rampSlide': case 'ledgeDrop':
      return robotMove(e.robot);
    case 'turned': return e.by === 'card' ? robotMove(e.robot) : e.by === 'gear' ? 'Gears turn' : 'Belts move';
    case 'pushed': return 'robot' in e.by ? robotMove(e.by.robot) : 'pusher' in e.by ? 'Pushers push' : 'Repulsor fields push';
    case 'carried': return e.express ? 'Express belts move' : 'Belts move';
    case 'destroyed': return e.cause === 'crusher' ? 'Crushers crush' : null;
    case 'shot': return 'Lasers fire';
    case 'flagTouched': case 'archived': case 'finished': case 'dieHit': return 'Flags are touched';
    case 'repaired': case 'upgraded': case 'becameReal': case 'optionDrawn': case 'offered': case 'optionRecharged': return 'Repairs and upgrades';
    default: return null;
  }
}

type Revealed = Extract<GameEvent, { type: 'revealed' }>;
const CHANGES = 'Options change cards';
/** Options acting in a robot's own move, on the register's cards, or when lasers fire. */
const MOVE_OPTIONS = ['Brakes', 'Fourth Gear', 'Reverse Gear', 'Crab Legs', 'Dual Processor'];
const CARD_OPTIONS = ['Abort Switch', 'Conditional Program'];
const LASER_OPTIONS: readonly string[] = [...WEAPONS, 'Double-Barreled Laser', 'Double-Barreled Lasers', 'High-Power Laser', 'Rear-Firing Laser', 'Fire Control'];

/** The steps of a turn, from the robots as it began and its events. */
export function steps(start: readonly Robot[], events: readonly GameEvent[]): Step[] {
  const names = start.map((r) => r.name);
  const robots = start.map((r) => ({ ...r }));
  const out: Step[] = [];
  let register = 0;
  let label: string | null = null;
  let current: GameEvent[] = [];
  let registerEvents: GameEvent[] = [];
  let cards = new Map<number, Revealed>();
  const close = () => {
    if (!current.length) return;
    // Classic cards move in priority order, highest first; pbem's carry none and stay in reveal order.
    const shown = [...cards].map(([robot, e]) => ({ robot, card: cardName(e.card), ...(e.joined ? { joined: cardName(e.joined) } : {}), ...(e.copy ? { copy: true } : {}) }))
      .sort((a, b) => Number(cardParts(b.card)[1] || 0) - Number(cardParts(a.card)[1] || 0));
    out.push({ register, label: label ?? (register === 0 ? 'The turn begins' : register > 5 ? 'The turn ends' : `Register ${register}`), events: current, registerEvents: registerEvents.slice(), robots: robots.map((r) => ({ ...r })), cards: shown });
    current = [];
  };
  for (const e of events) {
    if (e.type === 'registerBegan' || e.type === 'turnEnded') {
      close();
      register = e.type === 'registerBegan' ? e.register : 6;
      label = register > 5 ? 'The turn ends' : null;
      registerEvents = [];
      cards = new Map();
      continue;
    }
    if (e.type === 'revealed') cards.set(e.robot, e);
    const who = register >= 1 && register <= 5 ? actor(e, names, cards) : null;
    if (who !== null && who !== label) {
      close();
      label = who;
    }
    current.push(e);
    registerEvents.push(e);
    apply(robots, e);
  }
  close();
  // Last, the whole turn at once: every move as 001's picture draws it.
  out.push({ register: 6, label: 'The whole turn', events: [], registerEvents: events.filter((e) => e.type !== 'shot'), robots: robots.map((r) => ({ ...r })), cards: [] });
  return out;
}

/** The card's code and priority: "F2" and "670". */
export const cardParts = (name: string): [string, string] => {
  const [code, priority] = name.split(':');
  return [code!, priority ?? ''];
};

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
    case 'stored': return `${n}'s Flywheel keeps ${cardText(e.card)} for the next turn`;
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
