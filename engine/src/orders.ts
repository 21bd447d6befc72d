/**
 * A seat's orders as sent: the one reader of them for every way of playing. The server's API takes
 * them as JSON, the mail and the terminal write them from the notation (`parseOrders`, then
 * `apiOrders`), the web's orders form sends them; all come here. `readOrders` reads them strictly
 * (unknown keys and values refused, naming the field's path), checks them against the robot as
 * dealt (the engine's `checkOrders`, once), and gives them back as written (`SeatOrders`, what a
 * server keeps and shows) and as the engine enters them at the deadline (`CheckedTurn`).
 */
import { cardName, handCard, upgradeOf, type Card } from './cards.js';
import type { Setup } from './context.js';
import type { GameEvent } from './events.js';
import { facingChoosable } from './game.js';
import { parseDir } from './geometry.js';
import { readEntry } from './notation.js';
import { parseChoices } from './options/choices.js';
import { err, ok, type Result } from './result.js';
import type { Choices, GameState } from './state.js';
import { checkOrders, openRegisters, type CheckedTurn, type Orders } from './turn.js';

/** A seat's orders as written (the API's JSON, docs/server.md): cards by name, `null` for a register left to the random fill. */
export interface SeatOrders {
  /** The turn the orders are for. */
  readonly turn?: number;
  /** Cards by name, two joined by + where an option plays two in one register (`F1:500+R:80`). */
  readonly program: (string | null)[];
  readonly powerDown: boolean;
  readonly stayDown: boolean;
  readonly takeOption: boolean;
  /** Registers to free first when damage is repaired. */
  readonly unlock: number[];
  /** How to re-enter if destroyed this turn. */
  readonly reenter: { dir?: string; poweredDown?: boolean } | null;
  /** The first turn only: the facing the robot starts with, N, E, S or W (002 L38-39). */
  readonly facing?: string;
  /** Option decisions as sent (OPTIONS.md part 4), checked against the robot's options. */
  readonly choices: Record<string, unknown> | null;
}

/** The longest program entry read (the API's schema says the same). */
const MAX_ENTRY = 32;
const KEYS = ['turn', 'program', 'powerDown', 'stayDown', 'takeOption', 'unlock', 'reenter', 'facing', 'choices'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads robot `seat`'s orders for the turn dealt in `st`: each field as the API documents it, the
 * program one entry per open register (`readEntry`'s notation, null for the random fill), the
 * option decisions (`parseChoices`); then the engine's check (`checkOrders`) of the whole, with the
 * empty registers filled from the cards nothing else uses. Errors name the field's path
 * (`program[2]`, `choices.weapon.3`, `reenter.dir`).
 */
export function readOrders(setup: Setup, st: GameState, seat: number, body: unknown): Result<{ written: SeatOrders; turn: CheckedTurn }> {
  if (!isObject(body)) return err('body', 'expected an object: {"program": [...], "powerDown": false, ...}');
  for (const k of Object.keys(body)) if (!KEYS.includes(k)) return err(k, `unknown field (expected one of ${KEYS.join(', ')})`);
  const r = st.robots[seat];
  if (!r) return err('seat', `no robot number ${seat}`);
  const flag = (k: string): Result<boolean> =>
    body[k] === undefined ? ok(false) : typeof body[k] === 'boolean' ? ok(body[k] as boolean) : err(k, 'expected true or false');
  const powerDown = flag('powerDown');
  if (!powerDown.ok) return powerDown;
  const stayDown = flag('stayDown');
  if (!stayDown.ok) return stayDown;
  const takeOption = flag('takeOption');
  if (!takeOption.ok) return takeOption;
  if (body.turn !== undefined && (!Number.isSafeInteger(body.turn) || (body.turn as number) < 1)) return err('turn', 'expected the number of the turn the orders are for');
  const unlock = body.unlock === undefined ? [] : body.unlock;
  if (!Array.isArray(unlock) || unlock.length > 5 || unlock.some((u) => !Number.isInteger(u) || u < 1 || u > 5)) return err('unlock', 'expected register numbers 1 to 5');
  if (new Set(unlock).size < unlock.length) return err('unlock', 'expected register numbers 1 to 5, each once');
  let reenter: SeatOrders['reenter'] = null;
  if (body.reenter !== undefined && body.reenter !== null) {
    const re = body.reenter;
    if (!isObject(re) || Object.keys(re).some((k) => k !== 'dir' && k !== 'poweredDown')) return err('reenter', 'expected {"dir": "N"|"E"|"S"|"W", "poweredDown": bool}');
    if (re.dir !== undefined && parseDir(re.dir) === undefined) return err('reenter.dir', 'expected one of N, E, S, W');
    if (re.poweredDown !== undefined && typeof re.poweredDown !== 'boolean') return err('reenter.poweredDown', 'expected true or false');
    reenter = { ...(re.dir !== undefined ? { dir: re.dir as string } : {}), ...(re.poweredDown !== undefined ? { poweredDown: re.poweredDown as boolean } : {}) };
  }
  if (body.facing !== undefined && body.facing !== null) {
    if (parseDir(body.facing) === undefined) return err('facing', 'expected the starting facing: N, E, S or W');
    if (!facingChoosable(st, seat)) return err('facing', 'the starting facing is chosen in the first turn only (002 L38-39); after that, reenter.dir if destroyed');
  }
  const open = openRegisters(r.locked);
  const needs = needsCards(r);
  const raw = body.program === undefined ? (needs ? open.map(() => null) : []) : body.program;
  if (!Array.isArray(raw) || raw.length > 5) return err('program', 'expected a list of cards, one per open register (null: leave it to the random fill)');
  if (!needs && raw.some((c) => c !== null)) return err('program', `${r.name} ${r.poweredDown ? 'is powered down' : r.status !== 'active' ? 'is not on the board' : 'has every register locked'} and plays no cards this turn`);
  if (needs && raw.length !== open.length) return err('program', `expected ${open.length} entries, one per open register (${open.join(', ')}), found ${raw.length}`);
  const entries: Entry[] = [];
  for (let k = 0; k < raw.length; k++) {
    if (typeof raw[k] === 'string' && raw[k].length > MAX_ENTRY) return err(`program[${k}]`, `expected a card, at most ${MAX_ENTRY} characters ("F1:500+R:80")`);
    const entry = raw[k] === null ? NO_ENTRY : readEntry(raw[k], setup.rules);
    if (typeof entry === 'string') return err(`program[${k}]`, entry);
    entries.push(entry);
  }
  const choices = parseChoices(body.choices, setup, r);
  if (!choices.ok) return choices;
  // The new hand comes before the program that uses it: Recompile is a request of its own.
  if (choices.value.recompile) return err('choices.recompile', 'Recompile is a request of its own, made before programming: POST /api/races/{id}/seats/{seat}/recompile (by mail, a mail saying "recompile"), then send the program from the new hand');
  if (unlock.length && isObject(body.choices) && body.choices.unlock) return err('unlock', 'give the registers to free once: in unlock or in choices.unlock');
  const written: SeatOrders = {
    ...(body.turn !== undefined ? { turn: body.turn as number } : {}),
    // Each entry as the engine names it ("f2:0670 " is F2:670): what is kept and shown is what was read.
    program: raw.map((c, k) => (c === null ? null : entryText(entries[k]!))), powerDown: powerDown.value, stayDown: stayDown.value, takeOption: takeOption.value, unlock: unlock as number[], reenter,
    ...(body.facing !== undefined && body.facing !== null ? { facing: body.facing as string } : {}),
    choices: isObject(body.choices) ? body.choices : null,
  };
  const turn = checkedTurn(written, entries, choices.value);
  // The engine has the last word on everything: the orders with the empty registers filled from
  // the cards nothing else uses (the random fill draws from those at the deadline).
  const left = r.hand.slice();
  for (const c of [...turn.orders.program!, ...turn.reserved!].filter((x) => x).map(handCard)) if (left.includes(c)) left.splice(left.indexOf(c), 1);
  const trial: Orders = { ...turn.orders, program: needs ? turn.orders.program!.map((c) => c || left.shift() || 0) : [], joined: needs ? turn.orders.joined! : [] };
  return checkOrders(setup, st, seat, trial) ?? ok({ written, turn });
}

/**
 * The cards of robot `seat`'s hand that a turn's events showed (those of every time the turn was
 * played, rewound ones too; `st` is the turn as dealt): each card revealed in one of its open
 * registers, and any card joined to it, as often as one play showed it, since its last Recompile.
 * A card copied (Radio Control), drawn from the deck (Abort Switch, Scrambler) or revealed in a
 * locked register is none of the hand's.
 */
export function shownCards(st: GameState, seat: number, events: readonly GameEvent[]): Card[] {
  const locked = st.robots[seat]?.locked ?? 0b11111;
  let most = new Map<Card, number>();
  let play = new Map<Card, number>();
  let drawn = new Set<number>();
  for (const e of events) {
    if (e.type === 'recompiled' && e.robot === seat) (most = new Map()), (play = new Map());
    else if (e.type === 'registerBegan' && e.register === 1) (play = new Map()), (drawn = new Set());
    else if ((e.type === 'aborted' || e.type === 'scrambled') && e.robot === seat) drawn.add(e.register);
    else if (e.type === 'revealed' && e.robot === seat && !e.copy && !(locked & (1 << (e.register - 1))) && !drawn.has(e.register)) {
      for (const c of e.joined ? [e.card, e.joined] : [e.card]) {
        const n = (play.get(handCard(c)) ?? 0) + 1;
        play.set(handCard(c), n);
        if (n > (most.get(handCard(c)) ?? 0)) most.set(handCard(c), n);
      }
    }
  }
  return [...most].flatMap(([c, n]) => Array<Card>(n).fill(c));
}

/**
 * The moderator's correction of robot `seat`'s orders on a turn taken back, read as `readOrders`
 * reads a seat's own, but against the cards the turn showed (`shown`, from `shownCards`) in place
 * of the hand, so that no answer depends on a card that was never shown: a card the robot holds
 * unplayed is refused exactly as one it does not hold (issue 13: the moderator key opens no hand).
 * For the same reason every open register names a card (the random fill would draw from the cards
 * never shown), and in a race whose options are secret a correction makes no option decisions,
 * plays no gear's code and joins no cards (each would be taken only from a robot holding the option).
 */
export function readCorrection(setup: Setup, st: GameState, seat: number, body: unknown, shown: readonly Card[]): Result<{ written: SeatOrders; turn: CheckedTurn }> {
  const r = st.robots[seat];
  if (!r) return err('seat', `no robot number ${seat}`);
  // The hand as far as it was shown (the cards shown of its open registers all came from it).
  const left = shown.slice();
  const hand: Card[] = [];
  for (const c of r.hand) {
    const k = left.indexOf(c);
    if (k >= 0) left.splice(k, 1), hand.push(c);
  }
  if (isObject(body)) {
    const named = !needsCards(r) || (Array.isArray(body.program) && body.program.every((c) => c !== null));
    if (!named) return err('program', `a correction names a card for every open register, from those ${r.name} showed when turn ${st.turn} was played (${hand.map(cardName).join(' ') || 'none'}): the random fill would draw from cards never shown`);
    if (setup.settings.secretOptions && body.choices !== undefined && body.choices !== null) return err('choices', 'the options are secret in this race: a correction makes no option decisions');
    // A gear's code or two cards joined in a register is taken only from a robot holding the option.
    const onOption = (c: unknown) => typeof c === 'string' && c.length <= MAX_ENTRY && ((e) => typeof e !== 'string' && (e.joined !== 0 || upgradeOf(e.card) !== undefined))(readEntry(c, setup.rules));
    if (setup.settings.secretOptions && Array.isArray(body.program) && body.program.some(onOption)) return err('program', 'the options are secret in this race: a correction plays no gear\'s code (F0, F4, B2) and joins no cards');
  }
  return readOrders(setup, { ...st, robots: st.robots.map((x, i) => (i === seat ? { ...x, hand } : x)) }, seat, body);
}

const needsCards = (r: GameState['robots'][number]): boolean => r.status === 'active' && !r.poweredDown && openRegisters(r.locked).length > 0;

/** A program entry read: the card, and the card joined to it (0: none); both 0 for a register left to the random fill. */
type Entry = { card: Card; joined: Card };
const entryText = (e: Entry): string => `${cardName(e.card)}${e.joined ? `+${cardName(e.joined)}` : ''}`;
const NO_ENTRY: Entry = { card: 0, joined: 0 };

/** Stored orders read again (`storedTurn`, `storedOrders`). */
interface Reread {
  /** As they will be played, written as the API writes them (`SeatOrders`). */
  readonly written: SeatOrders;
  readonly entries: readonly Entry[];
  readonly choices: Choices;
  readonly unread: readonly { field: string; message: string }[];
  readonly unreadable: readonly number[];
}

function reread(setup: Setup, st: GameState, seat: number, stored: unknown): Reread {
  const unread: { field: string; message: string }[] = [];
  const unreadable: number[] = [];
  const o: Record<string, unknown> = isObject(stored) ? stored : {};
  if (!isObject(stored)) unread.push({ field: 'body', message: 'expected the orders as stored, an object' });
  else if (!Array.isArray(o.program)) unread.push({ field: 'program', message: 'expected a list of cards, one per open register (null: leave it to the random fill)' });
  if (!Array.isArray(o.program)) unreadable.push(0, 1, 2, 3, 4);
  const program: unknown[] = Array.isArray(o.program) ? o.program : [];
  const entries = program.map((s, k) => {
    const e = s === null ? NO_ENTRY : typeof s === 'string' ? readEntry(s, setup.rules) : 'expected a card or null';
    if (typeof e !== 'string') return e;
    unread.push({ field: `program[${k}]`, message: e });
    unreadable.push(k);
    return NO_ENTRY;
  });
  const flag = (k: string): boolean => {
    if (o[k] !== undefined && typeof o[k] !== 'boolean') unread.push({ field: k, message: 'expected true or false' });
    return o[k] === true;
  };
  const unlock = o.unlock === undefined || (Array.isArray(o.unlock) && o.unlock.every((u) => Number.isInteger(u) && u >= 1 && u <= 5)) ? (o.unlock as number[] | undefined) ?? [] : null;
  if (unlock === null) unread.push({ field: 'unlock', message: 'expected register numbers 1 to 5' });
  const re = o.reenter;
  if (re !== undefined && re !== null && !isObject(re)) unread.push({ field: 'reenter', message: 'expected {"dir": "N"|"E"|"S"|"W", "poweredDown": bool}' });
  const flags = { powerDown: flag('powerDown'), stayDown: flag('stayDown'), takeOption: flag('takeOption') };
  const r = st.robots[seat];
  const parsed = r && o.choices !== undefined && o.choices !== null ? parseChoices(o.choices, setup, r) : null;
  if (parsed && !parsed.ok) unread.push(parsed.error);
  // No program to read: a register left to the random fill per open register.
  const open = r && Array.isArray(o.program) ? [] : openRegisters(r?.locked ?? 0);
  const written: SeatOrders = {
    ...(Number.isInteger(o.turn) ? { turn: o.turn as number } : {}),
    program: Array.isArray(o.program) ? entries.map((e) => (e.card ? entryText(e) : null)) : open.map(() => null),
    ...flags, unlock: unlock ?? [],
    reenter: isObject(re) ? { ...(typeof re.dir === 'string' ? { dir: re.dir } : {}), ...(typeof re.poweredDown === 'boolean' ? { poweredDown: re.poweredDown } : {}) } : null,
    ...(typeof o.facing === 'string' ? { facing: o.facing } : {}),
    // An unreadable decision is left out, with the others (`storedTurn` enters none of them).
    choices: isObject(o.choices) && (!parsed || parsed.ok) ? o.choices : null,
  };
  return { written, entries, choices: parsed?.ok ? parsed.value : {}, unread, unreadable };
}

/**
 * Orders `readOrders` took and stored, read again against the turn as dealt, as the engine enters
 * them at the deadline (`enterCheckedOrders`): a card per open register, 0 for one left to the
 * random fill; the cards the orders use besides the program (joined, set aside, stored), which the
 * fill must not draw; the re-entry and the starting facing asked for. Nothing is checked here: it
 * was when they were sent. What no longer reads (a corrupt row, an older format: only a change of
 * the stored orders makes one) is never dropped in silence: it is named in `unread` with the
 * reader's error, a program entry's register is filled at random as `unreadable` (the whole
 * program if there is none to read), and an unreadable decision is left out.
 */
export function storedTurn(setup: Setup, st: GameState, seat: number, stored: unknown): CheckedTurn {
  const { written, entries, choices, unread, unreadable } = reread(setup, st, seat, stored);
  const turn = checkedTurn(written, entries, choices);
  return unread.length ? { ...turn, unread, ...(unreadable.length ? { unreadable } : {}) } : turn;
}

/**
 * Stored orders as the seat may see them: as they will be played (`storedTurn`), written as the
 * API writes them. What no longer reads is named in `unread` and shown as it will be played: a
 * program entry as `null` (filled at random), a flag as false, the option decisions as none.
 * Orders that read are shown as they were stored.
 */
export function storedOrders(setup: Setup, st: GameState, seat: number, stored: unknown): { orders: SeatOrders; unread: readonly { field: string; message: string }[] } {
  const { written, unread } = reread(setup, st, seat, stored);
  return { orders: unread.length ? written : (stored as SeatOrders), unread };
}

/** Orders as written, with their entries and decisions read, as the engine enters them (`storedTurn`). */
function checkedTurn(o: SeatOrders, entries: readonly Entry[], choices: Choices): CheckedTurn {
  const joined = entries.map((e) => e.joined);
  const dir = o.reenter?.dir === undefined ? undefined : parseDir(o.reenter.dir);
  return {
    orders: { program: entries.map((e) => e.card), joined, powerDown: o.powerDown, stayDown: o.stayDown, takeOption: o.takeOption, unlock: choices.unlock ?? o.unlock, choices },
    reserved: [...joined, choices.conditional?.card ?? 0, choices.flywheel ?? 0].filter((x): x is Card => !!x),
    reentry: o.reenter ? { ...(dir !== undefined ? { dir } : {}), ...(o.reenter.poweredDown !== undefined ? { poweredDown: o.reenter.poweredDown } : {}) } : null,
    facing: o.facing ? (parseDir(o.facing) ?? null) : null,
    checkedWhenSent: true,
  };
}
