/**
 * A race's set-up as its creator asks for it (POST /api/races), read into typed values: the course
 * (a shipped one by name, or a course object of its own), the rule set and settings, the deadline,
 * the seats with their teams, handicaps and flags, and what happens when no person is left. Unknown
 * fields are refused at every level, naming the field's path.
 */
import { DEFAULT_RULE_SET, RULE_SETS, parseSettings, type Course, type Dir, type Settings, type Square } from '../../engine/src/index.js';
import { LEVELS, isLevel, type Level } from '../../bots/src/index.js';
import { ROBOT_DESIGNS } from '../../render/src/index.js';
import { parsePolicy, type DeadlinePolicy } from './deadline.js';
import { readDeal, type Deal } from './deal.js';
import { skeleton } from './confusables.js';
import { no, yes, type Answer } from './errors.js';

export const MAX_SEATS = 8;
/** A name as stored, once NFKC-normalized and trimmed: letters, digits, spaces, _ . - and no two spaces running. */
const NAME = /^(?!.* {2})[\p{L}\p{N} _.-]{1,24}$/u;
/**
 * What a name looks like to a reader: its NFKC form with the separators and any combining marks
 * taken out, each letter as the Latin one it is drawn like, case-folded (confusables.ts): "Ava",
 * "AVA", "A.va", "Ａｖａ", "Avá" and "Аva" with a Cyrillic А look alike.
 */
export const lookalike = (name: string): string =>
  skeleton(name.normalize('NFKD').replace(/[\p{M} _.-]/gu, '').normalize('NFKC'));
const EMAIL = /^[^\s@<>()",;:]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z0-9-]{2,}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A seat as asked for. */
export interface SeatRequest {
  readonly name: string;
  readonly kind: 'human' | 'bot';
  readonly level: Level | null;
  readonly dir: Dir | undefined;
  readonly email: string | null;
  /** Seats of one player share one invite link (000 L40 "Each of the players controls one or more robots"). */
  readonly player: string | null;
  readonly team: string | null;
  /** Handicaps (004 L174): options held from the start, lives, damage, a start square of its own. */
  readonly options?: readonly string[];
  readonly lives?: number;
  readonly damage?: number;
  readonly start?: Square;
  /** The Three Minute Rule does not hurry a first-timer (004 L188 "Each player (except for first timers)"). */
  readonly firstTimer: boolean;
  /** Keeps receiving the turn mails once its robot is out. */
  readonly followWhenOut: boolean;
  /** The robot it races (an index of render/src/robots.ts's eight designs), unique in the race; null: the first one free. */
  readonly robot: number | null;
}

/** What a race with no person left does: plays out at bot speed, or ends. */
export type Unattended = 'play' | 'end';

export interface RaceRequest {
  /** A shipped course's name, or null for a course of the race's own (`courseJson`). */
  readonly courseName: string | null;
  readonly courseJson: unknown;
  readonly course: Course;
  readonly rules: string;
  readonly settings: Settings;
  readonly policy: DeadlinePolicy;
  readonly seats: SeatRequest[];
  /** The race's deal: secret, or a seed chosen openly (deal.ts). */
  readonly deal: Deal;
  readonly unattended: Unattended;
  /** The race this one follows in a series, and its moderator key. */
  readonly after: { readonly race: string; readonly moderatorKey: string } | null;
}

const TOP = ['course', 'rules', 'settings', 'seats', 'deadline', 'deal', 'whenNoPersonLeft', 'after'] as const;
const SEAT = ['name', 'bot', 'dir', 'email', 'player', 'team', 'options', 'lives', 'damage', 'start', 'firstTimer', 'followWhenOut', 'robot'] as const;
/** How many robot designs there are to choose from (render/src/robots.ts). */
export const DESIGNS = ROBOT_DESIGNS.length;

/**
 * The design a seat's name names (a seat called "Sprocket" races the Sprocket: a legend never
 * shows a robot named after one design drawn as another), or null.
 */
export function namedDesign(name: string): number | null {
  const k = ROBOT_DESIGNS.findIndex((d) => d.name.toLowerCase() === name.toLowerCase());
  return k < 0 ? null : k;
}

function unknownKey(o: Record<string, unknown>, allowed: readonly string[], path: string): Answer<never> | null {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) return no(422, path ? `${path}.${k}` : k, `unknown field (expected one of ${allowed.join(', ')})`);
  return null;
}

/**
 * Reads a race's set-up. `shipped` finds a shipped course by name; `custom` reads a course object
 * (bounded and validated like a course file).
 */
export function readRaceRequest(
  body: unknown,
  shipped: (name: string) => Course | undefined,
  custom: (json: unknown) => Answer<Course>,
): Answer<RaceRequest> {
  if (!isObject(body)) return no(422, 'body', 'expected {"course", "rules", "seats", "deadline", "settings"?}');
  // A race's deal is secret: a seed comes only with a deal marked as no secret (deal.ts).
  if (body.seed !== undefined) return no(422, 'seed', 'a race\'s deal is secret and no client chooses it; for a race whose deal is no secret (tests, replays), send "deal": {"secret": false, "seed": N}, which its public view shows');
  const extra = unknownKey(body, TOP, '');
  if (extra) return extra;
  let course: Course;
  let courseName: string | null = null;
  if (typeof body.course === 'string') {
    const c = shipped(body.course);
    if (!c) return no(422, 'course', `no course "${body.course}"`);
    course = c;
    courseName = body.course;
  } else if (isObject(body.course)) {
    const c = custom(body.course);
    if (!c.ok) return c;
    course = c.value;
  } else return no(422, 'course', 'expected a course name (GET /api/courses lists them) or a course object (docs/formats.md)');
  const rules = body.rules === undefined ? DEFAULT_RULE_SET : body.rules;
  if (typeof rules !== 'string' || !Object.hasOwn(RULE_SETS, rules)) return no(422, 'rules', `expected one of ${Object.keys(RULE_SETS).map((r) => `"${r}"`).join(', ')}`);
  if (isObject(body.settings) && body.settings.teams !== undefined) return no(422, 'settings.teams', 'give each seat its "team" instead');
  const policy = parsePolicy(body.deadline === undefined ? { kind: 'live', seconds: 180 } : body.deadline);
  if (!policy.ok) return no(422, policy.error.field, policy.error.message);
  if (!Array.isArray(body.seats) || body.seats.length < 1 || body.seats.length > MAX_SEATS)
    return no(422, 'seats', `expected 1 to ${MAX_SEATS} seats: {"name": "Ava"} for a person, {"name": "Clank", "bot": "strong"} for a bot`);
  const seats: SeatRequest[] = [];
  const teams: Record<string, string[]> = {};
  for (let i = 0; i < body.seats.length; i++) {
    const s = body.seats[i];
    const p = `seats[${i}]`;
    if (!isObject(s)) return no(422, p, 'expected a seat: {"name": "Ava"} for a person, {"name": "Clank", "bot": "strong"} for a bot');
    const bad = unknownKey(s, SEAT, p);
    if (bad) return bad;
    const seat = readSeat(s, p, seats);
    if (!seat.ok) return seat;
    seats.push(seat.value);
    if (seat.value.team) (teams[seat.value.team] ??= []).push(seat.value.name);
  }
  const rawSettings = { ...(isObject(body.settings) ? body.settings : {}), ...(Object.keys(teams).length ? { teams } : {}) };
  const settings = parseSettings(body.settings === undefined || isObject(body.settings) ? rawSettings : body.settings, course.flags.length);
  if (!settings.ok) return no(422, settings.error.field, settings.error.message);
  const deal = readDeal(body.deal);
  if (!deal.ok) return deal;
  const unattended = body.whenNoPersonLeft === undefined ? 'play' : body.whenNoPersonLeft;
  if (unattended !== 'play' && unattended !== 'end') return no(422, 'whenNoPersonLeft', 'expected "play" (the bots play the race out at once) or "end"');
  let after: RaceRequest['after'] = null;
  if (body.after !== undefined) {
    const a = body.after;
    if (!isObject(a) || typeof a.race !== 'string' || typeof a.moderatorKey !== 'string' || Object.keys(a).some((k) => k !== 'race' && k !== 'moderatorKey'))
      return no(422, 'after', 'expected {"race": the id of the race this one follows in a series, "moderatorKey": its moderator key}');
    after = { race: a.race, moderatorKey: a.moderatorKey };
  }
  // Each seat races a robot of its own: one named after a design races it; those not chosen get the
  // first designs free, in seat order.
  for (let i = 0; i < seats.length; i++) {
    const named = namedDesign(seats[i]!.name);
    if (named === null || seats[i]!.robot !== null) continue;
    const holder = seats.find((x) => x.robot === named);
    if (holder) return no(422, `seats[${i}].name`, `"${seats[i]!.name}" names the robot ${holder.name} races: choose another name`);
    seats[i] = { ...seats[i]!, robot: named };
  }
  const free = Array.from({ length: DESIGNS }, (_, k) => k).filter((k) => !seats.some((x) => x.robot === k));
  for (let i = 0; i < seats.length; i++) if (seats[i]!.robot === null) seats[i] = { ...seats[i]!, robot: free.shift()! };
  return yes({
    courseName, courseJson: courseName === null ? body.course : null, course, rules, settings: settings.value, policy: policy.value,
    seats, deal: deal.value, unattended, after,
  });
}

/** A name as sent (a seat's, a player's, a team's), normalized and trimmed; '' if it is no text. */
const nameText = (v: unknown): string => (typeof v === 'string' ? v.normalize('NFKC').trim() : '');

function readSeat(s: Record<string, unknown>, p: string, earlier: readonly SeatRequest[]): Answer<SeatRequest> {
  const name = nameText(s.name);
  if (!NAME.test(name)) return no(422, `${p}.name`, 'expected a name of 1 to 24 letters, digits, spaces, _ . - (no control or invisible characters)');
  const like = earlier.find((o) => lookalike(o.name) === lookalike(name));
  if (like) return no(422, `${p}.name`, like.name === name ? `"${name}" is taken` : `"${name}" looks like "${like.name}", the name of another seat: choose one nobody can mistake for it`);
  if (s.bot !== undefined && (typeof s.bot !== 'string' || !isLevel(s.bot))) return no(422, `${p}.bot`, `expected a bot level: ${LEVELS.join(', ')}`);
  const bot = s.bot !== undefined;
  const dir = s.dir === undefined ? undefined : ['N', 'E', 'S', 'W'].indexOf(s.dir as string);
  if (dir !== undefined && dir < 0) return no(422, `${p}.dir`, 'expected the starting facing: N, E, S or W (or leave it out and choose it once the first hand is dealt)');
  // A person may race by e-mail (mail/): the race's mails go to this address.
  if (s.email !== undefined && (bot || typeof s.email !== 'string' || !EMAIL.test(s.email))) return no(422, `${p}.email`, bot ? 'a bot has no e-mail address' : 'expected an e-mail address such as "ava@example.org"');
  // A player's and a team's name are read as a seat's: normalized and trimmed, and none written
  // otherwise but looking like another seat's (two teams "Red" and "Rеd" would look like one).
  const group: Partial<Record<'player' | 'team', string>> = {};
  for (const k of ['player', 'team'] as const) {
    if (s[k] === undefined) continue;
    const v = nameText(s[k]);
    if (!NAME.test(v)) return no(422, `${p}.${k}`, `expected a ${k} name of 1 to 24 letters, digits, spaces, _ . - (no control or invisible characters)`);
    const other = earlier.find((o) => o[k] !== null && o[k] !== v && lookalike(o[k]) === lookalike(v));
    if (other) return no(422, `${p}.${k}`, `"${v}" looks like "${other[k]}", the ${k} of ${other.name}: write it the same way for the same ${k}, or choose one nobody can mistake for it`);
    group[k] = v;
  }
  if (s.player !== undefined && bot) return no(422, `${p}.player`, 'a bot plays its own seat');
  if (s.options !== undefined && (!Array.isArray(s.options) || s.options.length > 8 || s.options.some((o) => typeof o !== 'string' || o.length > 32)))
    return no(422, `${p}.options`, 'expected a list of up to 8 option names held from the start (a handicap)');
  for (const k of ['lives', 'damage'] as const)
    if (s[k] !== undefined && (!Number.isInteger(s[k]) || (s[k] as number) < (k === 'lives' ? 1 : 0) || (s[k] as number) > 99)) return no(422, `${p}.${k}`, `expected a whole number of ${k} (a handicap)`);
  if (s.start !== undefined && (!Array.isArray(s.start) || s.start.length !== 2 || !s.start.every((v) => Number.isInteger(v) && v >= 0 && v < 1000)))
    return no(422, `${p}.start`, 'expected a start square of its own, [x, y] (a handicap)');
  for (const k of ['firstTimer', 'followWhenOut'] as const)
    if (s[k] !== undefined && typeof s[k] !== 'boolean') return no(422, `${p}.${k}`, 'expected true or false');
  if (s.firstTimer !== undefined && bot) return no(422, `${p}.firstTimer`, 'a bot is no first-timer');
  if (s.robot !== undefined && (!Number.isInteger(s.robot) || (s.robot as number) < 0 || (s.robot as number) >= DESIGNS))
    return no(422, `${p}.robot`, `expected a robot design, 0 to ${DESIGNS - 1}`);
  const named = namedDesign(name);
  if (s.robot !== undefined && named !== null && s.robot !== named) return no(422, `${p}.robot`, `"${name}" is the name of robot ${named}: a seat so named races it`);
  if (s.robot !== undefined && earlier.some((o) => o.robot === s.robot)) return no(422, `${p}.robot`, `robot ${s.robot as number} is taken by ${earlier.find((o) => o.robot === s.robot)!.name}`);
  return yes({
    name, kind: bot ? 'bot' : 'human', level: bot ? (s.bot as Level) : null, dir: dir as Dir | undefined,
    email: (s.email as string | undefined) ?? null, player: group.player ?? null, team: group.team ?? null,
    ...(s.options !== undefined ? { options: s.options as string[] } : {}),
    ...(s.lives !== undefined ? { lives: s.lives as number } : {}),
    ...(s.damage !== undefined ? { damage: s.damage as number } : {}),
    ...(s.start !== undefined ? { start: s.start as unknown as Square } : {}),
    firstTimer: s.firstTimer === true, followWhenOut: s.followWhenOut === true, robot: (s.robot as number | undefined) ?? null,
  });
}
