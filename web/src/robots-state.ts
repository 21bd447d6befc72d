/** The robots a replay shows, as the public view has them, and what each event does to them. */
import { parseDir, type Dir, type GameEvent } from '../../engine/src/index.js';
import type { RobotOnFloor } from '../../render/src/browser.js';

export interface Robot extends RobotOnFloor {
  lives: number;
  flags: number;
  /** It announced a power down for next turn (public once the registers are revealed, 000 L193). */
  announced?: boolean;
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
    case 'becameReal':
      robots[e.robot]!.virtual = false;
      break;
    default:
      break;
  }
}

