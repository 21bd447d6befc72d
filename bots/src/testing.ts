/**
 * Builders for the bots' tests: random games (boards of the testkit, robots damaged, locked,
 * powered down, destroyed, virtual, in both rule sets) and small hand-made floors.
 */
import {
  CARD_TYPES, createState, instruction, makeSetup, parseBoard, type BoardJson, type GameState, type RobotInit, type Setup,
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
