/**
 * The scenario format of SCENARIOS.md, read into typed values. Every error names the field
 * (`turns[1].programs.A[2]`) and what was expected.
 */
import {
  err, parseSettings, ok, RULE_SETS, parseBoard, parseCard, parseDir, UPGRADES, type Board, type Offer,
  type Card, type Dir, type Reentry, type Result, type RobotInit, type Settings, type Square,
} from '../../engine/src/index.js';

export interface ExpectRobot {
  readonly x?: number;
  readonly y?: number;
  readonly dir?: Dir;
  readonly damage?: number;
  readonly lives?: number;
  readonly flags?: number;
  readonly archive?: Square | null;
  readonly virtual?: boolean;
  readonly poweredDown?: boolean;
  readonly destroyed?: boolean;
  readonly out?: boolean;
  readonly options?: readonly string[];
  readonly locked?: number;
}

export interface Expect {
  readonly robots: ReadonlyMap<string, ExpectRobot>;
  /** undefined: not checked; null: nobody yet; else the names sharing first place. */
  readonly winner?: readonly string[] | null;
  /** The scenario must be refused: true for any error, or text the message contains. */
  readonly error?: true | string;
}

export interface TurnSpec {
  /** Robot index → its cards for the unlocked registers. */
  readonly programs: ReadonlyMap<number, readonly Card[]>;
  /** Robot index → per register a second card joined to the first (`F1:500+R:80`), 0 for none. */
  readonly joined: ReadonlyMap<number, readonly Card[]>;
  /** Robot index → its option decisions as written (read against the robot when the turn is played). */
  readonly choices: ReadonlyMap<number, Readonly<Record<string, unknown>>>;
  readonly registers?: number;
  readonly expect?: Expect;
  readonly powerDown: ReadonlySet<number>;
  readonly stayDown: ReadonlySet<number>;
  readonly takeOption: ReadonlySet<number>;
  readonly reenter: Readonly<Record<number, Reentry>>;
}

export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly rules: string;
  readonly settings: Settings;
  readonly seed: number;
  readonly board: Board;
  readonly robots: readonly RobotInit[];
  /** pbem: the upgrades the hammer sites offer at the start (board key `upgrades`). */
  readonly offers: readonly Offer[];
  readonly turns: readonly TurnSpec[];
  readonly expect: Expect;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);

/** The longest `id`, `title` and `source` read, and a robot's longest name. */
export const MAX_ID = 128;
const MAX_TEXT = 2000;
const MAX_NAME = 32;
/** The most turns a scenario plays and the most robots it holds: a situation, not a race (C-075 has ten robots). */
export const MAX_TURNS = 100;
export const MAX_ROBOTS = 64;

const TOP_KEYS = new Set(['id', 'title', 'source', 'rules', 'settings', 'seed', 'board', 'robots', 'turns', 'expect']);
const ROBOT_KEYS = new Set(['name', 'x', 'y', 'dir', 'damage', 'lives', 'flags', 'archive', 'start', 'virtual', 'poweredDown', 'destroyed', 'options', 'program', 'fcLocks']);
const TURN_KEYS = new Set(['programs', 'registers', 'expect', 'powerDown', 'stayDown', 'reenter', 'takeOption', 'choices']);
const UPGRADE_KEYS = new Set(['x', 'y', 'name', 'age']);
const EXPECT_ROBOT_KEYS = new Set(['x', 'y', 'dir', 'damage', 'lives', 'flags', 'archive', 'virtual', 'poweredDown', 'destroyed', 'out', 'options', 'locked']);

function unknownKey(o: Record<string, unknown>, allowed: Set<string>, path: string): Result<never> | null {
  for (const k of Object.keys(o)) if (!allowed.has(k)) return err(`${path}.${k}`.replace(/^\./, ''), `unknown key (expected one of ${[...allowed].join(', ')})`);
  return null;
}

function square(v: unknown, path: string, nullable: boolean): Result<Square | null> {
  if (v === null && nullable) return ok(null);
  if (!Array.isArray(v) || v.length !== 2 || !isInt(v[0]) || !isInt(v[1]))
    return err(path, `expected [x, y]${nullable ? ' or null' : ''}`);
  return ok([v[0], v[1]]);
}

/** A program: cards, each perhaps joined to a second (`F1:500+R:80`, OPTIONS.md part 4). */
function parseCards(list: unknown, path: string, priorities: boolean): Result<{ cards: Card[]; joined: Card[] }> {
  if (!Array.isArray(list)) return err(path, 'expected a list of cards such as "F2:670"');
  const cards: Card[] = [];
  const joined: Card[] = [];
  for (let k = 0; k < list.length; k++) {
    const s = list[k];
    const parts = typeof s === 'string' ? s.split('+') : [];
    const cs = parts.map((p) => parseCard(p, priorities));
    if (!parts.length || parts.length > 2 || cs.some((c) => c === undefined)) {
      const what = priorities
        ? 'a card of the deck as CODE:PRIORITY (U 10-60, L 70-410, R 80-420, B 430-480, F1 490-660, F2 670-780, F3 790-840), or two joined by + (F1:500+R:80)'
        : 'an instruction F1, F2, F3, B, L, R or U, an upgrade code F0, F4 or B2, or two joined by + (F+L)';
      return err(`${path}[${k}]`, `${JSON.stringify(s)} is not ${what}`);
    }
    cards.push(cs[0]!);
    joined.push(cs[1] ?? 0);
  }
  return ok({ cards, joined });
}

function parseExpect(v: unknown, path: string, names: Map<string, number>): Result<Expect> {
  if (!isObject(v)) return err(path, 'expected an object');
  const bad = unknownKey(v, new Set(['robots', 'winner', 'error']), path);
  if (bad) return bad;
  const robots = new Map<string, ExpectRobot>();
  if (v.robots !== undefined) {
    if (!isObject(v.robots)) return err(`${path}.robots`, 'expected an object of robot names');
    for (const [name, e] of Object.entries(v.robots)) {
      const p = `${path}.robots.${name}`;
      if (!names.has(name)) return err(p, `no robot named "${name}"`);
      if (!isObject(e)) return err(p, 'expected an object of fields');
      const bad2 = unknownKey(e, EXPECT_ROBOT_KEYS, p);
      if (bad2) return bad2;
      const out: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(e)) {
        if (k === 'dir') {
          const d = parseDir(val);
          if (d === undefined) return err(`${p}.dir`, 'expected one of N, E, S, W');
          out.dir = d;
        } else if (k === 'archive') {
          const s = square(val, `${p}.archive`, true);
          if (!s.ok) return s;
          out.archive = s.value;
        } else if (k === 'options') {
          if (!Array.isArray(val) || val.some((o) => typeof o !== 'string')) return err(`${p}.options`, 'expected a list of option names');
          out.options = val;
        } else if (['virtual', 'poweredDown', 'destroyed', 'out'].includes(k)) {
          if (typeof val !== 'boolean') return err(`${p}.${k}`, 'expected true or false');
          out[k] = val;
        } else {
          if (!isInt(val)) return err(`${p}.${k}`, 'expected a whole number');
          out[k] = val;
        }
      }
      robots.set(name, out as ExpectRobot);
    }
  }
  let winner: readonly string[] | null | undefined;
  if (v.winner !== undefined) {
    const w = v.winner;
    const list = w === null ? null : typeof w === 'string' ? [w] : Array.isArray(w) && w.every((n) => typeof n === 'string') ? (w as string[]) : undefined;
    if (list === undefined) return err(`${path}.winner`, 'expected a robot name, a list of names, or null');
    for (const n of list ?? []) if (!names.has(n)) return err(`${path}.winner`, `no robot named "${n}"`);
    winner = list;
  }
  let error: true | string | undefined;
  if (v.error !== undefined) {
    if (v.error !== true && typeof v.error !== 'string') return err(`${path}.error`, 'expected true or a piece of the message');
    error = v.error;
  }
  return ok({ robots, ...(winner !== undefined ? { winner } : {}), ...(error !== undefined ? { error } : {}) });
}

/** True if an expectation checks something: a robot's field, the winner, or a refusal. */
const checks = (e: Expect): boolean => e.error !== undefined || e.winner !== undefined || [...e.robots.values()].some((r) => Object.keys(r).length > 0);

/** Reads a scenario object. The deck checks of SCENARIOS.md ("How a scenario is played") are here. */
export function parseScenario(raw: unknown, ruleSetPriorities: (rules: string) => boolean | undefined): Result<Scenario> {
  if (!isObject(raw)) return err('', 'expected a JSON object');
  const bad = unknownKey(raw, TOP_KEYS, '');
  if (bad) return bad;
  if (typeof raw.id !== 'string' || !raw.id || raw.id.length > MAX_ID) return err('id', `expected a non-empty string of at most ${MAX_ID} characters`);
  for (const k of ['title', 'source'] as const)
    if (raw[k] !== undefined && (typeof raw[k] !== 'string' || raw[k].length > MAX_TEXT)) return err(k, `expected text of at most ${MAX_TEXT} characters`);
  const rules = raw.rules;
  const ruleSets = Object.keys(RULE_SETS).map((r) => `"${r}"`).join(' or ');
  if (typeof rules !== 'string') return err('rules', `expected ${ruleSets}`);
  const priorities = ruleSetPriorities(rules);
  if (priorities === undefined) return err('rules', `unknown rule set "${rules}" (expected ${ruleSets})`);
  const seed = raw.seed === undefined ? 0 : raw.seed;
  if (!isInt(seed)) return err('seed', 'expected a whole number');
  const { upgrades, ...boardJson } = isObject(raw.board) ? raw.board : { upgrades: undefined };
  const board = parseBoard(isObject(raw.board) ? boardJson : raw.board);
  if (!board.ok) return board;
  const offers: Offer[] = [];
  if (upgrades !== undefined) {
    if (!Array.isArray(upgrades)) return err('board.upgrades', 'expected a list of {"x", "y", "name", "age"}');
    for (let k = 0; k < upgrades.length; k++) {
      const u = upgrades[k];
      const q = `board.upgrades[${k}]`;
      if (!isObject(u) || !isInt(u.x) || !isInt(u.y)) return err(q, 'expected {"x", "y", "name", "age"}');
      const badU = unknownKey(u, UPGRADE_KEYS, q);
      if (badU) return badU;
      if (typeof u.name !== 'string' || !(UPGRADES as readonly string[]).includes(u.name)) return err(`${q}.name`, `expected an upgrade (${UPGRADES.join(', ')})`);
      const age = u.age === undefined ? 0 : u.age;
      if (!isInt(age) || age < 0) return err(`${q}.age`, 'expected the rounds it has been offered already, a whole number');
      offers.push({ x: u.x, y: u.y, option: u.name, since: 1 - age });
    }
  }
  const settings = parseSettings(raw.settings, board.value.flags.length);
  if (!settings.ok) return settings;

  if (!Array.isArray(raw.robots)) return err('robots', 'expected a list of robots');
  if (raw.robots.length > MAX_ROBOTS) return err('robots', `${raw.robots.length} robots; a scenario holds at most ${MAX_ROBOTS}`);
  const names = new Map<string, number>();
  const robots: RobotInit[] = [];
  for (let i = 0; i < raw.robots.length; i++) {
    const r = raw.robots[i];
    const p = `robots[${i}]`;
    if (!isObject(r)) return err(p, 'expected an object');
    const badR = unknownKey(r, ROBOT_KEYS, p);
    if (badR) return badR;
    if (typeof r.name !== 'string' || !r.name || r.name.length > MAX_NAME) return err(`${p}.name`, `expected a non-empty string of at most ${MAX_NAME} characters`);
    if (names.has(r.name)) return err(`${p}.name`, `"${r.name}" is used twice`);
    names.set(r.name, i);
    if (!isInt(r.x)) return err(`${p}.x`, 'expected a whole number');
    if (!isInt(r.y)) return err(`${p}.y`, 'expected a whole number');
    const dir = parseDir(r.dir);
    if (dir === undefined) return err(`${p}.dir`, 'expected one of N, E, S, W');
    for (const k of ['damage', 'lives', 'flags'] as const) if (r[k] !== undefined && !isInt(r[k])) return err(`${p}.${k}`, 'expected a whole number');
    for (const k of ['virtual', 'poweredDown', 'destroyed'] as const) if (r[k] !== undefined && typeof r[k] !== 'boolean') return err(`${p}.${k}`, 'expected true or false');
    let archive: Square | null | undefined;
    if (r.archive !== undefined) {
      const s = square(r.archive, `${p}.archive`, true);
      if (!s.ok) return s;
      archive = s.value;
    }
    let start: Square | undefined;
    if (r.start !== undefined) {
      const s = square(r.start, `${p}.start`, false);
      if (!s.ok) return s;
      start = s.value!;
    }
    let program: Card[] | undefined;
    if (r.program !== undefined) {
      const cs = parseCards(r.program, `${p}.program`, priorities);
      if (!cs.ok) return cs;
      program = cs.value.cards;
    }
    if (r.options !== undefined && (!Array.isArray(r.options) || r.options.some((o) => typeof o !== 'string')))
      return err(`${p}.options`, 'expected a list of option names, a card with uses as "NAME:LEFT"');
    if (r.fcLocks !== undefined && (!Array.isArray(r.fcLocks) || r.fcLocks.some((k) => !isInt(k) || k < 1 || k > 5)))
      return err(`${p}.fcLocks`, 'expected a list of register numbers 1 to 5');
    robots.push({
      name: r.name, x: r.x, y: r.y, dir,
      ...(r.damage !== undefined ? { damage: r.damage as number } : {}),
      ...(r.lives !== undefined ? { lives: r.lives as number } : {}),
      ...(r.flags !== undefined ? { flags: r.flags as number } : {}),
      ...(archive !== undefined ? { archive } : {}),
      ...(start !== undefined ? { start } : {}),
      virtual: r.virtual === true, poweredDown: r.poweredDown === true, destroyed: r.destroyed === true,
      ...(program ? { program } : {}),
      ...(r.options !== undefined ? { options: r.options as string[] } : {}),
      ...(r.fcLocks !== undefined ? { fcLocks: r.fcLocks as number[] } : {}),
    });
  }

  const nameList = (v: unknown, path: string): Result<Set<number>> => {
    if (v === undefined) return ok(new Set());
    if (!Array.isArray(v)) return err(path, 'expected a list of robot names');
    const out = new Set<number>();
    for (let k = 0; k < v.length; k++) {
      const i = names.get(v[k]);
      if (i === undefined) return err(`${path}[${k}]`, `no robot named ${JSON.stringify(v[k])}`);
      out.add(i);
    }
    return ok(out);
  };

  if (!Array.isArray(raw.turns)) return err('turns', 'expected a list of turns');
  if (raw.turns.length > MAX_TURNS) return err('turns', `${raw.turns.length} turns; a scenario plays at most ${MAX_TURNS}`);
  const turns: TurnSpec[] = [];
  for (let t = 0; t < raw.turns.length; t++) {
    const tr = raw.turns[t];
    const p = `turns[${t}]`;
    if (!isObject(tr)) return err(p, 'expected an object');
    const badT = unknownKey(tr, TURN_KEYS, p);
    if (badT) return badT;
    const programs = new Map<number, Card[]>();
    const joined = new Map<number, Card[]>();
    if (tr.programs !== undefined) {
      if (!isObject(tr.programs)) return err(`${p}.programs`, 'expected an object of robot names');
      for (const [name, list] of Object.entries(tr.programs)) {
        const i = names.get(name);
        if (i === undefined) return err(`${p}.programs.${name}`, `no robot named "${name}"`);
        const cs = parseCards(list, `${p}.programs.${name}`, priorities);
        if (!cs.ok) return cs;
        programs.set(i, cs.value.cards);
        joined.set(i, cs.value.joined);
      }
    }
    let registers: number | undefined;
    if (tr.registers !== undefined) {
      if (!isInt(tr.registers) || tr.registers < 0 || tr.registers > 5) return err(`${p}.registers`, 'expected 0 to 5');
      registers = tr.registers;
    }
    const powerDown = nameList(tr.powerDown, `${p}.powerDown`);
    if (!powerDown.ok) return powerDown;
    const stayDown = nameList(tr.stayDown, `${p}.stayDown`);
    if (!stayDown.ok) return stayDown;
    const takeOption = nameList(tr.takeOption, `${p}.takeOption`);
    if (!takeOption.ok) return takeOption;
    const reenter: Record<number, Reentry> = {};
    if (tr.reenter !== undefined) {
      if (!isObject(tr.reenter)) return err(`${p}.reenter`, 'expected an object of robot names');
      for (const [name, c] of Object.entries(tr.reenter)) {
        const i = names.get(name);
        const q = `${p}.reenter.${name}`;
        if (i === undefined) return err(q, `no robot named "${name}"`);
        if (!isObject(c)) return err(q, 'expected {"dir": D, "poweredDown": bool}');
        const badC = unknownKey(c, new Set(['dir', 'poweredDown']), q);
        if (badC) return badC;
        const d = c.dir === undefined ? undefined : parseDir(c.dir);
        if (c.dir !== undefined && d === undefined) return err(`${q}.dir`, 'expected one of N, E, S, W');
        if (c.poweredDown !== undefined && typeof c.poweredDown !== 'boolean') return err(`${q}.poweredDown`, 'expected true or false');
        reenter[i] = { ...(d !== undefined ? { dir: d } : {}), ...(c.poweredDown !== undefined ? { poweredDown: c.poweredDown as boolean } : {}) };
      }
    }
    const choices = new Map<number, Record<string, unknown>>();
    if (tr.choices !== undefined) {
      if (!isObject(tr.choices)) return err(`${p}.choices`, 'expected an object of robot names');
      for (const [name, c] of Object.entries(tr.choices)) {
        const i = names.get(name);
        const q = `${p}.choices.${name}`;
        if (i === undefined) return err(q, `no robot named "${name}"`);
        if (!isObject(c)) return err(q, 'expected an object of decisions');
        choices.set(i, c);
      }
    }
    let expect: Expect | undefined;
    if (tr.expect !== undefined) {
      const e = parseExpect(tr.expect, `${p}.expect`, names);
      if (!e.ok) return e;
      expect = e.value;
    }
    turns.push({
      programs, joined, choices, powerDown: powerDown.value, stayDown: stayDown.value, takeOption: takeOption.value, reenter,
      ...(registers !== undefined ? { registers } : {}),
      ...(expect ? { expect } : {}),
    });
  }
  const expect = parseExpect(raw.expect === undefined ? {} : raw.expect, 'expect', names);
  if (!expect.ok) return expect;
  if (!checks(expect.value) && !turns.some((t) => t.expect && checks(t.expect)))
    return err('expect', 'the scenario checks nothing; expected a robot\'s field, a winner or an error in "expect" (or in a turn\'s "expect")');
  return ok({
    id: raw.id, title: typeof raw.title === 'string' ? raw.title : '', rules, settings: settings.value, seed,
    board: board.value, robots, offers, turns, expect: expect.value,
  });
}
