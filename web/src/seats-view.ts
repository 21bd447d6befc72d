/**
 * The Robots table: each seat's robot drawn as on the board, its team, flags, damage, lives and
 * state (powered down, a power down announced, locked registers), its options, and its five
 * registers as they lie on the table: locked ones face up, the registers its sent program fills
 * face down (a count from the public view, never a card), or while it programs as many as its
 * latest draft says (a count from the stream), the rest empty.
 */
import { RULE_SETS, optionText, type GameEvent } from '../../engine/src/index.js';
import { designOf, robotBody } from '../../render/src/browser.js';
import { h, type RaceView, type SeatView } from './api.js';
import { placeOf, stateWords, type Robot } from './robots-state.js';

/** A robot as drawn on the board, small, for a table or a button. */
export function robotIcon(design: number | undefined, k: number): SVGSVGElement {
  const span = document.createElement('span');
  span.innerHTML = `<svg class="robot-icon" viewBox="-20 -20 40 40" aria-hidden="true">${robotBody(40, designOf(design, k), false)}</svg>`;
  return span.firstElementChild as SVGSVGElement;
}

/**
 * The legend under the board: each robot drawn as on the board, its name (and team), your own
 * marked, and beside each other person still programming their registers as they lie on the
 * table (face down as `drafts` or their orders fill them), in view with the board. Rebuilt only
 * when something in it changes (a robot chosen, a register filled), never under a tap.
 */
export function drawLegend(box: HTMLElement, view: RaceView, you: number | null, drafts?: ReadonlyMap<number, number>): void {
  const teams = teamsOf(view);
  const entries = view.robots.map((r, k) => ({
    k, name: r.name, team: teams.get(r.name), design: designOf(view.seats[k]?.robot, k).name, you: k === you,
    regs: k !== you && programming(view, k) ? faceDown(view, k, drafts) : null,
  }));
  const key = JSON.stringify(entries);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...entries.map((e) => h('li', { 'data-seat': e.k, 'data-design': e.design, class: e.you ? 'you' : '', title: `${e.name}${e.name === e.design ? '' : `: ${e.design}`}${e.team ? `, team ${e.team}` : ''}${e.you ? ' (you)' : ''}` },
    robotIcon(view.seats[e.k]?.robot, e.k), e.name, e.team ? h('span', { class: 'team' }, ` (${e.team})`) : '', e.you && e.name.trim().toLowerCase() !== 'you' ? h('span', { class: 'you-mark' }, ' (you)') : '',
    e.regs !== null ? registersOnTable(view, e.k, e.regs) : null)));
}

/** Whether seat `k`'s person programs registers this turn (the race runs; its robot is active, powered up, not all locked). */
export function programming(view: RaceView, k: number): boolean {
  const r = view.robots[k]!;
  return view.status === 'running' && view.seats[k]?.kind === 'human' && r.status === 'active' && !r.poweredDown && r.lockedCount < 5;
}

/** How many of seat `k`'s registers lie face down: all its orders fill once sent, else its latest draft's count. */
function faceDown(view: RaceView, k: number, drafts?: ReadonlyMap<number, number>): number {
  const s = view.seats[k]!;
  return s.submitted ? s.programmed ?? 0 : drafts?.get(k) ?? 0;
}

/** The race's teams (000 L21), from its settings: robot name → team name. */
export function teamsOf(view: RaceView): Map<string, string> {
  const teams = (view as RaceView & { settings?: { teams?: Record<string, string[]> } }).settings?.teams ?? {};
  return new Map(Object.entries(teams).flatMap(([team, names]) => names.map((n) => [n, team] as const)));
}

/** The five registers of a seat as the others see them. */
function registersOnTable(view: RaceView, k: number, programmed: number): HTMLElement {
  const r = view.robots[k]!;
  let facedown = programmed;
  const cells = [1, 2, 3, 4, 5].map((reg) => {
    const lock = r.locked.find((l) => l.register === reg);
    if (lock) return h('span', { class: 'reg-mini locked', title: `register ${reg}: locked${lock.card ? `, ${lock.card}` : ''}` }, lock.card?.split(':')[0] ?? '—');
    if (facedown > 0) {
      facedown--;
      return h('span', { class: 'reg-mini facedown', title: `register ${reg}: programmed, face down` });
    }
    return h('span', { class: 'reg-mini', title: `register ${reg}: empty` });
  });
  return h('span', { class: 'regs-mini', 'aria-label': `${programmed} register${programmed === 1 ? '' : 's'} programmed` }, ...cells);
}

/**
 * How each robot's orders were played in a turn, from the turn's events: "sent ✓" (its cards
 * revealed as sent), "random fill" (every register filled at random: nothing was sent), "sent, N at
 * random" (registers left to chance, illegal or unreadable, filled at random: the `programmed` event), or nothing for a
 * robot that played no card (powered down, destroyed, out). Told from the turn's start: the orders
 * were all in (or the deadline passed) before the first register.
 */
export function ordersPlayed(events: readonly GameEvent[]): Map<number, string> {
  const revealed = new Map<number, Set<number>>();
  const filled = new Map<number, number>();
  /** Robots whose every filled register was filled because nothing was sent (not left to chance). */
  const unsent = new Set<number>();
  for (const e of events) {
    if (e.type === 'revealed' && !e.copy) revealed.set(e.robot, (revealed.get(e.robot) ?? new Set()).add(e.register));
    else if (e.type === 'programmed') {
      filled.set(e.robot, e.filled.length);
      if (e.filled.every((f) => f.reason === 'missing')) unsent.add(e.robot);
    }
  }
  const words = new Map<number, string>();
  for (const k of new Set([...revealed.keys(), ...filled.keys()])) {
    const n = filled.get(k) ?? 0;
    const open = Math.max(revealed.get(k)?.size ?? 0, n);
    words.set(k, !n ? 'sent ✓' : n >= open && unsent.has(k) ? 'random fill' : `sent, ${n} at random`);
  }
  return words;
}

/**
 * The table's rows; `shown`: the robots as a replay stands (flags, damage, lives and state follow
 * it, never ahead of it), else the race as it is; `drafts`: per seat still programming, how many
 * registers hold a card so far; `played`: while a replay is shown, how each robot's orders were
 * played in its turn (`ordersPlayed`), told in the Orders column instead of the open turn's;
 * `newInvite`: in the browser holding the race's moderator key, what its "new invite link" button
 * beside each other person's name does while the race runs.
 */
export function seatsTable(view: RaceView, you: number | null, shown?: readonly Robot[], drafts?: ReadonlyMap<number, number>, played?: ReadonlyMap<number, string>, newInvite?: (seat: number) => void): HTMLElement[] {
  const teams = teamsOf(view);
  const running = view.status === 'running';
  const rows = view.seats.map((s) => {
    const now = view.robots[s.seat]!;
    const at = shown?.[s.seat];
    const r = at ? { ...now, flags: at.flags, damage: at.damage, lives: at.lives, status: at.status, poweredDown: at.poweredDown } : now;
    // A finisher stays "finished" whatever befell it after the last flag; a replay tells it once shown.
    const place = at ? at.finished : placeOf(view.finished, now.name);
    const state = stateWords({ ...r, announced: at?.announced ?? false }, place);
    const byFire = r.locked.filter((l) => l.by === 'Fire Control').length;
    const locked = !at && r.lockedCount ? `${r.lockedCount} locked${byFire ? ` (${byFire} by Fire Control)` : ''}` : '';
    // Your own options, all of them; another robot's as it may be seen (under Secret Options, those used).
    const options = s.seat === you ? (view as SeatView).you.options : r.options;
    const hidden = s.seat === you ? 0 : r.hiddenOptions;
    const programmed = faceDown(view, s.seat, drafts);
    const replayed = at && played ? played.get(s.seat) ?? '' : null;
    // A person who has not opened their invite link yet: "not joined" (the creator sees whom to remind).
    const sent = s.kind === 'bot' ? (running || replayed !== null ? 'bot' : '') : replayed !== null ? replayed : !running ? '' : s.submitted ? 'sent ✓' : s.invited ? 'not joined' : 'not yet';
    const isSent = replayed !== null ? replayed.startsWith('sent') : s.submitted;
    const needs = !at && programming(view, s.seat);
    return h('tr', { 'data-seat': s.seat, class: s.seat === you ? 'you' : '', 'data-state': state || null },
      h('td', { class: 'name' }, robotIcon(s.robot, s.seat), h('span', { class: 'robot-name', title: s.name }, s.name),
        newInvite && running && s.kind === 'human' && s.seat !== you
          ? h('button', { type: 'button', class: 'link-button new-invite', title: `A new invite link for ${s.name}: their current link stops working`, onclick: () => newInvite(s.seat) }, 'new invite', h('span', { class: 'more' }, ' link'))
          : null),
      teams.size ? h('td', { class: 'team' }, teams.get(s.name) ?? null) : null,
      h('td', {}, `${r.flags}`), h('td', {}, `${r.damage}`), h('td', {}, `${r.lives}`),
      // Empty cells hold nothing at all: a narrow phone leaves them out (app.css).
      h('td', { class: 'state' }, [state, locked].filter(Boolean).join(', ') || null),
      // Each option opens to its text on a tap (a tooltip shows on no touch screen).
      h('td', { class: 'robot-options' }, ...options.flatMap((o, k) => [k ? ', ' : null, h('details', { class: 'option', 'data-key': `${s.seat}:${o}` }, h('summary', {}, o), h('span', { class: 'option-text' }, optionText(o, RULE_SETS[view.rules]!) ?? ''))]), hidden ? `${options.length ? ', ' : ''}${hidden} hidden` : null),
      h('td', { class: isSent ? 'submitted sent' : 'submitted', 'data-programmed': programmed },
        needs ? registersOnTable(view, s.seat, programmed) : null, sent || null));
  });
  const table = h('table', { role: 'table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Name'), teams.size ? h('th', { class: 'team' }, 'Team') : null, h('th', {}, 'Flags'), h('th', {}, 'Dmg'), h('th', {}, 'Lives'), h('th', { class: 'state' }, 'State'), h('th', { class: 'opts', 'aria-label': 'Options' }, h('span', { class: 'long' }, 'Options'), h('span', { class: 'short' }, 'Opt.')), h('th', {}, 'Orders'))),
    h('tbody', {}, ...rows));
  // A table to a screen reader whatever its layout: a narrow phone lays each row out as a grid (app.css).
  for (const [sel, role] of [['thead, tbody', 'rowgroup'], ['tr', 'row'], ['th', 'columnheader'], ['td', 'cell']] as const) for (const e of table.querySelectorAll(sel)) e.setAttribute('role', role);
  return [h('h2', {}, 'Robots'), table];
}
