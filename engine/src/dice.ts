/**
 * The FAQ's Dice Rule (004 L182), setting `diceRule`: "Each flag is 'blockaded' with a die ...
 * No robot may tag ... or move onto a flag space (treat as having a wall on all four sides) until
 * the die has been destroyed. Each die can take damage just as would a robot until the number of
 * points of damage shown on the die have been accumulated." A die blocks lasers like a robot
 * (RULES.md Settings).
 */
import { type Board } from './board.js';
import type { Ctx } from './context.js';
import { foldTurn, stepOver } from './cube.js';
import { reverse, type Dir } from './geometry.js';
import type { GameState } from './state.js';

/**
 * The walls robots meet: the board's, and four around every flag still blockaded, on both sides of
 * each: on a cube course (004 L179) the neighbour over a fold is the square across it.
 */
export function wallsWithDice(b: Board, st: GameState): Uint8Array {
  if (!st.dice.length || !st.dice.some((v) => v > 0)) return b.walls; // most races play without dice: no builtin call
  const walls = b.walls.slice();
  st.dice.forEach((left, f) => {
    if (left <= 0) return;
    const [x, y] = b.flags[f]!;
    const c = y * b.width + x;
    walls[c] = 0b1111;
    for (let d = 0; d < 4; d++) {
      const n = stepOver(b, c, d as Dir);
      if (n >= 0) walls[n]! |= 1 << reverse(((d + foldTurn(b, c, d)) & 3) as Dir);
    }
  });
  return walls;
}

/** The flag (0-based) whose die stands on (x, y), or -1. */
export function dieAt(ctx: Ctx, x: number, y: number): number {
  if (!ctx.state.dice.length) return -1;
  const f = ctx.board.flagAt[y * ctx.board.width + x]! - 1;
  return f >= 0 && ctx.state.dice[f]! > 0 ? f : -1;
}

/** Damage to a die; at zero it is removed for good and its flag can be reached. */
export function damageDie(ctx: Ctx, f: number, points: number): void {
  const st = ctx.state;
  st.dice[f] = Math.max(0, st.dice[f]! - points);
  ctx.events?.push({ type: 'dieHit', flag: f + 1, points, left: st.dice[f]! });
  if (st.dice[f] === 0) ctx.walls = wallsWithDice(ctx.board, st);
}
