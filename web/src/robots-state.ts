/** The robots a replay shows, as the public view has them, and what each event does to them. */
import { ordinal, parseDir, type Dir, type GameEvent } from '../../engine/src/index.js';
import type { RobotOnFloor } from '../../render/src/browser.js';

export interface Robot extends RobotOnFloor {
  lives: number;
  flags: number;
  /** It announced a power down for next turn (public once the registers are revealed, 000 L193). */
  announced?: boolean;
  /** Its finishing place, once it has touched the last flag (the `finished` event). */
  finished?: number;
}

/** What the public view says of a robot (web/src/api.ts's PublicRobot has more). */
type ViewRobot = Omit<Robot, 'dir'> & { dir: 'N' | 'E' | 'S' | 'W' };

/** The robots of a view; `designs` are the robots their seats chose (render/src/robots.ts), by seat. */
export const robotsFromView = (rs: readonly ViewRobot[], designs: readonly (number | undefined)[] = []): Robot[] =>
  rs.map((r, k) => ({
    name: r.name, x: r.x, y: r.y, dir: parseDir(r.dir) as Dir, damage: r.damage, status: r.status, virtual: r.virtual, poweredDown: r.poweredDown, lives: r.lives, flags: r.flags,
    ...(designs[k] !== undefined ? { robot: designs[k] } : {}),
  }));

/** What an event does to the robots a picture shows. */
export function apply(robots: Robot[], e: GameEvent): void {
  switch (e.type) {
    case 'moved': case 'pushed': case 'carried': case 'slid': case 'teleported': {
      const r = robots[e.robot]!;
      [r.x, r.y] = e.to;
      break;
    }
    case 'turned':
      robots[e.robot]!.dir = e.to;
      break;
    case 'damaged': case 'repaired':
      robots[e.robot]!.damage = e.damage;
      break;
    case 'destroyed':
      // A power down announced is cancelled by destruction (001 L75).
      Object.assign(robots[e.robot]!, { status: 'destroyed', lives: e.lives, announced: false });
      break;
    case 'powerDownAnnounced':
      robots[e.robot]!.announced = true;
      break;
    case 'out':
      robots[e.robot]!.status = 'out';
      break;
    case 'reentered':
      Object.assign(robots[e.robot]!, { status: 'active', x: e.x, y: e.y, dir: e.dir, damage: e.damage, virtual: e.virtual, poweredDown: e.poweredDown });
      break;
    case 'poweredDown':
      Object.assign(robots[e.robot]!, { poweredDown: true, announced: false });
      break;
    case 'poweredUp':
      robots[e.robot]!.poweredDown = false;
      break;
    case 'flagTouched':
      robots[e.robot]!.flags = e.flag;
      break;
    case 'finished':
      robots[e.robot]!.finished = e.place;
      break;
    case 'becameReal':
      robots[e.robot]!.virtual = false;
      break;
    default:
      break;
  }
}


/**
 * A robot's finishing place from a view's `finished` (names, in groups that finished together), or
 * undefined when it has not finished.
 */
export function placeOf(finished: readonly (readonly string[])[], name: string): number | undefined {
  let place = 1;
  for (const g of finished) {
    if (g.includes(name)) return place;
    place += g.length;
  }
  return undefined;
}

/**
 * A robot's state in words, as the table of robots says it. A robot that finished is "finished 1st"
 * (its place) whatever befell it after the last flag: it may still fall or be shot later in the
 * turn it finished, or while the race plays on for the runners-up, and it stays the winner it is.
 * Else out, destroyed, powered down, or a power down announced (empty: racing).
 */
export function stateWords(r: { status: string; poweredDown: boolean; announced?: boolean }, place: number | undefined): string {
  if (place !== undefined) return `finished ${ordinal(place)}`;
  return r.status === 'out' ? 'out' : r.status === 'destroyed' ? 'destroyed' : r.poweredDown ? 'powered down' : r.announced ? 'announced a power down' : '';
}
