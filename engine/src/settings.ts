/**
 * A race's settings and house rules, by the names of RULES.md (Settings). All house rules are off
 * unless set. `parseSettings` reads them at the edge, naming the field and what it expects.
 */
import { err, ok, type Result } from './result.js';

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
}

type Kind = 'count' | 'flag' | 'seconds' | 'dice' | 'variant';

/** Settings this engine plays, and what each must be. */
export const SETTING_KINDS: Record<keyof Settings, Kind> = {
  lives: 'count',
  extraLives: 'flag',
  diceRule: 'dice',
  oneFreeLife: 'flag',
  infiniteLives: 'flag',
  threeMinuteRule: 'seconds',
  variant: 'variant',
};

/** Settings RULES.md names that come with the option cards; a scenario using one is skipped, not failed. */
export const PENDING_SETTINGS: Record<string, string> = {
  installingOptions: 'option cards (installingOptions)',
  noSitAndSpin: 'option cards (noSitAndSpin)',
  oneFreeOption: 'option cards (oneFreeOption)',
  secretOptions: 'option cards (secretOptions)',
  shieldPerRegister: 'option cards (shieldPerRegister)',
  optionDeck: 'option cards (optionDeck)',
  programDeck: 'option cards (programDeck)',
  exchangeWhilePoweredDown: 'option cards (exchangeWhilePoweredDown)',
};

const isPositiveInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;

/** Reads settings; `flags` is the number of flags of the course, for the Dice Rule. */
export function parseSettings(json: unknown, flags: number, path = 'settings'): Result<Settings> {
  if (json === undefined) return ok({});
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return err(path, 'expected an object of settings');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) {
    const kind = SETTING_KINDS[k as keyof Settings];
    const p = `${path}.${k}`;
    if (!kind) return err(p, `unknown setting (expected one of ${Object.keys(SETTING_KINDS).join(', ')})`);
    switch (kind) {
      case 'count':
        if (!isPositiveInt(v)) return err(p, 'expected a whole number, at least 1');
        break;
      case 'seconds':
        if (!isPositiveInt(v)) return err(p, 'expected a number of seconds, at least 1');
        break;
      case 'flag':
        if (typeof v !== 'boolean') return err(p, 'expected true or false');
        break;
      case 'variant':
        if (v !== 'race' && v !== 'arena') return err(p, 'expected "race" or "arena"');
        break;
      case 'dice':
        if (!Array.isArray(v) || !v.every(isPositiveInt)) return err(p, 'expected a list of die values, one whole number (at least 1) per flag');
        if (v.length !== flags) return err(p, `expected one die per flag: ${flags} value${flags === 1 ? '' : 's'}, found ${v.length}`);
        break;
    }
    out[k] = v;
  }
  return ok(out as Settings);
}

/** Lives each robot starts with: `lives`, plus the manual's optional extra lives. */
export function startingLives(s: Settings, robots: number, boards: number): number {
  let lives = s.lives ?? 3; // 000 L56 "Each robot has a total of three lives."
  if (s.extraLives) {
    if (robots >= 5) lives++; // 000 L61 "add 1 life for 5 or more players"
    if (boards >= 5) lives++; // 000 L62 "add 1 life for 5 or more factory tiles"
  }
  return lives;
}
