/**
 * The home page: pick a course (drawn, with its players, complexity and time), press Start. By
 * default you race three greedy bots live; the form under "Rules, house rules…" sets the rule set,
 * house rules, seats for people (each gets an invite link, or with an e-mail address, where the
 * server sends mail, races by mail and gets their link in its mails) and bots, and live or daily deadlines. Once created, your
 * seat is taken by opening its invite link here; the others' are listed to send, each good once.
 */
import { DEFAULT_RULE_SET, RULE_SETS } from '../../engine/src/index.js';
import { api, createRace, botSeats, byId, h, keepModeratorKey, keepYourName, linkLine, yourName, type CourseInfo } from './api.js';

interface Created {
  id: string;
  moderatorKey: string;
  seats: { seat: number; name: string; kind: string; invite: string | null; email: string | null; link: string | null }[];
}

const form = byId<HTMLFormElement>('new-race');
const field = <T extends HTMLInputElement | HTMLSelectElement = HTMLInputElement>(name: string) => form.elements.namedItem(name) as T;
const checked = (name: string) => field(name).matches(':checked');
const radio = (name: string) => (form.querySelector(`input[name="${name}"]:checked`) as HTMLInputElement).value;
let courses: CourseInfo[] = [];
/** Whether the server sends mail (GET /api `mail`): without, a person cannot race by e-mail, and the form asks for no address. */
let mail = false;
let chosen: CourseInfo | null = null;

function showError(message: string | null): void {
  const e = byId('error');
  e.hidden = message === null;
  e.textContent = message ?? '';
}

function choose(c: CourseInfo): void {
  chosen = c;
  for (const card of document.querySelectorAll<HTMLElement>('.course')) {
    const on = card.dataset.course === c.name;
    card.classList.toggle('chosen', on);
    card.setAttribute('aria-checked', String(on));
  }
  // Only the rule sets the course has starts for.
  for (const r of form.querySelectorAll<HTMLInputElement>('input[name="rules"]')) {
    r.disabled = !c.rules.includes(r.value);
    if (r.disabled && r.checked) form.querySelector<HTMLInputElement>(`input[name="rules"][value="${c.rules[0]}"]`)!.checked = true;
  }
  classicOnly();
  summarize();
}

/** The house rules about the option deck apply where options come from a deck (classic); pbem's upgrades come from its sites. */
function classicOnly(): void {
  const deck = RULE_SETS[radio('rules')]?.optionDeck ?? true;
  for (const box of form.querySelectorAll<HTMLInputElement>('input[data-classic]')) box.disabled = !deck;
}

const OPTION_RULES = ['oneFreeOption', 'installingOptions', 'noSitAndSpin', 'secretOptions', 'shieldPerRegister'];

function courseCard(c: CourseInfo): HTMLElement {
  return h('button', { type: 'button', class: 'course', role: 'radio', 'aria-checked': 'false', 'data-course': c.name, onclick: () => choose(c) },
    h('img', { src: `/api/courses/${encodeURIComponent(c.name)}/picture.svg`, alt: `The course ${c.title}`, loading: 'lazy', decoding: 'async', width: 190, height: 120 }),
    h('strong', {}, c.title),
    h('span', { class: 'facts' }, `${c.players[0]}–${c.players[1]} players · ${c.complexity} · ${c.time} · ${c.boards} board${c.boards > 1 ? 's' : ''}, ${c.flags} flag${c.flags > 1 ? 's' : ''}`),
    h('span', { class: 'description' }, c.description));
}

const count = (name: string) => Math.max(0, Math.min(7, Math.floor(Number(field(name).value) || 0)));

/** A row per other person: their name and, where the server sends mail, their e-mail address (optional: they race by mail). */
function peopleNames(): void {
  const box = byId('people-names');
  const n = count('people');
  while (box.children.length > n) box.lastElementChild!.remove();
  while (box.children.length < n) {
    const k = box.children.length + 1;
    box.append(h('p', { class: 'person' }, h('label', {}, `Person ${k + 1} `, h('input', { name: `person${k}`, value: `Player ${k + 1}`, maxlength: 24, required: true })),
      ' ', h('label', { class: 'email', hidden: !mail }, 'e-mail ', h('input', { type: 'email', name: `email${k}`, maxlength: 320, placeholder: 'optional: races by mail', autocomplete: 'off', disabled: !mail }))));
  }
  byId('no-mail').hidden = mail || n === 0;
}

/** Whether the server mails, as GET /api says (not known: it does not): the e-mail fields shown or hidden. */
async function mailOrNot(): Promise<void> {
  mail = await api<{ mail?: boolean }>('GET', '/api').then((a) => a.mail === true, () => false);
  for (const l of byId('people-names').querySelectorAll<HTMLElement>('label.email')) {
    l.hidden = !mail;
    l.querySelector('input')!.disabled = !mail;
  }
  peopleNames();
}

function summarize(): void {
  const people = count('people'), bots = count('bots');
  const who = people === 0 && bots === 0 ? 'you alone' : [people ? `${people} other ${people > 1 ? 'people' : 'person'}` : '', bots ? `${bots} ${field<HTMLSelectElement>('level').value} bot${bots > 1 ? 's' : ''}` : ''].filter(Boolean).join(' and ');
  byId('summary').textContent = chosen ? `${chosen.title}, ${radio('rules')} rules: you against ${who}, ${radio('deadline') === 'live' ? 'live' : 'daily'}.` : 'Pick a course first.';
}

/** The body of POST /api/races from the form. */
function newRace(c: CourseInfo): unknown {
  const settings: Record<string, unknown> = {};
  const lives = Number(field('lives').value);
  if (lives !== 3) settings.lives = lives;
  for (const k of ['extraLives', 'oneFreeLife', 'infiniteLives', ...OPTION_RULES]) if (checked(k) && !field(k).disabled) settings[k] = true;
  if (checked('arena')) settings.variant = 'arena';
  const die = Number(field('dice').value);
  if (die > 0) settings.diceRule = new Array(c.flags).fill(die);
  const seats: { name: string; bot?: string; email?: string }[] = [{ name: field('you').value.trim() }];
  for (let k = 1; k <= count('people'); k++) {
    const email = mail ? field(`email${k}`).value.trim() : '';
    seats.push({ name: field(`person${k}`).value.trim(), ...(email ? { email } : {}) });
  }
  seats.push(...botSeats(seats.map((s) => s.name), count('bots'), field<HTMLSelectElement>('level').value));
  const deadline = radio('deadline') === 'live'
    ? { kind: 'live', seconds: Number(field('seconds').value) }
    : { kind: 'scheduled', time: field('time').value, zone: Intl.DateTimeFormat().resolvedOptions().timeZone, minimumHours: 20 };
  return { course: c.name, rules: radio('rules'), settings, seats, deadline };
}

function showCreated(r: Created): void {
  const abs = (path: string) => new URL(path, location.href).href;
  const list = byId('invites');
  list.replaceChildren();
  // Each invite link takes its seat once, for the first browser that opens it: yours is opened by
  // Go to your seat; a seat raced by e-mail has none (its person's mails link their seat).
  for (const s of r.seats.slice(1)) {
    if (s.link) list.append(linkLine(`${s.name}'s invite link`, abs(s.link), 'invite'));
    else if (s.email) list.append(h('li', { class: 'by-mail' }, h('span', {}, `${s.name} races by e-mail (${s.email}): the race's mails are their way in, nothing to send.`)));
  }
  list.append(linkLine('Spectators\' link', abs(`/race/${r.id}`), 'spectate'), linkLine('Moderator key', r.moderatorKey, 'moderator'));
  byId<HTMLAnchorElement>('go').href = r.seats[0]!.link!;
  byId('created').hidden = false;
  byId('created').scrollIntoView();
}

form.addEventListener('input', () => {
  peopleNames();
  classicOnly();
  summarize();
});
form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  if (!chosen) return showError('Pick a course first.');
  showError(null);
  const start = byId<HTMLButtonElement>('start');
  start.disabled = true;
  try {
    const r = await createRace<Created>(newRace(chosen));
    keepYourName(field('you').value.trim());
    // This browser moderates it: its end page can start the next race of the series.
    keepModeratorKey(r.id, r.moderatorKey);
    // Alone against bots there is nobody to invite: straight to the race.
    if (r.seats.filter((s) => s.kind === 'human').length === 1) location.assign(r.seats[0]!.link!);
    else showCreated(r);
  } catch (e) {
    showError(`The race could not be created: ${(e as Error).message}`);
  } finally {
    start.disabled = false;
  }
});

async function main(): Promise<void> {
  field('you').value = yourName();
  void mailOrNot();
  try {
    courses = await api<CourseInfo[]>('GET', '/api/courses');
  } catch (e) {
    byId('courses').textContent = `The courses could not be loaded: ${(e as Error).message}`;
    return;
  }
  byId('courses').replaceChildren(...courses.map(courseCard));
  // The easiest course with a classic start is chosen to begin with: Start is then the only click needed.
  const first = courses.find((c) => c.complexity === 'easy' && c.rules.includes(DEFAULT_RULE_SET)) ?? courses[0];
  if (first) choose(first);
}

void main();
