/**
 * The mails a race sends, as 001's moderator sent them: the start with the course picture and the
 * rules, each turn's instructions (to their seat only), reminders, the turn report with its table
 * per register and its picture inline (blue arrows: programmed moves; green: pushes and belts,
 * 001 L119-121), and the end with standings and awards (001 L353-383).
 */
import { RULE_SETS, cardName, dirName, exampleProgram, optionOrders, orderHelp, writeCard, type Award, type GameState, type NotationContext, type RuleSet, type SeriesLine, type TurnReport } from '../../engine/src/index.js';
import type { DeadlinePolicy } from '../../server/src/index.js';

export interface Attachment {
  readonly filename: string;
  readonly contentType: string;
  /** Content-ID the HTML refers to as `cid:…`. */
  readonly cid: string;
  /** Base64. */
  readonly content: string;
}

export interface Mail {
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly attachments?: Attachment[];
  readonly replyTo?: string;
  readonly inReplyTo?: string;
  /** Its own Message-ID (the start mail's is the root of the seat's thread); else one made from its key. */
  readonly messageId?: string;
  /** The thread it belongs to: the seat's start mail, and the mail it answers. */
  readonly references?: string[];
  /** RFC 3834: an answer to a mail is `auto-replied`; every other mail of a race `auto-generated` (the default). */
  readonly autoSubmitted?: 'auto-replied' | 'auto-generated';
}

/** What a template needs to know of the race and of the seat it writes to. */
export interface SeatMailContext {
  readonly race: string;
  readonly course: string;
  /** The rule set's name (a key of the engine's RULE_SETS). */
  readonly rules: string;
  readonly policy: DeadlinePolicy;
  readonly seat: number;
  readonly name: string;
  /** `[RR …]`, the subject code of the seat. */
  readonly code: string;
  /** The seat's reply address. */
  readonly replyTo: string;
  /**
   * The robots raced from the seat's address, in seat order, when it races more than one (000 L40
   * "one or more robots"): each of their mails then names its robot in the subject and the body.
   */
  readonly robots?: readonly string[];
  /**
   * The mail is for all the robots raced from the address (`robots`), one mail for them all under
   * this seat's code (the start, the moderator's news, the end): its subject names them all, and it
   * is marked as no one robot's.
   */
  readonly whole?: boolean;
  /**
   * The link to the seat's own page (MAIL_WEB_URL set; auth.ts `mailWebToken`): it opens the seat's
   * hand, so it goes in the mails to the seat's own address only. None: the mails link no page.
   */
  readonly web?: string;
}

/** Whether the seat's address races several robots, so that each mail must say whose it is. */
const several = (c: SeatMailContext): boolean => (c.robots?.length ?? 0) > 1;

/** A mail's subject: the seat's code, what it is, and its robot (or all of them, `whole`) when the address races several. */
const subjectOf = (c: SeatMailContext, what: string): string =>
  (c.whole && several(c) ? playerSubject(c, what, c.robots!) : `${c.code} ${what}${several(c) ? ` (robot ${c.name})` : ''}`);

/** The first lines of a mail to a seat whose address races several robots: which robot it is for (or that it is for all, `whole`). */
export function robotMark(c: SeatMailContext): string[] {
  if (!several(c)) return [];
  if (c.whole) return [`You race ${c.robots!.join(', ')} in this race: this mail is for all of them.`, ''];
  return [`For your robot ${c.name}. You race ${c.robots!.join(', ')} in this race: each turn's instructions and report come in one mail for all of them, with a section a robot. A reply programs ${c.name}, or each robot whose section it holds (a line "${sectionHeading('NAME')}" before each).`, ''];
}

/**
 * The subject of a seat's start mail, the mail that holds the notation. A player racing several
 * robots has one start mail, under the context of its first seat marked `whole` (playerContext).
 */
export const startSubject = (c: SeatMailContext): string => subjectOf(c, `Race ${c.race} starts on ${c.course}`);

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A mail's text as HTML, preformatted, each of `links` in it made a link. */
const pre = (text: string, links: readonly string[] = []): string =>
  `<pre>${links.reduce((h, l) => h.split(esc(l)).join(`<a href="${esc(l)}">${esc(l)}</a>`), esc(text))}</pre>`;

/**
 * The line with the link to a seat's own page, where the player can race it on the web as well
 * (`robot`: whose, when the address races several). Whoever has the link holds the seat.
 */
export const webLine = (link: string, robot?: string): string => `On the web: ${link} (${robot ? `${robot}'s` : 'your seat\'s'} own page: keep it to yourself)`;

/** A deadline as the players read it: in the race's time zone, and in UTC. */
export function when(at: number, policy: DeadlinePolicy): string {
  const zone = policy.kind === 'scheduled' ? policy.zone : 'UTC';
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
  return `${local} (${zone}; ${new Date(at).toISOString().replace('T', ' ').slice(0, 16)} UTC)`;
}

const policyText = (p: DeadlinePolicy) =>
  p.kind === 'live'
    ? `${p.seconds} seconds a turn`
    : `one turn a day: orders are due at ${p.time} (${p.zone}) on the day of the deadline, which leaves at least ${p.minimumHours} hours after the instructions are sent (001 L389-391)`;

/**
 * The mail's own words, beside the orders: whether a seat keeps receiving the turn reports once
 * its robot is out of the race. A mail with one of them on a line of its own does only that.
 */
export const FOLLOW_WORDS: readonly (readonly [string, string])[] = [
  ['follow', 'keep receiving the turn reports once your robot is out of the race'],
  ['stop following', 'receive no more turn reports once your robot is out (the default)'],
];

/** The mail's word for its notation: a mail with it on a line of its own is answered with this help. */
export const HELP_WORD: readonly [string, string] = ['help', 'a mail of its own: the answer brings this notation again, with how to order your options'];

/** Whether a mail asks for the notation: `help` on a line of its own, before any signature and outside quotes. */
export function helpWord(text: string): boolean {
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*>/.test(raw)) continue;
    if (/^--\s*$/.test(raw)) break;
    if (/^help[.!?]*$/i.test(raw.trim())) return true;
  }
  return false;
}

/**
 * A follow word on a line of its own, before any signature and outside quotes (`follow`,
 * `follow the race`, `keep following`; `stop following`, `unfollow`): true, false, or null for none.
 */
export function followWord(text: string): boolean | null {
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*>/.test(raw)) continue;
    if (/^--\s*$/.test(raw)) break;
    const l = raw.trim().toLowerCase().replace(/(?<![.!])[.!]+$/, ''); // from the first mark of the run only: linear, as in the engine's orderLines
    if (/^(stop following|unfollow|do not follow|don't follow)( the race)?$/.test(l)) return false;
    if (/^(follow|keep following)( the race)?$/.test(l)) return true;
  }
  return null;
}

/**
 * How to write your orders, with examples from the seat's rule set: the whole notation a player
 * needs, with no page to look up (how to order each option is told where the robot holds it).
 * Sent in the start mail, in the answer to orders that are refused and to `help`; the turn's
 * instructions point to it (notationPointer).
 */
export function notationHelp(rules: RuleSet): string[] {
  const rows = [...orderHelp(rules), ...FOLLOW_WORDS, HELP_WORD];
  const w = Math.max(...rows.map(([e]) => e.length));
  return [
    'How to write your orders (reply to this mail; each reply replaces your orders until the deadline):',
    ...rows.map(([e, m]) => `  ${e.padEnd(w)}  ${m}`),
    'One thing a line; upper or lower case, commas or spaces are all the same. If a line cannot be read, nothing is changed and the answer says what was expected.',
    'Missing or illegal moves are replaced with random moves, so check the acknowledgement (001 L393).',
  ];
}

/** In a turn's instructions: where the notation is, instead of all of it every turn (`start`: the subject of the start mail that went to the address). */
export function notationPointer(start: string): string {
  return `How to write your orders: as your start mail ("${start}") tells; reply "help" to have it again. Options you gain are explained in the report of the turn you gain them.`;
}

/** How to order each option the robot holds (003 L12), for the instructions: none held, no lines. */
export function heldOptionLines(ctx: NotationContext): string[] {
  if (!ctx.options.length) return [];
  return ['How to order your options:', ...ctx.options.map((o) => {
    const h = optionOrders(o, ctx.rules);
    return `  ${h.option}: ${h.how}${h.examples.length ? ` For example: ${h.examples.map((x) => `"${x}"`).join(', ')}.` : ''}`;
  })];
}

/** The seat's rule set, by the name the race stores. */
const ruleSet = (c: SeatMailContext): RuleSet => RULE_SETS[c.rules]!;

/**
 * The start of a race: `goal`, what the race asks of the seat's robot and what it starts with
 * (the engine's goalLine); `rules`, the race's rule set and settings in words (the engine's texts,
 * the ones docs/rules.md shows); `robots`, every robot with its team, bot and handicaps as the seat
 * may know them; `holds`, the options the seat's robot holds from the start with how to order each.
 */
export function startMail(c: SeatMailContext, o: { description: string; goal: string; robots: readonly string[]; picture: Attachment; rules: readonly string[]; holds?: readonly string[]; own?: readonly { name: string; goal: string; holds: readonly string[]; web?: string }[] }): Mail {
  // A player racing several robots (`whole`, `own`): one start mail, the goal and options of each robot under its heading.
  const own = c.whole && o.own && o.own.length > 1 ? o.own : null;
  const who = own ? own.map((r) => r.name).join(' and ') : c.name;
  const text = [
    ...robotMark(c),
    `Welcome to race ${c.race} on ${c.course}, ${who}!`,
    '',
    ...(own ? [] : [o.goal]),
    ...o.rules,
    '',
    o.description,
    `Robots: ${o.robots.join(', ')}.`,
    `Deadlines: ${policyText(c.policy)}.`,
    ...(own ? own.flatMap((r) => ['', sectionHeading(r.name), r.goal, ...(r.web ? [webLine(r.web, r.name)] : []), ...(r.holds.length ? ['', ...r.holds] : [])]) : o.holds?.length ? ['', ...o.holds] : []),
    '',
    ...notationHelp(ruleSet(c)),
    ...(own ? ['', ...sectionHelp(ruleSet(c), own.map((r) => r.name))] : []),
    '',
    own
      ? `Your address for this race is ${c.replyTo}; keep the code ${c.code} in the subject. Mails without it are refused. Each turn's instructions and report come in one mail for all your robots.`
      : `Your seat's address is ${c.replyTo}; keep the code ${c.code} in the subject. Mails without it are refused.`,
    ...(!own && c.web ? [webLine(c.web)] : []),
  ].join('\n');
  const links = own ? own.flatMap((r) => (r.web ? [r.web] : [])) : c.web ? [c.web] : [];
  const html = `<p>Welcome to race <b>${esc(c.race)}</b> on <b>${esc(c.course)}</b>, ${esc(who)}!</p><p><img src="cid:${o.picture.cid}" alt="the course"></p>${pre(text, links)}`;
  return { subject: startSubject(c), text, html, attachments: [o.picture], replyTo: c.replyTo };
}

/**
 * A robot as a seat may see it: `options` are those the reader may know of (under Secret Options,
 * 004 L188, another robot's unused options are only counted).
 */
export function robotLine(st: GameState, seat: number, seen: { options: readonly string[]; hiddenOptions: number } = { options: st.robots[seat]!.options, hiddenOptions: 0 }): string {
  const r = st.robots[seat]!;
  const options = [...seen.options, ...(seen.hiddenOptions ? [`${seen.hiddenOptions} secret option${seen.hiddenOptions === 1 ? '' : 's'}`] : [])];
  return `${r.name}: at (${r.x},${r.y}) facing ${dirName(r.dir)}, damage ${r.damage}, lives ${r.lives}, flags ${r.flags}${r.poweredDown ? ', powered down' : ''}${r.status !== 'active' ? `, ${r.status}` : ''}${options.length ? `, options: ${options.join(', ')}` : ''}`;
}

/**
 * The seat's locked registers, named with the cards they keep, and what that means for the
 * program (a locked register plays its card again): one line, or none.
 */
export function lockedLines(st: GameState, seat: number): string[] {
  const r = st.robots[seat]!;
  const locked = [1, 2, 3, 4, 5].filter((reg) => r.locked & (1 << (reg - 1)));
  if (!locked.length || locked.length === 5) return locked.length ? ['Every register is locked: your robot plays the cards they keep, and you write no program.'] : [];
  const open = [1, 2, 3, 4, 5].filter((reg) => !locked.includes(reg));
  const keeps = locked.map((reg) => `register ${reg} keeps ${r.registers[reg - 1] ? writeCard(cardName(r.registers[reg - 1]!)) : 'no card'}`);
  return [`Locked: ${keeps.join(', ')} and plays it again. Write ${open.length} card${open.length === 1 ? '' : 's'}, for register${open.length === 1 ? '' : 's'} ${open.join(', ')} only.`];
}

/** The hand as dealt, numbered, as the notation reads it (`F2:670` written `F2 P670`). */
export function handLines(ctx: NotationContext): string[] {
  return ctx.hand.map((h, k) => `  ${String(k + 1).padStart(2)}. ${writeCard(h)}`);
}

/**
 * What a turn's instructions tell of one robot: `ctx`, its hand and options as the notation reads
 * them; `next`, where its next flag is (the engine's nextFlag text; null: none counts); `web`, the
 * link to its seat's own page (SeatMailContext's `web`).
 */
export interface RobotDeal {
  readonly ctx: NotationContext;
  readonly next: string | null;
  readonly web?: string;
}

/** One robot's part of a turn's instructions: the robot, where its next flag is, its hand numbered as dealt, its locked registers, how to order its options. */
function dealLines(st: GameState, seat: number, { ctx, next }: RobotDeal): string[] {
  const r = st.robots[seat]!;
  return [
    `Your robot ${robotLine(st, seat)}.`,
    ...(next !== null ? [next] : []),
    ...(ctx.needsProgram
      ? [`Your instructions this turn (choose ${ctx.openRegisters.length}, for register${ctx.openRegisters.length > 1 ? 's' : ''} ${ctx.openRegisters.join(', ')}):`, ...handLines(ctx)]
      : [`Your robot plays no instructions this turn (${r.poweredDown ? 'powered down' : r.status !== 'active' ? 'not on the board' : 'every register locked'}).${r.poweredDown ? ' Write "stay down" to stay down next turn.' : ''}`]),
    ...lockedLines(st, seat),
    ...(ctx.needsProgram && ctx.options.length ? ['', ...heldOptionLines(ctx)] : []),
  ];
}

const dueLine = (c: SeatMailContext, deadlineAt: number | null): string =>
  deadlineAt !== null ? `Orders are due ${when(deadlineAt, c.policy)}.` : 'The race is paused; the deadline will be set when it resumes.';

/**
 * A turn's instructions with the picture of the board as the turn begins (the robots where they
 * stand, those that re-entered included, 001 L121's pictures): the text, and the HTML with the
 * picture inline. Without it a player programmed from coordinates, or from the last report's
 * picture, which shows a robot destroyed in that turn nowhere.
 */
const withPicture = (m: Mail, turn: number, picture: Attachment | undefined, links: readonly string[]): Mail =>
  picture ? { ...m, html: `${pre(m.text, links)}<p><img src="cid:${picture.cid}" alt="the board as turn ${turn} begins"></p>`, attachments: [picture] } : m;

export function dealMail(c: SeatMailContext, start: string, turn: number, st: GameState, deal: RobotDeal, deadlineAt: number | null, reminder = false, picture?: Attachment): Mail {
  const lines = [
    ...robotMark(c),
    reminder ? `Reminder: your orders for turn ${turn} are not in yet. Without them, your program is filled at random at the deadline (001 L393).` : `Turn ${turn} of race ${c.race} on ${c.course}.`,
    '',
    ...dealLines(st, c.seat, deal),
    '',
    dueLine(c, deadlineAt),
    ...(deal.web ? [webLine(deal.web)] : []),
    '',
    notationPointer(start),
  ];
  return withPicture({ subject: subjectOf(c, `Turn ${turn}: ${reminder ? 'reminder, your orders are due' : 'your instructions'}`), text: lines.join('\n'), replyTo: c.replyTo }, turn, picture, deal.web ? [deal.web] : []);
}

/** The heading of a robot's section in a player's turn mail and in the reply (000 L40: one player, several robots). */
export const sectionHeading = (name: string): string => `Robot ${name}`;

/** The subject of a mail to a player about all its robots: the first robot's seat code, what it is, and the robots. */
const playerSubject = (c: SeatMailContext, what: string, robots: readonly string[]): string => `${c.code} ${what} (robots ${robots.join(', ')})`;

/** How a player with several robots writes its reply: a section a robot. */
export function sectionHelp(rules: RuleSet, robots: readonly string[]): string[] {
  return [
    `Reply with a section for each robot, each begun by a line "${sectionHeading('NAME')}"; for example:`,
    ...robots.flatMap((name, k) => [`  ${sectionHeading(name)}`, `  ${k === 0 ? exampleProgram(rules) : 'random'}`]),
    'A line before the first section counts for every robot ("Turn 4"). A robot without a section keeps the orders it has (none: its program is filled at random at the deadline).',
  ];
}

/**
 * The instructions of a turn to a player racing several robots from one address (000 L40): one
 * mail, under the seat code of its first robot, with a section per robot that plays this turn (its
 * robot, hand, locked registers and options), and how to reply with a section a robot.
 */
export function playerDealMail(c: SeatMailContext, start: string, turn: number, st: GameState, robots: readonly (RobotDeal & { seat: number })[], deadlineAt: number | null, reminder = false, picture?: Attachment): Mail {
  const names = robots.map((r) => r.ctx.name);
  const lines = [
    reminder ? `Reminder: orders for turn ${turn} are not in yet for ${names.join(', ')}. Without them, a program is filled at random at the deadline (001 L393).` : `Turn ${turn} of race ${c.race} on ${c.course}. You race ${names.join(', ')}: the instructions of each are below.`,
    '',
    ...robots.flatMap((r) => [sectionHeading(r.ctx.name), ...dealLines(st, r.seat, r), ...(r.web ? [webLine(r.web, r.ctx.name)] : []), '']),
    ...sectionHelp(ruleSet(c), names),
    '',
    dueLine(c, deadlineAt),
    '',
    notationPointer(start),
  ];
  return withPicture({ subject: playerSubject(c, `Turn ${turn}: ${reminder ? 'reminder, your orders are due' : 'your instructions'}`, names), text: lines.join('\n'), replyTo: c.replyTo }, turn, picture, robots.flatMap((r) => (r.web ? [r.web] : [])));
}

/** The moderator moved the clock: what happened, and when orders are due now. */
export function clockMail(c: SeatMailContext, turn: number, news: string, deadlineAt: number | null, what = 'the deadline has changed'): Mail {
  const due = deadlineAt !== null ? `Orders for turn ${turn} are now due ${when(deadlineAt, c.policy)}.` : `Orders for turn ${turn} can still be sent and replaced.`;
  return { subject: subjectOf(c, `Turn ${turn}: ${what}`), text: [...robotMark(c), news, '', due, '', 'Your orders so far stand; you can replace them until the deadline.'].join('\n'), replyTo: c.replyTo };
}

/** 001's table per register, as HTML. */
function reportHtml(rep: TurnReport): string {
  const list = (xs: string[]) => (xs.length ? `<ul>${xs.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : '');
  const regs = rep.registers.map((reg) => `<h3>Register ${reg.register}</h3><table border="1" cellpadding="3" cellspacing="0"><tr><th>Dmg</th><th>Name</th><th>Move</th><th>Notes</th></tr>${reg.rows
    .map((r) => `<tr><td>${r.dmg}</td><td>${esc(r.name)}</td><td>${esc(r.move.join(','))}</td><td>${esc(r.notes.join('; '))}</td></tr>`).join('')}</table>${list(reg.also)}`);
  return `${list(rep.start)}${regs.join('')}${rep.end.length ? `<h3>End of turn</h3>${list(rep.end)}` : ''}`;
}

/** What the report of a turn tells a robot's player at its end: the options it gained and, once out, whether more reports come. */
export interface RobotNews {
  readonly gained?: readonly string[];
  readonly out?: 'last' | 'following';
  /** The other robots of the player still racing after the turn: the reports keep coming for them, so this one is not the last. */
  readonly racing?: readonly string[];
}

function newsLines(o: RobotNews): string[] {
  const out = o.out === 'last' && o.racing?.length
    ? ['', `Your robot is out of the race. The turn reports keep coming while ${o.racing.join(' and ')} ${o.racing.length > 1 ? 'race' : 'races'}; once none does, reply "follow" to keep receiving them until the race is over (the standings come at the end either way).`]
    : o.out === 'last' ? ['', 'Your robot is out of the race. This is your last turn report: reply "follow" to keep receiving them until the race is over (the standings come at the end either way).']
    : o.out === 'following' ? ['', 'Your robot is out of the race; you follow it. Reply "stop following" to receive no more turn reports (the standings come at the end either way).'] : [];
  return [...(o.gained?.length ? ['', ...o.gained] : []), ...out];
}

/**
 * The report of a turn to one seat: `robots` as that seat may see them; `corrected` when the turn
 * was played again after the moderator took it back; `gained`, the seat's own new options with
 * how to order them. With `player`, the report to a player racing several robots: the news of each
 * of its robots under its heading, one mail for them all.
 */
export function reportMail(c: SeatMailContext, rep: TurnReport, text: string, robots: readonly string[], picture: Attachment, o: RobotNews & { corrected?: boolean; player?: readonly { name: string; news: RobotNews }[] } = {}): Mail {
  const corrected = o.corrected
    ? [`CORRECTED: the moderator took turn ${rep.turn} back and it has been played again. This report replaces the earlier report of turn ${rep.turn}.`, '']
    : [];
  const gained = o.player
    ? o.player.flatMap((r) => {
      const news = newsLines(r.news);
      return news.length ? ['', `${sectionHeading(r.name)}:`, ...news.slice(1)] : [];
    })
    : newsLines(o);
  const body = [...(o.player ? [] : robotMark(c)), ...corrected, `Race ${c.race} on ${c.course}: the report of turn ${rep.turn}.`, '', text, '', 'After the turn:', ...robots.map((x) => `  ${x}`), ...gained, '',
    'The picture: programmed moves in blue, pushes and conveyor belts in green (001 L121); the robots are named in its legend.'].join('\n');
  const html = `${corrected.length ? `<p><b>${esc(corrected[0]!)}</b></p>` : ''}<p>Race <b>${esc(c.race)}</b> on <b>${esc(c.course)}</b>: the report of turn ${rep.turn}.</p>${reportHtml(rep)}<h3>After the turn</h3><ul>${robots.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>${gained.length ? `<pre>${esc(gained.join('\n').trim())}</pre>` : ''}<p><img src="cid:${picture.cid}" alt="turn ${rep.turn}: programmed moves in blue, pushes and belts in green"></p>`;
  const what = `Turn ${rep.turn}: ${o.corrected ? 'corrected report' : 'report'}`;
  return { subject: o.player ? playerSubject(c, what, o.player.map((r) => r.name)) : subjectOf(c, what), text: body, html, attachments: [picture], replyTo: c.replyTo };
}

/**
 * The report of a turn and the instructions of the next in one mail, as 001's moderator sent them
 * (the table and the picture with the instructions) when they go to one address at one moment: the
 * report first, then the instructions, each with its picture. The subject names both,
 * `Turn N: your instructions; Turn N-1: report`, so that a reply to it is read for turn N.
 */
export function reportAndDeal(report: Mail, deal: Mail): Mail {
  const reported = /Turn \d+: (?:corrected )?report/.exec(report.subject)![0];
  const dealHtml = deal.html ?? `<pre>${esc(deal.text)}</pre>`;
  return {
    ...deal,
    subject: deal.subject.replace(/Turn \d+: your instructions/, (instructions) => `${instructions}; ${reported}`),
    text: [report.text, '', '-'.repeat(60), '', deal.text].join('\n'),
    html: `${report.html ?? `<pre>${esc(report.text)}</pre>`}<hr>${dealHtml}`,
    attachments: [...(report.attachments ?? []), ...(deal.attachments ?? [])],
  };
}

/**
 * The end of the race: standings, the series' standings, awards and the next race's picks.
 * `corrected`: the race ended again after the moderator took its last turn back; these replace the
 * earlier ones.
 */
export function endMail(c: SeatMailContext, standings: string[], awards: readonly Award[], picks: readonly string[], series?: { id: string; races: number; lines: readonly string[] }, corrected = false): Mail {
  const text = [
    ...robotMark(c),
    ...(corrected ? ['CORRECTED: the moderator took the last turn back and it has been played again. These standings replace the earlier ones.', ''] : []),
    `Race ${c.race} on ${c.course} is over.`, '', 'Standings:', ...standings.map((s) => `  ${s}`), '',
    ...(series ? [`Standings of the series ${series.id} after ${series.races} race${series.races === 1 ? '' : 's'} (a point for each robot placed behind, plus one for racing):`, ...series.lines.map((s) => `  ${s}`), ''] : []),
    ...(awards.length ? ['Awards (001 L353-383):', ...awards.map((a) => `  ${a.award}: ${a.robots.join(', ')} (${a.for})`), ''] : []),
    `Starting picks for the next race (001 L333-351): ${picks.join(', ')}.`, '', 'Thank you for racing!',
  ].join('\n');
  return { subject: subjectOf(c, `Race over: ${corrected ? 'corrected ' : ''}${awards.length ? 'standings and awards' : 'standings'}`), text, replyTo: c.replyTo };
}

/** A series' standings, a line a robot: place, points, wins, and its place in each race ("-": not raced). */
export function seriesLines(lines: readonly SeriesLine[]): string[] {
  return lines.map((l) => `${l.place}. ${l.name}: ${l.points} point${l.points === 1 ? '' : 's'}, ${l.wins} win${l.wins === 1 ? '' : 's'} (places: ${l.places.map((p) => p ?? '-').join(', ')})`);
}

/**
 * The moderator corrected the seat's orders on a turn taken back (rewind): what they are now,
 * `program` as the notation writes it (null: no program kept, the random fill's).
 */
export function correctedMail(c: SeatMailContext, turn: number, program: string | null, robot = c.name): Mail {
  // To a player racing several robots (`whole`): which of its robots it is, and the section that replaces them.
  const whose = c.whole && several(c);
  const text = [
    ...robotMark(c),
    `The moderator has corrected ${whose ? `the orders of your robot ${robot}` : 'your orders'} for turn ${turn} of race ${c.race}, the turn taken back to be played again.`,
    `${whose ? `${robot}'s` : 'Your'} program is now${program !== null ? `: ${program}` : ' left to the random fill.'}`,
    '',
    `The turn is played again with these orders; its corrected report follows. Orders you send for this turn before its deadline replace them${whose ? ` (in a section "${sectionHeading(robot)}")` : ''}.`,
  ].join('\n');
  return { subject: subjectOf(c, `Turn ${turn}: ${whose ? `${robot}'s orders were` : 'your orders were'} corrected by the moderator`), text, replyTo: c.replyTo };
}

/**
 * The moderator corrected another seat's orders (`name`'s) on a turn taken back: the other seats
 * are told that it happened, never what the orders are (a program stays hidden until revealed).
 */
export function correctionNoticeMail(c: SeatMailContext, turn: number, name: string): Mail {
  const text = [
    ...robotMark(c),
    `The moderator has corrected ${name}'s orders for turn ${turn} of race ${c.race}, the turn taken back to be played again.`,
    'What they are stays hidden until the registers reveal them, as any program does.',
    '',
    'The turn is played again; its corrected report follows. Your own orders for this turn stand, and orders you send before its deadline replace them.',
  ].join('\n');
  return { subject: subjectOf(c, `Turn ${turn}: the moderator corrected ${name}'s orders`), text, replyTo: c.replyTo };
}

/** The answer to a mail of orders: what was understood, or what was expected. */
export function replyMail(c: SeatMailContext, to: { subject: string; messageId: string | null }, lines: string[]): Mail {
  const subject = /^re:/i.test(to.subject) ? to.subject : `Re: ${to.subject || subjectOf(c, 'orders')}`;
  return { subject: subject.includes(c.code) ? subject : `${subject} ${c.code}`, text: [...robotMark(c), ...lines].join('\n'), replyTo: c.replyTo, autoSubmitted: 'auto-replied', ...(to.messageId ? { inReplyTo: to.messageId } : {}) };
}
