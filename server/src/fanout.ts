/**
 * Several server processes on one PostgreSQL database: each tells the others, by NOTIFY, that a
 * race's entries up to a seq are committed (the process that sent it skips its own: its streams had
 * them at once), with the race's version the commit made and what it changed (`entriesPayload`): a
 * small change whole, its entries and writes, and a turn played whole but compressed (its entries,
 * its new state, the dealt turn's beginning), so that the others follow it in the race they keep
 * and hand the entries to their streams without a read; a change too long for a notification even
 * so, only that it dealt a turn, which the others then read in one round trip (races.ts
 * `committedElsewhere`). The commits of one turn of the
 * event loop go in one statement (`pg_notify` over an array), not one each (a process alone: those
 * of `ALONE_FLUSH_MS`). A
 * seat's draft (drafts.ts: how many registers it has filled, stored in no database) goes the same way on
 * a channel of its own, whole; a process skips its own, which its streams had at once. So do a
 * turn's bots' orders once the process that dealt the turn has decided them (races.ts
 * `sharedBots`: any process that takes the turn's last orders then plays it at once), a turn's
 * call for its bots when they were not in yet (`wantBots`: the process that took the last orders
 * asks the one that decides them to play it) and the answer (`tookBots`). Everything a process
 * notifies in one turn of its event loop goes in one statement.
 *
 * A process alone on the database does not send its bots' orders, nor what a commit changed (only
 * its seq): nobody would read them, and PostgreSQL would write them to its notification queue and
 * send them back to it. A
 * process greets the others when its listener starts (they answer) and every `GREETING_MS`; it
 * counts others as there while it has heard one within `OTHERS_GONE_MS`. Either way a process that
 * gets no bots' orders asks for them.
 *
 * A lost connection is never fatal: the listener reconnects with a growing pause (up to 5 s) and,
 * once back, `resync` lets the streams look for what was committed while it was away.
 */
import { randomUUID } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import pg from 'pg';
import type { BotSeat, BotTurn } from '../../driver/src/index.js';
import { isLevel } from '../../bots/src/index.js';
import type { Draft } from './drafts.js';
import type { ChangeNote, NoteSet } from './race-cache.js';
import type { Entry } from './races.js';

const CHANNEL = 'roborally_entries';
/** The channel of committed entries (`entriesPayload`). */
export const ENTRIES_CHANNEL = CHANNEL;
const DRAFTS = 'roborally_drafts';
const BOTS = 'roborally_bots';

export interface Fanout {
  /** Statements sent to notify (each carries what one turn of the event loop notified), greetings alone not counted, for the metrics. */
  readonly sent: () => number;
  /**
   * Whether this process may count itself the database's only writer: it has heard no other
   * process within `OTHERS_GONE_MS`, and has listened for `ANSWER_MS` at least (the others' answers
   * to its greeting come within it). A process that starts greets the others, who count it from then on.
   */
  readonly alone: () => boolean;
  /** Entries of `raceId` up to `lastSeq` are committed, by the change `note` when told. */
  publish(raceId: string, lastSeq: number, note?: ChangeNote): void;
  publishDraft(raceId: string, draft: Draft): void;
  /** `wanted`: this process asks for the bots of a race's turn; `taken`: it plays that turn once they have decided. */
  publishBots(kind: BotsCall, raceId: string, turn: number): void;
  /** The bots `bots` of a race's turn decided these orders (the process that dealt it); not sent when too long for a notification. */
  publishDecided(raceId: string, turn: number, bots: readonly BotSeat[], orders: Readonly<Record<number, BotTurn>>): void;
  close(): Promise<void>;
}

export interface FanoutHandlers {
  /** Entries of `raceId` up to `seq` are committed (by another process), by the change `note` when told. */
  readonly entries: (raceId: string, seq: number, note?: ChangeNote) => void;
  /** The listener was away: notifications may have been missed. */
  readonly resync: () => void;
  /** Another process took a seat's draft of race `raceId`. */
  readonly draft: (raceId: string, draft: Draft) => void;
  /** Another process asks for the bots of a race's turn (`wanted`), or plays it once they have decided (`taken`). */
  readonly bots: (kind: BotsCall, raceId: string, turn: number) => void;
  /** Another process decided the orders of bots `bots` for a race's turn. */
  readonly decided: (raceId: string, turn: number, bots: BotSeat[], orders: Record<number, BotTurn>) => void;
}

export type BotsCall = 'wanted' | 'taken';

const whole = (v: unknown, max: number): v is number => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;

/** Another process's notification as an object, or null (not JSON, not an object, or this process's own). */
function fromOther(payload: string, self: string): Record<string, unknown> | null {
  let m: unknown;
  try {
    m = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null || (m as Record<string, unknown>).from === self) return null;
  return m as Record<string, unknown>;
}

/** How often a process greets the others (`hello`), and after how long without a word of them it counts itself alone. */
const GREETING_MS = 30_000;
const OTHERS_GONE_MS = 3 * GREETING_MS + 5000;
/** How long the notifications of a process alone wait to go together in one statement. */
const ALONE_FLUSH_MS = 50;
/** How long a process that starts waits for the others' answers to its greeting before it may count itself alone. */
const ANSWER_MS = 2000;

/** PostgreSQL refuses a notification's payload from 8000 bytes on. */
const MAX_PAYLOAD = 7900;

const ints = (v: unknown, max: number): boolean => Array.isArray(v) && v.length <= 16 && v.every((x) => whole(x, max));
const ORDER_KEYS = new Set(['program', 'powerDown', 'stayDown', 'takeOption', 'unlock', 'joined', 'choices']);

/**
 * One bot's orders as another process sent them, checked in shape (the engine checks them against
 * the turn when it enters them, as it does every bot's): null when they are not.
 */
function readBotTurn(v: unknown): BotTurn | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const { level, orders, ...rest } = v as Record<string, unknown>;
  if (Object.keys(rest).length || typeof level !== 'string' || !isLevel(level)) return null;
  if (orders === null) return { level, orders: null };
  if (typeof orders !== 'object' || Array.isArray(orders)) return null;
  const o = orders as Record<string, unknown>;
  if (Object.keys(o).some((k) => !ORDER_KEYS.has(k))) return null;
  if (o.program !== undefined && !ints(o.program, 2 ** 31)) return null;
  if (o.joined !== undefined && !ints(o.joined, 2 ** 31)) return null;
  if (o.unlock !== undefined && !ints(o.unlock, 5)) return null;
  if (['powerDown', 'stayDown', 'takeOption'].some((k) => o[k] !== undefined && typeof o[k] !== 'boolean')) return null;
  if (o.choices !== undefined && (typeof o.choices !== 'object' || o.choices === null || Array.isArray(o.choices))) return null;
  return { level, orders: o as BotTurn['orders'] };
}

/** A decision of a turn's bots another process sent, checked, or null. */
function readDecided(m: Record<string, unknown>): Heard | null {
  const { race, turn, bots, orders } = m;
  if (typeof race !== 'string' || !whole(turn, 2 ** 31) || !Array.isArray(bots) || !bots.length || bots.length > 64) return null;
  if (typeof orders !== 'object' || orders === null || Array.isArray(orders)) return null;
  const seats: BotSeat[] = [];
  for (const b of bots as unknown[]) {
    const { seat, level } = (typeof b === 'object' && b !== null ? b : {}) as Record<string, unknown>;
    if (!whole(seat, 64) || typeof level !== 'string' || !isLevel(level)) return null;
    seats.push({ seat, level });
  }
  const checked: Record<number, BotTurn> = {};
  for (const [k, v] of Object.entries(orders as Record<string, unknown>)) {
    const seat = Number(k);
    const t = readBotTurn(v);
    if (!seats.some((b) => b.seat === seat) || !t) return null;
    checked[seat] = t;
  }
  if (seats.some((b) => !(b.seat in checked))) return null;
  return { kind: 'decided', race, turn, bots: seats, orders: checked };
}

/**
 * What a commit's notification says (`race`, `seq`: its entries end there), written by the process
 * that committed it (`self`): with `note`, the race's version it made (`v`), whether it dealt a turn
 * (`t`) or changed the seats (`sc`), and, if the whole fits in a notification, its entries (`e`),
 * the columns it set (`s`), the orders it stored (`o`) and whether it wrote more (`w`); for a turn
 * played, those compressed (`z`). `max`: the longest notification sent (PostgreSQL's bound; a test
 * makes the others read a play back with a smaller one).
 */
export function entriesPayload(self: string, race: string, seq: number, note?: ChangeNote, max = MAX_PAYLOAD): string {
  const head = { from: self, race, seq };
  if (!note) return JSON.stringify(head);
  const brief = { ...head, v: note.version, ...(note.dealt !== undefined ? { t: note.dealt } : {}), ...(note.seatsChanged ? { sc: 1 } : {}) };
  if (note.entries) {
    const e = note.entries.map((x) => ({ turn: x.turn, kind: x.kind, event: x.event }));
    // A play (its entries and two game states, 5 to 18 KB as JSON on first-shift with 2 to 8 robots)
    // goes compressed, in 2 to 3 KB: `z`, the deflated JSON of its entries, columns, first seq and
    // the dealt turn's beginning, in base64.
    const told = note.played
      ? JSON.stringify({ ...brief, z: deflateRawSync(JSON.stringify({ e, s: note.set ?? {}, f: note.played.first, d: note.played.before })).toString('base64') })
      : JSON.stringify({ ...brief, e, ...(note.set ? { s: note.set } : {}), ...(note.orders ? { o: note.orders } : {}), ...(note.opaque ? { w: 1 } : {}) });
    // Too long: the others read the entries (and the race) instead.
    if (Buffer.byteLength(told) <= max) return told;
  }
  return JSON.stringify(brief);
}

const SET_STRINGS = new Set(['state', 'status']);
const SET_NUMBERS = new Set(['deadline_at', 'paused_left', 'play_by']);

/** A note's entries (`e`), checked in shape; undefined when they are not of it. */
function readEntries(e: unknown): Omit<Entry, 'seq'>[] | undefined {
  if (!Array.isArray(e) || !e.length || e.length > 1000) return undefined;
  const entries: Omit<Entry, 'seq'>[] = [];
  for (const x of e as unknown[]) {
    const { turn, kind, event, ...rest } = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>;
    if (Object.keys(rest).length || !whole(turn, 2 ** 31) || (kind !== 'game' && kind !== 'race')) return undefined;
    if (typeof event !== 'object' || event === null || Array.isArray(event) || typeof (event as Record<string, unknown>).type !== 'string') return undefined;
    entries.push({ turn, kind, event: event as Entry['event'] });
  }
  return entries;
}

/** A note's columns (`s`), checked in shape; null when they are not of it. */
function readSet(s: unknown): NoteSet | null {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return null;
  for (const [k, x] of Object.entries(s)) {
    if (SET_STRINGS.has(k) ? typeof x !== 'string' : !SET_NUMBERS.has(k) || (x !== null && !whole(x, Number.MAX_SAFE_INTEGER))) return null;
  }
  return s as NoteSet;
}

/** What a compressed play (`z`) holds, once inflated (at most this many bytes: a play's is far less) and checked; undefined when it is not that. */
const MAX_PLAY = 1 << 20;
function readPlay(base: ChangeNote, z: unknown): ChangeNote | undefined {
  if (base.dealt === undefined || typeof z !== 'string' || z.length > MAX_PAYLOAD) return undefined;
  let m: unknown;
  try {
    m = JSON.parse(inflateRawSync(Buffer.from(z, 'base64'), { maxOutputLength: MAX_PLAY }).toString());
  } catch {
    return undefined;
  }
  const { e, s, f, d, ...rest } = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
  const entries = readEntries(e);
  const set = readSet(s);
  if (Object.keys(rest).length || !entries || !set || !whole(f, Number.MAX_SAFE_INTEGER) || typeof d !== 'string') return undefined;
  return { ...base, entries, set, played: { first: f, before: d } };
}

/** A commit's note as another process wrote it (`entriesPayload`), checked in shape; undefined when there is none or it is not of that shape (the commit is then read). */
function readNote(m: Record<string, unknown>): ChangeNote | undefined {
  const { v, t, sc, e, s, o, w, z } = m;
  if (!whole(v, Number.MAX_SAFE_INTEGER) || (t !== undefined && !whole(t, 2 ** 31)) || (sc !== undefined && sc !== 1) || (w !== undefined && w !== 1)) return undefined;
  const base: ChangeNote = { version: v, ...(t !== undefined ? { dealt: t as number } : {}), ...(sc === 1 ? { seatsChanged: true as const } : {}) };
  if (z !== undefined) return e === undefined && s === undefined && o === undefined && w === undefined ? readPlay(base, z) : undefined;
  if (e === undefined) return s === undefined && o === undefined && w === undefined ? base : undefined;
  const entries = readEntries(e);
  if (!entries) return undefined;
  let set: NoteSet | undefined;
  if (s !== undefined) {
    const read = readSet(s);
    if (!read) return undefined;
    set = read;
  }
  let orders: ChangeNote['orders'];
  if (o !== undefined) {
    const { turn, seat, body, ...rest } = (typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>;
    if (Object.keys(rest).length || !whole(turn, 2 ** 31) || !whole(seat, 64) || typeof body !== 'string') return undefined;
    orders = { turn, seat, body };
  }
  return { ...base, entries, ...(set ? { set } : {}), ...(orders ? { orders } : {}), ...(w === 1 ? { opaque: true as const } : {}) };
}

/** What another process said in a notification. */
export type Heard =
  | { readonly kind: 'hello'; readonly answer: boolean }
  | { readonly kind: 'entries'; readonly race: string; readonly seq: number; readonly note?: ChangeNote }
  | { readonly kind: 'draft'; readonly race: string; readonly draft: Draft }
  | { readonly kind: 'bots'; readonly call: BotsCall; readonly race: string; readonly turn: number }
  | { readonly kind: 'decided'; readonly race: string; readonly turn: number; readonly bots: BotSeat[]; readonly orders: Record<number, BotTurn> };

/**
 * Another process's notification on `channel`, parsed once and checked in shape: a greeting (`hello`
 * 1 asks for an answer, 2 does not), committed entries, a draft, a call about a turn's bots or their
 * decision; null when it is not JSON, of no known shape, or this process's own.
 */
export function readNotification(channel: string, payload: string, self: string): Heard | null {
  const m = fromOther(payload, self);
  if (m === null) return null;
  if (channel === CHANNEL) {
    if (typeof m.race !== 'string' || !whole(m.seq, Number.MAX_SAFE_INTEGER)) return null;
    const note = readNote(m);
    return { kind: 'entries', race: m.race, seq: m.seq, ...(note ? { note } : {}) };
  }
  if (channel === DRAFTS) {
    const { race, turn, seat, filled } = m;
    if (typeof race !== 'string' || !whole(turn, 2 ** 31) || !whole(seat, 64) || !whole(filled, 5)) return null;
    return { kind: 'draft', race, draft: { turn, seat, filled } };
  }
  if (channel !== BOTS) return null;
  if (m.hello === 1 || m.hello === 2) return { kind: 'hello', answer: m.hello === 1 };
  if (m.kind === 'wanted' || m.kind === 'taken') return typeof m.race === 'string' && whole(m.turn, 2 ** 31) ? { kind: 'bots', call: m.kind, race: m.race, turn: m.turn } : null;
  return readDecided(m);
}

const clientConfig = (url: string): pg.ClientConfig => ({
  connectionString: url,
  connectionTimeoutMillis: 5000,
  ...(process.env.PG_APPLICATION_NAME ? { application_name: process.env.PG_APPLICATION_NAME } : {}),
});

export async function postgresFanout(url: string, on: FanoutHandlers): Promise<Fanout> {
  let closed = false;
  let listener: pg.Client | null = null;
  let pause = 100;
  // This process's name in its notifications: its own come back to it and are skipped.
  const self = randomUUID();
  // JSON.stringify writes `from` first in every notification: this process's own are told by it unread.
  const mine = `{"from":"${self}"`;
  // When a notification of another process came last (0: never); a greeting's kind, `hello`: 1 asks the others to answer, 2 does not.
  let heardOthers = 0;
  const others = () => heardOthers > 0 && Date.now() - heardOthers < OTHERS_GONE_MS;
  // When the listener last began to listen (it hears nothing of the others while it is lost).
  let listening = Date.now();
  const greet = (hello: 1 | 2) => notify(BOTS, JSON.stringify({ from: self, hello }), true);
  const connect = async (): Promise<void> => {
    const c = new pg.Client(clientConfig(url));
    c.on('error', (e) => {
      console.error(`NOTIFY listener: ${e.message}; reconnecting`);
      lost(c);
    });
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      if (!n.payload || n.payload.startsWith(mine)) return;
      heardOthers = Date.now();
      const h = readNotification(n.channel, n.payload, self);
      if (h?.kind === 'hello') {
        if (h.answer) greet(2);
      } else if (h?.kind === 'entries') on.entries(h.race, h.seq, h.note);
      else if (h?.kind === 'draft') on.draft(h.race, h.draft);
      else if (h?.kind === 'bots') on.bots(h.call, h.race, h.turn);
      else if (h?.kind === 'decided') on.decided(h.race, h.turn, h.bots, h.orders);
    });
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    await c.query(`LISTEN ${DRAFTS}`);
    await c.query(`LISTEN ${BOTS}`);
    listener = c;
  };
  const lost = (c: pg.Client) => {
    if (listener !== c) return;
    listener = null;
    c.end().catch(() => undefined);
    if (!closed) setTimeout(retry, pause).unref();
  };
  const retry = async () => {
    if (closed || listener) return;
    try {
      await connect();
      listening = Date.now();
      pause = 100;
      greet(1);
      on.resync();
    } catch (e) {
      console.error(`NOTIFY listener: ${(e as Error).message}; trying again in ${pause} ms`);
      pause = Math.min(pause * 2, 5000);
      setTimeout(retry, pause).unref();
    }
  };
  await connect();
  // A pool queues its queries (one client never runs two at once) and replaces a lost connection.
  const sender = new pg.Pool({ ...clientConfig(url), max: 2 });
  sender.on('error', (e) => console.error(`NOTIFY sender: ${e.message}`));
  sender.on('connect', (client) => client.on('error', (e) => console.error(`NOTIFY sender: ${e.message}`)));
  let sent = 0;
  // Channels and payloads to notify at the end of this turn of the event loop, in order; and whether they are all greetings.
  let queued: [string, string][] = [];
  let greetings = true;
  const flush = () => {
    const q = queued;
    queued = [];
    if (!greetings) sent++;
    greetings = true;
    sender.query('SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)', [q.map((x) => x[0]), q.map((x) => x[1])])
      .catch((e: Error) => console.error(`NOTIFY of ${q.length} (${q[0]![0]} ${q[0]![1].slice(0, 80)}…): ${e.message}`));
  };
  const notify = (channel: string, payload: string, greeting = false) => {
    // Alone, nobody waits for them (but a process starting, who has not been heard yet): they go
    // together, one statement every ALONE_FLUSH_MS.
    if (!queued.length) {
      if (others()) setImmediate(flush);
      else setTimeout(flush, ALONE_FLUSH_MS);
    }
    queued.push([channel, payload]);
    greetings &&= greeting;
  };
  greet(1);
  const greeting = setInterval(() => greet(2), GREETING_MS).unref();
  return {
    sent: () => sent,
    // Not while the listener is lost, nor until it has listened again long enough for the others'
    // answers: a commit made meanwhile by a process it has not heard of would go unseen.
    alone: () => listener !== null && !others() && Date.now() - listening >= ANSWER_MS,
    // Alone, the note goes to nobody (PostgreSQL would queue it and send it back to this process).
    publish: (raceId, lastSeq, note) => notify(CHANNEL, entriesPayload(self, raceId, lastSeq, others() ? note : undefined)),
    publishDraft: (raceId, d) => notify(DRAFTS, JSON.stringify({ from: self, race: raceId, turn: d.turn, seat: d.seat, filled: d.filled })),
    publishBots: (kind, raceId, turn) => notify(BOTS, JSON.stringify({ from: self, kind, race: raceId, turn })),
    publishDecided: (raceId, turn, bots, orders) => {
      if (!others()) return;
      const payload = JSON.stringify({ from: self, race: raceId, turn, bots: bots.map((b) => ({ seat: b.seat, level: b.level })), orders });
      // Too long (many bots with long choices): the turn's last orders elsewhere ask for them instead (`wantBots`).
      if (Buffer.byteLength(payload) <= MAX_PAYLOAD) notify(BOTS, payload);
    },
    close: async () => {
      closed = true;
      clearInterval(greeting);
      const l = listener;
      listener = null;
      await l?.end().catch(() => undefined);
      await sender.end().catch(() => undefined);
    },
  };
}
