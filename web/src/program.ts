/**
 * Your program for the turn: the hand with the cards' priorities, five registers (locked ones show
 * their card and why), power down, the rules' questions, and the button that sends it all. A card
 * goes into a register by dragging it (mouse or finger: pointer events), by tapping it (the first
 * empty register, or the one tapped before), or from the keyboard (focus a card, press 1 to 5).
 * Tapping a filled register, or Delete on it, takes its card back. Orders can be sent again, and
 * so changed, until the turn is played.
 */
import { h, type PublicRobot, type SeatView, type SentOrders } from './api.js';
import { cardParts, cardWords } from './steps.js';

const ICON: Record<string, string> = { F1: '↑1', F2: '↑2', F3: '↑3', B: '↓', L: '↶', R: '↷', U: '⤸' };

export interface ProgramOptions {
  readonly rules: string;
  /** Sends the orders; resolves with an error message, or null when they were taken. */
  readonly send: (orders: SentOrders) => Promise<string | null>;
}

export class ProgramPanel {
  private view!: SeatView;
  private robot!: PublicRobot;
  /** Per register 1-5: the card placed in it (open registers only). */
  private placed = new Map<number, string>();
  private target: number | null = null;
  private turn = -1;
  private sentAt: string | null = null;
  private drag: { card: string; from: number | null; ghost: HTMLElement | null; x: number; y: number; id: number } | null = null;

  constructor(private readonly root: HTMLElement, private readonly o: ProgramOptions) {
    root.addEventListener('pointermove', (e) => this.dragMove(e));
    root.addEventListener('pointerup', (e) => this.dragEnd(e));
    root.addEventListener('pointercancel', () => this.dragCancel());
  }

  /** A new view of the seat: a new turn empties the registers (or fills them from the orders sent). */
  update(view: SeatView): void {
    this.view = view;
    this.robot = view.robots[view.you.seat]!;
    if (view.turn !== this.turn) {
      this.turn = view.turn;
      this.placed.clear();
      this.target = null;
      this.sentAt = null;
      const sent = view.you.orders;
      if (sent) {
        view.you.openRegisters.forEach((reg, k) => sent.program[k] && this.placed.set(reg, sent.program[k]!));
        this.sentAt = 'earlier';
      }
      this.form = sent ?? { program: [], powerDown: false, stayDown: false, takeOption: false, unlock: [], reenter: null };
    }
    this.render();
  }

  /** The questions' answers as last chosen (kept across redraws within a turn). */
  private form: SentOrders = { program: [], powerDown: false, stayDown: false, takeOption: false, unlock: [], reenter: null };

  private inHand(): string[] {
    const used = [...this.placed.values()];
    return this.view.you.hand.filter((c) => {
      const k = used.indexOf(c);
      if (k < 0) return true;
      used.splice(k, 1);
      return false;
    });
  }

  private place(card: string, reg: number | null): void {
    const open = this.view.you.openRegisters;
    const to = reg ?? this.target ?? open.find((r) => !this.placed.has(r));
    if (to === undefined || !open.includes(to)) return;
    for (const [r, c] of this.placed) if (c === card) this.placed.delete(r);
    this.placed.set(to, card);
    this.target = null;
    this.changed();
  }

  private takeBack(reg: number): void {
    this.placed.delete(reg);
    this.changed();
  }

  private changed(): void {
    if (this.sentAt) this.sentAt = 'changed';
    this.render();
  }

  private cardButton(card: string, from: number | null): HTMLElement {
    const [code, priority] = cardParts(card);
    const b = h('button', {
      type: 'button', class: `card card-${code}`, 'data-card': card, 'aria-label': `${cardWords(card)}${from ? `, in register ${from}` : ''}`,
      onkeydown: (e: KeyboardEvent) => {
        const n = Number(e.key);
        if (n >= 1 && n <= 5) {
          e.preventDefault();
          this.place(card, n);
          this.focusLater(`.register[data-register="${n}"] .card`);
        } else if ((e.key === 'Delete' || e.key === 'Backspace') && from) {
          e.preventDefault();
          this.takeBack(from);
          this.focusLater('.hand .card');
        }
      },
      // Enter or Space (a click with no pointer): the same as a tap.
      onclick: (e: MouseEvent) => {
        if (e.detail !== 0) return;
        if (from) this.takeBack(from);
        else this.place(card, null);
        this.focusLater(from ? '.hand .card' : '.hand .card, .send');
      },
      onpointerdown: (e: PointerEvent) => {
        if (e.button !== 0) return;
        this.drag = { card, from, ghost: null, x: e.clientX, y: e.clientY, id: e.pointerId };
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
        e.preventDefault();
      },
    }, h('span', { class: 'icon', 'aria-hidden': 'true' }, ICON[code] ?? code), h('span', { class: 'priority' }, priority), h('span', { class: 'name' }, cardWords(card).replace(/ \(\d+\)$/, '')));
    return b;
  }

  private focusLater(selector: string): void {
    requestAnimationFrame(() => this.root.querySelector<HTMLElement>(selector)?.focus());
  }

  private dragMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    if (!d.ghost) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
      d.ghost = this.cardButton(d.card, null);
      d.ghost.classList.add('ghost');
      document.body.append(d.ghost);
    }
    d.ghost.style.left = `${e.clientX}px`;
    d.ghost.style.top = `${e.clientY}px`;
    for (const r of this.root.querySelectorAll('.register')) r.classList.toggle('over', r === this.dropTarget(e));
  }

  private dropTarget(e: PointerEvent): HTMLElement | null {
    const under = document.elementsFromPoint(e.clientX, e.clientY).find((el) => !el.closest('.ghost'));
    return (under?.closest('.register.open, .hand') as HTMLElement | null) ?? null;
  }

  private dragEnd(e: PointerEvent): void {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    this.drag = null;
    if (!d.ghost) {
      // No movement: a tap.
      if (d.from) this.takeBack(d.from);
      else this.place(d.card, null);
      return;
    }
    d.ghost.remove();
    const t = this.dropTarget(e);
    if (t?.classList.contains('register')) {
      const reg = Number(t.dataset.register);
      const there = this.placed.get(reg);
      this.place(d.card, reg);
      // Dragged from another register onto a filled one: the two swap.
      if (there && d.from && there !== d.card) this.placed.set(d.from, there);
      this.render();
    } else if (t?.classList.contains('hand') && d.from) this.takeBack(d.from);
    else this.render();
  }

  private dragCancel(): void {
    this.drag?.ghost?.remove();
    this.drag = null;
    this.render();
  }

  private orders(): SentOrders {
    const y = this.view.you;
    return {
      program: y.needsProgram ? y.openRegisters.map((r) => this.placed.get(r) ?? null) : [],
      powerDown: this.form.powerDown,
      stayDown: this.form.stayDown,
      takeOption: this.form.takeOption,
      unlock: this.form.unlock,
      reenter: this.form.reenter,
      // Option decisions (shared/OPTIONS.md part 4) will join these as a `choices` object once the server takes them.
    };
  }

  private async submit(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const error = await this.o.send(this.orders());
    button.disabled = false;
    const msg = this.root.querySelector<HTMLElement>('.sent')!;
    if (error) {
      msg.textContent = error;
      msg.classList.add('error');
      return;
    }
    this.sentAt = new Date().toLocaleTimeString();
    this.render();
  }

  private question(label: string, key: 'powerDown' | 'stayDown' | 'takeOption', note?: string): HTMLElement {
    return h('label', { class: 'question' },
      h('input', { type: 'checkbox', name: key, checked: this.form[key], onchange: (e: Event) => { this.form = { ...this.form, [key]: (e.target as HTMLInputElement).checked }; this.changed(); } }),
      ` ${label}`, note ? h('small', {}, ` ${note}`) : null);
  }

  private render(): void {
    if (this.drag) return;
    const v = this.view, y = v.you, r = this.robot;
    const classic = this.o.rules === 'classic';
    const registers = h('ol', { class: 'registers', 'aria-label': 'Registers' });
    for (let reg = 1; reg <= 5; reg++) {
      const lock = r.locked.find((l) => l.register === reg);
      const card = this.placed.get(reg);
      const open = y.openRegisters.includes(reg) && y.needsProgram;
      registers.append(h('li', {
        class: `register${open ? ' open' : ''}${lock ? ' locked' : ''}${this.target === reg ? ' target' : ''}`, 'data-register': reg,
        onclick: (e: Event) => {
          if (!open || card || (e.target as Element).closest('.card')) return;
          this.target = this.target === reg ? null : reg;
          this.render();
        },
      },
      h('span', { class: 'reg-number' }, String(reg)),
      lock ? h('span', { class: 'card locked-card', 'data-card': lock.card ?? '' }, lock.card ? cardWords(lock.card) : '—') : card ? this.cardButton(card, reg) : h('span', { class: 'empty' }, open ? (this.target === reg ? 'next card' : 'empty') : '—'),
      lock ? h('small', { class: 'why' }, `locked: ${r.damage} damage`) : null));
    }
    const hand = h('div', { class: 'hand', 'aria-label': 'Your hand' }, ...(y.needsProgram ? this.inHand().map((c) => this.cardButton(c, null)) : []));
    const why = !y.needsProgram
      ? h('p', { class: 'note' }, r.status !== 'active' ? `${r.name} is not on the floor this turn.` : y.poweredDown ? `${r.name} is powered down this turn: no cards, and damage is repaired.` : 'Every register is locked: the locked cards play again.')
      : h('p', { class: 'note' }, 'Drag cards into the registers, or tap them (keyboard: focus a card, press 1–5). Empty registers are filled at random at the deadline.');
    const questions = h('div', { class: 'questions' },
      y.poweredDown ? this.question('Stay powered down next turn', 'stayDown') : this.question('Announce a power down for next turn', 'powerDown', '(repairs all damage; no cards next turn)'),
      classic ? this.question('At a double wrench, take an option instead of repairing', 'takeOption') : null,
      classic && r.lockedCount ? h('fieldset', { class: 'unlock' }, h('legend', {}, 'When damage is repaired, free these registers first'),
        ...r.locked.map((l) => h('label', {}, h('input', { type: 'checkbox', checked: this.form.unlock.includes(l.register), onchange: (e: Event) => {
          const on = (e.target as HTMLInputElement).checked;
          this.form = { ...this.form, unlock: on ? [...this.form.unlock, l.register] : this.form.unlock.filter((u) => u !== l.register) };
          this.changed();
        } }), ` ${l.register}`))) : null,
      this.reentry(),
      // Option cards: the robot's own, public; their per-turn decisions (OPTIONS.md part 4) go in this place.
      h('p', { class: 'options' }, `Options: ${r.options.length ? r.options.join(', ') : 'none'}`));
    const send = h('button', { type: 'button', class: 'primary send', onclick: (e: Event) => void this.submit(e.currentTarget as HTMLButtonElement) }, this.sentAt ? 'Send again' : 'Send');
    const sent = h('p', { class: 'sent', 'aria-live': 'polite' }, this.sentAt === 'changed' ? 'Changed since sent: send again to replace your orders.' : this.sentAt ? `Sent${this.sentAt === 'earlier' ? '' : ` at ${this.sentAt}`}. You can change your mind until the turn is played.` : '');
    this.root.replaceChildren(h('h2', {}, `Your program, turn ${v.turn}`), registers, hand, why, questions, h('p', { class: 'send-line' }, send), sent);
  }

  private reentry(): HTMLElement {
    const re = this.form.reenter ?? {};
    const set = (next: { dir?: string; poweredDown?: boolean }) => {
      const merged = { ...re, ...next };
      if (!merged.dir) delete merged.dir;
      this.form = { ...this.form, reenter: merged.dir || merged.poweredDown ? merged : null };
      this.changed();
    };
    return h('fieldset', { class: 'reentry' }, h('legend', {}, 'If destroyed this turn, re-enter'),
      h('label', {}, 'facing ', h('select', { name: 'reenter-dir', onchange: (e: Event) => set({ dir: (e.target as HTMLSelectElement).value }) },
        ...['', 'N', 'E', 'S', 'W'].map((d) => h('option', { value: d, selected: (re.dir ?? '') === d }, d ? { N: 'north', E: 'east', S: 'south', W: 'west' }[d]! : 'as the rules choose')))),
      h('label', {}, h('input', { type: 'checkbox', name: 'reenter-down', checked: !!re.poweredDown, onchange: (e: Event) => set({ poweredDown: (e.target as HTMLInputElement).checked }) }), ' powered down'));
  }
}
