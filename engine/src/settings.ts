/** A race's settings and house rules, by the names of RULES.md (Settings). */
export interface Settings {
  /** Lives per robot (default 3). */
  readonly lives?: number;
  /** The manual's optional rule: +1 life with 5 or more robots, +1 with 5 or more boards (000 L59-63). */
  readonly extraLives?: boolean;
}

/** Settings this engine knows how to play, and what each must be. */
export const SETTING_KINDS: Record<keyof Settings, 'count' | 'flag'> = {
  lives: 'count',
  extraLives: 'flag',
};

/** Settings RULES.md names that come with later work; a scenario using one is skipped, not failed. */
export const PENDING_SETTINGS: Record<string, string> = {
  diceRule: 'the house rules (diceRule)',
  installingOptions: 'option cards (installingOptions)',
  noSitAndSpin: 'option cards (noSitAndSpin)',
  oneFreeLife: 'the house rules (oneFreeLife)',
  infiniteLives: 'the house rules (infiniteLives)',
  oneFreeOption: 'option cards (oneFreeOption)',
  secretOptions: 'option cards (secretOptions)',
  threeMinuteRule: 'the house rules (threeMinuteRule)',
  variant: 'the house rules (variant)',
  shieldPerRegister: 'option cards (shieldPerRegister)',
  optionDeck: 'option cards (optionDeck)',
  programDeck: 'option cards (programDeck)',
  exchangeWhilePoweredDown: 'option cards (exchangeWhilePoweredDown)',
};

/** Lives each robot starts with: `lives`, plus the manual's optional extra lives. */
export function startingLives(s: Settings, robots: number, boards: number): number {
  let lives = s.lives ?? 3; // 000 L56 "Each robot has a total of three lives."
  if (s.extraLives) {
    if (robots >= 5) lives++; // 000 L61 "add 1 life for 5 or more players"
    if (boards >= 5) lives++; // 000 L62 "add 1 life for 5 or more factory tiles"
  }
  return lives;
}
