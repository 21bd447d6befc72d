/** The legend: every kind of thing a picture shows, drawn small with the same tiles, and named. */
import { arrow, shotLine } from './overlay.js';
import { ROBOT_DESIGNS, robotGlyph } from './robots.js';
import { el, text, translate } from './svg.js';
import { COLORS as K, FONT_FAMILY, PORTAL_COLORS } from './theme.js';
import {
  beltTile, chopShopTile, crusherMark, doubleWrenchTile, flagMark, floorTile, gearTile, laserMount, ledgeMark, oilTile, pitTile,
  portalTile, pusherMark, rampMark, repulsorTile, startMark, wrenchTile,
} from './tiles.js';
import { wallBar } from './floor.js';

interface Entry {
  readonly kind: string;
  readonly name: string;
  readonly icon: (s: number) => string;
}

const ENTRIES: readonly Entry[] = [
  { kind: 'floor', name: 'floor', icon: floorTile },
  { kind: 'pit', name: 'pit', icon: pitTile },
  { kind: 'belt', name: 'conveyor belt', icon: (s) => beltTile(s, false, 1) },
  { kind: 'express', name: 'express belt', icon: (s) => beltTile(s, true, 1) },
  { kind: 'turn', name: 'belt turning', icon: (s) => beltTile(s, false, 0, { rear: false, left: true, right: false }) },
  { kind: 'gear+', name: 'gear turns right (+)', icon: (s) => gearTile(s, true) },
  { kind: 'gear-', name: 'gear turns left (\u2212)', icon: (s) => gearTile(s, false) },
  { kind: 'wrench', name: 'repair site', icon: wrenchTile },
  { kind: 'wrench2', name: 'wrench & hammer site', icon: doubleWrenchTile },
  { kind: 'oil', name: 'oil slick', icon: oilTile },
  { kind: 'portal', name: 'portal (pair T1)', icon: (s) => portalTile(s, 'T1', PORTAL_COLORS[0]) },
  { kind: 'repulsor', name: 'repulsor field', icon: repulsorTile },
  { kind: 'chopshop', name: 'chop shop', icon: chopShopTile },
  { kind: 'flag', name: 'flag 1', icon: (s) => floorTile(s) + flagMark(s, 1) },
  { kind: 'start', name: 'start', icon: (s) => floorTile(s) + startMark(s) },
  { kind: 'wall', name: 'wall', icon: (s) => floorTile(s) + wallBar(s, 0, Math.max(4, s * 0.11) / 2, 0, 0, 0) },
  {
    kind: 'laser',
    name: 'laser, 2 beams',
    icon: (s) =>
      floorTile(s) +
      el('line', { x1: s * 0.2, y1: s * 0.44, x2: s, y2: s * 0.44, stroke: K.laser, 'stroke-width': 1.8 }) +
      el('line', { x1: s * 0.2, y1: s * 0.56, x2: s, y2: s * 0.56, stroke: K.laser, 'stroke-width': 1.8 }) +
      laserMount(s, 3, 2),
  },
  { kind: 'pusher', name: 'pusher, registers 2 4', icon: (s) => floorTile(s) + pusherMark(s, 0, [2, 4]) },
  { kind: 'crusher', name: 'crusher, registers 1 3', icon: (s) => floorTile(s) + crusherMark(s, [1, 3]) },
  { kind: 'ledge', name: 'ledge (step down)', icon: (s) => floorTile(s) + ledgeMark(s, 2) },
  { kind: 'ramp', name: 'ramp over a ledge', icon: (s) => floorTile(s) + ledgeMark(s, 2) + rampMark(s, 2) },
  {
    kind: 'robot',
    name: 'robot, facing, damage',
    icon: (s) => floorTile(s) + el('g', { transform: translate(s / 2, s / 2) }, robotGlyph(s, { design: ROBOT_DESIGNS[1]!, dir: 1, damage: 2, virtual: false, poweredDown: false })),
  },
  {
    kind: 'virtual',
    name: 'virtual robot',
    icon: (s) => floorTile(s) + el('g', { transform: translate(s / 2, s / 2) }, robotGlyph(s, { design: ROBOT_DESIGNS[1]!, dir: 1, damage: 0, virtual: true, poweredDown: false })),
  },
  { kind: 'programmed', name: 'programmed move', icon: (s) => floorTile(s) + arrow(s * 0.1, s / 2, s * 0.92, s / 2, K.programmed, s) },
  { kind: 'pushed', name: 'pushed or carried', icon: (s) => floorTile(s) + arrow(s * 0.1, s / 2, s * 0.92, s / 2, K.pushed, s) },
  { kind: 'shot', name: 'laser shot', icon: (s) => floorTile(s) + shotLine(s * 0.08, s * 0.5, s * 0.75, s * 0.5, s) },
];

/** Size of one entry for a picture with cells of c pixels. */
export const legendEntry = (c: number): { icon: number; width: number; height: number } => {
  const icon = Math.round(c * 0.66);
  return { icon, width: icon + Math.round(c * 2.6), height: icon + Math.round(c * 0.14) };
};

/** The legend in `columns` columns; its height is `rows * entry height`. */
export function legend(c: number, columns: number, x0: number, y0: number): { svg: string; height: number } {
  const e = legendEntry(c);
  const size = Math.max(9, c * 0.2);
  const out: string[] = [];
  ENTRIES.forEach((en, k) => {
    const col = k % columns, row = Math.floor(k / columns);
    const x = x0 + col * e.width, y = y0 + row * e.height;
    out.push(
      el(
        'g',
        { 'data-kind': 'legend-entry', 'data-entry': en.kind, transform: translate(x, y) },
        en.icon(e.icon),
        text(en.name, { x: e.icon + c * 0.14, y: e.icon / 2 + size * 0.36, 'font-size': size, fill: K.ink, 'font-family': FONT_FAMILY }),
      ),
    );
  });
  const rows = Math.ceil(ENTRIES.length / columns);
  return { svg: el('g', { class: 'legend', 'data-kind': 'legend' }, ...out), height: rows * e.height };
}

export const LEGEND_KINDS: readonly string[] = ENTRIES.map((e) => e.kind);
