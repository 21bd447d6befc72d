/**
 * A turn: its start (re-entry, power down, the deal), the programs, five register phases and its
 * end (repair, power-down decisions, virtual robots becoming real). Each public function takes a
 * state and returns a new one; the input is never changed, and bad input changes nothing.
 */
import { cardName, type Card } from './cards.js';
import { Floor } from './board.js';
import { giveBack, lendCtx, type Ctx, type Setup } from './context.js';
import type { GameEvent } from './events.js';
import { below } from './rng.js';
import { destroyIfWrecked, discardAllDamage, repair, unplayedOf } from './robots.js';
import { memory } from './options/held.js';
import type { Reentry } from './rules/ruleset.js';
import type { Dir } from './geometry.js';
import { cloneState, cloneStateSharingHands, type Choices, type GameState, type RobotState } from './state.js';
import { handCard, upgradeOf, cardAction } from './cards.js';
import { holds } from './options/held.js';
import { runSteps, startRegister } from './phases/steps.js';
import { recompileHand, setAside } from './options/programming.js';
import { circuitBreaker } from './options/upkeep.js';
import { chopShop } from './options/deck.js';
import { err, ok, type EngineError, type Result } from './result.js';

export interface Outcome {
  readonly state: GameState;
  readonly events: GameEvent[];
}

/** What a player orders for a turn, besides option choices. */
export interface Orders {
  /** Cards for the unlocked registers, register 1 first. */
  readonly program?: readonly Card[];
  /** Power down when the next turn begins (announced with the program). */
  readonly powerDown?: boolean;
  /** Powered down this turn: stay down next turn. */
  readonly stayDown?: boolean;
  /** On a two-wrench site at the end of the turn: take an option instead of repairing. */
  readonly takeOption?: boolean;
  /** Registers to free first when damage is repaired (classic). */
  readonly unlock?: readonly number[];
  /** Per program entry, a second card played in the same register (Crab Legs, Dual Processor), 0 for none. */
  readonly joined?: readonly Card[];
  /** Option decisions (OPTIONS.md part 4), as `parseChoices` reads them. */
  readonly choices?: Choices;
}

interface Options {
  /** Record events (default true); a bot searching moves can do without. */
  readonly events?: boolean;
}

/** A working copy of `state` in a context; `reveal`: the call begins with the reveal, which replaces every hand unchanged. */
const begin = (setup: Setup, state: GameState, o?: Options, reveal = false): Ctx =>
  lendCtx(setup, reveal ? cloneStateSharingHands(state) : cloneState(state), o?.events === false ? null : []);
const done = (ctx: Ctx): Result<Outcome> => {
  giveBack(ctx);
  return ok({ state: ctx.state, events: ctx.events ?? [] });
};

/** Registers a robot programs this turn (unlocked ones), numbered 1 to 5. */
export function openRegisters(locked: number): number[] {
  const out: number[] = [];
  for (let reg = 1; reg <= 5; reg++) if (!(locked & (1 << (reg - 1)))) out.push(reg);
  return out;
}

/** True if the robot must hand in cards this turn. */
export const needsProgram = (state: GameState, i: number): boolean => {
  const r = state.robots[i]!;
  return r.status === 'active' && !r.poweredDown && r.locked !== 0b11111;
};

/**
 * The start of a turn, in RULES.md's order: power-down decisions of the last turn take effect;
 * destroyed robots re-enter in the order they were destroyed (000 L82); powered-down robots
 * discard their damage and free their registers (000 L193, L197); cards are dealt (000 L80).
 */
export function beginTurn(
  setup: Setup,
  state: GameState,
  reentry: Readonly<Record<number, Reentry>> = {},
  o?: Options,
): Result<Outcome> {
  if (state.phase !== 'ended') return err('phase', `a turn is under way (${state.phase}); finish it first`);
  const ctx = begin(setup, state, o);
  const st = ctx.state;
  st.turn += 1;
  st.register = 0;
  st.phase = 'programming';
  ctx.events?.push({ type: 'turnBegan', turn: st.turn });
  st.robots.forEach((r, i) => {
    if (r.status !== 'active') return;
    if (r.poweredDown && !r.stayDown) {
      r.poweredDown = false;
      ctx.events?.push({ type: 'poweredUp', robot: i });
    }
    if (r.announced) {
      r.poweredDown = true;
      ctx.events?.push({ type: 'poweredDown', robot: i });
    }
    r.announced = false;
    r.stayDown = false;
  });
  for (const r of st.robots) {
    const m = r.opt;
    if (!m) continue;
    m.choices = {};
    m.fresh = [];
    m.recompiled = false;
    m.copiedFrom = -1;
  }
  const destroyed = st.robots
    .map((r, i) => (r.status === 'destroyed' ? i : -1))
    .filter((i) => i >= 0)
    .sort((a, b) => st.robots[a]!.destroyedAt - st.robots[b]!.destroyedAt);
  // No shut-downs (004 L217): a re-entering robot comes back powered up.
  const choices = setup.settings.noShutdowns ? noPowerDown(reentry) : reentry;
  if (destroyed.length) ctx.rules.reenter(ctx, destroyed, choices);
  st.robots.forEach((r, i) => {
    if (r.status === 'active' && r.poweredDown) discardAllDamage(ctx, i);
    r.programmed = !needsProgram(st, i);
  });
  ctx.rules.deal(ctx);
  return done(ctx);
}

const noPowerDown = (reentry: Readonly<Record<number, Reentry>>): Record<number, Reentry> =>
  Object.fromEntries(Object.entries(reentry).map(([i, c]) => [i, c.dir === undefined ? {} : { dir: c.dir }]));

/**
 * A robot's orders for this turn, checked against what it was dealt: exactly one card per
 * unlocked register, each from its hand, none twice, the locked registers untouched (000 L85,
 * L162). Orders may be replaced until the registers begin.
 */
export function submitOrders(setup: Setup, state: GameState, i: number, orders: Orders): Result<GameState> {
  return checkOrders(setup, state, i, orders) ?? ok(applyOrders(state, i, orders));
}

/** Two cards in one register are kept move card first, whichever way they were written. */
function moveFirst(orders: Orders): { program: Card[]; joined: Card[] } {
  const given = orders.program ?? [];
  const joinedIn = orders.joined ?? [];
  const swap = (k: number): boolean => !!joinedIn[k] && cardAction(given[k]!).move === 0 && cardAction(joinedIn[k]!).move !== 0;
  return { program: given.map((c, k) => (swap(k) ? joinedIn[k]! : c)), joined: given.map((c, k) => (swap(k) ? c : joinedIn[k] ?? 0)) };
}

/**
 * Why the engine refuses robot i's orders for this turn (the refusal names the field), or null
 * when it takes them: `submitOrders`'s check, without the orders entered.
 */
export function checkOrders(setup: Setup, state: GameState, i: number, orders: Orders): Result<never> | null {
  if (state.phase !== 'programming') return err('phase', 'programs are taken only before the register phases begin');
  const r = state.robots[i];
  if (!r) return err('robot', `no robot number ${i}`);
  if (r.status !== 'active') return err('robot', `${r.name} is ${r.status === 'out' ? 'out of the game' : 'destroyed'} and gives no orders`);
  const { program, joined } = moveFirst(orders);
  if (r.poweredDown) {
    if (program.length) return err('program', `${r.name} is powered down this turn and runs no cards`);
    if (orders.powerDown) return err('powerDown', `${r.name} is already powered down; use stayDown`);
    for (const key of ['conditional', 'flywheel'] as const)
      if (orders.choices?.[key]) return err(`choices.${key}`, `${r.name} is powered down this turn and has no cards to set aside`);
  } else {
    if (orders.stayDown) return err('stayDown', `${r.name} is not powered down this turn`);
    const open = openRegisters(r.locked);
    if (program.length !== open.length) {
      const which = open.length === 5 ? 'five registers' : open.length ? `registers ${open.join(', ')} (the others are locked)` : 'no register (all are locked)';
      return err('program', `${r.name} needs ${open.length} card${open.length === 1 ? '' : 's'} for ${which}, found ${program.length}`);
    }
    const left = r.hand.slice();
    const use = (c: Card, field: string): Result<never> | null => {
      const at = left.indexOf(handCard(c));
      if (at >= 0) {
        left.splice(at, 1);
        return null;
      }
      const twice = r.hand.includes(handCard(c));
      return err(field, twice ? `${cardName(c)} is used twice` : `${cardName(c)} was not dealt to ${r.name}`);
    };
    for (let k = 0; k < program.length; k++) {
      const up = upgradeOf(program[k]!);
      if (up && !holds(r, up)) return err(`program[${k}]`, `${cardName(program[k]!)} needs ${up}, which ${r.name} does not hold`);
      const bad = use(program[k]!, `program[${k}]`) ?? (joined[k] ? joinedRefusal(r, program[k]!, joined[k]!, `program[${k}]`) ?? use(joined[k]!, `program[${k}]`) : null);
      if (bad) return bad;
    }
    const c = orders.choices;
    for (const [key, card] of [['conditional', c?.conditional?.card], ['flywheel', c?.flywheel]] as const) {
      if (!card) continue;
      if (use(card, `choices.${key}`)) return err(`choices.${key}`, `${cardName(card)} must be an unused card of ${r.name}'s hand`);
    }
    if (orders.powerDown) {
      if (setup.settings.noShutdowns) return err('powerDown', 'this race allows no shut-downs (noShutdowns, 004 L217)');
      const why = setup.rules.powerDownRefusal(r);
      if (why) return err('powerDown', `${r.name}: ${why}`);
    }
  }
  const unlock = orders.unlock ?? [];
  if (unlock.length && !setup.rules.playerUnlock)
    return err('unlock', `${setup.rules.name} frees the lowest-numbered locked register first; there is no choice`);
  if (orders.takeOption && !setup.rules.takeOptionChoice)
    return err('takeOption', `${setup.rules.name} repairs and upgrades at a hammer site; there is no choice`);
  for (let k = 0; k < unlock.length; k++) {
    const reg = unlock[k]!;
    if (!Number.isInteger(reg) || reg < 1 || reg > 5) return err(`unlock[${k}]`, 'expected a register number 1 to 5');
  }
  return null;
}

/** Robot i's orders entered, as `checkOrders` took them (they are not checked here). */
function applyOrders(state: GameState, i: number, orders: Orders): GameState {
  const { program, joined } = moveFirst(orders);
  const st = cloneState(state);
  const robot = st.robots[i]!;
  if (!robot.poweredDown) openRegisters(robot.locked).forEach((reg, k) => (robot.registers[reg - 1] = program[k]!));
  if (orders.choices && Object.keys(orders.choices).length) {
    const m = memory(robot);
    m.choices = orders.choices;
  } else if (robot.opt) robot.opt.choices = {};
  if (robot.opt || joined.some((j) => j)) {
    const m = memory(robot);
    openRegisters(robot.locked).forEach((reg, k) => (m.joined[reg - 1] = joined[k] ?? 0));
  }
  robot.announced = !robot.poweredDown && !!orders.powerDown;
  robot.stayDown = robot.poweredDown && !!orders.stayDown;
  robot.takeOption = !!orders.takeOption;
  robot.unlock = (orders.unlock ?? []).slice();
  robot.programmed = true;
  return st;
}

/**
 * Crab Legs takes a Move 1 with a Rotate Left or Right; Dual Processor a move card (Move 1-3,
 * Back-Up, and in pbem the upgrade codes) with a rotation (OPTIONS.md 2.6, 2.8; 001 L191-193).
 */
function joinedRefusal(r: RobotState, main: Card, second: Card, field: string): Result<never> | null {
  const why = joinRefusal(main, second, (name) => holds(r, name));
  return why ? err(field, why) : null;
}

/**
 * Why a robot may not play `second` joined to `main` in one register, or null if it may; `held`
 * says whether it holds a usable option by that name (a client asks before sending).
 */
export function joinRefusal(main: Card, second: Card, held: (option: string) => boolean): string | null {
  const a = cardAction(main), b = cardAction(second);
  const crab = a.move === 1 && (b.turn === 1 || b.turn === 3) && held('Crab Legs');
  const dual = a.move !== 0 && b.turn !== 0 && b.move === 0 && held('Dual Processor');
  if (crab || dual) return null;
  return `${cardName(main)}+${cardName(second)}: two cards in one register need Crab Legs (a Move 1 and a Rotate Left or Right) or Dual Processor (a move and a rotation)`;
}

/**
 * 2.22 Recompile: before programming, robot i discards its hand for a new one and takes the rule
 * set's damage, exchanging options for it as `choices.exchange` orders; once a turn.
 */
export function recompile(setup: Setup, state: GameState, i: number, choices: Choices = {}): Result<Outcome> {
  if (state.phase !== 'programming') return err('phase', 'a hand is recompiled before the program is handed in');
  const r = state.robots[i];
  if (!r) return err('robot', `no robot number ${i}`);
  if (r.status !== 'active' || r.poweredDown) return err('robot', `${r.name} has no hand this turn`);
  if (!holds(r, 'Recompile')) return err('choices.recompile', `${r.name} does not hold Recompile`);
  if (r.opt?.recompiled) return err('choices.recompile', `${r.name} has recompiled this turn already`);
  const ctx = begin(setup, state);
  // Its point meets the turn's decisions so far: an exchange ordered with it applies (1.2, 2.22).
  memory(ctx.state.robots[i]!).choices = choices;
  recompileHand(ctx, i);
  destroyIfWrecked(ctx, i);
  const robot = ctx.state.robots[i]!;
  robot.programmed = !needsProgram(ctx.state, i);
  return done(ctx);
}

/**
 * Why a register was filled for its player: `missing`, nothing was sent for it by the deadline;
 * `chosen`, the orders left it to the random fill (`-` in the notation, `null` in the API);
 * `illegal`, the card sent is not the robot's to play; `unreadable`, the stored entry no longer reads.
 */
export type FillReason = 'missing' | 'chosen' | 'illegal' | 'unreadable';

/**
 * Completes a robot's program the way the moderator did at the deadline. `sent` holds what the
 * player sent, one entry per unlocked register (0: left to the random fill; absent: nothing sent; `unreadable` names those
 * whose stored entry no longer read, `storedTurn`). An entry that is not
 * among the robot's cards (or is used up) is illegal; missing and illegal registers get a card
 * drawn at random from the robot's unplayed cards (001 L83 "An illegal or missing instruction will
 * be replaced with a random available instruction from your list"; RULES.md threeMinuteRule: "a
 * race on deadlines always fills a late classic program this way"). The `programmed` event names
 * each filled register and why.
 */
export function fillProgram(setup: Setup, state: GameState, i: number, sent: readonly Card[] = [], reserved: readonly Card[] = [], unreadable: readonly number[] = []): Result<Outcome> {
  void setup; // every call of a turn takes the setup; the fill reads nothing of it
  const r = state.robots[i];
  if (!r) return err('robot', `no robot number ${i}`);
  if (!needsProgram(state, i)) return ok({ state, events: [] });
  const open = openRegisters(r.locked);
  const st = cloneState(state);
  const unplayed = r.hand.slice();
  // Cards the player keeps for another use (joined in a register, set aside, stored) are not drawn.
  for (const c of reserved) if (unplayed.includes(c)) unplayed.splice(unplayed.indexOf(c), 1);
  const program: (Card | 0)[] = open.map(() => 0);
  const reasons: (FillReason | null)[] = open.map((_, k) => (sent[k] ? 'illegal' : unreadable.includes(k) ? 'unreadable' : k < sent.length ? 'chosen' : 'missing'));
  open.forEach((_, k) => {
    const c = sent[k];
    const up = c ? upgradeOf(c) : undefined;
    const at = c && (!up || holds(r, up)) ? unplayed.indexOf(handCard(c)) : -1; // 001 L83: an upgrade code needs its upgrade
    if (at >= 0) {
      unplayed.splice(at, 1);
      program[k] = c!;
      reasons[k] = null;
    }
  });
  const filled: { register: number; reason: FillReason }[] = [];
  for (let k = 0; k < open.length; k++) {
    if (reasons[k] === null) continue;
    if (!unplayed.length) return err(`program[${k}]`, `${r.name} has no card left for register ${open[k]} (the orders keep the others for another use)`);
    program[k] = unplayed.splice(below(st.rng, unplayed.length), 1)[0]!;
    filled.push({ register: open[k]!, reason: reasons[k]! });
  }
  // Legal as built: each card one of the hand's, none twice, an upgrade code only with its upgrade.
  return ok({ state: applyOrders(st, i, { program: program as Card[] }), events: filled.length ? [{ type: 'programmed', robot: i, filled }] : [] });
}

/** A seat's orders for a turn as the engine enters them at the deadline (`enterOrders`). */
export interface SeatTurn {
  /** The orders; `program` holds a card per open register, 0 for one left to the random fill. */
  readonly orders: Orders;
  /** The first turn: the facing the robot starts with (`chooseFacing`, 002 L38-39). */
  readonly facing?: Dir | null;
  /** Cards the orders use besides the program (joined, set aside, stored): the fill draws none of them. */
  readonly reserved?: readonly Card[];
  /** How to re-enter if destroyed this turn. */
  readonly reentry?: Reentry | null;
  /** What of the stored orders did not read (`storedTurn`), with the reader's error. */
  readonly unread?: readonly { readonly field: string; readonly message: string }[];
  /** Program entries (by open register, from 0) that did not read: the fill names their reason `unreadable`. */
  readonly unreadable?: readonly number[];
}

/**
 * A seat's orders the engine checked when they were sent, against the turn as dealt
 * (`readOrders`, or `storedTurn` for orders it read then): entered at the deadline without being
 * checked again (`enterCheckedOrders`).
 */
export type CheckedTurn = SeatTurn & { readonly checkedWhenSent: true };

/** A seat's orders entered: the state with them, the random fill's events, and whether the engine refused some of them. */
export interface Entered {
  readonly state: GameState;
  /** The `programmed` event naming the registers filled at random, if any. */
  readonly events: GameEvent[];
  /** The engine's refusal of the orders: the program was kept, the rest dropped; null when it took them. */
  readonly refused: EngineError | null;
}

/**
 * Robot i's orders entered at the deadline (001 L83, L393; RULES.md threeMinuteRule): the empty
 * or illegal registers filled at random from the cards the orders leave, then the orders with the
 * program as filled, a joined card kept only beside the card it was sent with. The engine checks
 * them here, once; what it refuses is dropped, the program kept. Nothing sent: the fill alone.
 */
export function enterOrders(setup: Setup, state: GameState, i: number, sent?: SeatTurn): Result<Entered> {
  return enter(setup, state, i, sent, true);
}

/** As `enterOrders`, for orders checked when they were sent (`CheckedTurn`): they are not checked again. */
export function enterCheckedOrders(setup: Setup, state: GameState, i: number, sent: CheckedTurn): Result<Entered> {
  return enter(setup, state, i, sent, false);
}

function enter(setup: Setup, state: GameState, i: number, sent: SeatTurn | undefined, check: boolean): Result<Entered> {
  const partial = sent?.orders.program ?? [];
  let s = state;
  let events: GameEvent[] = [];
  if (needsProgram(s, i)) {
    const filled = fillProgram(setup, s, i, partial, sent?.reserved ?? [], sent?.unreadable ?? []);
    if (!filled.ok) return filled;
    s = filled.value.state;
    events = filled.value.events;
  }
  if (!sent) return ok({ state: s, events, refused: null });
  const r = s.robots[i]!;
  const program = needsProgram(s, i) ? openRegisters(r.locked).map((reg) => r.registers[reg - 1]!) : [];
  const joined = program.map((c, k) => (c === partial[k] ? sent.orders.joined?.[k] ?? 0 : 0));
  const orders: Orders = { ...sent.orders, program, joined };
  // Checked when sent, but against a hand the robot no longer holds (a turn taken back after a
  // Recompile), or for a robot no longer on the floor: checked again.
  const stale = r.status !== 'active' || [...partial, ...(sent.reserved ?? [])].some((c) => c && !r.hand.includes(handCard(c)));
  const refused = check || stale ? checkOrders(setup, s, i, orders) : null;
  if (!refused || refused.ok) return ok({ state: applyOrders(s, i, orders), events, refused: null });
  const { powerDown, stayDown, takeOption, unlock } = sent.orders;
  const plain: Orders = { powerDown, stayDown, takeOption, unlock, program };
  return ok({ state: checkOrders(setup, s, i, plain) ? s : applyOrders(s, i, plain), events, refused: refused.error });
}

/** Robots that still owe a program this turn. */
export const missingPrograms = (state: GameState): number[] =>
  state.robots.map((r, i) => (r.programmed ? -1 : i)).filter((i) => i >= 0);

/**
 * The next register phase: its steps in the rule set's order. Before the first, the programs are
 * revealed: unplayed cards are discarded and power-down announcements made public.
 */
export function playRegister(setup: Setup, state: GameState, o?: Options): Result<Outcome> {
  const why = registerRefusal(state);
  if (why) return why;
  const ctx = begin(setup, state, o, state.phase === 'programming');
  registerOn(ctx);
  return done(ctx);
}

function registerRefusal(state: GameState): Result<never> | null {
  if (state.phase === 'programming') {
    let all = true;
    for (let i = 0; i < state.robots.length && all; i++) all = state.robots[i]!.programmed; // a loop: no closure per call
    if (all) return null;
    const missing = missingPrograms(state);
    if (missing.length)
      return err('programs', `no program yet for ${missing.map((i) => state.robots[i]!.name).join(', ')}`);
    return null;
  }
  if (state.phase !== 'registers' || state.register >= 5) return err('phase', 'no register phase is due; begin a turn first');
  return null;
}

/**
 * The reveal: the cards of robot r's hand that are not in its program (registers, joined cards) go
 * to the discard, in hand order. Which register holds a hand card, if any, is random, so a test of
 * the card against each register mispredicts a branch for nearly every card: the cards are
 * compared without branches where they are 32-bit integers (every dealt card is), the others
 * (a robot with joined cards, a state holding something else) one test at a time.
 */
function discardUnplayed(ctx: Ctx, r: RobotState): void {
  const discard = ctx.state.discard;
  const hand = r.hand;
  const reg = r.registers;
  if (r.opt === null && reg.length === 5 && unplayedOf(ctx.work, hand, reg)) {
    const unplayed = ctx.work.unplayed;
    for (let k = 0, n = ctx.work.nunplayed; k < n; k++) discard.push(unplayed[k]!);
    return;
  }
  const joined = r.opt?.joined;
  if (reg.length !== 5) {
    for (let k = 0; k < hand.length; k++) {
      const c = hand[k]!;
      if (!reg.includes(c) && !(joined && joined.includes(c))) discard.push(c);
    }
    return;
  }
  const r0 = reg[0], r1 = reg[1], r2 = reg[2], r3 = reg[3], r4 = reg[4];
  for (let k = 0; k < hand.length; k++) {
    const c = hand[k]!;
    if (c === r0 || c === r1 || c === r2 || c === r3 || c === r4 || (joined && joined.includes(c))) continue;
    discard.push(c);
  }
}

function registerOn(ctx: Ctx): void {
  const st = ctx.state;
  if (st.phase === 'programming') {
    st.phase = 'registers';
    for (let i = 0; i < st.robots.length; i++) {
      const r = st.robots[i]!;
      // The hand may still be the input state's array (begin's `reveal`): read it, replace it.
      if (r.hand.length) {
        if (r.opt) setAside(ctx, i);
        discardUnplayed(ctx, r);
        r.hand = [];
      }
      if (r.announced) ctx.events?.push({ type: 'powerDownAnnounced', robot: i });
    }
  }
  const register = ++st.register;
  startRegister(ctx);
  ctx.events?.push({ type: 'registerBegan', register });
  runSteps(ctx, ctx.rules.registerSteps, register);
}

/**
 * The end of a turn (000 L101-102, RULES.md): powered-up robots repair on repair sites and
 * flags, or take an option on a two-wrench site; virtual robots standing alone become real
 * (000 L109); unlocked registers are emptied. Power-down decisions take effect when the next turn
 * begins.
 */
export function endTurn(setup: Setup, state: GameState, o?: Options): Result<Outcome> {
  if (state.phase !== 'registers' || state.register !== 5)
    return err('phase', 'the turn ends after its fifth register phase');
  const ctx = begin(setup, state, o);
  endOn(ctx);
  return done(ctx);
}

function endOn(ctx: Ctx): void {
  const st = ctx.state;
  const b = ctx.board;
  const rep = ctx.rules.repair;
  const robots = st.robots;
  // Plain loops: a closure per forEach was a measurable part of a turn's end. One look at the
  // robots repairs them and notes, once repaired, those holding options or option memory (a bit
  // each; past 31 robots, all) and whether a virtual robot is on the floor: a repair or an option
  // drawn touches its own robot only, and nothing at the end of a turn makes a robot virtual or
  // real before the look for those standing alone.
  const wide = robots.length > 31;
  let virtuals = false;
  let holding = 0;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status === 'active' && !r.poweredDown) { // B-20: powered-down robots repair nothing
      const c = r.y * b.width + r.x;
      const f = b.floor[c];
      if (f === Floor.DoubleWrench) ctx.rules.doubleWrench(ctx, i);
      else if (f === Floor.Wrench) repair(ctx, i, rep.wrench, 'wrench');
      else if (b.flagAt[c]) repair(ctx, i, rep.flag, 'flag'); // 000 L275 a flag is a one-wrench site
    }
    if (r.opt || r.options.length) holding |= 1 << i;
    if (r.status === 'active' && r.virtual) virtuals = true;
  }
  for (let i = 0, m = holding; i < robots.length; i++) {
    if (wide) {
      const r = robots[i]!;
      if (!r.opt && !r.options.length) continue;
    } else {
      if (!m) break;
      i = 31 - Math.clz32(m & -m);
      m &= m - 1;
    }
    chopShop(ctx, i, 'end');
    circuitBreaker(ctx, i);
  }
  ctx.rules.endOfTurn?.(ctx);
  for (let i = 0; virtuals && i < robots.length; i++) {
    const r = robots[i]!;
    if (r.status !== 'active' || !r.virtual) continue;
    let alone = true;
    for (let j = 0; j < robots.length && alone; j++) {
      const o = robots[j]!;
      if (j !== i && o.status === 'active' && o.x === r.x && o.y === r.y) alone = false;
    }
    if (alone) {
      r.virtual = false;
      ctx.occ[r.y * b.width + r.x] = i + 1;
      ctx.events?.push({ type: 'becameReal', robot: i });
    }
  }
  clearRegisters(ctx);
  ctx.events?.push({ type: 'turnEnded', turn: st.turn });
}

/** Unlocked registers and unplayed hands go to the discard; locked registers keep their cards. */
function clearRegisters(ctx: Ctx): void {
  const st = ctx.state;
  for (const r of st.robots) {
    const keep = r.status === 'active' ? r.locked : 0;
    if (r.status !== 'active') r.locked = 0;
    const m = r.opt;
    for (let k = 0; k < 5; k++) {
      if (m) {
        m.copied[k] = 0;
        if (m.joined[k] && !(keep & (1 << k))) {
          st.discard.push(m.joined[k]!);
          m.joined[k] = 0;
        }
      }
      if (keep & (1 << k) || !r.registers[k]) continue;
      st.discard.push(r.registers[k]!);
      r.registers[k] = 0;
    }
    if (m?.aside) {
      st.discard.push(m.aside); // 2.5: an unused set-aside card is discarded at the end of the turn
      m.aside = 0;
    }
    if (r.hand.length) {
      for (const c of r.hand) st.discard.push(c);
      r.hand = [];
    }
    r.takeOption = false;
    if (r.unlock.length) r.unlock = [];
    r.programmed = false;
  }
  st.phase = 'ended';
}

/**
 * Ends a turn cut short after the register phases played so far, with no end-of-turn effects
 * (a scenario's `registers`, SCENARIOS.md); the next turn begins as usual.
 */
export function cutTurn(setup: Setup, state: GameState): Result<GameState> {
  const ctx = begin(setup, state, { events: false });
  clearRegisters(ctx);
  giveBack(ctx);
  return ok(ctx.state);
}

/** The remaining register phases and the end of the turn, all programs being in. */
export function playTurn(setup: Setup, state: GameState, o?: Options): Result<Outcome> {
  const why = registerRefusal(state);
  if (why) return why;
  const ctx = begin(setup, state, o, state.phase === 'programming');
  while (ctx.state.register < 5) registerOn(ctx);
  endOn(ctx);
  return done(ctx);
}
