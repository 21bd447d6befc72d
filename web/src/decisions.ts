/**
 * The controls of the option decisions a robot is offered (docs/options.md, "Deciding"), each
 * saying its default, each marked with the field a refusal of the server would name
 * (`data-field="choices.KEY"`). Stateless: it draws `choices` and reports every change by `set`.
 */
import { TOGGLES, WEAPONS, optionName } from '../../engine/src/index.js';
import { h } from './api.js';
import { fireControlModes, heldNames, type Choices } from './choices.js';
import { cardWords } from './words.js';

export interface DecisionsInput {
  /** The decisions offered (`offered` of choices.ts). */
  readonly keys: readonly string[];
  /** The robot's options, as its seat sees them. */
  readonly options: readonly string[];
  readonly choices: Choices;
  /** Cards of the hand in no register: what Conditional Program and Flywheel may take. */
  readonly spare: readonly string[];
  /** Options other robots are seen to hold (Fire Control's targets). */
  readonly targets: readonly string[];
  readonly set: (key: string, value: unknown) => void;
}

type Choice = { value: string; label: string };

const select = (field: string, label: string, value: string, choices: readonly Choice[], onchange: (v: string) => void) =>
  h('label', { class: 'decision' }, `${label} `, h('select', { 'data-field': field, name: field, onchange: (e: Event) => onchange((e.target as HTMLSelectElement).value) },
    ...choices.map((c) => h('option', { value: c.value, selected: c.value === value }, c.label))));

const checkbox = (field: string, label: string, on: boolean, onchange: (on: boolean) => void) =>
  h('label', { class: 'decision' }, h('input', { type: 'checkbox', 'data-field': field, name: field, checked: on, onchange: (e: Event) => onchange((e.target as HTMLInputElement).checked) }), ` ${label}`);

const REGISTERS = [1, 2, 3, 4, 5];
/** A per-register decision as the selects show it: 003's conditional weapon order as "NAME if it falls". */
const IF_FALLS = ' if the target falls';
const perRegister = (c: Choices, key: string): Record<string, string> =>
  Object.fromEntries(Object.entries((c[key] ?? {}) as Record<string, string | { weapon: string }>).map(([reg, v]) => [reg, typeof v === 'string' ? v : v.weapon + IF_FALLS]));
const asOrder = (v: string): string | { weapon: string; if: 'falls' } => (v.endsWith(IF_FALLS) ? { weapon: v.slice(0, -IF_FALLS.length), if: 'falls' } : v);
/** Weapons that move their target, so that a conditional order "if it falls" means something. */
const MOVERS = new Set(['Tractor Beam', 'Pressor Beam', 'Mini Howitzer']);
const cardChoices = (cards: readonly string[], none: string, keep?: string): Choice[] =>
  [{ value: '', label: none }, ...[...new Set([...(keep ? [keep] : []), ...cards])].map((c) => ({ value: c, label: cardWords(c) }))];

/** The controls for one decision. */
function control(key: string, d: DecisionsInput): HTMLElement {
  const c = d.choices, held = heldNames(d.options), f = `choices.${key}`;
  switch (key) {
    case 'shield':
      return select(f, 'Shield covers the', String(c.shield ?? 'front'), ['front', 'right', 'back', 'left'].map((s) => ({ value: s, label: s === 'front' ? 'front (default)' : s })), (v) => d.set(key, v === 'front' ? undefined : v));
    case 'gyro':
      return checkbox(f, 'Gyroscopic Stabilizer on this turn (default off)', c.gyro === true, (on) => d.set(key, on || undefined));
    case 'weapon': case 'fireControl': {
      const map = perRegister(c, key);
      const modes: Choice[] = key === 'weapon'
        ? [{ value: '', label: 'main laser (default)' }, ...WEAPONS.filter((w) => held.has(w)).flatMap((w) => [
          { value: w, label: w },
          ...(MOVERS.has(w) ? [{ value: w + IF_FALLS, label: `${w} if the target falls (003's conditional order)` }] : []),
        ])]
        : fireControlModes(d.targets);
      const value = (v: string) => (key === 'weapon' ? asOrder(v) : v);
      return h('fieldset', { class: 'decision per-register', 'data-field': f }, h('legend', {}, key === 'weapon' ? 'Weapon fired, per register' : 'Fire Control, per register'),
        ...REGISTERS.map((reg) => select(`${f}.${reg}`, `${reg}:`, map[reg] ?? '', modes, (v) => {
          const next: Record<string, string> = { ...map, [reg]: v };
          d.set(key, Object.fromEntries(Object.entries(next).filter(([, x]) => x).map(([r, x]) => [r, value(x)])));
        })));
    }
    case 'abort':
      return select(f, 'Abort Switch from register', String(c.abort ?? ''), [{ value: '', label: 'not used (default)' }, ...REGISTERS.map((r) => ({ value: String(r), label: String(r) }))], (v) => d.set(key, v ? Number(v) : undefined));
    case 'conditional': {
      const cond = (c.conditional ?? {}) as { card?: string; register?: number };
      const put = (next: { card?: string; register?: number }) => {
        const merged = { ...cond, ...next };
        d.set(key, merged.card ? merged : undefined);
      };
      return h('fieldset', { class: 'decision', 'data-field': f }, h('legend', {}, 'Conditional Program'),
        select(`${f}.card`, 'set aside', cond.card ?? '', cardChoices(d.spare, 'no card (default: not used)', cond.card), (v) => put({ card: v || undefined })),
        select(`${f}.register`, 'to swap into register', String(cond.register ?? ''), [{ value: '', label: 'choose' }, ...REGISTERS.map((r) => ({ value: String(r), label: String(r) }))], (v) => put({ register: v ? Number(v) : undefined })));
    }
    case 'flywheel':
      return select(f, 'Flywheel stores', String(c.flywheel ?? ''), cardChoices(d.spare, 'no card (default)', c.flywheel as string | undefined), (v) => d.set(key, v || undefined));
    case 'exchange': {
      const list = (c.exchange ?? []) as string[];
      return h('fieldset', { class: 'decision', 'data-field': f }, h('legend', {}, 'Discard instead of damage, one option a point, in the order ticked (default: none)'),
        ...d.options.map(optionName).map((o) => checkbox(`${f}.${o}`, list.includes(o) ? `${o} (${list.indexOf(o) + 1})` : o, list.includes(o), (on) => d.set(key, on ? [...list, o] : list.filter((x) => x !== o)))));
    }
    case 'lose':
      return select(f, 'If destroyed, lose', String(c.lose ?? ''), [{ value: '', label: 'the newest option (default)' }, ...d.options.map(optionName).map((o) => ({ value: o, label: o }))], (v) => d.set(key, v || undefined));
    case 'chopShop': {
      const shop = (c.chopShop ?? {}) as { register?: number | 'end'; scrap?: string; recharge?: string; draw?: boolean };
      const act = shop.scrap ? `scrap:${shop.scrap}` : shop.recharge ? `recharge:${shop.recharge}` : shop.draw ? 'draw' : '';
      const put = (register: number | 'end', a: string) => {
        const [what, name] = a.split(':') as [string, string?];
        d.set(key, !a ? undefined : what === 'draw' ? { register: 'end', draw: true } : { register, [what]: name });
      };
      const where = shop.register ?? 'end';
      return h('fieldset', { class: 'decision', 'data-field': f }, h('legend', {}, 'At a chop shop'),
        select(`${f}.register`, 'at the end of', String(where), [...REGISTERS.map((r) => ({ value: String(r), label: `register ${r}` })), { value: 'end', label: 'the turn' }], (v) => put(v === 'end' ? 'end' : Number(v), act)),
        select(`${f}.action`, '', act, [{ value: '', label: 'do nothing (default)' },
          ...d.options.map(optionName).flatMap((o) => [{ value: `scrap:${o}`, label: `scrap ${o} for a new one` }, { value: `recharge:${o}`, label: `recharge ${o}` }]),
          { value: 'draw', label: 'draw an extra option (end of the turn)' }], (v) => put(where, v)));
    }
    case 'active': {
      const on = (c.active ?? []) as string[];
      return h('fieldset', { class: 'decision', 'data-field': f }, h('legend', {}, 'Switched on this round (default: all off)'),
        ...TOGGLES.filter((t) => held.has(t)).map((t) => checkbox(`${f}.${t}`, t, on.includes(t), (yes) => d.set(key, yes ? [...on, t] : on.filter((x) => x !== t)))));
    }
    case 'circuitBreaker':
      return h('label', { class: 'decision' }, 'Circuit Breaker powers down at ',
        h('input', { type: 'number', min: 1, max: 10, placeholder: '8', 'data-field': f, name: f, value: c.circuitBreaker === undefined ? '' : String(c.circuitBreaker), onchange: (e: Event) => {
          const v = (e.target as HTMLInputElement).value;
          d.set(key, v ? Number(v) : undefined);
        } }), ' damage (default 8)');
    default:
      throw new Error(`no control for the decision ${key}`);
  }
}

/** The option decisions, one control each. */
export function decisions(d: DecisionsInput): HTMLElement {
  return h('fieldset', { class: 'decisions' }, h('legend', {}, 'Option decisions (left alone, each takes its default)'), ...d.keys.map((k) => control(k, d)));
}
