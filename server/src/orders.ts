/**
 * A seat's orders for a turn, as the API takes them: the program (cards by name, `null` for a
 * register left to the deadline's random fill), power down, staying down, the two-wrench choice,
 * the registers freed first by repair, and how to re-enter if destroyed this turn.
 */
import { handCard, parseChoices, parseDir, readEntry, type Card, type Choices, type Dir, type GameState, type Orders, type Reentry, type Setup } from '../../engine/src/index.js';
import { facingChoosable, openRegisters, submitOrders } from '../../engine/src/index.js';
import { no, yes, type Answer } from './errors.js';

export interface SeatOrders {
  /** The turn the orders are for. */
  readonly turn?: number;
  /** Cards by name, two joined by + where an option plays two in one register (`F1:500+R:80`). */
  readonly program: (string | null)[];
  readonly powerDown: boolean;
  readonly stayDown: boolean;
  readonly takeOption: boolean;
  readonly unlock: number[];
  readonly reenter: { dir?: string; poweredDown?: boolean } | null;
  /** The first turn only: the facing the robot starts with, N, E, S or W (002 L38-39). */
  readonly facing?: string;
  /** Option decisions as sent (OPTIONS.md part 4), checked against the robot's options. */
  readonly choices: Record<string, unknown> | null;
  /** Filled at random by the Three Minute Rule (004 L188): they stand, the seat cannot replace them. */
  readonly hurried?: true;
}

const KEYS = new Set(['turn', 'program', 'powerDown', 'stayDown', 'takeOption', 'unlock', 'reenter', 'facing', 'choices']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads orders and checks them against the robot's hand as the engine would (one card per open
 * register, each dealt to it, none twice, locked registers untouched); nothing is stored here.
 */
export function readOrders(setup: Setup, st: GameState, seat: number, body: unknown): Answer<SeatOrders> {
  if (!isObject(body)) return no(422, 'body', 'expected an object: {"program": [...], "powerDown": false, ...}');
  for (const k of Object.keys(body)) if (!KEYS.has(k)) return no(422, k, `unknown field (expected one of ${[...KEYS].join(', ')})`);
  const r = st.robots[seat]!;
  const flag = (k: string): Answer<boolean> =>
    body[k] === undefined ? yes(false) : typeof body[k] === 'boolean' ? yes(body[k] as boolean) : no(422, k, 'expected true or false');
  const powerDown = flag('powerDown');
  if (!powerDown.ok) return powerDown;
  const stayDown = flag('stayDown');
  if (!stayDown.ok) return stayDown;
  const takeOption = flag('takeOption');
  if (!takeOption.ok) return takeOption;
  const unlock = body.unlock === undefined ? [] : body.unlock;
  if (!Array.isArray(unlock) || unlock.length > 5 || unlock.some((u) => !Number.isInteger(u) || u < 1 || u > 5)) return no(422, 'unlock', 'expected at most 5 register numbers 1 to 5');
  let reenter: SeatOrders['reenter'] = null;
  if (body.reenter !== undefined && body.reenter !== null) {
    const re = body.reenter;
    if (!isObject(re) || Object.keys(re).some((k) => k !== 'dir' && k !== 'poweredDown')) return no(422, 'reenter', 'expected {"dir": "N"|"E"|"S"|"W", "poweredDown": bool}');
    if (re.dir !== undefined && parseDir(re.dir) === undefined) return no(422, 'reenter.dir', 'expected one of N, E, S, W');
    if (re.poweredDown !== undefined && typeof re.poweredDown !== 'boolean') return no(422, 'reenter.poweredDown', 'expected true or false');
    reenter = { ...(re.dir !== undefined ? { dir: re.dir as string } : {}), ...(re.poweredDown !== undefined ? { poweredDown: re.poweredDown as boolean } : {}) };
  }
  if (body.facing !== undefined && body.facing !== null) {
    if (parseDir(body.facing) === undefined) return no(422, 'facing', 'expected the starting facing: N, E, S or W');
    if (!facingChoosable(st, seat)) return no(422, 'facing', 'the starting facing is chosen in the first turn only (002 L38-39); after that, reenter.dir if destroyed');
  }
  const open = openRegisters(r.locked);
  const needs = r.status === 'active' && !r.poweredDown && open.length > 0;
  const raw = body.program === undefined ? (needs ? open.map(() => null) : []) : body.program;
  if (!Array.isArray(raw)) return no(422, 'program', 'expected a list of cards, one per open register (null: leave it to the random fill)');
  if (!needs && raw.some((c) => c !== null)) return no(422, 'program', `${r.name} ${r.poweredDown ? 'is powered down' : r.status !== 'active' ? 'is not on the board' : 'has every register locked'} and plays no cards this turn`);
  if (needs && raw.length !== open.length) return no(422, 'program', `expected ${open.length} entries, one per open register (${open.join(', ')}), found ${raw.length}`);
  const cards: (Card | null)[] = [];
  const joined: Card[] = [];
  for (let k = 0; k < raw.length; k++) {
    const s = raw[k];
    if (s === null) {
      cards.push(null);
      joined.push(0);
      continue;
    }
    const entry = readEntry(s, setup.rules);
    if (typeof entry === 'string') return no(422, `program[${k}]`, entry);
    cards.push(entry.card);
    joined.push(entry.joined);
  }
  let choices: Choices = {};
  if (body.choices !== undefined && body.choices !== null) {
    const c = parseChoices(body.choices, setup, r);
    if (!c.ok) return no(422, c.error.field, c.error.message);
    choices = c.value;
    // The new hand comes before the program that uses it: Recompile is a request of its own.
    if (choices.recompile) return no(422, 'choices.recompile', 'Recompile is a request of its own, made before programming: POST /api/races/{id}/seats/{seat}/recompile (by mail, a mail saying "recompile"), then send the program from the new hand');
  }
  if (unlock.length && body.choices && isObject(body.choices) && body.choices.unlock) return no(422, 'unlock', 'give the registers to free once: in unlock or in choices.unlock');
  // The engine has the last word on everything: a trial submission with the empty registers
  // filled from the cards nothing else uses.
  const left = r.hand.slice();
  const reserved = [...cards, ...joined, choices.conditional?.card, choices.flywheel].filter((c): c is Card => !!c).map(handCard);
  for (const c of reserved) if (left.includes(c)) left.splice(left.indexOf(c), 1);
  const trial: Orders = {
    program: cards.map((c) => c ?? left.shift() ?? 0),
    joined,
    powerDown: powerDown.value,
    stayDown: stayDown.value,
    takeOption: takeOption.value,
    unlock: choices.unlock ?? unlock,
    choices,
  };
  const tried = submitOrders(setup, st, seat, needs ? trial : { ...trial, program: [], joined: [] });
  if (!tried.ok) return no(422, tried.error.field, tried.error.message);
  return yes({
    ...(typeof body.turn === 'number' ? { turn: body.turn } : {}),
    program: raw as (string | null)[], powerDown: powerDown.value, stayDown: stayDown.value, takeOption: takeOption.value, unlock: unlock as number[], reenter,
    ...(body.facing !== undefined && body.facing !== null ? { facing: body.facing as string } : {}),
    choices: isObject(body.choices) ? body.choices : null,
  });
}

/**
 * The engine's orders from stored ones, read against the state as it stands at the deadline.
 * Cards left out come back as 0 for the fill; `reserved` are the cards the orders use besides the
 * program's own (joined, set aside, stored), which the fill must not draw.
 */
export function engineOrders(setup: Setup, st: GameState, seat: number, o: SeatOrders): { partial: Card[]; joined: Card[]; reserved: Card[]; orders: Orders; reentry: Reentry | null; facing: Dir | null } {
  const entries = o.program.map((s) => {
    const e = s === null ? null : readEntry(s, setup.rules);
    return e === null || typeof e === 'string' ? { card: 0, joined: 0 } : e;
  });
  const partial = entries.map((e) => e.card);
  const joined = entries.map((e) => e.joined);
  const c = o.choices ? parseChoices(o.choices, setup, st.robots[seat]!) : null;
  const choices = c?.ok ? c.value : {};
  const reentry = o.reenter ? { ...(o.reenter.dir ? { dir: parseDir(o.reenter.dir) as Dir } : {}), ...(o.reenter.poweredDown !== undefined ? { poweredDown: o.reenter.poweredDown } : {}) } : null;
  const reserved = [...joined, choices.conditional?.card ?? 0, choices.flywheel ?? 0].filter((x) => x);
  return {
    partial, joined, reserved, reentry, facing: o.facing ? (parseDir(o.facing) ?? null) : null,
    orders: { powerDown: o.powerDown, stayDown: o.stayDown, takeOption: o.takeOption, unlock: choices.unlock ?? o.unlock, choices },
  };
}
