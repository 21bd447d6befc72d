/**
 * Program cards. A card is a number: in `classic` its printed priority (10 to 840, every one
 * different, RULES.md "The program deck"), in `pbem` an instruction code above 1000 (no priority).
 */
export type Card = number;

export type CardType = 'F1' | 'F2' | 'F3' | 'B' | 'L' | 'R' | 'U';
export const CARD_TYPES: readonly CardType[] = ['F1', 'F2', 'F3', 'B', 'L', 'R', 'U'];

/** The 84-card deck: U-Turn 10–60, Rotate Left 70–410 and Rotate Right 80–420 by 20,
 *  Back-Up 430–480, Move 1 490–660, Move 2 670–780, Move 3 790–840 (RULES.md; 000 L30). */
const DECK_RANGES: readonly [CardType, number, number, number][] = [
  ['U', 10, 60, 10],
  ['L', 70, 410, 20],
  ['R', 80, 420, 20],
  ['B', 430, 480, 10],
  ['F1', 490, 660, 10],
  ['F2', 670, 780, 10],
  ['F3', 790, 840, 10],
];

const CLASSIC_TYPE: (CardType | undefined)[] = [];
const deck: Card[] = [];
for (const [type, from, to, step] of DECK_RANGES) {
  for (let p = from; p <= to; p += step) {
    CLASSIC_TYPE[p / 10] = type;
    deck.push(p);
  }
}
deck.sort((a, b) => a - b);
export const DECK: readonly Card[] = deck;

/** `pbem` instructions carry no priority: code 1000 + index in CARD_TYPES. */
export const PBEM_BASE = 1000;
export const instruction = (type: CardType): Card => PBEM_BASE + CARD_TYPES.indexOf(type);

/**
 * `pbem` upgrade codes (OPTIONS.md part 3): an instruction played another way. Each is played from
 * a dealt instruction (`F0` from an F, `F4` from an F3, `B2` from a B) and only by a robot holding
 * the upgrade.
 */
export type UpgradeCode = 'F0' | 'F4' | 'B2';
const UPGRADE_CODES: readonly [UpgradeCode, CardType, string, CardAction][] = [
  ['F0', 'F1', 'Brakes', { move: 0, turn: 0 }],
  ['F4', 'F3', 'Fourth Gear', { move: 4, turn: 0 }],
  ['B2', 'B', 'Reverse Gear', { move: -2, turn: 0 }],
];

/**
 * The movement options that play a card another way (OPTIONS.md 2.3, 2.12, 2.21; 001 L185-189):
 * Brakes a Move 1 as 0, Fourth Gear a Move 3 as 4, Reverse Gear a Back-Up as 2. A rule set with
 * `gearCodes` plays them as the `code` in the program; another names their registers in the
 * `choices` key `key`.
 */
export interface Gear {
  readonly option: string;
  readonly code: UpgradeCode;
  /** The dealt card it is played from. */
  readonly from: CardType;
  readonly key: 'brakes' | 'fourthGear' | 'reverseGear';
}
const GEAR_KEYS: Record<UpgradeCode, Gear['key']> = { F0: 'brakes', F4: 'fourthGear', B2: 'reverseGear' };
export const GEARS: readonly Gear[] = UPGRADE_CODES.map(([code, from, option]) => ({ option, code, from, key: GEAR_KEYS[code] }));
const UPGRADE_BASE = PBEM_BASE + CARD_TYPES.length;
/** The code of an upgrade instruction (F0, F4, B2). */
export const upgradeCode = (code: UpgradeCode): Card => UPGRADE_BASE + UPGRADE_CODES.findIndex(([c]) => c === code);
/** The upgrade a code needs, or undefined for a plain card. */
export const upgradeOf = (c: Card): string | undefined => (c >= UPGRADE_BASE ? UPGRADE_CODES[c - UPGRADE_BASE]?.[2] : undefined);
/** The dealt card a program entry uses up: itself, or for an upgrade code the instruction it is played from. */
export const handCard = (c: Card): Card => (c >= UPGRADE_BASE ? instruction(UPGRADE_CODES[c - UPGRADE_BASE]![1]) : c);

export const isDeckCard = (c: Card): boolean =>
  c > 0 && c < PBEM_BASE && c % 10 === 0 && CLASSIC_TYPE[c / 10] !== undefined;

/** The kind of card; an upgrade code counts as the instruction it is played from. */
export function cardType(c: Card): CardType {
  const t = c >= UPGRADE_BASE ? UPGRADE_CODES[c - UPGRADE_BASE]?.[1] : c >= PBEM_BASE ? CARD_TYPES[c - PBEM_BASE] : CLASSIC_TYPE[c / 10];
  if (t === undefined) throw new RangeError(`not a card: ${c}`);
  return t;
}

/** How a card moves its robot: squares forward (negative: backward), quarter turns right. */
export interface CardAction {
  readonly move: number;
  readonly turn: number;
}
const ACTIONS: Record<CardType, CardAction> = {
  F1: { move: 1, turn: 0 },
  F2: { move: 2, turn: 0 },
  F3: { move: 3, turn: 0 },
  B: { move: -1, turn: 0 },
  L: { move: 0, turn: 3 },
  R: { move: 0, turn: 1 },
  U: { move: 0, turn: 2 },
};
/** Every card's action in a dense table, for the register loop. */
const ACTION_OF: CardAction[] = new Array<CardAction>(UPGRADE_BASE + UPGRADE_CODES.length).fill(ACTIONS.U);
for (const c of DECK) ACTION_OF[c] = ACTIONS[cardType(c)];
CARD_TYPES.forEach((t, k) => (ACTION_OF[PBEM_BASE + k] = ACTIONS[t]));
UPGRADE_CODES.forEach(([, , , a], k) => (ACTION_OF[UPGRADE_BASE + k] = a));
export const cardAction = (c: Card): CardAction => ACTION_OF[c]!;

/** `F2:670` in classic, `F2` in pbem. */
export const cardName = (c: Card): string =>
  c >= UPGRADE_BASE ? UPGRADE_CODES[c - UPGRADE_BASE]![0] : c >= PBEM_BASE ? cardType(c) : `${cardType(c)}:${c}`;

/**
 * Reads `CODE:PRIORITY` (classic) or `CODE` (pbem, where the upgrade codes F0, F4 and B2 are
 * cards too); `F` is Move 1. Undefined if not a card.
 */
export function parseCard(s: string, withPriority: boolean): Card | undefined {
  const m = /^(F[0-4]?|B2?|L|R|U)(?::(\d+))?$/.exec(s.trim().toUpperCase());
  if (!m) return undefined;
  const up = UPGRADE_CODES.findIndex(([c]) => c === m[1]);
  if (up >= 0) return withPriority || m[2] !== undefined ? undefined : UPGRADE_BASE + up;
  const type = (m[1] === 'F' ? 'F1' : m[1]) as CardType;
  if (!withPriority) return m[2] === undefined ? instruction(type) : undefined;
  if (m[2] === undefined) return undefined;
  const p = Number(m[2]);
  return isDeckCard(p) && CLASSIC_TYPE[p / 10] === type ? p : undefined;
}
