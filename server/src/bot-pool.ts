/**
 * The bots decide in a pool of worker threads (`bot-worker.ts`), never on the server's event loop.
 *
 * It is the race service's `BotPlanner` (planner.ts): told when a turn is dealt (`dealt`), it starts
 * the bots' decision, so that it is ready, most often, before the people's last orders arrive;
 * playing the turn takes it if it is made (`decided`, which never waits), else the turn is played
 * when it is (`ready`). A decision taken before it is made goes to the head of the queue, and from
 * then on has a time budget: a decision not back by then, one whose thread died,
 * or one the pool has no room for, is replaced by the driver's decision at the `random` level (its
 * hand in a random order, made in microseconds), and the pool says so in its log. (The budget runs
 * from when it is taken, not from the deal: a pool behind by more than the budget still decides every turn
 * whose people take longer than that to answer.) A thread that has not answered long after its
 * budget is ended and replaced.
 *
 * The threads yield the cores to the server's event loop: each raises its own nice value (10 by
 * default, on Linux), so that requests and the stream are served first and the bots take what is
 * left (a decision has the people's seconds of thought to be made in; a request has milliseconds).
 * But a decision a turn waits for has no more time: on a machine whose cores are busy (a second
 * process, the database's backends) the threads at nice 10 get next to nothing, and every turn
 * would wait for its budget and play the fallback. So the pool keeps one more thread (`urgent`) at
 * the server's own priority, which decides only what a turn waits for: a taken decision still
 * waiting for a thread goes to it first, and one already being made by a thread at nice 10 is made
 * again there too (the first answer counts). It is idle while the bots keep up, so it takes the
 * event loop's core only when a turn would wait otherwise.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Board, Course, Dir, GameState, Result, Seed, Settings, Setup } from '../../engine/src/index.js';
import { botFacings, decideBots, type BotSeat, type BotTurn, type SeatPlan, type Starts } from '../../driver/src/index.js';

/** What a thread is sent: the setup's parts, the turn as dealt, the bots and the race's seed. */
export interface BotJob {
  readonly id: number;
  readonly race: string;
  /**
   * The setup's parts; `boardId` names the board (one per board object of this process), so that a
   * thread makes one setup for every race on it (`bot-setups.ts`), not one per race.
   */
  readonly setup: { readonly board: Board; readonly boardId: number; readonly rules: string; readonly settings: Settings; readonly boards: number };
  readonly state: GameState;
  readonly bots: readonly BotSeat[];
  readonly seed: Seed;
  /** The time a bot that searches as long as it may (expert) has for one decision, in ms. */
  readonly decisionMs: number;
}

export type BotAnswer = { readonly id: number; readonly ok: true; readonly turns: Record<number, BotTurn> } | { readonly id: number; readonly ok: false; readonly error: string };

/** What a thread is sent to choose a new race's bots' starting facings (the driver's `botFacings`). */
export interface FacingsJob {
  readonly kind: 'facings';
  readonly id: number;
  readonly setup: BotJob['setup'];
  readonly course: Starts;
  readonly seats: readonly SeatPlan[];
  readonly seed: Seed;
}

export type FacingsAnswer = { readonly kind: 'facings'; readonly id: number } & ({ readonly ok: true; readonly facings: Record<number, Dir> } | { readonly ok: false; readonly error: string });

/** What a thread is sent to read a course of a race's own (the boards' `courseFromJson`: its checks, the flags' paths above all). */
export interface CourseJob {
  readonly kind: 'course';
  readonly id: number;
  readonly json: unknown;
}

export type CourseAnswer = { readonly kind: 'course'; readonly id: number } & ({ readonly ok: true; readonly course: Result<Course> } | { readonly ok: false; readonly error: string });

export interface BotPoolOptions {
  /** Threads (by default one less than the cores, at least one; `BOT_WORKERS` in main.ts). */
  readonly size?: number;
  /** How long the turn may wait for a decision from the moment it is taken (the turn is to be played) (10 s by default). */
  readonly budgetMs?: number;
  /**
   * The time a bot that searches as long as it may (expert) has for one decision (`DECISION_MS` by
   * default; `BOT_DECISION_MS`), at most half of `budgetMs`, so that the answer is back in time.
   */
  readonly decisionMs?: number;
  /** After how long past its budget a thread that has not answered is replaced (30 s by default). */
  readonly hungMs?: number;
  /** The threads' nice value, 0-19 (10 by default; 0 leaves them at the server's priority; `BOT_NICE`). */
  readonly nice?: number;
  /**
   * Threads more, at the server's priority, that decide only what a turn waits for (1 by default;
   * 0 for none).
   */
  readonly urgent?: number;
  /** Decisions waiting for a thread at most; one more is decided at the fallback at once (10,000 by default). */
  readonly queue?: number;
  /**
   * Courses of races' own being read on the threads at most (`course`), those given up late
   * included until their thread is done with them (2 by default); one more waits for a place
   * (`courseQueue`, `courseWaitMs`).
   */
  readonly courses?: number;
  /** Courses waiting for a reading place at most (4 by default); one more is refused at once. */
  readonly courseQueue?: number;
  /** How long a course waits for a reading place at most before it is refused (5 s by default). */
  readonly courseWaitMs?: number;
  readonly log?: (line: string) => void;
}

interface Pending {
  readonly job: BotJob;
  /** The threads deciding it now. */
  readonly on: Set<Thread>;
  readonly result: Promise<void>;
  settle(turns: Record<number, BotTurn> | null, why?: string): void;
  /** Forgets it unmade (a race not seen for long): nothing is kept, nothing is logged. */
  drop(): void;
  timer: NodeJS.Timeout | undefined;
  settled: boolean;
}

interface Thread {
  /** At the server's priority, for decisions a turn waits for only. */
  readonly urgent: boolean;
  worker: Worker;
  busy: Pending | null;
  since: number;
}

/**
 * The expert's time for one decision by default: its decision p99 within issue 17's 100 ms on any
 * machine (it begins no piece of work past its budget; docs/bots.md, "The budget").
 */
export const DECISION_MS = 90;

/** The key of a turn's decision: the race, the turn, and which bots decide at which level. */
const keyOf = (race: string, state: GameState, bots: readonly BotSeat[]) => `${race}:${state.turn}:${bots.map((b) => `${b.seat}${b.level}`).join(',')}`;

export class BotPool {
  private readonly threads: Thread[] = [];
  private readonly waiting: Pending[] = [];
  /** Decisions a turn waits for (taken), not settled yet, in the order taken. */
  private readonly needed = new Set<Pending>();
  /** Decisions being made, by key. */
  private readonly byKey = new Map<string, Pending>();
  /** Decisions made (or given up for the fallback), by key. */
  private readonly decisions = new Map<string, Record<number, BotTurn>>();
  /** Each race's latest decision's key, the races seen least recently first. */
  private readonly latest = new Map<string, string>();
  /** The boards sent to the threads, by object: the shipped courses' are shared by every race on them. */
  private readonly boardIds = new WeakMap<Board, number>();
  private nextBoardId = 1;
  /** Work a request waits for (`facings`, `course`), by job id, with the thread doing it. */
  private readonly choosing = new Map<number, { readonly thread: Thread; settle(answer: unknown, why?: string): void }>();
  /** Courses sent to a thread (`course`) and not answered yet, given up late or not, by job id: their thread. */
  private readonly reading = new Map<number, { readonly thread: Thread; readonly since: number }>();
  private readonly courses: number;
  /** Courses waiting for a reading place, first come first read (`course`): each starts its read, or is refused at its deadline. */
  private readonly courseLine: { readonly start: () => void; readonly refuse: () => void }[] = [];
  private readonly courseQueue: number;
  private readonly courseWaitMs: number;
  /** How long a taken decision may take at most before the fallback (BotPlanner's budgetMs). */
  readonly budgetMs: number;
  /** The expert's time for one decision (`BotPoolOptions.decisionMs`). */
  readonly decisionMs: number;
  private readonly hungMs: number;
  private readonly queue: number;
  private readonly nice: number;
  private readonly log: (line: string) => void;
  private nextId = 1;
  private closed = false;
  private watchdog: NodeJS.Timeout;
  /**
   * Decisions made by the threads in time, and replaced by the fallback (by reason); `urgent`:
   * decisions a turn waited for that were sent to an urgent thread.
   */
  readonly counts = { decided: 0, late: 0, failed: 0, full: 0, urgent: 0 };

  constructor(o: BotPoolOptions = {}) {
    this.budgetMs = o.budgetMs ?? 10_000;
    this.decisionMs = Math.min(o.decisionMs ?? DECISION_MS, this.budgetMs / 2);
    this.hungMs = o.hungMs ?? 30_000;
    this.queue = o.queue ?? 10_000;
    this.courses = o.courses ?? 2;
    this.courseQueue = o.courseQueue ?? 4;
    this.courseWaitMs = o.courseWaitMs ?? 5_000;
    this.nice = o.nice ?? 10;
    this.log = o.log ?? ((line) => console.error(line));
    const size = o.size ?? Math.max(1, availableParallelism() - 1);
    for (let i = 0; i < size; i++) this.threads.push(this.spawn(false));
    for (let i = 0; i < (o.urgent ?? 1); i++) this.threads.push(this.spawn(true));
    this.watchdog = setInterval(() => this.checkHung(), Math.min(this.hungMs, 1000));
    this.watchdog.unref();
  }

  /** Threads in the pool, the urgent ones included. */
  get size(): number {
    return this.threads.length;
  }

  private spawn(urgent: boolean): Thread {
    const t: Thread = { urgent, worker: new Worker(new URL('./bot-worker.js', import.meta.url), { workerData: { nice: urgent ? 0 : this.nice } }), busy: null, since: 0 };
    t.worker.unref();
    t.worker.on('message', (a: BotAnswer | FacingsAnswer | CourseAnswer) => {
      if ('kind' in a && a.kind === 'course') {
        this.reading.delete(a.id);
        this.nextCourse();
      }
      if ('kind' in a) return this.choosing.get(a.id)?.settle(a.ok ? (a.kind === 'facings' ? a.facings : a.course) : null, a.ok ? undefined : `failed: ${a.error}`);
      const p = t.busy;
      t.busy = null;
      p?.on.delete(t);
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
    p?.on.delete(t);
    for (const c of [...this.choosing.values()]) if (c.thread === t) c.settle(null, why);
    for (const [id, on] of [...this.reading]) if (on.thread === t) this.reading.delete(id);
    if (this.closed) return;
    this.nextCourse();
    this.threads[i] = this.spawn(t.urgent);
    void t.worker.terminate();
    // A decision another thread is making too is not lost with this one.
    if (!p?.on.size) p?.settle(null, why);
    this.pump();
  }

  private checkHung(): void {
    const now = Date.now();
    for (const t of this.threads) if (t.busy && now - t.since > this.budgetMs + this.hungMs) this.replace(t, 'its thread hung');
    // A course read that never ends would hold its reading place for good (and its thread).
    for (const { thread, since } of this.reading.values()) {
      if (now - since <= this.budgetMs + this.hungMs || !this.threads.includes(thread)) continue;
      this.log(`a race's own course: its thread hung reading it (over ${this.budgetMs + this.hungMs} ms); the thread is replaced`);
      this.replace(thread, 'its thread hung reading a course');
    }
  }

  /**
   * Hands waiting decisions to idle threads (a decision already settled is not sent): to an urgent
   * thread only one a turn waits for (taken), first one still waiting, else one a thread at nice
   * 10 is making.
   */
  private pump(): void {
    while (this.waiting.length && this.waiting[0]!.settled) this.waiting.shift();
    for (const t of this.threads) {
      if (t.busy) continue;
      let p: Pending | undefined;
      if (!t.urgent) p = this.waiting.shift();
      else {
        const needed = [...this.needed];
        p = needed.find((w) => !w.on.size) ?? needed.find((w) => ![...w.on].some((x) => x.urgent));
        const i = p && !p.on.size ? this.waiting.indexOf(p) : -1;
        if (i >= 0) this.waiting.splice(i, 1);
        if (p) this.counts.urgent++;
      }
      if (!p) continue;
      t.busy = p;
      p.on.add(t);
      t.since = Date.now();
      t.worker.postMessage(p.job);
      while (this.waiting.length && this.waiting[0]!.settled) this.waiting.shift();
    }
  }

  /**
   * Starts the bots' decision for a turn as dealt (once per race, turn and bots: asking again
   * changes nothing). Returns at once; the decision is made on a thread. A race keeps one decision,
   * its latest turn's.
   */
  dealt(race: string, _turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): void {
    if (!bots.length || this.closed) return;
    const key = keyOf(race, dealt, bots);
    if (this.byKey.has(key) || this.decisions.has(key)) return;
    const before = this.latest.get(race);
    if (before !== undefined) this.decisions.delete(before);
    this.latest.delete(race);
    this.latest.set(race, key);
    // Decisions nobody takes (a race over or deleted meanwhile) do not pile up, and those not made
    // yet are not made: the races seen least recently go first.
    if (this.latest.size > this.queue * 2) {
      const [oldRace, oldKey] = this.latest.entries().next().value!;
      this.latest.delete(oldRace);
      this.decisions.delete(oldKey);
      this.byKey.get(oldKey)?.drop();
    }
    const job: BotJob = { id: this.nextId++, race, setup: this.shipped(setup), state: dealt, bots, seed, decisionMs: this.decisionMs };
    let resolve!: () => void;
    const result = new Promise<void>((r) => (resolve = r));
    const p: Pending = {
      job, result, settled: false, timer: undefined, on: new Set(),
      settle: (turns, why) => {
        if (p.settled) return;
        p.settled = true;
        clearTimeout(p.timer);
        this.needed.delete(p);
        if (turns) this.counts.decided++;
        else {
          if (why?.startsWith('late')) this.counts.late++;
          else if (why === 'the queue is full') this.counts.full++;
          else this.counts.failed++;
          if (!this.closed) this.log(`bots of race ${race}, turn ${dealt.turn}: ${why}; they play the random fallback`);
        }
        // Kept only while it is the race's latest: a decision for a turn taken back meanwhile is dropped.
        if (this.latest.get(race) === key) this.decisions.set(key, turns ?? this.fallback(setup, dealt, bots, seed));
        this.byKey.delete(key);
        resolve();
      },
      drop: () => {
        if (p.settled) return;
        p.settled = true;
        clearTimeout(p.timer);
        this.needed.delete(p);
        this.byKey.delete(key);
        resolve();
      },
    };
    this.byKey.set(key, p);
    if (this.waiting.length >= this.queue) return p.settle(null, 'the queue is full');
    this.waiting.push(p);
    this.pump();
  }

  /** A setup as a thread is sent it: its parts, its board named (one id per board object). */
  private shipped(setup: Setup): BotJob['setup'] {
    let boardId = this.boardIds.get(setup.board);
    if (boardId === undefined) this.boardIds.set(setup.board, (boardId = this.nextBoardId++));
    return { board: setup.board, boardId, rules: setup.rules.name, settings: setup.settings, boards: setup.boards };
  }

  /**
   * The starting facings a new race's bots choose (the driver's `botFacings`; BotPlanner's
   * `facings`), chosen on a thread at the server's priority (an urgent one: a request waits for
   * them), so that the strong bots' course maps are built there, never on the event loop; the
   * thread keeps them for the race's decisions. Facings not back within the budget, or whose thread
   * died, are the random level's (made in microseconds), and the pool says so in its log.
   */
  facings(setup: Setup, course: Starts, seats: readonly SeatPlan[], seed: Seed): Promise<Record<number, Dir>> {
    const fallback = () => botFacings(setup, course, seats.map((x) => (x.level ? { ...x, level: 'random' as const } : x)), seed);
    if (!seats.some((x) => x.level && x.dir === undefined)) return Promise.resolve({});
    const job = (id: number): FacingsJob => ({ kind: 'facings', id, setup: this.shipped(setup), course: { start: course.start, starts: course.starts }, seats, seed });
    return this.urgently(job, fallback, (why) => `starting facings of a new race's bots: ${why}; they take the random level's`);
  }

  /**
   * A course of a race's own read (the boards' `courseFromJson`, its refusals as they are) on a
   * thread at the server's priority, as `facings`: its checks (each flag reachable from the one
   * before, engine/src/paths.ts) take up to a second on cube-works and several on the largest
   * courses the bounds allow, never on the event loop. While the pool reads its most courses
   * (`BotPoolOptions.courses`) it waits for a place, in line, at most `courseWaitMs`: a creation
   * sent while two others are read is read once one of them is done (before 2026-12-01 it was
   * refused at once). Null (the request is to be refused: the server is busy) when the line is
   * full (`courseQueue`: so much work waits at most, whatever is sent), when no place came within
   * its wait, when the course is not back within the budget, or when its thread died; it is never
   * read in place.
   */
  course(json: unknown): Promise<Result<Course> | null> {
    const read = () => this.urgently((id): CourseJob => ({ kind: 'course', id, json }), () => null, (why) => `a race's own course: ${why}; the creation is refused`);
    if (this.reading.size < this.courses && !this.courseLine.length) return read();
    if (this.closed || this.courseLine.length >= this.courseQueue) return Promise.resolve(null);
    return new Promise((resolve) => {
      const leave = () => {
        clearTimeout(timer);
        this.courseLine.splice(this.courseLine.indexOf(waiting), 1);
      };
      const waiting = { start: () => (leave(), resolve(read())), refuse: () => (leave(), resolve(null)) };
      const timer = setTimeout(waiting.refuse, this.courseWaitMs);
      timer.unref();
      this.courseLine.push(waiting);
    });
  }

  /** The courses waiting (`course`) start their reads while the pool has places. */
  private nextCourse(): void {
    while (this.reading.size < this.courses && this.courseLine.length) this.courseLine[0]!.start();
  }

  /** The urgent thread with the fewest jobs a request waits for (any thread if the pool has none). */
  private leastLoaded(): Thread {
    const load = (t: Thread) => [...this.choosing.values()].filter((c) => c.thread === t).length + [...this.reading.values()].filter((x) => x.thread === t).length;
    const urgent = this.threads.filter((t) => t.urgent);
    return (urgent.length ? urgent : this.threads).reduce((a, b) => (load(b) < load(a) ? b : a));
  }

  /**
   * Sends the job a request waits for to the least loaded urgent thread (any thread if the pool
   * has none); its answer, or `fallback`'s if the answer is not back within the budget or its
   * thread died, and then `said` is logged.
   */
  private urgently<T>(job: (id: number) => FacingsJob | CourseJob, fallback: () => T, said: (why: string | undefined) => string): Promise<T> {
    if (this.closed) return Promise.resolve(fallback());
    const thread = this.leastLoaded();
    const sent = job(this.nextId++);
    if (sent.kind === 'course') this.reading.set(sent.id, { thread, since: Date.now() });
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(null, `late (budget ${this.budgetMs} ms)`), this.budgetMs);
      timer.unref();
      const settle = (answer: unknown, why?: string) => {
        if (!this.choosing.delete(sent.id)) return;
        clearTimeout(timer);
        if (answer === null && !this.closed) this.log(said(why));
        resolve(answer === null ? fallback() : (answer as T));
      };
      this.choosing.set(sent.id, { thread, settle });
      thread.worker.postMessage(sent);
    });
  }

  /**
   * The turn is to be played: its decision, if still out, goes first, and from now on has the
   * budget (the turn waits for it at most that long).
   */
  private taken(p: Pending): void {
    if (p.settled || p.timer !== undefined) return;
    p.timer = setTimeout(() => p.settle(null, `late (budget ${this.budgetMs} ms)`), this.budgetMs);
    p.timer.unref();
    this.needed.add(p);
    const i = this.waiting.indexOf(p);
    if (i > 0) {
      this.waiting.splice(i, 1);
      this.waiting.unshift(p);
    }
    this.pump();
  }

  /**
   * The bots' orders for the turn as dealt if they are decided (or given up for the fallback), else
   * null: the decision is started if it was not, and taken (it goes first, its budget runs). Never
   * waits: `ready` says when.
   */
  decided(race: string, turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): Record<number, BotTurn> | null {
    if (!bots.length) return {};
    if (this.closed) return this.fallback(setup, dealt, bots, seed);
    const key = keyOf(race, dealt, bots);
    if (!this.decisions.has(key) && !this.byKey.has(key)) this.dealt(race, turn, setup, dealt, bots, seed);
    const pending = this.byKey.get(key);
    if (pending) this.taken(pending);
    return this.decisions.get(key) ?? null;
  }

  /** Whether this pool makes, or has made, the bots' decision for turn `turn` of race `race` (BotPlanner's `has`). */
  has(race: string, turn: number): boolean {
    const key = this.latest.get(race);
    return key !== undefined && key.startsWith(`${race}:${turn}:`) && (this.byKey.has(key) || this.decisions.has(key));
  }

  /** The decision this pool has for the turn (`has`), taken: resolves once it is made; null when it has none (BotPlanner's `whenDecided`). */
  whenDecided(race: string, turn: number): Promise<void> | null {
    if (!this.has(race, turn)) return null;
    const pending = this.byKey.get(this.latest.get(race)!);
    if (!pending) return Promise.resolve();
    this.taken(pending);
    return pending.result;
  }

  /** The decision this pool has for the turn (`has`), not taken: resolves once it is made; null when it has none (BotPlanner's `whenMade`). */
  whenMade(race: string, turn: number): Promise<void> | null {
    if (!this.has(race, turn)) return null;
    return this.byKey.get(this.latest.get(race)!)?.result ?? Promise.resolve();
  }

  /** Resolves once `decided` has the turn's decision (at the latest at its budget); starts and takes it if need be. */
  ready(race: string, turn: number, setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): Promise<void> {
    if (!bots.length || this.closed) return Promise.resolve();
    const key = keyOf(race, dealt, bots);
    if (this.decisions.has(key)) return Promise.resolve();
    if (!this.byKey.has(key)) this.dealt(race, turn, setup, dealt, bots, seed);
    const pending = this.byKey.get(key);
    if (!pending) return Promise.resolve();
    this.taken(pending);
    return pending.result;
  }

  /** The driver's decision at the random level: the bots' hands in a random order (from their seeds). */
  private fallback(setup: Setup, dealt: GameState, bots: readonly BotSeat[], seed: Seed): Record<number, BotTurn> {
    return decideBots(setup, dealt, bots.map((b) => ({ seat: b.seat, level: 'random' as const })), seed);
  }

  /** Ends the threads; decisions still out get the fallback. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    for (const p of [...this.byKey.values()]) p.settle(null, 'the pool closed');
    for (const c of [...this.choosing.values()]) c.settle(null, 'the pool closed');
    for (const w of [...this.courseLine]) w.refuse();
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
