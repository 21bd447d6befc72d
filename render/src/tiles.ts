/**
 * Drawings of single cells and the things on them, each in the cell's own coordinates (0 to c),
 * made without a board so the legend draws the same tiles. Whatever has a direction is drawn
 * facing north and turned with `rotate`.
 */
import { COLORS as K, FONT_FAMILY } from './theme.js';
import { el, fmt, pts, rotate, text } from './svg.js';

export type Dir4 = 0 | 1 | 2 | 3;

const bold = { 'font-family': FONT_FAMILY, 'font-weight': 'bold', 'text-anchor': 'middle' } as const;

/** Centred text: `y` is the middle of the letters. */
export function label(s: string, x: number, y: number, size: number, fill: string, weight: 'bold' | 'normal' = 'bold'): string {
  return text(s, { ...bold, 'font-weight': weight, x, y: y + size * 0.36, 'font-size': size, fill });
}

/** Bare floor: a steel plate with a thin seam. */
export function floorTile(c: number): string {
  return (
    el('rect', { x: 0, y: 0, width: c, height: c, fill: K.floor, stroke: K.floorEdge, 'stroke-width': 1 }) +
    el('rect', { x: 2.5, y: 2.5, width: c - 5, height: c - 5, fill: 'none', stroke: K.floorShine, 'stroke-width': 1 })
  );
}

export function pitTile(c: number): string {
  const i = c * 0.06;
  return (
    floorTile(c) +
    el('rect', { x: i, y: i, width: c - 2 * i, height: c - 2 * i, rx: c * 0.08, fill: 'url(#rr-pit)', stroke: K.pitRim, 'stroke-width': 1.5 })
  );
}

/** Which neighbours carry robots onto a belt cell: from behind, from its left, from its right. */
export interface Feed {
  readonly rear: boolean;
  readonly left: boolean;
  readonly right: boolean;
}
const NO_FEED: Feed = { rear: false, left: false, right: false };

/**
 * A belt cell: yellow (normal, one chevron) or blue (express, two chevrons), its arrow straight
 * from behind, or curving in from a side where another belt feeds it from that side only.
 */
export function beltTile(c: number, express: boolean, dir: Dir4, feed: Feed = NO_FEED): string {
  const fill = express ? K.express : K.belt;
  const dark = express ? K.expressDark : K.beltDark;
  const ink = express ? K.expressArrow : K.beltArrow;
  const sw = c * 0.1;
  const h = c / 2;
  const line = { fill: 'none', stroke: ink, 'stroke-width': sw, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' } as const;
  const parts: string[] = [];
  // Rails along the two sides the belt runs between; on a bend the outer rail turns the corner.
  const rail = c * 0.07;
  const bend = (feed.left || feed.right) && !feed.rear;
  if (!bend) {
    parts.push(el('rect', { x: 0, y: 0, width: rail, height: c, fill: dark }), el('rect', { x: c - rail, y: 0, width: rail, height: c, fill: dark }));
  } else {
    // Rails on the outside of the turn: the side not fed, and the back.
    if (!feed.right) parts.push(el('rect', { x: c - rail, y: 0, width: rail, height: c, fill: dark }));
    if (!feed.left) parts.push(el('rect', { x: 0, y: 0, width: rail, height: c, fill: dark }));
    parts.push(el('rect', { x: 0, y: c - rail, width: c, height: rail, fill: dark }));
  }
  const shaftEnd = c * 0.2;
  if (!bend) parts.push(el('line', { x1: h, y1: c - c * 0.08, x2: h, y2: shaftEnd, ...line }));
  if (feed.left) parts.push(el('path', { d: `M${fmt(c * 0.08)} ${fmt(h)}Q${fmt(h)} ${fmt(h)} ${fmt(h)} ${fmt(shaftEnd)}`, ...line }));
  if (feed.right) parts.push(el('path', { d: `M${fmt(c - c * 0.08)} ${fmt(h)}Q${fmt(h)} ${fmt(h)} ${fmt(h)} ${fmt(shaftEnd)}`, ...line }));
  const chevron = (y: number) => el('polyline', { points: pts([[c * 0.25, y + c * 0.22], [h, y], [c * 0.75, y + c * 0.22]]), ...line });
  parts.push(chevron(c * 0.1));
  if (express) parts.push(chevron(c * 0.3));
  return el('rect', { x: 0, y: 0, width: c, height: c, fill, stroke: K.floorEdge, 'stroke-width': 1 }) + el('g', { transform: rotate(dir, h, h) }, ...parts);
}

/** Points on a circle about (cx, cy), angle in degrees clockwise from east (SVG's way). */
const polar = (cx: number, cy: number, r: number, deg: number): [number, number] => {
  const a = (deg * Math.PI) / 180;
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
};

/** A round arrow of 270°, clockwise or not, with its head. */
export function roundArrow(cx: number, cy: number, r: number, clockwise: boolean, color: string, width: number): string {
  const a0 = clockwise ? 150 : 30;
  const a1 = clockwise ? a0 + 250 : a0 - 250;
  const [x0, y0] = polar(cx, cy, r, a0);
  const [x1, y1] = polar(cx, cy, r, a1);
  const arc = el('path', {
    d: `M${fmt(x0)} ${fmt(y0)}A${fmt(r)} ${fmt(r)} 0 1 ${clockwise ? 1 : 0} ${fmt(x1)} ${fmt(y1)}`,
    fill: 'none', stroke: color, 'stroke-width': width, 'stroke-linecap': 'butt',
  });
  // The head: a triangle whose tip lies ahead along the circle.
  const ahead = clockwise ? a1 + 42 : a1 - 42;
  const tip = polar(cx, cy, r, ahead);
  const out = polar(cx, cy, r + width * 1.7, a1);
  const inn = polar(cx, cy, r - width * 1.7, a1);
  return arc + el('polygon', { points: pts([out, tip, inn]), fill: color });
}

/** A gear: a cog in red (clockwise, +) or green (counter-clockwise, −) with a white round arrow on it. */
export function gearTile(c: number, clockwise: boolean): string {
  const color = clockwise ? K.gearRight : K.gearLeft;
  const h = c / 2;
  const teeth = 8;
  const step = 360 / teeth;
  const cog: [number, number][] = [];
  for (let k = 0; k < teeth; k++) {
    const a = k * step + step / 2;
    cog.push(polar(h, h, c * 0.35, a - step * 0.34), polar(h, h, c * 0.46, a - step * 0.2), polar(h, h, c * 0.46, a + step * 0.2), polar(h, h, c * 0.35, a + step * 0.34));
  }
  return (
    floorTile(c) +
    el('polygon', { points: pts(cog), fill: color, stroke: K.ink, 'stroke-width': 1 }) +
    roundArrow(h, h, c * 0.25, clockwise, '#ffffff', c * 0.06) +
    label(clockwise ? '+' : '\u2212', h, h, c * 0.3, '#ffffff')
  );
}

/** A spanner, head up, about (0, 0), cut from a disc of `bg`. */
function wrenchShape(c: number, bg: string): string {
  return (
    el('rect', { x: -c * 0.05, y: -c * 0.06, width: c * 0.1, height: c * 0.36, rx: c * 0.05, fill: K.wrench }) +
    el('circle', { cx: 0, cy: -c * 0.15, r: c * 0.125, fill: K.wrench }) +
    el('rect', { x: -c * 0.045, y: -c * 0.3, width: c * 0.09, height: c * 0.15, fill: bg }) +
    el('circle', { cx: 0, cy: -c * 0.15, r: c * 0.045, fill: bg })
  );
}

/** A hammer, head up, about (0, 0). */
function hammerShape(c: number): string {
  return (
    el('rect', { x: -c * 0.04, y: -c * 0.14, width: c * 0.08, height: c * 0.44, rx: c * 0.03, fill: K.hammerHandle, stroke: K.ink, 'stroke-width': 0.8 }) +
    el('rect', { x: -c * 0.18, y: -c * 0.27, width: c * 0.36, height: c * 0.14, rx: c * 0.02, fill: K.wrench, stroke: K.ink, 'stroke-width': 0.8 })
  );
}

/** A repair site: one wrench on a white disc. */
export function wrenchTile(c: number): string {
  const h = c / 2;
  return (
    floorTile(c) +
    el('circle', { cx: h, cy: h, r: c * 0.4, fill: K.repair, stroke: K.repairEdge, 'stroke-width': 2 }) +
    el('g', { transform: `translate(${fmt(h)} ${fmt(h)}) rotate(45)` }, wrenchShape(c, K.repair))
  );
}

/** A two-wrench site: wrench and hammer crossed on a golden disc (option or upgrade). */
export function doubleWrenchTile(c: number): string {
  const h = c / 2;
  return (
    floorTile(c) +
    el('circle', { cx: h, cy: h, r: c * 0.4, fill: K.option, stroke: K.optionEdge, 'stroke-width': 2 }) +
    el('g', { transform: `translate(${fmt(h)} ${fmt(h)}) rotate(45)` }, wrenchShape(c, K.option)) +
    el('g', { transform: `translate(${fmt(h)} ${fmt(h)}) rotate(-45)` }, hammerShape(c))
  );
}

/** An oil slick: a black puddle with a rainbow sheen. */
export function oilTile(c: number): string {
  const b = { fill: K.oil };
  const sheen = { fill: 'none', 'stroke-width': 1.4, 'stroke-linecap': 'round' } as const;
  return (
    floorTile(c) +
    el('ellipse', { cx: c * 0.5, cy: c * 0.56, rx: c * 0.3, ry: c * 0.2, ...b }) +
    el('circle', { cx: c * 0.33, cy: c * 0.42, r: c * 0.14, ...b }) +
    el('circle', { cx: c * 0.64, cy: c * 0.38, r: c * 0.11, ...b }) +
    el('circle', { cx: c * 0.7, cy: c * 0.66, r: c * 0.13, ...b }) +
    el('circle', { cx: c * 0.2, cy: c * 0.72, r: c * 0.05, ...b }) +
    el('circle', { cx: c * 0.84, cy: c * 0.24, r: c * 0.04, ...b }) +
    el('path', { d: `M${fmt(c * 0.3)} ${fmt(c * 0.5)}Q${fmt(c * 0.45)} ${fmt(c * 0.4)} ${fmt(c * 0.6)} ${fmt(c * 0.47)}`, stroke: '#9575cd', ...sheen }) +
    el('path', { d: `M${fmt(c * 0.38)} ${fmt(c * 0.62)}Q${fmt(c * 0.52)} ${fmt(c * 0.54)} ${fmt(c * 0.68)} ${fmt(c * 0.6)}`, stroke: '#4db6ac', ...sheen })
  );
}

/** A portal: rings in its pair's colour, with the pair's label. */
export function portalTile(c: number, name: string, color: string): string {
  const h = c / 2;
  return (
    floorTile(c) +
    el('circle', { cx: h, cy: h, r: c * 0.42, fill: color, stroke: K.ink, 'stroke-width': 1 }) +
    el('circle', { cx: h, cy: h, r: c * 0.35, fill: 'none', stroke: '#ffffff', 'stroke-width': 1.5, 'stroke-dasharray': `${fmt(c * 0.08)} ${fmt(c * 0.05)}` }) +
    el('circle', { cx: h, cy: h, r: c * 0.26, fill: '#ffffff' }) +
    label(name, h, h, c * 0.22, color)
  );
}

/** A repulsor field: a violet plate with arrows pointing away from it. */
export function repulsorTile(c: number): string {
  const h = c / 2;
  const i = c * 0.06;
  const arrow = (d: Dir4) =>
    el('polygon', { points: pts([[h, c * 0.1], [h + c * 0.11, c * 0.24], [h - c * 0.11, c * 0.24]]), fill: K.repulsor, transform: rotate(d, h, h) });
  return (
    floorTile(c) +
    el('rect', { x: i, y: i, width: c - 2 * i, height: c - 2 * i, rx: c * 0.12, fill: K.repulsorFill, stroke: K.repulsor, 'stroke-width': 2 }) +
    el('circle', { cx: h, cy: h, r: c * 0.2, fill: 'none', stroke: K.repulsor, 'stroke-width': 1, 'stroke-dasharray': '2 2' }) +
    arrow(0) + arrow(1) + arrow(2) + arrow(3) +
    label('RF', h, h, c * 0.2, K.repulsor)
  );
}

/** A chop shop: a dark bay with a hazard-striped frame, lettered CHOP SHOP. */
export function chopShopTile(c: number): string {
  const i = c * 0.07;
  const h = c / 2;
  const frame = { x: i, y: i, width: c - 2 * i, height: c - 2 * i, fill: 'none', 'stroke-width': c * 0.07 } as const;
  return (
    floorTile(c) +
    el('rect', { x: i, y: i, width: c - 2 * i, height: c - 2 * i, fill: K.chop }) +
    el('rect', { ...frame, stroke: '#000000' }) +
    el('rect', { ...frame, stroke: K.hazard, 'stroke-dasharray': `${fmt(c * 0.07)} ${fmt(c * 0.07)}` }) +
    label('CHOP', h, c * 0.4, c * 0.17, K.hazard) +
    label('SHOP', h, c * 0.62, c * 0.17, K.hazard)
  );
}

/** The start square: a green dashed frame, lettered START. */
export function startMark(c: number): string {
  const i = c * 0.1;
  return (
    el('rect', { x: i, y: i, width: c - 2 * i, height: c - 2 * i, rx: c * 0.06, fill: 'none', stroke: K.start, 'stroke-width': 2.5, 'stroke-dasharray': '5 3' }) +
    label('START', c / 2, c * 0.8, c * 0.14, K.start)
  );
}

/** A numbered flag: pole and a red pennant carrying the number. */
export function flagMark(c: number, n: number): string {
  const px = c * 0.24;
  return (
    el('ellipse', { cx: px, cy: c * 0.86, rx: c * 0.12, ry: c * 0.04, fill: K.flagPole, 'fill-opacity': 0.6 }) +
    el('line', { x1: px, y1: c * 0.86, x2: px, y2: c * 0.1, stroke: K.flagPole, 'stroke-width': c * 0.05, 'stroke-linecap': 'round' }) +
    el('polygon', {
      points: pts([[px, c * 0.12], [c * 0.88, c * 0.12], [c * 0.76, c * 0.32], [c * 0.88, c * 0.52], [px, c * 0.52]]),
      fill: K.flag, stroke: '#7f0000', 'stroke-width': 1,
    }) +
    label(String(n), c * 0.53, c * 0.32, c * 0.28, '#ffffff')
  );
}

/** A ledge on side `side` of an upper cell: three bands darkening down to the edge, like steps. */
export function ledgeMark(c: number, side: Dir4): string {
  const band = c * 0.075;
  return el(
    'g',
    { transform: rotate(side, c / 2, c / 2) },
    el('rect', { x: 0, y: 0, width: c, height: band * 3, fill: K.ledge, 'fill-opacity': 0.2 }),
    el('rect', { x: 0, y: 0, width: c, height: band * 2, fill: K.ledge, 'fill-opacity': 0.3 }),
    el('rect', { x: 0, y: 0, width: c, height: band, fill: K.ledge, 'fill-opacity': 0.5 }),
    el('line', { x1: 0, y1: 1.5, x2: c, y2: 1.5, stroke: K.ledge, 'stroke-width': 3 }),
  );
}

/** A ramp over the ledge on one side: a ribbed wedge down the step. */
export function rampMark(c: number, side: Dir4): string {
  const d = c * 0.34;
  const ribs: string[] = [];
  for (const t of [0.25, 0.5, 0.75]) {
    const y = d * t;
    const inset = c * 0.18 + (c * 0.1 * y) / d;
    ribs.push(el('line', { x1: inset + 2, y1: y, x2: c - inset - 2, y2: y, stroke: K.rampEdge, 'stroke-width': 1.2 }));
  }
  return el(
    'g',
    { transform: rotate(side, c / 2, c / 2) },
    el('polygon', { points: pts([[c * 0.18, 0], [c * 0.82, 0], [c * 0.72, d], [c * 0.28, d]]), fill: K.ramp, stroke: K.rampEdge, 'stroke-width': 1.5 }),
    ...ribs,
  );
}

/** Registers as written on pushers and crushers: "2 4". */
export const registerList = (mask: number): number[] => [1, 2, 3, 4, 5].filter((r) => mask & (1 << (r - 1)));

/**
 * A pusher on the wall on side `side` of the cell, pushing away from it (towards `side` + 2),
 * its active registers written on the plate; across for a plate lying east-west, one under the
 * other for one standing north-south, so they never read upside down.
 */
export function pusherMark(c: number, side: Dir4, registers: readonly number[]): string {
  const depth = c * 0.26;
  const inset = c * 0.07;
  const h = c / 2;
  // The plate and its ram drawn on the north side, then turned; the numbers are placed unturned.
  const body = el(
    'g',
    { transform: rotate(side, h, h) },
    el('rect', { x: h - c * 0.06, y: depth, width: c * 0.12, height: c * 0.08, fill: K.pusherEdge }),
    el('polygon', { points: pts([[h - c * 0.14, depth + c * 0.08], [h + c * 0.14, depth + c * 0.08], [h, depth + c * 0.2]]), fill: K.pusherEdge }),
    el('rect', { x: inset, y: 0, width: c - 2 * inset, height: depth, rx: c * 0.04, fill: K.pusher, stroke: K.pusherEdge, 'stroke-width': 1.5 }),
  );
  const size = c * 0.19;
  let numbers = '';
  if (side === 0 || side === 2) {
    const y = side === 0 ? depth / 2 : c - depth / 2;
    numbers = label(registers.join(' '), h, y, size, '#ffffff');
  } else {
    const x = side === 3 ? depth / 2 : c - depth / 2;
    const span = c - 2 * inset - c * 0.08;
    const stepY = Math.min(size * 1.05, span / Math.max(1, registers.length));
    registers.forEach((r, k) => {
      numbers += label(String(r), x, h + (k - (registers.length - 1) / 2) * stepY, Math.min(size, stepY * 0.95), '#ffffff');
    });
  }
  return body + numbers;
}

/** A crusher over a cell: toothed jaws above and below, its registers between them. */
export function crusherMark(c: number, registers: readonly number[]): string {
  const jaw = c * 0.13;
  const top = c * 0.05;
  const parts: string[] = [];
  const teeth = 5;
  const w = (c * 0.84) / teeth;
  for (const [y0, sgn] of [[top, 1], [c - top, -1]] as const) {
    parts.push(el('rect', { x: c * 0.08, y: sgn > 0 ? y0 : y0 - jaw, width: c * 0.84, height: jaw, rx: 2, fill: K.crusher, stroke: K.ink, 'stroke-width': 1 }));
    const tips: [number, number][] = [];
    const base = y0 + sgn * jaw;
    for (let k = 0; k < teeth; k++) {
      const x = c * 0.08 + k * w;
      tips.push([x, base], [x + w / 2, base + sgn * c * 0.09], [x + w, base]);
    }
    parts.push(el('polygon', { points: pts(tips), fill: K.crusherTeeth, stroke: K.ink, 'stroke-width': 0.8 }));
  }
  const s = registers.join(' ');
  const bw = Math.max(c * 0.3, s.length * c * 0.12 + c * 0.1);
  parts.push(
    el('rect', { x: c / 2 - bw / 2, y: c * 0.38, width: bw, height: c * 0.24, rx: c * 0.05, fill: '#ffffff', stroke: K.crusher, 'stroke-width': 1.5 }),
    label(s, c / 2, c / 2, c * 0.19, K.crusher),
  );
  return parts.join('');
}

/** A laser mount on the wall on side `side`, firing away from it: a housing with a lens for each beam. */
export function laserMount(c: number, side: Dir4, beams: number): string {
  const h = c / 2;
  const lenses: string[] = [];
  for (let k = 0; k < beams; k++) {
    const off = (k - (beams - 1) / 2) * c * 0.12;
    lenses.push(el('circle', { cx: h + off, cy: c * 0.15, r: c * 0.045, fill: K.laser, stroke: '#ffffff', 'stroke-width': 0.8 }));
  }
  return el(
    'g',
    { transform: rotate(side, h, h) },
    el('rect', { x: c * 0.24, y: 0, width: c * 0.52, height: c * 0.2, rx: c * 0.04, fill: K.laserMount, stroke: '#000000', 'stroke-width': 1 }),
    ...lenses,
  );
}
