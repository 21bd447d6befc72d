/**
 * The search over a robot's programs: every ordering of its hand into its open registers, the
 * locked registers keeping their cards. Cards of one type do the same thing whenever only one
 * robot's program is unknown (the others stand still or run their face-up locked cards), so the
 * search runs over the orderings of the hand's multiset of types (for nine different classic
 * cards, 15,120 orderings of cards are at most 7^5 sequences of types, usually a few thousand).
 * Programs sharing a prefix share its simulation: the search goes register by register, saving
 * the state once at each branch point and restoring it before each further branch.
 */
import { CARD_TYPES, cardType, type Card } from '../../engine/src/index.js';
import { TYPE_INDEX } from './distance.js';
import { cloneState, type GameState } from '../../engine/src/index.js';
import type { Sim, Snapshot } from './sim.js';

const T = CARD_TYPES.length;

/** How the search stopped at a leaf: after register 5, or earlier with the robot off the floor. */
export type LeafKind = 'end' | 'destroyed';

/**
 * Scores the simulated state at a leaf, higher being better. `reg` is the register just played;
 * `finishedAt` the register in which the robot touched its last flag (0: not this turn; a robot
 * that finished plays on, and should not then drive off the board).
 */
export type Evaluate = (sim: Sim, kind: LeafKind, reg: number, finishedAt: number) => number;

/** A program found by the search, with its score. */
export interface Candidate {
  /** Card types per register 1..5 (-1: locked, or not played because the robot was destroyed). */
  readonly types: Int8Array;
  readonly score: number;
}

export interface SearchResult {
  /** The best program: a card for each open register, register 1 first. */
  readonly program: Card[];
  /** Its card types per register 1..5 (-1 for locked registers). */
  readonly types: Int8Array;
  readonly score: number;
  /** The best programs found, best first (as many as asked for, or fewer). */
  readonly top: Candidate[];
  /** Register phases simulated, leaves scored, and branches cut by the bound. */
  readonly nodes: number;
  readonly leaves: number;
  readonly pruned: number;
}

export interface SearchOptions {
  /** The card types in the order to try them: ties keep the first found, so it decides among equals. */
  readonly order?: readonly number[];
  /** How many of the best programs to keep in `top` (default 1). */
  readonly keep?: number;
  /**
   * An upper bound of the score of every leaf below the sim's state after register `reg` (1 to 4,
   * the robot on the floor): once `top` is full, a branch whose bound is no better than its last
   * is not searched further (the programs kept are the same as without it).
   */
  readonly bound?: (sim: Sim, reg: number) => number;
  /**
   * Share the subtrees of states met twice (a transposition: Move 1 then Move 2 or the reverse,
   * both blocked by the same wall…): after registers 2 to 4, a state equal in everything a register
   * can change (`Positions`) to one searched before, with the same types left, gives the leaves
   * its subtree gave, not simulated again. The programs kept are the same as without it; `leaves`
   * then counts the leaves scored, not those taken over.
   */
  readonly transpositions?: boolean;
}

/** The cards of a hand by type, best (highest priority) first. */
export function byType(hand: readonly Card[]): Card[][] {
  const out: Card[][] = CARD_TYPES.map(() => []);
  for (const c of hand) out[TYPE_INDEX[cardType(c)]]!.push(c);
  for (const list of out) list.sort((a, b) => b - a);
  return out;
}

const DEFAULT_ORDER = [0, 1, 2, 3, 4, 5, 6];

/** The best programs for robot `me` of `sim` with this hand; the sim is left as it was found. */
export function searchPrograms(sim: Sim, me: number, hand: readonly Card[], evaluate: Evaluate, o: SearchOptions = {}): SearchResult {
  const order = o.order ?? DEFAULT_ORDER;
  const keep = Math.max(1, o.keep ?? 1);
  const robot = sim.robots[me]!;
  const locked = robot.locked;
  const lockedCards = robot.registers.slice();
  const cards = byType(hand);
  const count = new Int8Array(T);
  const rep: Card[] = [];
  for (let t = 0; t < T; t++) {
    count[t] = cards[t]!.length;
    rep[t] = cards[t]![0] ?? 0;
  }
  const nFlags = sim.board.flags.length;
  const snaps: Snapshot[] = [];
  for (let k = 0; k <= 5; k++) snaps.push(sim.newSnapshot());
  const root = sim.newSnapshot();
  sim.save(root);
  const seq = new Int8Array(5).fill(-1);
  const top: Candidate[] = [];
  let nodes = 0, leaves = 0, pruned = 0;
  const bound = o.bound;
  const home = () => nFlags > 0 && robot.flags >= nFlags;
  const startedHome = home();
  let finishedAt = 0;

  const positions = o.transpositions ? new Positions(sim, me) : null;
  /** Every leaf met, in the order met (with `transpositions`): its score and its types, five a leaf. */
  const logScores: number[] = [];
  const logTypes: number[] = [];
  const offer = (s: number): void => {
    if (top.length === keep && s <= top[keep - 1]!.score) return;
    let j = top.length < keep ? top.length : keep - 1;
    while (j > 0 && top[j - 1]!.score < s) j--;
    top.splice(j, 0, { types: seq.slice(), score: s });
    if (top.length > keep) top.pop();
  };
  const leaf = (kind: LeafKind, reg: number): void => {
    leaves++;
    const s = evaluate(sim, kind, reg, finishedAt);
    if (positions) {
      logScores.push(s);
      for (let k = 0; k < 5; k++) logTypes.push(seq[k]!);
    }
    offer(s);
  };
  /**
   * The subtree below the sim's state after register reg: searched, or, for a state met before with
   * the same types left, its leaves taken over in the order they were met, the registers after reg
   * as they were (a leaf left out there, by the bound, scored no better than the last kept then, so
   * it would not be kept now). Either way the leaves go to the log, for a later taker.
   */
  const below = (reg: number): void => {
    if (!positions || reg < 2 || reg > 4) {
      dfs(reg + 1);
      return;
    }
    const found = positions.find(reg, finishedAt, count);
    if (found === -2) {
      dfs(reg + 1);
      return;
    }
    if (found >= 0) {
      const from = positions.first[found]!, to = positions.last[found]!;
      for (let n = from; n < to; n++) {
        for (let k = reg; k < 5; k++) seq[k] = logTypes[5 * n + k]!;
        const s = logScores[n]!;
        logScores.push(s);
        for (let k = 0; k < 5; k++) logTypes.push(seq[k]!);
        offer(s);
      }
      for (let k = reg; k < 5; k++) seq[k] = -1;
      return;
    }
    const entry = positions.add();
    positions.first[entry] = logScores.length;
    dfs(reg + 1);
    positions.last[entry] = logScores.length;
  };
  /** Plays register reg and goes on from there, unless the robot is destroyed. */
  const step = (reg: number): void => {
    const before = finishedAt;
    sim.register(reg);
    nodes++;
    if (!finishedAt && !startedHome && home()) finishedAt = reg;
    if (robot.status !== 'active') leaf('destroyed', reg);
    else if (bound && reg < 5 && top.length === keep && bound(sim, reg) <= top[keep - 1]!.score) pruned++;
    else below(reg);
    finishedAt = before;
  };
  const dfs = (reg: number): void => {
    if (reg > 5) {
      leaf('end', 5);
      return;
    }
    if (locked & (1 << (reg - 1))) {
      seq[reg - 1] = -1;
      sim.setCard(me, reg, lockedCards[reg - 1]!);
      step(reg);
      return;
    }
    const snap = snaps[reg]!;
    let first = true;
    for (const t of order) {
      if (count[t]! <= 0) continue;
      if (first) {
        sim.save(snap);
        first = false;
      } else sim.restore(snap);
      count[t]!--;
      seq[reg - 1] = t;
      sim.setCard(me, reg, rep[t]!);
      step(reg);
      count[t]!++;
      seq[reg - 1] = -1;
    }
    if (first) {
      // No card left for an open register (a short hand): it stays empty.
      sim.setCard(me, reg, 0);
      step(reg);
    }
  };
  dfs(1);
  sim.restore(root);
  const best = top[0] ?? { types: new Int8Array(5).fill(-1), score: -Infinity };
  return { program: programOf(best.types, locked, cards, order), types: best.types, score: best.score, top, nodes, leaves, pruned };
}

/**
 * Plays a whole program for robot `me` (cards for its open registers; its locked registers keep
 * theirs) from the sim's present state, and scores it as the search would. The sim is left at the
 * program's end: restore it to try another.
 */
export function playProgram(sim: Sim, me: number, program: readonly Card[], evaluate: Evaluate): number {
  const robot = sim.robots[me]!;
  const nFlags = sim.board.flags.length;
  const home = () => nFlags > 0 && robot.flags >= nFlags;
  const startedHome = home();
  const locked = robot.locked;
  let finishedAt = 0;
  let k = 0;
  for (let reg = 1; reg <= 5; reg++) {
    if (!(locked & (1 << (reg - 1)))) sim.setCard(me, reg, program[k++] ?? 0);
    sim.register(reg);
    if (!finishedAt && !startedHome && home()) finishedAt = reg;
    if (robot.status !== 'active') return evaluate(sim, 'destroyed', reg, finishedAt);
  }
  return evaluate(sim, 'end', 5, finishedAt);
}

/**
 * Scores each program as `sim.restore(root)` then `playProgram` would, leaving the sim at `root`:
 * programs sharing a prefix share its simulation (in the programs' sorted order, the state is saved
 * after each register the next program shares, and brought back for it). `others`: the other
 * robots' programs, set after each restore (a restore brings back the registers of every robot with
 * options memory, as a Scrambler changes cards during a register: programs set before it are lost,
 * and with the driver's option orders every robot has that memory from its first orders on).
 */
export function playPrograms(
  sim: Sim, root: Snapshot, me: number, programs: readonly (readonly Card[])[], evaluate: Evaluate, others?: ReadonlyMap<number, readonly Card[]>,
): number[] {
  const robot = sim.robots[me]!;
  const nFlags = sim.board.flags.length;
  const home = () => nFlags > 0 && robot.flags >= nFlags;
  // After the root: a later snapshot holds the others' registers as the play from the root left
  // them (set there, their locks and a Scrambler's changes since then counted).
  const restore = (s: Snapshot) => {
    sim.restore(s);
    if (others && s === root) for (const [j, p] of others) setProgram(sim, j, p);
  };
  restore(root);
  const startedHome = home();
  const locked = robot.locked;
  // Per register 1..5: which card of a program it plays (-1: locked).
  const slot: number[] = [];
  let open = 0;
  for (let reg = 1; reg <= 5; reg++) slot.push(locked & (1 << (reg - 1)) ? -1 : open++);
  const cardAt = (p: readonly Card[], reg: number): Card => (slot[reg - 1]! < 0 ? 0 : (p[slot[reg - 1]!] ?? 0));
  /** Registers from 1 on in which two programs play the same cards. */
  const shared = (a: readonly Card[], b: readonly Card[]): number => {
    let reg = 1;
    while (reg <= 5 && cardAt(a, reg) === cardAt(b, reg)) reg++;
    return reg - 1;
  };
  const sorted = programs.map((_, k) => k).sort((a, b) => {
    const pa = programs[a]!, pb = programs[b]!;
    for (let reg = 1; reg <= 5; reg++) if (cardAt(pa, reg) !== cardAt(pb, reg)) return cardAt(pa, reg) - cardAt(pb, reg);
    return 0;
  });
  const snaps: Snapshot[] = [root];
  const finishedBy = new Int8Array(6);
  const scores = new Array<number>(programs.length).fill(0);
  let saved = 0;
  sorted.forEach((k, n) => {
    const p = programs[k]!;
    const next = sorted[n + 1];
    const keep = next === undefined ? 0 : shared(p, programs[next]!);
    if (n > 0) saved = Math.min(saved, shared(p, programs[sorted[n - 1]!]!));
    restore(snaps[saved]!);
    let finishedAt = finishedBy[saved]!;
    for (let reg = saved + 1; reg <= 5; reg++) {
      if (slot[reg - 1]! >= 0) sim.setCard(me, reg, cardAt(p, reg));
      sim.register(reg);
      if (!finishedAt && !startedHome && home()) finishedAt = reg;
      if (robot.status !== 'active') {
        scores[k] = evaluate(sim, 'destroyed', reg, finishedAt);
        return;
      }
      if (reg <= keep) {
        if (!snaps[reg]) snaps[reg] = sim.newSnapshot();
        sim.save(snaps[reg]!);
        finishedBy[reg] = finishedAt;
        saved = reg;
      }
    }
    scores[k] = evaluate(sim, 'end', 5, finishedAt);
  });
  sim.restore(root);
  return scores;
}

/** Fills robot j's open registers with `program` (empty: it stands still in them). */
export function setProgram(sim: Sim, j: number, program: readonly Card[]): void {
  const r = sim.robots[j]!;
  let k = 0;
  for (let reg = 1; reg <= 5; reg++) if (!(r.locked & (1 << (reg - 1)))) sim.setCard(j, reg, program[k++] ?? 0);
}

/**
 * Cards for the open registers from a sequence of types: the best card of each type to the
 * earliest register that uses it; registers left unchosen (after the robot was destroyed or
 * finished) take what is left.
 */
export function programOf(types: Int8Array, locked: number, cardsByType: readonly Card[][], order: readonly number[] = DEFAULT_ORDER): Card[] {
  const left = cardsByType.map((l) => l.slice());
  const program: (Card | 0)[] = [];
  const blanks: number[] = [];
  for (let reg = 1; reg <= 5; reg++) {
    if (locked & (1 << (reg - 1))) continue;
    const t = types[reg - 1]!;
    if (t >= 0 && left[t]!.length) program.push(left[t]!.shift()!);
    else {
      blanks.push(program.length);
      program.push(0);
    }
  }
  for (const k of blanks) {
    const t = order.find((u) => left[u]!.length);
    if (t === undefined) break;
    program[k] = left[t]!.shift()!;
  }
  return program.filter((c) => c !== 0);
}

const STATUS = { active: 0, destroyed: 1, out: 2 } as const;

/**
 * The states after a register met by one search, to find one met before: equal in everything the
 * simulator's snapshot holds (what a register phase can change: the fields of `copyRobotInto` and
 * the state's lists), in the register, the register the robot finished in and the types left in
 * its hand. Robot `me`'s registers are left out: those played are done with, and the search sets
 * each of the others before it plays it. What seldom changes in a register (lives aside, options,
 * their memory, the others' registers, the dice…) is compared with the search's start, and a
 * state where any of it changed is not kept; the rest is written as a row of numbers, found by
 * its hash and compared whole.
 */
export class Positions {
  /** Per entry: where its leaves begin and end in the search's log. */
  readonly first: number[] = [];
  readonly last: number[] = [];
  private readonly width: number;
  private rows: Int32Array;
  private entries = 0;
  private table: Int32Array;
  private chain: Int32Array;
  private readonly row: Int32Array;
  private hash = 0;
  /** The search's start, for what seldom changes. */
  private readonly root: GameState;

  constructor(private readonly sim: Sim, private readonly me: number) {
    const st = sim.state;
    this.root = cloneState(st);
    this.width = 2 + T + 11 * st.robots.length + 5 + st.rng.length + st.robots.length;
    this.row = new Int32Array(this.width);
    this.rows = new Int32Array(this.width * 256);
    this.table = new Int32Array(1024).fill(-1);
    this.chain = new Int32Array(256);
  }

  /**
   * The entry of a state equal to the sim's (`reg` just played), or -1 (the state is kept in
   * mind for `add`), or -2 where it is not to be kept (something that seldom changes did).
   */
  find(reg: number, finishedAt: number, left: Int8Array): number {
    const st = this.sim.state;
    if (!this.usual(st)) return -2;
    const row = this.row;
    let k = 0;
    row[k++] = reg;
    row[k++] = finishedAt;
    for (let t = 0; t < T; t++) row[k++] = left[t]!;
    for (const x of st.robots) {
      row[k++] = x.x;
      row[k++] = x.y;
      row[k++] = x.dir;
      row[k++] = x.damage;
      row[k++] = x.flags;
      row[k++] = x.lives;
      row[k++] = STATUS[x.status];
      row[k++] = x.locked;
      row[k++] = x.destroyedAt;
      row[k++] = x.archive ? x.archive[0] : -1;
      row[k++] = x.archive ? x.archive[1] : -1;
    }
    row[k++] = st.destructions;
    row[k++] = st.discard.length;
    row[k++] = st.finished.length;
    row[k++] = st.winTurn;
    for (const v of st.rng) row[k++] = v;
    row[k++] = st.order.length;
    for (let j = 0; j < st.robots.length; j++) row[k++] = st.order[j] ?? -1;
    let h = 0;
    for (let j = 0; j < k; j++) h = (Math.imul(h, 0x9e3779b1) + row[j]!) | 0;
    h ^= h >>> 15;
    this.hash = h;
    const w = this.width;
    for (let e = this.table[h & (this.table.length - 1)]!; e >= 0; e = this.chain[e]!) {
      const at = e * w;
      let j = 0;
      while (j < w && this.rows[at + j] === row[j]) j++;
      if (j === w) return e;
    }
    return -1;
  }

  /** Keeps the state of the last `find` (-1) as a new entry, and gives its index. */
  add(): number {
    const e = this.entries++;
    const w = this.width;
    if (this.rows.length < this.entries * w) {
      const rows = new Int32Array(this.rows.length * 2);
      rows.set(this.rows);
      this.rows = rows;
      const chain = new Int32Array(this.chain.length * 2);
      chain.set(this.chain);
      this.chain = chain;
    }
    this.rows.set(this.row, e * w);
    if (this.entries * 2 > this.table.length) this.rehash();
    const slot = this.hash & (this.table.length - 1);
    this.chain[e] = this.table[slot]!;
    this.table[slot] = e;
    this.hashes.push(this.hash);
    this.first.push(0);
    this.last.push(0);
    return e;
  }

  private readonly hashes: number[] = [];

  private rehash(): void {
    this.table = new Int32Array(this.table.length * 2).fill(-1);
    for (let e = 0; e < this.entries - 1; e++) {
      const slot = this.hashes[e]! & (this.table.length - 1);
      this.chain[e] = this.table[slot]!;
      this.table[slot] = e;
    }
  }

  /** What seldom changes in a register is as at the search's start. */
  private usual(st: GameState): boolean {
    const root = this.root;
    if (st.deck !== root.deck || st.offers !== root.offers || st.optionDeck !== root.optionDeck || st.rng.length !== root.rng.length) return false;
    if (st.order.length > st.robots.length || !sameList(st.dice, root.dice)) return false;
    // Robots finished and cards discarded are lists: those of the start, nothing added.
    if (st.finished.length !== root.finished.length || st.discard.length !== root.discard.length) return false;
    for (let i = 0; i < st.robots.length; i++) {
      const x = st.robots[i]!, y = root.robots[i]!;
      if (x.reentries !== y.reentries || x.hand.length !== y.hand.length || x.unlock !== y.unlock || x.options !== y.options || x.start !== y.start) return false;
      if (x.virtual !== y.virtual || x.poweredDown !== y.poweredDown || x.announced !== y.announced || x.stayDown !== y.stayDown) return false;
      if (x.takeOption !== y.takeOption || x.programmed !== y.programmed) return false;
      if (i !== this.me && !sameList(x.registers, y.registers)) return false;
      const m = x.opt, n = y.opt;
      if (!m || !n) {
        if (m || n) return false;
        continue;
      }
      if (m.choices !== n.choices || m.optionSite !== n.optionSite || m.fcLocks !== n.fcLocks || m.flywheel !== n.flywheel || m.aside !== n.aside) return false;
      if (m.copiedFrom !== n.copiedFrom || m.superior !== n.superior || m.recompiled !== n.recompiled) return false;
      if (!sameList(m.joined, n.joined) || !sameList(m.copied, n.copied) || !sameList(m.fresh, n.fresh) || !sameList(m.shown, n.shown)) return false;
    }
    return true;
  }
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
