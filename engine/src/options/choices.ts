/**
 * A player's option decisions for a turn (`choices`, OPTIONS.md part 4), read from JSON at the
 * edge. Every error names the key and what was expected; a decision about an option the robot does
 * not hold is an error (1.4).
 */
import { parseCard, type Card } from '../cards.js';
import type { Setup } from '../context.js';
import { err, ok, type Result } from '../result.js';
import type { Choices, FireControlMode, RobotState } from '../state.js';
import { optionName, TOGGLES, isWeapon } from './catalog.js';

const SIDES = ['front', 'right', 'back', 'left'];
/** The option each key decides about (a client shows a key only to a robot holding it). */
export const CHOICE_OPTION: Record<string, string> = {
  shield: 'Shield', gyro: 'Gyroscopic Stabilizer', fireControl: 'Fire Control', brakes: 'Brakes',
  fourthGear: 'Fourth Gear', reverseGear: 'Reverse Gear', abort: 'Abort Switch', conditional: 'Conditional Program',
  flywheel: 'Flywheel', recompile: 'Recompile', circuitBreaker: 'Circuit Breaker',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The longest name a decision may write (an option, a Fire Control mode): longer is no option's. */
export const CHOICE_NAME_LENGTH = 64;
const isName = (v: unknown): v is string => typeof v === 'string' && v.length <= CHOICE_NAME_LENGTH;
const isRegister = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 5;
/** A register as an object key: the digit alone ("3"; not "0x3", "3.0" nor " 3"). */
const registerKey = (k: string): number | null => (/^[1-5]$/.test(k) ? Number(k) : null);

/** Reads one robot's choices. `path` prefixes the field names of errors. */
export function parseChoices(raw: unknown, setup: Setup, r: RobotState, path = 'choices'): Result<Choices> {
  if (raw === undefined || raw === null) return ok({});
  if (!isObject(raw)) return err(path, 'expected an object of decisions (OPTIONS.md part 4)');
  const o = setup.rules.options;
  const held = new Set(r.options.map(optionName));
  const out: Record<string, unknown> = {};
  const needHeld = (name: string, p: string): Result<never> | null =>
    held.has(name) ? null : err(p, `${r.name} does not hold ${name}`);
  const card = (v: unknown, p: string): Result<Card> => {
    const c = isName(v) ? parseCard(v, setup.rules.priorities) : undefined;
    return c === undefined ? err(p, `${isName(v) ? JSON.stringify(v) : 'that'} is not a card (${setup.rules.priorities ? 'CODE:PRIORITY, such as F2:670' : 'F1, F2, F3, B, L, R or U'})`) : ok(c);
  };
  const registers = (v: unknown, p: string): Result<number[]> =>
    Array.isArray(v) && v.length <= 5 && v.every(isRegister) && new Set(v).size === v.length ? ok(v as number[]) : err(p, 'expected a list of register numbers 1 to 5, each at most once');
  // Damage is counted up to the point that destroys a robot: a threshold beyond it means nothing.
  const most = setup.rules.destroyAt;
  const isDamage = (v: unknown, least: number): v is number => Number.isInteger(v) && (v as number) >= least && (v as number) <= most;
  for (const [k, v] of Object.entries(raw)) {
    const p = `${path}.${k}`;
    if (!o.choiceKeys.includes(k)) return err(p, `unknown decision for ${setup.rules.name} (expected one of ${o.choiceKeys.join(', ')})`);
    if (CHOICE_OPTION[k]) {
      const bad = needHeld(CHOICE_OPTION[k]!, p);
      if (bad) return bad;
    }
    switch (k) {
      case 'unlock':
      case 'brakes':
      case 'fourthGear':
      case 'reverseGear': {
        const regs = registers(v, p);
        if (!regs.ok) return regs;
        out[k] = regs.value;
        break;
      }
      case 'shield': {
        const side = typeof v === 'string' ? SIDES.indexOf(v) : -1;
        if (side < 0) return err(p, 'expected "front", "right", "back" or "left"');
        out.shield = side;
        break;
      }
      case 'gyro':
      case 'recompile':
        if (typeof v !== 'boolean') return err(p, 'expected true or false');
        out[k] = v;
        break;
      case 'abort':
        if (!isRegister(v)) return err(p, 'expected the register (1 to 5) from which Abort Switch replaces cards');
        out.abort = v;
        break;
      case 'circuitBreaker':
        if (!isDamage(v, 1)) return err(p, `expected a damage threshold, a whole number from 1 to ${most}`);
        out.circuitBreaker = v;
        break;
      case 'takeOption':
        if (typeof v === 'boolean') out.takeOption = v;
        else if (isObject(v) && Object.keys(v).length === 1 && isDamage(v.ifDamageAtMost, 0))
          out.takeOption = { ifDamageAtMost: v.ifDamageAtMost };
        else if (isObject(v) && Object.keys(v).length === 1 && isDamage(v.ifDamageAtLeast, 0))
          out.takeOption = { ifDamageAtLeast: v.ifDamageAtLeast };
        else return err(p, `expected true, false, {"ifDamageAtMost": N} (an option only with N damage or less, else repair; 003 L75) or {"ifDamageAtLeast": N}, N from 0 to ${most}`);
        break;
      case 'lose': {
        if (!isName(v)) return err(p, `expected the name of an option to give up (at most ${CHOICE_NAME_LENGTH} characters)`);
        const bad = needHeld(optionName(v), p);
        if (bad) return bad;
        out.lose = optionName(v);
        break;
      }
      case 'flywheel': {
        const c = card(v, p);
        if (!c.ok) return c;
        out.flywheel = c.value;
        break;
      }
      case 'conditional': {
        if (!isObject(v) || Object.keys(v).some((x) => x !== 'card' && x !== 'register')) return err(p, 'expected {"card": CARD, "register": 1 to 5}');
        const c = card(v.card, `${p}.card`);
        if (!c.ok) return c;
        if (v.register !== undefined && !isRegister(v.register)) return err(`${p}.register`, 'expected a register number 1 to 5');
        out.conditional = { card: c.value, ...(v.register !== undefined ? { register: v.register } : {}) };
        break;
      }
      case 'weapon': {
        if (!isObject(v)) return err(p, 'expected {"REGISTER": "WEAPON"}, e.g. {"3": "Tractor Beam"}, or a conditional order {"3": {"weapon": "Tractor Beam", "if": "falls"}}');
        const map: Record<number, string> = {};
        const ifFalls: number[] = [];
        for (const [reg, order] of Object.entries(v)) {
          const q = `${p}.${reg}`;
          const at = registerKey(reg);
          if (at === null) return err(q, 'expected a register number 1 to 5 as the key');
          const conditional = isObject(order);
          if (conditional && (order.if !== 'falls' || Object.keys(order).some((x) => x !== 'weapon' && x !== 'if')))
            return err(q, 'expected {"weapon": "Tractor Beam", "if": "falls"}: the weapon fires only if its pull or push drops the target into a pit or off the board');
          const w = conditional ? order.weapon : order;
          if (!isName(w) || !isWeapon(w)) return err(conditional ? `${q}.weapon` : q, 'expected Pressor Beam, Tractor Beam, Mini Howitzer, Scrambler or Radio Control');
          if (conditional && (w === 'Scrambler' || w === 'Radio Control')) return err(`${q}.if`, `${w} moves nobody: it has no "falls" condition`);
          const bad = needHeld(w, conditional ? `${q}.weapon` : q);
          if (bad) return bad;
          map[at] = w;
          if (conditional) ifFalls.push(at);
        }
        out.weapon = map;
        if (ifFalls.length) out.weaponIfFalls = ifFalls;
        break;
      }
      case 'fireControl': {
        if (!isObject(v)) return err(p, 'expected {"REGISTER": "damage" | "lock:K" | "option:NAME"}');
        const map: Record<number, FireControlMode[]> = {};
        for (const [reg, m] of Object.entries(v)) {
          const q = `${p}.${reg}`;
          const at = registerKey(reg);
          if (at === null) return err(q, 'expected a register number 1 to 5 as the key');
          const modes = isName(m) ? fireControlModes(m) : null;
          if (!modes) return err(q, 'expected "damage", "lock:K" (K a register 1 to 5, or several: "lock:3,4") or "option:NAME"');
          map[at] = modes;
        }
        out.fireControl = map;
        break;
      }
      case 'exchange': {
        if (!Array.isArray(v) || v.length > r.options.length) return err(p, `expected a list of options to discard, one per point, at most the ${r.options.length} ${r.name} holds: ["Brakes", {"option": "Flywheel", "register": 3}]`);
        const list: { option: string; register?: number }[] = [];
        for (let n = 0; n < v.length; n++) {
          const e = v[n];
          const q = `${p}[${n}]`;
          const written = isName(e) ? e : isObject(e) && isName(e.option) ? e.option : undefined;
          const name = written === undefined ? undefined : optionName(written); // "Mini Howitzer:3" names the card
          if (name === undefined) return err(q, 'expected an option name or {"option": NAME, "register": 1 to 5}');
          if (isObject(e) && (Object.keys(e).some((x) => x !== 'option' && x !== 'register') || (e.register !== undefined && !isRegister(e.register))))
            return err(q, 'expected {"option": NAME, "register": 1 to 5}');
          const bad = needHeld(name, q);
          if (bad) return bad;
          list.push({ option: name, ...(isObject(e) && e.register !== undefined ? { register: e.register as number } : {}) });
        }
        out.exchange = list;
        break;
      }
      case 'active': {
        if (!Array.isArray(v) || v.length > TOGGLES.length || v.some((x) => typeof x !== 'string' || !TOGGLES.includes(x)))
          return err(p, `expected a list of upgrades to switch on (${TOGGLES.join(', ')})`);
        for (const x of v as string[]) {
          const bad = needHeld(x, p);
          if (bad) return bad;
        }
        out.active = v;
        break;
      }
      case 'chopShop': {
        if (!isObject(v) || Object.keys(v).some((x) => !['register', 'scrap', 'recharge', 'draw'].includes(x))) return err(p, 'expected {"register": 1 to 5 or "end", "scrap": NAME, "recharge": NAME, "draw": true}');
        if (!(isRegister(v.register) || v.register === 'end')) return err(`${p}.register`, 'expected a register 1 to 5 or "end"');
        const acts = ['scrap', 'recharge', 'draw'].filter((x) => v[x] !== undefined);
        if (acts.length !== 1) return err(p, 'expected exactly one of scrap, recharge or draw');
        if (v.draw !== undefined && (v.draw !== true || v.register !== 'end')) return err(`${p}.draw`, 'an extra option is drawn only at the end of a turn ("register": "end", "draw": true)');
        for (const x of ['scrap', 'recharge'] as const) {
          if (v[x] === undefined) continue;
          if (!isName(v[x])) return err(`${p}.${x}`, `expected an option name (at most ${CHOICE_NAME_LENGTH} characters)`);
          const bad = needHeld(optionName(v[x] as string), `${p}.${x}`);
          if (bad) return bad;
        }
        out.chopShop = { register: v.register, ...(v.scrap ? { scrap: optionName(v.scrap as string) } : {}), ...(v.recharge ? { recharge: optionName(v.recharge as string) } : {}), ...(v.draw ? { draw: true } : {}) };
        break;
      }
    }
  }
  return ok(out as Choices);
}

function fireControlModes(s: string): FireControlMode[] | null {
  if (s === 'damage') return [{ kind: 'damage' }];
  const lock = /^lock:([1-5](?:,[1-5])*)$/.exec(s);
  if (lock) return lock[1]!.split(',').map((x) => ({ kind: 'lock', register: Number(x) }));
  const opt = /^option:(.+)$/.exec(s);
  if (opt) return opt[1]!.split(',').map((x) => ({ kind: 'option', option: optionName(x.trim()) }));
  return null;
}
