/** Setting up a race: the setup (board, rule set, settings) and the robots' first state. */
import { cannotStand, Floor, type Board } from './board.js';
import type { Outcome } from './turn.js';
import type { Card } from './cards.js';
import { cubeBeams } from './cube.js';
import { makeCtx, type Setup } from './context.js';
import { type Dir, type Square } from './geometry.js';
import { err, ok, type Result } from './result.js';
import { rngFrom, type Seed } from './rng.js';
import { classic } from './rules/classic.js';
import { pbem } from './rules/pbem.js';
import type { RuleSet } from './rules/ruleset.js';
import { SETTING_RANGES, startingLives, type Settings } from './settings.js';
import { cloneState, type GameState, type RobotState } from './state.js';
import { buildOptionDeck, freeOptions } from './options/deck.js';
import { holds, memory } from './options/held.js';

/** The rule sets by name. */
export const RULE_SETS: Readonly<Record<string, RuleSet>> = { classic, pbem };
/** The rule set a race plays when none is named. */
export const DEFAULT_RULE_SET = 'classic';

/** The rule sets a course can be raced under: those with one start for all need the course's
 *  `start`, those with a start per robot its `starts`. */
export function courseRuleSets(course: { readonly start?: unknown; readonly starts: readonly unknown[] }): string[] {
  return Object.values(RULE_SETS).filter((rs) => (rs.startsPerRobot ? course.starts.length > 0 : !!course.start)).map((rs) => rs.name);
}

export function makeSetup(board: Board, rules: string, settings: Settings = {}, boards = 1): Result<Setup> {
  const rs = Object.hasOwn(RULE_SETS, rules) ? RULE_SETS[rules] : undefined;
  if (!rs) return err('rules', `unknown rule set "${rules}" (expected one of ${Object.keys(RULE_SETS).join(', ')})`);
  if (settings.cubed !== undefined && !board.fold) return err('settings.cubed', 'RoboRally Cubed needs a cube course (a course with "cube": true)');
  // A cube's lasers reach over board edges as the side of the cube played on says (004 L179).
  const floor = board.fold ? cubeBeams(board, settings.cubed ?? 'inside') : board;
  return ok({ board: floor, rules: rs, settings, boards, spare: { workspace: null } });
}

/** A robot as a race or a scenario places it; what is left out takes the rule set's default. */
export interface RobotInit {
  readonly name: string;
  readonly x: number;
  readonly y: number;
  readonly dir: Dir;
  readonly damage?: number;
  readonly lives?: number;
  readonly flags?: number;
  readonly archive?: Square | null;
  readonly start?: Square;
  readonly virtual?: boolean;
  readonly poweredDown?: boolean;
  readonly destroyed?: boolean;
  readonly options?: readonly string[];
  /** Last turn's five cards (0 for none): what locked registers keep. */
  readonly program?: readonly Card[];
  /** Registers locked by Fire Control markers (OPTIONS.md 2.10). */
  readonly fcLocks?: readonly number[];
}

/**
 * The state before the first turn. Refuses robots off the board or on a pit, two real robots on
 * one square, and values out of range, naming the robot and the field.
 */
export function createState(setup: Setup, robots: readonly RobotInit[], seed: Seed = 0): Result<GameState> {
  const b = setup.board;
  const rules = setup.rules;
  if (typeof seed === 'number' ? !Number.isInteger(seed) : !seed.length || seed.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffffffff))
    return err('seed', 'expected a whole number, or a list of 32-bit words');
  const lives = startingLives(setup.settings, robots.length, setup.boards);
  const out: RobotState[] = [];
  const names = new Set<string>();
  const inside = (x: number, y: number) => Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < b.width && y < b.height;
  for (let i = 0; i < robots.length; i++) {
    const r = robots[i]!;
    const p = `robots[${i}]`;
    if (names.has(r.name)) return err(`${p}.name`, `"${r.name}" is used twice`);
    names.add(r.name);
    if (![0, 1, 2, 3].includes(r.dir)) return err(`${p}.dir`, `expected a facing 0 to 3 (N, E, S, W), found ${JSON.stringify(r.dir)}`);
    if (!inside(r.x, r.y)) return err(`${p}.x`, `${r.name} at (${r.x},${r.y}) is off the ${b.width}x${b.height} board`);
    if (!r.destroyed && b.floor[r.y * b.width + r.x] === Floor.Pit) return err(`${p}.x`, `${r.name} stands on the pit at (${r.x},${r.y})`);
    if (!r.destroyed && b.floor[r.y * b.width + r.x] === Floor.Repulsor) return err(`${p}.x`, `${r.name} stands on the repulsor field at (${r.x},${r.y}), which no robot enters`);
    if (!r.destroyed && b.floor[r.y * b.width + r.x] === Floor.Void) return err(`${p}.x`, `${r.name} at (${r.x},${r.y}) stands where no board is`);
    const damage = r.damage ?? 0;
    if (!Number.isInteger(damage) || damage < 0 || damage >= rules.destroyAt)
      return err(`${p}.damage`, `expected 0 to ${rules.destroyAt - 1} (${rules.destroyAt} destroys a robot), found ${damage}`);
    const l = r.lives ?? lives;
    const [, mostLives] = SETTING_RANGES.count;
    if (!Number.isInteger(l) || l < 1 || l > mostLives) return err(`${p}.lives`, `expected a whole number of lives, 1 to ${mostLives}, found ${l}`);
    const flags = r.flags ?? 0;
    if (!Number.isInteger(flags) || flags < 0 || flags > b.flags.length)
      return err(`${p}.flags`, `expected 0 to ${b.flags.length} (the board has ${b.flags.length} flags), found ${flags}`);
    for (const key of ['archive', 'start'] as const) {
      const sq = r[key];
      const why = sq && cannotStand(b, sq[0], sq[1]);
      if (why) return err(`${p}.${key}`, `${why}; expected a square a robot can stand on`);
    }
    for (let k = 0; k < (r.options ?? []).length; k++) {
      const o = r.options![k]!;
      const m = /^(.*?)(?::(\d+))?$/s.exec(o)!;
      if (!rules.options.catalog.includes(m[1]!)) return err(`${p}.options[${k}]`, `"${o}" is not an option of ${rules.name} (expected one of ${rules.options.catalog.join(', ')})`);
      if (m[2] !== undefined && !rules.options.uses[m[1]!]) return err(`${p}.options[${k}]`, `${m[1]} has no uses to count`);
    }
    let fcLocks = 0;
    for (const reg of r.fcLocks ?? []) {
      if (!Number.isInteger(reg) || reg < 1 || reg > 5) return err(`${p}.fcLocks`, 'expected register numbers 1 to 5');
      fcLocks |= 1 << (reg - 1);
    }
    const nLocked = rules.lockedCount(damage);
    let locked = fcLocks;
    for (let reg = 5, n = nLocked; reg >= 1 && n > 0; reg--) {
      if (locked & (1 << (reg - 1))) continue;
      locked |= 1 << (reg - 1);
      n--;
    }
    const registers = [0, 0, 0, 0, 0];
    if (r.program) {
      if (r.program.length !== 5) return err(`${p}.program`, `expected last turn's five cards, found ${r.program.length}`);
      for (let reg = 1; reg <= 5; reg++) if (locked & (1 << (reg - 1))) registers[reg - 1] = r.program[reg - 1]!;
    }
    const start = r.start ?? b.start ?? [r.x, r.y];
    out.push({
      name: r.name, x: r.x, y: r.y, dir: r.dir, damage, lives: l, flags,
      archive: r.archive === undefined ? [r.x, r.y] : r.archive, start,
      status: r.destroyed ? 'destroyed' : 'active',
      virtual: !!r.virtual,
      poweredDown: !!r.poweredDown && !r.destroyed,
      announced: false,
      stayDown: !!r.poweredDown && !r.destroyed, // powered down for the first turn
      takeOption: false, unlock: [], hand: [], registers, locked,
      programmed: false, destroyedAt: r.destroyed ? i - robots.length : 0, reentries: 0,
      options: [...(r.options ?? [])], opt: null,
    });
    const robot = out[out.length - 1]!;
    if (fcLocks) memory(robot).fcLocks = fcLocks;
    // An archive of the start state counts as touched while holding its options (2.25 [def]).
    if (holds(robot, 'Superior Archive')) memory(robot).superior = true;
  }
  for (const [team, members] of Object.entries(setup.settings.teams ?? {}))
    for (const m of members) if (!names.has(m)) return err(`settings.teams.${team}`, `no robot named "${m}" in this race`);
  const seen = new Map<number, number>();
  for (let i = 0; i < out.length; i++) {
    const r = out[i]!;
    if (r.status !== 'active' || r.virtual) continue;
    const c = r.y * b.width + r.x;
    const other = seen.get(c);
    if (other !== undefined)
      return err(`robots[${i}].x`, `${r.name} and ${out[other]!.name} are both real robots on (${r.x},${r.y})`);
    seen.set(c, i);
  }
  const state: GameState = {
    rules: rules.name, turn: 0, phase: 'ended', register: 0, rng: rngFrom(seed),
    deck: [], discard: [], robots: out, finished: [], winTurn: 0, offers: [], dice: [...(setup.settings.diceRule ?? [])], order: [], optionDeck: [], destructions: 0,
  };
  const ctx = makeCtx(setup, state, null);
  if (rules.options.exchange) {
    // classic's option deck, shuffled once with the seed (OPTIONS.md 1.1)
    state.optionDeck = buildOptionDeck(state, setup.settings.optionDeck);
    if (setup.settings.oneFreeOption) freeOptions(ctx);
  }
  rules.init?.(ctx);
  return ok(state);
}

/**
 * A seat at the start of a race: its name, the facing its player chose, its own start if any, and
 * its handicaps (004 L174 "You may also use the options to handicap players"): options held from
 * the start, lives, damage.
 */
export interface Entrant {
  readonly name: string;
  readonly dir?: Dir;
  /** Its own start position (pbem gives each robot one, in pick order); else the board's start. */
  readonly start?: Square;
  /** Handicap: options (upgrades in pbem) it holds from the start; classic takes them out of the option deck. */
  readonly options?: readonly string[];
  /** Handicap: its lives, instead of the race's. */
  readonly lives?: number;
  /** Handicap: damage it starts with. */
  readonly damage?: number;
}

/**
 * A new race. In `classic` every robot starts virtual on the board's start square, an archive
 * location (000 L54-56); with starts of their own (pbem, 001 L333) each starts real on its own.
 * RoboArena starts the robots in the corners (004 L217 "4 robots starting on the 4 corners"), then
 * at the middles of the edges. Robots sharing a square start virtual. The players choose the
 * facing (000 L56), now or once the first hand is dealt (`chooseFacing`, 002 L38-39).
 */
export function newRace(setup: Setup, entrants: readonly Entrant[], seed: Seed): Result<GameState> {
  const arena = setup.settings.variant === 'arena';
  const corners = arena ? arenaStarts(setup.board, entrants.length) : [];
  const at: Square[] = [];
  for (let i = 0; i < entrants.length; i++) {
    const s = entrants[i]!.start ?? (arena ? corners[i] : setup.board.start);
    if (!s) return err(`entrants[${i}].start`, arena ? `the arena has room for ${corners.length} robots in its corners and edges` : 'the board has no start square, so each robot needs its own');
    at.push(s);
  }
  const shared = (i: number) => at.some((s, j) => j !== i && s[0] === at[i]![0] && s[1] === at[i]![1]);
  const own = (p: Entrant) => p.start !== undefined || arena;
  const made = createState(
    setup,
    entrants.map((p, i) => ({
      name: p.name, x: at[i]![0], y: at[i]![1], dir: p.dir ?? (arena ? towardCentre(setup.board, at[i]!) : 0),
      virtual: shared(i), start: at[i]!, archive: own(p) ? null : at[i]!,
      ...(p.options ? { options: p.options } : {}), ...(p.lives !== undefined ? { lives: p.lives } : {}), ...(p.damage !== undefined ? { damage: p.damage } : {}),
    })),
    seed,
  );
  // A start of the entrant's own that no robot may stand on is the entrant's start's fault.
  const where = made.ok ? null : /^robots\[(\d+)\]\.x$/.exec(made.error.field);
  if (!made.ok && where && entrants[Number(where[1])]?.start) return err(`entrants[${where[1]}].start`, made.error.message);
  return made;
}

/**
 * RoboArena's starts (004 L217): the four corners, then the middles of the four edges; each the
 * nearest square to it that a robot may stand on (not a pit, a repulsor field or a hole between
 * boards) and that no earlier start took. Fewer if the floor has fewer squares.
 */
export function arenaStarts(b: Board, n: number): Square[] {
  const w = b.width - 1, h = b.height - 1;
  const aims: Square[] = [[0, 0], [w, 0], [w, h], [0, h], [w >> 1, 0], [w, h >> 1], [w >> 1, h], [0, h >> 1]];
  const out: Square[] = [];
  for (const [ax, ay] of aims.slice(0, n)) {
    let best: Square | null = null;
    let bestD = Infinity;
    for (let y = 0; y < b.height; y++) {
      for (let x = 0; x < b.width; x++) {
        const f = b.floor[y * b.width + x];
        if (f === Floor.Pit || f === Floor.Repulsor || f === Floor.Void) continue;
        if (out.some(([ox, oy]) => ox === x && oy === y)) continue;
        const d = (x - ax) ** 2 + (y - ay) ** 2;
        if (d < bestD) {
          bestD = d;
          best = [x, y];
        }
      }
    }
    if (best) out.push(best);
  }
  return out;
}

/** The facing from a square toward the middle of the board, along its longer way. */
function towardCentre(b: Board, [x, y]: Square): Dir {
  const dx = (b.width - 1) / 2 - x, dy = (b.height - 1) / 2 - y;
  return (Math.abs(dx) >= Math.abs(dy) ? (dx >= 0 ? 1 : 3) : dy >= 0 ? 2 : 0) as Dir;
}

/** True while robot i's player may still choose its starting facing (`chooseFacing`). */
export const facingChoosable = (state: GameState, i: number): boolean =>
  state.turn === 1 && state.phase === 'programming' && state.robots[i]?.status === 'active';

/**
 * The starting facing, chosen by a robot's player once the first hand is dealt (002 L38-39
 * "decides on the direction the robot faces to start once the first hand is dealt"; 000 L56
 * "Players may choose the direction their robots will initially face"): only in the first turn,
 * before the registers begin, and again as often as the player likes until then.
 */
export function chooseFacing(setup: Setup, state: GameState, i: number, dir: Dir): Result<Outcome> {
  void setup;
  const r = state.robots[i];
  if (!r) return err('robot', `no robot number ${i}`);
  if (!facingChoosable(state, i)) return err('facing', 'the starting facing is chosen in the first turn, before its registers begin, for a robot on the floor');
  if (![0, 1, 2, 3].includes(dir)) return err('facing', `expected a facing 0 to 3 (N, E, S, W), found ${JSON.stringify(dir)}`);
  const st = cloneState(state);
  st.robots[i]!.dir = dir;
  return ok({ state: st, events: [{ type: 'faced', robot: i, dir }] });
}
