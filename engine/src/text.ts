/**
 * The floor and its robots as text, for terminals: two characters a cell, walls drawn between.
 * Robots are their names' first letter, lower case while virtual, with the facing beside it.
 */
import { Floor, type Board } from './board.js';
import type { GameState } from './state.js';

const FLOOR_TEXT: Record<number, string> = {
  [Floor.Plain]: '. ',
  [Floor.Pit]: 'O ',
  [Floor.GearRight]: 'G+',
  [Floor.GearLeft]: 'G-',
  [Floor.Wrench]: 'W ',
  [Floor.DoubleWrench]: 'WW',
  [Floor.Oil]: '~ ',
  [Floor.Portal]: 'T ',
  [Floor.Repulsor]: 'RF',
  [Floor.ChopShop]: 'C ',
  [Floor.Void]: '  ',
};
const BELT = ['^', '>', 'v', '<'];
const FACING = ['^', '>', 'v', '<'];

function cellText(b: Board, x: number, y: number): string {
  const i = y * b.width + x;
  if (b.flagAt[i]) return `${b.flagAt[i]}`.padEnd(2);
  const f = b.floor[i]!;
  if (f === Floor.Portal) return `T${b.portalLabel[i]}`;
  if (f === Floor.Belt) return `${BELT[b.beltDir[i]!]} `;
  if (f === Floor.Express) return BELT[b.beltDir[i]!]!.repeat(2);
  return FLOOR_TEXT[f]!;
}

/**
 * The board with robots; flags are their numbers, walls `|` and `-`. Unless `devices` is false, a
 * line per kind of device the grid cannot show follows it.
 */
export function renderText(b: Board, st?: GameState, o: { devices?: boolean } = {}): string {
  const lines: string[] = [];
  const robotAt = new Map<number, string>();
  st?.robots.forEach((r) => {
    if (r.status !== 'active') return;
    const c = r.y * b.width + r.x;
    const letter = r.virtual ? r.name[0]!.toLowerCase() : r.name[0]!.toUpperCase();
    robotAt.set(c, robotAt.has(c) ? '**' : letter + FACING[r.dir]);
  });
  for (let y = 0; y < b.height; y++) {
    let top = ' ';
    let row = '';
    for (let x = 0; x < b.width; x++) {
      const i = y * b.width + x;
      top += (b.walls[i]! & 1 ? '--' : '  ') + ' ';
      row += (b.walls[i]! & 8 ? '|' : ' ') + (robotAt.get(i) ?? cellText(b, x, y));
    }
    row += b.walls[y * b.width + b.width - 1]! & 2 ? '|' : ' ';
    if (top.trim()) lines.push(top.trimEnd());
    lines.push(row.trimEnd());
  }
  let bottom = ' ';
  for (let x = 0; x < b.width; x++) bottom += (b.walls[(b.height - 1) * b.width + x]! & 4 ? '--' : '  ') + ' ';
  if (bottom.trim()) lines.push(bottom.trimEnd());
  return [...lines, ...(o.devices === false ? [] : devices(b))].join('\n');
}

const regs = (mask: number) => [1, 2, 3, 4, 5].filter((r) => mask & (1 << (r - 1))).join(',');
const D = 'NESW';

/** What the grid cannot show: lasers, pushers, crushers, ledges and ramps, one line each kind. */
function devices(b: Board): string[] {
  const out: string[] = [];
  const list = (title: string, items: string[]) => items.length && out.push(`${title}: ${items.join('; ')}`);
  list('lasers', b.lasers.map((l) => `(${l.x},${l.y}) firing ${D[l.dir]}${l.beams > 1 ? ` x${l.beams}` : ''}`));
  list('pushers', b.pushers.map((p) => `(${p.x},${p.y}) pushing ${D[p.dir]} in ${regs(p.registers)}`));
  list('crushers', b.crushers.map((c) => `(${c.x},${c.y}) in ${regs(c.registers)}`));
  const edges = (mask: Uint8Array) => {
    const items: string[] = [];
    mask.forEach((m, c) => {
      for (let d = 0; d < 4; d++) if (m & (1 << d)) items.push(`(${c % b.width},${Math.floor(c / b.width)}) ${D[d]}`);
    });
    return items;
  };
  list('ledges (upper side)', edges(b.ledges));
  list('ramps', edges(b.ramps));
  return out;
}
