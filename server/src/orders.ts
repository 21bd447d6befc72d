/**
 * A seat's orders for a turn, as the API takes them: the program (cards by name, `null` for a
 * register left to the deadline's random fill), power down, staying down, the two-wrench choice,
 * the registers freed first by repair, and how to re-enter if destroyed this turn.
 */
import { parseCard, parseDir, type Card, type Dir, type GameState, type Orders, type Reentry, type Setup } from '../../engine/src/index.js';
import { openRegisters, submitOrders } from '../../engine/src/index.js';
import { no, yes, type Answer } from './errors.js';

export interface SeatOrders {
  readonly program: (string | null)[];
  readonly powerDown: boolean;
  readonly stayDown: boolean;
  readonly takeOption: boolean;
  readonly unlock: number[];
  readonly reenter: { dir?: string; poweredDown?: boolean } | null;
}

const KEYS = new Set(['program', 'powerDown', 'stayDown', 'takeOption', 'unlock', 'reenter']);
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
  const unlock = body.unlock ?? [];
  if (!Array.isArray(unlock) || unlock.some((u) => !Number.isInteger(u) || u < 1 || u > 5)) return no(422, 'unlock', 'expected register numbers 1 to 5');
  let reenter: SeatOrders['reenter'] = null;
  if (body.reenter !== undefined && body.reenter !== null) {
    const re = body.reenter;
    if (!isObject(re) || Object.keys(re).some((k) => k !== 'dir' && k !== 'poweredDown')) return no(422, 'reenter', 'expected {"dir": "N"|"E"|"S"|"W", "poweredDown": bool}');
    if (re.dir !== undefined && parseDir(re.dir) === undefined) return no(422, 'reenter.dir', 'expected one of N, E, S, W');
    if (re.poweredDown !== undefined && typeof re.poweredDown !== 'boolean') return no(422, 'reenter.poweredDown', 'expected true or false');
    reenter = { ...(re.dir !== undefined ? { dir: re.dir as string } : {}), ...(re.poweredDown !== undefined ? { poweredDown: re.poweredDown as boolean } : {}) };
  }
  const open = openRegisters(r.locked);
  const needs = r.status === 'active' && !r.poweredDown && open.length > 0;
  const raw = body.program ?? (needs ? open.map(() => null) : []);
  if (!Array.isArray(raw)) return no(422, 'program', 'expected a list of cards, one per open register (null: leave it to the random fill)');
  if (!needs && raw.some((c) => c !== null)) return no(422, 'program', `${r.name} ${r.poweredDown ? 'is powered down' : r.status !== 'active' ? 'is not on the board' : 'has every register locked'} and plays no cards this turn`);
  if (needs && raw.length !== open.length) return no(422, 'program', `expected ${open.length} entries, one per open register (${open.join(', ')}), found ${raw.length}`);
  const left = r.hand.slice();
  const cards: (Card | null)[] = [];
  for (let k = 0; k < raw.length; k++) {
    const s = raw[k];
    if (s === null) {
      cards.push(null);
      continue;
    }
    const c = typeof s === 'string' ? parseCard(s, setup.rules.priorities) : undefined;
    if (c === undefined) return no(422, `program[${k}]`, `${JSON.stringify(s)} is not a card (${setup.rules.priorities ? 'write CODE:PRIORITY, e.g. "F2:670"' : 'write F1, F2, F3, B, L, R or U'})`);
    const at = left.indexOf(c);
    if (at < 0) return no(422, `program[${k}]`, r.hand.includes(c) ? `${s} is used twice` : `${s} is not in your hand`);
    left.splice(at, 1);
    cards.push(c);
  }
  // The engine has the last word on the rest (power down, stay down, unlock): a trial submission
  // with the empty registers filled from the unplayed cards.
  const trial: Orders = {
    program: cards.map((c) => c ?? left.shift()!),
    powerDown: powerDown.value,
    stayDown: stayDown.value,
    takeOption: takeOption.value,
    unlock,
  };
  const tried = submitOrders(setup, st, seat, needs ? trial : { ...trial, program: [] });
  if (!tried.ok) return no(422, tried.error.field, tried.error.message);
  return yes({ program: raw as (string | null)[], powerDown: powerDown.value, stayDown: stayDown.value, takeOption: takeOption.value, unlock: unlock as number[], reenter });
}

/** The engine's orders from stored ones; cards left out come back as 0 for the fill. */
export function engineOrders(setup: Setup, o: SeatOrders): { partial: Card[]; orders: Orders; reentry: Reentry | null } {
  const partial = o.program.map((s) => (s === null ? 0 : parseCard(s, setup.rules.priorities) ?? 0));
  const reentry = o.reenter ? { ...(o.reenter.dir ? { dir: parseDir(o.reenter.dir) as Dir } : {}), ...(o.reenter.poweredDown !== undefined ? { poweredDown: o.reenter.poweredDown } : {}) } : null;
  return { partial, orders: { powerDown: o.powerDown, stayDown: o.stayDown, takeOption: o.takeOption, unlock: o.unlock }, reentry };
}
