/**
 * Letters that look like other letters, for telling whether two seats' names could be mistaken for
 * each other ("Аlice" with a Cyrillic А and "Alice"). A small table of the common cases, taken
 * from the Unicode Consortium's confusables list (UTS #39, confusables.txt) for the scripts a
 * seat's name is most often written in: Cyrillic and Greek letters drawn like Latin ones, a few
 * Latin letters outside ASCII that no normalization folds (ı, ɑ, ɡ), and the ASCII look-alikes of
 * sans-serif type (I l 1, O 0, rn m, vv w, cl d). Letters NFKC already folds (ſ, ϲ) are left to it. Capitals and small letters are mapped apart, since
 * a capital may look like one Latin letter and its small letter like another (Greek Η is H, η is n).
 *
 * `skeleton` maps a name, letter by letter, to the Latin letters it looks like, case folded; two
 * names look alike when their skeletons are equal (accents and separators are folded first: setup.ts).
 */

/** Each letter (a capital or a small one) and the Latin it is drawn like. */
const LOOKS_LIKE: Record<string, string> = {
  // Cyrillic capitals
  'А': 'A', 'В': 'B', 'Е': 'E', 'Ѐ': 'E', 'Ё': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C',
  'Т': 'T', 'У': 'Y', 'Х': 'X', 'Ѕ': 'S', 'І': 'l', 'Ї': 'l', 'Ј': 'J', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y', 'Ӏ': 'l', 'Ԁ': 'd',
  // Cyrillic small letters
  'а': 'a', 'е': 'e', 'ѐ': 'e', 'ё': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i',
  'ї': 'i', 'ј': 'j', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y', 'ӏ': 'l', 'ɡ': 'g',
  // Greek capitals
  'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'l', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
  'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'Ϳ': 'J',
  // Greek small letters
  'α': 'a', 'γ': 'y', 'ι': 'i', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'σ': 'o', 'υ': 'u', 'χ': 'x', 'ϳ': 'j', 'η': 'n', 'κ': 'k',
  // Latin letters no normalization folds
  'ı': 'i', 'ȷ': 'j', 'ɑ': 'a', 'ɩ': 'i', 'ʏ': 'y',
  // Sans-serif ASCII: a capital I and a one are drawn like a small L; a zero like an O
  'I': 'l', '1': 'l', '0': 'O',
};

/** Pairs of small letters drawn like one (after the table): "rn" like "m", "vv" like "w", "cl" like "d". */
const PAIRS: readonly [RegExp, string][] = [[/rn/g, 'm'], [/vv/g, 'w'], [/cl/g, 'd']];

const mapped = (s: string): string => {
  let out = '';
  for (const c of s) out += LOOKS_LIKE[c] ?? c;
  return out;
};

/**
 * The Latin letters a name looks like, case folded: mapped as written (capitals as capitals), then
 * folded and mapped again (a capital missing from the table whose small letter is in it), then
 * the pairs.
 */
export function skeleton(name: string): string {
  let out = mapped(mapped(name).toLowerCase());
  for (const [pair, one] of PAIRS) out = out.replace(pair, one);
  return out;
}
