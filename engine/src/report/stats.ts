/**
 * Statistics of a race from its events alone, 001's fourteen awards, and 001's order of starting
 * picks for the next race (001 L333-383).
 */
import type { GameEvent } from '../events.js';
import { below, seedRng, shuffle } from '../rng.js';

export interface RobotStats {
  readonly name: string;
  /** Laser damage this robot's shots dealt, plus 3 for each kill (001 L337). */
  damageDealt: number;
  damageTaken: number;
  /** Robots this robot pushed to their doom: it was the last to push them before they fell or were crushed (001 L337). */
  kills: number;
  /** Times it fell into a pit or off the board. */
  falls: number;
  /** Times it was destroyed, by any cause (a fall, damage, a crusher). */
  deaths: number;
  powerDowns: number;
  /** Registers the moderator had to fill because the program was missing or illegal (not those its player left to chance). */
  questionable: number;
  flags: number;
  /** Finishing place, or null. */
  place: number | null;
}

/** 001 L337: "pushing a player and causing them to die counts as 3 damage". */
const KILL_DAMAGE = 3;

/** Adds up the events of a whole race (every turn, in order). */
export function raceStats(names: readonly string[], events: readonly GameEvent[]): RobotStats[] {
  const s: RobotStats[] = names.map((name) => ({
    name, damageDealt: 0, damageTaken: 0, kills: 0, falls: 0, deaths: 0, powerDowns: 0, questionable: 0, flags: 0, place: null,
  }));
  for (const e of events) {
    switch (e.type) {
      case 'shot':
        if ('robot' in e.by) s[e.by.robot]!.damageDealt += e.points;
        break;
      case 'damaged':
        s[e.robot]!.damageTaken += e.points;
        break;
      case 'destroyed':
        // 001 L337 "The last person to directly push a robot is credited with the kill. A kill
        // is not recorded if a robot dies of its own accord".
        if (e.pushedBy && 'robot' in e.pushedBy && e.pushedBy.robot !== e.robot) {
          s[e.pushedBy.robot]!.kills += 1;
          s[e.pushedBy.robot]!.damageDealt += KILL_DAMAGE;
        }
        if (e.cause === 'pit' || e.cause === 'edge') s[e.robot]!.falls += 1;
        s[e.robot]!.deaths += 1;
        break;
      case 'poweredDown':
        s[e.robot]!.powerDowns += 1;
        break;
      case 'programmed':
        s[e.robot]!.questionable += e.filled.filter((f) => f.reason !== 'chosen').length;
        break;
      case 'flagTouched':
        s[e.robot]!.flags = Math.max(s[e.robot]!.flags, e.flag);
        break;
      case 'finished':
        s[e.robot]!.place = e.place;
        break;
      default:
        break;
    }
  }
  return s;
}

export interface Award {
  readonly award: string;
  /** 001's wording of what earns it. */
  readonly for: string;
  /** The robots that earn it (a tie shares it). */
  readonly robots: string[];
}

/**
 * 001 L355-383, in its order. Its last two have no name ("? robot"); we call them Ace and Scrap.
 * `most` is the most of a count (damage, kills, falls, power downs, questionable moves): nobody
 * earns it when nobody has any (a Hibernating robot that never powered down), where `max` (the
 * damage record, which may be below 0) always goes to the best.
 */
const AWARDS: readonly [string, string, (s: RobotStats) => number, 'min' | 'max' | 'most'][] = [
  ['Pacifist robot', 'dealt the least amount of damage', (s) => s.damageDealt, 'min'],
  ['Terminator robot', 'dealt the most amount of damage', (s) => s.damageDealt, 'most'],
  ['Shover robot', 'pushed the most robots to their doom', (s) => s.kills, 'most'],
  ['Friendly robot', 'pushed the least number of robots to their doom', (s) => s.kills, 'min'],
  ['Camouflaged robot', 'took the least amount of damage', (s) => s.damageTaken, 'min'],
  ['Swiss cheese robot', 'took the most amount of damage', (s) => s.damageTaken, 'most'],
  ['Clumsy robot', 'fell off the board the most', (s) => s.falls, 'most'],
  ['Cautious robot', 'fell off the board the least', (s) => s.falls, 'min'],
  ['Energizer robot', 'powered down the least', (s) => s.powerDowns, 'min'],
  ['Hibernating robot', 'powered down the most', (s) => s.powerDowns, 'most'],
  ['Smart robot', 'the fewest questionable moves', (s) => s.questionable, 'min'],
  ['Confused robot', 'the most questionable moves', (s) => s.questionable, 'most'],
  ['Ace robot', 'the best damage record (damage dealt - damage taken)', (s) => s.damageDealt - s.damageTaken, 'max'],
  ['Scrap robot', 'the worst damage record (damage dealt - damage taken)', (s) => s.damageDealt - s.damageTaken, 'min'],
];

/** The awards earned, in 001's order; an award nobody earns is left out. */
export function awards(stats: readonly RobotStats[]): Award[] {
  if (!stats.length) return [];
  return AWARDS.flatMap(([award, what, value, way]) => {
    const values = stats.map(value);
    const best = way === 'min' ? Math.min(...values) : Math.max(...values);
    if (way === 'most' && best <= 0) return [];
    return [{ award, for: what, robots: stats.filter((_, i) => values[i] === best).map((s) => s.name) }];
  });
}

/**
 * 001 L333-351: the first finisher picks first, then the robot that caused the most damage, then
 * the other finishers in order, then the rest by flags touched; newcomers last, in random order.
 * Ties (places shared, equal damage or flags) are resolved at random from `seed` (B-48); a robot
 * that has already picked is passed over for the damage pick.
 */
export function startingPicks(stats: readonly RobotStats[], newcomers: readonly string[], seed: number): string[] {
  const rng = seedRng(seed);
  const tieOrder = shuffle(rng, stats.map((_, i) => i));
  const rank = new Map(tieOrder.map((i, k) => [i, k]));
  const byTie = (a: number, b: number) => rank.get(a)! - rank.get(b)!;
  const finishers = stats.map((_, i) => i).filter((i) => stats[i]!.place !== null)
    .sort((a, b) => stats[a]!.place! - stats[b]!.place! || byTie(a, b));
  const picks: number[] = [];
  if (finishers.length) picks.push(finishers[0]!);
  const damage = stats.map((_, i) => i).filter((i) => !picks.includes(i))
    .sort((a, b) => stats[b]!.damageDealt - stats[a]!.damageDealt || byTie(a, b));
  if (damage.length) picks.push(damage[0]!);
  for (const i of finishers) if (!picks.includes(i)) picks.push(i);
  const rest = stats.map((_, i) => i).filter((i) => !picks.includes(i))
    .sort((a, b) => stats[b]!.flags - stats[a]!.flags || byTie(a, b));
  picks.push(...rest);
  const late = newcomers.slice();
  for (let k = late.length - 1; k > 0; k--) {
    const j = below(rng, k + 1);
    [late[k], late[j]] = [late[j]!, late[k]!];
  }
  return [...picks.map((i) => stats[i]!.name), ...late];
}
