/**
 * How a player orders an option, in the program notation (docs/mail.md), with examples: told to a
 * player when the robot gains the option (003 L12: "When people get options, they will also
 * receive a description of how to write orders for it"). What a rule set lets a player decide is
 * read from its `choiceKeys`, never from its name.
 */
import { cardName, CARD_TYPES, PBEM_BASE, upgradeOf } from '../cards.js';
import type { RuleSet } from '../rules/ruleset.js';
import { optionName, TOGGLES, WEAPONS } from './catalog.js';

export interface OptionOrders {
  /** The option's name (without its uses left). */
  readonly option: string;
  /** What the player writes, in words. */
  readonly how: string;
  /** Lines a player can write, each read by the notation as it stands. */
  readonly examples: readonly string[];
}

/** The instruction code that plays an upgrade another way (pbem's F0, F4, B2), if it has one. */
function gearCode(option: string): string | null {
  for (let c = PBEM_BASE + CARD_TYPES.length; upgradeOf(c) !== undefined; c++) if (upgradeOf(c) === option) return cardName(c);
  return null;
}

/** The orders for one held option (`Mini Howitzer:3` is Mini Howitzer) under a rule set. */
export function optionOrders(held: string, rules: RuleSet): OptionOrders {
  const option = optionName(held);
  const keys = rules.options.choiceKeys;
  const has = (k: string) => keys.includes(k);
  const card = (code: string, priority: number) => (rules.priorities ? `${code} P${priority}` : code);
  const say = (how: string, ...examples: string[]): OptionOrders => ({ option, how, examples });
  const exchange = has('exchange') ? ` To discard it instead of a point of damage: "exchange ${option}".` : '';
  const gear = gearCode(option);
  if (gear && !has('brakes')) return say(`play it as the instruction ${gear} in a register of your program, in place of the card it is played from.`, `${gear} F2 F R L`);
  if (has('active') && TOGGLES.includes(option)) return say(`switch it on for the turn with an "active" line (it is off otherwise).`, `active ${option}`);
  if (has('weapon') && (WEAPONS as readonly string[]).includes(option))
    return say(`name the register it fires in instead of the main laser.${exchange}`, `weapon 3 ${option}`, ...(option === 'Tractor Beam' || option === 'Pressor Beam' ? [`weapon 3 ${option} if the opponent will fall into a pit`] : []));
  switch (option) {
    case 'Shield':
      if (has('shield')) return say(`say which side it guards this turn: front, right, back or left.${exchange}`, 'shield back');
      break;
    case 'Gyroscopic Stabilizer':
      if (has('gyro')) return say(`switch it on or off for the turn.${exchange}`, 'gyro on', 'gyro off');
      break;
    case 'Fire Control':
      if (has('fireControl')) return say(`in a register where your main laser hits, lock one of the target's registers or destroy one of its options, instead of the damage.${exchange}`, 'fire control 2 lock 4', 'fire control 2 option Brakes', 'fire control 2 damage');
      break;
    case 'Brakes':
      if (has('brakes')) return say(`name the registers whose Move 1 moves no square.${exchange}`, 'brakes 2 4');
      break;
    case 'Fourth Gear':
      if (has('fourthGear')) return say(`name the registers whose Move 3 moves four squares.${exchange}`, 'fourth gear 1');
      break;
    case 'Reverse Gear':
      if (has('reverseGear')) return say(`name the registers whose Back Up moves two squares.${exchange}`, 'reverse gear 3');
      break;
    case 'Abort Switch':
      if (has('abort')) return say(`name the register from which the rest of your program is replaced by cards from the deck.${exchange}`, 'abort 4');
      break;
    case 'Conditional Program':
      if (has('conditional')) return say(`name the card from your hand to put in a register instead of its card, if you wish when it is revealed.${exchange}`, `conditional ${card('F1', 510)} in register 5`);
      break;
    case 'Flywheel':
      if (has('flywheel')) return say(`name a card of your hand to keep for the next turn.${exchange}`, `flywheel ${card('R', 100)}`);
      break;
    case 'Recompile':
      if (has('recompile')) return say(`send a mail of its own saying "recompile", before your program: you get a new hand (and its damage), and send the program from it in the next mail.${exchange}`, 'recompile');
      break;
    case 'Circuit Breaker':
      if (has('circuitBreaker')) return say('give the damage at which it powers your robot down for the next turn.', 'circuit breaker 6');
      break;
    case 'Crab Legs':
    case 'Dual Processor':
      return say(`play two cards in one register, joined by "+".${exchange}`, rules.priorities ? `F1 P500 + R P80 ${card('F2', 670)} L P90 U P20 B P440` : 'F+L F2 R B U');
    default:
      break;
  }
  return say(`no orders: it works by itself.${exchange}`);
}
