/**
 * Builders for the bots' tests: random games (boards of the testkit, robots damaged, locked,
 * powered down, destroyed, virtual, in both rule sets) and small hand-made floors.
 */
import {
  CARD_TYPES, DECK, beginTurn, cardType, createState, instruction, makeSetup, parseBoard, type BoardJson, type Card, type CardType, type GameState, type RobotInit, type Setup,
} from '../../engine/src/index.js';
import { Rand, randomBoard, randomRobots } from '../../testkit/src/index.js';

export function must<T>(r: { ok: true; value: T } | { ok: false; error: { field: string; message: string } }): T {
  if (!r.ok) throw new Error(`refused: ${r.error.field}: ${r.error.message}`);
  return r.value;
}

export function setupOf(board: BoardJson, rules: 'classic' | 'pbem' = 'classic', lives = 3): Setup {
  return must(makeSetup(must(parseBoard(board)), rules, { lives }));
}

/**
 * A random game before its first turn: a board of the testkit (on one game in two with the
 * expansion elements), 1 to 6 robots scattered over it, some damaged (in pbem up to 21 points),
 * with last turn's cards in their locked registers, some powered down, some destroyed, some
 * virtual; few lives, so that some robots run out of them.
 */
export function randomGame(seed: number, rules: 'classic' | 'pbem'): { setup: Setup; state: GameState } {
  const rnd = new Rand(seed);
  const expansion = rnd.chance(0.5);
  const board = randomBoard(rnd.fork(), {
    width: rnd.range(5, 12), height: rnd.range(5, 12), flags: rnd.range(1, 3), lasers: rnd.range(0, 4), pushers: rnd.range(0, 2),
    crushers: rnd.range(0, 2), pitRate: rnd.pick([0, 0.05, 0.12]),
    ...(expansion ? { oil: rnd.range(0, 4), portals: rnd.range(0, 2), repulsors: rnd.range(0, 2), ledges: rnd.range(0, 3) } : {}),
  });
  const setup = setupOf(board, rules, rnd.range(1, 3));
  let robots: RobotInit[] = randomRobots(setup.board, rnd.range(1, 6), rnd.fork(), {
    virtuals: true, damage: true, programs: setup.rules.priorities, poweredDown: true, destroyed: true,
  });
  if (!setup.rules.priorities) {
    // Instructions without priorities (pbem): higher damage, and last turn's programs of instructions.
    robots = robots.map((r) => {
      if (!rnd.chance(0.5)) return r;
      const damage = rnd.range(0, 21);
      const program = Array.from({ length: 5 }, () => instruction(rnd.pick(CARD_TYPES)));
      return { ...r, damage, program };
    });
  }
  return { setup, state: must(createState(setup, robots, rnd.u32())) };
}

/** A floor of plain squares, `w` by `h`, with a flag and the cells given ("x,y": token). */
export function plainBoard(w: number, h: number, cells: Record<string, string>, flags: [number, number][], extra: Partial<BoardJson> = {}): BoardJson {
  const grid: string[] = [];
  for (let y = 0; y < h; y++) {
    const row: string[] = [];
    for (let x = 0; x < w; x++) row.push(cells[`${x},${y}`] ?? '.');
    grid.push(row.join(' '));
  }
  return { grid, flags, ...extra };
}

/** A dealt state, with one robot that decides in it. */
export interface Decision {
  readonly setup: Setup;
  readonly st: GameState;
  readonly i: number;
}

/** The decisions of a dealt state: each robot on the floor, powered up, with a hand to program (and accepted by `keep`). */
export function deciders(setup: Setup, st: GameState, keep: (i: number) => boolean = () => true): Decision[] {
  const out: Decision[] = [];
  st.robots.forEach((r, i) => {
    if (r.status === 'active' && !r.poweredDown && r.hand.length >= 5 && keep(i)) out.push({ setup, st, i });
  });
  return out;
}

/** The decisions of random games as dealt (seeds 1 to 24, classic and pbem in turn). */
export function randomDecisions(): Decision[] {
  const out: Decision[] = [];
  for (let seed = 1; seed <= 24; seed++) {
    const g = randomGame(seed, seed % 2 ? 'classic' : 'pbem');
    out.push(...deciders(g.setup, must(beginTurn(g.setup, g.state)).state));
  }
  return out;
}

/** One classic card of each named type, none twice (`F1 F1 R` gives two different Move 1s). */
export function hand(types: readonly CardType[]): Card[] {
  const used = new Set<Card>();
  return types.map((t) => {
    const c = DECK.find((d) => cardType(d) === t && !used.has(d))!;
    used.add(c);
    return c;
  });
}
