/**
 * The game's seeded generator (sfc32). Its four words live in the game state, so a saved state
 * replays byte for byte; nothing in the engine uses Math.random.
 */
export type RngState = number[];

export function seedRng(seed: number): RngState {
  // splitmix32 spreads one number over the four words.
  let s = seed >>> 0;
  const words: number[] = [];
  for (let i = 0; i < 4; i++) {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    words.push((z ^ (z >>> 16)) >>> 0);
  }
  for (let i = 0; i < 12; i++) nextU32(words);
  return words;
}

/**
 * A generator from words drawn elsewhere (a race server's secure random source: four 32-bit words
 * give its 128 bits of state). At least one word is needed; the words are mixed in, so no word is
 * the state as drawn.
 */
export function rngFromWords(words: readonly number[]): RngState {
  if (!words.length || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffffffff)) throw new RangeError('expected 32-bit words');
  const s = seedRng(words[0]!);
  for (let k = 1; k < words.length; k++) {
    s[k % 4] = (s[k % 4]! ^ words[k]!) >>> 0;
    nextU32(s);
  }
  for (let i = 0; i < 12; i++) nextU32(s);
  return s.map((w) => w >>> 0);
}

/** The generator a race is seeded with: one number (tests, replays) or words (a secret deal). */
export type Seed = number | readonly number[];

export const rngFrom = (seed: Seed): RngState => (typeof seed === 'number' ? seedRng(seed) : rngFromWords(seed));

export function nextU32(s: RngState): number {
  const a = s[0]!, b = s[1]!, c = s[2]!, d = s[3]!;
  const t = (((a + b) | 0) + d) | 0;
  s[3] = (d + 1) | 0;
  s[0] = b ^ (b >>> 9);
  s[1] = (c + (c << 3)) | 0;
  s[2] = ((c << 21) | (c >>> 11)) + t | 0;
  return t >>> 0;
}

/** A uniform integer in [0, n), without modulo bias. */
export function below(s: RngState, n: number): number {
  if (n <= 1) return 0;
  const limit = 0x100000000 - (0x100000000 % n);
  for (;;) {
    const v = nextU32(s);
    // `| 0` keeps the result a small integer: in unoptimized code `v % n` of a large v is a boxed
    // number, and a robot's facing stored from one made V8 keep that field as a float in every copy.
    if (v < limit) return n <= 0x80000000 ? (v % n) | 0 : v % n;
  }
}

/** Fisher–Yates, in place. */
export function shuffle<T>(s: RngState, a: T[]): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = below(s, i + 1);
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
  return a;
}
