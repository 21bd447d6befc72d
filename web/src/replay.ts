/**
 * The replay of a played turn, register by register: play, pause, step back and forth, speed, and
 * any turn of the race. Each step is drawn by the shared renderer with the robots after it, the
 * register's moves as arrows (blue programmed, green pushed or carried) and the step's laser shots.
 * Beside it, 001's report of the turn, its current register marked.
 */
import type { GameEvent } from '../../engine/src/index.js';
import { api, h, type Replay, type TurnReport } from './api.js';
import type { BoardView } from './board.js';
import { robotsFromView, steps, type Step } from './steps.js';
import { cardWords, describe } from './words.js';

const SPEEDS = [0.5, 1, 2, 4];

export class ReplayPlayer {
  private steps: Step[] = [];
  private at = 0;
  private turn = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private speed = 1;
  private played = 0;
  private report: TurnReport | null = null;
  /** Turns the stream brought already played (their replay and report): not fetched again. */
  private readonly known = new Map<number, { replay: Replay; report: TurnReport }>();

  constructor(
    private readonly root: HTMLElement,
    private readonly reportBox: HTMLElement,
    private readonly board: BoardView,
    private readonly raceId: string,
  ) {}

  /** The turns played so far (the turn picker offers them all). */
  setPlayed(n: number): void {
    this.played = n;
    if (this.steps.length) this.controls();
  }

  get shownTurn(): number {
    return this.turn;
  }

  /** A played turn as the stream brought it. */
  offer(turn: number, replay: Replay, report: TurnReport): void {
    this.known.set(turn, { replay, report });
  }

  /** Loads a played turn and its report, and plays it from the start (or shows its end). */
  async open(turn: number, autoplay: boolean): Promise<void> {
    this.pause();
    const known = this.known.get(turn);
    const [replay, report] = known ? [known.replay, { report: known.report }] : await Promise.all([
      api<Replay>('GET', `/api/races/${this.raceId}/turns/${turn}`),
      api<{ report: TurnReport }>('GET', `/api/races/${this.raceId}/turns/${turn}/report`),
    ]);
    this.turn = turn;
    this.steps = steps(robotsFromView(replay.robots), replay.events);
    this.report = report.report;
    this.at = autoplay ? 0 : this.steps.length - 1;
    this.root.dataset.turn = String(turn);
    this.controls();
    this.show();
    if (autoplay) this.play();
  }

  play(): void {
    if (this.at >= this.steps.length - 1) this.at = 0;
    this.show();
    this.tick();
  }

  private tick(): void {
    this.timer = setTimeout(() => {
      if (this.at < this.steps.length - 1) {
        this.at++;
        this.show();
        this.tick();
      } else this.pause();
    }, 900 / this.speed);
    this.root.dataset.playing = 'true';
    this.controls();
  }

  pause(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    delete this.root.dataset.playing;
    if (this.steps.length) this.controls();
  }

  private go(k: number): void {
    this.pause();
    this.at = Math.max(0, Math.min(this.steps.length - 1, k));
    this.show();
  }

  private controls(): void {
    const playing = this.timer !== null;
    const btn = (label: string, aria: string, on: () => void, cls: string, disabled = false) =>
      h('button', { type: 'button', class: cls, 'aria-label': aria, disabled, onclick: on }, label);
    const turns = h('select', { 'aria-label': 'Turn', class: 'turn-pick', onchange: (e: Event) => void this.open(Number((e.target as HTMLSelectElement).value), true) },
      ...Array.from({ length: this.played }, (_, k) => h('option', { value: k + 1, selected: k + 1 === this.turn }, `Turn ${k + 1}`)));
    const speed = h('select', { 'aria-label': 'Speed', class: 'speed', onchange: (e: Event) => (this.speed = Number((e.target as HTMLSelectElement).value)) },
      ...SPEEDS.map((s) => h('option', { value: s, selected: s === this.speed }, `${s}×`)));
    const scrub = h('input', { type: 'range', min: 0, max: this.steps.length - 1, value: this.at, 'aria-label': 'Step', class: 'scrub', oninput: (e: Event) => this.go(Number((e.target as HTMLInputElement).value)) });
    this.root.querySelector('.controls')?.remove();
    this.root.prepend(h('div', { class: 'controls' },
      turns,
      btn('|◀', 'First step', () => this.go(0), 'first'),
      btn('◀ Step', 'Step back', () => this.go(this.at - 1), 'back', this.at === 0),
      playing ? btn('Pause', 'Pause', () => this.pause(), 'pause') : btn('Play ▶', 'Play', () => this.play(), 'play'),
      btn('Step ▶', 'Step forward', () => this.go(this.at + 1), 'forward', this.at >= this.steps.length - 1),
      btn('▶|', 'Last step', () => this.go(this.steps.length - 1), 'last'),
      speed, scrub));
  }

  private show(): void {
    const s = this.steps[this.at];
    if (!s) return;
    // The register's moves so far as arrows; laser shots only in the step they are fired.
    const shown: GameEvent[] = s.registerEvents.filter((e) => e.type !== 'shot' || s.events.includes(e));
    this.board.draw({ robots: s.robots }, shown, `Turn ${this.turn}: ${s.label}`);
    const names = s.robots.map((r) => r.name);
    const what = this.root.querySelector('.step') ?? h('div', { class: 'step', 'aria-live': 'polite' });
    what.replaceChildren(
      h('p', { class: 'step-label' }, `Step ${this.at + 1} of ${this.steps.length}: ${s.register >= 1 && s.register <= 5 ? `register ${s.register}, ` : ''}${s.label}`),
      s.cards.length ? h('ol', { class: 'revealed', 'aria-label': 'Cards revealed' }, ...s.cards.map((c) => h('li', { 'data-card': c.card }, `${names[c.robot]}: ${cardWords(c.card)}${c.joined ? ` + ${cardWords(c.joined)}` : ''}${c.copy ? ' (Radio Control\'s copy)' : ''}`))) : '',
      h('ul', { class: 'happened' }, ...s.events.map(describe(names)).filter((t): t is string => t !== null).map((t) => h('li', {}, t))));
    if (!what.parentElement) this.root.append(what);
    this.root.dataset.step = String(this.at);
    this.root.dataset.register = String(s.register);
    this.root.toggleAttribute('data-ended', this.at === this.steps.length - 1);
    const bar = this.root.querySelector<HTMLInputElement>('.scrub');
    if (bar) bar.value = String(this.at);
    for (const b of this.root.querySelectorAll<HTMLButtonElement>('.back, .forward')) b.disabled = b.classList.contains('back') ? this.at === 0 : this.at >= this.steps.length - 1;
    this.drawReport(s.register);
  }

  private drawReport(register: number): void {
    const rep = this.report;
    if (!rep) return;
    this.reportBox.hidden = false;
    const table = (reg: TurnReport['registers'][number]) =>
      h('table', { class: `register-report${reg.register === register ? ' current' : ''}`, 'data-register': reg.register },
        h('caption', {}, `Register ${reg.register}`),
        h('thead', {}, h('tr', {}, h('th', {}, 'Dmg'), h('th', {}, 'Name'), h('th', {}, 'Move'), h('th', {}, 'Notes'))),
        h('tbody', {}, ...reg.rows.map((r) => h('tr', {}, h('td', {}, String(r.dmg)), h('td', {}, r.name), h('td', {}, r.move.join(',')), h('td', {}, r.notes.join('; '))))));
    this.reportBox.replaceChildren(
      h('h2', {}, `Turn ${rep.turn}: 001's report`),
      rep.start.length ? h('ul', { class: 'report-start' }, ...rep.start.map((t) => h('li', {}, t))) : '',
      ...rep.registers.map(table),
      rep.end.length ? h('div', { class: 'report-end' }, h('h3', {}, 'End of turn'), h('ul', {}, ...rep.end.map((t) => h('li', {}, t)))) : '');
  }
}
