/** Facings and squares. North is up, x grows east, y grows south (SCENARIOS.md, Board). */

/** 0 = N, 1 = E, 2 = S, 3 = W: turning right adds one. */
export type Dir = 0 | 1 | 2 | 3;

export const N: Dir = 0;
export const E: Dir = 1;
export const S: Dir = 2;
export const W: Dir = 3;

export const DX: readonly number[] = [0, 1, 0, -1];
export const DY: readonly number[] = [-1, 0, 1, 0];
/**
 * DX[d] and DY[d] as arithmetic, for the rules' hot paths: a read of an imported array costs about
 * a dozen instructions in optimized code (the module cell, its hole check, the array's map and
 * bounds), this three. Masks, not a test of the facing: a robot's facing is a coin flip for the
 * branch predictor, and a mispredicted branch costs more than the whole sum.
 */
export const dx = (d: number): number => (2 - d) & -(d & 1);
export const dy = (d: number): number => (d - 1) & ((d & 1) - 1);
export const DIR_NAMES = ['N', 'E', 'S', 'W'] as const;
export type DirName = (typeof DIR_NAMES)[number];

export const reverse = (d: Dir): Dir => ((d + 2) & 3) as Dir;

export function parseDir(s: unknown): Dir | undefined {
  const i = DIR_NAMES.indexOf(s as DirName);
  return i < 0 ? undefined : (i as Dir);
}

export const dirName = (d: Dir): DirName => DIR_NAMES[d]!;

/** A square as the formats write it. */
export type Square = readonly [x: number, y: number];
