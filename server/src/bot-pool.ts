/**
 * The bots decide in a pool of worker threads (`bot-worker.ts`), never on the server's event loop.
 *
 * It is the race service's `BotPlanner` (planner.ts): told when a turn is dealt (`dealt`), it starts
 * the bots' decision, so that it is ready, most often, before the people's last orders arrive;
 * playing the turn takes it (`plan`). A decision taken before it is made goes to the head of the
 * queue, and from then on has a time budget: a decision not back by then, one whose thread died,
 * or one the pool has no room for, is replaced by the driver's decision at the `random` level (its
 * hand in a random order, made in microseconds), and the pool says so in its log. (The budget runs
 * from `plan`, not from the deal: a pool behind by more than the budget still decides every turn
 * whose people take longer than that to answer.) A thread that has not answered long after its
 * budget is ended and replaced.
 *
 * The threads yield the cores to the server's event loop: each raises its own nice value (10 by
 * default, on Linux), so that requests and the stream are served first and the bots take what is
 * left (a decision has the people's seconds of thought to be made in; a request has milliseconds).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Board, GameState, Seed, Settings, Setup } from '../../engine/src/index.js';
import { decideBots, type BotSeat, type BotTurn } from '../../driver/src/index.js';

/** What a thread is sent: the setup's parts, the turn as dealt, the bots and the race's seed. */
export interface BotJob {
  readonly id: number;
  /** The race, under which the thread keeps the setup it made. */
  readonly race: string;
  readonly setup: { readonly board: Board; readonly rules: string; readonly settings: Settings; readonly boards: number };
  readonly state: GameState;
  readonly bots: readonly BotSeat[];
  readonly seed: Seed;
  /** The decision's budget in ms, for the levels that search as long as they may (expert). */
  readonly budgetMs: number;
}

export type BotAnswer = { readonly id: number; readonly ok: true; readonly turns: Record<number, BotTurn> } | { readonly id: number; readonly ok: false; readonly error: string };

export interface BotPoolOptions {
  /** Threads (by default one less than the cores, at least one; `BOT_WORKERS` in main.ts). */
  readonly size?: number;
  /** How long the turn may wait for a decision from the moment it is taken by `plan` (10 s by default). */
  readonly budgetMs?: number;
  /** After how long past its budget a thread that has not answered is replaced (30 s by default). */
  readonly hungMs?: number;
  /** The threads' nice value, 0-19 (10 by default; 0 leaves them at the server's priority; `BOT_NICE`). */
  readonly nice?: number;
  /** Decisions waiting for a thread at most; one more is decided at the fallback at once (10,000 by default). */
  readonly queue?: number;
  readonly log?: (line: string) => void;
}

interface Pending {
  readonly job: BotJob;
  readonly setup: Setup;
  readonly result: Promise<Record<number, BotTurn>>;
  settle(turns: Record<number, BotTurn> | null, why?: string): void;
  timer: NodeJS.Timeout | undefined;
  settled: boolean;
}

interface Thread {
  worker: Worker;
  busy: Pending | null;
  since: number;
}

/** The key of a turn's decision: the race, the turn, and which bots decide at which level. */
const keyOf = (race: string, state: GameState, bots: readonly BotSeat[]) => `${race}:${state.turn}:${bots.map((b) => `${b.seat}${b.level}`).join(',')}`;

export class BotPool {
  private readonly threads: Thread[] = [];
  private readonly waiting: Pending[] = [];
  private readonly byKey = new Map<string, Pending>();
  private readonly budgetMs: number;
  private readonly hungMs: number;
  private readonly queue: number;
  private readonly nice: number;
  private readonly log: (line: string) => void;
  private nextId = 1;
  private closed = false;
  private watchdog: NodeJS.Timeout;
  /** Decisions made by the threads in time, and replaced by the fallback (by reason). */
  readonly counts = { decided: 0, late: 0, failed: 0, full: 0 };

  constructor(o: BotPoolOptions = {}) {
    this.budgetMs = o.budgetMs ?? 10_000;
    this.hungMs = o.hungMs ?? 30_000;
    this.queue = o.queue ?? 10_000;
    this.nice = o.nice ?? 10;
    this.log = o.log ?? ((line) => console.error(line));
    const size = o.size ?? Math.max(1, availableParallelism() - 1);
    for (let i = 0; i < size; i++) this.threads.push(this.spawn());
    this.watchdog = setInterval(() => this.checkHung(), Math.min(this.hungMs, 1000));
    this.watchdog.unref();
  }

  /** Threads in the pool. */
  get size(): number {
    return this.threads.length;
  }

  private spawn(): Thread {
    const t: Thread = { worker: new Worker(new URL('./bot-worker.js', import.meta.url), { workerData: { nice: this.nice } }), busy: null, since: 0 };
    t.worker.unref();
    t.worker.on('message', (a: BotAnswer) => {
      const p = t.busy;
      t.busy = null;
      if (p && p.job.id === a.id) {
        if (a.ok) p.settle(a.turns);
        else p.settle(null, `failed: ${a.error}`);
      }
      this.pump();
    });
    t.worker.on('error', (e) => this.replace(t, `its thread failed: ${e.message}`));
    t.worker.on('exit', (code) => this.replace(t, `its thread exited (${code})`));
    return t;
  }

  /** A thread that died or hung: what it was deciding gets the fallback, and a new thread takes its place. */
  private replace(t: Thread, why: string): void {
    const i = this.threads.indexOf(t);
    if (i < 0) return;
    const p = t.busy;
    t.busy = null;
    if (this.closed) return;
    this.threads[i] = this.spawn();
    void t.worker.terminate();
    p?.settle(null, why);
    this.pump();
  }

  private checkHung(): void {
    const now = Date.now();
    for (const t of this.threads) if (t.busy && now - t.since > this.budgetMs + this.hungMs) this.replace(t, 'its thread hung');
  }

  /** Hands waiting decisions to idle threads; a decision already past its budget is not sent. */
  private pump(): void {
    for (const t of this.threads) {
      if (t.busy) continue;
      let p: Pending | undefined;
      while ((p = this.waiting.shift()) && p.settled);
      if (!p) return;
      t.busy = p;
      t.since = Date.now();
      t.worker.postMessage(p.job);
    }
  }

  /**
   * Asks for the bots' orders for a turn as dealt (once per race, turn and bots: asking again
   * changes nothing). Returns at once; the decision is made on a thread.
   */
  dealt(race: string, _turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): void {
    if (!bots.length || this.closed) return;
    const key = keyOf(race, dealt, bots);
    if (this.byKey.has(key)) return;
    const job: BotJob = { id: this.nextId++, race, setup: { board: setup.board, rules: setup.rules.name, settings: setup.settings, boards: setup.boards }, state: dealt, bots, seed, budgetMs: this.budgetMs };
    let resolve!: (t: Record<number, BotTurn>) => void;
    const result = new Promise<Record<number, BotTurn>>((r) => (resolve = r));
    const p: Pending = {
      job, setup, result, settled: false, timer: undefined,
      settle: (turns, why) => {
        if (p.settled) return;
        p.settled = true;
        clearTimeout(p.timer);
        if (turns) {
          this.counts.decided++;
          resolve(turns);
          return;
        }
        if (why?.startsWith('late')) this.counts.late++;
        else if (why === 'the queue is full') this.counts.full++;
        else this.counts.failed++;
        if (!this.closed) this.log(`bots of race ${race}, turn ${dealt.turn}: ${why}; they play the random fallback`);
        resolve(this.fallback(setup, dealt, bots, seed));
      },
    };
    this.byKey.set(key, p);
    // Decisions nobody takes (a race deleted meanwhile) do not pile up, and are not made.
    if (this.byKey.size > this.queue * 2) {
      const oldest = this.byKey.keys().next().value!;
      this.byKey.get(oldest)!.settled = true;
      this.byKey.delete(oldest);
    }
    if (this.waiting.length >= this.queue) return p.settle(null, 'the queue is full');
    this.waiting.push(p);
    this.pump();
  }

  /**
   * The bots' orders for the turn as dealt: the decision started for it, else one started now; a
   * decision still waiting for a thread goes first, and the turn waits for it at most the budget.
   */
  plan(race: string, turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): Promise<Record<number, BotTurn>> {
    if (!bots.length) return Promise.resolve({});
    if (this.closed) return Promise.resolve(this.fallback(setup, dealt, bots, seed));
    const key = keyOf(race, dealt, bots);
    if (!this.byKey.has(key)) this.dealt(race, turn, setup, dealt, bots, seed);
    const p = this.byKey.get(key)!;
    this.byKey.delete(key);
    if (!p.settled) {
      p.timer = setTimeout(() => p.settle(null, `late (budget ${this.budgetMs} ms)`), this.budgetMs);
      p.timer.unref();
      const i = this.waiting.indexOf(p);
      if (i > 0) {
        this.waiting.splice(i, 1);
        this.waiting.unshift(p);
      }
    }
    return p.result;
  }

  /** The driver's decision at the random level: the bots' hands in a random order (from their seeds). */
  private fallback(setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): Record<number, BotTurn> {
    return decideBots(setup, dealt, bots.map((b) => ({ seat: b.seat, level: 'random' as const })), seed);
  }

  /** Ends the threads; decisions still out get the fallback. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    for (const p of this.byKey.values()) p.settle(null, 'the pool closed');
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
