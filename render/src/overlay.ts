/**
 * Robots on the floor, and the moves of one turn drawn over it the way 001's moderator drew them
 * (001 L121): "programmed instruction moves as blue arrows and all other moves (pushed or conveyor
 * belts) as green arrows. Rotations are not shown." Laser shots are thin red dashed lines.
 */
import type { Board, GameEvent, RobotState } from '../../engine/src/index.js';
import type { Frame } from './floor.js';
import { el, fmt, pts, transforms, translate } from './svg.js';
import { designOf, fanned, robotGlyph, type RobotLook } from './robots.js';
import { COLORS as K } from './theme.js';

const SIDE = ['N', 'E', 'S', 'W'] as const;
const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;

/** What a picture needs of a robot: the public part of its state, nothing of its hand. */
export type RobotOnFloor = Pick<RobotState, 'name' | 'x' | 'y' | 'dir' | 'damage' | 'status' | 'virtual' | 'poweredDown'> & {
  /** The robot its player chose (an index of ROBOT_DESIGNS); else the robot's index picks one. */
  readonly robot?: number;
  /** It announced a power down, public once the registers are revealed: it powers down next turn (000 L193). */
  readonly announced?: boolean;
};
/** What a picture needs of a game state: its robots (a `GameState` is one), and whose view it is. */
export interface FloorState {
  readonly robots: readonly RobotOnFloor[];
  /** The viewer's own robot, ringed in gold. */
  readonly you?: number;
}

const centre = (f: Frame, x: number, y: number): [number, number] => [f.ox + (x + 0.5) * f.c, f.oy + (y + 0.5) * f.c];

/**
 * The robots on the floor, each in its own design (render/src/robots.ts). Where robots share a
 * square (virtual ones may), they are fanned so each stays visible; the viewer's own robot wears
 * a gold ring.
 */
export function robotsLayer(st: FloorState, f: Frame): string {
  const { c } = f;
  const places = fanned(st.robots);
  const out: string[] = [];
  st.robots.forEach((r: RobotOnFloor, i) => {
    const p = places[i];
    if (!p) return;
    const [cx, cy] = centre(f, r.x, r.y);
    const look: RobotLook = { design: designOf(r.robot, i), dir: r.dir, damage: r.damage, virtual: r.virtual, poweredDown: r.poweredDown, announced: r.announced === true, mine: st.you === i };
    out.push(
      el(
        'g',
        {
          class: r.virtual ? 'robot virtual' : 'robot',
          'data-kind': 'robot',
          'data-robot': i,
          'data-name': r.name,
          'data-design': look.design.name,
          'data-x': r.x,
          'data-y': r.y,
          'data-dir': SIDE[r.dir],
          'data-damage': r.damage,
          'data-announced': r.announced && !r.poweredDown ? 'true' : undefined,
          transform: transforms(translate(cx + p.dx * c, cy + p.dy * c), p.scale === 1 ? undefined : `scale(${p.scale})`),
        },
        robotGlyph(c, look),
      ),
    );
  });
  return out.length ? el('g', { class: 'robots' }, ...out) : '';
}

type Move = Extract<GameEvent, { type: 'moved' | 'slid' | 'teleported' | 'pushed' | 'carried' }>;
const MOVES = new Set(['moved', 'slid', 'teleported', 'pushed', 'carried']);
const isMove = (e: GameEvent): e is Move => MOVES.has(e.type);
/** Moves a robot makes under its own program: blue. All others (pushes, belts): green. */
export const isProgrammed = (type: string): boolean => type === 'moved' || type === 'slid' || type === 'teleported';

interface Segment {
  robot: number;
  type: Move['type'];
  register: number;
  from: [number, number];
  to: [number, number];
  /** Index of its first event in the list. */
  first: number;
  /** One step to a square that is not its neighbour on the picture: a teleport, or over a cube's fold. */
  jump: boolean;
}

const sign = (n: number): number => (n > 0 ? 1 : n < 0 ? -1 : 0);
/** A move of one square to a neighbour on the picture (not a teleport, nor a step over a cube's fold). */
const unit = (from: readonly number[], to: readonly number[]): boolean => Math.abs(to[0]! - from[0]!) + Math.abs(to[1]! - from[1]!) === 1;

/**
 * The moves of the turn, a straight run of one robot's moves of one kind in one register joined.
 * A step that lands elsewhere on the picture (over a cube's fold) is a segment of its own.
 */
export function segments(events: readonly GameEvent[]): Segment[] {
  const out: Segment[] = [];
  const last = new Map<number, Segment>();
  let register = 0;
  events.forEach((e, k) => {
    if (e.type === 'registerBegan') register = e.register;
    if (!isMove(e)) return;
    const prev = last.get(e.robot);
    if (
      prev && prev.type === e.type && e.type !== 'teleported' && prev.register === register && !prev.jump && unit(e.from, e.to) &&
      prev.to[0] === e.from[0] && prev.to[1] === e.from[1] &&
      sign(prev.to[0] - prev.from[0]) === sign(e.to[0] - e.from[0]) && sign(prev.to[1] - prev.from[1]) === sign(e.to[1] - e.from[1])
    ) {
      prev.to = [e.to[0], e.to[1]];
      return;
    }
    const s: Segment = { robot: e.robot, type: e.type, register, from: [e.from[0], e.from[1]], to: [e.to[0], e.to[1]], first: k, jump: !unit(e.from, e.to) };
    out.push(s);
    last.set(e.robot, s);
  });
  return out;
}

/** Where robot i stood when event k happened, from the moves around it, else from the state. */
export function positionAt(events: readonly GameEvent[], k: number, i: number, st?: FloorState): [number, number] | null {
  for (let j = k - 1; j >= 0; j--) {
    const e = events[j]!;
    if (isMove(e) && e.robot === i) return [e.to[0], e.to[1]];
    if (e.type === 'reentered' && e.robot === i) return [e.x, e.y];
  }
  for (let j = k + 1; j < events.length; j++) {
    const e = events[j]!;
    if (isMove(e) && e.robot === i) return [e.from[0], e.from[1]];
  }
  const r = st?.robots[i];
  return r && r.status === 'active' ? [r.x, r.y] : null;
}

/** Whether two moves run along the same row or column over a common stretch. */
function overlapping(p: Segment, q: Segment): boolean {
  const span = (s: Segment, k: 0 | 1): [number, number] => [Math.min(s.from[k], s.to[k]), Math.max(s.from[k], s.to[k])];
  for (const k of [0, 1] as const) {
    const o = 1 - k;
    // Both along axis k, on the same line of the other axis.
    if (p.from[o] !== p.to[o] || q.from[o] !== q.to[o] || p.from[o] !== q.from[o]) continue;
    const [a1, b1] = span(p, k), [a2, b2] = span(q, k);
    if (Math.min(b1, b2) - Math.max(a1, a2) > 0) return true;
  }
  return false;
}

/** A step over a cube's fold: the side it leaves its square by and the way it arrives (the fold turns it), else null. */
function foldStep(b: Board, s: Segment): [number, number] | null {
  const fold = b.fold;
  if (!fold || !s.jump) return null;
  const from = s.from[1] * b.width + s.from[0], to = s.to[1] * b.width + s.to[0];
  for (let d = 0; d < 4; d++) if (fold.across[from * 4 + d] === to) return [d, (d + fold.turn[from * 4 + d]!) & 3];
  return null;
}

/** An arrow with a white casing, so it reads on any floor. */
export function arrow(x1: number, y1: number, x2: number, y2: number, color: string, c: number, dashed = false): string {
  const len = Math.hypot(x2 - x1, y2 - y1);
  if (len < 1) return '';
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const hl = Math.min(c * 0.26, len * 0.6), hw = c * 0.14, sw = c * 0.075;
  const bx = x2 - ux * hl, by = y2 - uy * hl;
  const head = pts([[x2, y2], [bx - uy * hw, by + ux * hw], [bx + uy * hw, by - ux * hw]]);
  const shaft = { x1, y1, x2: bx + ux * 1, y2: by + uy * 1, 'stroke-linecap': 'round' } as const;
  return (
    el('line', { ...shaft, stroke: '#ffffff', 'stroke-width': sw + 3.5, 'stroke-opacity': 0.9 }) +
    el('polygon', { points: head, fill: '#ffffff', stroke: '#ffffff', 'stroke-width': 3.5, 'stroke-linejoin': 'round', 'fill-opacity': 0.9, 'stroke-opacity': 0.9 }) +
    el('line', { ...shaft, stroke: color, 'stroke-width': sw, 'stroke-dasharray': dashed ? `${fmt(c * 0.14)} ${fmt(c * 0.09)}` : undefined }) +
    el('polygon', { points: head, fill: color })
  );
}

/** A thin red dashed line for a laser shot, ending in a burst on the robot hit. */
export function shotLine(x1: number, y1: number, x2: number, y2: number, c: number): string {
  const star: [number, number][] = [];
  for (let k = 0; k < 16; k++) {
    const a = (k * Math.PI) / 8;
    const r = k % 2 ? c * 0.06 : c * 0.15;
    star.push([x2 + r * Math.cos(a), y2 + r * Math.sin(a)]);
  }
  return beamLine(x1, y1, x2, y2) + el('polygon', { points: pts(star), fill: '#ffeb3b', stroke: K.shot, 'stroke-width': 1.2 });
}

/** The line of a laser shot, without its burst. */
function beamLine(x1: number, y1: number, x2: number, y2: number): string {
  return (
    el('line', { x1, y1, x2, y2, stroke: '#ffffff', 'stroke-width': 3.5, 'stroke-opacity': 0.7 }) +
    el('line', { x1, y1, x2, y2, stroke: K.shot, 'stroke-width': 1.6, 'stroke-dasharray': '5 3' })
  );
}

/**
 * A beam from `from` that reaches `to` only over a cube's fold (inside the cube, 004 L179): the last
 * square before the fold, the side the beam leaves it by and the way it arrives; else null.
 */
function foldBeam(b: Board, from: readonly number[], to: readonly number[]): { last: [number, number]; leave: number; into: number } | null {
  const fold = b.fold;
  if (!fold) return null;
  const t = to[1]! * b.width + to[0]!;
  for (let d = 0; d < 4; d++) {
    for (let x = from[0]!, y = from[1]!; x >= 0 && y >= 0 && x < b.width && y < b.height; x += DX[d]!, y += DY[d]!) {
      const c = y * b.width + x;
      if (!fold.edge[c * 4 + d]) continue;
      if (fold.across[c * 4 + d] === t) return { last: [x, y], leave: d, into: (d + fold.turn[c * 4 + d]!) & 3 };
      break;
    }
  }
  return null;
}

/** A red cross where a robot was destroyed. */
export function destroyedMark(x: number, y: number, c: number): string {
  const r = c * 0.2;
  const line = (a: number, b: number) => el('line', { x1: x - r * a, y1: y - r * b, x2: x + r * a, y2: y + r * b, stroke: K.destroyed, 'stroke-width': c * 0.08, 'stroke-linecap': 'round' });
  const cas = (a: number, b: number) => el('line', { x1: x - r * a, y1: y - r * b, x2: x + r * a, y2: y + r * b, stroke: '#ffffff', 'stroke-width': c * 0.08 + 3, 'stroke-linecap': 'round' });
  return cas(1, 1) + cas(1, -1) + line(1, 1) + line(1, -1);
}

/** The events of one turn over the floor: moves as arrows, shots, destructions. Drawn under the robots. */
export function overlayLayer(b: Board, events: readonly GameEvent[], st: FloorState | undefined, f: Frame): string {
  const { c } = f;
  const out: string[] = [];
  // A square off the board (a robot that left it) is drawn just past the edge, inside the margin.
  const clampX = (x: number) => Math.min(Math.max(x, f.ox - c * 0.3), f.ox + b.width * c + c * 0.3);
  const clampY = (y: number) => Math.min(Math.max(y, f.oy - c * 0.3), f.oy + b.height * c + c * 0.3);
  const center = (x: number, y: number): [number, number] => {
    const [px, py] = centre(f, x, y);
    return [clampX(px), clampY(py)];
  };
  // Robots are drawn over the arrows: an arrow into a robot's square stops at its rim.
  const occupied = new Set<string>();
  for (const r of st?.robots ?? []) if (r.status === 'active') occupied.add(`${r.x},${r.y}`);
  // Arrows over the same squares are set side by side.
  const used = new Map<string, number>();
  const all = segments(events);
  for (const s of all) {
    const blue = isProgrammed(s.type);
    const [a, bb] = [s.from.join(','), s.to.join(',')].sort();
    const key = `${a}|${bb}`;
    const n = used.get(key) ?? 0;
    used.set(key, n + 1);
    // A push or belt move along another robot's line in the same register (a robot pushed ahead
    // of its pusher) would lie under that robot's arrow: it is drawn beside it.
    const beside = !blue && n === 0 && all.some((o) => o !== s && o.robot !== s.robot && o.register === s.register && overlapping(o, s));
    const off = beside ? c * 0.2 : (n % 2 ? 1 : -1) * Math.ceil(n / 2) * c * 0.14;
    const color = blue ? K.programmed : K.pushed;
    const attrs = {
      class: blue ? 'move programmed' : 'move pushed', 'data-kind': 'move', 'data-event': s.type, 'data-robot': s.robot, 'data-register': s.register,
      'data-from': s.from.join(','), 'data-to': s.to.join(','),
    };
    const over = s.type === 'teleported' ? null : foldStep(b, s);
    if (over) {
      // Over a cube's fold (004 L179) the square entered lies elsewhere on the flat picture: the
      // arrow leaves by the edge crossed and comes in again by the edge across, with no line between.
      const [leave, into] = over;
      const [fx, fy] = centre(f, s.from[0], s.from[1]);
      const [tx, ty] = centre(f, s.to[0], s.to[1]);
      const stop = occupied.has(s.to.join(',')) ? c * 0.3 : c * 0.16;
      out.push(el('g', { ...attrs, 'data-fold': `${SIDE[leave]}-${SIDE[into]}` },
        arrow(fx, fy, fx + DX[leave]! * c * 0.5, fy + DY[leave]! * c * 0.5, color, c),
        arrow(tx - DX[into]! * c * 0.5, ty - DY[into]! * c * 0.5, tx - DX[into]! * stop, ty - DY[into]! * stop, color, c)));
      continue;
    }
    let [x1, y1] = center(s.from[0], s.from[1]);
    let [x2, y2] = center(s.to[0], s.to[1]);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    // Side by side when over the same squares; the head stops short of the square's centre.
    const short = occupied.has(s.to.join(',')) ? c * 0.38 : c * 0.16;
    x1 -= uy * off; y1 += ux * off;
    x2 += -uy * off - ux * short; y2 += ux * off - uy * short;
    out.push(el('g', attrs, arrow(x1, y1, x2, y2, color, c, s.type === 'teleported')));
  }
  events.forEach((e, k) => {
    if (e.type === 'shot') {
      const target = e.to;
      const over = foldBeam(b, e.from, target);
      if (over) {
        // Over a cube's fold: to the edge crossed, then in again from the edge across.
        const [sx, sy] = centre(f, e.from[0], e.from[1]);
        const [lx, ly] = centre(f, over.last[0], over.last[1]);
        const [tx, ty] = centre(f, target[0], target[1]);
        const d = over.leave, a = over.into;
        const start = 'laser' in e.by ? -0.3 : 0.3;
        out.push(el('g', { class: 'shot', 'data-kind': 'shot', 'data-robot': e.robot, 'data-points': e.points, 'data-from': e.from.join(','), 'data-to': target.join(','), 'data-fold': `${SIDE[d]}-${SIDE[a]}` },
          beamLine(sx + DX[d]! * c * start, sy + DY[d]! * c * start, lx + DX[d]! * c * 0.5, ly + DY[d]! * c * 0.5),
          shotLine(tx - DX[a]! * c * 0.5, ty - DY[a]! * c * 0.5, tx - DX[a]! * c * 0.36, ty - DY[a]! * c * 0.36, c)));
        return;
      }
      let [x1, y1] = center(e.from[0], e.from[1]);
      let [x2, y2] = center(target[0], target[1]);
      if ('laser' in e.by) {
        const l = b.lasers[e.by.laser];
        if (l) { x1 -= DX[l.dir]! * c * 0.3; y1 -= DY[l.dir]! * c * 0.3; }
      } else {
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        x1 += ((x2 - x1) / len) * c * 0.3; y1 += ((y2 - y1) / len) * c * 0.3;
      }
      // The burst on the robot's rim facing the shot, not over its letter.
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      x2 -= ((x2 - x1) / len) * c * 0.36; y2 -= ((y2 - y1) / len) * c * 0.36;
      out.push(el('g', { class: 'shot', 'data-kind': 'shot', 'data-robot': e.robot, 'data-points': e.points, 'data-from': e.from.join(','), 'data-to': target.join(',') }, shotLine(x1, y1, x2, y2, c)));
    } else if (e.type === 'destroyed') {
      const p = positionAt(events, k, e.robot, st);
      if (!p) return;
      const [x, y] = center(p[0], p[1]);
      out.push(el('g', { class: 'destroyed', 'data-kind': 'destroyed', 'data-robot': e.robot, 'data-cause': e.cause, 'data-x': p[0], 'data-y': p[1] }, destroyedMark(x, y, c)));
    }
  });
  return out.length ? el('g', { class: 'overlay' }, ...out) : '';
}
