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
import { beamCover, Floor, packCells, type Board } from './board.js';
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
    return seam(d, board, side);
  }));
  return ok(foldTables(faces, map, width, height));
}

/** Side d of a board attached to side `side` of `board`: the turn crossing it follows from the two sides. */
const seam = (d: Dir, board: number, side: Dir): Seam => ({ board, side, turn: (reverse(side) - d + 4) & 3 });

/**
 * The fold of a cube whose seams the course gives (`"cube": {"seams": [...]}`): six square boards
 * of one size laid out anywhere, and twelve seams, each attaching a side of one board to a side of
 * another. RULES.md has no ruling here; the reading is 004 L179's "every board edge is attached to
 * another board edge somewhere on the configuration": each of the 24 board edges is in exactly one
 * seam; two attached edges run opposite ways (the floor seen from one side, as a folded net is); the
 * seams close the six boards into a cube (eight corners, three boards at each; no board attached to
 * itself or twice to another); and boards that touch on the course are attached where they touch,
 * as laid out, since the floor runs on between squares that touch. Refuses, naming the seam.
 */
export function foldSeams(faces: readonly { x: number; y: number; w: number; h: number }[], width: number, height: number, seams: readonly (readonly [number, Dir, number, Dir])[]): Result<Fold> {
  if (faces.length !== 6) return err('boards', `a cube is six boards; found ${faces.length}`);
  const n = faces[0]!.w;
  for (const [k, f] of faces.entries()) if (f.w !== n || f.h !== n) return err(`boards[${k}]`, `a cube's boards are squares of one size; this one is ${f.w}x${f.h}, board 0 is ${n}x${n}`);
  if (seams.length !== 12) return err('cube.seams', `a cube has twelve seams; found ${seams.length}`);
  const map: (Seam | null)[][] = faces.map(() => [null, null, null, null]);
  for (const [i, [a, d, b, e]] of seams.entries()) {
    const p = `cube.seams[${i}]`;
    if (a === b) return err(p, `attaches boards[${a}] to itself`);
    for (const [k, side] of [[a, d], [b, e]] as const) if (map[k]![side]) return err(p, `boards[${k}] ${DIR_NAMES[side]} is in another seam already`);
    if (map[a]!.some((s) => s?.board === b)) return err(p, `boards[${a}] is attached to boards[${b}] already`);
    map[a]![d] = seam(d, b, e);
    map[b]![e] = seam(e, a, d);
  }
  // The corners: side d runs clockwise from corner d to corner d + 1, and an attached side runs the other way.
  const root = Array.from({ length: 24 }, (_, k) => k);
  const find = (k: number): number => (root[k] === k ? k : (root[k] = find(root[k]!)));
  for (const [a, d, b, e] of seams) {
    root[find(a * 4 + d)] = find(b * 4 + ((e + 1) & 3));
    root[find(a * 4 + ((d + 1) & 3))] = find(b * 4 + e);
  }
  const corners = new Map<number, number>();
  for (let k = 0; k < 24; k++) corners.set(find(k), (corners.get(find(k)) ?? 0) + 1);
  const odd = [...corners.entries()].find(([, m]) => m !== 3);
  if (corners.size !== 8 || odd) return err('cube.seams', `the seams do not close the boards into a cube: ${odd ? `a corner of boards[${odd[0] >> 2}] is shared by ${odd[1]} boards, not 3` : `${corners.size} corners, not 8`}`);
  // Boards that touch on the course are attached there, as laid out.
  const owner = (x: number, y: number) => faces.findIndex((f) => x >= f.x && y >= f.y && x < f.x + n && y < f.y + n);
  for (const [k, f] of faces.entries()) {
    for (let d = 0; d < 4; d++) {
      const s = map[k]![d]!;
      const g = faces[s.board]!;
      const laid = s.side === reverse(d as Dir) && g.x === f.x + DX[d]! * n && g.y === f.y + DY[d]! * n;
      for (let o = 0; o < n; o++) {
        const [x, y] = edgeCell(n, d as Dir, o);
        const j = owner(f.x + x + DX[d]!, f.y + y + DY[d]!);
        if (j >= 0 && !laid) return err('cube.seams', `boards[${k}] ${DIR_NAMES[d]} touches boards[${j}] on the course, so it must be attached to it there, as laid out${j === s.board ? '' : `, not to boards[${s.board}] ${DIR_NAMES[s.side]}`}`);
      }
    }
  }
  return ok(foldTables(faces, map as Seam[][], width, height));
}

/** The fold's per-cell tables from its map: what lies across each board edge the course does not join. */
function foldTables(faces: readonly { x: number; y: number; w: number }[], map: readonly (readonly Seam[])[], width: number, height: number): Fold {
  const n = faces[0]!.w;
  const cells = width * height;
  const across = new Int32Array(cells * 4).fill(-1);
  const turn = new Uint8Array(cells * 4);
  const edge = new Uint8Array(cells * 4);
  for (const [k, f] of faces.entries()) {
    for (let d = 0; d < 4; d++) {
      const s = map[k]![d]!;
      const g = faces[s.board]!;
      for (let o = 0; o < n; o++) {
        const [x, y] = edgeCell(n, d as Dir, o);
        const [fx, fy] = edgeCell(n, s.side, n - 1 - o);
        const c = (f.y + y) * width + f.x + x;
        const to = (g.y + fy) * width + g.x + fx;
        edge[c * 4 + d] = 1;
        const nx = f.x + x + DX[d]!, ny = f.y + y + DY[d]!;
        if (nx >= 0 && ny >= 0 && nx < width && ny < height && ny * width + nx === to) continue; // joined in the net
        across[c * 4 + d] = to;
        turn[c * 4 + d] = s.turn;
      }
    }
  }
  return { map, across, turn, edge };
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
  // Outside the cube no beam crosses a board edge: the board has no `beyond`, which every beam
  // (board, main, High-Power, the weapons') asks before crossing.
  if (side === 'outside') {
    const beams = beamCover(w, h, reach, b.lasers);
    return { ...b, reach, ...beams, cells: packCells({ ...b, reach, beamFrom: beams.beamFrom }) };
  }
  const beams = beamCover(w, h, reach, b.lasers, beyond);
  return { ...b, reach, ...beams, beyond, cells: packCells({ ...b, reach, beamFrom: beams.beamFrom }) };
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
