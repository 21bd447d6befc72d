/**
 * What each reader may see. Everybody sees the floor, the robots and everything revealed; a seat
 * also sees its own hand and its own orders for the turn. No view shows another seat's hand or
 * orders before the turn is played, not even the moderator's.
 */
import { cardName, dirName, optionsSeen, popcount, type GameEvent, type GameState, type RobotState, type Settings } from '../../engine/src/index.js';
import type { DeadlinePolicy } from './deadline.js';
import type { PublicDeal } from './deal.js';

export interface SeatInfo {
  readonly seat: number;
  readonly name: string;
  readonly kind: 'human' | 'bot';
  readonly level: string | null;
  /** The robot it races: an index of render/src/robots.ts's designs. */
  readonly robot: number;
  /** A person's seat nobody has taken yet: its invite is unspent (POST …/claim). */
  readonly invited: boolean;
}

export interface RaceSummary {
  readonly id: string;
  readonly course: string;
  readonly rules: string;
  readonly settings: unknown;
  readonly deadline: DeadlinePolicy;
  readonly status: string;
  readonly paused: boolean;
  readonly deadlineAt: number | null;
  readonly lastSeq: number;
  /** Whether the race's deal is secret; a race whose deal is no secret shows its seed. */
  readonly deal: PublicDeal;
}

/**
 * The options others may see: all of them, or under Secret Options (004 L188) only those the robot
 * has used; the rest are counted.
 */
export function visibleOptions(r: RobotState, secret: boolean): { options: readonly string[]; hiddenOptions: number } {
  const shown = optionsSeen(r, secret);
  return { options: shown, hiddenOptions: r.options.length - shown.length };
}

/**
 * An event as the public log keeps it: under Secret Options (004 L188, "kept face-down until
 * used") an option drawn, offered, upgraded to or lost with a life is not named (it shows when it
 * is used).
 */
export function publicEvent(e: GameEvent, settings: Settings): GameEvent {
  return settings.secretOptions && (e.type === 'optionDrawn' || e.type === 'upgraded' || e.type === 'offered' || e.type === 'optionLost') ? { ...e, option: 'a secret option' } : e;
}

/** A state as a picture draws it: each robot in the design its seat races (render/src/robots.ts). */
export const dressed = (st: GameState, designs: readonly number[]) => ({ ...st, robots: st.robots.map((r, i) => ({ ...r, robot: designs[i] ?? i })) });

/** The robots as anybody may see them: where they stand, their damage, their locked (face-up) registers. */
export function publicRobots(st: GameState, settings: Settings = {}) {
  return st.robots.map((r, i) => ({
    seat: i,
    name: r.name,
    x: r.x,
    y: r.y,
    dir: dirName(r.dir),
    damage: r.damage,
    lives: r.lives,
    flags: r.flags,
    archive: r.archive,
    status: r.status,
    virtual: r.virtual,
    poweredDown: r.poweredDown,
    // Locked registers lie face up on the table: their cards are no secret.
    locked: [1, 2, 3, 4, 5].filter((reg) => r.locked & (1 << (reg - 1))).map((reg) => ({
      register: reg,
      card: r.registers[reg - 1] ? cardName(r.registers[reg - 1]!) : null,
      // why: the damage count, or a Fire Control marker (OPTIONS.md 2.10)
      by: (r.opt?.fcLocks ?? 0) & (1 << (reg - 1)) ? 'Fire Control' : 'damage',
    })),
    lockedCount: popcount(r.locked),
    cards: r.hand.length,
    ...visibleOptions(r, !!settings.secretOptions),
  }));
}

/** The finishing order so far: the finishers' names, in groups tied for a place. */
export const finishOrder = (st: GameState): string[][] => st.finished.map((g) => g.map((i) => st.robots[i]!.name));

/**
 * `submitted`: the seats whose orders are in, each with how many registers its program fills (the
 * others' registers lie face down on the table as they are programmed: a count, never a card).
 */
export function publicView(race: RaceSummary, st: GameState, seats: readonly SeatInfo[], submitted: ReadonlyMap<number, number>) {
  return {
    ...race,
    turn: st.turn,
    phase: st.phase,
    seats: seats.map((s) => ({ ...s, submitted: submitted.has(s.seat), programmed: submitted.get(s.seat) ?? 0 })),
    robots: publicRobots(st, race.settings as Settings),
    finished: finishOrder(st),
    // What the floor shows besides robots: pbem's upgrade at each hammer site (001 L181; unnamed
    // under Secret Options) and, under the Dice Rule, the damage each flag's die has left.
    offers: st.offers.map((o) => ({ x: o.x, y: o.y, option: (race.settings as Settings).secretOptions ? 'a secret option' : o.option })),
    dice: st.dice.slice(),
  };
}

/** A seat's stored orders as they will be played, and what of them no longer read (`storedOrders`). */
export interface OwnOrders {
  readonly orders: unknown;
  readonly unread: readonly { readonly field: string; readonly message: string }[];
}

export function seatView(race: RaceSummary, st: GameState, seats: readonly SeatInfo[], submitted: ReadonlyMap<number, number>, seat: number, own: OwnOrders | null, choiceKeys: readonly string[], byMail: boolean) {
  const r = st.robots[seat]!;
  return {
    ...publicView(race, st, seats, submitted),
    you: {
      seat,
      hand: r.hand.map(cardName),
      openRegisters: [1, 2, 3, 4, 5].filter((reg) => !(r.locked & (1 << (reg - 1)))),
      needsProgram: r.status === 'active' && !r.poweredDown && r.locked !== 0b11111,
      poweredDown: r.poweredDown,
      // Its orders as they will be played; `ordersUnread` names what of the stored orders no longer
      // read (shown as played: a register left to the random fill, a decision left out).
      orders: own?.orders ?? null,
      ordersUnread: own?.unread ?? [],
      // Its own options, all of them, and the decisions its rule set lets it give (OPTIONS.md part 4).
      options: r.options,
      flywheel: r.opt?.flywheel ? cardName(r.opt.flywheel) : null,
      recompiled: !!r.opt?.recompiled,
      choiceKeys: choiceKeys,
      // Raced by e-mail: its page is opened from its mails, with the token they carry (its only link).
      byMail,
    },
  };
}
