/**
 * A race's settings and house rules, by the names of RULES.md (Settings). All house rules are off
 * unless set. `parseSettings` reads them at the edge, naming the field and what it expects.
 */
import { err, ok, type Result } from './result.js';
import { parseCard } from './cards.js';
import { OPTION_CARDS } from './options/catalog.js';

export interface Settings {
  /** Lives per robot (default 3). */
  readonly lives?: number;
  /** The manual's optional rule: +1 life with 5 or more robots, +1 with 5 or more boards (000 L59-63). */
  readonly extraLives?: boolean;
  /** FAQ Dice Rule (004 L182): each flag is blockaded by a die absorbing this much damage, one number per flag. */
  readonly diceRule?: readonly number[];
  /** FAQ One Free Life (004 L188): a robot's first re-entry is without damage. */
  readonly oneFreeLife?: boolean;
  /** FAQ Infinite Lives (004 L188): lives never run out. */
  readonly infiniteLives?: boolean;
  /** FAQ Three Minute Rule (004 L188): seconds each player has to program in a live race. */
  readonly threeMinuteRule?: number;
  /** `arena`: RoboArena (004 L192), no flags, the last robot standing wins. */
  readonly variant?: 'race' | 'arena';
  /** FAQ Installing Options (004 L185): a robot installing an option takes a point per option it holds. */
  readonly installingOptions?: boolean;
  /** FAQ No Sit-and-Spin (004 L185): no second option from two-wrench sites before another repair site. */
  readonly noSitAndSpin?: boolean;
  /** FAQ One Free Option (004 L188): each robot draws an option at the start. */
  readonly oneFreeOption?: boolean;
  /** FAQ Secret Options (004 L188): options stay hidden from the other players until used. */
  readonly secretOptions?: boolean;
  /** Shield and Power-Down Shield block one point per register (per side), not one per shot (OPTIONS.md 2.17, 2.27). */
  readonly shieldPerRegister?: boolean;
  /** Option exchange is allowed while powered down (B-37; default true). */
  readonly exchangeWhilePoweredDown?: boolean;
  /**
   * Play on after the first finish for the runners-up (000 L76 "play can continue to determine
   * runners-up"; 004 L103): `true` until every robot (every team) has finished or is out, a number
   * for that many turns after the turn of the first finish. Without it, `classic` ends at the first
   * finish and `pbem` plays its five rounds (001 L331).
   */
  readonly playOn?: true | number;
  /** The race ends after this turn at the latest (RoboArena's limit, 004 L217; any race may set one). */
  readonly turnLimit?: number;
  /** No robot powers down: no announcement, no re-entry powered down (RoboArena's "no shut-downs", 004 L217). */
  readonly noShutdowns?: boolean;
  /** A robot holds at most this many options: it draws no more and repairs instead (004 L217 "restrictions on options"). */
  readonly maxOptions?: number;
  /**
   * Teams (000 L21 "playing independently or on teams"): team name → its robots' names. A team
   * wins when the first of its robots finishes; the standings list teams.
   */
  readonly teams?: Readonly<Record<string, readonly string[]>>;
  /**
   * RoboRally Cubed (004 L179), on a cube course: `inside` (the default), lasers cross a board
   * edge only into the first row across it; `outside`, lasers do not cross board edges.
   */
  readonly cubed?: 'inside' | 'outside';
  /** The option deck's order, top first (OPTIONS.md 1.4); the rest follows shuffled. */
  readonly optionDeck?: readonly string[];
  /** classic: cards drawn first by Scrambler, Abort Switch and Recompile, while undealt (OPTIONS.md 1.4). */
  readonly programDeck?: readonly string[];
}

export type SettingKind = 'count' | 'flag' | 'seconds' | 'dice' | 'variant' | 'options' | 'cards' | 'playOn' | 'limit' | 'teams' | 'cubed';

/** Settings this engine plays, and what each must be. */
export const SETTING_KINDS: Record<keyof Settings, SettingKind> = {
  lives: 'count',
  extraLives: 'flag',
  diceRule: 'dice',
  oneFreeLife: 'flag',
  infiniteLives: 'flag',
  threeMinuteRule: 'seconds',
  variant: 'variant',
  installingOptions: 'flag',
  noSitAndSpin: 'flag',
  oneFreeOption: 'flag',
  secretOptions: 'flag',
  shieldPerRegister: 'flag',
  exchangeWhilePoweredDown: 'flag',
  playOn: 'playOn',
  turnLimit: 'count',
  noShutdowns: 'flag',
  maxOptions: 'limit',
  teams: 'teams',
  cubed: 'cubed',
  optionDeck: 'options',
  programDeck: 'cards',
};

const MAX_TEAMS = 8;
const TEAM_NAME = /^[\p{L}\p{N} _.-]{1,24}$/u;

/**
 * The whole numbers each kind of setting takes, least and most: a race has no use for more, and a
 * number read at the edge is always bounded (lives, turn limits and play-on turns up to 9,999; the
 * Three Minute Rule up to a day; an option limit and a die up to 99).
 */
export const SETTING_RANGES = {
  count: [1, 9999],
  seconds: [1, 86_400],
  limit: [0, 99],
  dice: [1, 99],
  playOn: [1, 9999],
} as const satisfies Partial<Record<SettingKind, readonly [number, number]>>;

const inRange = (v: unknown, [least, most]: readonly [number, number]): v is number => Number.isInteger(v) && (v as number) >= least && (v as number) <= most;

/** Reads settings; `flags` is the number of flags of the course, for the Dice Rule. */
export function parseSettings(json: unknown, flags: number, path = 'settings'): Result<Settings> {
  if (json === undefined) return ok({});
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return err(path, 'expected an object of settings');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) {
    // Only the settings' own names: "toString" or "__proto__" name nothing.
    const kind = Object.hasOwn(SETTING_KINDS, k) ? SETTING_KINDS[k as keyof Settings] : undefined;
    const p = `${path}.${k}`;
    if (!kind) return err(p, `unknown setting (expected one of ${Object.keys(SETTING_KINDS).join(', ')})`);
    switch (kind) {
      case 'count':
        if (!inRange(v, SETTING_RANGES.count)) return err(p, `expected a whole number from 1 to ${SETTING_RANGES.count[1]}`);
        break;
      case 'seconds':
        if (!inRange(v, SETTING_RANGES.seconds)) return err(p, `expected a number of seconds from 1 to ${SETTING_RANGES.seconds[1]}`);
        break;
      case 'flag':
        if (typeof v !== 'boolean') return err(p, 'expected true or false');
        break;
      case 'variant':
        if (v !== 'race' && v !== 'arena') return err(p, 'expected "race" or "arena"');
        break;
      case 'cubed':
        if (v !== 'inside' && v !== 'outside') return err(p, 'expected "inside" or "outside" (of the cube)');
        break;
      case 'options':
        if (!Array.isArray(v) || v.some((o) => !(OPTION_CARDS as readonly string[]).includes(o)))
          return err(p, `expected a list of option card names (${OPTION_CARDS.join(', ')})`);
        if (new Set(v).size !== v.length) return err(p, 'each option card exists once');
        break;
      case 'cards':
        if (!Array.isArray(v) || v.some((c) => typeof c !== 'string' || parseCard(c, true) === undefined))
          return err(p, 'expected a list of program cards written CODE:PRIORITY, such as F2:670');
        break;
      case 'playOn':
        if (v !== true && !inRange(v, SETTING_RANGES.playOn)) return err(p, `expected true (until every robot has finished or is out) or a number of turns after the first finish, 1 to ${SETTING_RANGES.playOn[1]}`);
        break;
      case 'limit':
        if (!inRange(v, SETTING_RANGES.limit)) return err(p, `expected a whole number from 0 to ${SETTING_RANGES.limit[1]}`);
        break;
      case 'teams': {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return err(p, 'expected an object: team name → its robots\' names');
        const seen = new Set<string>();
        const teams = Object.entries(v);
        if (teams.length > MAX_TEAMS) return err(p, `expected at most ${MAX_TEAMS} teams`);
        for (const [team, names] of teams) {
          if (!TEAM_NAME.test(team)) return err(`${p}.${team}`, 'expected a team name of 1 to 24 letters, digits, spaces, _ . -');
          if (!Array.isArray(names) || !names.length || names.length > MAX_TEAMS || names.some((n) => typeof n !== 'string' || !n))
            return err(`${p}.${team}`, `expected a list of 1 to ${MAX_TEAMS} robot names`);
          for (const n of names as string[]) {
            if (seen.has(n)) return err(`${p}.${team}`, `"${n}" is in two teams`);
            seen.add(n);
          }
        }
        break;
      }
      case 'dice':
        if (!Array.isArray(v) || !v.every((d) => inRange(d, SETTING_RANGES.dice))) return err(p, `expected a list of die values, one whole number (1 to ${SETTING_RANGES.dice[1]}) per flag`);
        if (v.length !== flags) return err(p, `expected one die per flag: ${flags} value${flags === 1 ? '' : 's'}, found ${v.length}`);
        break;
    }
    out[k] = v;
  }
  // A RoboArena where nobody is ever out has no end but its limit.
  if (out.variant === 'arena' && out.infiniteLives && out.turnLimit === undefined)
    return err(`${path}.turnLimit`, 'a RoboArena with infinite lives needs a turn limit, or it never ends');
  return ok(out as Settings);
}

/** Lives each robot starts with: `lives`, plus the manual's optional extra lives. */
export function startingLives(settings: Settings, robots: number, boards: number): number {
  let lives = settings.lives ?? 3; // 000 L56 "Each robot has a total of three lives."
  if (settings.extraLives) {
    if (robots >= 5) lives++; // 000 L61 "add 1 life for 5 or more players"
    if (boards >= 5) lives++; // 000 L62 "add 1 life for 5 or more factory tiles"
  }
  return lives;
}
