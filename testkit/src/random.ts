/**
 * Deterministic random material for tests and benchmarks: boards in the grammar of SCENARIOS.md
 * ("Board"), robots to place on them, and legal orders for a turn. Everything is drawn from a
 * seeded generator of its own (no Math.random), so a seed names a board or a game for good.
 */
import {
  DECK, DIR_NAMES, Floor, OPTION_CARDS, TOGGLES, WEAPONS, cardAction, cardType, openRegisters, optionName, recompile,
  submitOrders, upgradeCode, type Board, type BoardJson, type Card, type Choices, type Dir, type FireControlMode,
  type GameState, type Reentry, type Result, type RobotInit, type RobotState, type Setup,
} from '../../engine/src/index.js';
import { below, nextU32, seedRng, type RngState } from '../../engine/src/index.js';

/** A seeded generator: the engine's own (sfc32), with a few helpers for drawing test material. */
export class Rand {
  private readonly s: RngState;

  constructor(seed: number) {
    this.s = seedRng(seed);
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    return nextU32(this.s);
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    return below(this.s, n);
  }

  /** A uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.u32() < p * 0x100000000;
  }

  pick<T>(a: readonly T[]): T {
    if (!a.length) throw new RangeError('pick from an empty list');
    return a[this.int(a.length)]!;
  }

  dir(): Dir {
    return this.int(4) as Dir;
  }

  /** Fisher–Yates, in place. */
  shuffle<T>(a: T[]): T[] {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
    }
    return a;
  }

  /** A new generator whose stream depends only on this one's next draw. */
  fork(): Rand {
    return new Rand(this.u32());
  }
}

const asRand = (r: number | Rand): Rand => (typeof r === 'number' ? new Rand(r) : r);

const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;
const BELT = ['^', '>', 'v', '<'] as const;
const EXPRESS = ['^^', '>>', 'vv', '<<'] as const;

/**
 * How much of each element a random board holds. Counts are absolute; every one may be 0.
 * Left out, each scales with the board's area (a 12x12 board gets a few of each).
 */
export interface BoardOptions {
  readonly width: number;
  readonly height: number;
  /** Pits, as a fraction of the cells (default 0.05). */
  readonly pitRate?: number;
  /** Normal belt lines (random walks with turns; some feed into other lines from the side). */
  readonly beltLines?: number;
  /** Express belt lines. */
  readonly expressLines?: number;
  /** Belt lines that start beside an existing line and run into it from the side (merges). */
  readonly feeders?: number;
  /** Closed rectangular belt loops (robots on them all move at once). */
  readonly loops?: number;
  /** Longest belt line, in cells. */
  readonly maxLine?: number;
  readonly gears?: number;
  readonly wrenches?: number;
  readonly doubleWrenches?: number;
  readonly walls?: number;
  /** Chance that each side of an edge cell carries a wall, keeping robots on the board (default 0). */
  readonly edgeWalls?: number;
  readonly lasers?: number;
  readonly pushers?: number;
  readonly crushers?: number;
  /** 1 or more flags, on plain floor (default 1 to 4). */
  readonly flags?: number;
  /** Expansion elements of 003 (default none): oil slicks, portal pairs (at most 9), repulsor fields, ledges, ramps over some ledges. */
  readonly oil?: number;
  readonly portals?: number;
  readonly repulsors?: number;
  readonly ledges?: number;
  /** Chance that a ledge has a ramp (default 0.3). */
  readonly rampRate?: number;
}

/** A board of `width` x `height` cells with every kind of classic element, as SCENARIOS.md writes it. */
export function randomBoard(seed: number | Rand, o: BoardOptions): BoardJson {
  const rnd = asRand(seed);
  const w = o.width, h = o.height;
  if (!(w >= 2 && h >= 2)) throw new RangeError('a random board is at least 2x2');
  const area = w * h;
  const scale = (per144: number): number => Math.max(0, Math.round((per144 * area) / 144 + rnd.range(-1, 1)));
  const tok: string[] = new Array<string>(area).fill('.');
  const inside = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < w && y < h;
  const isBelt = (c: number): boolean =>
    (BELT as readonly string[]).includes(tok[c]!) || (EXPRESS as readonly string[]).includes(tok[c]!);
  const beltDirOf = (c: number): Dir => {
    const i = (BELT as readonly string[]).indexOf(tok[c]!);
    return (i >= 0 ? i : (EXPRESS as readonly string[]).indexOf(tok[c]!)) as Dir;
  };
  const plainCells = (): number[] => {
    const out: number[] = [];
    for (let c = 0; c < area; c++) if (tok[c] === '.') out.push(c);
    return out;
  };
  const belt = (c: number, d: Dir, express: boolean): void => {
    tok[c] = (express ? EXPRESS : BELT)[d];
  };
  // Set the flags' and the start's squares aside first, so that they stay plain floor.
  const nFlags = Math.max(1, Math.min(o.flags ?? rnd.range(1, 4), area - 1));
  const reserved = rnd.shuffle(Array.from({ length: area }, (_, c) => c)).slice(0, nFlags + 1);
  for (const c of reserved) tok[c] = 'reserved';
  const maxLine = o.maxLine ?? Math.max(3, Math.round(Math.max(w, h) * 0.8));

  // Loops first: a rectangle whose sides carry robots round, clockwise or not.
  const loops = o.loops ?? (rnd.chance(0.5) ? 1 : 0);
  for (let k = 0; k < loops; k++) {
    const lw = rnd.range(2, Math.min(5, w)), lh = rnd.range(2, Math.min(5, h));
    const x0 = rnd.int(w - lw + 1), y0 = rnd.int(h - lh + 1);
    const ring: number[] = [];
    for (let x = x0; x < x0 + lw; x++) ring.push(y0 * w + x);
    for (let y = y0 + 1; y < y0 + lh; y++) ring.push(y * w + x0 + lw - 1);
    for (let x = x0 + lw - 2; x >= x0; x--) ring.push((y0 + lh - 1) * w + x);
    for (let y = y0 + lh - 2; y > y0; y--) ring.push(y * w + x0);
    if (ring.some((c) => tok[c] !== '.')) continue;
    const express = rnd.chance(0.3);
    const cw = rnd.chance(0.5);
    if (!cw) ring.reverse();
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i]!, b = ring[(i + 1) % ring.length]!;
      const ax = a % w, ay = (a - ax) / w, bx = b % w, by = (b - bx) / w;
      const d = (bx > ax ? 1 : bx < ax ? 3 : by > ay ? 2 : 0) as Dir;
      belt(a, d, express);
    }
  }

  // Lines: random walks that turn now and then, ending off the board, on plain floor, or
  // running into another belt (from behind or from the side: a merge).
  const line = (express: boolean): void => {
    const free = plainCells();
    if (!free.length) return;
    let c = rnd.pick(free);
    let d = rnd.dir();
    const len = rnd.range(2, maxLine);
    for (let k = 0; k < len; k++) {
      if (k > 0 && rnd.chance(0.25)) d = ((d + (rnd.chance(0.5) ? 1 : 3)) & 3) as Dir;
      const x = c % w, y = (c - x) / w;
      const nx = x + DX[d], ny = y + DY[d];
      // Never point a belt straight back into the belt that feeds it.
      if (inside(nx, ny)) {
        const n = ny * w + nx;
        if (isBelt(n) && beltDirOf(n) === ((d + 2) & 3)) {
          d = ((d + 1) & 3) as Dir;
          k--;
          if (rnd.chance(0.3)) {
            belt(c, d, express);
            return;
          }
          continue;
        }
      }
      belt(c, d, express);
      if (!inside(nx, ny)) return;
      const n = ny * w + nx;
      if (tok[n] !== '.') return; // runs into a belt (merge) or another element
      c = n;
    }
  };
  // A feeder ends beside a belt cell and runs into it from a side: built backwards from there.
  const feeder = (express: boolean): void => {
    const belts: number[] = [];
    for (let c = 0; c < area; c++) if (isBelt(c)) belts.push(c);
    if (!belts.length) return;
    const target = rnd.pick(belts);
    const bd = beltDirOf(target);
    const side = ((bd + (rnd.chance(0.5) ? 1 : 3)) & 3) as Dir; // where the feeder comes from
    const tx = target % w, ty = (target - tx) / w;
    let x = tx + DX[side], y = ty + DY[side];
    let toward = ((side + 2) & 3) as Dir; // the direction of travel into the previous cell
    const len = rnd.range(1, maxLine);
    for (let k = 0; k < len; k++) {
      if (!inside(x, y) || tok[y * w + x] !== '.') return;
      belt(y * w + x, toward, express);
      let away = ((toward + 2) & 3) as Dir;
      if (rnd.chance(0.25)) away = ((away + (rnd.chance(0.5) ? 1 : 3)) & 3) as Dir;
      x += DX[away];
      y += DY[away];
      toward = ((away + 2) & 3) as Dir;
    }
  };
  const beltLines = o.beltLines ?? scale(3);
  const expressLines = o.expressLines ?? scale(1.5);
  for (let k = 0; k < beltLines; k++) line(false);
  for (let k = 0; k < expressLines; k++) line(true);
  const feeders = o.feeders ?? scale(2);
  for (let k = 0; k < feeders; k++) feeder(rnd.chance(0.4));

  const scatter = (n: number, t: () => string): void => {
    for (let k = 0; k < n; k++) {
      const free = plainCells();
      if (free.length <= 4) return;
      tok[rnd.pick(free)] = t();
    }
  };
  scatter(Math.round(area * (o.pitRate ?? 0.05)), () => 'O');
  scatter(o.gears ?? scale(4), () => (rnd.chance(0.5) ? 'G+' : 'G-'));
  scatter(o.wrenches ?? scale(2), () => 'W');
  scatter(o.doubleWrenches ?? scale(1), () => 'WW');
  scatter(o.oil ?? 0, () => '~');
  scatter(o.repulsors ?? 0, () => 'RF');
  for (let k = 1; k <= Math.min(9, o.portals ?? 0); k++) scatter(2, () => `T${k}`);
  // A pair short of a cell (a crowded board) is no pair: take the lone portal back out.
  for (let k = 1; k <= 9; k++) {
    const at = tok.flatMap((t, c) => (t === `T${k}` ? [c] : []));
    if (at.length === 1) tok[at[0]!] = '.';
  }

  // The flags and the start were set aside at first: plain floor, each on its own square.
  for (const c of reserved) tok[c] = '.';
  const sq = (c: number): [number, number] => [c % w, Math.floor(c / w)];
  const flags = reserved.slice(0, nFlags).map(sq);
  const start = sq(reserved[nFlags]!);

  const notPit = (): number => {
    for (;;) {
      const c = rnd.int(area);
      if (tok[c] !== 'O') return c;
    }
  };
  const registers = (): number[] => {
    const out: number[] = [];
    for (let r = 1; r <= 5; r++) if (rnd.chance(0.45)) out.push(r);
    return out.length ? out : [rnd.range(1, 5)];
  };
  const walls: string[] = [];
  for (let k = o.walls ?? scale(10); k > 0; k--) {
    const [x, y] = sq(rnd.int(area));
    walls.push(`${x},${y} ${DIR_NAMES[rnd.dir()]}`);
  }
  const edge = o.edgeWalls ?? 0;
  if (edge > 0) {
    for (let x = 0; x < w; x++) {
      if (rnd.chance(edge)) walls.push(`${x},0 N`);
      if (rnd.chance(edge)) walls.push(`${x},${h - 1} S`);
    }
    for (let y = 0; y < h; y++) {
      if (rnd.chance(edge)) walls.push(`0,${y} W`);
      if (rnd.chance(edge)) walls.push(`${w - 1},${y} E`);
    }
  }
  const lasers: NonNullable<BoardJson['lasers']> = [];
  for (let k = o.lasers ?? scale(2.5); k > 0; k--) {
    const [x, y] = sq(notPit());
    lasers.push({ x, y, dir: DIR_NAMES[rnd.dir()], beams: rnd.range(1, 3) });
  }
  const pushers: NonNullable<BoardJson['pushers']> = [];
  const mounts = new Set<string>();
  for (let k = o.pushers ?? scale(3); k > 0; k--) {
    const [x, y] = sq(notPit());
    const dir = DIR_NAMES[rnd.dir()];
    if (mounts.has(`${x},${y} ${dir}`)) continue; // one pusher to a wall
    mounts.add(`${x},${y} ${dir}`);
    pushers.push({ x, y, dir, registers: registers() });
  }
  const crushers: NonNullable<BoardJson['crushers']> = [];
  for (let k = o.crushers ?? scale(1.5); k > 0; k--) {
    const c = notPit();
    if (c === start[1] * w + start[0]) continue;
    const [x, y] = sq(c);
    crushers.push({ x, y, registers: registers() });
  }

  const ledges: string[] = [];
  const ramps: string[] = [];
  const ledgeSet = new Set<string>();
  for (let k = o.ledges ?? 0; k > 0; k--) {
    const [x, y] = sq(rnd.int(area));
    const d = rnd.dir();
    const nx = x + DX[d], ny = y + DY[d];
    // Both sides of one edge cannot each be the upper level.
    if (inside(nx, ny) && ledgeSet.has(`${nx},${ny} ${DIR_NAMES[(d + 2) & 3]}`)) continue;
    const e = `${x},${y} ${DIR_NAMES[d]}`;
    if (ledgeSet.has(e)) continue;
    ledgeSet.add(e);
    ledges.push(e);
    if (rnd.chance(o.rampRate ?? 0.3)) ramps.push(e);
  }

  const grid: string[] = [];
  for (let y = 0; y < h; y++) grid.push(tok.slice(y * w, y * w + w).join(' '));
  const json: BoardJson = { grid, walls, lasers, pushers, crushers, flags, start };
  if (ledges.length) json.ledges = ledges;
  if (ramps.length) json.ramps = ramps;
  return json;
}

/**
 * The benchmark's course: 24x24, dense with belts (lines, merges, loops, express lines), gears,
 * pushers and lasers; few pits. Always the same board.
 */
export function busyCourse24(): BoardJson {
  return randomBoard(0x24c0de, {
    width: 24, height: 24, pitRate: 0.02,
    beltLines: 16, expressLines: 8, feeders: 12, loops: 3, maxLine: 12,
    gears: 24, wrenches: 6, doubleWrenches: 3, walls: 60, lasers: 14, pushers: 20, crushers: 4, flags: 4,
  });
}

/** The benchmark's small board: 12x12 with a bit of everything. */
export function smallCourse12(): BoardJson {
  return randomBoard(0x12c0de, {
    width: 12, height: 12, pitRate: 0.03,
    beltLines: 4, expressLines: 2, feeders: 3, loops: 1, maxLine: 8,
    gears: 5, wrenches: 2, doubleWrenches: 1, walls: 12, lasers: 3, pushers: 4, crushers: 1, flags: 3,
  });
}

/** What `randomRobots` may vary besides positions and facings. */
export interface RobotOptions {
  /** Some robots stand virtual on another robot's square. */
  readonly virtuals?: boolean;
  /** Some robots start damaged (classic numbers: up to 9). */
  readonly damage?: boolean;
  /** Damaged robots mostly hold last turn's program (classic deck cards, each card once), which their locked registers keep. */
  readonly programs?: boolean;
  /** Some robots start powered down for the first turn. */
  readonly poweredDown?: boolean;
  /** Some robots start destroyed, to re-enter on their archive when the first turn begins. */
  readonly destroyed?: boolean;
  /** Robots hold options drawn from this list, each option once (a card with uses sometimes part used). */
  readonly options?: readonly string[];
}

/**
 * `n` robots for `createState`: real robots on distinct squares that are neither pits nor repulsor
 * fields, with random facings; the options add virtual, damaged, powered-down and destroyed ones.
 */
export function randomRobots(board: Board, n: number, seed: number | Rand, o: RobotOptions = {}): RobotInit[] {
  const rnd = asRand(seed);
  const cells: number[] = [];
  for (let c = 0; c < board.width * board.height; c++) if (board.floor[c] !== Floor.Pit && board.floor[c] !== Floor.Repulsor) cells.push(c);
  rnd.shuffle(cells);
  const pool = rnd.shuffle(DECK.slice());
  const out: RobotInit[] = [];
  const used: number[] = [];
  const options = rnd.shuffle([...(o.options ?? [])]);
  for (let i = 0; i < n; i++) {
    let c: number;
    let virtual = false;
    if (o.virtuals && used.length && rnd.chance(0.2)) {
      c = rnd.pick(used);
      virtual = true;
    } else {
      c = cells.pop() ?? rnd.pick(used);
      virtual = used.includes(c);
    }
    used.push(c);
    const x = c % board.width, y = Math.floor(c / board.width);
    const damage = o.damage && rnd.chance(0.3) ? rnd.range(0, 9) : 0;
    const robot: { -readonly [K in keyof RobotInit]: RobotInit[K] } = { name: `R${i + 1}`, x, y, dir: rnd.dir(), damage, virtual, archive: [x, y] };
    if (o.programs && damage >= 5 && rnd.chance(0.7) && pool.length >= 5) robot.program = pool.splice(0, 5);
    if (o.poweredDown && rnd.chance(0.1)) robot.poweredDown = true;
    else if (o.destroyed && rnd.chance(0.1)) robot.destroyed = true;
    if (options.length && rnd.chance(0.7)) {
      robot.options = options.splice(0, rnd.range(1, Math.min(4, options.length))).map((name) =>
        (name === 'Mini Howitzer' || name === 'Ablative Coat') && rnd.chance(0.3) ? `${name}:${rnd.range(1, 2)}` : name);
    }
    out.push(robot);
  }
  return out;
}

/** Re-entry choices for the destroyed robots: a random facing, sometimes powered down. */
export function randomReentry(state: GameState, seed: number | Rand): Record<number, Reentry> {
  const rnd = asRand(seed);
  const out: Record<number, Reentry> = {};
  state.robots.forEach((r, i) => {
    if (r.status !== 'destroyed') return;
    const choice: { dir?: Dir; poweredDown?: boolean } = {};
    if (rnd.chance(0.5)) choice.dir = rnd.dir();
    if (rnd.chance(0.15)) choice.poweredDown = true;
    out[i] = choice;
  });
  return out;
}

/** How often a random player takes each decision. */
export interface OrderOdds {
  /** A damaged robot announces a power down (default 0.1). */
  readonly powerDown?: number;
  /** A powered-down robot stays down (default 0.3). */
  readonly stayDown?: number;
  /** The standing order to take an option on a two-wrench site (default 0.5). */
  readonly takeOption?: number;
  /** Names registers to free first when repaired (default 0.2). */
  readonly unlock?: number;
}

/**
 * Orders for every robot on the floor, once `beginTurn` has dealt: a random choice and order of
 * cards from its hand for its unlocked registers; a power-down announcement only where the rule
 * set allows it (classic: damaged robots); stayDown only for powered-down ones; takeOption and an
 * unlock order at random, where the rule set offers the choice. Each
 * goes through `submitOrders`, so an illegal order would come back as its error.
 */
export function randomOrders(setup: Setup, state: GameState, seed: number | Rand, odds: OrderOdds = {}): Result<GameState> {
  const rnd = asRand(seed);
  let st = state;
  for (let i = 0; i < st.robots.length; i++) {
    let r = st.robots[i]!;
    if (r.status !== 'active') continue;
    if (!r.poweredDown && r.options.some((o) => o === 'Recompile') && rnd.chance(0.2)) {
      const re = recompile(setup, st, i);
      if (!re.ok) return { ok: false, error: { field: `robots[${i}].${re.error.field}`, message: re.error.message } };
      st = re.value.state;
      r = st.robots[i]!;
      if (r.status !== 'active') continue;
    }
    let takeOption = rnd.chance(odds.takeOption ?? 0.5);
    let unlock = rnd.chance(odds.unlock ?? 0.2) ? rnd.shuffle([1, 2, 3, 4, 5]).slice(0, rnd.range(1, 5)) : [];
    const stayDown = r.poweredDown && rnd.chance(odds.stayDown ?? 0.3);
    const hand = rnd.shuffle(r.hand.slice());
    const program = r.poweredDown ? [] : hand.splice(0, openRegisters(r.locked).length);
    const powerDown = !r.poweredDown && setup.rules.powerDownRefusal(r) === null && rnd.chance(odds.powerDown ?? 0.1);
    const { choices, joined } = r.options.length ? randomChoices(setup, r, rnd, program, hand) : { choices: {}, joined: [] };
    let res = submitOrders(setup, st, i, { program, powerDown, stayDown, takeOption, unlock, choices, joined });
    // A rule set without these choices (pbem) refuses them: play on without.
    while (!res.ok && ((res.error.field === 'takeOption' && takeOption) || (res.error.field.startsWith('unlock') && unlock.length))) {
      if (res.error.field === 'takeOption') takeOption = false;
      else unlock = [];
      res = submitOrders(setup, st, i, { program, powerDown, stayDown, takeOption, unlock, choices, joined });
    }
    if (!res.ok) return { ok: false, error: { field: `robots[${i}].${res.error.field}`, message: res.error.message } };
    st = res.value;
  }
  return { ok: true, value: st };
}

/**
 * Random decisions for the options a robot holds (OPTIONS.md part 4), and cards joined in its
 * program (Crab Legs, Dual Processor) from its unplayed cards `left`, which it may also set aside
 * (Conditional Program, Flywheel). pbem's upgrade codes replace program cards in place.
 */
export function randomChoices(setup: Setup, r: RobotState, rnd: Rand, program: Card[], left: Card[]): { choices: Choices; joined: Card[] } {
  const held = new Set(r.options.map(optionName));
  const has = (n: string) => held.has(n) && !r.opt?.fresh.includes(n);
  const regs = () => [1, 2, 3, 4, 5].filter(() => rnd.chance(0.4));
  const c: { -readonly [K in keyof Choices]: Choices[K] } = {};
  const joined = program.map(() => 0);
  const take = (ok: (card: Card) => boolean): Card => {
    const at = left.findIndex(ok);
    return at >= 0 ? left.splice(at, 1)[0]! : 0;
  };
  program.forEach((card, k) => {
    const a = cardAction(card);
    if (a.move === 1 && has('Crab Legs') && rnd.chance(0.3)) joined[k] = take((x) => cardAction(x).turn === 1 || cardAction(x).turn === 3);
    else if (a.move !== 0 && has('Dual Processor') && rnd.chance(0.3)) joined[k] = take((x) => cardAction(x).turn !== 0);
  });
  if (setup.rules.options.toggles) {
    program.forEach((card, k) => {
      const t = cardType(card);
      if (joined[k] || !rnd.chance(0.3)) return;
      if (t === 'F1' && has('Brakes')) program[k] = upgradeCode('F0');
      else if (t === 'F3' && has('Fourth Gear')) program[k] = upgradeCode('F4');
      else if (t === 'B' && has('Reverse Gear')) program[k] = upgradeCode('B2');
    });
    const active = TOGGLES.filter((t) => has(t) && rnd.chance(0.5));
    if (active.length) c.active = active;
    if (has('Circuit Breaker') && rnd.chance(0.3)) c.circuitBreaker = rnd.range(1, 21);
  } else {
    if (has('Shield')) c.shield = rnd.int(4);
    if (has('Gyroscopic Stabilizer')) c.gyro = rnd.chance(0.5);
    const weapons = WEAPONS.filter(has);
    if (weapons.length) c.weapon = Object.fromEntries(regs().map((k) => [k, rnd.pick(weapons)]));
    if (has('Fire Control')) {
      c.fireControl = Object.fromEntries(regs().map((k) => [k, [rnd.pick<FireControlMode>([
        { kind: 'damage' }, { kind: 'lock', register: rnd.range(1, 5) }, { kind: 'option', option: rnd.pick(OPTION_CARDS) },
      ])]]));
    }
    if (has('Brakes')) c.brakes = regs();
    if (has('Fourth Gear')) c.fourthGear = regs();
    if (has('Reverse Gear')) c.reverseGear = regs();
    if (has('Abort Switch') && rnd.chance(0.3)) c.abort = rnd.range(1, 5);
    if (rnd.chance(0.5)) c.exchange = rnd.shuffle([...held]).slice(0, rnd.range(0, held.size)).map((option) => ({ option }));
    if (rnd.chance(0.5)) c.lose = rnd.pick([...held]);
    if (rnd.chance(0.2)) {
      const register = rnd.chance(0.5) ? ('end' as const) : rnd.range(1, 5);
      const name = rnd.pick([...held]);
      c.chopShop = rnd.chance(0.4) ? { register, scrap: name } : rnd.chance(0.5) || register !== 'end' ? { register, recharge: name } : { register, draw: true };
    }
    if (has('Conditional Program') && left.length && rnd.chance(0.5)) c.conditional = { card: left.shift()!, register: rnd.range(1, 5) };
  }
  if (has('Flywheel') && left.length && rnd.chance(0.5)) c.flywheel = left.shift()!;
  return { choices: c, joined };
}
