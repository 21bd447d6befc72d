/**
 * A played turn cut into the steps a reader follows, from its events alone: the start of the turn,
 * then per register the cards revealed, options changing cards, each robot's move in priority
 * order (with the robots it pushes), each kind of board element as it acts (belts, pushers,
 * repulsor fields, gears, crushers), the lasers, the flags, the repairs and upgrades, then the end
 * of the turn. The web's replay draws these steps; each has its heading (`STEP_HEADINGS`,
 * `stepHeading`). A new kind of event does not compile until it has its step here.
 */
import { cardName, type Card } from '../cards.js';
import type { EventType, GameEvent } from '../events.js';
import { cardParts, cardWords } from '../notation.js';
import { optionStep } from '../options/catalog.js';

/** The kinds of step, in the order they come in a register (board elements in the rule set's own order). */
export type StepKind =
  | 'turnBegins' | 'register' | 'cardsRevealed' | 'cardsChanged' | 'robotMoves'
  | 'expressBelts' | 'belts' | 'pushers' | 'repulsors' | 'gears' | 'crushers' | 'lasers'
  | 'flags' | 'repairs' | 'turnEnds';

/**
 * The heading of each kind of step. `{register}` is the register's number, `{robot}` the moving
 * robot's name, `{card}` its card in words (`cardWords`, two joined cards with " + ", "its card"
 * if none was revealed). `stepHeading` fills them in.
 */
export const STEP_HEADINGS = {
  turnBegins: 'The turn begins',
  register: 'Register {register}',
  cardsRevealed: 'Cards revealed',
  cardsChanged: 'Options change cards',
  robotMoves: '{robot} plays {card}',
  expressBelts: 'Express belts move',
  belts: 'Belts move',
  pushers: 'Pushers push',
  repulsors: 'Repulsor fields push',
  gears: 'Gears turn',
  crushers: 'Crushers crush',
  lasers: 'Lasers fire',
  flags: 'Flags are touched',
  repairs: 'Repairs and upgrades',
  turnEnds: 'The turn ends',
} as const satisfies Record<StepKind, string>;

/** A card revealed in a register: a joined card with it, or Radio Control's copy. */
export interface RevealedCard {
  readonly robot: number;
  readonly card: Card;
  readonly joined?: Card;
  readonly copy?: boolean;
}

export interface TurnStep {
  readonly kind: StepKind;
  /** 0 before the registers, 1 to 5, 6 after them. */
  readonly register: number;
  /** `robotMoves`: the robot moving, and the card it revealed in this register (if any). */
  readonly robot?: number;
  readonly card?: RevealedCard;
  readonly events: GameEvent[];
  /** The events of its register up to and including this step (or of the step outside registers). */
  readonly registerEvents: GameEvent[];
  /** The cards revealed in its register so far, in the order the robots move: highest priority
   *  first where cards carry one, else in the order revealed. */
  readonly revealed: RevealedCard[];
}

type Revealed = Extract<GameEvent, { type: 'revealed' }>;
/** Where an event goes inside a register: a step kind, `move` (the move of the robot named), or
 *  null: it belongs to the step it follows (damage, destruction, locked registers…). */
type Place = StepKind | { move: number } | null;
type Placer = { [K in EventType]: Place | ((e: Extract<GameEvent, { type: K }>) => Place) };

const move = (e: { robot: number }): Place => ({ move: e.robot });
const PLACE: Placer = {
  turnBegan: null, faced: null, reentered: null, poweredDown: null, poweredUp: null, dealt: null, programmed: null,
  powerDownAnnounced: null, powerDownCancelled: null, registerBegan: null, turnEnded: null,
  revealed: 'cardsRevealed',
  aborted: 'cardsChanged', swapped: 'cardsChanged',
  optionUsed: (e) => {
    const step = optionStep(e.option);
    return step === 'move' ? move(e) : step === 'cards' ? 'cardsChanged' : step === 'lasers' ? 'lasers' : null;
  },
  moved: move, blocked: move, slipped: move, slid: move, teleported: move, rampSlide: move, ledgeDrop: move,
  turned: (e) => (e.by === 'card' ? move(e) : e.by === 'gear' ? 'gears' : e.by === 'fold' ? null : 'belts'),
  pushed: (e) => ('robot' in e.by ? { move: e.by.robot } : 'pusher' in e.by ? 'pushers' : 'repulsors'),
  carried: (e) => (e.express ? 'expressBelts' : 'belts'),
  destroyed: (e) => (e.cause === 'crusher' ? 'crushers' : null),
  shot: 'lasers',
  flagTouched: 'flags', archived: 'flags', finished: 'flags', dieHit: 'flags',
  repaired: 'repairs', upgraded: 'repairs', becameReal: 'repairs', optionDrawn: 'repairs', offered: 'repairs', optionRecharged: 'repairs',
  blockedShot: null, exchanged: null, markerLocked: null, optionDestroyed: null, rammed: null, scrambled: null,
  radioControlled: null, stored: null, recompiled: null, optionDiscarded: null, circuitBreaker: null, damaged: null,
  locked: null, unlocked: null, out: null, optionLost: null,
};

function placeOf(e: GameEvent): Place {
  const p = PLACE[e.type] as Place | ((e: GameEvent) => Place);
  return typeof p === 'function' ? p(e) : p;
}

const revealedCard = (e: Revealed): RevealedCard =>
  ({ robot: e.robot, card: e.card, ...(e.joined ? { joined: e.joined } : {}), ...(e.copy ? { copy: true } : {}) });
/** Priority where the card carries one (classic), else 0: the sort keeps reveal order. */
const priority = (c: Card): number => Number(cardParts(cardName(c))[1] || 0);

/** The steps of one turn's events (a turn's events from `turnBegan` to `turnEnded`). */
export function turnSteps(events: readonly GameEvent[]): TurnStep[] {
  const out: TurnStep[] = [];
  let register = 0;
  let kind: StepKind = 'turnBegins';
  let robot: number | undefined;
  let current: GameEvent[] = [];
  let registerEvents: GameEvent[] = [];
  let cards = new Map<number, Revealed>();
  const close = () => {
    if (!current.length) return;
    const revealed = [...cards.values()].map(revealedCard).sort((a, b) => priority(b.card) - priority(a.card));
    const moving = robot !== undefined ? cards.get(robot) : undefined;
    out.push({
      kind, register, ...(robot !== undefined ? { robot } : {}), ...(moving ? { card: revealedCard(moving) } : {}),
      events: current, registerEvents: registerEvents.slice(), revealed,
    });
    current = [];
  };
  for (const e of events) {
    if (e.type === 'turnBegan' || e.type === 'registerBegan' || e.type === 'turnEnded') {
      close();
      register = e.type === 'registerBegan' ? e.register : e.type === 'turnBegan' ? 0 : 6;
      kind = register === 0 ? 'turnBegins' : register > 5 ? 'turnEnds' : 'register';
      robot = undefined;
      registerEvents = [];
      cards = new Map();
      if (e.type !== 'turnBegan') continue;
    }
    if (e.type === 'revealed') cards.set(e.robot, e);
    const place = register >= 1 && register <= 5 ? placeOf(e) : null;
    if (place !== null) {
      const [k, r] = typeof place === 'string' ? [place, undefined] : ['robotMoves' as const, place.move];
      if (k !== kind || r !== robot) {
        close();
        kind = k;
        robot = r;
      }
    }
    current.push(e);
    registerEvents.push(e);
  }
  close();
  return out;
}

/**
 * A step's events cut into the moments that follow one another; the events of one moment happen at
 * once. Lasers fire together and their damage is dealt together, and only then are robots destroyed
 * (B-28): the shots with their damage are one moment, the robots they wreck the next. Every other
 * step is one moment: a board element acts on every robot at once, and a robot's move is one robot
 * (with those it pushes). The web's replay animates each moment after the one before
 * (web/src/timeline.ts).
 */
export function stepMoments(step: Pick<TurnStep, 'kind' | 'events'>): readonly (readonly GameEvent[])[] {
  const wrecked = step.kind === 'lasers' ? step.events.findIndex((e) => e.type === 'destroyed') : -1;
  return wrecked <= 0 ? [step.events] : [step.events.slice(0, wrecked), step.events.slice(wrecked)];
}

/** A step's heading (`STEP_HEADINGS` filled in), robots named by `names` (by index). */
export function stepHeading(step: TurnStep, names: readonly string[]): string {
  const c = step.card;
  return STEP_HEADINGS[step.kind]
    .replace('{register}', String(step.register))
    .replace('{robot}', names[step.robot ?? -1] ?? `robot ${(step.robot ?? 0) + 1}`)
    .replace('{card}', c ? `${cardWords(cardName(c.card))}${c.joined ? ` + ${cardWords(cardName(c.joined))}` : ''}` : 'its card');
}
