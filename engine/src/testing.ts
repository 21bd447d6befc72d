/**
 * Builders for the engine's unit tests (the `*.test.ts` files beside the code): a race from a board
 * in the grammar of SCENARIOS.md, and turns played from programs written as card names. Each
 * throws when the engine refuses, so a test reads as the rule it checks. Pure; not in index.ts.
 */
import { parseBoard, type Board, type BoardJson } from './board.js';
import { DECK, parseCard, type Card } from './cards.js';
import type { Setup } from './context.js';
import type { GameEvent } from './events.js';
import { createState, makeSetup, type RobotInit } from './game.js';
import { dirName, parseDir, type Dir, type DirName } from './geometry.js';
import type { Result } from './result.js';
import type { Settings } from './settings.js';
import type { GameState, RobotState } from './state.js';
import { beginTurn, endTurn, needsProgram, openRegisters, playRegister, submitOrders, type Orders } from './turn.js';

/** The value of an accepted result; a refusal throws with its field and message. */
export function must<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`refused: ${r.error.field}: ${r.error.message}`);
  return r.value;
}

/** A card from its name: classic with its priority (`F2:670`), pbem by its code alone (`F2`). */
export function card(s: string): Card {
  const c = parseCard(s, s.includes(':'));
  if (c === undefined) throw new Error(`not a card: ${s}`);
  return c;
}

export const dir = (d: DirName): Dir => parseDir(d)!;

/** A robot as RobotInit has it, with its facing and last program written as names. */
export type Bot = Omit<RobotInit, 'dir' | 'program'> & { readonly dir: DirName; readonly program?: readonly string[] };

/** A race in progress, and the events of the call that produced it. */
export interface Game {
  readonly setup: Setup;
  readonly state: GameState;
  readonly events: GameEvent[];
}

export function race(
  board: BoardJson | string[],
  bots: readonly Bot[],
  o: { settings?: Settings; boards?: number; seed?: number; rules?: 'classic' | 'pbem' } = {},
): Game {
  const b = must(parseBoard(Array.isArray(board) ? { grid: board } : board));
  const setup = must(makeSetup(b, o.rules ?? 'classic', o.settings ?? {}, o.boards ?? 1));
  const inits: RobotInit[] = bots.map(({ dir: d, program, ...rest }) => ({
    ...rest,
    dir: dir(d),
    ...(program ? { program: program.map((s) => (s === '-' ? 0 : card(s))) } : {}),
  }));
  return { setup, state: must(createState(setup, inits, o.seed ?? 1)), events: [] };
}

export interface TurnPlan {
  /**
   * Robot name → cards for its unlocked registers, first first. Any card counts as dealt (as in a
   * scenario). A register written `-`, those past a short program, and all of a robot left out stay
   * empty: the robot does nothing in them.
   */
  readonly programs?: Readonly<Record<string, readonly string[]>>;
  /** Robot name → its other orders (power down, stay down, option, unlock). */
  readonly orders?: Readonly<Record<string, Omit<Orders, 'program'>>>;
  readonly reenter?: Readonly<Record<string, { dir?: DirName; poweredDown?: boolean }>>;
  /** Register phases to play, default 5; the turn ends only after all five (unless `end` is false). */
  readonly registers?: number;
  readonly end?: boolean;
}

export const index = (g: Game, name: string): number => {
  const i = g.state.robots.findIndex((r) => r.name === name);
  if (i < 0) throw new Error(`no robot ${name}`);
  return i;
};
export const robot = (g: Game, name: string): RobotState => g.state.robots[index(g, name)]!;

/** Where a robot stands and faces, or its status when it is off the floor. */
export function at(g: Game, name: string): [number, number, DirName] | 'destroyed' | 'out' {
  const r = robot(g, name);
  return r.status === 'active' ? [r.x, r.y, dirName(r.dir)] : r.status;
}

/** Begins a turn and takes everyone's orders, without playing a register. */
export function program(g: Game, plan: TurnPlan = {}): Game {
  const reentry: Record<number, { dir?: Dir; poweredDown?: boolean }> = {};
  for (const [name, c] of Object.entries(plan.reenter ?? {}))
    reentry[index(g, name)] = { ...(c.dir ? { dir: dir(c.dir) } : {}), ...(c.poweredDown !== undefined ? { poweredDown: c.poweredDown } : {}) };
  const begun = must(beginTurn(g.setup, g.state, reentry));
  let state = begun.state;
  const names = new Set([...Object.keys(plan.programs ?? {}), ...Object.keys(plan.orders ?? {})]);
  // Fillers for short programs: cards nobody uses this turn, emptied again once submitted.
  const used = new Set<Card>(state.robots.flatMap((r) => r.registers));
  for (const list of Object.values(plan.programs ?? {})) for (const s of list) if (s !== '-') used.add(card(s));
  const spare = DECK.filter((c) => !used.has(c));
  for (const name of names) {
    const i = index(g, name);
    const given = plan.programs?.[name];
    const open = openRegisters(state.robots[i]!.locked);
    const empty = (k: number) => !given || k >= given.length || given[k] === '-';
    const cards = given && open.map((_, k) => (empty(k) ? spare.shift()! : card(given[k]!)));
    if (cards) state.robots[i]!.hand = cards.slice();
    state = must(submitOrders(g.setup, state, i, { ...(plan.orders?.[name] ?? {}), ...(cards ? { program: cards } : {}) }));
    if (given) open.forEach((reg, k) => empty(k) && (state.robots[i]!.registers[reg - 1] = 0));
  }
  state.robots.forEach((r, i) => {
    if (!names.has(r.name) && needsProgram(state, i)) r.programmed = true; // idle: empty registers
  });
  return { setup: g.setup, state, events: begun.events };
}

/** Plays `n` more register phases. */
export function play(g: Game, n: number): Game {
  let state = g.state;
  const events: GameEvent[] = [];
  for (let k = 0; k < n; k++) {
    const res = must(playRegister(g.setup, state));
    state = res.state;
    events.push(...res.events);
  }
  return { setup: g.setup, state, events };
}

/** The end of the turn, after the fifth register phase. */
export function end(g: Game): Game {
  const res = must(endTurn(g.setup, g.state));
  return { setup: g.setup, state: res.state, events: res.events };
}

/** A whole turn (or its first `registers` phases); the events of all of it. */
export function turn(g: Game, plan: TurnPlan = {}): Game {
  const p = program(g, plan);
  const n = plan.registers ?? 5;
  const r = play(p, n);
  const events = [...p.events, ...r.events];
  if (n < 5 || plan.end === false) return { ...r, events };
  const e = end(r);
  return { ...e, events: [...events, ...e.events] };
}

/** The events of one type, typed. */
export const ofType = <T extends GameEvent['type']>(ev: readonly GameEvent[], t: T): Extract<GameEvent, { type: T }>[] =>
  ev.filter((e): e is Extract<GameEvent, { type: T }> => e.type === t);

/**
 * Where a board's packed per-cell table (`Board.cells`) disagrees with the tables it packs, as
 * "table at cell" texts (empty: it agrees everywhere, beamFrom's last entry included).
 */
export function cellsDisagree(b: Board): string[] {
  const out: string[] = [];
  const n = b.width * b.height;
  if (b.cells.length !== (n + 1) * 4) return [`cells has ${b.cells.length} words for ${n} cells`];
  for (let c = 0; c < n; c++) {
    const w0 = b.cells[c * 4]!, w1 = b.cells[c * 4 + 1]!, w2 = b.cells[c * 4 + 2]!;
    const want: [string, number, number][] = [
      ['floor', w0 & 255, b.floor[c]!], ['beltDir', (w0 >>> 8) & 255, b.beltDir[c]!], ['plainStep', (w0 >>> 16) & 255, b.plainStep[c]!],
      ['siteAt', w0 >>> 24, b.siteAt[c]!], ['pusherAt', w1 & 255, b.pusherAt[c]!], ['crusherAt', (w1 >>> 8) & 255, b.crusherAt[c]!],
      ['beamFrom', b.cells[c * 4 + 3]!, b.beamFrom[c]!],
    ];
    for (let d = 0; d < 4; d++) want.push([`reach[${d}]`, (w2 >>> (d * 8)) & 255, b.reach[c * 4 + d]!]);
    for (const [name, got, is] of want) if (got !== is) out.push(`${name} at ${c}: ${got}, not ${is}`);
  }
  if (b.cells[n * 4 + 3] !== b.beamFrom[n]) out.push(`beamFrom's end: ${b.cells[n * 4 + 3]}, not ${b.beamFrom[n]}`);
  return out;
}
