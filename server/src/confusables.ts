/**
 * Letters that look like other letters, for telling whether two seats' names could be mistaken for
 * each other ("Аlice" with a Cyrillic А and "Alice"). The table is the Unicode Consortium's
 * confusables list (UTS #39, confusables.txt) as the `unhomoglyph` package keeps it: each of some
 * 6,300 characters mapped to the prototype it is drawn like (Cyrillic а to a, Greek Η to H, I and 1
 * to l, 0 to O, m to rn). Capitals and small letters map apart, since a capital may look like one
 * Latin letter and its small letter like another (Greek Η is H, η is n). Two pairs of sans-serif
 * type the list leaves out are added: vv is drawn like w, cl like d.
 *
 * `skeleton` maps a name to the letters it looks like, case folded; two names look alike when their
 * skeletons are equal (accents and separators are folded first: setup.ts).
 */
import unhomoglyph from 'unhomoglyph';

/** Pairs of small letters drawn like one, which the confusables list does not map. */
const PAIRS: readonly [RegExp, string][] = [[/vv/g, 'w'], [/cl/g, 'd']];

/**
 * The letters a name looks like, case folded: mapped as written (capitals as capitals), then folded
 * and mapped again (a capital the list leaves alone whose small letter it maps), then the pairs.
 */
export function skeleton(name: string): string {
  let out = unhomoglyph(unhomoglyph(name).toLowerCase());
  for (const [pair, one] of PAIRS) out = out.replace(pair, one);
  return out;
}
