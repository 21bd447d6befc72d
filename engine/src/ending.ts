/**
 * How a race ends and who placed where: the rule set's end, the settings that change it (play on
 * for runners-up, a turn limit, RoboArena), teams, and the standings built from the state.
 */
import type { Setup } from './context.js';
import type { GameState, RobotState } from './state.js';

/** The team of each robot by index (undefined: racing on its own), from the `teams` setting. */
export function teamOf(setup: Setup, st: GameState): (string | undefined)[] {
  const by = new Map<string, string>();
  for (const [team, members] of Object.entries(setup.settings.teams ?? {})) for (const m of members) by.set(m, team);
  return st.robots.map((r) => by.get(r.name));
}

/**
 * True when the race is over. At the turn limit (`turnLimit`) or with every robot out, always. In
 * RoboArena (004 L192, L217) once one robot is left standing. With `playOn` (000 L76 "play can
 * continue to determine runners-up"; 004 L103): `true` once every robot has finished or is out (a
 * robot whose team has a finisher counts as finished: its team is placed), a number once that many
 * turns have followed the turn of the first finish. Else by the rule set: `classic` at the first
 * finish, `pbem` five rounds later (001 L331).
 */
export function raceOver(setup: Setup, st: GameState): boolean {
  const settings = setup.settings;
  if (settings.turnLimit !== undefined && st.turn >= settings.turnLimit) return true;
  if (st.robots.every((r) => r.status === 'out')) return true;
  if (settings.variant === 'arena') return st.finished.length > 0;
  if (settings.playOn === undefined) return setup.rules.raceOver(st);
  const teams = teamOf(setup, st);
  const finished = new Set(st.finished.flat());
  const placedTeams = new Set([...finished].map((i) => teams[i]).filter((t) => t !== undefined));
  const done = st.robots.every((r, i) => r.status === 'out' || finished.has(i) || (teams[i] !== undefined && placedTeams.has(teams[i])));
  if (done) return true;
  return settings.playOn !== true && st.winTurn > 0 && st.turn >= st.winTurn + settings.playOn;
}

/** A line of the standings: a robot, or a team with its robots. */
export interface Standing {
  /** 1 first; those the race cannot tell apart share a place. */
  readonly place: number;
  /** The robot's name, or the team's. */
  readonly name: string;
  readonly team: boolean;
  /** Robot indices: the robot, or the team's robots. */
  readonly robots: readonly number[];
  /** Finished (a team: one of its robots); in RoboArena, the last robot standing. */
  readonly finished: boolean;
  /** Flags touched (a team: its best robot's). */
  readonly flags: number;
  /** Lives left (a team: its robots' together). */
  readonly lives: number;
  /** Out of the race (a team: all its robots). */
  readonly out: boolean;
}

/**
 * A robot's rank key, smaller first. In a race: finishers by their place, then the others by
 * flags touched, robots still in before robots out. In RoboArena: the last standing, then the
 * robots still in by lives left, then the robots out, the last out first.
 */
function rankKey(setup: Setup, st: GameState, i: number): number[] {
  const r = st.robots[i]!;
  const group = st.finished.findIndex((g) => g.includes(i));
  const placed = group >= 0 ? st.finished.slice(0, group).reduce((n, g) => n + g.length, 0) : 0;
  if (group >= 0) return [0, placed];
  if (setup.settings.variant === 'arena') return r.status === 'out' ? [2, -r.destroyedAt] : [1, -r.lives];
  return [1, -r.flags, r.status === 'out' ? 1 : 0];
}

const compare = (a: readonly number[], b: readonly number[]): number => {
  for (let k = 0; k < Math.max(a.length, b.length); k++) if ((a[k] ?? 0) !== (b[k] ?? 0)) return (a[k] ?? 0) - (b[k] ?? 0);
  return 0;
};

/**
 * The standings: a line per team and per robot racing on its own (000 L21 "independently or on
 * teams"), best first. A team ranks by its best robot, so a team wins when the first of its robots
 * finishes.
 */
export function standings(setup: Setup, st: GameState, o: { byTeam?: boolean } = {}): Standing[] {
  const teams = o.byTeam === false ? st.robots.map(() => undefined) : teamOf(setup, st);
  const keys = st.robots.map((_, i) => rankKey(setup, st, i));
  const entries: { name: string; team: boolean; robots: number[]; key: number[] }[] = [];
  st.robots.forEach((r, i) => {
    const t = teams[i];
    if (t === undefined) return void entries.push({ name: r.name, team: false, robots: [i], key: keys[i]! });
    const e = entries.find((x) => x.team && x.name === t);
    if (!e) entries.push({ name: t, team: true, robots: [i], key: keys[i]! });
    else {
      e.robots.push(i);
      if (compare(keys[i]!, e.key) < 0) e.key = keys[i]!;
    }
  });
  const order = entries.map((_, k) => k).sort((a, b) => compare(entries[a]!.key, entries[b]!.key) || a - b);
  const out: Standing[] = [];
  order.forEach((k, n) => {
    const e = entries[k]!;
    const prev = n > 0 ? entries[order[n - 1]!]! : null;
    const place = prev && compare(prev.key, e.key) === 0 ? out[n - 1]!.place : n + 1;
    const rs: RobotState[] = e.robots.map((i) => st.robots[i]!);
    out.push({
      place, name: e.name, team: e.team, robots: e.robots,
      finished: e.key[0] === 0,
      flags: Math.max(...rs.map((r) => r.flags)),
      lives: rs.reduce((n2, r) => n2 + (r.status === 'out' ? 0 : r.lives), 0),
      out: rs.every((r) => r.status === 'out'),
    });
  });
  return out;
}

/** The standings as lines of text, for mails and terminals: `1. Ava`, `2. Red (Bolt, Cog): 2 flags`. */
export function formatStandings(setup: Setup, st: GameState, lines: readonly Standing[] = standings(setup, st)): string[] {
  const arena = setup.settings.variant === 'arena';
  return lines.map((s) => {
    const who = s.team ? `${s.name} (${s.robots.map((i) => st.robots[i]!.name).join(', ')})` : s.name;
    const how = s.finished ? (arena ? ': last standing' : '')
      : s.out ? (arena ? ': out' : `: ${s.flags} flag${s.flags === 1 ? '' : 's'}, out`)
        : arena ? `: ${s.lives} ${s.lives === 1 ? 'life' : 'lives'} left` : `: ${s.flags} flag${s.flags === 1 ? '' : 's'}`;
    return `${s.place}. ${who}${how}`;
  });
}

/** One race of a series: its robots' names and their places (`standings(…, { byTeam: false })`). */
export interface SeriesRace {
  readonly standings: readonly Standing[];
}

/** A player's line in a series. */
export interface SeriesLine {
  readonly place: number;
  readonly name: string;
  /** Points: in each race, one for every robot it placed ahead of, plus one (the seeds give no scoring; ours). */
  readonly points: number;
  readonly wins: number;
  /** Its place in each race, null where it did not race. */
  readonly places: (number | null)[];
}

/**
 * The standings of a series of races, by the robots' names: points (in each race, one per robot
 * of that race placed behind it, plus one for racing), then wins; players level on both share a
 * place. The next race's seats follow 001's picks (`startingPicks`, 001 L333-351).
 */
export function seriesStandings(races: readonly SeriesRace[]): SeriesLine[] {
  const lines = new Map<string, { points: number; wins: number; places: (number | null)[] }>();
  races.forEach((race, k) => {
    const n = race.standings.length;
    for (const s of race.standings) {
      const line = lines.get(s.name) ?? { points: 0, wins: 0, places: races.map(() => null) };
      const behind = race.standings.filter((o) => o.place > s.place).length;
      line.points += behind + 1;
      if (s.place === 1 && n > 1) line.wins++;
      line.places[k] = s.place;
      lines.set(s.name, line);
    }
  });
  const sorted = [...lines.entries()].sort(([a, x], [b, y]) => y.points - x.points || y.wins - x.wins || (a < b ? -1 : a > b ? 1 : 0));
  const out: SeriesLine[] = [];
  sorted.forEach(([name, l], k) => {
    const prev = k > 0 ? sorted[k - 1]![1] : null;
    const place = prev && prev.points === l.points && prev.wins === l.wins ? out[k - 1]!.place : k + 1;
    out.push({ place, name, points: l.points, wins: l.wins, places: l.places });
  });
  return out;
}
