/** The race server's JSON API as the browser uses it (docs/server.md), and a few DOM helpers. */
import type { GameEvent, SeatOrders, Standing } from '../../engine/src/index.js';

export interface CourseInfo {
  name: string;
  title: string;
  description: string;
  players: [number, number];
  complexity: string;
  time: string;
  boards: number;
  flags: number;
  starts: number;
  rules: string[];
}

export interface PublicRobot {
  seat: number;
  name: string;
  x: number;
  y: number;
  dir: 'N' | 'E' | 'S' | 'W';
  damage: number;
  lives: number;
  flags: number;
  status: 'active' | 'destroyed' | 'out';
  /** Where it re-enters if destroyed: the last flag or repair site it touched (its start before any). */
  archive?: [number, number] | null;
  virtual: boolean;
  poweredDown: boolean;
  /** Why each is locked: the damage count, or a Fire Control marker. */
  locked: { register: number; card: string | null; by: 'damage' | 'Fire Control' }[];
  lockedCount: number;
  cards: number;
  /** Its option cards (`NAME:LEFT` for cards with uses); under Secret Options only those used. */
  options: string[];
  /** Under Secret Options: how many it holds that have not been used yet. */
  hiddenOptions: number;
}

export interface RaceView {
  id: string;
  course: string;
  rules: string;
  status: string;
  paused: boolean;
  deadlineAt: number | null;
  lastSeq: number;
  turn: number;
  phase: string;
  /**
   * Per seat: its robot's design (render/src/robots.ts), whether its orders are in and how many
   * registers they fill (never which cards); `invited`: a person's seat nobody took yet (its invite
   * link not opened).
   */
  seats: { seat: number; name: string; kind: 'human' | 'bot'; level: string | null; submitted: boolean; robot?: number; programmed?: number; invited?: boolean }[];
  robots: PublicRobot[];
  finished: string[][];
  /** pbem: the upgrade each hammer site offers now. */
  offers: { x: number; y: number; option: string }[];
  /** Dice Rule: the damage each flag's die can still absorb (0: gone), by flag; empty without it. */
  dice: number[];
  /** A live race's clock waiting for the people to watch the replay: when it starts at the latest, and the seats still watching; null when it runs. */
  clock?: { startsBy: number; waitingFor: number[] } | null;
  /** The engine's standings as the race stands (teams as teams): final once it is over. */
  standings?: Standing[];
  /** The series it belongs to (its first race's id), or null for a race on its own or a series' first race. */
  series?: string | null;
  /** Its deal (docs/server.md): secret, or dealt from a seed chosen openly, with which anybody can work out every hand. */
  deal?: { secret: true } | { secret: false; seed: number };
}

/**
 * The moderator key of a race this browser created, kept in its local storage (the Next race of a
 * series is created with the last race's key: docs/server.md `after`); null if it did not create it.
 */
export const moderatorKeyOf = (race: string): string | null => localStorage.getItem(`roborally.moderator.${race}`);
export const keepModeratorKey = (race: string, key: string): void => localStorage.setItem(`roborally.moderator.${race}`, key);

/**
 * The invite link (`/race/{id}?seat=N&invite=CODE`) of the seat this browser's person was given with a
 * race it created (Go to your seat): the race page, holding the moderator key, opens it without a
 * word, and asks before it takes any other person's seat with their invite (the creator trying the
 * links before sending them).
 */
export const ownLinkOf = (race: string): string | null => localStorage.getItem(`roborally.own.${race}`);
export const keepOwnLink = (race: string, link: string): void => localStorage.setItem(`roborally.own.${race}`, link);

/** How many of the seats' tokens this browser got itself are kept: the last ones. */
const OWN_TOKENS_KEPT = 50;

/**
 * Keeps a token this browser got itself for a race's seats (its claim with an invite, its renewal
 * of the seat's link, or the person saying a link is their own), the last 50: a seat's page opened
 * with any other token holds a link made in another browser.
 */
export function keepOwnToken(race: string, token: string): void {
  const entry = `${race} ${token}`;
  const kept = ownTokens().filter((e) => e !== entry);
  localStorage.setItem('roborally.tokens', JSON.stringify([...kept, entry].slice(-OWN_TOKENS_KEPT)));
}

/**
 * Whether this browser got the token itself (keepOwnToken), or took the seat with it before the
 * tokens were kept (its invite's token, `roborally.invite.{race}.{code}`).
 */
export function isOwnToken(race: string, token: string): boolean {
  if (ownTokens().includes(`${race} ${token}`)) return true;
  return Object.keys(localStorage).some((k) => k.startsWith(`roborally.invite.${race}.`) && localStorage.getItem(k) === token);
}

function ownTokens(): string[] {
  try {
    const got = JSON.parse(localStorage.getItem('roborally.tokens') ?? '[]') as unknown;
    return Array.isArray(got) ? got.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * This browser's own random key for its claims (POST …/claim `browser`, docs/server.md): 144
 * random bits in base64url, made once and kept in local storage before any claim is sent, so a
 * claim whose answer was lost (the network, a reload while it was on its way) is sent again with
 * the same key and answered the same token.
 */
export function browserKey(): string {
  const kept = localStorage.getItem('roborally.browser');
  if (kept) return kept;
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18)))).replace(/\+/g, '-').replace(/\//g, '_');
  localStorage.setItem('roborally.browser', key);
  return key;
}

/**
 * The names a new race's seats get. Yours is the one this browser raced under last, else
 * "Player 1" (other people are Player 2, 3…): the replay and the report speak of every robot in
 * the third person ("Player 1 plays Move 1"), so a name such as "You" would read wrong there.
 */
export const yourName = (): string => localStorage.getItem('roborally.name') ?? 'Player 1';
export const keepYourName = (name: string): void => localStorage.setItem('roborally.name', name);

/**
 * Bots' names, none of them a robot design's (render/src/robots.ts): a bot named "Bolt" racing
 * the Rivet, beside the Bolt another seat races, read as "Bolt (Bolt)" in the robot picker.
 */
const BOT_NAMES = ['Clank', 'Zapper', 'Whirr', 'Dynamo', 'Ratchet', 'Tinker', 'Sparky'];

/** `n` bots of `level`, each named apart from the seats' names already taken. */
export function botSeats(taken: readonly string[], n: number, level: string): { name: string; bot: string }[] {
  const names = BOT_NAMES.filter((b) => !taken.includes(b));
  return names.slice(0, n).map((name) => ({ name, bot: level }));
}

/**
 * A seat's orders as the API takes them and gives them back: the engine's `SeatOrders`, which its
 * `readOrders` reads on the server; the form leaves `facing` null until one is chosen and `choices`
 * out when no decision is given.
 */
export type SentOrders = Omit<SeatOrders, 'facing' | 'choices'> & {
  readonly facing?: string | null;
  readonly choices?: Record<string, unknown> | null;
  /** The order of the seat's sends this turn (docs/server.md): orders the server holds of a later revision are never replaced by these. */
  readonly revision?: number;
};

export interface SeatView extends RaceView {
  you: {
    seat: number; hand: string[]; openRegisters: number[]; needsProgram: boolean; poweredDown: boolean; orders: SentOrders | null;
    /** What of its stored orders no longer read (shown in `orders` as they will be played). */
    ordersUnread: { field: string; message: string }[];
    /** All its options, secret or not; the decisions the rule set takes; the card its Flywheel keeps; whether it recompiled this turn. */
    options: string[]; choiceKeys: string[]; flywheel: string | null; recompiled: boolean;
    /** Raced by e-mail: the page was opened from its mails, whose link is the seat's only one. */
    byMail: boolean;
  };
}

export interface Entry {
  seq: number;
  turn: number;
  kind: 'game' | 'race';
  event: GameEvent | { type: string; [k: string]: unknown };
}

/**
 * A frame of the race's stream: a batch of entries in seq order, alone or (a batch that played a
 * turn) with the turn's replay and report, so the page need not fetch them; a seat's draft (how
 * many registers it has filled so far), or a refusal.
 */
export type StreamFrame = Entry[] | { entries: Entry[]; played: { turn: number; replay: Replay; report: { report: TurnReport } } } | { draft: { turn: number; seat: number; filled: number } } | { error: { message: string } };

export interface Replay {
  turn: number;
  robots: PublicRobot[];
  /** The finishing order as the turn began: names, in groups tied for a place. */
  finished: string[][];
  events: GameEvent[];
}

export interface ReportRow {
  robot: number;
  name: string;
  dmg: number;
  move: string[];
  notes: string[];
}
export interface TurnReport {
  turn: number;
  start: string[];
  registers: { register: number; rows: ReportRow[] }[];
  end: string[];
}

/** A refusal of the server, with the field it names. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly field: string, message: string) {
    super(message);
  }
}

/** No answer (neither an answer nor a failure) within `deadlineMs`: the request is abandoned (aborted, so a late answer is never read). */
export class NoAnswer extends Error {
  constructor(readonly deadlineMs: number) {
    super(`no answer came within ${deadlineMs / 1000} s`);
  }
}

export async function api<T>(method: string, path: string, body?: unknown, token?: string, more: Record<string, string> = {}, deadlineMs?: number): Promise<T> {
  const headers: Record<string, string> = { ...more };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const stop = new AbortController();
  const timer = deadlineMs === undefined ? undefined : setTimeout(() => stop.abort(new NoAnswer(deadlineMs)), deadlineMs);
  let res: Response, json: { error?: { field: string; message: string } } | null;
  try {
    res = await fetch(path, { method, headers, signal: stop.signal, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    json = await res.json().catch(() => null);
  } catch (e) {
    throw stop.signal.aborted ? stop.signal.reason : e;
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok) {
    const e = json?.error ?? { field: 'server', message: `${res.status} ${res.statusText}` };
    throw new ApiError(res.status, e.field, e.message);
  }
  return json as T;
}

/** A new Idempotency-Key: 128 random bits in hex (crypto.getRandomValues, which pages served over plain HTTP have too). */
export const newIdempotencyKey = (): string => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * POST /api/races for one press of a button, with an Idempotency-Key of its own (docs/server.md):
 * when the answer is lost on the way (a network error) or the server could not answer just then
 * (503), the request is sent again, up to twice, with the same key, and the server answers it as
 * the first, making no second race.
 */
export async function createRace<T>(body: unknown): Promise<T> {
  const key = newIdempotencyKey();
  for (let attempt = 1; ; attempt++) {
    try {
      return await api<T>('POST', '/api/races', body, undefined, { 'idempotency-key': key });
    } catch (e) {
      if ((e instanceof ApiError && e.status !== 503) || attempt === 3) throw e;
      await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
  }
}

type Attrs = Record<string, string | number | boolean | null | undefined | ((e: never) => void)>;

/** An element with attributes (`on…` are listeners; false, null and undefined are left out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Node | string | null | false)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (typeof v === 'function') e.addEventListener(k.slice(2), v as EventListener);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== false) e.append(c);
  return e;
}

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
};

/** Copies text, and says so on the button. */
export async function copy(text: string, button: HTMLElement): Promise<void> {
  const was = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select and copy the link';
  }
  setTimeout(() => (button.textContent = was), 1500);
}

/** A line of what the race's creator sends or keeps: its label, the text in a read-only field, and Copy. */
export function linkLine(label: string, value: string, cls: string): HTMLLIElement {
  const b = h('button', { type: 'button', onclick: () => void copy(value, b) }, 'Copy');
  return h('li', { class: cls }, h('span', {}, label), h('input', { readonly: true, value, 'aria-label': label }), b);
}
