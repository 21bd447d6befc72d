/**
 * The factory floor of a board as SVG layers: cells, ledges and ramps, the start, laser beams,
 * crushers and flags, walls, and what hangs on walls (laser mounts, pushers). Every element
 * carries `data-kind` (and where it stands) so tests and tools can find it.
 */
import { Floor, type Board } from '../../engine/src/index.js';
import { COLORS as K, PORTAL_COLORS } from './theme.js';
import { el, fmt, text, translate } from './svg.js';
import {
  beltTile, chopShopTile, crusherMark, doubleWrenchTile, flagMark, floorTile, gearTile, laserMount, ledgeMark, oilTile, pitTile,
  portalTile, pusherMark, rampMark, registerList, repulsorTile, startMark, wrenchTile, type Dir4, type Feed,
} from './tiles.js';

const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;
const SIDE = ['N', 'E', 'S', 'W'] as const;
const back = (d: number): Dir4 => ((d + 2) & 3) as Dir4;

/** Where the board is drawn: its top-left corner and the cell size. */
export interface Frame {
  readonly ox: number;
  readonly oy: number;
  readonly c: number;
}

/** The known floors; any other value (such as `Floor.Void`) is no floor and is left undrawn. */
const FLOOR_KIND: Record<number, string> = {
  [Floor.Plain]: 'floor',
  [Floor.Pit]: 'pit',
  [Floor.Belt]: 'belt',
  [Floor.Express]: 'belt',
  [Floor.GearRight]: 'gear',
  [Floor.GearLeft]: 'gear',
  [Floor.Wrench]: 'wrench',
  [Floor.DoubleWrench]: 'wrench2',
  [Floor.Oil]: 'oil',
  [Floor.Portal]: 'portal',
  [Floor.Repulsor]: 'repulsor',
  [Floor.ChopShop]: 'chopshop',
};

/** True where the cell has floor (a known floor value); void and unknown values have none. */
export const isFloor = (b: Board, x: number, y: number): boolean =>
  x >= 0 && y >= 0 && x < b.width && y < b.height && FLOOR_KIND[b.floor[y * b.width + x]!] !== undefined;

const isBelt = (f: number): boolean => f === Floor.Belt || f === Floor.Express;

/** Whether the belt cell at (x, y) is fed by a belt on side `side` pointing at it, with no wall between. */
function feeds(b: Board, x: number, y: number, side: number): boolean {
  if (b.walls[y * b.width + x]! & (1 << side)) return false;
  const nx = x + DX[side]!, ny = y + DY[side]!;
  if (nx < 0 || ny < 0 || nx >= b.width || ny >= b.height) return false;
  const j = ny * b.width + nx;
  return isBelt(b.floor[j]!) && b.beltDir[j] === back(side);
}

/** The belts carrying robots onto a belt cell, relative to its direction. */
export function beltFeed(b: Board, x: number, y: number): Feed {
  const d = b.beltDir[y * b.width + x]!;
  return { rear: feeds(b, x, y, (d + 2) & 3), left: feeds(b, x, y, (d + 3) & 3), right: feeds(b, x, y, (d + 1) & 3) };
}

const at = (f: Frame, x: number, y: number): string | undefined => translate(f.ox + x * f.c, f.oy + y * f.c);

/** The cells, one group each; void cells are not drawn. */
export function cellsLayer(b: Board, f: Frame): string {
  const { c } = f;
  const out: string[] = [];
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      const i = y * b.width + x;
      const fl = b.floor[i]!;
      const kind = FLOOR_KIND[fl];
      if (kind === undefined) continue;
      const base = { 'data-kind': kind, 'data-x': x, 'data-y': y } as const;
      const g = (a: Record<string, string | number>, body: string) => out.push(el('g', { ...a, transform: at(f, x, y) }, body));
      switch (fl) {
        case Floor.Belt:
        case Floor.Express: {
          const express = fl === Floor.Express;
          const d = b.beltDir[i]! as Dir4;
          const feed = beltFeed(b, x, y);
          const side = feed.left || feed.right;
          const shape = !side ? 'straight' : !feed.rear && !(feed.left && feed.right) ? 'turn' : 'merge';
          g({ class: express ? 'belt express' : 'belt', ...base, 'data-dir': SIDE[d], 'data-shape': shape }, beltTile(c, express, d, feed));
          break;
        }
        case Floor.GearRight:
        case Floor.GearLeft: {
          const cw = fl === Floor.GearRight;
          g({ class: cw ? 'gear right' : 'gear left', ...base, 'data-turn': cw ? '+' : '-' }, gearTile(c, cw));
          break;
        }
        case Floor.Portal: {
          const n = b.portalLabel[i]!;
          g({ ...base, 'data-pair': n }, portalTile(c, `T${n}`, PORTAL_COLORS[(n - 1 + PORTAL_COLORS.length) % PORTAL_COLORS.length]!));
          break;
        }
        case Floor.Pit: g(base, pitTile(c)); break;
        case Floor.Wrench: g(base, wrenchTile(c)); break;
        case Floor.DoubleWrench: g(base, doubleWrenchTile(c)); break;
        case Floor.Oil: g(base, oilTile(c)); break;
        case Floor.Repulsor: g(base, repulsorTile(c)); break;
        case Floor.ChopShop: g(base, chopShopTile(c)); break;
        default: g(base, floorTile(c));
      }
    }
  }
  // The floor's outline, where it meets the edge or void.
  let d = '';
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      if (!isFloor(b, x, y)) continue;
      const px = f.ox + x * c, py = f.oy + y * c;
      if (!isFloor(b, x, y - 1)) d += `M${fmt(px)} ${fmt(py)}h${fmt(c)}`;
      if (!isFloor(b, x, y + 1)) d += `M${fmt(px)} ${fmt(py + c)}h${fmt(c)}`;
      if (!isFloor(b, x - 1, y)) d += `M${fmt(px)} ${fmt(py)}v${fmt(c)}`;
      if (!isFloor(b, x + 1, y)) d += `M${fmt(px + c)} ${fmt(py)}v${fmt(c)}`;
    }
  }
  if (d) out.push(el('path', { 'data-kind': 'outline', d, fill: 'none', stroke: K.outline, 'stroke-width': 2, 'stroke-linecap': 'square' }));
  return el('g', { class: 'cells' }, ...out);
}

/** Ledges (a shaded step on the upper cell's side) and the ramps over them. */
export function ledgesLayer(b: Board, f: Frame): string {
  const out: string[] = [];
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      const i = y * b.width + x;
      for (let d = 0; d < 4; d++) {
        if (!(b.ledges[i]! & (1 << d))) continue;
        const ramp = (b.ramps[i]! & (1 << d)) !== 0;
        out.push(el('g', { 'data-kind': 'ledge', 'data-x': x, 'data-y': y, 'data-side': SIDE[d], transform: at(f, x, y) }, ledgeMark(f.c, d as Dir4)));
        if (ramp) out.push(el('g', { 'data-kind': 'ramp', 'data-x': x, 'data-y': y, 'data-side': SIDE[d], transform: at(f, x, y) }, rampMark(f.c, d as Dir4)));
      }
    }
  }
  return out.length ? el('g', { class: 'ledges' }, ...out) : '';
}

export function startLayer(b: Board, f: Frame): string {
  if (!b.start) return '';
  const [x, y] = b.start;
  return el('g', { 'data-kind': 'start', 'data-x': x, 'data-y': y, transform: at(f, x, y) }, startMark(f.c));
}

/** Where a board laser's beam ends: the last cell it crosses (a wall on its far side, or the edge). */
export function beamEnd(b: Board, x: number, y: number, dir: number): [number, number] {
  for (;;) {
    if (b.walls[y * b.width + x]! & (1 << dir)) return [x, y];
    const nx = x + DX[dir]!, ny = y + DY[dir]!;
    if (nx < 0 || ny < 0 || nx >= b.width || ny >= b.height) return [x, y];
    x = nx;
    y = ny;
  }
}

/** Board laser beams: 1 to 3 parallel red lines from the mount to a wall or the edge. */
export function beamsLayer(b: Board, f: Frame): string {
  const { c, ox, oy } = f;
  const out: string[] = [];
  b.lasers.forEach((l, k) => {
    const [ex, ey] = beamEnd(b, l.x, l.y, l.dir);
    const d = l.dir;
    // From the mount's face on the wall behind the first cell to the far edge of the last.
    const sx = ox + (l.x + 0.5) * c - DX[d]! * c * 0.3, sy = oy + (l.y + 0.5) * c - DY[d]! * c * 0.3;
    const tx = ox + (ex + 0.5) * c + DX[d]! * c * 0.5, ty = oy + (ey + 0.5) * c + DY[d]! * c * 0.5;
    const px = -DY[d]!, py = DX[d]!; // across the beam
    const lines: string[] = [
      el('line', { x1: sx, y1: sy, x2: tx, y2: ty, stroke: K.laser, 'stroke-width': c * 0.12 * l.beams, 'stroke-opacity': 0.16 }),
    ];
    for (let j = 0; j < l.beams; j++) {
      const off = (j - (l.beams - 1) / 2) * c * 0.12;
      lines.push(el('line', { x1: sx + px * off, y1: sy + py * off, x2: tx + px * off, y2: ty + py * off, stroke: K.laser, 'stroke-width': 1.8, 'stroke-opacity': 0.8 }));
    }
    out.push(el('g', { 'data-kind': 'beam', 'data-laser': k, 'data-beams': l.beams, 'data-from': `${l.x},${l.y}`, 'data-to': `${ex},${ey}` }, ...lines));
  });
  return out.length ? el('g', { class: 'beams' }, ...out) : '';
}

export function crushersLayer(b: Board, f: Frame): string {
  const out = b.crushers.map((cr) => {
    const regs = registerList(cr.registers);
    return el('g', { 'data-kind': 'crusher', 'data-x': cr.x, 'data-y': cr.y, 'data-registers': regs.join(' '), transform: at(f, cr.x, cr.y) }, crusherMark(f.c, regs));
  });
  return out.length ? el('g', { class: 'crushers' }, ...out) : '';
}

export function flagsLayer(b: Board, f: Frame): string {
  const out = b.flags.map(([x, y], k) => el('g', { 'data-kind': 'flag', 'data-flag': k + 1, 'data-x': x, 'data-y': y, transform: at(f, x, y) }, flagMark(f.c, k + 1)));
  return out.length ? el('g', { class: 'flags' }, ...out) : '';
}

/** A wall as a thick bar on a cell edge, drawn once however many cells record it. */
export function wallBar(c: number, ox: number, oy: number, x: number, y: number, d: number): string {
  const t = Math.max(4, c * 0.11);
  // The edge's west or north end, in pixels.
  const x0 = ox + (x + (d === 1 ? 1 : 0)) * c, y0 = oy + (y + (d === 2 ? 1 : 0)) * c;
  const horizontal = d === 0 || d === 2;
  return el('rect', {
    x: x0 - t / 2,
    y: y0 - t / 2,
    width: horizontal ? c + t : t,
    height: horizontal ? t : c + t,
    rx: t * 0.3,
    fill: K.wall, stroke: K.wallEdge, 'stroke-width': 1.2,
  });
}

export function wallsLayer(b: Board, f: Frame): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      const m = b.walls[y * b.width + x]!;
      for (let d = 0; d < 4; d++) {
        if (!(m & (1 << d))) continue;
        // An edge is named by its west or north cell: "x,y N" is "x,y-1 S".
        const key = d === 0 ? `h${x},${y}` : d === 2 ? `h${x},${y + 1}` : d === 3 ? `v${x},${y}` : `v${x + 1},${y}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(el('g', { 'data-kind': 'wall', 'data-x': x, 'data-y': y, 'data-side': SIDE[d] }, wallBar(f.c, f.ox, f.oy, x, y, d)));
      }
    }
  }
  return out.length ? el('g', { class: 'walls' }, ...out) : '';
}

/** Laser mounts and pushers, on their walls. */
export function mountsLayer(b: Board, f: Frame): string {
  const out: string[] = [];
  b.lasers.forEach((l, k) => {
    out.push(el('g', { 'data-kind': 'laser', 'data-laser': k, 'data-x': l.x, 'data-y': l.y, 'data-dir': SIDE[l.dir], 'data-beams': l.beams, transform: at(f, l.x, l.y) }, laserMount(f.c, back(l.dir), l.beams)));
  });
  b.pushers.forEach((p, k) => {
    const regs = registerList(p.registers);
    out.push(el('g', { 'data-kind': 'pusher', 'data-pusher': k, 'data-x': p.x, 'data-y': p.y, 'data-dir': SIDE[p.dir], 'data-registers': regs.join(' '), transform: at(f, p.x, p.y) }, pusherMark(f.c, back(p.dir), regs)));
  });
  return out.length ? el('g', { class: 'mounts' }, ...out) : '';
}

/** Column numbers above the board and row numbers left of it. */
export function coordinatesLayer(b: Board, f: Frame): string {
  const { c, ox, oy } = f;
  const size = Math.max(9, c * 0.2);
  const a = { 'font-size': size, fill: K.muted, 'text-anchor': 'middle' } as const;
  const out: string[] = [];
  for (let x = 0; x < b.width; x++) out.push(text(String(x), { x: ox + (x + 0.5) * c, y: oy - c * 0.2, ...a }));
  for (let y = 0; y < b.height; y++) out.push(text(String(y), { x: ox - c * 0.28, y: oy + (y + 0.5) * c + size * 0.36, ...a }));
  return el('g', { class: 'coordinates', 'data-kind': 'coordinates' }, ...out);
}
