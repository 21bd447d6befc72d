/**
 * Course validation: what makes a course unfit to race on, each problem with its position and the
 * reason (000 L52-54; 004 L91, L113, L116).
 */
import { Floor } from './board.js';
import type { Course } from './course.js';
import { makeSetup } from './game.js';
import type { Square } from './geometry.js';
import { LoneRobot, registersTo } from './paths.js';

const FLOOR_NAMES: Record<number, string> = {
  [Floor.Pit]: 'a pit', [Floor.Belt]: 'a conveyor belt', [Floor.Express]: 'an express belt', [Floor.GearRight]: 'a gear',
  [Floor.GearLeft]: 'a gear', [Floor.Wrench]: 'a repair site', [Floor.DoubleWrench]: 'a two-wrench site', [Floor.Oil]: 'oil',
  [Floor.Portal]: 'a portal', [Floor.Repulsor]: 'a repulsor field', [Floor.ChopShop]: 'a chop shop',
};

export interface Problem {
  /** The square concerned, in course squares, if any. */
  readonly at: Square | null;
  /** The course file's field concerned, as the readers name fields: `boards[1]`, `flags[0]`, `start`, `starts[2]`. */
  readonly field: string;
  readonly message: string;
}

/** Everything wrong with a composed course; an empty list means it is fit to race on. */
export function validateCourse(course: Course): Problem[] {
  const problems: Problem[] = [];
  const b = course.board;
  const w = b.width;
  const at = (x: number, y: number) => b.floor[y * w + x]!;

  // The boards must meet: every board touches the others along an edge (a cube's, at its seams).
  const owner = course.boardAt;
  const links = course.boards.map(() => new Set<number>());
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < w; x++) {
      const a = owner[y * w + x]!;
      if (a < 0) continue;
      for (const [nx, ny] of [[x + 1, y], [x, y + 1]] as const) {
        if (nx >= w || ny >= b.height) continue;
        const c = owner[ny * w + nx]!;
        if (c >= 0 && c !== a) {
          links[a]!.add(c);
          links[c]!.add(a);
        }
      }
    }
  }
  const reached = new Set<number>([0]);
  for (const todo = [0]; todo.length; ) for (const n of links[todo.pop()!]!) if (!reached.has(n)) (reached.add(n), todo.push(n));
  // A cube's boards meet at its seams, wherever the course lays them (004 L179).
  if (!b.fold) course.boards.forEach((p, k) => {
    if (!reached.has(k)) problems.push({ at: [p.x, p.y], field: `boards[${k}]`, message: `board "${p.board}" at (${p.x},${p.y}) does not meet the other boards along an edge` });
  });

  // Flags: not on a pit, belt, pusher square or crusher (004 L116), nor in a corner of two walls (000 L54).
  course.flags.forEach(([x, y], k) => {
    const f = at(x, y);
    const where = `flag ${k + 1} at (${x},${y})`;
    const field = `flags[${k}]`;
    if (f === Floor.Pit) problems.push({ at: [x, y], field, message: `${where} is on a pit` });
    if (f === Floor.Belt || f === Floor.Express) problems.push({ at: [x, y], field, message: `${where} is on a conveyor belt` });
    if (f === Floor.Repulsor) problems.push({ at: [x, y], field, message: `${where} is on a repulsor field, which no robot can enter` });
    if (b.pushers.some((p) => p.x === x && p.y === y)) problems.push({ at: [x, y], field, message: `${where} is on a pusher's square` });
    if (b.crushers.some((c) => c.x === x && c.y === y)) problems.push({ at: [x, y], field, message: `${where} is under a crusher` });
    const walls = b.walls[y * w + x]!;
    for (let d = 0; d < 4; d++) {
      const e = (d + 1) & 3;
      if (walls & (1 << d) && walls & (1 << e)) {
        problems.push({ at: [x, y], field, message: `${where} is in a corner of two walls (${'NESW'[d]} and ${'NESW'[e]})` });
        break;
      }
    }
  });

  // The start (classic) is an archive location: a repair site (000 L54; 004 L113).
  if (course.start) {
    const [x, y] = course.start;
    const f = at(x, y);
    if (f !== Floor.Wrench && f !== Floor.DoubleWrench && !b.flagAt[y * w + x])
      problems.push({ at: [x, y], field: 'start', message: `the start (${x},${y}) is not an archive location (a repair site)` });
    // 000 L54 "choose one of the repair sites on the first board as the starting position"
    if (course.boardAt[y * w + x] !== 0) problems.push({ at: [x, y], field: 'start', message: `the start (${x},${y}) is not on the first board, "${course.boards[0]!.board}"` });
  }
  // pbem: a start per robot (001 L333), each on plain floor of its own (at most eight: parseCourse).
  const seen = new Set<string>();
  course.starts.forEach(([x, y], k) => {
    const f = at(x, y);
    const where = `start ${k + 1} at (${x},${y})`;
    const field = `starts[${k}]`;
    if (f !== Floor.Plain) problems.push({ at: [x, y], field, message: `${where} is not on plain floor (${FLOOR_NAMES[f] ?? 'an element'})` });
    if (b.flagAt[y * w + x]) problems.push({ at: [x, y], field, message: `${where} is on flag ${b.flagAt[y * w + x]}` });
    if (seen.has(`${x},${y}`)) problems.push({ at: [x, y], field, message: `${where} is another start's square too` });
    seen.add(`${x},${y}`);
  });

  // Each flag can be reached from the one before (the first from the start): 004 L91 "it is
  // possible for a robot to get from the start to each of the checkpoints in order".
  const setup = makeSetup(b, course.start ? 'classic' : 'pbem');
  if (setup.ok && !problems.length) {
    const lone = new LoneRobot(setup.value);
    let from: Square[] = course.start ? [course.start] : course.starts.slice();
    course.flags.forEach((flag, k) => {
      if (registersTo(setup.value, from, flag, lone) === null)
        problems.push({ at: flag, field: `flags[${k}]`, message: `flag ${k + 1} at (${flag[0]},${flag[1]}) cannot be reached from ${k ? `flag ${k}` : 'the start'}` });
      from = [flag];
    });
  }
  return problems;
}
