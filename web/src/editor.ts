/**
 * The course editor, /editor: compose a course of your own from the shipped boards (each placed,
 * turned, moved), its flags in order and its starts (click a square of the floor, or type it), or
 * upload a course file; every change is checked at once by the engine's readers
 * (web/src/editor-model.ts) and each problem is shown beside the field it names. **Race on this
 * course** creates a race with the course object (POST /api/races) and opens your seat.
 */
import { DEFAULT_RULE_SET, RULE_SETS, type BoardJson, type Rotation, type Square } from '../../engine/src/index.js';
import { api, createRace, ApiError, botSeats, byId, h, keepYourName, yourName, type CourseInfo } from './api.js';
import { BoardView } from './board.js';
import { addBoard, check, fromText, place, ruleSetsOf, toJson, type Checked, type Draft, type ShippedBoard } from './editor-model.js';

let shipped: ShippedBoard[] = [];
const lookup = (name: string): BoardJson | undefined => shipped.find((b) => b.name === name)?.board;
let draft: Draft;
let checked: Checked;
/** What a click on the floor places. */
let tool: 'flag' | 'start' | 'starts' = 'flag';

const num = (v: string, fallback = 0) => (Number.isFinite(Number(v)) && v.trim() !== '' ? Math.trunc(Number(v)) : fallback);

function set(next: Draft): void {
  draft = next;
  render();
}

/** A square's two inputs and a button to take it off; `field` names it for the problems. */
function squareRow(field: string, label: string, s: Square, change: (s: Square | null) => void): HTMLElement {
  const input = (k: 0 | 1) => h('input', {
    type: 'number', min: 0, max: 47, value: s[k], 'aria-label': `${label} ${k ? 'y' : 'x'}`, class: 'coord',
    onchange: (e: Event) => change(k ? [s[0], num((e.target as HTMLInputElement).value)] : [num((e.target as HTMLInputElement).value), s[1]]),
  });
  return h('li', { 'data-field': field }, h('span', {}, label), ' x ', input(0), ' y ', input(1), ' ',
    h('button', { type: 'button', class: 'remove', 'aria-label': `Remove ${label}`, onclick: () => change(null) }, '×'), h('span', { class: 'field-error' }));
}

function boardsList(): HTMLElement {
  const rows = draft.boards.map((p, k) => {
    const change = (q: Partial<typeof p>) => set({ ...draft, boards: draft.boards.map((b, i) => (i === k ? { ...b, ...q } : b)) });
    const pick = h('select', { 'aria-label': `Board ${k + 1}`, onchange: (e: Event) => change({ board: (e.target as HTMLSelectElement).value }) },
      ...shipped.map((b) => h('option', { value: b.name, selected: b.name === p.board }, b.title)));
    const coord = (key: 'x' | 'y') => h('input', { type: 'number', min: 0, max: 47, value: p[key], 'aria-label': `Board ${k + 1} ${key}`, class: 'coord', onchange: (e: Event) => change({ [key]: num((e.target as HTMLInputElement).value) }) });
    const turn = h('select', { 'aria-label': `Board ${k + 1} rotation`, class: 'rotation', onchange: (e: Event) => change({ rotation: Number((e.target as HTMLSelectElement).value) as Rotation }) },
      ...[0, 90, 180, 270].map((r) => h('option', { value: r, selected: r === p.rotation }, `${r}°`)));
    const move = (by: number) => () => {
      const list = [...draft.boards];
      const [b] = list.splice(k, 1);
      list.splice(k + by, 0, b!);
      set({ ...draft, boards: list });
    };
    return h('li', { 'data-field': `boards[${k}]` }, pick, ' x ', coord('x'), ' y ', coord('y'), ' ', turn, ' ',
      h('button', { type: 'button', 'aria-label': `Board ${k + 1} earlier`, disabled: k === 0, onclick: move(-1) }, '↑'),
      h('button', { type: 'button', class: 'remove', 'aria-label': `Remove board ${k + 1}`, disabled: draft.boards.length === 1, onclick: () => set({ ...draft, boards: draft.boards.filter((_, i) => i !== k) }) }, '×'),
      h('span', { class: 'field-error' }));
  });
  const add = h('select', { 'aria-label': 'Board to add', class: 'add-board' }, ...shipped.map((b) => h('option', { value: b.name }, b.title)));
  return h('div', {},
    h('ol', { class: 'placed' }, ...rows),
    h('p', {}, add, ' ', h('button', { type: 'button', class: 'add', onclick: () => set(addBoard(draft, add.value, lookup)) }, 'Add the board east of the others')),
    h('p', { class: 'note' }, 'The first board holds the classic start. x and y are the square of a board\'s north-west corner once turned.'));
}

function squares(): HTMLElement {
  const list = (key: 'flags' | 'starts', label: string) => h('ol', { class: key },
    ...draft[key].map((s, k) => squareRow(`${key}[${k}]`, `${label} ${k + 1}`, s, (t) =>
      set({ ...draft, [key]: t ? draft[key].map((x, i) => (i === k ? t : x)) : draft[key].filter((_, i) => i !== k) }))));
  return h('div', {},
    h('h3', {}, 'Flags, in race order'), list('flags', 'Flag'),
    h('h3', {}, 'Start (one square for all, on a repair site of the first board)'),
    draft.start ? h('ol', { class: 'start' }, squareRow('start', 'Start', draft.start, (t) => set({ ...draft, start: t }))) : h('p', { class: 'note', 'data-field': 'start' }, 'None: click the floor with “Start” chosen above it.', h('span', { class: 'field-error' })),
    h('h3', {}, 'Starts (one per robot, in pick order)'), list('starts', 'Start'));
}

function about(): HTMLElement {
  const text = (key: 'name' | 'description', label: string) => h('label', { 'data-field': key }, `${label} `,
    h('input', { name: key, value: draft[key], maxlength: 200, oninput: (e: Event) => ((draft = { ...draft, [key]: (e.target as HTMLInputElement).value }), refresh()) }), h('span', { class: 'field-error' }));
  const choice = <K extends 'complexity' | 'time'>(key: K, values: Draft[K][]) => h('label', { 'data-field': key }, `${key === 'time' ? 'Time' : 'Complexity'} `,
    h('select', { name: key, onchange: (e: Event) => set({ ...draft, [key]: (e.target as HTMLSelectElement).value }) }, ...values.map((v) => h('option', { value: v, selected: v === draft[key] }, v))));
  const players = (k: 0 | 1) => h('input', { type: 'number', min: 1, max: 8, value: draft.players[k], class: 'coord', 'aria-label': k ? 'Most players' : 'Fewest players',
    onchange: (e: Event) => set({ ...draft, players: k ? [draft.players[0], num((e.target as HTMLInputElement).value, 1)] : [num((e.target as HTMLInputElement).value, 1), draft.players[1]] }) });
  return h('div', { class: 'about' }, text('name', 'Name'), text('description', 'Description'),
    h('label', { 'data-field': 'players' }, 'Players ', players(0), ' to ', players(1), h('span', { class: 'field-error' })),
    choice('complexity', ['easy', 'moderate', 'hard']), choice('time', ['short', 'moderate', 'long']));
}

/** The checks of the draft: the list of problems, each beside its field, and the floor as far as it goes. */
function refresh(): void {
  checked = check(draft, lookup);
  const problems = byId('problems');
  problems.replaceChildren(...checked.problems.map((p) => h('li', { 'data-field': p.field }, h('code', {}, p.field), ` ${p.message}`)));
  byId('verdict').textContent = checked.course ? 'The course is fit to race on.' : `${checked.problems.length} problem${checked.problems.length === 1 ? '' : 's'} to fix before racing.`;
  byId('verdict').className = checked.course ? 'verdict ok' : 'verdict error';
  for (const e of document.querySelectorAll<HTMLElement>('#editor [data-field]')) {
    // A problem about a field, or about a part of it (boards[1].x is shown at boards[1]).
    const mine = checked.problems.filter((p) => p.field === e.dataset.field || p.field.startsWith(`${e.dataset.field}.`));
    e.classList.toggle('invalid', mine.length > 0);
    const out = e.querySelector(':scope > .field-error');
    if (out) out.textContent = mine.map((p) => p.message).join('; ');
  }
  byId<HTMLTextAreaElement>('json').value = JSON.stringify(toJson(draft), null, 2);
  const rules = ruleSetsOf(draft);
  for (const r of document.querySelectorAll<HTMLInputElement>('input[name="rules"]')) {
    r.disabled = !rules.includes(r.value);
    if (r.disabled && r.checked && rules[0]) document.querySelector<HTMLInputElement>(`input[name="rules"][value="${rules[0]}"]`)!.checked = true;
  }
  byId<HTMLButtonElement>('race').disabled = !checked.course;
  drawFloor();
}

function render(): void {
  byId('about').replaceChildren(about());
  byId('boards').replaceChildren(boardsList());
  byId('squares').replaceChildren(squares());
  refresh();
}

/** The floor composed so far, the pbem starts and the squares of problems marked, a click placing what the tool says. */
function drawFloor(): void {
  const host = byId('floor');
  if (!checked.board) {
    if (!host.querySelector('svg')) host.replaceChildren(h('p', { class: 'note' }, 'The boards cannot be laid out yet: see the problems.'));
    return;
  }
  // The same floor's size: the view (zoom, pan) is kept while marks are placed; else a new one, fitted.
  const b = checked.board;
  if (!floor || floor.w !== b.width || floor.h !== b.height || !host.contains(floor.viewport)) {
    const viewport = h('div', { class: 'viewport', id: 'board' });
    host.replaceChildren(viewport);
    floor = { view: new BoardView(viewport, b, byId('zoom')), viewport, w: b.width, h: b.height };
    listen(floor.view, viewport);
  } else floor.view.setBoard(b);
  const view = floor.view;
  view.draw({ robots: [] }, undefined, draft.name || 'Your course');
  const svg = view.svg()!;
  const f = view.frame();
  const NS = 'http://www.w3.org/2000/svg';
  const mark = (s: Square, text: string, cls: string, color: string) => {
    const r = document.createElementNS(NS, 'rect');
    for (const [k, v] of Object.entries({ x: f.ox + s[0] * f.c + 2, y: f.oy + s[1] * f.c + 2, width: f.c - 4, height: f.c - 4, fill: 'none', stroke: color, 'stroke-width': 4, class: cls })) r.setAttribute(k, String(v));
    svg.append(r);
    if (!text) return;
    const t = document.createElementNS(NS, 'text');
    for (const [k, v] of Object.entries({ x: f.ox + (s[0] + 0.5) * f.c, y: f.oy + (s[1] + 0.9) * f.c, 'text-anchor': 'middle', 'font-size': Math.round(f.c * 0.3), 'font-weight': 'bold', fill: color, stroke: '#fff', 'stroke-width': 3, 'paint-order': 'stroke', class: cls })) t.setAttribute(k, String(v));
    t.textContent = text;
    svg.append(t);
  };
  draft.starts.forEach((s, k) => mark(s, `S${k + 1}`, 'pbem-start', '#1565c0'));
  for (const p of checked.problems) if (p.at) mark(p.at, '', 'problem', '#c62828');
}

/** The floor drawn now, its view kept while the floor keeps its size. */
let floor: { view: BoardView; viewport: HTMLElement; w: number; h: number } | null = null;

/** A click (not a drag) on a square places the tool's mark there. */
function listen(view: BoardView, viewport: HTMLElement): void {
  let down: { x: number; y: number } | null = null;
  viewport.addEventListener('pointerdown', (e) => (down = { x: e.clientX, y: e.clientY }));
  viewport.addEventListener('click', (e) => {
    const svg = view.svg();
    if (!down || !svg || !checked.board || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 6) return;
    const m = svg.getScreenCTM();
    if (!m) return;
    const f = view.frame();
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const x = Math.floor((p.x - f.ox) / f.c), y = Math.floor((p.y - f.oy) / f.c);
    if (x < 0 || y < 0 || x >= checked.board.width || y >= checked.board.height) return;
    set(place(draft, tool, [x, y]));
  });
}

/** Reads a course file (uploaded or pasted) into the editor, or says what is wrong with it. */
function load(text: string, from: string): void {
  const out = byId('file-error');
  const read = fromText(text);
  if (!read.ok) {
    out.textContent = `${from} ${read.message}`;
    return;
  }
  out.textContent = '';
  set(read.draft);
}

async function startFrom(name: string): Promise<void> {
  if (name === '') {
    const first = shipped[0]!;
    return set({ name: 'My course', description: '', players: [1, 4], complexity: 'moderate', time: 'short', boards: [{ board: first.name, x: 0, y: 0, rotation: 0 }], flags: [], start: null, starts: [] });
  }
  const c = await api<{ file: unknown }>('GET', `/api/courses/${encodeURIComponent(name)}`);
  load(JSON.stringify(c.file), `the course "${name}"`);
}

interface Created {
  id: string;
  seats: { seat: number; invite: string | null; link: string | null }[];
}

async function race(): Promise<void> {
  const out = byId('race-error');
  out.textContent = '';
  const rules = document.querySelector<HTMLInputElement>('input[name="rules"]:checked:not(:disabled)')?.value ?? ruleSetsOf(draft)[0] ?? DEFAULT_RULE_SET;
  const bots = Math.max(0, Math.min(7, num(byId<HTMLInputElement>('bots').value, 3)));
  const you = byId<HTMLInputElement>('you').value.trim() || yourName();
  const seats = [{ name: you }, ...botSeats([you], bots, 'greedy')];
  const body = { course: toJson(draft), rules, seats, deadline: { kind: 'live', seconds: Math.max(5, num(byId<HTMLInputElement>('seconds').value, 180)) } };
  try {
    const r = await createRace<Created>(body);
    keepYourName(you);
    // Your seat's invite link: the race page takes the seat with it.
    location.assign(r.seats[0]!.link!);
  } catch (e) {
    out.textContent = `The race could not be created: ${e instanceof ApiError ? `${e.field}: ` : ''}${(e as Error).message}`;
  }
}

async function main(): Promise<void> {
  try {
    [shipped] = await Promise.all([api<ShippedBoard[]>('GET', '/api/boards')]);
  } catch (e) {
    byId('verdict').textContent = `The boards could not be loaded: ${(e as Error).message}`;
    return;
  }
  const courses = await api<CourseInfo[]>('GET', '/api/courses');
  // The rule sets, each offered where the course has the starts it needs.
  byId('rules').replaceChildren('Rule set ', ...Object.values(RULE_SETS).map((rs) => h('label', {}, h('input', { type: 'radio', name: 'rules', value: rs.name, checked: rs.name === DEFAULT_RULE_SET }), ` ${rs.name} `)));
  const from = byId<HTMLSelectElement>('from');
  from.replaceChildren(h('option', { value: '' }, 'A blank course (one board)'), ...courses.map((c) => h('option', { value: c.name }, c.title)));
  from.addEventListener('change', () => void startFrom(from.value));
  for (const r of document.querySelectorAll<HTMLInputElement>('input[name="tool"]')) r.addEventListener('change', () => (tool = r.value as typeof tool));
  byId('upload').addEventListener('change', async (e) => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (file) load(await file.text(), file.name);
  });
  byId('use-json').addEventListener('click', () => load(byId<HTMLTextAreaElement>('json').value, 'The text'));
  byId('download').addEventListener('click', () => {
    const a = h('a', { href: URL.createObjectURL(new Blob([JSON.stringify(toJson(draft), null, 2)], { type: 'application/json' })), download: `${(draft.name || 'course').toLowerCase().replace(/[^a-z0-9]+/g, '-')}.json` });
    a.click();
    URL.revokeObjectURL(a.href);
  });
  byId<HTMLInputElement>('you').value = yourName();
  byId('race').addEventListener('click', () => void race());
  await startFrom('');
  document.body.dataset.ready = 'true';
}

void main();
