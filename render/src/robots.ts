/**
 * The eight robots a player can race: each a body of its own shape and colour, drawn facing north
 * about (0, 0) so it can be turned (the web's replay rotates the body alone), with eyes and a
 * nose at its front. The same drawings serve the web board, the SVG and PNG pictures (mails too)
 * and their legend, so a robot looks the same everywhere.
 */
import { el, pts, rotate, text, translate } from './svg.js';
import { COLORS as K, FONT_FAMILY } from './theme.js';
import { label } from './tiles.js';

export interface RobotDesign {
  readonly name: string;
  readonly color: string;
  /** The body's outline for a cell of size c, facing north, about (0, 0). */
  readonly body: (c: number, paint: Paint) => string;
}

interface Paint {
  readonly fill: string;
  readonly stroke: string;
  readonly 'stroke-width': number;
  readonly 'fill-opacity'?: number;
  readonly 'stroke-dasharray'?: string;
}

const polygon = (c: number, p: Paint, points: [number, number][]) => el('polygon', { points: pts(points.map(([x, y]) => [x * c, y * c])), ...p, 'stroke-linejoin': 'round' });
const regular = (n: number, r: number, turn = 0): [number, number][] =>
  Array.from({ length: n }, (_, k) => {
    const a = ((k + turn) * 2 * Math.PI) / n - Math.PI / 2;
    return [r * Math.cos(a), r * Math.sin(a)];
  });

export const ROBOT_DESIGNS: readonly RobotDesign[] = [
  { name: 'Rivet', color: '#e53935', body: (c, p) => el('circle', { cx: 0, cy: 0, r: c * 0.32, ...p }) },
  { name: 'Bolt', color: '#1e88e5', body: (c, p) => el('rect', { x: -c * 0.29, y: -c * 0.29, width: c * 0.58, height: c * 0.58, rx: c * 0.08, ...p }) },
  { name: 'Sprocket', color: '#fdd835', body: (c, p) => polygon(c, p, regular(8, 0.33, 0.5)) },
  { name: 'Gizmo', color: '#8e24aa', body: (c, p) => polygon(c, p, regular(6, 0.34)) },
  {
    name: 'Piston', color: '#fb8c00',
    // A tank: a hull between two treads.
    body: (c, p) => el('rect', { x: -c * 0.34, y: -c * 0.3, width: c * 0.16, height: c * 0.6, rx: c * 0.05, ...p, fill: '#37474f' }) +
      el('rect', { x: c * 0.18, y: -c * 0.3, width: c * 0.16, height: c * 0.6, rx: c * 0.05, ...p, fill: '#37474f' }) +
      el('rect', { x: -c * 0.2, y: -c * 0.24, width: c * 0.4, height: c * 0.5, rx: c * 0.06, ...p }),
  },
  { name: 'Widget', color: '#00acc1', body: (c, p) => polygon(c, p, [[0, -0.36], [0.33, 0.28], [0, 0.18], [-0.33, 0.28]]) },
  { name: 'Cog', color: '#6d4c41', body: (c, p) => polygon(c, p, [[0, -0.36], [0.33, 0], [0, 0.36], [-0.33, 0]]) },
  { name: 'Servo', color: '#ec407a', body: (c, p) => polygon(c, p, [[0, -0.35], [0.31, -0.1], [0.31, 0.3], [-0.31, 0.3], [-0.31, -0.1]]) },
];

/** The design of a robot: the one it chose, else by its index in the race. */
export const designOf = (chosen: number | undefined, index: number): RobotDesign =>
  ROBOT_DESIGNS[((chosen ?? index) % ROBOT_DESIGNS.length + ROBOT_DESIGNS.length) % ROBOT_DESIGNS.length]!;

export interface RobotLook {
  readonly design: RobotDesign;
  readonly dir: number;
  readonly damage: number;
  readonly virtual: boolean;
  readonly poweredDown: boolean;
  /** A power down announced for next turn: an amber PD, dashed. */
  readonly announced?: boolean;
  /** The player's own robot: a gold ring around it. */
  readonly mine?: boolean;
}

/** The body alone, facing north about (0, 0): its shape, eyes and a nose at the front. */
export function robotBody(c: number, d: RobotDesign, virtual: boolean): string {
  const paint: Paint = { fill: d.color, stroke: K.ink, 'stroke-width': 2, ...(virtual ? { 'fill-opacity': 0.5, 'stroke-dasharray': '4 3' } : {}) };
  const eye = (x: number) => el('circle', { cx: x * c, cy: -c * 0.1, r: c * 0.065, fill: '#ffffff', stroke: K.ink, 'stroke-width': 1.2 }) +
    el('circle', { cx: x * c, cy: -c * 0.12, r: c * 0.028, fill: K.ink });
  return (
    el('ellipse', { cx: c * 0.02, cy: c * 0.04, rx: c * 0.33, ry: c * 0.33, fill: '#000000', 'fill-opacity': 0.22 }) +
    d.body(c, paint) +
    eye(-0.1) + eye(0.1) +
    // The nose, over the rim, points where the robot faces.
    el('polygon', { points: pts([[0, -c * 0.5], [c * 0.13, -c * 0.3], [-c * 0.13, -c * 0.3]]), fill: K.ink, stroke: '#ffffff', 'stroke-width': 1.5, 'stroke-linejoin': 'round', 'fill-opacity': virtual ? 0.5 : undefined })
  );
}

/**
 * A robot about (0, 0) for a cell of size c: its body turned where it faces (in a group of class
 * `body`, the part a replay rotates), its damage in a red badge, PD when powered down (amber and
 * dashed when a power down is announced for next turn), a gold ring when it is the player's own.
 */
export function robotGlyph(c: number, r: RobotLook): string {
  const parts = [
    r.mine ? el('circle', { class: 'mine', cx: 0, cy: 0, r: c * 0.45, fill: 'none', stroke: '#ffb300', 'stroke-width': Math.max(3, c * 0.07) }) : '',
    el('g', { class: 'body', transform: rotate(r.dir, 0, 0) }, robotBody(c, r.design, r.virtual)),
  ];
  if (r.damage > 0) {
    parts.push(
      el('circle', { cx: c * 0.28, cy: c * 0.28, r: c * 0.13, fill: '#c62828', stroke: '#ffffff', 'stroke-width': 1.5 }),
      label(String(r.damage), c * 0.28, c * 0.28, c * 0.16, '#ffffff'),
    );
  }
  if (r.poweredDown) {
    parts.push(
      el('rect', { x: -c * 0.44, y: c * 0.17, width: c * 0.3, height: c * 0.2, rx: c * 0.04, fill: '#424242', stroke: '#ffffff', 'stroke-width': 1 }),
      label('PD', -c * 0.29, c * 0.27, c * 0.13, '#ffffff'),
    );
  } else if (r.announced) {
    parts.push(
      el('rect', { class: 'announced', x: -c * 0.44, y: c * 0.17, width: c * 0.3, height: c * 0.2, rx: c * 0.04, fill: '#ffb300', stroke: K.ink, 'stroke-width': 1, 'stroke-dasharray': '3 2' }),
      label('PD', -c * 0.29, c * 0.27, c * 0.13, K.ink),
    );
  }
  return parts.join('');
}

/**
 * Where each robot sharing a square is drawn: the first real robot at the centre; the others
 * (virtual robots may share: all of them at a classic start) on a ring around it, each whole, apart
 * from the others and at a size one can tell it by (at least 0.7 of a lone robot's): when many
 * share, the ring is wider than the square and they spill over the squares around. Offsets are in
 * cells; `scale` is the size of the glyph.
 */
export function fanned<R extends { x: number; y: number; status: string; virtual: boolean }>(robots: readonly R[]): ({ dx: number; dy: number; scale: number } | null)[] {
  const byCell = new Map<string, number[]>();
  robots.forEach((r, i) => {
    if (r.status !== 'active') return;
    const key = `${r.x},${r.y}`;
    byCell.set(key, [...(byCell.get(key) ?? []), i]);
  });
  const out: ({ dx: number; dy: number; scale: number } | null)[] = robots.map(() => null);
  // A body's radius at scale 1, in cells (robotBody), and the room left between two.
  const body = 0.34, gap = 0.03;
  for (const list of byCell.values()) {
    list.sort((a, b) => Number(robots[a]!.virtual) - Number(robots[b]!.virtual) || a - b);
    const centred = !robots[list[0]!]!.virtual || list.length === 1;
    const middle = 0.85, ringScale = centred ? 0.7 : 0.85;
    // The others on a ring around the centre, as many as there are, neighbours not touching (nor the one in the middle).
    const n = centred ? list.length - 1 : list.length;
    const apart = n > 1 ? (body * ringScale + gap / 2) / Math.sin(Math.PI / n) : 0;
    const rr = Math.max(apart, centred ? body * (middle + ringScale) + gap : 0.3);
    list.forEach((i, k) => {
      if (list.length === 1) out[i] = { dx: 0, dy: 0, scale: 1 };
      else if (centred && k === 0) out[i] = { dx: 0, dy: 0, scale: middle };
      else {
        const j = centred ? k - 1 : k;
        const a = (j * 2 * Math.PI) / n - (3 * Math.PI) / 4;
        out[i] = { dx: round(rr * Math.cos(a)), dy: round(rr * Math.sin(a)), scale: ringScale };
      }
    });
  }
  return out;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** A legend of the race's robots: each one drawn, with its player's name and its robot's. */
export function robotLegend(c: number, robots: readonly { name: string; robot?: number }[], width: number, x0: number, y0: number): { svg: string; height: number } {
  const icon = Math.round(c * 0.7);
  const cellW = icon + Math.round(c * 2.9);
  const columns = Math.max(1, Math.floor((width - 2 * x0) / cellW));
  const size = Math.max(9, c * 0.22);
  const out = robots.map((r, i) => {
    const d = designOf(r.robot, i);
    const x = x0 + (i % columns) * cellW, y = y0 + Math.floor(i / columns) * (icon + 4);
    return el('g', { 'data-kind': 'robot-legend', 'data-robot': i, 'data-design': d.name, transform: translate(x, y) },
      el('g', { transform: translate(icon / 2, icon / 2) }, robotBody(icon, d, false)),
      text(`${r.name} (${d.name})`, { x: icon + c * 0.12, y: icon / 2 + size * 0.36, 'font-size': size, fill: K.ink, 'font-family': FONT_FAMILY }));
  });
  const rows = Math.ceil(robots.length / columns);
  return { svg: el('g', { class: 'robot-legend' }, ...out), height: rows * (icon + 4) };
}
