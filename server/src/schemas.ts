/**
 * The API's requests as JSON Schemas (TypeBox), one source for two jobs: fastify validates every
 * route's path, query and body with them before a handler runs (server/src/validation.ts), and
 * @fastify/swagger writes the OpenAPI document at /api/openapi.json from them. Every object refuses
 * unknown keys and every number a client can send is bounded. The readers behind the routes
 * (setup.ts, orders.ts, the engine's settings and choices) stay the deeper check: they know the
 * course, the hand and the rule set; a test runs both over the same mutated requests.
 */
import Type, { type Static, type TSchema } from 'typebox';
import { CHOICE_NAME_LENGTH, OPTION_CARDS, RULE_SETS, SETTING_KINDS, SETTING_RANGES, TOGGLES, type Settings } from '../../engine/src/index.js';
import { LEVELS } from '../../bots/src/index.js';
import { MAX_SEED } from './deal.js';
import { DESIGNS, MAX_SEATS } from './setup.js';
import { BROWSER_KEY } from './auth.js';

/** The largest turn, seq or other count in a path or query: what a 32-bit column holds. */
export const MAX_INT32 = 2 ** 31 - 1;

const closed = <T extends Record<string, TSchema>>(properties: T, o: { description?: string } = {}) =>
  Type.Object(properties, { additionalProperties: false, ...o });
const whole = (minimum: number, maximum: number, description?: string) =>
  Type.Integer({ minimum, maximum, ...(description ? { description } : {}) });
const DIRS = ['N', 'E', 'S', 'W'] as const;
const dir = (description: string) => Type.Enum(DIRS, { description });

/** The rule sets' names, as the engine has them. */
export const RULE_SET_NAMES = Object.keys(RULE_SETS);

// ---- paths and queries ----

export const RaceId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'a race id' });
export const IdParams = closed({ id: RaceId });
export const SeatParams = closed({ id: RaceId, seat: whole(0, MAX_SEATS - 1, 'a seat number') });
/** The query of a route that takes none: any key is refused. */
export const NoQuery = closed({});
export const TurnParams = closed({ id: RaceId, turn: whole(1, MAX_INT32, 'a turn number') });
export const CourseParams = closed({ name: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'a shipped course (GET /api/courses)' }) });
export const SeriesParams = closed({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'a series, named by its first race' }) });
/** A seat's secret may come as ?token= (an invite link) instead of a Bearer token. */
export const TokenQuery = closed({ token: Type.Optional(Type.String({ maxLength: 128, description: 'the seat\'s secret token, if not sent as a Bearer token' })) });
/** A view's `seen`: the last seq the client has seen (its stream's); a view at least that new is enough. */
const seen = Type.Optional(whole(0, MAX_INT32, 'the last seq the client has seen (its stream\'s): the view is at least that new'));
export const SeenQuery = closed({ seen });
export const SeatViewQuery = closed({ token: TokenQuery.properties.token, seen });
export const AfterQuery = closed({ after: Type.Optional(whole(0, MAX_INT32, 'the last seq the client has; entries after it come')) });
export const ReportQuery = closed({ format: Type.Optional(Type.Enum(['json', 'text'], { description: 'text: 001\'s table as plain text' })) });

// ---- POST /api/races ----

function settingSchema(kind: (typeof SETTING_KINDS)[keyof Settings]): TSchema | null {
  switch (kind) {
    case 'count': return whole(...SETTING_RANGES.count);
    case 'seconds': return whole(...SETTING_RANGES.seconds, 'seconds');
    case 'limit': return whole(...SETTING_RANGES.limit);
    case 'flag': return Type.Boolean();
    case 'variant': return Type.Enum(['race', 'arena']);
    case 'cubed': return Type.Enum(['inside', 'outside'], { description: 'RoboRally Cubed, on a cube course (004 L179): inside, lasers reach the first row across a board edge; outside, they cross none' });
    case 'playOn': return Type.Union([Type.Literal(true), whole(...SETTING_RANGES.playOn)], { description: 'true: until every robot has finished or is out; N: that many turns after the first finish' });
    case 'dice': return Type.Array(whole(...SETTING_RANGES.dice), { maxItems: 16, description: 'one die value per flag' });
    case 'options': return Type.Array(Type.Enum(OPTION_CARDS), { uniqueItems: true, maxItems: OPTION_CARDS.length });
    case 'cards': return Type.Array(Type.String({ maxLength: 16 }), { description: 'program cards written CODE:PRIORITY, such as F2:670' });
    // Teams come from the seats' `team`, not from the settings.
    case 'teams': return null;
  }
}

/** The settings of docs/rules.md, from the engine's list of them. */
export const SettingsSchema = closed(
  Object.fromEntries(Object.entries(SETTING_KINDS).flatMap(([k, kind]) => {
    const s = settingSchema(kind);
    return s ? [[k, Type.Optional(s)]] : [];
  })) as Record<string, TSchema>,
  { description: 'the settings of docs/rules.md (teams come from the seats\' "team")' },
);

const NAME = { minLength: 1, maxLength: 64 };
export const SeatSchema = closed({
  name: Type.String({ ...NAME, description: 'the robot\'s name: 1 to 24 letters, digits, spaces, _ . - (NFKC-normalized and trimmed); none like another seat\'s' }),
  bot: Type.Optional(Type.Enum(LEVELS, { description: 'a bot plays the seat' })),
  dir: Type.Optional(dir('the robot\'s starting facing')),
  email: Type.Optional(Type.String({ maxLength: 320, description: 'the player races by e-mail (docs/mail.md)' })),
  player: Type.Optional(Type.String({ ...NAME, description: 'seats with the same player share one invite link' })),
  team: Type.Optional(Type.String({ ...NAME, description: 'its team (000 L21): a team wins when the first of its robots finishes' })),
  options: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8, description: 'handicap: options held from the start' })),
  lives: Type.Optional(whole(1, 99, 'handicap: its own lives')),
  damage: Type.Optional(whole(0, 99, 'handicap: its starting damage')),
  start: Type.Optional(Type.Tuple([whole(0, 999), whole(0, 999)], { description: 'handicap: a start square of its own, [x, y]' })),
  firstTimer: Type.Optional(Type.Boolean({ description: 'the Three Minute Rule does not hurry this seat' })),
  followWhenOut: Type.Optional(Type.Boolean({ description: 'keep receiving the turn mails once its robot is out' })),
  robot: Type.Optional(whole(0, DESIGNS - 1, 'the robot it races (one of the designs, unique in the race); else the first one free')),
});

/** PUT …/seats/{seat}/robot. */
/** A seat's person has watched or skipped the replay (POST …/ready): the turn now being programmed. */
export const ReadySchema = closed({ turn: whole(1, MAX_INT32, 'the turn now being programmed') });

/** PUT …/seats/{seat}/draft: how many registers the seat's person has filled so far (drafts.ts). */
export const DraftSchema = closed({
  turn: whole(1, MAX_INT32, 'the turn being programmed'),
  filled: whole(0, 5, 'how many of its open registers hold a card so far: a count, never which cards'),
});

export const RobotSchema = closed({ robot: whole(0, DESIGNS - 1, 'one of the robot designs no other seat races') });

/** A browser's own random key (128 bits at least): a request sent again with it, its answer lost, gets the same token. */
const BrowserKey = Type.String({ pattern: BROWSER_KEY.source, description: 'the browser\'s own random key (128 bits at least): the request sent again with it, its answer lost, gets the same token' });

/** POST …/claim: a person takes their seats with the invite of their link (and their browser's key, to send it again safely). */
export const ClaimSchema = closed({
  invite: Type.String({ maxLength: 128, description: 'the code of the invite link (?invite=), spent by this claim' }),
  browser: Type.Optional(BrowserKey),
});

/** POST …/seats/{seat}/token: the seat's link made its only one, from this browser. */
export const RenewSchema = closed({ browser: BrowserKey });

export const FollowSchema = closed({ follow: Type.Boolean({ description: 'true: the turn mails keep coming once the robot is out of the race; false: they stop then' }) });

/** One of two kinds of deadline, told apart by `kind` (so a refusal speaks of the kind sent). */
export const DeadlineSchema = Type.Unsafe<{ kind: 'live'; seconds: number } | { kind: 'scheduled'; time: string; zone?: string; minimumHours?: number }>({
  oneOf: [
  closed({ kind: Type.Literal('live'), seconds: whole(5, 86_400, 'seconds to program each turn') }),
  closed({
    kind: Type.Literal('scheduled'),
    time: Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'the clock time each turn is due, HH:MM' }),
    zone: Type.Optional(Type.String({ maxLength: 64, description: 'an IANA time zone (default UTC)' })),
    minimumHours: Type.Optional(Type.Number({ minimum: 0, maximum: 336, description: 'at least this many hours to answer (default 20)' })),
  }),
  ],
  discriminator: { propertyName: 'kind' },
  description: 'live: seconds per turn; scheduled: a clock time each day (001 L389-391)',
});

export const NewRace = closed({
  course: Type.Union([
    Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'a shipped course (GET /api/courses)' }),
    Type.Object({}, { description: 'a course of the race\'s own, as a course file has it (docs/formats.md), on the shipped boards: validated like a course file, at most 12 boards' }),
  ]),
  rules: Type.Optional(Type.Enum(RULE_SET_NAMES, { description: 'the rule set' })),
  settings: Type.Optional(SettingsSchema),
  seats: Type.Array(SeatSchema, { minItems: 1, maxItems: MAX_SEATS }),
  deadline: Type.Optional(DeadlineSchema),
  deal: Type.Optional(closed({
    secret: Type.Boolean(),
    seed: Type.Optional(whole(0, MAX_SEED, 'the seed of a deal that is no secret')),
  }, { description: 'absent: a secret deal (128 bits nobody chooses or sees); {"secret": false, "seed": N} for tests and replays, shown in the public view' })),
  whenNoPersonLeft: Type.Optional(Type.Enum(['play', 'end'], { description: 'once every person\'s robot is out: the bots play the race out at once (play, the default) or the race ends' })),
  after: Type.Optional(closed({ race: RaceId, moderatorKey: Type.String({ maxLength: 128 }) }, { description: 'the race this one follows in a series (it must be over): the seats are ordered by 001\'s picks from it' })),
});

/** An Idempotency-Key as POST /api/races takes it (race-keys.ts). */
export const IDEMPOTENCY_KEY = { minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' } as const;
/**
 * POST /api/races's headers: other headers are the HTTP's own and pass; the Idempotency-Key, when
 * sent, must be a key (a malformed one is answered 400).
 */
export const NewRaceHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ ...IDEMPOTENCY_KEY, description: 'a key of 16 to 128 letters, digits, "-" and "_", new for each race (a random UUID, say): the request sent again with it, within a day, is answered as the first was and makes no second race; with another body it is refused (422)' })),
});

// ---- PUT …/orders ----

/** Every option decision key of any rule set; the engine checks them against the race's. */
const CHOICE_KEYS = [...new Set(Object.values(RULE_SETS).flatMap((rs) => rs.options.choiceKeys))];
/** The damage that destroys a robot in any rule set: no damage threshold goes beyond it (the engine checks the race's own). */
const MOST_DAMAGE = Math.max(...Object.values(RULE_SETS).map((rs) => rs.destroyAt));
const optionName = (description: string) => Type.String({ maxLength: CHOICE_NAME_LENGTH, description });
const registerList = (description: string) => Type.Array(whole(1, 5), { maxItems: 5, uniqueItems: true, description });
const REGISTER_KEY = { propertyNames: { pattern: '^[1-5]$' }, maxProperties: 5 };

/** Each decision's shape (docs/options.md); the engine's `parseChoices` checks the rest (the options held, the rule set's keys and damage). */
const CHOICE_SCHEMAS: Record<string, TSchema> = {
  unlock: registerList('registers freed first by repair'),
  brakes: registerList('Brakes: registers whose Move 1 becomes Move 0'),
  fourthGear: registerList('Fourth Gear: registers whose Move 3 becomes Move 4'),
  reverseGear: registerList('Reverse Gear: registers whose Back Up becomes Back Up 2'),
  shield: Type.Enum(['front', 'right', 'back', 'left'], { description: 'Shield: the side it guards' }),
  gyro: Type.Boolean({ description: 'Gyroscopic Stabilizer on' }),
  recompile: Type.Boolean({ description: 'a request of its own: POST …/recompile' }),
  abort: whole(1, 5, 'Abort Switch: the register from which cards are replaced'),
  circuitBreaker: whole(1, MOST_DAMAGE, 'Circuit Breaker: the damage at which it powers down (up to the damage that destroys)'),
  takeOption: Type.Union([
    Type.Boolean(),
    closed({ ifDamageAtMost: whole(0, MOST_DAMAGE, 'an option only with this much damage or less, else repair (003 L75)') }),
    closed({ ifDamageAtLeast: whole(0, MOST_DAMAGE, 'an option only with this much damage or more') }),
  ], { description: 'at a two-wrench site: an option instead of repair' }),
  lose: optionName('the option given up to a hit'),
  flywheel: Type.String({ maxLength: CHOICE_NAME_LENGTH, description: 'Flywheel: the card kept' }),
  conditional: closed({ card: Type.String({ maxLength: CHOICE_NAME_LENGTH, description: 'a card' }), register: Type.Optional(whole(1, 5, 'a register')) }, { description: 'Conditional Program' }),
  weapon: Type.Record(Type.String(), Type.Union([
    optionName('the weapon fired in that register'),
    closed({ weapon: optionName('the weapon'), if: Type.Literal('falls') }),
  ]), { ...REGISTER_KEY, description: 'by register: the weapon fired instead of the main laser' }),
  fireControl: Type.Record(Type.String(), optionName('"damage", "lock:K" or "option:NAME"'), { ...REGISTER_KEY, description: 'Fire Control, by register' }),
  exchange: Type.Array(Type.Union([optionName('an option'), closed({ option: optionName('an option'), register: Type.Optional(whole(1, 5, 'a register')) })]), { maxItems: OPTION_CARDS.length, description: 'options discarded instead of damage, one per point' }),
  active: Type.Array(optionName('an upgrade switched on'), { maxItems: TOGGLES.length, description: 'pbem: upgrades switched on' }),
  chopShop: closed({
    register: Type.Union([whole(1, 5, 'a register'), Type.Literal('end')]),
    scrap: Type.Optional(optionName('an option scrapped')),
    recharge: Type.Optional(optionName('an option recharged')),
    draw: Type.Optional(Type.Literal(true)),
  }, { description: 'Chop Shop' }),
};
const missing = CHOICE_KEYS.filter((k) => !CHOICE_SCHEMAS[k]);
if (missing.length) throw new Error(`schemas.ts: no schema for the option decisions ${missing.join(', ')}`);

export const OrdersSchema = closed({
  turn: whole(1, MAX_INT32, 'the turn the orders are for (the view\'s turn): another turn is refused with 409 turn, orders after the deadline with 409 deadline'),
  revision: Type.Optional(whole(1, MAX_INT32, 'the order of the seat\'s sends this turn (the web client counts its sends): lower than the orders held, or the same with other orders, is refused with 409 revision; without one, the orders replace those held and keep their revision')),
  program: Type.Optional(Type.Array(Type.Union([Type.String({ maxLength: 32 }), Type.Null()]), {
    maxItems: 5,
    description: 'one card per open register ("F2:670" classic, "F2" pbem, the pbem upgrade codes "F0", "F4", "B2"; two joined by + for Crab Legs or Dual Processor: "F1:500+R:80", "F+L"); null leaves a register to the random fill at the deadline',
  })),
  powerDown: Type.Optional(Type.Boolean()),
  stayDown: Type.Optional(Type.Boolean()),
  takeOption: Type.Optional(Type.Boolean()),
  unlock: Type.Optional(Type.Array(whole(1, 5), { maxItems: 5, uniqueItems: true, description: 'registers freed first by repair' })),
  reenter: Type.Optional(Type.Union([closed({ dir: Type.Optional(dir('the facing to re-enter with')), poweredDown: Type.Optional(Type.Boolean()) }), Type.Null()], { description: 'how to come back if destroyed this turn' })),
  facing: Type.Optional(Type.Union([dir('first turn only: the facing the robot starts with (002 L38-39)'), Type.Null()])),
  choices: Type.Optional(Type.Union([
    closed(Object.fromEntries(CHOICE_KEYS.map((k) => [k, Type.Optional(CHOICE_SCHEMAS[k]!)]))),
    Type.Null(),
  ], { description: `option decisions, keys as docs/options.md lists them (${CHOICE_KEYS.join(', ')}); the seat view's you.choiceKeys names those of the race` })),
});

// ---- POST …/moderator/{action} ----

const nothing = (description: string) => Type.Union([closed({}), Type.Null()], { description });
export const MODERATOR_ACTIONS = {
  pause: { summary: 'Stop the clock', body: nothing('no body') },
  resume: { summary: 'Start the clock again with the time that was left', body: nothing('no body') },
  extend: { summary: 'Give more time to the current turn', body: closed({ seconds: whole(1, 30 * 86_400, 'seconds to add') }) },
  replace: { summary: 'A bot takes a seat', body: closed({ seat: whole(0, MAX_SEATS - 1, 'the seat'), level: Type.Optional(Type.Enum(LEVELS, { description: 'the bot (default random)' })) }) },
  invite: { summary: 'A new invite for a person\'s seat (and their other seats), answered as {done, invite, seats}: for a person who lost their seat\'s own link, or whose invite somebody else spent; the token that opened the seat opens it no more', body: closed({ seat: whole(0, MAX_SEATS - 1, 'the seat') }) },
  adjudicate: { summary: 'Play the turn now', body: Type.Union([closed({ turn: Type.Optional(whole(1, MAX_INT32, 'play only if this is still the current turn')) }), Type.Null()]) },
  rewind: { summary: 'Take back the last turn played; correct a seat\'s orders with PUT …/orders and the moderator key, and the turn is played again', body: nothing('no body') },
  rematch: { summary: 'The race, over, raced again (made once, by the first to ask: a seat\'s person or its moderator), answered as {done, race, made}: the same course, rules, settings, deadline and seats on a new deal; this moderator key moderates it, and each person takes their seats in it with the token of their seats here (POST …/seats/{seat}/rematch)', body: nothing('no body') },
} as const;

// ---- answers ----

export const ErrorSchema = Type.Object({ error: Type.Object({ field: Type.String({ description: 'the field\'s path (seats[0].name), or what was refused (path, database, request)' }), message: Type.String() }) }, { description: 'what was refused and why' });
export const AnyObject = (description: string) => Type.Object({}, { description, additionalProperties: true });

export type NewRaceBody = Static<typeof NewRace>;
export type OrdersBody = Static<typeof OrdersSchema>;
