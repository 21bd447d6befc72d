/** The names of the option cards (classic) and the upgrades (pbem), as OPTIONS.md lists them. */

/** The 26 option cards of the 1994 box and Shield (OPTIONS.md part 2). */
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

/** A card with uses is written `NAME:LEFT` (OPTIONS.md 1.4); its name is the part before. */
export const optionName = (held: string): string => held.replace(/:\d+$/, '');
