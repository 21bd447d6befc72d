/**
 * The order notation of a mail: what a player writes to program a robot, read forgivingly but
 * never by guessing. 001's instructions (`F3 F2 F B L R U`, 001 L11-25), the dealt cards by their
 * number in the hand, 003's priorities (`F2 P670`, 003 L6), one register per line or all on one
 * line, power down (001 L35, L69), staying down, re-entry facing, the two-wrench choice and 003's
 * conditional form of it (003 L75), and the option choices of OPTIONS.md part 4. Whatever line it
 * cannot read is answered with what it expected there; nothing is half read.
 */
import type { SeatOrders } from '../../server/src/orders.js';

/** What the reader knows of the seat when it reads: its hand as dealt, its registers, its options. */
export interface NotationContext {
  /** `classic`: cards carry priorities (`F2:670`); `pbem`: instructions only (`F2`). */
  readonly rules: 'classic' | 'pbem';
  /** The hand in dealt order, by the engine's card names (`F2:670` or `F2`); card 1 is the first. */
  readonly hand: readonly string[];
  /** Registers the program fills (locked ones are not open). */
  readonly openRegisters: readonly number[];
  /** False when the robot plays no cards this turn (powered down, destroyed, all registers locked). */
  readonly needsProgram: boolean;
  /** Powered down this turn. */
  readonly poweredDown: boolean;
  /** The options or upgrades it holds (`Mini Howitzer:3` counts as Mini Howitzer). */
  readonly options: readonly string[];
  /** The robot's name, which an order sheet may name ("Fred Turn 3", 003 L73). */
  readonly name: string;
}

export type Facing = 'N' | 'E' | 'S' | 'W';
export type Side = 'front' | 'right' | 'back' | 'left';

/**
 * The two-wrench choice: always take the option, never, or 003's conditional order, "take the
 * option if my damage is then at most N (else repair)" or "at least N".
 */
export type TakeOption = boolean | { readonly damageAtMost: number } | { readonly damageAtLeast: number };

/** The per-turn choices of OPTIONS.md part 4, by its keys. */
export interface Choices {
  exchange?: (string | { option: string; register: number })[];
  lose?: string;
  shield?: Side;
  gyro?: boolean;
  weapon?: Record<string, string | { weapon: string; if: 'falls' }>;
  fireControl?: Record<string, string>;
  brakes?: number[];
  fourthGear?: number[];
  reverseGear?: number[];
  abort?: number;
  conditional?: { card: string; register: number };
  flywheel?: string;
  recompile?: boolean;
  chopShop?: { register: number | 'end'; scrap?: string; recharge?: string; draw?: boolean };
  active?: string[];
  circuitBreaker?: number;
}

/**
 * A seat's orders as read: the server's orders (server/src/orders.ts), with the two-wrench choice
 * that may be conditional, the re-entry facing checked, and `choices`.
 */
export interface MailOrders extends Omit<SeatOrders, 'takeOption' | 'reenter' | 'choices'> {
  readonly takeOption: TakeOption;
  readonly reenter: { dir?: Facing; poweredDown?: boolean } | null;
  readonly choices: Choices;
  /** The turn the mail says it is for (`Turn 3` on a line of its own), if it says. */
  readonly turn: number | null;
}

export interface NotationError {
  /** Line of the orders (1 = the first line read), 0 for the orders as a whole. */
  readonly line: number;
  readonly text: string;
  readonly expected: string;
}

export type Parsed = { ok: true; orders: MailOrders } | { ok: false; errors: NotationError[] };

const TYPES = ['F1', 'F2', 'F3', 'B', 'L', 'R', 'U'] as const;
type Type = (typeof TYPES)[number];
/** pbem upgrades written as instructions (OPTIONS.md part 4): the instruction each is played on. */
const MODIFIED: Record<string, Type> = { F0: 'F1', F4: 'F3', B2: 'B' };
const ALIASES: Record<string, string> = {
  F: 'F1', M1: 'F1', M2: 'F2', M3: 'F3', MOVE1: 'F1', MOVE2: 'F2', MOVE3: 'F3', FORWARD: 'F1', FORWARD1: 'F1', FORWARD2: 'F2', FORWARD3: 'F3',
  BACK: 'B', BACKUP: 'B', BU: 'B', B1: 'B', LEFT: 'L', TL: 'L', RIGHT: 'R', TR: 'R', UTURN: 'U', 'U-TURN': 'U', UT: 'U',
};
const FACINGS: Record<string, Facing> = { n: 'N', e: 'E', s: 'S', w: 'W', north: 'N', east: 'E', south: 'S', west: 'W' };
const RANDOM = new Set(['-', '?', '*', 'x', 'random', 'any']);

const PROGRAM_HELP = (c: NotationContext) =>
  c.rules === 'classic'
    ? 'cards such as "F2 P670 R P80 B P440 L P90 U P20", or card numbers from your hand such as "3 1 7 2 5" ("-" leaves a register to the random fill)'
    : 'instructions such as "F3 F2 F B L" (F F2 F3 B L R U), or card numbers from your hand such as "3 1 7 2 5" ("-" leaves a register to the random fill)';
const LINE_HELP =
  'a program, "1: F2" (one register per line), "power down", "stay down", "re-enter facing N", "take option", "repair", "unlock 5", an option choice (docs/mail.md) or "Turn N"';

interface Ref {
  /** How the player wrote it. */
  readonly text: string;
  /** Exact card of the hand (0-based), or any card of a type. */
  readonly index?: number;
  readonly type?: Type;
  /** pbem: written as an upgrade (F0, F4, B2) on a card of `type`. */
  readonly as?: string;
}

/** One written card: by number in the hand, by priority, by type and priority, or by type. */
function readRef(raw: string, c: NotationContext): Ref | string {
  const t = raw.toUpperCase();
  const hand = c.hand;
  const byPriority = (p: number): Ref | string => {
    if (c.rules === 'pbem') return `"${raw}": pbem instructions have no priority`;
    const k = hand.findIndex((h) => h.endsWith(`:${p}`));
    return k < 0 ? `"${raw}": no card of priority ${p} in your hand (${hand.join(' ')})` : { text: raw, index: k };
  };
  let m = /^#?(\d{1,3})$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    const asNumber = !t.startsWith('#') && c.rules === 'classic' ? hand.findIndex((h) => h.endsWith(`:${n}`)) : -1;
    if (n >= 1 && n <= hand.length) {
      if (asNumber >= 0 && asNumber !== n - 1) return `"${raw}" is both card ${n} of your hand (${hand[n - 1]}) and the priority of ${hand[asNumber]}: write #${n} or P${n}`;
      return { text: raw, index: n - 1 };
    }
    if (asNumber >= 0) return { text: raw, index: asNumber };
    return `"${raw}": your hand has cards 1 to ${hand.length}${c.rules === 'classic' ? ', and no card of that priority' : ''}`;
  }
  m = /^P(\d{1,3})$/.exec(t);
  if (m) return byPriority(Number(m[1]));
  m = /^([A-Z][A-Z0-9-]*?)(?:[:/]?P?(\d{2,3})|\(P?(\d{2,3})\))?$/.exec(t);
  if (!m) return `"${raw}" is not a card`;
  const word = ALIASES[m[1]!] ?? m[1]!;
  const pri = m[2] ?? m[3];
  if (word in MODIFIED) {
    if (c.rules === 'classic') return `"${raw}": ${word} is a pbem upgrade; in classic write the register of Brakes, Fourth Gear or Reverse Gear on a line of its own ("brakes 2")`;
    if (pri) return `"${raw}": pbem instructions have no priority`;
    return { text: raw, type: MODIFIED[word]!, as: word };
  }
  if (!(TYPES as readonly string[]).includes(word)) return `"${raw}" is not a card`;
  const type = word as Type;
  if (pri) {
    const r = byPriority(Number(pri));
    if (typeof r === 'string' || hand[r.index!]!.split(':')[0] === type) return r;
    return `"${raw}": the card of priority ${pri} in your hand is ${hand[r.index!]}, not ${type}`;
  }
  if (c.rules === 'classic') {
    const same = hand.filter((h) => h.startsWith(`${type}:`));
    if (same.length === 1) return { text: raw, index: hand.indexOf(same[0]!) };
    return same.length
      ? `"${raw}": you hold ${same.length} ${type} cards (${same.join(', ')}); add the priority, e.g. "${type} P${same[0]!.split(':')[1]}"`
      : `"${raw}": you hold no ${type} card (${hand.join(' ')})`;
  }
  return { text: raw, type };
}

/** The words of a card type, and their forgiving spellings. */
const TYPE_WORD = 'F[0-4]?|B[12]?|L|R|U|M[123]|MOVE[123]|FORWARD[123]?|BACK|BACKUP|BU|LEFT|TL|RIGHT|TR|UTURN|U-TURN|UT';
const PRIORITY_AFTER_TYPE = new RegExp(`\\b(${TYPE_WORD})\\s+\\(?(P\\d{1,3})\\)?(?![\\w:])`, 'gi');
const CARD_PART = new RegExp(`^(#?\\d{1,3}|P\\d{1,3}|(${TYPE_WORD})(?:[:/]?P?\\d{2,3}|\\(P?\\d{2,3}\\))?)$`, 'i');

/** The tokens of a program: commas and spaces part cards, `+` joins two in a register, `F2 P670` is one card. */
function programTokens(s: string): string[] {
  return s.replace(PRIORITY_AFTER_TYPE, '$1$2').replace(/\s*\+\s*/g, '+').split(/[\s,;]+/).filter(Boolean);
}

const isProgramToken = (w: string) => RANDOM.has(w.toLowerCase()) || w.split('+').every((p) => CARD_PART.test(p));

interface Line {
  readonly n: number;
  readonly text: string;
}

/**
 * The lines of a mail body that carry orders: quoted lines (`>`), what follows a signature
 * separator (`--`), a reply header ("On … wrote:", "-----Original Message-----", "From: …@…") or "Sent from
 * my …", and comment lines (`#` and not a card number) are not read.
 */
export function orderLines(body: string): Line[] {
  const out: Line[] = [];
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const t = raw.trim();
    if (/^--\s*$/.test(raw) || /^-{2,}\s*original message\s*-{2,}$/i.test(t) || /^on .+wrote:$/i.test(t) || /^sent from my /i.test(t) || /^from: .*@/i.test(t) || /^_{5,}$/.test(t)) break;
    if (!t || t.startsWith('>') || /^#(?!\d)/.test(t)) continue;
    out.push({ n: out.length + 1, text: t.replace(/[.!]+$/, '').replace(/\s+/g, ' ') });
  }
  return out;
}

/** Option names the robot holds, for the choices that name one. */
function optionNamed(name: string, c: NotationContext): string | null {
  const want = name.trim().toLowerCase();
  return c.options.map((o) => o.replace(/:\d+$/, '')).find((o) => o.toLowerCase() === want) ?? null;
}

const registerList = (s: string): number[] | null => {
  const parts = s.split(/\s*(?:,|\band\b|\s)\s*/).filter(Boolean);
  if (!parts.length || parts.some((p) => !/^[1-5]$/.test(p))) return null;
  return parts.map(Number);
};

/** Reads a mail's orders for a seat. */
export function parseOrders(body: string, c: NotationContext): Parsed {
  const errors: NotationError[] = [];
  const fail = (l: Line, expected: string) => errors.push({ line: l.n, text: l.text, expected });
  let powerDown: boolean | null = null;
  let stayDown: boolean | null = null;
  let takeOption: TakeOption | null = null;
  let unlock: number[] = [];
  let reenter: MailOrders['reenter'] = null;
  let turn: number | null = null;
  const choices: Choices = {};
  const plain: { l: Line; tokens: string[] }[] = [];
  const labelled = new Map<number, { l: Line; tokens: string[] }>();
  const option = (l: Line, name: string): string | null => {
    const held = optionNamed(name, c);
    if (!held) fail(l, c.options.length ? `an option you hold (${c.options.join(', ')}), not "${name.trim()}"` : `an option you hold; you hold none, so "${name.trim()}" cannot be used`);
    return held;
  };
  const classicOnly = (l: Line, what: string) => {
    if (c.rules === 'pbem') fail(l, `orders of pbem; ${what} is a classic option choice`);
    return c.rules === 'classic';
  };
  const cardOf = (l: Line, written: string): string | null => {
    const r = readRef(written, c);
    if (typeof r === 'string') return fail(l, r), null;
    if (r.index !== undefined) return c.hand[r.index]!;
    if (!c.hand.includes(r.type!)) return fail(l, `a card of your hand (${c.hand.join(' ')}), not "${written}"`), null;
    return r.type!;
  };

  for (const l of orderLines(body)) {
    const s = l.text.toLowerCase();
    let m: RegExpExecArray | null;
    if ((m = /^(?:(.+?),? )?turn (\d+):?$/.exec(s))) {
      // 003's order sheets begin "Fred Turn 3": the robot's name and the turn.
      if (m[1] && m[1] !== c.name.toLowerCase()) fail(l, `"Turn N", or "${c.name} Turn N" (this seat races ${c.name}, not "${m[1]}")`);
      else turn = Number(m[2]);
    } else if (/^(?:(?:i will |i'?ll )?power(?:ing)? ?down|pd|announce (?:a )?power ?down)(?: (?:next|the next) (?:turn|round))?$/.test(s)) {
      if (c.poweredDown) fail(l, 'your robot is powered down this turn: write "stay down" to stay down next turn, or nothing to power up');
      else powerDown = true;
    } else if (/^(?:no power ?down|(?:do not|don'?t) power ?down|power up)$/.test(s)) {
      powerDown = false;
      stayDown = false;
    } else if (/^(?:stay|remain|keep) (?:powered )?down(?: (?:next|the next) (?:turn|round))?$/.test(s)) {
      if (!c.poweredDown) fail(l, 'your robot is not powered down this turn: write "power down" to power down next turn');
      else stayDown = true;
    } else if ((m = /^(?:if (?:i am |i'?m )?destroyed,? )?re-? ?ent(?:er|ry)(?: facing)?(?: (north|east|south|west|[nesw]))?(?:,? (?:and )?(powered down|pd|power down))?$/.exec(s))) {
      if (!m[1] && !m[2]) fail(l, '"re-enter facing N" (N, E, S or W), optionally "powered down"');
      else reenter = { ...(m[1] ? { dir: FACINGS[m[1]]! } : {}), ...(m[2] ? { poweredDown: true } : {}) };
    } else if (/^(?:take|draw) (?:an |the )?option(?: card)?(?: at (?:a )?(?:2|two|double)[ -]?(?:spanner|wrench)(?: site)?)?$/.test(s)) {
      if (c.rules === 'pbem') fail(l, 'orders of pbem, where a hammer site always repairs and upgrades (no choice to make)');
      else takeOption = true;
    } else if (/^(?:repair|no option)$/.test(s)) {
      takeOption = false;
    } else if (/\boption\b/.test(s) && /\bdamage\b/.test(s) && /\b(?:if|unless)\b/.test(s)) {
      const t = conditionalTakeOption(s);
      if (typeof t === 'string') fail(l, t);
      else if (c.rules === 'pbem') fail(l, 'orders of pbem, where a hammer site always repairs and upgrades (no choice to make)');
      else takeOption = t;
    } else if ((m = /^unlock(?: registers?)? (.+)$/.exec(s))) {
      const regs = registerList(m[1]!);
      if (!regs) fail(l, '"unlock 5 4": the locked registers to free first, 1 to 5');
      else unlock = regs;
    } else if ((m = /^shield(?: (?:on|to|facing))? (front|right|back|left)$/.exec(s))) {
      if (classicOnly(l, 'Shield') && option(l, 'Shield')) choices.shield = m[1] as Side;
    } else if ((m = /^gyro(?:scope|scopic stabili[sz]er)?(?: (on|off))?$/.exec(s))) {
      if (c.rules === 'pbem') fail(l, 'in pbem, "active Gyroscopic Stabilizer"');
      else if (option(l, 'Gyroscopic Stabilizer')) choices.gyro = m[1] !== 'off';
    } else if ((m = /^(?:weapon (?:in )?(?:register )?([1-5]):? (.+?)|fire (.+?) in (?:register )?([1-5]))(?:,? (if (?:it|the target|my target|the opponent|opponent) (?:will )?falls?(?: into a pit| off the board)?))?$/.exec(s))) {
      // 003 L12's conditional order: "use tractor beam if opponent will fall into pit through my use".
      const reg = m[1] ?? m[4]!;
      const held = classicOnly(l, 'a weapon') ? option(l, m[2] ?? m[3]!) : null;
      if (held && m[5] && (held === 'Scrambler' || held === 'Radio Control')) fail(l, `a weapon that moves its target for "${m[5]}" (Tractor Beam, Pressor Beam, Mini Howitzer)`);
      else if (held) choices.weapon = { ...choices.weapon, [reg]: m[5] ? { weapon: held, if: 'falls' } : held };
    } else if ((m = /^fire ?control (?:in )?(?:register )?([1-5]):? (?:(lock) (?:register )?([1-5])|(option) (.+)|(damage))$/.exec(s))) {
      if (classicOnly(l, 'Fire Control') && option(l, 'Fire Control')) {
        const target = m[2] ? `lock:${m[3]}` : m[4] ? `option:${m[5]!.replace(/\b\w/g, (x) => x.toUpperCase())}` : 'damage';
        choices.fireControl = { ...choices.fireControl, [m[1]!]: target };
      }
    } else if ((m = /^(brakes|fourth gear|reverse gear)(?: in)?(?: registers?)? (.+)$/.exec(s))) {
      const key = m[1] === 'brakes' ? 'brakes' : m[1] === 'fourth gear' ? 'fourthGear' : 'reverseGear';
      const regs = registerList(m[2]!);
      if (c.rules === 'pbem') fail(l, `in pbem, ${key === 'brakes' ? 'F0' : key === 'fourthGear' ? 'F4' : 'B2'} in the program`);
      else if (!regs) fail(l, `"${m[1]} 2 4": the registers to use it in`);
      else if (option(l, m[1]!)) choices[key] = regs;
    } else if ((m = /^abort(?: switch)?(?: from)?(?: register)? ([1-5])$/.exec(s))) {
      if (classicOnly(l, 'Abort Switch') && option(l, 'Abort Switch')) choices.abort = Number(m[1]);
    } else if ((m = /^conditional(?: program)? (.+?) (?:in |for )?register ([1-5])$/.exec(s))) {
      const card = classicOnly(l, 'Conditional Program') && option(l, 'Conditional Program') ? cardOf(l, m[1]!.replace(/\s+(?=p\d)/, '')) : null;
      if (card) choices.conditional = { card, register: Number(m[2]) };
    } else if ((m = /^flywheel (.+)$/.exec(s))) {
      const card = option(l, 'Flywheel') ? cardOf(l, m[1]!.replace(/\s+(?=p\d)/, '')) : null;
      if (card) choices.flywheel = card;
    } else if (/^recompile$/.test(s)) {
      if (option(l, 'Recompile')) choices.recompile = true;
    } else if ((m = /^chop ?shop (?:(?:in |after )?(?:register )?([1-5])|(?:at the )?(end)(?: of (?:the )?turn)?):? (?:(scrap|recharge) (.+)|(draw)(?: an? (?:new )?option)?)$/.exec(s))) {
      if (classicOnly(l, 'the chop shop')) {
        const register = m[2] ? 'end' : Number(m[1]);
        if (m[5] && register !== 'end') fail(l, '"chop shop end draw": a draw only at the end of the turn; in a register, scrap or recharge');
        else if (m[5]) choices.chopShop = { register, draw: true };
        else {
          const held = option(l, m[4]!);
          if (held) choices.chopShop = m[3] === 'scrap' ? { register, scrap: held } : { register, recharge: held };
        }
      }
    } else if ((m = /^exchange (.+)$/.exec(s))) {
      if (classicOnly(l, 'option exchange')) {
        const list: NonNullable<Choices['exchange']> = [];
        for (const part of m[1]!.split(/\s*(?:,|\bthen\b)\s*/).filter(Boolean)) {
          const pm = /^(.+?)(?: in register ([1-5]))?$/.exec(part)!;
          const held = option(l, pm[1]!);
          if (held) list.push(pm[2] ? { option: held, register: Number(pm[2]) } : held);
        }
        choices.exchange = list;
      }
    } else if ((m = /^lose (.+)$/.exec(s))) {
      if (c.rules === 'pbem') fail(l, 'orders of pbem, where the upgrade lost is drawn at random (001 L305)');
      else {
        const held = option(l, m[1]!);
        if (held) choices.lose = held;
      }
    } else if ((m = /^active (.+)$/.exec(s))) {
      if (c.rules === 'classic') fail(l, '"active NAME" is a pbem choice; in classic, "gyro on" or a weapon line');
      else {
        const names = m[1]!.split(/\s*(?:,|\band\b)\s*/).filter(Boolean).map((n) => option(l, n));
        if (names.every((n) => n)) choices.active = names as string[];
      }
    } else if ((m = /^circuit ?breaker(?: at)? (\d{1,2})$/.exec(s))) {
      if (c.rules === 'classic') fail(l, 'the Circuit Breaker threshold is a pbem choice (a classic Circuit Breaker has none)');
      else if (option(l, 'Circuit Breaker')) choices.circuitBreaker = Number(m[1]);
    } else if ((m = /^(?:r|reg)([1-9])\s*[:.)-]?\s+(.+)$|^register\s*([1-9])\s*[:.)-]?\s+(.+)$|^([1-9])\s*[:.)]\s*(.+)$/i.exec(l.text))) {
      const reg = Number(m[1] ?? m[3] ?? m[5]);
      const tokens = programTokens(m[2] ?? m[4] ?? m[6]!);
      if (!tokens.every(isProgramToken) || tokens.length !== 1) fail(l, `one card for register ${reg}: ${PROGRAM_HELP(c)}`);
      else if (labelled.has(reg)) fail(l, `register ${reg} once (it was given on line ${labelled.get(reg)!.l.n})`);
      else labelled.set(reg, { l, tokens });
    } else {
      const tokens = programTokens(l.text.replace(/^(?:cards|program|orders|moves)\s*[:-]?\s*/i, ''));
      if (tokens.length && tokens.every(isProgramToken)) plain.push({ l, tokens });
      else fail(l, LINE_HELP);
    }
  }

  // The program: all on one line, one register a line, or labelled registers, never mixed.
  let program: (string | null)[] = [];
  const slots: { l: Line; token: string; register: number }[] = [];
  if (plain.length && labelled.size) {
    fail(labelled.values().next().value!.l, 'either numbered registers ("1: F2") or a program without numbers, not both');
  } else if (labelled.size) {
    for (const [reg, { l, tokens }] of labelled) {
      if (!c.openRegisters.includes(reg)) fail(l, `a card for an open register (${c.openRegisters.join(', ') || 'none'}); register ${reg} is ${reg <= 5 ? 'locked' : 'not a register'}`);
      else slots.push({ l, token: tokens[0]!, register: reg });
    }
    const missing = c.openRegisters.filter((r) => !labelled.has(r));
    if (c.needsProgram && missing.length && slots.length) errors.push({ line: 0, text: '', expected: `a card for register${missing.length > 1 ? 's' : ''} ${missing.join(', ')} too ("-" leaves it to the random fill)` });
  } else {
    let all = plain.flatMap(({ l, tokens }) => tokens.map((token) => ({ l, token })));
    // "random" alone: every open register to the random fill.
    if (all.length === 1 && all[0]!.token.toLowerCase() === 'random') all = c.openRegisters.map(() => all[0]!);
    if (all.length && c.needsProgram && all.length !== c.openRegisters.length)
      errors.push({ line: plain[0]!.l.n, text: plain.map((p) => p.l.text).join(' / '), expected: `${c.openRegisters.length} cards, one per open register (${c.openRegisters.join(', ')}); found ${all.length}` });
    else all.forEach((a, k) => slots.push({ ...a, register: c.openRegisters[k] ?? k + 1 }));
  }
  if (!c.needsProgram && slots.length) {
    errors.push({ line: slots[0]!.l.n, text: slots[0]!.l.text, expected: `no program: your robot ${c.poweredDown ? 'is powered down' : c.openRegisters.length ? 'is not on the board' : 'has every register locked'} this turn` });
  } else if (slots.length) {
    program = assign(slots.sort((a, b) => a.register - b.register), c, (l, e) => fail(l, e));
  }
  // "recompile" alone asks for a new hand; the program comes in the next mail (2.22).
  if (c.needsProgram && !slots.length && !errors.length && !choices.recompile)
    errors.push({ line: 0, text: '', expected: `a program: ${PROGRAM_HELP(c)}; write "random" to leave every register to the random fill` });
  if (errors.length) return { ok: false, errors: errors.sort((a, b) => a.line - b.line) };
  return {
    ok: true,
    orders: {
      program, powerDown: powerDown ?? false, stayDown: stayDown ?? false, takeOption: takeOption ?? false, unlock, reenter, choices, turn,
    },
  };
}

/**
 * The cards of the program from the hand: exact references (numbers, priorities) first, then
 * instructions by type; no card of the hand twice.
 */
function assign(slots: { l: Line; token: string }[], c: NotationContext, fail: (l: Line, e: string) => void): (string | null)[] {
  const used = new Set<number>();
  const parts = slots.map(({ l, token }) => (RANDOM.has(token.toLowerCase()) ? null : token.split('+').map((p) => ({ l, ref: readRef(p, c) }))));
  const out: (string | null)[] = parts.map(() => null);
  const names: string[][] = parts.map(() => []);
  // Exact references claim their card first, so "F" can take whichever F1 is left.
  for (const pass of ['exact', 'type'] as const) {
    parts.forEach((ps, k) => {
      ps?.forEach(({ l, ref }, j) => {
        if (typeof ref === 'string') {
          if (pass === 'exact') fail(l, ref);
          return;
        }
        if ((ref.index !== undefined) !== (pass === 'exact')) return;
        let at = ref.index ?? -1;
        if (ref.index !== undefined && used.has(at)) return fail(l, `"${ref.text}": card ${at + 1} (${c.hand[at]}) is used twice`);
        if (ref.type) {
          at = c.hand.findIndex((h, i) => h === ref.type && !used.has(i));
          const held = c.hand.filter((h) => h === ref.type).length;
          if (at < 0) return fail(l, `"${ref.text}": ${held ? `you hold ${held} ${ref.type} and the program uses more` : `you hold no ${ref.type} (your instructions: ${c.hand.join(' ')})`}`);
        }
        used.add(at);
        names[k]![j] = ref.as ?? c.hand[at]!;
      });
    });
  }
  parts.forEach((ps, k) => (out[k] = ps ? names[k]!.join('+') : null));
  return out;
}

/**
 * 003 L75 "If I finish on 2 spanner repair & damage > 3 repair, else take option card." and its
 * turns of phrase ("take option if damage <= 3, else repair", "take option unless damage > 3"):
 * the damages at which the option is taken.
 */
function conditionalTakeOption(s: string): TakeOption | string {
  const expected = 'a condition on damage such as "if I finish on a 2 spanner site and damage > 3 repair, else take option" or "take option if damage <= 3, else repair"';
  const m = /damage\s*(?:is\s*)?(>=|<=|=<|=>|>|<|over|above|more than|under|below|less than|at least|at most)\s*(\d{1,2})\b/.exec(s);
  if (!m) return expected;
  const n = Number(m[2]);
  const op = ({ '=<': '<=', '=>': '>=', over: '>', above: '>', 'more than': '>', under: '<', below: '<', 'less than': '<', 'at least': '>=', 'at most': '<=' } as Record<string, string>)[m[1]!] ?? m[1]!;
  // The action the condition leads to: the first "repair" or "option" after it, up to "else";
  // or, when it follows the action ("take option if …"), the last one before it.
  const before = s.slice(0, m.index);
  const after = s.slice(m.index + m[0].length).split(/\b(?:else|otherwise)\b/)[0]!;
  const action = /\b(repair|option)\b/.exec(after)?.[1] ?? [...before.matchAll(/\b(repair|option)\b/g)].pop()?.[1];
  if (!action) return expected;
  // The damages for which the condition holds: at least `lo` or at most `hi`.
  const atLeast = op === '>' ? n + 1 : op === '>=' ? n : null;
  const atMost = op === '<' ? n - 1 : n;
  const optionWhenHolds = (action === 'option') !== /\bunless\b/.test(before);
  if (atLeast !== null) return optionWhenHolds ? { damageAtLeast: atLeast } : { damageAtMost: atLeast - 1 };
  return optionWhenHolds ? { damageAtMost: atMost } : { damageAtLeast: atMost + 1 };
}

const takeOptionText = (t: TakeOption) =>
  t === true ? 'take an option' : t === false ? 'repair' : 'damageAtMost' in t ? `take an option if damage is then ${t.damageAtMost} or less, else repair` : `take an option if damage is then ${t.damageAtLeast} or more, else repair`;

/** The orders as understood, in words, for the acknowledgement. */
export function describeOrders(o: MailOrders, c: NotationContext): string[] {
  const out: string[] = [];
  if (c.needsProgram) {
    c.openRegisters.forEach((reg, k) => {
      if (k < o.program.length) out.push(`Register ${reg}: ${o.program[k] === null ? 'left to the random fill' : o.program[k]!.replace(/:(\d+)/g, ' P$1')}`);
    });
  } else out.push(`Program: none (your robot ${c.poweredDown ? 'is powered down' : 'plays no cards'} this turn)`);
  if (!c.poweredDown) out.push(`Power down next turn: ${o.powerDown ? 'yes' : 'no'}`);
  else out.push(`Stay powered down next turn: ${o.stayDown ? 'yes' : 'no'}`);
  if (c.rules === 'classic') out.push(`At a two-wrench site: ${takeOptionText(o.takeOption)}`);
  if (o.unlock.length) out.push(`Unlock first: register${o.unlock.length > 1 ? 's' : ''} ${o.unlock.join(', ')}`);
  if (o.reenter) out.push(`If destroyed, re-enter${o.reenter.dir ? ` facing ${o.reenter.dir}` : ''}${o.reenter.poweredDown ? ' powered down' : ''}`);
  for (const [k, v] of Object.entries(o.choices)) out.push(`Option choice ${k}: ${JSON.stringify(v)}`);
  return out;
}

/**
 * The orders in the shape of the server's API (server/src/orders.ts); `choices` only when there
 * are some. A conditional two-wrench order is the decision `choices.takeOption` (docs/options.md).
 */
export function serverOrders(o: MailOrders): Record<string, unknown> {
  const t = o.takeOption;
  const choices: Record<string, unknown> = { ...o.choices };
  if (typeof t !== 'boolean') choices.takeOption = 'damageAtMost' in t ? { ifDamageAtMost: t.damageAtMost } : { ifDamageAtLeast: t.damageAtLeast };
  return {
    program: o.program, powerDown: o.powerDown, stayDown: o.stayDown, takeOption: typeof t === 'boolean' ? t : false, unlock: o.unlock, reenter: o.reenter,
    ...(Object.keys(choices).length ? { choices } : {}),
  };
}
