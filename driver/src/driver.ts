/**
 * The race driver: the one way a race is played, for the server, `roborally race`, the benchmarks
 * and the tests. It places the entrants as the rule set says (a start per robot or one for all),
 * deals, lets the bots decide (with their option decisions), fills what is missing at random, plays
 * the turn and says when the race is over.
 *
 * Every function here is pure: no I/O, no clock; the same input gives the same output. The
 * server keeps what comes out; where the bots run (in the request, in a worker) is its business.
 */
import { createHash } from 'node:crypto';
import {
  arenaStarts, beginTurn, chooseFacing, endTurn, enterCheckedOrders, enterOrders, needsProgram, newRace, playRegister, playTurn, raceOver, seatState,
  type CheckedTurn, type Dir, type Entrant, type GameEvent, type GameState, type Orders, type Outcome, type Reentry, type Result, type Seed, type Setup, type Square,
} from '../../engine/src/index.js';
import { BOTS, chooseOrders, chooseReentry, type Budget, type Level } from '../../bots/src/index.js';

/** A seat as a race is set up: a name, a facing (a bot left without one chooses its own), a bot's level. */
export interface SeatPlan {
  readonly name: string;
  readonly dir?: Dir;
  readonly level?: Level;
  /** Handicaps (004 L174): options held from the start, lives, damage, a start square of its own. */
  readonly options?: readonly string[];
  readonly lives?: number;
  readonly damage?: number;
  readonly start?: Square;
}

/** Where robots may start on a course: its one start square, and its starts in pick order. */
export interface Starts {
  readonly start: Square | null;
  readonly starts: readonly Square[];
}

const fail = <T>(field: string, message: string): Result<T> => ({ ok: false, error: { field, message } });

/**
 * Where each seat's robot starts, as the rule set says: each on a start of its own, in pick order
 * (`startsPerRobot`), or all on the course's one start square; in RoboArena, in the corners and
 * then the middles of the edges (the engine's `arenaStarts`); a seat's own start square first.
 * Refused, naming the field, when the course has no such start or too few of them.
 */
function placements(setup: Setup, course: Starts, seats: readonly SeatPlan[]): Result<{ at: Square[]; placed: boolean }> {
  const arena = setup.settings.variant === 'arena';
  const own = setup.rules.startsPerRobot && !arena;
  const n = seats.length;
  if (own && course.starts.length < n)
    return fail('seats', `the course has ${course.starts.length} start${course.starts.length === 1 ? '' : 's'} of one robot each (${setup.rules.name} gives each robot its own), not enough for ${n} robots`);
  const corners = arena ? arenaStarts(setup.board, n) : [];
  if (arena && corners.length < n) return fail('seats', `the arena has room for ${corners.length} robots in its corners and edges, not ${n}`);
  if (!own && !arena && !course.start) return fail('rules', `the course has no start square for every robot (${setup.rules.name} starts them all on one)`);
  return { ok: true, value: { at: seats.map((s, i) => s.start ?? (own ? course.starts[i]! : arena ? corners[i]! : course.start!)), placed: own || arena } };
}

/**
 * The starting facings the bots without one choose (by seat), as `entrants` would choose them:
 * the strong and expert bots' choice builds the course's distance maps, so the server asks for
 * these on its bot pool's threads and hands them to `entrants` as the seats' `dir`. None when the
 * seats cannot be placed (`entrants` refuses them).
 */
export function botFacings(setup: Setup, course: Starts, seats: readonly SeatPlan[], seed: Seed): Record<number, Dir> {
  const placed = placements(setup, course, seats);
  const out: Record<number, Dir> = {};
  if (!placed.ok) return out;
  seats.forEach((s, i) => {
    if (s.dir === undefined && s.level) out[i] = botFacing(setup, s.level, placed.value.at[i]!, seed, i);
  });
  return out;
}

/** The starting facing a bot of `level` chooses on seat `seat`, starting on `at`. */
const botFacing = (setup: Setup, level: Level, at: Square, seed: Seed, seat: number): Dir => BOTS[level].chooseFacing(setup, at, botSeed(seed, 0, seat), seat);

/**
 * The robots of a race, placed as the rule set says (`placements`). Refused, naming the field,
 * when the course has no such start or too few of them. A person without a facing gets the
 * engine's default; a bot without one chooses its own (`botFacings`).
 */
export function entrants(setup: Setup, course: Starts, seats: readonly SeatPlan[], seed: Seed): Result<Entrant[]> {
  const placed = placements(setup, course, seats);
  if (!placed.ok) return placed;
  const { at, placed: started } = placed.value;
  return {
    ok: true,
    value: seats.map((s, i) => {
      const dir = s.dir ?? (s.level ? botFacing(setup, s.level, at[i]!, seed, i) : undefined);
      return {
        name: s.name, ...(dir !== undefined ? { dir } : {}), ...(started || s.start ? { start: at[i]! } : {}),
        ...(s.options ? { options: s.options } : {}), ...(s.lives !== undefined ? { lives: s.lives } : {}), ...(s.damage !== undefined ? { damage: s.damage } : {}),
      };
    }),
  };
}

/** A race's first state (`created`), and its first turn dealt (`dealt`, with its events). */
export interface Started {
  readonly created: GameState;
  readonly dealt: Outcome;
}

/** Creates the race and deals its first turn. */
export function startRace(setup: Setup, robots: readonly Entrant[], seed: Seed, o: { events?: boolean } = {}): Result<Started> {
  const created = newRace(setup, robots, seed);
  if (!created.ok) return created;
  const dealt = beginTurn(setup, created.value, {}, o.events === false ? { events: false } : undefined);
  if (!dealt.ok) return dealt;
  return { ok: true, value: { created: created.value, dealt: dealt.value } };
}

/**
 * The seed a bot decides with, for a turn and a seat. It follows from the race's seed through
 * SHA-256, so a bot's decisions (which everybody sees) tell nothing about the race's generator.
 */
export function botSeed(seed: Seed, turn: number, seat: number): number {
  const words = typeof seed === 'number' ? [seed] : seed;
  return createHash('sha256').update(JSON.stringify([words, turn, seat])).digest().readUInt32LE(0);
}

/** A bot's seat and level. */
export interface BotSeat {
  readonly seat: number;
  readonly level: Level;
}

/** What a bot hands in for a turn: its orders (null when its robot is off the floor). */
export interface BotTurn {
  readonly level: Level;
  readonly orders: Orders | null;
}

/**
 * One bot's orders for the turn as dealt, with its option decisions (bots/src/options.ts), decided
 * on what its seat may see (the engine's `seatState`: not the others' hands, programs or unused
 * secret options), within `budget` (the bots' budget.ts: evaluations, or milliseconds on a clock
 * the caller passes; the expert bot spends what it is given, the others finish anyway).
 */
export function decideBot(setup: Setup, dealt: GameState, seat: number, level: Level, seed: Seed, budget?: Budget): BotTurn {
  if (dealt.robots[seat]?.status !== 'active') return { level, orders: null };
  return { level, orders: chooseOrders(setup, seatState(setup, dealt, seat), seat, botSeed(seed, dealt.turn, seat), level, budget) };
}

/** Every bot's orders for the turn as dealt: each decides on the same state, seeing nobody's program, each within `budget`. */
export function decideBots(setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed, budget?: Budget): Record<number, BotTurn> {
  const out: Record<number, BotTurn> = {};
  for (const b of bots) out[b.seat] = decideBot(setup, dealt, b.seat, b.level, seed, budget);
  return out;
}

/** Registers filled at random for a seat, and the engine's events saying so. */
export interface Fill {
  readonly seat: number;
  /** Filled registers (none when only the orders besides the program were refused). */
  readonly registers: number[];
  readonly events: GameEvent[];
  /** Nothing was sent for the seat. */
  readonly missing: boolean;
  /** Orders of the seat the engine refused (the program was kept, the rest dropped). */
  readonly refused: boolean;
}

/** A turn played. */
export interface Adjudication {
  /** Per seat with registers filled (or nothing sent), in seat order. */
  readonly fills: Fill[];
  /** The events of the five registers and the end of the turn. */
  readonly played: GameEvent[];
  /** The state at the end of the turn (where the next turn begins from). */
  readonly ended: GameState;
  /** The race is over: nothing is dealt. */
  readonly over: boolean;
  /** The next turn dealt, with its events; null when the race is over. */
  readonly next: Outcome | null;
  /** The state now: the next turn dealt, or the end of the race. */
  readonly state: GameState;
}

export interface AdjudicateOptions {
  /** Record the engine's events (default true). */
  readonly events?: boolean;
  /** The budget of each bot's re-entry choice (as `decideBot`'s). */
  readonly budget?: Budget;
  /**
   * Called with the state after each register phase (the conformance runner's `--show`): the
   * registers are then played one call each (`playRegister`, then `endTurn`), which the engine's
   * property test holds equal to `playTurn`'s one call.
   */
  readonly onRegister?: (state: GameState, register: number) => void;
}

/** A turn's orders entered (`enterTurn`): the state ready for its register phases. */
export interface EnteredTurn {
  readonly state: GameState;
  /** Per seat with registers filled (or nothing sent), in seat order. */
  readonly fills: Fill[];
  /** The starting facings chosen with the first turn's orders (`faced` events). */
  readonly faced: GameEvent[];
  /** How the people's robots re-enter if destroyed this turn, as their orders asked. */
  readonly reentry: Record<number, Reentry>;
}

/**
 * Enters the turn's orders in the state as dealt: the starting facings first, then each seat's
 * orders (people's from `orders`, checked when sent; the bots' from `bots`, checked now, once;
 * nothing for a seat in neither), the empty or illegal registers filled at random (RULES.md
 * threeMinuteRule, 001 L393).
 */
export function enterTurn(
  setup: Setup, state: GameState, orders: Readonly<Record<number, CheckedTurn | undefined>>, bots: Readonly<Record<number, BotTurn | undefined>>,
): Result<EnteredTurn> {
  if (state.phase !== 'programming') return fail('phase', 'no turn is dealt');
  let s = state;
  const fills: Fill[] = [];
  // The starting facings chosen with the first turn's orders come first (002 L38-39).
  const faced: GameEvent[] = [];
  for (const [k, p] of Object.entries(orders)) {
    if (p?.facing === undefined || p.facing === null) continue;
    const res = chooseFacing(setup, s, Number(k), p.facing);
    if (!res.ok) continue; // checked when sent; a robot no longer on the floor keeps its facing
    s = res.value.state;
    faced.push(...res.value.events);
  }
  const reentry: Record<number, Reentry> = {};
  for (let i = 0; i < s.robots.length; i++) {
    if (s.robots[i]!.status === 'out') continue;
    const bot = bots[i];
    const person = bot ? undefined : orders[i];
    const reenter = person?.reentry;
    if (reenter) reentry[i] = reenter;
    const needed = needsProgram(s, i);
    // A person's orders were checked when sent; a bot's are checked now, once.
    const entered = person ? enterCheckedOrders(setup, s, i, person) : enterOrders(setup, s, i, bot?.orders ? { orders: bot.orders } : undefined);
    if (!entered.ok) return entered;
    s = entered.value.state;
    const { events } = entered.value;
    const sent = person ?? bot?.orders;
    const refused = entered.value.refused !== null;
    if ((needed && (events.length || !sent)) || refused) {
      const registers = events.flatMap((e) => (e.type === 'programmed' ? e.filled.map((f) => f.register) : []));
      fills.push({ seat: i, registers, events, missing: !sent, refused });
    }
  }
  return { ok: true, value: { state: s, fills, faced, reentry } };
}

/** The register phases and the end of the turn, in one call, or one call each for `onRegister`. */
function playRegisters(setup: Setup, state: GameState, o: AdjudicateOptions): Result<Outcome> {
  const ev = o.events === false ? { events: false } : undefined;
  if (!o.onRegister) return playTurn(setup, state, ev);
  let s = state;
  const events: GameEvent[] = [];
  for (let k = 1; k <= 5; k++) {
    const res = playRegister(setup, s, ev);
    if (!res.ok) return res;
    s = res.value.state;
    events.push(...res.value.events);
    o.onRegister(s, k);
  }
  const ended = endTurn(setup, s, ev);
  if (!ended.ok) return ended;
  return { ok: true, value: { state: ended.value.state, events: [...events, ...ended.value.events] } };
}

/**
 * Plays the turn dealt in `state`: the orders entered (`enterTurn`), the five registers and the
 * end of the turn; then, unless the race is over, the destroyed robots re-enter (people as they
 * asked, bots as they choose now, on what their seat may see) and the next turn is dealt. Pure: no
 * I/O; the engine's generator in the state is the only randomness.
 */
export function adjudicate(
  setup: Setup, state: GameState, orders: Readonly<Record<number, CheckedTurn | undefined>>, bots: Readonly<Record<number, BotTurn | undefined>>,
  seed: Seed, o: AdjudicateOptions = {},
): Result<Adjudication> {
  const entered = enterTurn(setup, state, orders, bots);
  if (!entered.ok) return entered;
  const { fills, faced, reentry } = entered.value;
  const turn = state.turn;
  const played = playRegisters(setup, entered.value.state, o);
  if (!played.ok) return played;
  const ended = played.value.state;
  if (raceOver(setup, ended)) return { ok: true, value: { fills, played: [...faced, ...played.value.events], ended, over: true, next: null, state: ended } };
  for (const [k, b] of Object.entries(bots)) {
    const i = Number(k);
    if (b && ended.robots[i]?.status === 'destroyed') reentry[i] = chooseReentry(setup, seatState(setup, ended, i), i, botSeed(seed, turn + 1, i), b.level, o.budget);
  }
  const next = beginTurn(setup, ended, reentry, o.events === false ? { events: false } : undefined);
  if (!next.ok) return next;
  return { ok: true, value: { fills, played: [...faced, ...played.value.events], ended, over: false, next: next.value, state: next.value.state } };
}
