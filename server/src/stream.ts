/**
 * The WebSocket stream of a race's entries. Each frame is a JSON array of entries (a batch, in seq
 * order), or an object: `{"entries": […], "played": …}` (a batch that played a turn, with that
 * turn's replay and report, so a client need not fetch them: one frame, one write), `{"draft": …}`
 * (how many registers a seat has filled so far, kept in memory only: drafts.ts; a new client, once
 * it has caught up with the entries, is sent the latest of each seat, of the turn drafted last) or
 * `{"error": …}`.
 *
 * The stream never holds a race's log in memory: the backlog after `after` is read and sent a page
 * at a time, the next page once the socket has taken the last one. Live entries are read once per
 * race and process, by the seq a commit announced (a commit of this process, or of another one by
 * NOTIFY): a commit of this process hands its entries over with the announcement, and they are
 * sent as they are when they follow on from what was sent; anything else (another process's, a
 * gap) is read from the database. Every client gets every committed entry once and in order,
 * whichever process wrote it. A client that falls behind (its outgoing buffer above a bound) or stops
 * answering pings is dropped; it reconnects with `after` = the last seq it saw and misses nothing.
 *
 * A backlog page is read and serialized once for all the clients that want it (backlog.ts), and the
 * clients catching up are sent a few pages per turn of the event loop: 640 clients catching up at
 * once held up every request for seconds (docs/server.md). The server holds so many streams in all
 * (`total`), and so many from one address (`perAddress`); one more is refused before its upgrade,
 * `503` or `429` with `Retry-After` (app.ts), counted as it is admitted: nothing is held for it.
 */
import type { WebSocket } from 'ws';
import type { Answer } from './errors.js';
import type { Entry } from './races.js';
import type { Draft } from './drafts.js';
import { inSlices } from './slices.js';
import { BacklogPages } from './backlog.js';
import { databaseUnavailable } from './db.js';
import { systemClock } from './deadline.js';
import { quietFailures } from './ticker.js';

export interface PlayedTurn {
  readonly turn: number;
  readonly replay: unknown;
  readonly report: unknown;
}

export interface StreamSource {
  /** Up to `limit` entries after `after`, in seq order. */
  entries(id: string, after: number, limit: number): Promise<Answer<Entry[]>>;
  /** The seq of the race's last committed entry. */
  lastSeq(id: string): Promise<number>;
  /** A played turn's replay and report (for the `played` frame). */
  played?(id: string, turn: number): Promise<PlayedTurn | null>;
  /** The latest draft of each seat, of the turn drafted last (sent once a new client has caught up). */
  drafts?(id: string): readonly Draft[];
}

export interface StreamLimits {
  /** Entries per backlog page and per live read (default 500). */
  readonly page: number;
  /** A client whose unsent bytes exceed this is dropped (default 1 MiB). */
  readonly maxBuffered: number;
  /** A ping every so often; a client that has not answered the last one by the next is dropped (default 30 s). */
  readonly pingMs: number;
  /** Open streams per client address (default 16). */
  readonly perAddress: number;
  /** Open streams in all, upgrades being made included (default 5,000). */
  readonly total: number;
}

/** Clients pinged in one task. */
const PING_SLICE = 200;
/** Backlog pages sent in one turn of the event loop (the other clients catching up wait for the next). */
export const PAGES_PER_TURN = 8;

export const STREAM_DEFAULTS: StreamLimits = { page: 500, maxBuffered: 1 << 20, pingMs: 30_000, perAddress: 16, total: 5000 };

interface Client {
  readonly socket: WebSocket;
  /** The last seq sent to it. */
  last: number;
  /** Reading its backlog: live batches wait in the database until it has caught up. */
  catchingUp: boolean;
  /** Sent the race's drafts (once, when it first caught up). */
  drafted: boolean;
  alive: boolean;
}

interface RaceHub {
  readonly clients: Set<Client>;
  /** The last seq read and sent to the caught-up clients (-1: none read yet). */
  sent: number;
  /** The highest seq announced as committed. */
  announced: number;
  reading: boolean;
  /**
   * Entries this process committed and announced, not sent yet: they follow on from `sent`
   * without a hole (anything that does not is left to a read of the database).
   */
  fresh: Entry[];
}

/** What a socket accepts; closes it if it cannot keep up. */
function deliver(c: Client, frame: string, limits: StreamLimits): boolean {
  if (c.socket.readyState !== 1) return false;
  c.socket.send(frame);
  if (c.socket.bufferedAmount > limits.maxBuffered) {
    // It reads too slowly to follow: dropped, it catches up by `after` when it comes back.
    c.socket.terminate();
    return false;
  }
  return true;
}

/** Keeps of a hub's fresh entries those after `sent`, if they follow on from it (else none). */
function trimFresh(hub: RaceHub): void {
  let k = 0;
  while (k < hub.fresh.length && hub.fresh[k]!.seq <= hub.sent) k++;
  if (k) hub.fresh.splice(0, k);
  if (hub.fresh.length && hub.fresh[0]!.seq !== hub.sent + 1) hub.fresh = [];
}

/** Reads of a catching-up client's backlog that may fail in a row before it is dropped (~30 s of pauses). */
const READ_RETRIES = 12;
const retryPause = (failures: number) => Math.min(100 * 2 ** (failures - 1), 5000);
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Sends a text frame (its UTF-8 bytes) and resolves once the socket has written it out (or is gone). */
const sendDrained = (socket: WebSocket, frame: Buffer) =>
  new Promise<void>((resolve) => {
    if (socket.readyState !== 1) return resolve();
    socket.send(frame, { binary: false }, () => resolve());
  });

export class StreamHub {
  private readonly races = new Map<string, RaceHub>();
  private readonly perAddress = new Map<string, number>();
  /** Streams open or being opened (admitted), in all. */
  private admitted = 0;
  private readonly limits: StreamLimits;
  private readonly backlog: BacklogPages;
  /** Backlog pages sent this turn of the event loop, and the end of the turn (when some were). */
  private pagesSent = 0;
  private turnEnds: Promise<void> = Promise.resolve();
  private readonly timer: ReturnType<typeof setInterval>;
  private closed = false;
  /**
   * The failed reads of every stream, told without flooding the log (ticker.ts `quietFailures`).
   * Before 2026-11-30 each failure of each client's read was a line: with the database away, every
   * client catching up logged about ten, and each race followed live one every few hundred ms.
   */
  private readonly readFailures = quietFailures('reading a stream', (line) => console.error(line), systemClock);
  /** Played turns already built, by race and the seq of the turn's `turnEnded` entry (a rewound turn is built anew). */
  private readonly playedCache = new Map<string, Promise<PlayedTurn | null>>();

  constructor(private readonly source: StreamSource, limits: Partial<StreamLimits> = {}) {
    this.limits = { ...STREAM_DEFAULTS, ...limits };
    this.backlog = new BacklogPages((id, after, limit) => source.entries(id, after, limit));
    this.timer = setInterval(() => this.ping(), this.limits.pingMs);
    this.timer.unref();
  }

  /** Open streams in all. */
  get size(): number {
    let n = 0;
    for (const r of this.races.values()) n += r.clients.size;
    return n;
  }

  /**
   * Entries up to `seq` of race `id` are committed (by this process or another). `entries`: those
   * the commit wrote, ending at `seq`, when this process made it; they need not be read back.
   * `played`: the turn they played, when this process had all of it; its frame need not be read.
   */
  committed(id: string, seq: number, entries?: readonly Entry[], played?: { endedSeq: number; frame: () => PlayedTurn }): void {
    const hub = this.races.get(id);
    if (!hub) return;
    if (played) this.keepPlayed(`${id}:${played.endedSeq}`, Promise.resolve(played.frame()));
    if (seq > hub.announced) hub.announced = seq;
    if (entries?.length && hub.sent >= 0) {
      trimFresh(hub);
      const next = hub.sent + 1 + hub.fresh.length;
      // Only what follows on from what is sent and kept: a hole is read from the database.
      if (entries[0]!.seq <= next && entries[entries.length - 1]!.seq >= next) for (const e of entries) if (e.seq >= next) hub.fresh.push(e);
    }
    void this.readLive(id, hub);
  }

  /**
   * A seat's draft, to every client of race `id` in this process as it is. The hub keeps nothing of
   * it: a client that comes (back) later is sent the source's latest drafts once it has caught up.
   */
  draft(id: string, draft: Draft): void {
    const hub = this.races.get(id);
    if (!hub) return;
    const frame = JSON.stringify({ draft });
    for (const c of hub.clients) deliver(c, frame, this.limits);
  }

  /** Looks again at each followed race's last seq (when notifications may have been missed). */
  resync(): void {
    for (const id of this.races.keys()) this.source.lastSeq(id).then((seq) => this.committed(id, seq), () => undefined);
  }

  /**
   * Why a stream from `address` would be refused now: the server holds its most streams (`total`),
   * or that address its most (`perAddress`); null when it would be admitted.
   */
  refusal(address: string): 'total' | 'address' | null {
    if (this.admitted >= this.limits.total) return 'total';
    if ((this.perAddress.get(address) ?? 0) >= this.limits.perAddress) return 'address';
    return null;
  }

  /**
   * Takes a place for a stream from `address` whose upgrade is on its way over `connection` (the
   * request's socket), held until it closes; or says why not (`refusal`). Checked and counted in
   * one step, before the upgrade: two upgrades at once never both take the last place.
   */
  admit(connection: { once(event: 'close', listener: () => void): unknown }, address: string): 'total' | 'address' | null {
    const refused = this.refusal(address);
    if (refused) return refused;
    this.admitted++;
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    connection.once('close', () => {
      this.admitted--;
      const n = this.perAddress.get(address)! - 1;
      if (n > 0) this.perAddress.set(address, n);
      else this.perAddress.delete(address);
    });
    return null;
  }

  /** The most streams the server holds at once, in all and from one address. */
  get most(): { readonly total: number; readonly perAddress: number } {
    return { total: this.limits.total, perAddress: this.limits.perAddress };
  }

  /** Resolves when a client catching up may be sent its next page: at most PAGES_PER_TURN a turn of the event loop. */
  private async turn(): Promise<void> {
    while (this.pagesSent >= PAGES_PER_TURN) await this.turnEnds;
    if (this.pagesSent++ === 0) this.turnEnds = new Promise((resolve) => setImmediate(() => ((this.pagesSent = 0), resolve())));
  }

  /** Follows race `id` on `socket` from `after` (its place taken by `admit`). */
  attach(socket: WebSocket, id: string, after: number): void {
    let hub = this.races.get(id);
    if (!hub) {
      hub = { clients: new Set(), sent: -1, announced: 0, reading: false, fresh: [] };
      this.races.set(id, hub);
    }
    const c: Client = { socket, last: after, catchingUp: true, drafted: false, alive: true };
    hub.clients.add(c);
    socket.on('pong', () => (c.alive = true));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      hub.clients.delete(c);
      if (!hub.clients.size && this.races.get(id) === hub) this.races.delete(id);
    });
    void this.catchUp(id, hub, c);
  }

  /** Sends a client its backlog page by page, then lets it follow the live batches. */
  private async catchUp(id: string, hub: RaceHub, c: Client): Promise<void> {
    // The database may be away for a moment (a lost connection is replaced): the client keeps its
    // stream and a failed read is tried again, with a growing pause, for about half a minute.
    // Undefined: the client left meanwhile.
    const read = async <T>(what: () => Promise<T>): Promise<T | undefined> => {
      for (let failures = 1; ; failures++) {
        try {
          const got = await what();
          this.readFailures.worked();
          return got;
        } catch (e) {
          if (failures > READ_RETRIES || c.socket.readyState !== 1) throw e;
          this.readFailures.failed(`race ${id}: ${(e as Error).message}`);
          await pause(retryPause(failures));
          if (c.socket.readyState !== 1) return undefined;
        }
      }
    };
    try {
      for (;;) {
        await this.turn();
        if (c.socket.readyState !== 1) return;
        const got = await read(() => this.backlog.page(id, c.last, this.limits.page));
        if (!got) return;
        if (!got.ok) {
          deliver(c, JSON.stringify({ error: got.refusal }), this.limits);
          c.socket.close(1008, got.refusal.field);
          return;
        }
        const page = got.value;
        if (page.count) {
          // One page at a time: the next is read once this one is written out.
          await sendDrained(c.socket, page.frame);
          if (c.socket.readyState !== 1) return;
          c.last = page.last;
        }
        // Caught up with what the race had: follow the live batches from here, unless more was
        // announced than this client has (read on) or the hub is behind it (the hub reads on).
        if (page.count < this.limits.page && c.last >= hub.announced && c.last >= hub.sent) {
          if (hub.sent < 0) {
            // The race's first live client: where its live reads begin.
            const last = await read(() => this.source.lastSeq(id));
            if (last === undefined) return;
            if (last > c.last) continue;
            c.last = last;
            if (hub.sent >= 0 && hub.sent !== c.last) continue;
          }
          c.catchingUp = false;
          if (hub.sent < c.last) hub.sent = c.last;
          // A commit announced while the first client looked up the last seq (its live reads begin
          // there, before the commit) found no live read to wake (`readLive` waits for `sent`): the
          // hub reads it now, or the client would wait for the race's next commit, maybe never.
          void this.readLive(id, hub);
          if (!c.drafted) {
            // Opened mid-turn: the registers the others have filled so far (drafts relayed from
            // now on follow these).
            c.drafted = true;
            for (const draft of this.source.drafts?.(id) ?? []) deliver(c, JSON.stringify({ draft }), this.limits);
          }
          return;
        }
      }
    } catch (e) {
      this.lost(c, e);
    }
  }

  /** Reads a race's new entries once and sends them to each client that follows it live. */
  private async readLive(id: string, hub: RaceHub): Promise<void> {
    if (hub.reading || hub.sent < 0 || hub.announced <= hub.sent) return;
    hub.reading = true;
    let failed = false;
    try {
      while (hub.announced > hub.sent && this.races.get(id) === hub) {
        // This process's own commits, as they were committed; else what the database has.
        trimFresh(hub);
        const got: Answer<readonly Entry[]> = hub.fresh.length ? { ok: true, value: hub.fresh.splice(0, this.limits.page) } : await this.source.entries(id, hub.sent, this.limits.page);
        if (!got.ok || !got.value.length) break;
        this.readFailures.worked();
        // Entries are committed in seq order per race (the version check serialises commits), so
        // what is read after `sent` follows on without a hole; a hole would be read again.
        const batch: Entry[] = [];
        for (const e of got.value) {
          if (e.seq !== hub.sent + 1 + batch.length) break;
          batch.push(e);
        }
        if (!batch.length) break;
        const first = batch[0]!.seq;
        hub.sent = batch[batch.length - 1]!.seq;
        const ended = batch.filter((e) => e.kind === 'game' && e.event.type === 'turnEnded');
        const played = ended.length && this.source.played ? await this.playedTurn(id, ended[ended.length - 1]!) : null;
        // A batch that played a turn goes with the turn's replay and report, in one frame.
        const framed = (entries: readonly Entry[]) => JSON.stringify(played ? { entries, played } : entries);
        const frame = framed(batch);
        for (const c of hub.clients) {
          if (c.catchingUp) continue;
          if (c.last < first - 1) {
            // It missed something (it was dropped meanwhile?): it reads its gap from the database.
            c.catchingUp = true;
            void this.catchUp(id, hub, c);
            continue;
          }
          const fresh = c.last >= first ? batch.filter((e) => e.seq > c.last) : batch;
          if (!fresh.length) continue;
          if (!deliver(c, fresh === batch ? frame : framed(fresh), this.limits)) continue;
          c.last = hub.sent;
        }
      }
    } catch (e) {
      this.readFailures.failed(`race ${id}: ${(e as Error).message}`);
      failed = true;
    } finally {
      hub.reading = false;
    }
    // Announced while the last read was on its way back (or the read failed: again after a pause).
    if (hub.announced > hub.sent && this.races.get(id) === hub && hub.sent >= 0) {
      if (failed) setTimeout(() => void this.readLive(id, hub), retryPause(1)).unref();
      else setImmediate(() => void this.readLive(id, hub));
    }
  }

  /** The played turn whose `turnEnded` entry is `ended` (a turn rewound and played again has another). */
  private playedTurn(id: string, ended: Entry): Promise<PlayedTurn | null> {
    const key = `${id}:${ended.seq}`;
    return this.playedCache.get(key) ?? this.keepPlayed(key, this.source.played!(id, ended.turn).catch(() => null));
  }

  private keepPlayed(key: string, got: Promise<PlayedTurn | null>): Promise<PlayedTurn | null> {
    this.playedCache.set(key, got);
    // A small cache: the turns played lately (every client of a race wants the same one).
    if (this.playedCache.size > 2000) this.playedCache.delete(this.playedCache.keys().next().value!);
    return got;
  }

  private lost(c: Client, e: unknown): void {
    if (databaseUnavailable(e)) this.readFailures.failed(`a client dropped: ${(e as Error).message}`);
    else console.error(`stream: ${(e as Error).message}`);
    c.socket.terminate();
  }

  /**
   * Pings every client; one that did not answer the last ping is dropped. A few hundred clients at
   * a time: a ping is a socket write, and the 1,000 clients of 500 races took one task of 12 ms.
   */
  private ping(): void {
    const clients = [...this.races.values()].flatMap((hub) => [...hub.clients]);
    void inSlices(clients, PING_SLICE, (c) => {
      if (!c.alive) {
        c.socket.terminate();
        return;
      }
      c.alive = false;
      if (c.socket.readyState === 1) c.socket.ping();
    }, () => this.closed).catch((e) => console.error(`stream ping: ${(e as Error).message}`));
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const hub of this.races.values()) for (const c of hub.clients) c.socket.terminate();
    this.races.clear();
  }
}
