/**
 * The replay of a played turn, register by register: play, pause, step back and forth, speed, and
 * any turn of the race. Each step is animated on the board (web/src/animate.ts) and then drawn by
 * the shared renderer with the robots after it, the register's moves as arrows (blue programmed,
 * green pushed or carried) and the step's laser shots. With reduced motion (the page's setting or
 * the system's), steps are shown one picture after another. The table of robots and 001's report
 * beside it follow the step shown: they never tell what the replay has not played yet.
 */
import type { Board, GameEvent } from '../../engine/src/index.js';
import { Animator, reducedMotion } from './animate.js';
import { api, h, type Replay, type TurnReport } from './api.js';
import type { BoardView } from './board.js';
import { STEP_GAP_MS, STILL_STEP_MS } from './pace.js';
import { placeOf } from './robots-state.js';
import { robotsFromView, steps, type Robot, type Step } from './steps.js';
import { cardWords, describe, turnResult } from './words.js';

const SPEEDS = [0.5, 1, 2, 4];
/** The speed chosen last, remembered by the browser. */
const SPEED_KEY = 'roborally.speed';
const savedSpeed = (): number => {
  const s = Number(localStorage.getItem(SPEED_KEY));
  return SPEEDS.includes(s) ? s : 1;
};
/** While more turns wait their replay, the one playing goes this much faster. */
const CATCH_UP = 2;

export interface ReplayHooks {
  /** The robots as the replay shows them now (the table follows them). */
  shown(robots: readonly Robot[]): void;
  /** The replay of `turn` has been seen to its end (played, stepped or skipped) or left. */
  seen(turn: number): void;
}

export class ReplayPlayer {
  private steps: Step[] = [];
  /** The step shown (its end); -1 before the turn's first step. */
  private at = 0;
  private turn = 0;
  private playing = false;
  private looping = false;
  /** The step being animated, if one is. */
  private animating: number | null = null;
  private runs = 0;
  private speed = savedSpeed();
  /** Turns played meanwhile, waiting their replay in order (the stream may bring them seconds apart). */
  private queue: number[] = [];
  /** Left for the race as it is now (or never opened): nothing is being watched. */
  private away = true;
  private played = 0;
  private report: TurnReport | null = null;
  /** The events of the turn shown. */
  private events: readonly GameEvent[] = [];
  /** Turns the stream brought already played (their replay and report): not fetched again. */
  private readonly known = new Map<number, { replay: Replay; report: TurnReport }>();
  private readonly animator: Animator;

  constructor(
    private readonly root: HTMLElement,
    private readonly reportBox: HTMLElement,
    private readonly board: BoardView,
    model: Board,
    private readonly raceId: string,
    private readonly you: number | undefined,
    private readonly designs: () => readonly (number | undefined)[],
    private readonly hooks: ReplayHooks,
  ) {
    this.animator = new Animator(board, model);
  }

  /** The turns played so far (the turn picker offers them all). */
  setPlayed(n: number): void {
    // Unchanged, the controls stay as they are: a refresh never swaps a button under a click.
    if (n === this.played) return;
    this.played = n;
    if (this.steps.length) this.controls();
  }

  get shownTurn(): number {
    return this.turn;
  }

  /** The events of the turn shown (how its orders were played: seats-view.ts `ordersPlayed`). */
  get shownEvents(): readonly GameEvent[] {
    return this.events;
  }

  /** A played turn as the stream brought it. */
  offer(turn: number, replay: Replay, report: TurnReport): void {
    this.known.set(turn, { replay, report });
  }

  /**
   * Turns just played, replayed in order: the first at once unless a replay is being watched (not
   * seen to its end), else each after the one before ends. None is cut short or dropped.
   */
  async enqueue(turns: readonly number[]): Promise<void> {
    const watching = !this.away && (this.playing || this.animating !== null || this.at < this.steps.length - 1);
    this.queue.push(...turns);
    if (!watching) return this.next();
    this.controls();
  }

  /**
   * The race ended in the last of `turns`: that turn's replay at once, from its start, whatever was
   * playing or waiting (the turns between stay in the turn picker). A page behind by a few turns (the
   * bots playing a race out at once once every person is out, a page back online) no longer plays
   * each of them before the end: every page of the race shows the end after the same last replay.
   */
  async finale(turns: readonly number[]): Promise<void> {
    this.queue = [];
    await this.open(turns[turns.length - 1]!, true);
  }

  /** The next turn waiting, played from its start. */
  private async next(): Promise<void> {
    const turn = this.queue.shift();
    if (turn !== undefined) await this.open(turn, true);
  }

  /** Every turn waiting skipped: the last one's end, the race as it stands after it. */
  private async toPresent(): Promise<void> {
    const last = this.queue.pop();
    this.queue = [];
    if (last !== undefined) await this.open(last, false);
  }

  /** The speed played at: the one chosen, faster while turns wait behind. */
  private get pace(): number {
    return this.speed * (this.queue.length ? CATCH_UP : 1);
  }

  /** Loads a played turn and its report, and plays it from the start (or shows its end). */
  async open(turn: number, autoplay: boolean): Promise<void> {
    this.stop();
    const known = this.known.get(turn);
    const [replay, report] = known ? [known.replay, { report: known.report }] : await Promise.all([
      api<Replay>('GET', `/api/races/${this.raceId}/turns/${turn}`),
      api<{ report: TurnReport }>('GET', `/api/races/${this.raceId}/turns/${turn}/report`),
    ]);
    this.turn = turn;
    this.away = false;
    this.events = replay.events;
    // Those that finished in an earlier turn start it finished (a race may play on after its first finisher).
    const start = robotsFromView(replay.robots, this.designs()).map((r) => {
      const place = placeOf(replay.finished, r.name);
      return place === undefined ? r : { ...r, finished: place };
    });
    this.steps = steps(start, replay.events);
    this.report = report.report;
    this.root.dataset.turn = String(turn);
    this.root.dataset.steps = String(this.steps.length);
    this.controls();
    if (autoplay) {
      this.at = -1;
      this.show();
      this.play();
    } else {
      this.at = this.steps.length - 1;
      this.show();
    }
  }

  play(): void {
    if (this.at >= this.steps.length - 1) {
      this.at = -1;
      this.show();
    }
    this.playing = true;
    this.root.dataset.playing = 'true';
    if (this.animator.isPaused) this.animator.resume();
    this.controls();
    if (!this.looping) void this.loop();
  }

  /** Plays step after step while playing; a paused animation holds the loop where it is. */
  private async loop(): Promise<void> {
    this.looping = true;
    let ended = false;
    try {
      while (this.playing && this.at < this.steps.length - 1) {
        const done = await this.playStep(this.at + 1);
        // Stopped meanwhile; played again at once (another turn opened while a step was animated,
        // the race's end among them), this loop plays on: play() left it to this one, still running.
        if (!done && !this.playing) return;
        if (this.playing && this.at < this.steps.length - 1) await new Promise((r) => setTimeout(r, STEP_GAP_MS / this.pace));
      }
      if (this.playing) {
        this.playing = false;
        delete this.root.dataset.playing;
        this.controls();
        ended = true;
      }
    } finally {
      this.looping = false;
    }
    // Played to its end: the next turn waiting, after a breath (unless another was asked for meanwhile).
    const turn = this.turn;
    if (!ended || !this.queue.length) return;
    await new Promise((r) => setTimeout(r, (4 * STEP_GAP_MS) / this.pace));
    if (this.turn === turn && !this.playing) await this.next();
  }

  /** Animates step k from the end of the one before; false if stopped meanwhile. */
  private async playStep(k: number): Promise<boolean> {
    const s = this.steps[k]!;
    if (reducedMotion() || !s.beats.some((b) => b.actions.length)) {
      this.at = k;
      this.show();
      if (reducedMotion()) await new Promise((r) => setTimeout(r, STILL_STEP_MS / this.pace));
      return true;
    }
    // The picture as the step begins: the robots before it, the register's moves before it.
    const earlier = s.registerEvents.slice(0, s.registerEvents.length - s.events.length).filter((e) => e.type !== 'shot');
    this.board.draw({ robots: s.before, ...(this.you !== undefined ? { you: this.you } : {}) }, earlier, `Turn ${this.turn}: ${s.label}`);
    this.root.dataset.step = String(k);
    // A step before the last: the replay has not ended (another turn's end said so before).
    this.root.toggleAttribute('data-ended', false);
    this.root.dataset.animating = 'true';
    this.animating = k;
    const run = ++this.runs;
    this.label(k);
    // The report as the step begins: what it shows happens as it is animated.
    this.drawReport(k - 1);
    this.hooks.shown(s.before);
    const done = await this.animator.play(s, this.pace, (beat, ended, b) => {
      this.root.dataset.beat = String(beat);
      this.root.toggleAttribute('data-beat-done', ended);
      if (ended) this.hooks.shown(b.robots);
    });
    // Stopped meanwhile: whatever runs now is another step's.
    if (!done || run !== this.runs) return false;
    delete this.root.dataset.animating;
    this.animating = null;
    this.at = k;
    this.show();
    return true;
  }

  pause(): void {
    this.playing = false;
    this.animator.pause();
    delete this.root.dataset.playing;
    if (this.steps.length) this.controls();
  }

  /** Stops playing at once (a step cut short counts as shown): what is drawn next is the caller's. */
  private stop(): void {
    if (this.animating !== null) this.at = this.animating;
    this.animating = null;
    this.playing = false;
    this.animator.cancel();
    this.animator.resume();
    delete this.root.dataset.playing;
    delete this.root.dataset.animating;
  }

  /** Leaves the replay (the board shows now): the turns waiting are skipped with it. */
  leave(): void {
    this.stop();
    this.queue = [];
    this.away = true;
    if (this.turn) this.hooks.seen(this.turn);
  }

  /** To the turn's end at once; the next turn waiting, if one is, plays then. */
  private skip(): void {
    this.go(this.steps.length - 1);
    void this.next();
  }

  private go(k: number): void {
    this.stop();
    this.at = Math.max(0, Math.min(this.steps.length - 1, k));
    this.show();
    this.controls();
  }

  /** One step forward, animated. */
  private async forward(): Promise<void> {
    if (this.at >= this.steps.length - 1) return;
    this.stop();
    if (this.at >= this.steps.length - 1) return this.go(this.at);
    this.controls();
    await this.playStep(this.at + 1);
    this.controls();
  }

  /** The controls, built once: each refresh updates them in place, so no click or wait lands on a replaced element. */
  private ui: {
    turns: HTMLSelectElement;
    back: HTMLButtonElement;
    play: HTMLButtonElement;
    forward: HTMLButtonElement;
    skip: HTMLButtonElement;
    speed: HTMLSelectElement;
    present: HTMLButtonElement;
    scrub: HTMLInputElement;
    motion: HTMLInputElement;
  } | null = null;

  private build(): NonNullable<ReplayPlayer['ui']> {
    const btn = (label: string, aria: string, on: () => void, cls: string) =>
      h('button', { type: 'button', class: cls, 'aria-label': aria, onclick: on }, label);
    const ui = {
      // A turn picked: the one wanted, the turns waiting skipped.
      turns: h('select', { 'aria-label': 'Turn', class: 'turn-pick', onchange: (e: Event) => {
        this.queue = [];
        void this.open(Number((e.target as HTMLSelectElement).value), true);
      } }),
      back: btn('◀', 'Step back', () => this.go(this.at - 1), 'back'),
      play: btn('▶ Play', 'Play', () => (this.playing ? this.pause() : this.play()), 'play'),
      forward: btn('▶', 'Step forward', () => void this.forward(), 'forward'),
      skip: btn('Skip', 'Skip the replay', () => this.skip(), 'skip'),
      speed: h('select', { 'aria-label': 'Speed', class: 'speed', onchange: (e: Event) => {
        this.speed = Number((e.target as HTMLSelectElement).value);
        localStorage.setItem(SPEED_KEY, String(this.speed));
      } }, ...SPEEDS.map((s) => h('option', { value: s, selected: s === this.speed }, `${s}×`))),
      present: btn('', 'Skip to the present', () => void this.toPresent(), 'present'),
      scrub: h('input', { type: 'range', min: 0, max: 0, value: 0, 'aria-label': 'Step', class: 'scrub', oninput: (e: Event) => this.go(Number((e.target as HTMLInputElement).value)) }),
      motion: h('input', {
        type: 'checkbox', class: 'reduce-motion', checked: reducedMotion(),
        onchange: (e: Event) => localStorage.setItem('roborally.motion', (e.target as HTMLInputElement).checked ? 'reduced' : 'full'),
      }),
    };
    this.root.prepend(h('div', { class: 'controls' },
      ui.turns,
      btn('|◀', 'First step', () => this.go(0), 'first'),
      ui.back, ui.play, ui.forward,
      btn('▶|', 'Last step', () => this.go(this.steps.length - 1), 'last'),
      ui.skip, ui.present, ui.speed, ui.scrub,
      h('label', { class: 'motion' }, ui.motion, ' Reduce motion')));
    return ui;
  }

  /** Brings the controls up to date with the replay: the turns played, the step shown, playing or not. */
  private controls(): void {
    const ui = (this.ui ??= this.build());
    while (ui.turns.options.length < this.played) {
      const k = ui.turns.options.length + 1;
      ui.turns.append(h('option', { value: k }, `Turn ${k}`));
    }
    ui.turns.value = String(this.turn);
    const last = this.steps.length - 1;
    ui.back.disabled = this.at <= 0;
    ui.forward.disabled = this.at >= last;
    ui.skip.disabled = this.at >= last && !this.playing;
    ui.play.textContent = this.playing ? '❚❚ Pause' : '▶ Play';
    ui.play.setAttribute('aria-label', this.playing ? 'Pause' : 'Play');
    ui.play.classList.toggle('play', !this.playing);
    ui.play.classList.toggle('pause', this.playing);
    // Turns waiting: how many, and the way to the last one's end at once.
    ui.present.hidden = !this.queue.length;
    ui.present.textContent = `Skip to turn ${this.queue[this.queue.length - 1] ?? ''} (${this.queue.length} waiting: playing ${CATCH_UP}×)`;
    if (this.queue.length) this.root.dataset.queued = String(this.queue.length);
    else delete this.root.dataset.queued;
    ui.scrub.max = String(Math.max(0, last));
    ui.scrub.value = String(Math.max(0, this.at));
  }

  private label(k: number): void {
    const s = this.steps[k];
    if (!s) return;
    const names = s.robots.map((r) => r.name);
    const said = `Step ${k + 1} of ${this.steps.length}: ${s.register >= 1 && s.register <= 5 ? `register ${s.register}, ` : ''}${s.label}`;
    const what = this.root.querySelector('.step') ?? h('div', { class: 'step', 'aria-live': 'polite' });
    what.replaceChildren(
      h('p', { class: 'step-label', title: said }, said),
      s.cards.length ? h('ol', { class: 'revealed', 'aria-label': 'Cards revealed' }, ...s.cards.map((c) => h('li', { 'data-card': c.card }, `${names[c.robot]}: ${cardWords(c.card)}${c.joined ? ` + ${cardWords(c.joined)}` : ''}${c.copy ? ' (Radio Control\'s copy)' : ''}`))) : '',
      h('ul', { class: 'happened' }, ...s.events.map(describe(names)).filter((t): t is string => t !== null).map((t) => h('li', {}, t))));
    if (!what.parentElement) this.root.append(what);
    this.root.dataset.register = String(s.register);
  }

  /** Draws again the step shown (back from the race as it is now): board, table and report. */
  redraw(): void {
    if (this.steps.length) this.show();
  }

  /**
   * The turn's result, under the controls once the replay has reached the turn's end (never before:
   * it would tell what the replay has not shown): the viewer's robot first, in bold.
   */
  private result(): void {
    const el = this.root.querySelector<HTMLElement>('.turn-result') ?? h('p', { class: 'turn-result', 'aria-live': 'polite' });
    if (!el.parentElement) this.root.querySelector('.controls')!.after(el);
    const last = this.steps[this.steps.length - 1];
    el.hidden = !last || this.at !== this.steps.length - 1;
    if (!last || el.hidden) return el.replaceChildren();
    const lines = turnResult(last.robots.map((r) => r.name), this.events, last.before, last.robots, this.you);
    el.replaceChildren(h('strong', {}, `Turn ${this.turn}: `),
      ...(lines.length ? lines.flatMap((l, k) => [k ? ' · ' : '', l.robot === this.you ? h('b', { class: 'yours' }, l.text) : l.text]) : ['no flag touched, nobody destroyed, no damage.']));
  }

  private show(): void {
    this.controls();
    this.result();
    if (this.at < 0) {
      // Before the turn's first step: the robots as the turn began.
      const first = this.steps[0];
      if (!first) return;
      this.board.draw({ robots: first.before, ...(this.you !== undefined ? { you: this.you } : {}) }, undefined, `Turn ${this.turn}: the robots as it begins`);
      this.root.dataset.step = '-1';
      this.root.toggleAttribute('data-ended', false);
      this.hooks.shown(first.before);
      this.drawReport(-1);
      return;
    }
    const s = this.steps[this.at];
    if (!s) return;
    // The register's moves so far as arrows; laser shots only in the step they are fired.
    const shown: GameEvent[] = s.registerEvents.filter((e) => e.type !== 'shot' || s.events.includes(e));
    this.board.draw({ robots: s.robots, ...(this.you !== undefined ? { you: this.you } : {}) }, shown, `Turn ${this.turn}: ${s.label}`);
    this.label(this.at);
    this.drawReport(this.at);
    this.root.dataset.step = String(this.at);
    delete this.root.dataset.beat;
    this.root.toggleAttribute('data-ended', this.at === this.steps.length - 1);
    if (this.at === this.steps.length - 1) this.hooks.seen(this.turn);
    this.controls();
    this.hooks.shown(s.robots);
  }

  /**
   * 001's report as step k ends (-1: before the first), never ahead of it: the registers played
   * whole; the register playing, until its last step is shown, only the cards revealed so far,
   * without the damage and notes its later steps bring; the later registers not at all.
   */
  private drawReport(k: number): void {
    const rep = this.report;
    if (!rep) return;
    this.reportBox.hidden = false;
    const s = k >= 0 ? this.steps[k] : undefined;
    const register = s?.register ?? 0;
    const ended = s !== undefined && this.steps[k + 1]?.register !== register;
    const names = s?.robots.map((r) => r.name) ?? [];
    const revealed = new Set(s?.cards.map((c) => names[c.robot]));
    const table = (reg: TurnReport['registers'][number]) => {
      const whole = reg.register < register || ended;
      const rows = whole ? reg.rows : reg.rows.filter((r) => revealed.has(r.name));
      return h('table', { class: `register-report${reg.register === register ? ' current' : ''}`, 'data-register': reg.register, 'data-whole': whole ? 'true' : 'false' },
        h('caption', {}, whole ? `Register ${reg.register}` : `Register ${reg.register}, playing: damage and notes at its end`),
        h('thead', {}, h('tr', {}, h('th', {}, 'Dmg'), h('th', {}, 'Name'), h('th', {}, 'Move'), h('th', {}, 'Notes'))),
        h('tbody', {}, ...rows.map((r) => h('tr', {}, h('td', {}, whole ? String(r.dmg) : '…'), h('td', {}, r.name), h('td', {}, r.move.join(',')), h('td', {}, whole ? r.notes.join('; ') : '')))));
    };
    const seen = rep.registers.filter((r) => r.register <= register);
    this.reportBox.replaceChildren(
      h('h2', {}, `Turn ${rep.turn}: 001's report`),
      rep.start.length ? h('ul', { class: 'report-start' }, ...rep.start.map((t) => h('li', {}, t))) : '',
      ...seen.map(table),
      seen.length < rep.registers.length ? h('p', { class: 'note report-later' }, `Registers ${seen.length + 1}–${rep.registers.length} follow as the replay plays them.`) : '',
      rep.end.length && register > 5 ? h('div', { class: 'report-end' }, h('h3', {}, 'End of turn'), h('ul', {}, ...rep.end.map((t) => h('li', {}, t)))) : '');
  }
}
