/**
 * A race's deal. A race's generator starts from 128 bits drawn from the operating system's secure
 * random source, never chosen by a client and never shown: no seat can work out another's hand,
 * and nobody can play the race again elsewhere. Only a race made with `"deal": {"secret": false,
 * "seed": N}` (tests, replays) deals from a chosen seed, and its public view says so.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Seed } from '../../engine/src/index.js';
import { no, yes, type Answer } from './errors.js';

export type Deal =
  | { readonly secret: true; readonly words: readonly number[] }
  | { readonly secret: false; readonly seed: number };

/** What anybody may know of a race's deal. */
export type PublicDeal = { readonly secret: true } | { readonly secret: false; readonly seed: number };

/** Words of the generator's first state: four 32-bit words, 128 bits. */
const WORDS = 4;
/** A chosen seed is a whole number 0 to 2^31 - 1. */
export const MAX_SEED = 2 ** 31 - 1;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A secret deal from the secure random source. */
export function secretDeal(): Deal {
  const b = randomBytes(4 * WORDS);
  return { secret: true, words: Array.from({ length: WORDS }, (_, k) => b.readUInt32LE(4 * k)) };
}

/** Reads a race's `deal` as a client sends it: absent (a secret deal) or `{"secret": false, "seed": N}`. */
export function readDeal(v: unknown): Answer<Deal> {
  if (v === undefined) return yes(secretDeal());
  const expected = 'expected {"secret": false, "seed": N} (a seed 0 to 2147483647, for a race whose deal is no secret), or no deal at all (a secret one)';
  if (!isObject(v)) return no(422, 'deal', expected);
  for (const k of Object.keys(v)) if (k !== 'secret' && k !== 'seed') return no(422, `deal.${k}`, `unknown field; ${expected}`);
  if (v.secret === true && v.seed === undefined) return yes(secretDeal());
  if (v.secret !== false) return no(422, 'deal.secret', `a seed may be chosen only for a race whose deal is no secret: ${expected}`);
  if (typeof v.seed !== 'number' || !Number.isInteger(v.seed) || v.seed < 0 || v.seed > MAX_SEED) return no(422, 'deal.seed', 'expected a whole number 0 to 2147483647');
  return yes({ secret: false, seed: v.seed });
}

/** The seed the driver deals and decides with. */
export const dealSeed = (d: Deal): Seed => (d.secret ? d.words : d.seed);

export const publicDeal = (d: Deal): PublicDeal => (d.secret ? { secret: true } : { secret: false, seed: d.seed });

/**
 * A number standing for the deal where the race needs one of its own that tells nothing (the
 * `seed` column: start picks for the next race): the chosen seed, or 31 bits of SHA-256 of the words.
 */
export const dealNumber = (d: Deal): number =>
  d.secret ? createHash('sha256').update(`deal:${d.words.join(',')}`).digest().readUInt32LE(0) & MAX_SEED : d.seed;

/**
 * The deal stored with a race. A race stored before deals were kept apart dealt from its `seed`
 * (the generator is in its state by now); that seed stays as secret as it was.
 */
export function storedDeal(row: { deal: string | null; seed: number }): Deal {
  return row.deal ? (JSON.parse(row.deal) as Deal) : { secret: true, words: [row.seed >>> 0] };
}
