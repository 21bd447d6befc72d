/**
 * The race page, /race/{id}: with ?seat=N&token=T (the seat's own link) a seat's view with its hand
 * and program; with ?seat=N&invite=CODE (an invite link) the seat is taken first, once, for this
 * browser, and the address becomes the seat's own link; without, the spectators' view of what is
 * revealed. It follows the race's stream: each
 * entry refreshes the view, each turn played opens its replay. A page opened later, or whose
 * connection came back, asks for what it missed by the last seq it saw.
 */
import { Floor, RULE_SETS, type Board, type BoardJson, type Result, awards, list, ordinal, parseBoard, parseCourse, parseDir, raceStats, type GameEvent } from '../../engine/src/index.js';
import { api, createRace, ApiError, NoAnswer, browserKey, byId, copy, h, isOwnToken, keepModeratorKey, keepOwnLink, keepOwnToken, linkLine, moderatorKeyOf, ownLinkOf, type Entry, type RaceView, type SeatView, type SentOrders, type StreamFrame } from './api.js';
import { BoardView } from './board.js';
import { ProgramPanel, type Refusal } from './program.js';
import { ReplayPlayer } from './replay.js';
import { robotsFromView, type Robot } from './steps.js';
import { drawLegend, robotIcon as seatIcon, ordersPlayed, programming, seatsTable, teamsOf } from './seats-view.js';
import { robotPicker } from './robot-picker.js';
import { FIRST_BACKOFF_MS, nextBackoff, reconnectDelay } from './reconnect.js';

const id = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const params = new URLSearchParams(location.search);
const seat = params.has('seat') ? Number(params.get('seat')) : null;
/** The seat's token: its own link's, or the one its invite's claim gave this browser. */
let token = params.get('token') ?? undefined;
const invite = params.get('invite');

let view: RaceView;
let board: BoardView;
let model: Board;
let program: ProgramPanel | null = null;
let replay: ReplayPlayer;
let mode: 'now' | 'replay' = 'now';
let lastSeq = 0;
let ended = false;
/** This browser's token opens the seat no more (or never did): the page stops following the race (lostSeat). */
let lost = false;

/** The race's course: a shipped one's name (null for a course of the race's own) and the course file, for a rematch. */
interface RaceCourse {
  name: string | null;
  title: string;
  layout: unknown;
  file: unknown;
}
let course: RaceCourse;

/** The robot each seat chose (render/src/robots.ts), by seat. */
const designs = () => view.seats.map((s) => s.robot);
const played = (v: RaceView) => (v.status === 'over' ? v.turn : v.turn - 1);

function fail(message: string): void {
  byId('status').textContent = message;
  byId('status').classList.add('error');
}

async function load(): Promise<RaceView> {
  // The last seq seen on the stream: a server process whose kept race is that new answers without a look at the database.
  const seen = lastSeq ? `?seen=${lastSeq}` : '';
  return seat !== null ? api<SeatView>('GET', `/api/races/${id}/seats/${seat}${seen}`, undefined, token) : api<RaceView>('GET', `/api/races/${id}${seen}`);
}

function showMode(m: 'now' | 'replay'): void {
  mode = m;
  document.body.dataset.mode = m;
  byId('tab-now').setAttribute('aria-pressed', String(m === 'now'));
  byId('tab-replay').setAttribute('aria-pressed', String(m === 'replay'));
  byId('replay').hidden = m !== 'replay';
  byId('report').hidden = m !== 'replay';
  if (m === 'now') {
    replay.leave();
    drawNow();
    drawSeats();
  }
}

/** Marks on the floor as it is now: each hammer site's offer, each flag's die and what it has left. */
function drawMarks(): void {
  const svg = board.svg();
  if (!svg) return;
  const f = board.frame();
  const NS = 'http://www.w3.org/2000/svg';
  const g = document.createElementNS(NS, 'g');
  g.setAttribute('class', 'marks');
  const tag = (x: number, y: number, text: string, cls: string, fill: string) => {
    const t = document.createElementNS(NS, 'text');
    for (const [k, v] of Object.entries({ x: String(f.ox + x), y: String(f.oy + y), class: cls, fill, 'font-size': String(Math.round(f.c * 0.2)), 'font-weight': 'bold', 'text-anchor': 'middle', stroke: '#ffffff', 'stroke-width': '3', 'paint-order': 'stroke' })) t.setAttribute(k, v);
    t.textContent = text;
    g.append(t);
  };
  for (const o of view.offers ?? []) tag((o.x + 0.5) * f.c, (o.y + 0.97) * f.c, o.option, 'offer', '#6d4c00');
  (view.dice ?? []).forEach((left, k) => {
    const at = model.flags[k];
    if (at) tag((at[0] + 0.5) * f.c, (at[1] + 0.97) * f.c, left > 0 ? `die ${left}` : 'die gone', 'die', '#b71c1c');
  });
  svg.append(g);
  // Short: on a phone they stay in view with the board, one line after another.
  const dice = (view.dice ?? []).map((left, k) => `flag ${k + 1}'s die ${left > 0 ? `absorbs ${left} more damage` : 'is gone'}`);
  const notes = [
    ...(view.offers ?? []).map((o) => `The hammer site at ${o.x},${o.y} offers ${o.option}.`),
    ...(dice.length ? [`Dice: ${dice.join(', ')}.`] : []),
  ];
  // First, plainly: a race whose deal is not secret (docs/server.md: dealt from a seed chosen
  // openly, for tests and replays), whose every hand anybody who knows the seed can work out.
  const deal = view.deal && !view.deal.secret ? h('li', { class: 'open-deal' }, h('strong', {}, 'Not a secret deal:'), ` anyone who knows its seed (${view.deal.seed}) can work out every hand.`) : null;
  byId('floor-notes').replaceChildren(...(deal ? [deal] : []), ...notes.map((n) => h('li', {}, n)));
}

/** The starting facing chosen in the program form, not yet played: the board shows the robot turned so. */
let facing = '';

function drawNow(): void {
  const robots = robotsFromView(view.robots, designs());
  if (seat !== null && facing && view.turn === 1 && robots[seat]) robots[seat]!.dir = parseDir(facing)!;
  if (mode === 'now') board.draw({ robots, ...(seat !== null ? { you: seat } : {}) }, undefined, `Turn ${view.turn}${view.status === 'over' ? ': the race is over' : ''}`);
  if (mode === 'now') drawMarks();
}

const clock = (ms: number): string => {
  const left = Math.max(0, Math.round(ms / 1000));
  return left >= 3600 ? `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min` : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
};

function countdown(): string {
  if (view.status === 'over') return 'race over';
  if (view.paused) return 'Paused by the moderator.';
  // A live race's clock waits for the replay (docs/server.md): it starts once every person has watched it.
  const wait = view.clock && view.clock.startsBy > Date.now() ? view.clock : null;
  if (wait) {
    if (seat !== null && wait.waitingFor.includes(seat)) return 'clock after replay';
    const names = wait.waitingFor.map((k) => view.seats[k]?.name ?? '').join(', ');
    return `clock waits for ${names} (≤ ${clock(wait.startsBy - Date.now())})`;
  }
  if (view.deadlineAt === null) return '';
  return `${clock(view.deadlineAt - Date.now())} left${waitingFor()}`;
}

/**
 * Whom the open turn waits for, once this seat's orders are in (a spectator: once anybody's are):
 * the people still programming, by name (two at most, else how many).
 */
function waitingFor(): string {
  const late = view.seats.filter((s) => programming(view, s.seat) && !s.submitted);
  const sent = seat !== null ? view.seats[seat]?.submitted : view.seats.some((s) => s.kind === 'human' && s.submitted);
  if (!sent || !late.length) return '';
  return ` · waiting for ${late.length > 2 ? `${late.length} people` : late.map((s) => s.name).join(' and ')}`;
}

/** Whether the race's stream is cut: the browser is offline, or the connection dropped and is being opened again. */
function cut(): string | null {
  if (view.status === 'over') return null;
  if (!navigator.onLine) return 'offline';
  if (!following || document.body.dataset.live) return null;
  return refused ? `live updates refused: ${refused}` : 'reconnecting…';
}

/** Under this, the time left to send is told in red. */
const HURRY_MS = 30_000;

/**
 * The time left to send, in the program's bar beside Send: "1:42 to send" (red in the last half
 * minute), "sent ✓" once the orders are in, "after the replay" while the clock waits for it.
 */
function drawTurnClock(el: HTMLElement | null = document.querySelector<HTMLElement>('#program .turn-clock')): void {
  if (!el || seat === null) return;
  const wait = view.clock && view.clock.startsBy > Date.now();
  const left = view.deadlineAt === null ? null : view.deadlineAt - Date.now();
  const text = view.status !== 'running' ? '' : view.paused ? 'paused' : view.seats[seat]?.submitted ? 'sent ✓' : wait ? 'clock after the replay' : left === null ? '' : `${clock(left)} to send`;
  el.textContent = text;
  el.classList.toggle('hurry', !view.seats[seat]?.submitted && !wait && left !== null && left < HURRY_MS);
  el.classList.toggle('done', !!view.seats[seat]?.submitted);
}

function drawStatus(): void {
  if (lost) return;
  drawTurnClock();
  const who = seat !== null ? view.seats[seat]?.name ?? '' : 'Watching';
  // A phone's line is the turn and the time left: the legend under the board says whose robot is yours.
  const down = cut();
  byId('status').replaceChildren(h('span', { class: 'wide' }, `${who} · ${view.rules} · `), `turn ${view.turn}`, countdown() ? ` · ${countdown()}` : '',
    down ? h('span', { class: 'offline' }, ` · ${down}`) : '');
}

/** Which of the side's sections a phone shows (a wide screen shows them all). */
function sideTab(which: string): void {
  const side = document.querySelector<HTMLElement>('.side')!;
  side.dataset.tab = which;
  for (const b of side.querySelectorAll<HTMLButtonElement>('.side-tabs button')) b.setAttribute('aria-pressed', String(b.dataset.show === which));
}

/**
 * The others' drafts as the stream brings them: per seat, the turn and how many registers hold a
 * card so far (a count, never a card; docs/server.md, "Drafts").
 */
const drafts = new Map<number, { turn: number; filled: number }>();

/** The drafts of the turn being programmed: per seat, how many registers hold a card. */
const draftsNow = () => new Map([...drafts].flatMap(([k, d]) => (d.turn === view.turn ? [[k, d.filled] as const] : [])));

/** The robots' table: as the race stands, or as the replay shows them (never ahead of it). */
function drawSeats(shown?: readonly Robot[]): void {
  // An option opened to its text stays open when the table is drawn again.
  const table = byId('seats');
  const opened = new Set([...table.querySelectorAll<HTMLDetailsElement>('details.option[open]')].map((d) => d.dataset.key));
  table.replaceChildren(...seatsTable(view, seat, shown, draftsNow(), shown ? ordersPlayed(replay.shownEvents) : undefined, moderatorKeyOf(id) !== null ? newInvite : undefined), newInvites);
  for (const d of table.querySelectorAll<HTMLDetailsElement>('details.option')) if (opened.has(d.dataset.key)) d.open = true;
}

/** Under the Robots table, in the browser holding the moderator key: the new invite links it made, one a person, to send. */
const newInvites = h('div', { class: 'new-invites' });

/**
 * A new invite link for a person (POST …/moderator/invite, docs/server.md Moderator), once the
 * race's creator confirms that their current link stops working: for a person who lost their
 * seat's own link, or whose invite somebody else took. Shown under the Robots table to copy and
 * send; a refusal (a seat raced by e-mail: its mails carry its link) is said there.
 */
async function newInvite(k: number): Promise<void> {
  const name = view.seats[k]?.name ?? `seat ${k}`;
  if (!confirm(`A new invite link for ${name}? Their current link stops working: they take the seat again with the new one.`)) return;
  const line = (li: HTMLElement) => {
    li.dataset.seat = String(k);
    newInvites.querySelector(`[data-seat="${k}"]`)?.remove();
    if (!newInvites.querySelector('ul')) newInvites.append(h('ul', { class: 'invites' }));
    newInvites.querySelector('ul')!.append(li);
  };
  try {
    const got = await api<{ invite: string; seats: number[] }>('POST', `/api/races/${encodeURIComponent(id)}/moderator/invite`, { seat: k }, undefined, { 'x-moderator-key': moderatorKeyOf(id) ?? '' });
    line(linkLine(`${name}'s new invite link (send it: it works once)`, new URL(`/race/${encodeURIComponent(id)}?seat=${k}&invite=${encodeURIComponent(got.invite)}`, location.href).href, 'invite'));
  } catch (e) {
    line(h('li', { class: 'error' }, `No new invite for ${name}: ${(e as Error).message}`));
  }
}

/**
 * Tells the others how many registers this seat has filled so far, while its orders are not in:
 * the latest count, one request at a time and a few a second at most (the server refuses more).
 */
let draftWanted: { turn: number; filled: number } | null = null;
let draftSent = '';
let drafting = false;
async function sendDraft(): Promise<void> {
  if (drafting || !draftWanted || seat === null) return;
  const d = draftWanted;
  // Orders in: the others see the registers full from the view.
  if (d.turn !== view.turn || view.seats[seat]?.submitted || JSON.stringify(d) === draftSent) return;
  drafting = true;
  draftSent = JSON.stringify(d);
  await api('PUT', `/api/races/${id}/seats/${seat}/draft`, d, token).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 300));
  drafting = false;
  void sendDraft();
}

/** The race's events (less any turn the moderator rewound), for its statistics. */
async function raceEvents(): Promise<GameEvent[]> {
  const entries = await api<Entry[]>('GET', `/api/races/${id}/events?after=0`);
  const undone = entries.flatMap((e) => (e.kind === 'race' && e.event.type === 'rewound' ? [[e.event.from as number, e.event.to as number] as const] : []));
  return entries.filter((e) => e.kind === 'game' && !undone.some(([a, b]) => e.seq >= a && e.seq <= b)).map((e) => e.event as GameEvent);
}

/** A seat's robot as drawn on the board, small, for a table. */
const robotIcon = (k: number): SVGSVGElement => seatIcon(view.seats[k]?.robot, k);

/**
 * The end, first beside the board and brought into view: who won and, for a seat, its place; the
 * standings as the engine ranks them (each robot's place, the finishers in their finishing order;
 * with teams each robot at its team's place, the teams' standings first), each robot drawn with its
 * flags, lives (or out) and damage dealt; the awards where the rule set gives them; in a series its
 * standings across its races; and the next race: a rematch on the same course, or the next race of
 * the series, seated by the server in 001's start picks (001 L333-351).
 */
async function drawResult(): Promise<void> {
  if (view.status !== 'over' || ended) return;
  ended = true;
  const box = byId('result');
  box.hidden = false;
  const events = await raceEvents();
  const stats = raceStats(view.robots.map((r) => r.name), events);
  // The standings come with the public view (a seat's view has none): asked for once, at the end.
  const lines = view.standings ?? (await api<RaceView>('GET', `/api/races/${id}`)).standings ?? [];
  const lineOf = (k: number) => lines.find((l) => l.robots.includes(k));
  const order = lines.flatMap((l) => l.robots);
  const teams = teamsOf(view);
  const standings = h('table', { class: 'standings' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Robot'), teams.size ? h('th', {}, 'Team') : null, h('th', {}, 'Flags'), h('th', {}, 'Lives'), h('th', {}, 'Damage dealt'))),
    h('tbody', {}, ...order.map((k) => {
      const r = view.robots[k]!;
      const l = lineOf(k)!;
      return h('tr', { 'data-seat': k, class: [k === seat ? 'you' : '', l.finished ? 'finished' : ''].filter(Boolean).join(' ') },
        h('td', {}, ordinal(l.place), l.finished ? h('span', { class: 'finish-mark' }, ' finished') : ''),
        h('td', { class: 'name' }, robotIcon(k), h('span', { class: 'robot-name', title: r.name }, r.name)), teams.size ? h('td', { class: 'team' }, teams.get(r.name) ?? '') : null,
        h('td', {}, String(r.flags)), h('td', {}, r.status === 'out' && !l.finished ? 'out' : String(r.lives)), h('td', {}, String(stats[k]?.damageDealt ?? 0)));
    })));
  // Who won, and how this seat did, in a line a new player reads first.
  const first = lines.filter((l) => l.place === 1 && l.finished);
  const winners = first.length ? `${list(first.map((l) => (l.team ? `Team ${l.name}` : l.name)))} ${first.length > 1 ? 'win' : 'wins'} the race.` : 'Nobody finished.';
  const mine = seat !== null ? lineOf(seat) : undefined;
  const yours = mine ? ` ${mine.team ? `Your team, ${mine.name},` : `You (${view.robots[seat!]!.name})`} placed ${ordinal(mine.place)}${mine.place === 1 && mine.finished ? ': well raced!' : '.'}` : '';
  // A seat races again; a spectator has no seat to race with: Rematch only where this browser
  // created the race (it keeps its moderator key: a race of bots alone is watched from here), else
  // a race of one's own from the home page. Next race asks for the key where it is not kept.
  const again = h('div', { class: 'again' },
    seat !== null || moderatorKeyOf(id) !== null
      ? h('p', {}, h('button', { type: 'button', class: 'primary rematch', disabled: againMade, onclick: () => void rematch(null) }, 'Rematch'), ' the same course, robots and rules again.')
      : h('p', {}, h('a', { href: '/', class: 'button own-race' }, 'A race of your own'), ' from the home page: watching, you have no seat to race again.'),
    h('p', {}, h('button', { type: 'button', class: 'next-race', disabled: againMade, onclick: nextRace }, 'Next race'), " of a series: the same people, seated by this race's standings (001's start picks), the series' points carried."));
  const byTeam = teams.size ? h('ol', { class: 'team-standings' }, ...lines.map((l) => h('li', { value: l.place, 'data-team': l.team ? l.name : null },
    l.team ? `${l.name} (${l.robots.map((k) => view.robots[k]!.name).join(', ')})` : l.name))) : '';
  box.replaceChildren(h('h2', {}, 'The race is over'), h('p', { class: 'verdict' }, winners, yours), byTeam, standings, again, h('div', { id: 'rematch' }));
  // No program to write any more: on a phone the Program tab goes and the Robots table takes its place.
  document.querySelector<HTMLElement>('.side-tabs button[data-show="program"]')!.hidden = true;
  if (document.querySelector<HTMLElement>('.side')!.dataset.tab === 'program') sideTab('seats');
  // The end is what the page is about now: in view beside the board; on a phone it follows the
  // board (which stays at the top of the screen), so the page goes back to its top; where the
  // board scrolls with the page (a short screen, app.css) the end comes to the top itself (the
  // board above filled a 320×568 screen, the winner under it).
  if (matchMedia('(min-width: 900px)').matches) box.scrollIntoView({ block: 'nearest' });
  else if (getComputedStyle(document.querySelector('.floor')!).position === 'static') box.scrollIntoView({ block: 'start' });
  else window.scrollTo({ top: 0 });
  if (view.series) await drawSeries(box, view.series);
  if (!RULE_SETS[view.rules]?.awards) return;
  const given = awards(stats);
  box.append(h('h3', {}, 'Awards'), h('table', { class: 'awards' }, h('tbody', {}, ...given.map((a) => h('tr', {}, h('th', {}, a.award), h('td', {}, a.robots.join(', ')), h('td', {}, a.for))))));
}

interface Created {
  id: string;
  seats: { seat: number; name: string; invite: string | null; link: string | null }[];
}

/** A series' standings across its races over so far (GET /api/series/{id}): points, wins, the place in each race. */
async function drawSeries(box: HTMLElement, series: string): Promise<void> {
  const got = await api<{ races: string[]; standings: { place: number; name: string; points: number; wins: number; places: (number | null)[] }[] }>('GET', `/api/series/${series}`);
  box.append(h('h3', {}, `The series after ${got.standings[0]?.places.length ?? 0} races`), h('table', { class: 'series-standings' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Place'), h('th', {}, 'Robot'), h('th', {}, 'Points'), h('th', {}, 'Wins'), h('th', {}, 'Places'))),
    h('tbody', {}, ...got.standings.map((l) => h('tr', {}, h('td', {}, String(l.place)), h('td', {}, l.name), h('td', {}, String(l.points)), h('td', {}, String(l.wins)),
      h('td', {}, l.places.map((p) => p ?? '–').join(', ')))))));
}

/**
 * The next race of the series: created `after` this one with its moderator key, which this browser
 * kept if it created the race; else the page asks for it (the race's links came with it).
 */
function nextRace(): void {
  const key = moderatorKeyOf(id);
  if (key) return void rematch(key);
  const input = h('input', { name: 'moderator-key', 'aria-label': 'Moderator key', autocomplete: 'off', required: true });
  byId('rematch').replaceChildren(
    h('p', {}, 'The next race of a series is started with this race\'s moderator key (it came with the race\'s links when the race was created).'),
    h('form', { class: 'series-key', onsubmit: (ev: Event) => {
      ev.preventDefault();
      void rematch(input.value.trim());
    } }, h('label', {}, 'Moderator key ', input), ' ', h('button', { type: 'submit', class: 'primary' }, 'Start the next race')));
  input.focus();
}

/** This page made its new race (Rematch or Next race), or is making it: the buttons stay disabled. */
let againMade = false;

/**
 * A rematch (`after` null), made by the server once for everyone who asks (docs/server.md,
 * "Rematch"): a seat goes straight to its seat in it, taken with its token here (the other people
 * take theirs from their own end pages), the moderator's page to watch it. Or with `after` (this
 * race's moderator key) the next race of its series on this course (a shipped one by name, else the
 * course itself), which the server seats in 001's start picks and whose standings it carries. Alone
 * with bots, straight to your seat; else everyone's link.
 */
async function rematch(after: string | null): Promise<void> {
  // One new race a page: a second press (a double click, Enter again on the Rematch the focus
  // stays on) made a second race, its invites in place of the first's, already sent perhaps.
  if (againMade) return;
  againMade = true;
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('.again button, .series-key button')];
  for (const b of buttons) b.disabled = true;
  if (after === null) {
    const key = moderatorKeyOf(id);
    try {
      if (seat !== null) {
        const r = await api<{ id: string; token: string }>('POST', `/api/races/${id}/seats/${seat}/rematch`, { browser: browserKey() }, token);
        if (key) keepModeratorKey(r.id, key);
        // This browser's own token for the new race (its claim): no "made in another browser" there.
        keepOwnToken(r.id, r.token);
        return location.assign(`/race/${r.id}?seat=${seat}&token=${encodeURIComponent(r.token)}`);
      }
      const r = await api<{ race: string }>('POST', `/api/races/${id}/moderator/rematch`, undefined, undefined, { 'x-moderator-key': key ?? '' });
      keepModeratorKey(r.race, key!);
      return location.assign(`/race/${r.race}`);
    } catch (e) {
      againMade = false;
      for (const b of buttons) b.disabled = false;
      return void byId('rematch').replaceChildren(h('p', { class: 'error' }, `The rematch could not be made: ${(e as Error).message}`));
    }
  }
  const v = view as RaceView & { settings?: unknown; deadline?: unknown };
  const seats = view.seats.map((s) => ({ name: s.name, ...(s.kind === 'bot' ? { bot: s.level ?? 'greedy' } : {}), ...(s.robot !== undefined ? { robot: s.robot } : {}) }));
  const body = {
    course: course.name ?? course.file, rules: view.rules, seats, ...(v.settings ? { settings: v.settings } : {}), ...(v.deadline ? { deadline: v.deadline } : {}),
    after: { race: id, moderatorKey: after },
  };
  const out = byId('rematch');
  try {
    const r = await createRace<Created & { moderatorKey: string }>(body);
    // This browser made it: its end page can start the next race in turn.
    keepModeratorKey(r.id, r.moderatorKey);
    // Invite links: each taken once, by the first browser that opens it. Yours is opened here (the
    // page takes the seat); the others' are to send, never to open.
    const people = r.seats.filter((s) => s.link);
    const mine = people.find((s) => s.name === view.seats[seat ?? -1]?.name) ?? people[0];
    if (mine?.link) keepOwnLink(r.id, mine.link);
    if (people.length === 1 && mine?.link) return location.assign(mine.link);
    // Bots alone: watch them.
    if (!people.length || !mine) return location.assign(`/race/${r.id}`);
    out.replaceChildren(h('p', {}, 'The next race is ready. Send each other person their invite link: it works once, for the first browser that opens it, so do not open it yourself.'),
      h('ul', { class: 'invites' }, ...people.filter((s) => s.link !== mine.link).map((s) => linkLine(`${s.name}'s invite link`, new URL(s.link!, location.href).href, 'invite'))),
      h('p', {}, h('a', { href: mine.link!, class: 'button primary go' }, 'Go to your seat'), ` as ${mine.name}.`));
  } catch (e) {
    againMade = false;
    for (const b of buttons) b.disabled = false;
    out.replaceChildren(h('p', { class: 'error' }, `The next race could not be created: ${(e as Error).message}`));
  }
}

/** The race ended in the turn whose replay plays now: its end is shown once that replay is seen. */
let endWaits = false;

/** Draws the race anew from the server; `fresh` for the first time, when no turn was played meanwhile. */
async function refresh(fresh = false): Promise<void> {
  const before = view.turn;
  const playedBefore = played(view);
  if (!fresh) view = await load();
  // The turns played since (two may come in one refresh: each is replayed, in order); a turn
  // rewound by the moderator: the one played last again.
  const newTurns = fresh || played(view) === 0 ? []
    : played(view) > playedBefore ? Array.from({ length: played(view) - playedBefore }, (_, k) => playedBefore + 1 + k)
    : view.turn !== before ? [played(view)] : [];
  const newTurn = newTurns.length > 0;
  drawStatus();
  drawLegend(byId('legend'), view, seat, draftsNow());
  // While a replay is shown (or about to be), the table follows it, not the race as it stands.
  if (mode === 'now' && !newTurn) drawSeats();
  if (!newTurn) drawNow();
  replay.setPlayed(played(view));
  byId<HTMLButtonElement>('tab-replay').disabled = played(view) === 0;
  if (seat !== null) robotPicker(byId('choose'), view, seat, { choose: (robot) => ask('PUT', `/api/races/${id}/seats/${seat}/robot`, { robot }) });
  if (program) {
    if (view.status === 'running') program.update(view as SeatView);
    byId('program').hidden = view.status !== 'running';
  }
  // A race that ended in the turn just played: the end (who won) waits for that turn's replay to be
  // seen, skipped or left, never ahead of it.
  if (newTurn && view.status === 'over') endWaits = true;
  if (!endWaits) void drawResult();
  // Turns played meanwhile: their replays, from the start, one after another.
  if (newTurn) {
    showMode('replay');
    // On a wide screen the report sits beside the board, above the program: Send left the page
    // scrolled down past it, so it is brought back into view (the board stays, sticky).
    const top = byId('report').getBoundingClientRect().top;
    if (matchMedia('(min-width: 900px)').matches && top < 0) window.scrollBy({ top: top - 8 });
    // On a phone whose board scrolls with the page (a short screen, app.css), Send left the board
    // above the screen: the page goes back up to it, so the replay plays where you look.
    const floor = document.querySelector<HTMLElement>('.floor')!;
    if (getComputedStyle(floor).position === 'static' && floor.getBoundingClientRect().top < 0) window.scrollTo({ top: 0 });
    // The race ended meanwhile: straight to its last turn (the end waits for that replay alone).
    await (view.status === 'over' ? replay.finale(newTurns) : replay.enqueue(newTurns));
  }
}

let pending: ReturnType<typeof setTimeout> | null = null;
function refreshSoon(): void {
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    refresh().catch((e) => (seat !== null && e instanceof ApiError && e.status === 401 ? lostSeat() : fail(`Could not refresh: ${(e as Error).message}`)));
  }, 50);
}

/** The stream's connection, once the page follows the race; the reconnection waiting, if one is. */
let following: WebSocket | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
/** Why the stream's last attempt was refused before its upgrade (the server's words), while it waits to try again. */
let refused: string | null = null;

/**
 * The race's stream, from the last seq seen; reconnects after a drop and catches up, after a wait
 * drawn at random within `backoff` (web/src/reconnect.ts), longer after each try that did not open.
 */
function follow(backoff = FIRST_BACKOFF_MS): void {
  if (lost) return;
  if (retry) clearTimeout(retry);
  retry = null;
  // One stream at a time: one still trying (opened offline) is let go.
  if (following) {
    following.onopen = following.onclose = following.onmessage = null;
    following.close();
  }
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/races/${id}/stream?after=${lastSeq}`);
  following = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
    refused = null;
    document.body.dataset.live = 'true';
    drawStatus();
  };
  ws.onmessage = (m) => {
    const frame = JSON.parse(String(m.data)) as StreamFrame;
    if (Array.isArray(frame) || 'entries' in frame) {
      const fresh = (Array.isArray(frame) ? frame : frame.entries).filter((e) => e.seq > lastSeq);
      if (fresh.length) {
        lastSeq = fresh[fresh.length - 1]!.seq;
        document.body.dataset.seq = String(lastSeq);
        refreshSoon();
      }
      if ('played' in frame) replay.offer(frame.played.turn, frame.played.replay, frame.played.report.report);
    } else if ('draft' in frame) {
      drafts.set(frame.draft.seat, { turn: frame.draft.turn, filled: frame.draft.filled });
      drawLegend(byId('legend'), view, seat, draftsNow());
      if (mode === 'now') drawSeats();
    } else fail(frame.error.message);
  };
  ws.onclose = () => {
    delete document.body.dataset.live;
    drawStatus();
    if (view.status === 'over') return;
    if (opened) {
      retry = setTimeout(() => follow(), reconnectDelay(FIRST_BACKOFF_MS, 0, Math.random));
      return;
    }
    // Never opened: no connection, or refused before its upgrade (too many streams from this
    // address, or on the server), which a browser is not told: the stream's address asked without
    // an upgrade says why and how long to wait. Each attempt may wait longer, up to 10 s.
    void whyRefused().then((why) => {
      if (following !== ws) return;
      refused = why?.message ?? null;
      drawStatus();
      retry = setTimeout(() => follow(nextBackoff(backoff)), reconnectDelay(backoff, why?.retryMs ?? 0, Math.random));
    });
  };
}

/** Why the race's stream was refused (too many streams), or null (any other answer, or none). */
async function whyRefused(): Promise<{ message: string; retryMs: number } | null> {
  try {
    const res = await fetch(`/api/races/${id}/stream`);
    if (res.status !== 429 && res.status !== 503) return null;
    const body = (await res.json()) as { error?: { message?: string } };
    return { message: body.error?.message ?? `${res.status}`, retryMs: (Number(res.headers.get('retry-after')) || 0) * 1000 };
  } catch {
    return null;
  }
}

/**
 * The browser going offline says so at once (a connection that went with it may stay open without
 * a word until it times out): the stream is let go and the status line says "offline". Back
 * online, the stream is opened again at once from the last seq seen, and the page catches up.
 */
function online(): void {
  addEventListener('offline', () => {
    const ws = following;
    if (ws) {
      ws.onclose = ws.onmessage = null;
      ws.close();
    }
    delete document.body.dataset.live;
    drawStatus();
  });
  addEventListener('online', () => {
    drawStatus();
    if (view.status !== 'over' && !document.body.dataset.live) follow();
  });
}

/**
 * How long a seat's request waits for an answer before it is abandoned and may be tried again
 * (a request that hangs would otherwise leave Send saying "Sending…" for ever).
 */
const ANSWER_WITHIN_MS = 15_000;

/** A request of the seat; a refusal names the field the server named. */
async function ask(method: string, path: string, body?: unknown): Promise<Refusal | null> {
  try {
    await api(method, path, body, token, {}, ANSWER_WITHIN_MS);
    refreshSoon();
    return null;
  } catch (e) {
    // A refusal names its field; no answer (a network error, a server unable to answer: 5xx, none in time) may be tried again.
    if (e instanceof ApiError && e.status < 500) return { field: e.field, message: e.message };
    const message = e instanceof ApiError ? `the server could not answer (${e.message})` : e instanceof NoAnswer ? e.message : 'the connection to the server was lost';
    return { field: 'server', message, retry: true };
  }
}

/**
 * Tells the server this seat has watched (or skipped, or left) the replay of the turn just played,
 * once a turn: a live race's clock starts when every person has (docs/server.md).
 */
let readySent = 0;

/**
 * The replay of the turn just played seen to its end: on a laptop the program comes first beside
 * the board again (app.css), and the page, scrolled down to the report, goes back up to it. On a
 * phone the hand's first card goes just under the board (sticky at the top of the screen) when it
 * is under it or under the program's bar (sticky at the bottom), so programming starts in reach.
 */
function programInView(): void {
  const box = byId('program');
  if (box.hidden) return;
  if (matchMedia('(min-width: 900px)').matches) {
    const top = box.getBoundingClientRect().top;
    if (top < 0 || top > innerHeight / 2) window.scrollBy({ top: top - 8 });
    return;
  }
  const card = box.querySelector('.hand .card'), floor = document.querySelector('.floor'), bar = box.querySelector('.program-bar');
  // No card, or the program not the tab shown.
  if (!card?.getClientRects().length) return;
  const sticky = (e: Element | null) => !!e && getComputedStyle(e).position === 'sticky';
  const under = sticky(floor) ? floor!.getBoundingClientRect().bottom : 0;
  const above = sticky(bar) ? bar!.getBoundingClientRect().top : innerHeight;
  const r = card.getBoundingClientRect();
  if (r.top < under || r.bottom > above) window.scrollBy({ top: r.top - under - 8 });
}
function ready(): void {
  if (seat === null || !view.clock?.waitingFor.includes(seat) || readySent === view.turn) return;
  readySent = view.turn;
  void ask('POST', `/api/races/${id}/seats/${seat}/ready`, { turn: view.turn }).then((refused) => {
    if (refused) readySent = 0;
  });
}

const send = (orders: SentOrders) => {
  // The orders say it all: a draft still waiting to go would come after them, refused (409).
  draftWanted = null;
  return ask('PUT', `/api/races/${id}/seats/${seat}/orders`, orders);
};
/** The seat's view as the server holds it now, or null with no answer (the refusal is shown then). */
const held = () => api<SeatView>('GET', `/api/races/${id}/seats/${seat}`, undefined, token, {}, ANSWER_WITHIN_MS).catch(() => null);
const recompile = () => ask('POST', `/api/races/${id}/seats/${seat}/recompile`);

/**
 * The race's floor. A cube course (004 L179) is read from its file with the shipped boards, so the
 * floor knows its folds (arrows and glides over a fold leave by one edge and come in by another);
 * any other course from its composed layout.
 */
async function courseBoard(c: RaceCourse): Promise<Result<Board>> {
  const file = c.file as { cube?: unknown };
  if (file && typeof file === 'object' && file.cube !== undefined && file.cube !== false) {
    const boards = await api<{ name: string; board: BoardJson }[]>('GET', '/api/boards');
    const read = parseCourse(c.file, (name) => boards.find((b) => b.name === name)?.board);
    if (read.ok) return { ok: true, value: read.value.board };
  }
  return parseBoard(c.layout);
}

/**
 * A page opened with an invite link (?seat=N&invite=CODE): the seat is taken with it (POST
 * …/claim), which spends it, and the token the answer gives this browser alone opens the seat; the
 * address becomes the seat's own link (?seat=N&token=T: bookmarkable, to open on another device).
 * The token is kept by invite, so the same browser opening the invite again goes to its seat. The
 * claim carries this browser's own key (browserKey, kept before the claim is sent): a claim whose
 * answer was lost is sent again by a reload and answered the same token, the seat this browser's.
 * False when the seat could not be taken (the page says why, and shows no hand).
 */
async function claim(code: string): Promise<boolean> {
  const kept = `roborally.invite.${id}.${code}`;
  let got = localStorage.getItem(kept);
  const own = ownLinkOf(id);
  if (!got && moderatorKeyOf(id) !== null && (own === null || new URL(own, location.href).searchParams.get('invite') !== code) && !(await othersInvite(own))) return false;
  if (!got) {
    try {
      const claimed = await api<{ token: string; seats: number[]; openedBefore: Held[] }>('POST', `/api/races/${encodeURIComponent(id)}/claim`, { invite: code, browser: browserKey() });
      got = claimed.token;
      if (claimed.openedBefore.length) localStorage.setItem(heldBeforeKey(), JSON.stringify(claimed.openedBefore));
    } catch (e) {
      if (e instanceof ApiError && e.field === 'invite') {
        refusedPage('This invite was used already',
          'A seat is taken once, by the first browser that opens its invite link: another browser took this one (or the link is not one of this race\'s).',
          'If that was you, open the race from that browser (its page\'s address is the seat\'s own link). If it was not you, tell the race\'s creator.');
      } else refusedPage('Your seat could not be taken', e instanceof ApiError ? `The server said: ${e.message}` : `No answer from the server (${(e as Error).message}): reload the page to try again.`);
      return false;
    }
    localStorage.setItem(kept, got);
  }
  token = got;
  keepOwnToken(id, got);
  history.replaceState(null, '', `${location.pathname}?seat=${seat}&token=${encodeURIComponent(got)}`);
  return true;
}

/**
 * The browser that created the race (it holds the moderator key) opening an invite that is not its
 * own person's: another person's link, tried before it is sent. Taking it would take their seat here
 * and leave them "This invite was used already", so the page asks first, and nothing is spent until
 * the seat is taken: true once "Take … seat here" is pressed (the page then goes on as any invite's),
 * else the page stays asking, with a way to the creator's own seat.
 */
function othersInvite(own: string | null): Promise<boolean> {
  const main = document.querySelector('main')!;
  const race = [...main.childNodes];
  return api<RaceView>('GET', `/api/races/${encodeURIComponent(id)}`).then((v) => v.seats[seat!]?.name ?? `seat ${seat}`, () => `seat ${seat}`).then((name) => new Promise<boolean>((taken) => {
    document.body.dataset.asking = 'true';
    byId('status').textContent = `${name}'s invite link`;
    // Share is wired once the race is shown (main): till then Watch the race is the spectators' way.
    byId('share').hidden = true;
    const take = h('button', { type: 'button', class: 'take' }, `Take ${name}'s seat here`);
    take.onclick = () => {
      delete document.body.dataset.asking;
      byId('share').hidden = false;
      main.replaceChildren(...race);
      taken(true);
    };
    main.replaceChildren(h('section', { class: 'refused asking', 'aria-labelledby': 'asking-h' },
      h('h2', { id: 'asking-h' }, `This is ${name}'s invite link`),
      h('p', {}, `You created this race: this link is for ${name}, to send them. It works once: opened here, it takes ${name}'s seat in this browser, and ${name} would be told it was used already.`),
      h('p', {}, own ? h('a', { href: own, class: 'button primary go' }, 'Go to your own seat') : '', own ? ' ' : '',
        h('a', { href: `/race/${encodeURIComponent(id)}`, class: 'button watch' }, 'Watch the race')),
      h('p', {}, `Racing ${name}'s seat yourself, from this browser? `, take)));
    // The safe way first: Enter goes to the creator's own seat (or the race watched), never takes another's.
    main.querySelector<HTMLElement>('.asking a')!.focus();
  }));
}

/**
 * The seat's token refused: a link whose token is wrong, or one the race's moderator made void by
 * giving the seat a new invite (docs/server.md, Moderator). The hand goes from the page, which
 * stops following the race and says so.
 */
function lostSeat(): void {
  lost = true;
  if (retry) clearTimeout(retry);
  if (following) {
    following.onopen = following.onclose = following.onmessage = null;
    following.close();
  }
  refusedPage('This link opens the seat no more',
    'Its secret is not the seat\'s: the race\'s creator may have given the seat a new invite link (for a person who lost theirs, or whose invite somebody else took), or the link was cut short.',
    'If the seat is yours, open it with its own link (the address of its page in the browser that took it) or from your mails, or ask the race\'s creator for a new invite link.');
}

/** In place of the race, a page saying why this browser has no seat (and no hand): the race may be watched. */
function refusedPage(title: string, ...lines: string[]): void {
  document.body.dataset.refused = 'true';
  // The header leaves the title whole (the page says why below it: the status cut the title to one
  // letter), and Share, which copies the spectators' link, to the Watch button below.
  byId('status').textContent = '';
  byId('share').hidden = true;
  document.querySelector('main')!.replaceChildren(h('section', { class: 'refused', 'aria-labelledby': 'refused-h' },
    h('h2', { id: 'refused-h' }, title), ...lines.map((l) => h('p', {}, l)),
    h('p', {}, h('a', { href: `/race/${encodeURIComponent(id)}`, class: 'button primary watch' }, 'Watch the race'), ' as a spectator: the board, the robots and each turn\'s replay, no hand.')));
}

/** A stretch of turns in which another token held one of the seats a claim took (the claim's `openedBefore`). */
interface Held {
  readonly seat: number;
  readonly from: number;
  readonly to: number;
}

/** Where this browser keeps what its claim of the seat said of the tokens that held it before. */
const heldBeforeKey = () => `roborally.heldBefore.${id}.${seat}`;

/**
 * A discreet word on a seat's page: its address is the seat's own link, to keep secret and to open
 * on another device (the same seat plays there); for a seat raced by e-mail, the link of its mails
 * (which stays its only one: no Make it the only one). And, loud, if the claim that took the seat said
 * another link held it before (taken with its invite, then made void by a new invite: the race's
 * creator may have read the hand), in which turns.
 */
function ownLink(): HTMLElement[] {
  const b = h('button', { type: 'button', class: 'link-button', onclick: () => void copy(location.href, b) }, 'Copy it');
  // Raced by e-mail: the link is its mails', the same on every device, and stays the seat's only one.
  if ((view as SeatView).you.byMail) return [h('p', { class: 'own-link by-mail' }, 'This seat is raced by e-mail: this page\'s address is the link in its mails, the seat\'s own. Keep it secret. Opened on another device, it plays this seat there. ', b)];
  const only = h('button', { type: 'button', class: 'link-button only-link', onclick: () => void onlyLink(own) }, 'Make it the only one');
  const own = h('p', { class: 'own-link' }, 'This page\'s address is your seat\'s own link: keep it secret. Opened on another device, it plays this seat there. ', b, ' ', only);
  const held = JSON.parse(localStorage.getItem(heldBeforeKey()) ?? '[]') as Held[];
  if (!held.length) return [own];
  const turns = held.map((x) => (x.from === x.to ? `turn ${x.from}` : `turns ${x.from} to ${x.to}`)).join(', ');
  return [own, h('p', { class: 'held-before', role: 'alert' }, `Before you took this seat, another link held it (${turns}), until a new invite made that link void: whoever held it saw this seat's hand then. If that was not you, ask the race's creator why.`)];
}

/**
 * Just under the hand, on a seat's page opened with a token this browser did not get itself (no claim
 * or renewal of its own: isOwnToken): the link was made in another browser. It may be the person's
 * own, from their other device; or one somebody gave them instead of an invite, with which that
 * somebody opens the seat too, until it is made the only one: said before anything is played,
 * with the button there. "It's my own link" keeps the token as this browser's: the notice goes.
 */
function otherBrowser(): HTMLElement {
  const box = h('div', { class: 'other-browser', role: 'note' });
  const mine = h('button', { type: 'button', class: 'link-button mine', onclick: () => {
    keepOwnToken(id, token!);
    box.hidden = true;
  } }, 'It\'s my own link');
  box.append(h('p', {}, h('strong', {}, 'This link was made in another browser. '),
    'If someone gave it to you instead of an invite, they can open your seat too: make it the only one, and nobody else can.'),
  h('p', {}, h('button', { type: 'button', class: 'only-link', onclick: () => void onlyLink(box) }, 'Make it the only one'), ' ', mine));
  return box;
}

/**
 * Makes this page's address the seat's only link (POST …/seats/{seat}/token, with this browser's
 * key: sent again, its answer lost, the same token), once confirmed: the seat's other links stop
 * working, on the person's other devices, and a link somebody gave them instead of an invite. The
 * new token is this browser's own. `said`: where the button pressed is, which says how it went.
 */
async function onlyLink(said: HTMLElement): Promise<void> {
  if (!confirm('Make this page\'s address the seat\'s only link? Its other links stop working: on your other devices, and any link somebody gave you instead of an invite (they could see your hand with it).')) return;
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('.only-link')];
  for (const b of buttons) b.disabled = true;
  try {
    const got = await api<{ token: string; seats: number[] }>('POST', `/api/races/${encodeURIComponent(id)}/seats/${seat}/token`, { browser: browserKey() }, token);
    // The invites this browser took the seat with go to the new token.
    for (const k of Object.keys(localStorage)) if (k.startsWith(`roborally.invite.${id}.`) && localStorage.getItem(k) === token) localStorage.setItem(k, got.token);
    keepOwnToken(id, got.token);
    token = got.token;
    history.replaceState(null, '', `${location.pathname}?seat=${seat}&token=${encodeURIComponent(got.token)}`);
    const done = () => h('span', { class: 'only-done' }, 'Done: this address is now the seat\'s only link.');
    document.querySelector('.own-link .only-link')?.replaceWith(done());
    document.querySelector('.other-browser')?.replaceChildren(h('p', { role: 'status' }, done(), ' Nobody else can open your seat.'));
  } catch (e) {
    for (const b of buttons) b.disabled = false;
    said.append(h('span', { class: 'error' }, ` ${(e as Error).message}`));
  }
}

async function main(): Promise<void> {
  if (seat !== null && token === undefined && invite !== null && !(await claim(invite))) return;
  try {
    view = await load();
  } catch (e) {
    if (seat !== null && e instanceof ApiError && e.status === 401) return lostSeat();
    return fail(`No race here: ${(e as Error).message}`);
  }
  lastSeq = view.lastSeq;
  document.body.dataset.seq = String(lastSeq);
  // The race's course, shipped or its own (composed in the editor or uploaded).
  course = await api<RaceCourse>('GET', `/api/races/${encodeURIComponent(id)}/course`);
  const parsed = await courseBoard(course);
  if (!parsed.ok) return fail(`The course could not be read: ${parsed.error.message}`);
  document.title = `roborally: ${course.title}`;
  byId('title').textContent = course.title;
  model = parsed.value;
  board = new BoardView(byId('board'), parsed.value, byId('zoom'));
  // On a phone the side is tabs: the program, the robots, the report, each one tap away.
  for (const b of document.querySelectorAll<HTMLButtonElement>('.side-tabs button')) b.addEventListener('click', () => sideTab(b.dataset.show!));
  if (seat === null) {
    // A spectator writes no program: no Program tab.
    document.querySelector<HTMLElement>('.side-tabs button[data-show="program"]')!.hidden = true;
    sideTab('seats');
  }
  replay = new ReplayPlayer(byId('replay'), byId('report'), board, parsed.value, id, seat ?? undefined, designs, {
    shown: (robots) => {
      if (mode === 'replay') drawSeats(robots);
    },
    seen: (turn) => {
      if (turn !== played(view)) return;
      ready();
      // Once the replay's last marks (playing) are off the page: the program's place is the new one.
      setTimeout(programInView);
      if (endWaits) {
        endWaits = false;
        void drawResult();
      }
    },
  });
  byId('tab-now').addEventListener('click', () => showMode('now'));
  byId('tab-replay').addEventListener('click', async () => {
    if (!replay.shownTurn) await replay.open(played(view), false);
    showMode('replay');
    // Back from Now: the step shown drawn again (the board and the table showed the race as it is).
    replay.redraw();
  });
  byId('share').addEventListener('click', (e) => void copy(new URL(`/race/${id}`, location.href).href, e.currentTarget as HTMLElement));
  const chopShop = parsed.value.floor.includes(Floor.ChopShop);
  if (seat !== null) {
    // Joining: the robot to race, chosen before the first turn is played.
    // After the program (on a phone the board and the program stay together; a laptop shows it first: app.css).
    byId('program').after(h('section', { id: 'choose', class: 'choose', 'aria-label': 'Your robot' }), ...ownLink());
    program = new ProgramPanel(byId('program'), { rules: view.rules, chopShop, send, held, recompile, facing: (dir) => {
      facing = dir;
      drawNow();
    }, clock: drawTurnClock, keep: `roborally.program.${id}.${seat}`, byHand: view.status === 'running' && !(view as SeatView).you.byMail && !isOwnToken(id, token ?? '') ? otherBrowser() : undefined, drafted: (turn, filled) => {
      draftWanted = { turn, filled };
      void sendDraft();
    } });
  }
  // Opened between turns: the board shows now; the last replay waits behind its tab.
  await refresh(true);
  // Opened between turns, the replay is not played: the clock need not wait for this seat.
  ready();
  setInterval(drawStatus, 1000);
  document.body.dataset.ready = 'true';
  follow();
  online();
}

void main();
