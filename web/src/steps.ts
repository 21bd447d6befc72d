/**
 * A played turn cut into the steps of its replay, from the engine's events alone: the start of the
 * turn, then per register the cards revealed, each robot's move in priority order (with the robots
 * it pushes), and each kind of board element (belts, pushers, gears, crushers, lasers, flags), then
 * the end of the turn. Each step holds the robots as they stand after it.
 */
import { cardName, cardParts, optionStep, type GameEvent } from '../../engine/src/index.js';
import { apply, type Robot } from './robots-state.js';
import { beats, type Beat } from './timeline.js';
import { cardWords } from './words.js';

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
    case 'optionUsed': {
      const step = optionStep(e.option);
      return step === 'move' ? robotMove(e.robot) : step === 'cards' ? CHANGES : step === 'lasers' ? 'Lasers fire' : null;
    }
    case 'moved': case 'blocked': case 'slipped': case 'slid': case 'teleported': case 'rampSlide': case 'ledgeDrop':
      return robotMove(e.robot);
    case 'turned': return e.by === 'card' ? robotMove(e.robot) : e.by === 'gear' ? 'Gears turn' : e.by === 'fold' ? null : 'Belts move';
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
  let before = robots.map((r) => ({ ...r }));
  const close = () => {
    if (!current.length) return;
    // Classic cards move in priority order, highest first; pbem's carry none and stay in reveal order.
    const shown = [...cards].map(([robot, e]) => ({ robot, card: cardName(e.card), ...(e.joined ? { joined: cardName(e.joined) } : {}), ...(e.copy ? { copy: true } : {}) }))
      .sort((a, b) => Number(cardParts(b.card)[1] || 0) - Number(cardParts(a.card)[1] || 0));
    out.push({ register, label: label ?? (register === 0 ? 'The turn begins' : register > 5 ? 'The turn ends' : `Register ${register}`), events: current, registerEvents: registerEvents.slice(), robots: robots.map((r) => ({ ...r })), before, beats: beats(before, current), cards: shown });
    before = robots.map((r) => ({ ...r }));
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
  out.push({ register: 6, label: 'The whole turn', events: [], registerEvents: events.filter((e) => e.type !== 'shot'), robots: robots.map((r) => ({ ...r })), before: start.map((r) => ({ ...r })), beats: [{ actions: [], robots: robots.map((r) => ({ ...r })) }], cards: [] });
  return out;
}

