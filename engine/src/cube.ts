/**
 * RoboRally Cubed (004 L179, catalog A25.2): "Arrange six boards in a cross (or any other
 * arrangement that can be folded into a cube) ... every board edge is attached to another board
 * edge somewhere on the configuration." A cube course lays its six square boards out flat as a net;
 * `foldNet` folds the net and gives the course its fold map: for each board edge, the board edge it
 * is attached to and the quarter turns a robot makes crossing it. Movement, pushing and belts ask
 * `Fold.across` where a step over an edge that the net does not join leads; the lasers ask the
 * board's beam tables, made here for the setting `cubed`: "If you are playing on the outside cube
 * then lasers do not cross board boundaries ... If you are playing on the inside of the cube then
 * lasers only cross board boundaries to the first row of across the boundary" (004 L179).
 */
import { beamCover, Floor, type Board } from './board.js';
import type { Ctx } from './context.js';
import { DIR_NAMES, DX, DY, reverse, type Dir } from './geometry.js';
import { err, ok, type Result } from './result.js';

/** One board edge of the fold map: the board edge it is attached to, and the turn crossing it. */
export interface Seam {
  /** The board (index in the course's `boards`) and its side across the edge. */
  readonly board: number;
  readonly side: Dir;
  /** Quarter turns clockwise that the direction of travel (and a robot's facing) makes crossing. */
  readonly turn: number;
}

/** How a cube course is folded: per course cell and direction, what lies across a board edge. */
export interface Fold {
  /** The fold map: per board and side (N, E, S, W), the edge it is attached to. */
  readonly map: readonly (readonly Seam[])[];
  /** Per cell * 4 + d: the cell entered leaving the cell in direction d over an edge the net does not join, else -1. */
  readonly across: Int32Array;
  /** Per cell * 4 + d: the quarter turns made crossing there (0 where `across` is -1). */
  readonly turn: Uint8Array;
  /** Per cell * 4 + d: 1 where leaving the cell in direction d crosses a board edge, joined in the net or not. */
  readonly edge: Uint8Array;
}

/** Inside the cube or on its outside: how far lasers reach over a board edge (004 L179). */
export type CubeSide = 'inside' | 'outside';

type Vec = readonly [number, number, number];
const same = (a: Vec, b: Vec) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
const neg = (a: Vec): Vec => [-a[0], -a[1], -a[2]];

/** A face's place on the cube: its east and south directions and its normal, in space. */
interface Frame {
  readonly e: Vec;
  readonly s: Vec;
  readonly n: Vec;
}

/** The direction of travel leaving a face by side d, in space. */
const travel = (f: Frame, d: Dir): Vec => (d === 1 ? f.e : d === 3 ? neg(f.e) : d === 2 ? f.s : neg(f.s));

/** Folding over side d: the travel direction becomes the far face's normal, the normal turns away from it. */
function folded(f: Frame, d: Dir): Frame {
  const t = travel(f, d);
  const turn = (v: Vec): Vec => (same(v, t) ? neg(f.n) : same(v, neg(t)) ? f.n : same(v, f.n) ? t : same(v, neg(f.n)) ? neg(t) : v);
  return { e: turn(f.e), s: turn(f.s), n: turn(f.n) };
}

/**
 * The cell at offset k along side d of a square face of side n, going round the face clockwise
 * (local coordinates). Two attached edges run opposite ways: offset k on one is n - 1 - k on the other.
 */
function edgeCell(n: number, d: Dir, k: number): [number, number] {
  return d === 0 ? [k, 0] : d === 1 ? [n - 1, k] : d === 2 ? [n - 1 - k, n - 1] : [0, n - 1 - k];
}

/**
 * Folds a course's net of six boards into a cube: `faces` are the boards' north-west corners and
 * sizes as laid out (after turning). Refuses, naming the board, a net that is not six squares of one
 * size meeting edge to edge, or that does not fold into a cube.
 */
export function foldNet(faces: readonly { x: number; y: number; w: number; h: number }[], width: number, height: number): Result<Fold> {
  if (faces.length !== 6) return err('boards', `a cube is six boards; found ${faces.length}`);
  const n = faces[0]!.w;
  for (const [k, f] of faces.entries()) if (f.w !== n || f.h !== n) return err(`boards[${k}]`, `a cube's boards are squares of one size; this one is ${f.w}x${f.h}, board 0 is ${n}x${n}`);
  const at = (x: number, y: number) => faces.findIndex((f) => f.x === x && f.y === y);
  const frames: (Frame | null)[] = faces.map(() => null);
  frames[0] = { e: [1, 0, 0], s: [0, 1, 0], n: [0, 0, 1] };
  const queue = [0];
  while (queue.length) {
    const k = queue.shift()!;
    for (let d = 0; d < 4; d++) {
      const j = at(faces[k]!.x + DX[d]! * n, faces[k]!.y + DY[d]! * n);
      if (j < 0 || frames[j]) continue;
      frames[j] = folded(frames[k]!, d as Dir);
      queue.push(j);
    }
  }
  const lost = frames.findIndex((f) => !f);
  if (lost >= 0) return err(`boards[${lost}]`, 'a cube\'s boards meet edge to edge, whole side to whole side, all six in one piece');
  const fr = frames as Frame[];
  for (let k = 1; k < 6; k++) {
    const twin = fr.findIndex((f, j) => j < k && same(f.n, fr[k]!.n));
    if (twin >= 0) return err(`boards[${k}]`, `the net does not fold into a cube: boards[${k}] folds onto boards[${twin}]`);
  }
  const map: Seam[][] = fr.map((f) => ([0, 1, 2, 3] as Dir[]).map((d) => {
    const t = travel(f, d);
    const board = fr.findIndex((g) => same(g.n, t));
    const side = ([0, 1, 2, 3] as Dir[]).find((s) => same(travel(fr[board]!, s), f.n))!;
    return { board, side, turn: (reverse(side) - d + 4) & 3 };
  }));
  const cells = width * height;
  const across = new Int32Array(cells * 4).fill(-1);
  const turn = new Uint8Array(cells * 4);
  const edge = new Uint8Array(cells * 4);
  for (const [k, f] of faces.entries()) {
    for (let d = 0; d < 4; d++) {
      const seam = map[k]![d]!;
      const g = faces[seam.board]!;
      for (let o = 0; o < n; o++) {
        const [x, y] = edgeCell(n, d as Dir, o);
        const [fx, fy] = edgeCell(n, seam.side, n - 1 - o);
        const c = (f.y + y) * width + f.x + x;
        const to = (g.y + fy) * width + g.x + fx;
        edge[c * 4 + d] = 1;
        const nx = f.x + x + DX[d]!, ny = f.y + y + DY[d]!;
        if (nx >= 0 && ny >= 0 && nx < width && ny < height && ny * width + nx === to) continue; // joined in the net
        across[c * 4 + d] = to;
        turn[c * 4 + d] = seam.turn;
      }
    }
  }
  return ok({ map, across, turn, edge });
}

/** The fold map in words, for documentation and errors: `boards[0] N ↔ boards[4] S`. */
export function describeFold(fold: Fold): string[] {
  return fold.map.flatMap((sides, k) => sides.flatMap((s, d) => (k < s.board || (k === s.board && d < s.side) ? [`boards[${k}] ${DIR_NAMES[d]} ↔ boards[${s.board}] ${DIR_NAMES[s.side]}${s.turn ? `, turning ${s.turn * 90}°` : ''}`] : [])));
}

/**
 * The floor of a cube course: its walls, ledges and ramps on the edges the net does not join set on
 * both sides of the edge, as an edge the net joins has them.
 */
export function foldedFloor(b: Board, fold: Fold): Board {
  const walls = b.walls.slice(), climb = b.climb.slice(), drop = b.drop.slice(), ramp = b.ramp.slice();
  for (let c = 0; c < b.width * b.height; c++) {
    for (let d = 0; d < 4; d++) {
      const to = fold.across[c * 4 + d]!;
      if (to < 0) continue;
      const back = reverse(((d + fold.turn[c * 4 + d]!) & 3) as Dir);
      if (b.walls[c]! & (1 << d)) walls[to]! |= 1 << back;
      if (b.ledges[c]! & (1 << d)) (drop[c]! |= 1 << d), (climb[to]! |= 1 << back);
      if (b.ramps[c]! & (1 << d)) (ramp[c]! |= 1 << d), (ramp[to]! |= 1 << back);
    }
  }
  return { ...b, walls, climb, drop, ramp, fold };
}

/**
 * The beam tables of a cube course for `side` (004 L179): a beam stops at every board edge, on
 * the outside of the cube; on the inside it reaches over the edge into the first row across and
 * stops there (`Board.beyond`). Walls and ledges from below stop it as on any board.
 */
export function cubeBeams(b: Board, side: CubeSide): Board {
  const fold = b.fold;
  if (!fold) return b;
  const w = b.width, h = b.height;
  const reach = new Uint16Array(w * h * 4);
  const beyond = new Int32Array(w * h * 4).fill(-1);
  const shut = (c: number, d: number) => ((b.walls[c]! | b.climb[c]!) & (1 << d)) !== 0;
  for (let c = 0; c < w * h; c++) {
    for (let d = 0; d < 4; d++) {
      let e = c, n = 0;
      while (!shut(e, d) && !fold.edge[e * 4 + d]) {
        const x = (e % w) + DX[d]!, y = Math.floor(e / w) + DY[d]!;
        if (x < 0 || y < 0 || x >= w || y >= h || b.floor[y * w + x] === Floor.Void) break;
        e = y * w + x;
        n++;
      }
      reach[c * 4 + d] = n;
      if (side === 'inside' && fold.edge[e * 4 + d] && !shut(e, d)) beyond[c * 4 + d] = stepOver(b, e, d as Dir);
    }
  }
  return { ...b, reach, ...beamCover(w, h, reach, b.lasers, beyond), beyond };
}

/** The cell entered leaving cell c in direction d: across a fold, or the grid's neighbour (-1: off the grid). */
export function stepOver(b: Board, c: number, d: Dir): number {
  const to = b.fold ? b.fold.across[c * 4 + d]! : -1;
  if (to >= 0) return to;
  const x = (c % b.width) + DX[d]!, y = Math.floor(c / b.width) + DY[d]!;
  return x < 0 || y < 0 || x >= b.width || y >= b.height ? -1 : y * b.width + x;
}

/** Quarter turns made leaving cell c in direction d (0 but over a fold the net does not join). */
export const foldTurn = (b: Board, c: number, d: number): number => (b.fold && b.fold.across[c * 4 + d]! >= 0 ? b.fold.turn[c * 4 + d]! : 0);

/** Robot i has crossed a fold of the cube that turns by `turn` quarters: its facing turns with the floor. */
export function turnWithFold(ctx: Ctx, i: number, turn: number): void {
  if (!turn) return;
  const r = ctx.state.robots[i]!;
  const from = r.dir;
  r.dir = ((from + turn) & 3) as Dir;
  ctx.events?.push({ type: 'turned', robot: i, from, to: r.dir, by: 'fold' });
}
