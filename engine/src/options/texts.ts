/**
 * What each option card does, in words, as the seeds state it (rules-catalog.md O1-O26, the option
 * cards of 000 and 001's upgrades), for the players: the web shows it on the card, a mail may send
 * it. A card that reads differently in a rule set has that rule set's text; the ones only one rule
 * set deals have only its text.
 */
import type { RuleSet } from '../rules/ruleset.js';
import { optionName } from './catalog.js';

type Texts = { readonly any?: string; readonly classic?: string; readonly pbem?: string };

const TEXTS: Readonly<Record<string, Texts>> = {
  'Ablative Coat': { classic: 'Blocks damage like a shield until it has absorbed three points, then is discarded.', pbem: 'Absorbs six damage, then is discarded.' },
  'Abort Switch': { classic: 'Once a turn, as a register is revealed, replace the cards of this and the remaining registers with cards from the deck.' },
  Brakes: { any: 'A Move 1 may be played as a Move 0 (no movement). Priority after Move 1, before Back Up.' },
  'Circuit Breaker': { any: 'Once the robot has received eight damage (a threshold you may change each round), it powers down next round.' },
  'Conditional Program': { classic: 'Keep a card aside; after a register is revealed you may play it there instead.' },
  'Crab Legs': { any: 'A Move 1 may be combined with a Rotate Left or Right in one register: the robot sidesteps left or right. Priority as the Move 1.' },
  'Double-Barreled Laser': { any: 'The main laser fires two beams: two points of damage a hit. It cannot be turned off.' },
  'Double-Barreled Lasers': { any: 'The robot fires two forward-facing lasers.' },
  'Dual Processor': { any: 'A move and a rotation may share one register: the robot moves one less (two less with a U-turn), then turns. Priority as the move.' },
  'Extra Memory': { any: 'The robot receives one extra card each round.' },
  'Fire Control': { classic: 'When your laser would damage a robot, you may instead lock one of its registers or destroy one of its options.' },
  Flywheel: { any: 'Save an unused card for the next round.' },
  'Fourth Gear': { any: 'A Move 3 may be played as a Move 4. Priority before Move 3.' },
  'Gyroscopic Stabilizer': { any: 'Rotating gears and belts do not turn the robot. Can be switched on or off for the round.' },
  'High-Power Laser': { any: 'The robot\'s lasers shoot through one wall or robot to damage another robot.' },
  'Mechanical Arm': { classic: 'The robot may touch a flag or repair site diagonally or one square away.' },
  'Mini Howitzer': { any: 'The robot\'s lasers push the target one square away and damage it. Can be switched on or off for the round. Discarded after five uses.' },
  'Power-Down Shield': { any: 'While powered down, blocks one point of damage from each side each register.' },
  'Pressor Beam': { any: 'The robot\'s lasers push the target one square away instead of damaging it. Can be switched on or off for the round.' },
  'Radio Control': { any: 'The robot\'s lasers make the target copy your program for the remaining registers instead of damaging it. Can be switched on or off for the round.' },
  'Ramming Gear': { any: 'When the robot pushes or bumps another robot, it deals it two damage.' },
  'Rear-Firing Laser': { any: 'The robot also fires a laser backward.' },
  Recompile: { classic: 'Once a turn, discard your hand and draw a new one; the new cards cost a point of damage.', pbem: 'Discard all your instructions to receive new ones. Costs two damage; the deadline is not changed.' },
  'Reverse Gear': { any: 'A Back Up may be played as a Back Up 2. Priority after Move 2, before Move 1.' },
  Scrambler: { any: 'The robot\'s lasers replace the target\'s next card with a random one instead of damaging it.' },
  Shield: { classic: 'Protects one side of the robot, chosen each turn, from laser damage: one point a shot.' },
  'Superior Archive': { any: 'The robot re-enters with no damage after being destroyed.' },
  'Tractor Beam': { any: 'The robot\'s lasers pull the target one square closer (if it is more than a square away) instead of damaging it.' },
};

/** What the option (`Mini Howitzer:3` is Mini Howitzer) does under this rule set; null if no text is known. */
export function optionText(held: string, rules: RuleSet): string | null {
  const t = TEXTS[optionName(held)];
  return (t && ((t as Record<string, string | undefined>)[rules.name] ?? t.any)) ?? null;
}

/** The options that have a text (a test keeps every option card of the catalog among them). */
export const OPTIONS_WITH_TEXT: readonly string[] = Object.keys(TEXTS);
