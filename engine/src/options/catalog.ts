/** The upgrades of pbem by name, as OPTIONS.md lists them. */

/** The 22 upgrades of 001 L185-227 (OPTIONS.md part 3). */
export const UPGRADES = [
  'Brakes', 'Fourth Gear', 'Reverse Gear', 'Crab Legs', 'Dual Processor', 'Gyroscopic Stabilizer',
  'Double-Barreled Lasers', 'Rear-Firing Laser', 'Ramming Gear', 'High-Power Laser', 'Pressor Beam',
  'Tractor Beam', 'Mini Howitzer', 'Scrambler', 'Radio Control', 'Ablative Coat', 'Circuit Breaker',
  'Power-Down Shield', 'Superior Archive', 'Extra Memory', 'Flywheel', 'Recompile',
] as const;

/** A card with uses is written `NAME:LEFT` (OPTIONS.md 1.4); its name is the part before. */
export const optionName = (held: string): string => held.replace(/:\d+$/, '');
