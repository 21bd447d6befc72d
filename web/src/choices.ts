/**
 * The option decisions of the orders form, without the page: which decisions a robot is offered
 * (docs/options.md, "Deciding"), two cards joined in one register (Crab Legs, Dual Processor),
 * pbem's upgrade codes (F0, F4, B2) and classic's registers for Brakes, Fourth Gear and Reverse
 * Gear, the `choices` object as sent, and the control a refusal of the server names.
 */
import { CHOICE_OPTION, GEARS, TOGGLES, WEAPONS, cardType, joinRefusal, optionName, parseCard, type Gear } from '../../engine/src/index.js';

export { entryName, readWebEntry as readEntry, type WebEntry as Entry, type Gear } from '../../engine/src/index.js';

export type Choices = Record<string, unknown>;

/** The names of the options held, without uses left ("Mini Howitzer:3" is a Mini Howitzer). */
export const heldNames = (options: readonly string[]): Set<string> => new Set(options.map(optionName));

/**
 * The decisions of the rule set's `keys` a robot holding `options` can give in the form. Recompile
 * is a button of its own; `unlock` is the repair question; the movement cards are register toggles
 * (`gearFor`); a chop shop's only where the course has one.
 */
export function offered(keys: readonly string[], options: readonly string[], chopShop: boolean): string[] {
  const held = heldNames(options);
  return keys.filter((k) => {
    if (k === 'recompile' || GEARS.some((g) => g.key === k)) return false;
    const needs = CHOICE_OPTION[k];
    if (needs) return held.has(needs);
    switch (k) {
      case 'weapon': return WEAPONS.some((w) => held.has(w));
      case 'active': return TOGGLES.some((t) => held.has(t));
      case 'exchange': case 'lose': return held.size > 0;
      case 'chopShop': return chopShop;
      default: return false;
    }
  });
}

const card = (name: string) => parseCard(name, name.includes(':'));

/** The movement option that may play this card another way, if the robot holds it (the engine's GEARS). */
export function gearFor(name: string, options: readonly string[]): Gear | null {
  const c = card(name);
  if (c === undefined) return null;
  const held = heldNames(options);
  return GEARS.find((g) => g.from === cardType(c) && held.has(g.option)) ?? null;
}

/**
 * Whether `second` may join `main` in one register (Crab Legs, Dual Processor): the engine's
 * `joinRefusal`, asked before sending.
 */
export function canJoin(main: string, second: string, options: readonly string[]): boolean {
  const m = card(main), s = card(second);
  if (m === undefined || s === undefined) return false;
  const held = heldNames(options);
  return joinRefusal(m, s, (o) => held.has(o)) === null;
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && !v.length) || (typeof v === 'object' && !Array.isArray(v) && !Object.keys(v as object).length);

/** The decisions given, without those left at their default (empty, off, unset): null when none. */
export function compact(c: Choices): Choices | null {
  const out: Choices = {};
  for (const [k, v] of Object.entries(c)) {
    const value = v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => !isEmpty(x))) : v;
    if (!isEmpty(value)) out[k] = value;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * The control a refusal names: the longest of `fields` that is `field` or a part of it
 * (`choices.weapon` for `choices.weapon.3`), or null.
 */
export function fieldOf(field: string, fields: readonly string[]): string | null {
  const fits = fields.filter((f) => field === f || field.startsWith(`${f}.`) || field.startsWith(`${f}[`));
  return fits.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** Fire Control's modes for a register: damage, a lock on register K, or an option of the target destroyed. */
export function fireControlModes(targets: readonly string[]): { value: string; label: string }[] {
  return [
    { value: '', label: 'normal damage (default)' },
    ...[1, 2, 3, 4, 5].map((k) => ({ value: `lock:${k}`, label: `lock register ${k}` })),
    ...[...new Set(targets.map(optionName))].sort().map((o) => ({ value: `option:${o}`, label: `destroy ${o}` })),
  ];
}
