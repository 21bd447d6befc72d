/**
 * The rules and settings in words: what docs/rules.md says of each rule set and setting, and what
 * a race's start mail sends its players (001's moderator sent the rules; a player has no docs
 * folder). One source: docs/rules.md is checked against these texts by a test, so the two cannot
 * drift. Plain text, with `code` marks that a mail may keep or drop.
 */
import type { Settings } from '../settings.js';
import type { RuleSet } from './ruleset.js';

/** One rule of a rule set, with the seed line it comes from. */
export interface RuleLine {
  readonly rule: string;
  readonly text: string;
  readonly source: string;
}

/** A rule set in words: what it is, and either a summary or a table of its rules. */
export interface RulesText {
  readonly title: string;
  readonly summary?: string;
  readonly rules?: readonly RuleLine[];
}

const TEXTS: Readonly<Record<string, Omit<RulesText, 'title'>>> = {
  classic: {
    summary:
      'the 84-card deck, 9 − damage cards, a register locked for each point past 4, destroyed at 10, priority by the card\'s number, express belts before all belts, re-entry on the archive with 2 damage in the facing the player chooses (virtual when the square is shared), repair 1 on a wrench or flag and 2 or an option on two wrenches, power down only for damaged robots.',
  },
  pbem: {
    rules: [
      { rule: 'instructions', text: '10 − ⌊damage/2⌋, each drawn on its own at F1:F2:F3:B:L:R:U = 21:14:7:7:21:21:7', source: '001 L57-61' },
      { rule: 'locked registers', text: '⌊(damage − 10)/2⌋ from 12 damage, from register 5 down; repair frees the lowest first', source: '001 L289' },
      { rule: 'destroyed', text: 'at 22 damage', source: '001 L297' },
      { rule: 'move order', text: 'F3 > F2 > F > B > L = R = U > powered down > destroyed; a tie goes to the robot that ranked higher in the previous register (register 1: the last of the previous round); a destroyed robot drops to the bottom of the list; with no history, a draw from the seed', source: '001 L85' },
      { rule: 'belts', text: 'all belts move 1, then express belts move 1', source: '001 L41-43' },
      { rule: 're-entry', text: '4 damage, facing as when destroyed; the first destroyed takes the archive, each later one (or one finding a robot there) a random empty orthogonal neighbour that is not a pit; no archive yet: the start position; with no free neighbour it waits a round', source: '001 L307-319' },
      { rule: 'repair', text: 'a wrench repairs 2; a hammer (`WW`) repairs 2 and gives the upgrade it offers; flags repair nothing', source: '001 L179-181' },
      { rule: 'hammer offers', text: 'each hammer site offers an upgrade drawn from the 22; a taken offer is replaced at once; an offer not taken by the end of its fifth round is replaced', source: '001 L181' },
      { rule: 'power down', text: 'any robot; destruction cancels it; no wrench or hammer while down', source: '001 L69-75' },
      { rule: 'destruction', text: 'loses a random upgrade', source: '001 L305' },
      { rule: 'end', text: 'play goes on five rounds after the first finisher', source: '001 L331' },
    ],
  },
};

/** A rule set in words: its title (the rule set's own), and its summary or rules (an unknown rule set has only its title). */
export const rulesText = (rules: RuleSet): RulesText => ({ title: rules.title, ...TEXTS[rules.name] });

/** What each setting takes and does, in docs/rules.md's words: one for every setting. */
export const SETTING_TEXTS: { readonly [K in keyof Settings]-?: { readonly value: string; readonly effect: string } } = {
  lives: { value: 'number', effect: 'lives per robot (default 3)' },
  extraLives: { value: 'true', effect: '+1 life with 5 or more robots, +1 with 5 or more boards (000 L59-63)' },
  diceRule: { value: 'one number per flag', effect: 'each flag is blockaded by a die absorbing that much damage: its square is walled on all four sides and cannot be reached; the die blocks board and robot lasers like a robot and takes their damage; at zero it is gone for good (004 L182)' },
  oneFreeLife: { value: 'true', effect: 'a robot\'s first re-entry is with no damage (004 L188)' },
  infiniteLives: { value: 'true', effect: 'lives are never lost; a destroyed robot always re-enters on its archive (004 L188)' },
  threeMinuteRule: { value: 'seconds', effect: 'the time each player has to program in a live race; at the limit the empty registers are filled from the player\'s unplayed cards at random (`fillProgram`); a race on deadlines always fills late programs this way (004 L188)' },
  variant: { value: '`"race"` or `"arena"`', effect: 'RoboArena: flags are not touched and the last robot not out of the game wins (004 L192); the robots start in the corners, then at the middles of the edges, each facing the middle of the floor (004 L217 "4 robots starting on the 4 corners"); with `infiniteLives` it needs a `turnLimit`' },
  playOn: { value: 'true, or turns', effect: 'play on after the first finish for the runners-up (000 L76, 004 L103): `true` until every robot (every team) has finished or is out; a number: that many turns after the turn of the first finish. Without it `classic` ends at the first finish and `pbem` plays five more rounds (001 L331)' },
  turnLimit: { value: 'turns', effect: 'the race ends after this turn (RoboArena\'s limit; any race may set one)' },
  noShutdowns: { value: 'true', effect: 'no robot powers down: no announcement, and a destroyed robot re-enters powered up (RoboArena\'s "no shut-downs", 004 L217)' },
  maxOptions: { value: 'number, 0 up', effect: 'a robot holds at most this many options: at the limit it draws none (a two-wrench site repairs instead, One Free Option skips it, a hammer keeps its upgrade) (004 L217 "various restrictions on options")' },
  cubed: { value: '`"inside"` or `"outside"`', effect: 'RoboRally Cubed, on a cube course (six boards folded into a cube, every board edge attached to another; 004 L179): robots, pushes and belts go over every board edge onto the board attached to it, turning with the floor; `inside` (the default) lasers cross a board edge only into the first row across it, `outside` they do not cross board edges' },
  teams: { value: 'team name → robot names', effect: 'teams (000 L21 "playing independently or on teams"): a team wins when the first of its robots finishes; the standings list each team (placed by its best robot) and each robot racing on its own; with `playOn` a team is done once one of its robots has finished' },
  installingOptions: { value: 'true', effect: 'a robot drawing an option first takes a point of damage per option it holds (004 L185)' },
  noSitAndSpin: { value: 'true', effect: 'no second option from two-wrench sites until the robot has touched another repair site; refused, it repairs (004 L185)' },
  oneFreeOption: { value: 'true', effect: 'each robot draws an option when the race is made (004 L188)' },
  secretOptions: { value: 'true', effect: 'the others see an option only once it has been used; the log says "a secret option" where one is drawn (004 L188)' },
  shieldPerRegister: { value: 'true', effect: 'Shield and Power-Down Shield block one point per register (per side) instead of one per shot' },
  exchangeWhilePoweredDown: { value: 'false', effect: 'option exchange is not allowed while powered down (B-37; allowed by default)' },
  optionDeck: { value: 'option names', effect: 'these cards on top of the option deck, the rest shuffled' },
  programDeck: { value: 'cards', effect: 'classic: the cards Scrambler, Abort Switch and Recompile draw first, while undealt' },
};

/** The value of a setting as a player reads it. */
function shown(v: unknown): string {
  if (v === true) return 'on';
  if (v === false) return 'off';
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'object' && v !== null) return Object.entries(v).map(([k, x]) => `${k}: ${Array.isArray(x) ? x.join(', ') : String(x)}`).join('; ');
  return String(v);
}

/**
 * The rules of a race in plain lines for a mail: its rule set, then each setting it sets with
 * what it does (`code` marks dropped).
 */
export function rulesLines(rules: RuleSet, settings: Settings): string[] {
  const t = rulesText(rules);
  const plain = (s: string) => s.replace(/`/g, '');
  const out = [`Rules: ${rules.name}, ${plain(t.title).replace(/^The /, 'the ')}${t.summary ? `: ${plain(t.summary)}` : ':'}`];
  for (const r of t.rules ?? []) out.push(`  - ${plain(r.rule)}: ${plain(r.text)} (${r.source})`);
  const set = (Object.keys(SETTING_TEXTS) as (keyof Settings)[]).filter((k) => settings[k] !== undefined);
  if (set.length) {
    out.push('Settings of this race:');
    // A deck's order is the race's secret: that it is set is told, not what it holds.
    for (const k of set) out.push(`  - ${k} = ${k === 'optionDeck' || k === 'programDeck' ? 'set (its cards are not told)' : shown(settings[k])}: ${plain(SETTING_TEXTS[k].effect)}`);
  }
  return out;
}

/**
 * What a race asks of a robot and what it starts with, for its player (the start mail): the flags
 * in order, or RoboArena's last robot standing (004 L192), the turn limit if any; its lives (none
 * lost under Infinite Lives, 004 L188) and any damage it starts with (a handicap, 004 L174).
 */
export function goalLine(settings: Settings, flags: number, robot: { readonly lives: number; readonly damage: number }): string {
  const limit = settings.turnLimit !== undefined ? `; the race ends after turn ${settings.turnLimit} at the latest` : '';
  const goal = settings.variant === 'arena' ? `RoboArena: no flag counts, the last robot not out of the race wins${limit}.` : `Touch the ${flags} flags in order${limit}.`;
  const lives = settings.infiniteLives ? 'lives that never run out' : `${robot.lives} ${robot.lives === 1 ? 'life' : 'lives'}`;
  return `${goal} Your robot has ${lives}${robot.damage ? ` and starts with ${robot.damage} damage` : ''}.`;
}
