/** The option cards of classic and the upgrades of pbem by name, as OPTIONS.md lists them. */

/** The 26 option cards of the 1994 box and Shield (OPTIONS.md part 2; 000 L245-267). */
export const OPTION_CARDS = [
  'Ablative Coat', 'Abort Switch', 'Brakes', 'Circuit Breaker', 'Conditional Program', 'Crab Legs',
  'Double-Barreled Laser', 'Dual Processor', 'Extra Memory', 'Fire Control', 'Flywheel', 'Fourth Gear',
  'Gyroscopic Stabilizer', 'High-Power Laser', 'Mechanical Arm', 'Mini Howitzer', 'Power-Down Shield',
  'Pressor Beam', 'Radio Control', 'Ramming Gear', 'Rear-Firing Laser', 'Recompile', 'Reverse Gear',
  'Scrambler', 'Superior Archive', 'Tractor Beam', 'Shield',
] as const;

/** The 22 upgrades of 001 L185-227 (OPTIONS.md part 3). */
export const UPGRADES = [
  'Brakes', 'Fourth Gear', 'Reverse Gear', 'Crab Legs', 'Dual Processor', 'Gyroscopic Stabilizer',
  'Double-Barreled Lasers', 'Rear-Firing Laser', 'Ramming Gear', 'High-Power Laser', 'Pressor Beam',
  'Tractor Beam', 'Mini Howitzer', 'Scrambler', 'Radio Control', 'Ablative Coat', 'Circuit Breaker',
  'Power-Down Shield', 'Superior Archive', 'Extra Memory', 'Flywheel', 'Recompile',
] as const;

/**
 * The optional weapons, in the order OPTIONS.md part 3 gives pbem's toggles: with several switched
 * on, the first acts.
 */
export const WEAPONS = ['Pressor Beam', 'Tractor Beam', 'Mini Howitzer', 'Scrambler', 'Radio Control'] as const;
export type Weapon = (typeof WEAPONS)[number];
export const isWeapon = (name: string): name is Weapon => (WEAPONS as readonly string[]).includes(name);

/** Where, within a register phase, a used option acts: in its robot's own move, on the register's cards before anyone moves, or as lasers fire. */
export type OptionStep = 'move' | 'cards' | 'lasers';
const OPTION_STEPS: ReadonlyMap<string, OptionStep> = new Map<string, OptionStep>([
  ...(['Brakes', 'Fourth Gear', 'Reverse Gear', 'Crab Legs', 'Dual Processor'] as const).map((o) => [o, 'move'] as const),
  ...(['Abort Switch', 'Conditional Program'] as const).map((o) => [o, 'cards'] as const),
  ...([...WEAPONS, 'Double-Barreled Laser', 'Double-Barreled Lasers', 'High-Power Laser', 'Rear-Firing Laser', 'Fire Control'] as const).map((o) => [o, 'lasers'] as const),
]);
/** The step of a register phase an option used acts in (`optionUsed`), or null for one that acts outside them (repairs, destruction, the turn's start or end). */
export const optionStep = (option: string): OptionStep | null => OPTION_STEPS.get(optionName(option)) ?? null;

/** pbem upgrades switched on or off for a round (`active`, OPTIONS.md part 3). */
export const TOGGLES: readonly string[] = ['Gyroscopic Stabilizer', ...WEAPONS];

/**
 * A card with uses is written `NAME:LEFT` (OPTIONS.md 1.4); its name is the part before. A name
 * without a colon is returned as it is, without a regular expression: the bots' search asks this
 * of every held option in every register it simulates.
 */
export const optionName = (held: string): string => (held.includes(':') ? held.replace(/:\d+$/, '') : held);

/** Uses left of a held card with uses: `NAME:LEFT`, or the card's full count for a bare name. */
export function usesLeft(held: string, full: number): number {
  const m = /:(\d+)$/.exec(held);
  return m ? Number(m[1]) : full;
}
