/**
 * The program notation: how players write cards, programs and orders, and how they are written
 * back to them. One home, beside the model (as chessops keeps `san`), for every reader: the
 * server's API (`readEntry`), the mail (`parseOrders`), the terminal (`parseOrders` with
 * `firstOfType` and `programOptional`) and the web (`entryName`, `readWebEntry`).
 *
 * 001's instructions (`F3 F2 F B L R U`, 001 L11-25), the dealt cards by their number in the hand,
 * 003's priorities (`F2 P670`, 003 L6), pbem's upgrade codes (F0 F4 B2, 001 L185-189), two cards
 * joined in a register (`F+L`), one register per line or all on one line, power down (001 L35,
 * L69), staying down, re-entry facing, the two-wrench choice and 003's conditional form of it
 * (003 L75), and the option choices of OPTIONS.md part 4. Read forgivingly but never by guessing:
 * a line it cannot read is answered with what it expected there; nothing is half read. What a
 * rule set allows is read from its data (`RuleSet`), never from its name.
 */
import { CARD_TYPES, GEARS, parseCard, type Card, type CardType, type Gear } from './cards.js';
import { RULE_SETS } from './game.js';
import type { RuleSet } from './rules/ruleset.js';

// ---------------------------------------------------------------------------------------------
// Cards

/** A card as players read it: `F2:670` is written `F2 P670` (003 L6); `F2` and `F0` as they are. */
export const writeCard = (name: string): string => name.replace(/:(\d+)/g, ' P$1');

/** An example program in the rule set's notation, for help texts. */
export const exampleProgram = (rules: RuleSet): string => (rules.priorities ? 'F2 P670 R P80 B P440 L P90 U P20' : 'F3 F2 F B L');

/** How the API writes a program entry (`F2:670`, `F1:500+R:80`, `F0`, `F+L`). */
export const entryHelp = (rules: RuleSet): string =>
  rules.priorities
    ? 'write CODE:PRIORITY, e.g. "F2:670", or two joined: "F1:500+R:80"'
    : `write F1, F2, F3, B, L, R or U${rules.gearCodes ? `, an upgrade code ${GEARS.map((g) => g.code).join(', ')}` : ''}, or two joined: "F+L"`;

/** One program entry of the API: a card, or two joined by `+` (Crab Legs, Dual Processor). */
export function readEntry(s: unknown, rules: RuleSet): { card: Card; joined: Card } | string {
  const parts = typeof s === 'string' ? s.split('+').map((x) => parseCard(x, rules.priorities)) : [];
  if (!parts.length || parts.length > 2 || parts.some((c) => c === undefined)) return `${JSON.stringify(s)} is not a card (${entryHelp(rules)})`;
  if (!rules.gearCodes && parts.some((c) => GEARS.some((g) => parseCard(g.code, false) === c))) return `${JSON.stringify(s)}: upgrade codes are not cards in ${rules.name} (${entryHelp(rules)})`;
  return { card: parts[0]!, joined: parts[1] ?? 0 };
}

/** A register's entry as the web's program form holds it: the dealt card, a joined card, and whether it is played as its gear's code. */
export interface WebEntry {
  readonly card: string;
  readonly joined?: string;
  /** Played as its upgrade code (a rule set with `gearCodes`). */
  readonly coded?: boolean;
}

/** The entry as the API takes it: `F0` for a coded F1, `F1:500+R:80` for a joined pair. */
export function entryName(e: WebEntry): string {
  const code = e.coded ? GEARS.find((g) => g.from === e.card)?.code : undefined;
  return `${code ?? e.card}${e.joined ? `+${e.joined}` : ''}`;
}

/** Reads a program entry as the API sent it back (`F1:500+R:80`, `F0`): the dealt cards it uses. */
export function readWebEntry(name: string): WebEntry {
  const [first, joined] = name.split('+') as [string, string?];
  const gear = GEARS.find((g) => g.code === first);
  return { card: gear ? gear.from : first, ...(joined ? { joined } : {}), ...(gear ? { coded: true } : {}) };
}

/** The gear a card could be played as (the option that plays it another way), whether held or not. */
export function gearOf(name: string): Gear | null {
  const type = name.split(':')[0];
  return GEARS.find((g) => g.from === (type === 'F' ? 'F1' : type)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Orders

/** What the reader knows of the seat when it reads: its rule set, hand as dealt, registers, options. */
export interface NotationContext {
  /** The race's rule set: what it allows is read from its data. */
  readonly rules: RuleSet;
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
  /** A card type written alone takes the first card of that type left in the hand (the terminal,
   *  which shows the program at once); else, with priorities, a type held twice needs its priority. */
  readonly firstOfType?: boolean;
  /** The terminal's reading: no program is every register left to the random fill, and a program
   *  of another length than the open registers is left for the engine to refuse. */
  readonly partial?: boolean;
  /** The first turn: the player may choose the robot's starting facing (002 L38-39). */
  readonly choosesFacing?: boolean;
}

export type Facing = 'N' | 'E' | 'S' | 'W';
export type Side = 'front' | 'right' | 'back' | 'left';

/**
 * The two-wrench choice: always take the option, never, or 003's conditional order, "take the
 * option if my damage is then at most N (else repair)" or "at least N".
 */
export type TakeOption = boolean | { readonly damageAtMost: number } | { readonly damageAtLeast: number };

/** The per-turn choices of OPTIONS.md part 4, by its keys, as written (cards by name). */
export interface WrittenChoices {
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

/** A seat's orders as written: the program by card names (`null`: left to the random fill). */
export interface WrittenOrders {
  /** Cards by name, two joined by + where an option plays two in one register (`F1:500+R:80`). */
  readonly program: (string | null)[];
  readonly powerDown: boolean;
  readonly stayDown: boolean;
  readonly takeOption: TakeOption;
  readonly unlock: number[];
  readonly reenter: { dir?: Facing; poweredDown?: boolean } | null;
  /** The facing the robot starts with, chosen in the first turn ("face E", 002 L38-39); null to keep it. */
  readonly facing?: Facing | null;
  readonly choices: WrittenChoices;
  /** The turn the orders say they are for (`Turn 3` on a line of its own), if they say. */
  readonly turn: number | null;
}

export interface NotationError {
  /** Line of the orders (1 = the first line read), 0 for the orders as a whole. */
  readonly line: number;
  readonly text: string;
  readonly expected: string;
}

/**
 * What was read. `ignored`: the lines after the last order that read as no order, taken for a
 * signature or a comment ("Thanks, Bob"); an answer shows them with `COMMENT_HINT`.
 */
export type Parsed =
  | { ok: true; orders: WrittenOrders; ignored: string[] }
  | { ok: false; errors: NotationError[]; ignored: string[] };

/** How to mark what is not orders, for the answers. */
export const COMMENT_HINT = 'to add a comment or a signature, put it after a line "-- " (dash, dash, space), or start its lines with "#"';

/** pbem upgrades written as instructions (OPTIONS.md part 4): the instruction each is played on. */
const MODIFIED: Record<string, CardType> = Object.fromEntries(GEARS.map((g) => [g.code, g.from]));
const ALIASES: Record<string, string> = {
  F: 'F1', M1: 'F1', M2: 'F2', M3: 'F3', MOVE1: 'F1', MOVE2: 'F2', MOVE3: 'F3', FORWARD: 'F1', FORWARD1: 'F1', FORWARD2: 'F2', FORWARD3: 'F3',
  BACK: 'B', BACKUP: 'B', BU: 'B', B1: 'B', LEFT: 'L', TL: 'L', RIGHT: 'R', TR: 'R', UTURN: 'U', 'U-TURN': 'U', UT: 'U',
};
const FACINGS: Record<string, Facing> = { n: 'N', e: 'E', s: 'S', w: 'W', north: 'N', east: 'E', south: 'S', west: 'W' };
/** Words that leave a register to the random fill (001 L393). */
export const RANDOM_WORDS: readonly string[] = ['-', '?', '*', 'x', 'random', 'any'];
const RANDOM = new Set(RANDOM_WORDS);
/** The cards in words (001 L11-25; the gears' codes by their option). */
const CARD_WORDS: Record<string, string> = {
  F1: 'Move 1', F2: 'Move 2', F3: 'Move 3', B: 'Back up', L: 'Turn left', R: 'Turn right', U: 'U-turn', ...Object.fromEntries(GEARS.map((g) => [g.code, g.option])),
};
/** A card's name in its parts: its code and its priority ('' where cards have none): `F2:670` → ['F2', '670']. */
export function cardParts(name: string): [code: string, priority: string] {
  const [code, priority] = name.split(':');
  return [code!, priority ?? ''];
}

/** A card in words: "Move 2 (670)" for the classic F2:670, "Move 2" for the pbem F2, "Brakes" for F0. */
export function cardWords(name: string): string {
  const [code, priority] = cardParts(name);
  return `${CARD_WORDS[code] ?? code}${priority ? ` (${priority})` : ''}`;
}

/** The program part of the help: what a program looks like in this rule set. */
export const programHelp = (rules: RuleSet): string =>
  rules.priorities
    ? `cards such as "${exampleProgram(rules)}", or card numbers from your hand such as "3 1 7 2 5" ("-" leaves a register to the random fill)`
    : `instructions such as "${exampleProgram(rules)}" (F F2 F3 B L R U), or card numbers from your hand such as "3 1 7 2 5" ("-" leaves a register to the random fill)`;
const LINE_HELP =
  `a program, "1: F2" (one register per line), "face E" (first turn), "power down", "stay down", "re-enter facing N", "take option", "repair", "unlock 5", an option choice (your instructions tell how to order each option you hold) or "Turn N"; ${COMMENT_HINT}`;

/**
 * The lines of help on writing orders, with examples from the rule set: [what to write, what it
 * means]. The mail's instructions print them; the terminal prints the program's part.
 */
export function orderHelp(rules: RuleSet): [string, string][] {
  return [
    [exampleProgram(rules), 'your program, register 1 first'],
    ['3 1 7 2 5', 'or the numbers of your instructions as dealt'],
    ['1: F3', 'one register a line, or all on one line; "-" leaves a register to the random fill'],
    ['power down', `power down next turn (${rules.powerDownNeedsDamage ? 'a damaged robot only, 000 L93' : '001 L69'}); "stay down" to stay down`],
    ['re-enter facing N', 'if destroyed this turn'],
    ['face E', 'in the first turn: the facing your robot starts with (002 L38-39 "once the first hand is dealt")'],
    ...(rules.priorities ? ([['F2 P670', 'a card by its type and priority (003 L6); "P670" alone names it too; "#3" is card 3 of your hand']] as [string, string][]) : []),
    ['random', 'every register to the random fill'],
    ['no power down', 'take back a power down sent before in this turn\'s orders'],
    ...(rules.playerUnlock ? ([['unlock 5 4', 'the locked registers to free first when your robot is repaired']] as [string, string][]) : []),
    ['Turn 4', 'the turn these orders are for (orders for another turn are refused)'],
    ...(rules.takeOptionChoice
      ? ([['take option', 'at a two-wrench site ("repair" is the default)'], ['if damage > 3 repair, else take option', "003's conditional order"]] as [string, string][])
      : []),
    ...(rules.gearCodes ? ([[`${GEARS.map((g) => g.code).join(' ')} F+L`, `with ${GEARS.map((g) => g.option).join(', ')}, Crab Legs`]] as [string, string][]) : []),
    ['-- ', 'a line of its own: what follows is a comment or signature, not read; so are lines starting with "#" and quoted lines ("> ")'],
  ];
}

/** The names of the rule sets that allow something, for refusals ("a classic option choice"). */
const whichAllow = (allows: (r: RuleSet) => boolean): string =>
  Object.values(RULE_SETS).filter(allows).map((r) => r.name).join(' or ') || 'no';

interface Ref {
  /** How the player wrote it. */
  readonly text: string;
  /** Exact card of the hand (0-based), or any card of a type. */
  readonly index?: number;
  readonly type?: CardType;
  /** Written as an upgrade code (F0, F4, B2) on a card of `type`. */
  readonly as?: string;
}

const typeOfName = (h: string): string => h.split(':')[0]!;

/** One written card: by number in the hand, by priority, by type and priority, or by type. */
function readRef(raw: string, c: NotationContext): Ref | string {
  const t = raw.toUpperCase();
  const { hand, rules } = c;
  const byPriority = (p: number): Ref | string => {
    if (!rules.priorities) return `"${raw}": ${rules.name} instructions have no priority`;
    const k = hand.findIndex((h) => h.endsWith(`:${p}`));
    return k < 0 ? `"${raw}": no card of priority ${p} in your hand (${hand.join(' ')})` : { text: raw, index: k };
  };
  let m = /^#?(\d{1,3})$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    const asNumber = !t.startsWith('#') && rules.priorities ? hand.findIndex((h) => h.endsWith(`:${n}`)) : -1;
    if (n >= 1 && n <= hand.length) {
      if (asNumber >= 0 && asNumber !== n - 1) return `"${raw}" is both card ${n} of your hand (${hand[n - 1]}) and the priority of ${hand[asNumber]}: write #${n} or P${n}`;
      return { text: raw, index: n - 1 };
    }
    if (asNumber >= 0) return { text: raw, index: asNumber };
    return `"${raw}" is not a card number: your hand has cards 1 to ${hand.length}${rules.priorities ? ', and no card of that priority' : ''}`;
  }
  m = /^P(\d{1,3})$/.exec(t);
  if (m) return byPriority(Number(m[1]));
  m = /^([A-Z][A-Z0-9-]*?)(?:[:/]?P?(\d{2,3})|\(P?(\d{2,3})\))?$/.exec(t);
  if (!m) return `"${raw}" is not a card`;
  const word = ALIASES[m[1]!] ?? m[1]!;
  const pri = m[2] ?? m[3];
  if (word in MODIFIED) {
    const gear = GEARS.find((g) => g.code === word)!;
    if (!rules.gearCodes) return `"${raw}": ${word} is a ${whichAllow((r) => r.gearCodes)} upgrade; in ${rules.name} write the register of ${GEARS.map((g) => g.option).join(', ').replace(/, ([^,]*)$/, ' or $1')} on a line of its own ("${gear.option.toLowerCase()} 2")`;
    if (pri) return `"${raw}": ${rules.name} instructions have no priority`;
    return { text: raw, type: MODIFIED[word]!, as: word };
  }
  if (!(CARD_TYPES as readonly string[]).includes(word)) return `"${raw}" is not a card`;
  const type = word as CardType;
  if (pri) {
    const r = byPriority(Number(pri));
    if (typeof r === 'string' || typeOfName(hand[r.index!]!) === type) return r;
    return `"${raw}": the card of priority ${pri} in your hand is ${hand[r.index!]}, not ${type}`;
  }
  if (rules.priorities && !c.firstOfType) {
    const same = hand.filter((h) => typeOfName(h) === type);
    if (same.length === 1) return { text: raw, index: hand.indexOf(same[0]!) };
    return same.length
      ? `"${raw}": you hold ${same.length} ${type} cards (${same.join(', ')}); add the priority, e.g. "${type} P${same[0]!.split(':')[1]}"`
      : `"${raw}": there is no ${type} (${CARD_WORDS[type]}) card in your hand (${hand.join(' ')})`;
  }
  return { text: raw, type };
}

/** The words of a card type, and their forgiving spellings. */
const TYPE_WORD = 'F[0-4]?|B[12]?|L|R|U|M[123]|MOVE[123]|FORWARD[123]?|BACK|BACKUP|BU|LEFT|TL|RIGHT|TR|UTURN|U-TURN|UT';
const PRIORITY_AFTER_TYPE = new RegExp(`\\b(${TYPE_WORD})\\s+\\(?(P\\d{1,3})\\)?(?![\\w:])`, 'gi');
const CARD_PART = new RegExp(`^(#?\\d{1,3}|P\\d{1,3}|(${TYPE_WORD})(?:[:/]?P?\\d{2,3}|\\(P?\\d{2,3}\\))?)$`, 'i');
/** Power down written on the program's line (`F2 R F1 L U pd`). */
const INLINE_POWER_DOWN = /(^|\s)(?:power[\s-]*down|pd)(?=\s|$)/i;

/** The tokens of a program: commas and spaces part cards, `+` joins two in a register, `F2 P670` is one card. */
function programTokens(s: string): string[] {
  return s.replace(PRIORITY_AFTER_TYPE, '$1$2').replace(/\s*\+\s*/g, '+').split(/[\s,;]+/).filter(Boolean);
}

const isProgramToken = (w: string) => RANDOM.has(w.toLowerCase()) || w.split('+').every((p) => CARD_PART.test(p));

/** The first words of the notation's orders: a line beginning so was meant as an order, never as a signature. */
const ORDER_WORDS = /^(?:(?:\S+,? )?turn \d|power|pd|no (?:power|option)|do not|don'?t|(?:stay|remain|keep) (?:powered )?down|if|re-? ?ent\w*|(?:take|draw) (?:an |the )?option|repair|unlock|shield|gyro\w*|weapon|fire\w*|brakes|fourth gear|reverse gear|abort|conditional|flywheel|recompile|chop\w*|exchange|lose|active|circuit\w*|r\d|reg\w* ?\d|(?:start(?:ing)? )?fac(?:e|ing)|cards|program|orders|moves|random|i will|i'?ll)\b/i;
const looksLikeOrder = (text: string): boolean =>
  ORDER_WORDS.test(text) || isProgramToken(programTokens(text)[0] ?? '') || (/\boption\b/i.test(text) && /\bdamage\b/i.test(text));

/** A word that was meant as a card (`X9`, `F9`, `12:3`) but is none. */
const CARDLIKE = /^(?:#?\d+|[A-Z]{1,2}\d+(?::\d+)?|P\d+)$/i;

/** What a line that reads as no order was expected to be: a card, when its words were meant as cards. */
function unreadHelp(text: string, rules: RuleSet): string {
  const tokens = programTokens(text);
  const bad = tokens.filter((t) => !isProgramToken(t));
  if (bad.length && bad.every((t) => t.split('+').some((p) => !CARD_PART.test(p) && CARDLIKE.test(p)))) return `a card, not "${bad[0]}": ${programHelp(rules)}`;
  return LINE_HELP;
}

export interface Line {
  readonly n: number;
  readonly text: string;
}

/**
 * The lines of a mail body that carry orders: quoted lines (`>`), what follows a signature
 * separator (`--`), a reply header ("On … wrote:", "-----Original Message-----", "From: …@…") or "Sent from
 * my …", and comment lines (`#` and not a card number) are not read.
 */
export function orderLines(body: string, most = Infinity): Line[] {
  const out: Line[] = [];
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length && out.length < most; i++) {
    const raw = lines[i]!;
    const t = raw.trim();
    if (/^--\s*$/.test(raw) || /^-{2,}\s*original message\s*-{2,}$/i.test(t) || /^on .+wrote:$/i.test(t) || /^sent from my /i.test(t) || /^from: .*@/i.test(t) || /^_{5,}$/.test(t)) break;
    if (!t || t.startsWith('>') || /^#(?!\d)/.test(t)) continue;
    // The trailing full stops and exclamation marks, matched from the first of them only: `[.!]+$` alone
    // is tried from each of a long run's marks in turn, in time growing with the run's square.
    out.push({ n: out.length + 1, text: t.replace(/(?<![.!])[.!]+$/, '').replace(/\s+/g, ' ') });
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

/**
 * The most lines of orders a mail is read for (after quotes, comments and the signature are left
 * out): every order of a turn fits in far fewer. A body with more is refused whole, unread, so a
 * mail of a megabyte costs no more than this to answer.
 */
export const MAX_ORDER_LINES = 200;
/** The longest line read as an order; a longer one is no order (refused, or taken for a signature). */
export const MAX_ORDER_LINE = 500;
/** How much of a line an answer quotes back. */
const QUOTED = 120;
const quoted = (text: string): string => (text.length > QUOTED ? `${text.slice(0, QUOTED)}…` : text);

/** Reads a seat's orders: a mail body, or a line typed in the terminal. */
export function parseOrders(body: string, c: NotationContext): Parsed {
  const lines = orderLines(body, MAX_ORDER_LINES + 1);
  if (lines.length > MAX_ORDER_LINES) {
    return { ok: false, errors: [{ line: 0, text: '', expected: `at most ${MAX_ORDER_LINES} lines of orders (this mail has more); ${COMMENT_HINT}` }], ignored: [] };
  }
  const parsed = readOrders(lines, c);
  return parsed.ok
    ? { ...parsed, ignored: parsed.ignored.map(quoted) }
    : { ...parsed, errors: parsed.errors.map((e) => ({ ...e, text: quoted(e.text) })), ignored: parsed.ignored.map(quoted) };
}

function readOrders(lines: readonly Line[], c: NotationContext): Parsed {
  const { rules } = c;
  const keys = rules.options.choiceKeys;
  const errors: NotationError[] = [];
  const fail = (l: Line, expected: string) => errors.push({ line: l.n, text: l.text, expected });
  let powerDown: boolean | null = null;
  let stayDown: boolean | null = null;
  let takeOption: TakeOption | null = null;
  let unlock: number[] = [];
  let reenter: WrittenOrders['reenter'] = null;
  let facing: Facing | null = null;
  let turn: number | null = null;
  const choices: WrittenChoices = {};
  const plain: { l: Line; tokens: string[] }[] = [];
  const labelled = new Map<number, { l: Line; tokens: string[] }>();
  /** Lines that read as no order at all: a signature if they trail the orders, else refused. */
  const unread: Line[] = [];
  const option = (l: Line, name: string): string | null => {
    const held = optionNamed(name, c);
    if (!held) fail(l, c.options.length ? `an option you hold (${c.options.join(', ')}), not "${name.trim()}"` : `an option you hold; you hold none, so "${name.trim()}" cannot be used`);
    return held;
  };
  /** Whether the rule set takes the choice `key`; if not, the refusal says which rule sets do. */
  const allowed = (l: Line, key: string, what: string): boolean => {
    if (keys.includes(key)) return true;
    fail(l, `orders of ${rules.name}; ${what} is a ${whichAllow((r) => r.options.choiceKeys.includes(key))} option choice`);
    return false;
  };
  const noTwoWrenchChoice = `orders of ${rules.name}, where a hammer site always repairs and upgrades (no choice to make)`;
  const cardOf = (l: Line, written: string): string | null => {
    const r = readRef(written, c);
    if (typeof r === 'string') return fail(l, r), null;
    if (r.index !== undefined) return c.hand[r.index]!;
    const at = c.hand.findIndex((h) => typeOfName(h) === r.type);
    if (at < 0) return fail(l, `a card of your hand (${c.hand.join(' ')}), not "${written}"`), null;
    return c.hand[at]!;
  };

  for (const l of lines) {
    const s = l.text.toLowerCase();
    let m: RegExpExecArray | null;
    if (l.text.length > MAX_ORDER_LINE) {
      unread.push(l);
    } else if ((m = /^(?:(.+?),? )?turn (\d{1,9}):?$/.exec(s))) {
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
    } else if ((m = /^(?:(?:start(?:ing)?|initial(?:ly)?) )?fac(?:e|ing)(?: (?:to(?:wards?)?|the))? (north|east|south|west|[nesw])$/.exec(s))) {
      // 002 L38-39 "Each player decides on the direction the robot faces to start once the first hand is dealt."
      if (!c.choosesFacing) fail(l, 'the starting facing only in the first turn; after that, "re-enter facing N" if destroyed');
      else facing = FACINGS[m[1]!]!;
    } else if (/^(?:take|draw) (?:an |the )?option(?: card)?(?: at (?:a )?(?:2|two|double)[ -]?(?:spanner|wrench)(?: site)?)?$/.test(s)) {
      if (!rules.takeOptionChoice) fail(l, noTwoWrenchChoice);
      else takeOption = true;
    } else if (/^(?:repair|no option)$/.test(s)) {
      takeOption = false;
    } else if (/\boption\b/.test(s) && /\bdamage\b/.test(s) && /\b(?:if|unless)\b/.test(s)) {
      const t = conditionalTakeOption(s);
      if (typeof t === 'string') fail(l, t);
      else if (!rules.takeOptionChoice) fail(l, noTwoWrenchChoice);
      else takeOption = t;
    } else if ((m = /^unlock(?: registers?)? (.+)$/.exec(s))) {
      const regs = registerList(m[1]!);
      if (!regs) fail(l, '"unlock 5 4": the locked registers to free first, 1 to 5');
      else unlock = regs;
    } else if ((m = /^shield(?: (?:on|to|facing))? (front|right|back|left)$/.exec(s))) {
      if (allowed(l, 'shield', 'Shield') && option(l, 'Shield')) choices.shield = m[1] as Side;
    } else if ((m = /^gyro(?:scope|scopic stabili[sz]er)?(?: (on|off))?$/.exec(s))) {
      if (!keys.includes('gyro') && keys.includes('active')) fail(l, `in ${rules.name}, "active Gyroscopic Stabilizer"`);
      else if (allowed(l, 'gyro', 'Gyroscopic Stabilizer') && option(l, 'Gyroscopic Stabilizer')) choices.gyro = m[1] !== 'off';
    } else if ((m = /^(?:weapon (?:in )?(?:register )?([1-5]):? (.+?)|fire (.+?) in (?:register )?([1-5]))(?:,? (if (?:it|the target|my target|the opponent|opponent) (?:will )?falls?(?: into a pit| off the board)?))?$/.exec(s))) {
      // 003 L12's conditional order: "use tractor beam if opponent will fall into pit through my use".
      const reg = m[1] ?? m[4]!;
      const held = allowed(l, 'weapon', 'a weapon') ? option(l, m[2] ?? m[3]!) : null;
      if (held && m[5] && (held === 'Scrambler' || held === 'Radio Control')) fail(l, `a weapon that moves its target for "${m[5]}" (Tractor Beam, Pressor Beam, Mini Howitzer)`);
      else if (held) choices.weapon = { ...choices.weapon, [reg]: m[5] ? { weapon: held, if: 'falls' } : held };
    } else if ((m = /^fire ?control (?:in )?(?:register )?([1-5]):? (?:(lock) (?:register )?([1-5])|(option) (.+)|(damage))$/.exec(s))) {
      if (allowed(l, 'fireControl', 'Fire Control') && option(l, 'Fire Control')) {
        const target = m[2] ? `lock:${m[3]}` : m[4] ? `option:${m[5]!.replace(/\b\w/g, (x) => x.toUpperCase())}` : 'damage';
        choices.fireControl = { ...choices.fireControl, [m[1]!]: target };
      }
    } else if ((m = /^(brakes|fourth gear|reverse gear)(?: in)?(?: registers?)? (.+)$/.exec(s))) {
      const gear = GEARS.find((g) => g.option.toLowerCase() === m![1])!;
      const regs = registerList(m[2]!);
      if (rules.gearCodes) fail(l, `in ${rules.name}, ${gear.code} in the program`);
      else if (!regs) fail(l, `"${m[1]} 2 4": the registers to use it in`);
      else if (allowed(l, gear.key, gear.option) && option(l, m[1]!)) choices[gear.key] = regs;
    } else if ((m = /^abort(?: switch)?(?: from)?(?: register)? ([1-5])$/.exec(s))) {
      if (allowed(l, 'abort', 'Abort Switch') && option(l, 'Abort Switch')) choices.abort = Number(m[1]);
    } else if ((m = /^conditional(?: program)? (.+?) (?:in |for )?register ([1-5])$/.exec(s))) {
      const card = allowed(l, 'conditional', 'Conditional Program') && option(l, 'Conditional Program') ? cardOf(l, m[1]!.replace(/\s+(?=p\d)/, '')) : null;
      if (card) choices.conditional = { card, register: Number(m[2]) };
    } else if ((m = /^flywheel (.+)$/.exec(s))) {
      const card = option(l, 'Flywheel') ? cardOf(l, m[1]!.replace(/\s+(?=p\d)/, '')) : null;
      if (card) choices.flywheel = card;
    } else if (/^recompile$/.test(s)) {
      if (option(l, 'Recompile')) choices.recompile = true;
    } else if ((m = /^chop ?shop (?:(?:in |after )?(?:register )?([1-5])|(?:at the )?(end)(?: of (?:the )?turn)?):? (?:(scrap|recharge) (.+)|(draw)(?: an? (?:new )?option)?)$/.exec(s))) {
      if (allowed(l, 'chopShop', 'the chop shop')) {
        const register = m[2] ? 'end' : Number(m[1]);
        if (m[5] && register !== 'end') fail(l, '"chop shop end draw": a draw only at the end of the turn; in a register, scrap or recharge');
        else if (m[5]) choices.chopShop = { register, draw: true };
        else {
          const held = option(l, m[4]!);
          if (held) choices.chopShop = m[3] === 'scrap' ? { register, scrap: held } : { register, recharge: held };
        }
      }
    } else if ((m = /^exchange (.+)$/.exec(s))) {
      if (allowed(l, 'exchange', 'option exchange')) {
        const list: NonNullable<WrittenChoices['exchange']> = [];
        for (const part of m[1]!.split(/\s*(?:,|\bthen\b)\s*/).filter(Boolean)) {
          const pm = /^(.+?)(?: in register ([1-5]))?$/.exec(part)!;
          const held = option(l, pm[1]!);
          if (held) list.push(pm[2] ? { option: held, register: Number(pm[2]) } : held);
        }
        choices.exchange = list;
      }
    } else if ((m = /^lose (.+)$/.exec(s))) {
      if (!keys.includes('lose')) fail(l, `orders of ${rules.name}, where the option a destroyed robot loses is drawn at random (no choice to make)`);
      else {
        const held = option(l, m[1]!);
        if (held) choices.lose = held;
      }
    } else if ((m = /^active (.+)$/.exec(s))) {
      if (allowed(l, 'active', '"active NAME"')) {
        const names = m[1]!.split(/\s*(?:,|\band\b)\s*/).filter(Boolean).map((n) => option(l, n));
        if (names.every((n) => n)) choices.active = names as string[];
      }
    } else if ((m = /^circuit ?breaker(?: at)? (\d{1,2})$/.exec(s))) {
      if (allowed(l, 'circuitBreaker', 'the Circuit Breaker threshold') && option(l, 'Circuit Breaker')) choices.circuitBreaker = Number(m[1]);
    } else if (/^(?:r|reg|register)\s*[1-9]\s*-$/i.test(l.text)) {
      // "Register 5 -": the dash is the label's, and no card follows it.
      fail(l, `a card after "${l.text}" (such as "${l.text} F2"); to leave the register to the random fill, write "${l.text} random"`);
    } else if ((m = /^(?:r|reg)([1-9])\s*[:.)-]?\s+(.+)$|^register\s*([1-9])\s*[:.)-]?\s+(.+)$|^([1-9])\s*[:.)]\s*(.+)$/i.exec(l.text))) {
      const reg = Number(m[1] ?? m[3] ?? m[5]);
      const tokens = programTokens(m[2] ?? m[4] ?? m[6]!);
      if (!tokens.every(isProgramToken) || tokens.length !== 1) fail(l, `one card for register ${reg}: ${programHelp(rules)}`);
      else if (labelled.has(reg)) fail(l, `register ${reg} once (it was given on line ${labelled.get(reg)!.l.n})`);
      else labelled.set(reg, { l, tokens });
    } else {
      const text = l.text.replace(/^(?:cards|program|orders|moves)\s*[:-]?\s*/i, '');
      let tokens = programTokens(text);
      if (tokens.length && tokens.every(isProgramToken)) plain.push({ l, tokens });
      else {
        // A power down written on the program's line: "F2 R F1 L U pd".
        tokens = programTokens(text.replace(new RegExp(INLINE_POWER_DOWN.source, 'gi'), '$1'));
        if (tokens.length && tokens.every(isProgramToken) && INLINE_POWER_DOWN.test(text)) {
          if (c.poweredDown) fail(l, 'your robot is powered down this turn: write "stay down" to stay down next turn, or nothing to power up');
          else powerDown = true;
          plain.push({ l, tokens });
        } else unread.push(l);
      }
    }
  }

  // Lines that read as no order after the last order line: a signature or a comment.
  const unreadSet = new Set(unread.map((l) => l.n));
  const lastOrder = Math.max(0, ...lines.filter((l) => !unreadSet.has(l.n)).map((l) => l.n));
  const ignored = lastOrder ? unread.filter((l) => l.n > lastOrder && !looksLikeOrder(l.text)) : [];
  for (const l of unread) if (!ignored.includes(l)) fail(l, l.text.length > MAX_ORDER_LINE ? `a line of orders of at most ${MAX_ORDER_LINE} characters` : unreadHelp(l.text, rules));

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
    if (all.length && c.needsProgram && all.length !== c.openRegisters.length && !c.partial)
      errors.push({ line: plain[0]!.l.n, text: plain.map((p) => p.l.text).join(' / '), expected: `${c.openRegisters.length} cards, one per open register (${c.openRegisters.join(', ')}); found ${all.length}` });
    else all.forEach((a, k) => slots.push({ ...a, register: c.openRegisters[k] ?? k + 1 }));
  }
  if (!c.needsProgram && slots.length) {
    errors.push({ line: slots[0]!.l.n, text: slots[0]!.l.text, expected: `no program: your robot ${c.poweredDown ? 'is powered down' : c.openRegisters.length ? 'is not on the board' : 'has every register locked'} this turn` });
  } else if (slots.length) {
    program = assign(slots.sort((a, b) => a.register - b.register), c, (l, e) => fail(l, e));
  }
  // "recompile" alone asks for a new hand; the program comes in the next mail (2.22).
  if (c.needsProgram && !slots.length && !errors.length && !choices.recompile && !c.partial)
    errors.push({ line: 0, text: '', expected: `a program: ${programHelp(rules)}; write "random" to leave every register to the random fill` });
  const skipped = ignored.map((l) => l.text);
  if (errors.length) return { ok: false, errors: errors.sort((a, b) => a.line - b.line), ignored: skipped };
  return {
    ok: true,
    orders: { program, powerDown: powerDown ?? false, stayDown: stayDown ?? false, takeOption: takeOption ?? false, unlock, reenter, ...(facing ? { facing } : {}), choices, turn },
    ignored: skipped,
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
          at = c.hand.findIndex((h, i) => typeOfName(h) === ref.type && !used.has(i));
          const held = c.hand.filter((h) => typeOfName(h) === ref.type).length;
          if (at < 0)
            return fail(l, held
              ? `"${ref.text}": no ${ref.type} card left (you hold ${held} ${ref.type} and the program uses more)`
              : `"${ref.text}": there is no ${ref.type} (${CARD_WORDS[ref.type]}) card in your hand (${c.hand.join(' ')})`);
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
export function describeOrders(o: WrittenOrders, c: NotationContext): string[] {
  const out: string[] = [];
  if (c.needsProgram) {
    c.openRegisters.forEach((reg, k) => {
      if (k < o.program.length) out.push(`Register ${reg}: ${o.program[k] === null ? 'left to the random fill' : writeCard(o.program[k]!)}`);
    });
  } else out.push(`Program: none (your robot ${c.poweredDown ? 'is powered down' : 'plays no cards'} this turn)`);
  if (!c.poweredDown) out.push(`Power down next turn: ${o.powerDown ? 'yes' : 'no'}`);
  else out.push(`Stay powered down next turn: ${o.stayDown ? 'yes' : 'no'}`);
  if (c.rules.takeOptionChoice) out.push(`At a two-wrench site: ${takeOptionText(o.takeOption)}`);
  if (o.unlock.length) out.push(`Unlock first: register${o.unlock.length > 1 ? 's' : ''} ${o.unlock.join(', ')}`);
  if (o.facing) out.push(`Starting facing: ${o.facing}`);
  if (o.reenter) out.push(`If destroyed, re-enter${o.reenter.dir ? ` facing ${o.reenter.dir}` : ''}${o.reenter.poweredDown ? ' powered down' : ''}`);
  for (const [k, v] of Object.entries(o.choices)) out.push(`Option choice ${k}: ${JSON.stringify(v)}`);
  return out;
}

/**
 * The orders in the shape of the server's API (docs/server.md); `choices` only when there are
 * some. A conditional two-wrench order is the decision `choices.takeOption` (docs/options.md).
 */
export function apiOrders(o: WrittenOrders): Record<string, unknown> {
  const t = o.takeOption;
  const choices: Record<string, unknown> = { ...o.choices };
  if (typeof t !== 'boolean') choices.takeOption = 'damageAtMost' in t ? { ifDamageAtMost: t.damageAtMost } : { ifDamageAtLeast: t.damageAtLeast };
  return {
    program: o.program, powerDown: o.powerDown, stayDown: o.stayDown, takeOption: typeof t === 'boolean' ? t : false, unlock: o.unlock, reenter: o.reenter,
    ...(o.facing ? { facing: o.facing } : {}),
    ...(Object.keys(choices).length ? { choices } : {}),
  };
}

/**
 * A program as the notation writes it, one line, that `parseOrders` reads back to the same program
 * against the same hand: cards with their priority (`F2 P670`), instructions and codes as they
 * are, `-` for a register left to the random fill, joined cards with `+`.
 */
export function writeProgram(program: readonly (string | null)[]): string {
  return program.map((e) => (e === null ? '-' : e.split('+').map(writeCard).join('+'))).join(' ');
}
