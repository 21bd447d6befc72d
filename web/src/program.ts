/**
 * Your program for the turn: the hand with the cards' priorities, five registers (locked ones show
 * their card and why), power down, the rules' questions, and the button that sends it all. A card
 * goes into a register by dragging it (mouse or finger: pointer events), by tapping it (the first
 * empty register, or the one tapped before), or from the keyboard (focus a card, press 1 to 5).
 * Tapping a filled register, or Delete on it, takes its card back. Orders can be sent again, and
 * so changed, until the turn is played. Then the decisions the robot's options give: a rotation
 * dropped (or keyed) onto a register holding a move joins it there when Crab Legs or Dual
 * Processor allows; a Move 1, Move 3 or Back-Up in a register has a toggle for Brakes, Fourth Gear
 * or Reverse Gear; the rest are controls (web/src/decisions.ts); Recompile is a button. A refusal
 * of the server is shown beside the control it names.
 */
import { RULE_SETS, cardParts, optionName, optionText, type RuleSet } from '../../engine/src/index.js';
import { h, type PublicRobot, type SeatView, type SentOrders } from './api.js';
import { canJoin, compact, entryName, fieldOf, gearFor, heldNames, offered, readEntry, type Choices, type Gear } from './choices.js';
import { decisions } from './decisions.js';
import { facingControl } from './facing.js';
import { cardWords } from './words.js';

const ICON: Record<string, string> = { F1: '↑1', F2: '↑2', F3: '↑3', B: '↓', L: '↶', R: '↷', U: '⤸' };

/** A card's face: its icon, its priority and its name. */
function cardFace(card: string): HTMLElement[] {
  const [code, priority] = cardParts(card);
  return [h('span', { class: 'icon', 'aria-hidden': 'true' }, ICON[code] ?? code), h('span', { class: 'priority' }, priority), h('span', { class: 'name' }, cardWords(card).replace(/ \(\d+\)$/, ''))];
}

/** A refusal of the server: the field it names (`program[2]`, `choices.weapon.3`…) and why. */
export interface Refusal {
  readonly field: string;
  readonly message: string;
  /** No answer came (the connection lost, the server unable to answer just then): the same orders may be sent again. */
  readonly retry?: true;
}

export interface ProgramOptions {
  readonly rules: string;
  /** Whether the course has a chop shop: the decision about one is offered only then. */
  readonly chopShop: boolean;
  /** Sends the orders; resolves with a refusal, or null when they were taken. */
  readonly send: (orders: SentOrders) => Promise<Refusal | null>;
  /**
   * The seat's view fetched at once (null when it could not be): after a `409 revision` (orders sent
   * meanwhile from another device or by mail), the orders the server holds then replace the program.
   */
  readonly held: () => Promise<SeatView | null>;
  /** Recompile: a new hand (POST …/recompile, then the view again); resolves with a refusal, or null. */
  readonly recompile: () => Promise<Refusal | null>;
  /** The starting facing chosen in the form ('' for none yet), for the board to show it. */
  readonly facing?: (dir: string) => void;
  /** A card was placed or taken back: how many registers hold one now, for the others to see face down. */
  readonly drafted?: (turn: number, filled: number) => void;
  /** Draws the time left to send into the element beside Send (and keeps it counting down). */
  readonly clock?: (el: HTMLElement) => void;
  /**
   * Where the tab keeps the program not yet sent (a key of its session storage): a page reloaded,
   * or a phone's tab discarded in the background and opened again, finds it as it was left.
   */
  readonly keep?: string;
  /** Said just under the hand, the same element at every redraw (the page's notice that the seat's link was made in another browser). */
  readonly byHand?: HTMLElement;
}

export class ProgramPanel {
  private view!: SeatView;
  private robot!: PublicRobot;
  /** Per register 1-5: the card placed in it (open registers only). */
  private placed = new Map<number, string>();
  /** Per register: a second card joined to its card (Crab Legs, Dual Processor). */
  private joined = new Map<number, string>();
  /** Registers whose card is played another way: pbem's code (F0, F4, B2) or classic's Brakes, Fourth Gear, Reverse Gear. */
  private geared = new Set<number>();
  /** The option decisions, as the form holds them (defaults left out when sent). */
  private choices: Choices = {};
  private refusal: Refusal | null = null;
  private target: number | null = null;
  /** The turn whose Send had the focus (pressed from the keyboard, most likely): see render(). */
  private sendFocused: number | null = null;
  /** The turn the program was last drawn for. */
  private drawnTurn: number | null = null;
  private turn = -1;
  /** The hand the placements are of: a recompiled hand starts the program again. */
  private dealt = '';
  private sentAt: string | null = null;
  /** The orders are on their way: until the server answers, the program stands still and Send says so. */
  private sending = false;
  /**
   * The revision of the last orders this page sent, or the server holds, whichever is higher: each
   * send carries the next, so a send the page abandoned (no answer within 15 s) that reaches the
   * server after a later one is refused there (409 revision), never replacing it (docs/server.md).
   */
  private revision = 0;
  private drag: { card: string; from: number | null; joined: boolean; ghost: HTMLElement | null; x: number; y: number; id: number } | null = null;

  /** The race's rule set: what the form offers is read from its data. */
  private get ruleSet(): RuleSet {
    return RULE_SETS[this.o.rules]!;
  }

  constructor(private readonly root: HTMLElement, private readonly o: ProgramOptions) {
    root.addEventListener('pointermove', (e) => this.dragMove(e));
    root.addEventListener('pointerup', (e) => this.dragEnd(e));
    root.addEventListener('pointercancel', () => this.dragCancel());
  }

  /**
   * A new view of the seat: a new turn, or a new hand (Recompile), empties the registers (or fills
   * them from the orders sent); so does `held`, the orders sent elsewhere that refused the page's.
   */
  update(view: SeatView, held = false): void {
    this.view = view;
    const dealt = view.you.hand.join(' ');
    // Orders of a later revision than any this page sent or saw, for the turn it shows: sent from
    // another tab or device. A page showing its program as sent shows theirs instead (it would
    // say "Sent" of orders no longer held); one with changes not sent keeps them, said changed.
    const newer = !this.sending && view.turn === this.turn && dealt === this.dealt && (view.you.orders?.revision ?? 0) > this.revision;
    if (newer && this.sentAt === null && this.placed.size > 0) this.sentAt = 'changed';
    else if (newer && this.sentAt !== 'changed') held = true;
    this.revision = Math.max(this.revision, view.you.orders?.revision ?? 0);
    this.robot = view.robots[view.you.seat]!;
    if (held || view.turn !== this.turn || dealt !== this.dealt) {
      this.turn = view.turn;
      this.dealt = dealt;
      this.placed.clear();
      this.joined.clear();
      this.geared.clear();
      this.target = null;
      this.sentAt = null;
      this.refusal = null;
      // The orders held, else the program this tab had not sent yet for this hand (before a reload).
      const sent = view.you.orders ?? this.kept(view.turn, dealt);
      if (sent) {
        view.you.openRegisters.forEach((reg, k) => {
          if (!sent.program[k]) return;
          const e = readEntry(sent.program[k]!);
          this.placed.set(reg, e.card);
          if (e.joined) this.joined.set(reg, e.joined);
          if (e.coded) this.geared.add(reg);
        });
        if (view.you.orders) this.sentAt = held ? 'elsewhere' : 'earlier';
      }
      this.form = sent ?? { program: [], powerDown: false, stayDown: false, takeOption: false, unlock: [], reenter: null };
      this.o.facing?.(this.form.facing ?? '');
      this.choices = { ...(sent?.choices ?? {}) };
      // classic's movement cards are decisions by register: shown on the registers.
      for (const key of ['brakes', 'fourthGear', 'reverseGear']) {
        for (const reg of (this.choices[key] ?? []) as number[]) this.geared.add(reg);
        delete this.choices[key];
      }
    }
    this.render();
  }

  /** The questions' answers as last chosen (kept across redraws within a turn). */
  private form: SentOrders = { program: [], powerDown: false, stayDown: false, takeOption: false, unlock: [], reenter: null };

  private inHand(): string[] {
    const c = this.choices as { conditional?: { card?: string }; flywheel?: string };
    const used = [...this.placed.values(), ...this.joined.values(), c.conditional?.card, c.flywheel].filter((x): x is string => !!x);
    return this.view.you.hand.filter((c) => {
      const k = used.indexOf(c);
      if (k < 0) return true;
      used.splice(k, 1);
      return false;
    });
  }

  /**
   * Puts a card in a register: the one named (a drop, a key), or the one tapped before, or the
   * first empty one. A card from the hand named onto a register whose card it may join joins it;
   * a card moved from register `from` leaves it.
   */
  private place(card: string, reg: number | null, from: number | null = null): void {
    const open = this.view.you.openRegisters;
    const to = reg ?? this.target ?? open.find((r) => !this.placed.has(r));
    if (to === undefined || !open.includes(to)) return;
    const there = this.placed.get(to);
    if (reg !== null && from === null && there && !this.joined.has(to) && canJoin(there, card, this.view.you.options)) this.joined.set(to, card);
    else {
      if (from !== null) this.clear(from);
      this.clear(to);
      this.placed.set(to, card);
    }
    this.target = null;
    this.changed();
  }

  private clear(reg: number): void {
    this.placed.delete(reg);
    this.joined.delete(reg);
    this.geared.delete(reg);
  }

  /** Takes a register's card back (with what is joined to it), or only the joined card. */
  private takeBack(reg: number, joined = false): void {
    if (joined) this.joined.delete(reg);
    else this.clear(reg);
    this.changed();
  }

  /** Two registers swap their cards, with what is joined to them and their toggles. */
  private swap(a: number, b: number): void {
    for (const m of [this.placed, this.joined]) {
      const [x, y] = [m.get(a), m.get(b)];
      m.delete(a);
      m.delete(b);
      if (x) m.set(b, x);
      if (y) m.set(a, y);
    }
    const [ga, gb] = [this.geared.has(a), this.geared.has(b)];
    this.geared.delete(a);
    this.geared.delete(b);
    if (ga) this.geared.add(b);
    if (gb) this.geared.add(a);
  }

  private changed(): void {
    if (this.sentAt) this.sentAt = 'changed';
    this.refusal = null;
    this.render();
    this.o.drafted?.(this.turn, this.placed.size);
    // Kept for a reload (before 2026-11-30 a reload emptied the registers of a program not sent).
    try {
      if (this.o.keep) sessionStorage.setItem(this.o.keep, JSON.stringify({ dealt: this.dealt, orders: this.orders() }));
    } catch {
      // No storage (a private window's quota): the program lives as long as the page.
    }
  }

  /** The program this tab kept, not sent, for this turn and this hand; else null. */
  private kept(turn: number, dealt: string): SentOrders | null {
    try {
      const k = this.o.keep ? JSON.parse(sessionStorage.getItem(this.o.keep) ?? 'null') as { dealt: string; orders: SentOrders } | null : null;
      return k && k.dealt === dealt && k.orders.turn === turn ? k.orders : null;
    } catch {
      return null;
    }
  }

  private cardButton(card: string, from: number | null, joined = false): HTMLElement {
    const [code] = cardParts(card);
    const b = h('button', {
      type: 'button', class: `card card-${code}${joined ? ' joined' : ''}`, 'data-card': card, 'aria-label': `${cardWords(card)}${from ? `, ${joined ? 'joined ' : ''}in register ${from}` : ''}`,
      onkeydown: (e: KeyboardEvent) => {
        const n = Number(e.key);
        if (n >= 1 && n <= 5) {
          e.preventDefault();
          // A joined card leaves its register alone: it goes as from the hand.
          if (joined && from) this.joined.delete(from);
          this.place(card, n, joined ? null : from);
          this.focusLater(`.register[data-register="${n}"] .card`);
        } else if ((e.key === 'Delete' || e.key === 'Backspace') && from) {
          e.preventDefault();
          this.takeBack(from, joined);
          this.focusLater('.hand .card');
        }
      },
      // Enter or Space (a click with no pointer): the same as a tap.
      onclick: (e: MouseEvent) => {
        if (e.detail !== 0) return;
        if (from) this.takeBack(from, joined);
        else this.place(card, null);
        // The hand's next card while a register is empty, then Send. (One selector for both found
        // Send first, which comes before the hand in the page: a second Enter sent one card.)
        const full = this.view.you.openRegisters.every((r) => this.placed.has(r));
        this.focusLater(from || !full ? '.hand .card' : '.send');
      },
      onpointerdown: (e: PointerEvent) => {
        if (e.button !== 0) return;
        this.drag = { card, from, joined, ghost: null, x: e.clientX, y: e.clientY, id: e.pointerId };
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
        e.preventDefault();
      },
    }, ...cardFace(card));
    return b;
  }

  /** A locked register's card: drawn as the cards are, marked locked, and not to be moved. */
  private lockedCard(card: string | null): HTMLElement {
    if (!card) return h('span', { class: 'card locked-card', 'data-card': '' }, h('span', { class: 'lock', 'aria-hidden': 'true' }, 'locked'), '—');
    return h('span', { class: `card card-${cardParts(card)[0]} locked-card`, 'data-card': card, 'aria-label': `${cardWords(card)}, locked` },
      h('span', { class: 'lock', 'aria-hidden': 'true' }, 'locked'), ...cardFace(card));
  }

  /** Focuses `selector` at the next frame, unless the focus has moved meanwhile (a key or a click faster than a frame). */
  private focusLater(selector: string): void {
    const was = document.activeElement;
    requestAnimationFrame(() => {
      if (document.activeElement === was) this.root.querySelector<HTMLElement>(selector)?.focus();
    });
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
      if (d.from) this.takeBack(d.from, d.joined);
      else this.place(d.card, null);
      return;
    }
    d.ghost.remove();
    const t = this.dropTarget(e);
    if (t?.classList.contains('register')) {
      const reg = Number(t.dataset.register);
      // Dragged from another register: the two swap (a joined card moves alone, as from the hand).
      if (d.from && !d.joined) {
        if (d.from !== reg) this.swap(d.from, reg);
        this.changed();
      } else {
        if (d.from) this.joined.delete(d.from);
        this.place(d.card, reg);
      }
    } else if (t?.classList.contains('hand') && d.from) this.takeBack(d.from, d.joined);
    else this.render();
  }

  private dragCancel(): void {
    this.drag?.ghost?.remove();
    this.drag = null;
    this.render();
  }

  /** A register's card as it plays: the placed card, or a locked one. */
  private cardIn(reg: number): string | undefined {
    return this.placed.get(reg) ?? this.robot.locked.find((l) => l.register === reg)?.card ?? undefined;
  }

  /** The registers where a movement option plays the card another way, each still holding a card it fits. */
  private gears(): Map<number, Gear> {
    const out = new Map<number, Gear>();
    for (const reg of this.geared) {
      const card = this.cardIn(reg), gear = card && !this.joined.has(reg) ? gearFor(card, this.view.you.options) : null;
      if (gear) out.set(reg, gear);
    }
    return out;
  }

  private orders(): SentOrders {
    const y = this.view.you;
    const codes = this.ruleSet.gearCodes, gears = this.gears();
    const choices: Choices = { ...this.choices };
    // Brakes, Fourth Gear and Reverse Gear by register, unless the rule set plays their codes instead (pbem).
    if (!codes) for (const [reg, g] of gears) choices[g.key] = [...((choices[g.key] ?? []) as number[]), reg];
    const entry = (reg: number) => {
      const card = this.placed.get(reg);
      return card ? entryName({ card, ...(this.joined.has(reg) ? { joined: this.joined.get(reg)! } : {}), coded: codes && gears.has(reg) }) : null;
    };
    const sent = compact(choices);
    return {
      // The turn the hand was dealt for: orders that arrive once it has been played are refused, never played on the next.
      turn: this.turn,
      program: y.needsProgram ? y.openRegisters.map(entry) : [],
      powerDown: this.form.powerDown,
      stayDown: this.form.stayDown,
      takeOption: this.form.takeOption,
      unlock: this.form.unlock,
      reenter: this.form.reenter,
      ...(this.form.facing ? { facing: this.form.facing } : {}),
      ...(sent ? { choices: sent } : {}),
    };
  }

  /**
   * Sends the orders once: while they are on their way Send says "Sending…" and takes no press, and
   * the registers and the hand stand still (a redraw meanwhile keeps them so), until the server
   * answers: "Sent", or its refusal, or, with no answer (the connection lost), the program as it was
   * and Send offering to try again.
   */
  private async submit(): Promise<void> {
    if (this.sending) return;
    const turn = this.turn;
    this.sending = true;
    this.refusal = null;
    this.render();
    const refusal = await this.o.send({ ...this.orders(), revision: ++this.revision });
    // Orders sent meanwhile from another device or by mail: the program shown becomes theirs (Send
    // still "Sending…" until it is), and the next Send, counting on from their revision, replaces them.
    const held = refusal?.field === 'revision' && turn === this.turn ? await this.o.held() : null;
    this.sending = false;
    // The turn played meanwhile: update() drew the next one.
    if (turn !== this.turn) return this.render();
    if (held?.turn === turn && held.you.orders) return this.update(held, true);
    if (refusal) return this.refuse(refusal);
    this.sentAt = new Date().toLocaleTimeString();
    this.render();
  }

  private async recompile(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const refusal = await this.o.recompile();
    button.disabled = false;
    if (refusal) this.refuse(refusal);
  }

  /** Shows a refusal beside the control whose field it names, or under the Send button. */
  private refuse(r: Refusal): void {
    this.refusal = r;
    this.render();
  }

  private showRefusal(): void {
    const r = this.refusal;
    if (!r) return;
    const controls = [...this.root.querySelectorAll<HTMLElement>('[data-field]')];
    const field = fieldOf(r.field, controls.map((c) => c.dataset.field!));
    const at = controls.find((c) => c.dataset.field === field);
    const text = r.retry ? `Not sent: ${r.message}. Your program is kept: press Try again.` : `Refused: ${r.field}: ${r.message}`;
    const note = h('span', { class: 'field-error error', role: 'alert' }, text);
    // Inside a register or a group of controls; after a single control.
    if (at?.matches('li, fieldset')) at.append(note);
    else if (at) at.after(note);
    else {
      const msg = this.root.querySelector<HTMLElement>('.sent')!;
      msg.textContent = text;
      msg.classList.add('error');
    }
  }

  private question(label: string, key: 'powerDown' | 'stayDown' | 'takeOption', note?: string): HTMLElement {
    return h('label', { class: 'question' },
      h('input', { type: 'checkbox', name: key, checked: this.form[key], onchange: (e: Event) => { this.form = { ...this.form, [key]: (e.target as HTMLInputElement).checked }; this.changed(); } }),
      ` ${label}`, note ? h('small', {}, ` ${note}`) : null);
  }

  private render(): void {
    if (this.drag) return;
    const v = this.view, y = v.you, r = this.robot;
    const rules = this.ruleSet;
    const registers = h('ol', { class: 'registers', 'aria-label': 'Registers' });
    const gears = this.gears();
    for (let reg = 1; reg <= 5; reg++) {
      const lock = r.locked.find((l) => l.register === reg);
      const card = this.placed.get(reg), joined = this.joined.get(reg);
      const open = y.openRegisters.includes(reg) && y.needsProgram;
      const k = y.openRegisters.indexOf(reg);
      const here = this.cardIn(reg);
      const gear = here && !joined && (open || lock) ? gearFor(here, y.options) : null;
      registers.append(h('li', {
        class: `register${open ? ' open' : ''}${lock ? ' locked' : ''}${this.target === reg ? ' target' : ''}`, 'data-register': reg, ...(k >= 0 ? { 'data-field': `program[${k}]` } : {}),
        onclick: (e: Event) => {
          if (!open || card || (e.target as Element).closest('.card')) return;
          this.target = this.target === reg ? null : reg;
          this.render();
        },
      },
      h('span', { class: 'reg-number' }, String(reg)),
      lock ? this.lockedCard(lock.card) : card ? this.cardButton(card, reg) : h('span', { class: 'empty' }, open ? (this.target === reg ? 'next card' : 'empty') : '—'),
      joined ? this.cardButton(joined, reg, true) : null,
      // Why it is locked: under the register; on a phone's bar a tag over the card's foot ("5
      // damage"), as "locked" is over its head, the bar no higher for it.
      lock ? h('small', { class: 'why' }, h('span', { class: 'why-lead' }, 'locked: '), lock.by === 'Fire Control' ? 'Fire Control' : `${r.damage} damage`) : null,
      gear ? h('label', { class: 'gear', title: `${gear.option}${rules.gearCodes ? ` (${gear.code})` : ''}; default: not used` },
        h('input', { type: 'checkbox', name: `gear${reg}`, checked: gears.has(reg), onchange: (e: Event) => {
          if ((e.target as HTMLInputElement).checked) this.geared.add(reg);
          else this.geared.delete(reg);
          this.changed();
        } }), ` ${gear.option}`) : null));
    }
    const hand = h('div', { class: 'hand', 'aria-label': 'Your hand' }, ...(y.needsProgram ? this.inHand().map((c) => this.cardButton(c, null)) : []));
    const why = !y.needsProgram
      ? h('p', { class: 'note' }, r.status === 'out' ? `${r.name} is out of the race (no lives left): nothing more to program. The others race on; their turns play here.`
        : r.status !== 'active' ? `${r.name} is not on the floor this turn.` : y.poweredDown ? `${r.name} is powered down this turn: no cards, and damage is repaired.` : 'Every register is locked: the locked cards play again.')
      : h('p', { class: 'note' }, 'Drag cards into the registers, or tap them (keyboard: focus a card, press 1–5). Empty registers are filled at random at the deadline.');
    const questions = h('div', { class: 'questions' },
      y.poweredDown ? this.question('Stay powered down next turn', 'stayDown') : this.question('Announce a power down for next turn', 'powerDown', '(repairs all damage; no cards next turn)'),
      rules.takeOptionChoice ? this.question('At a double wrench, take an option instead of repairing', 'takeOption') : null,
      rules.playerUnlock && r.lockedCount ? h('fieldset', { class: 'unlock' }, h('legend', {}, 'When damage is repaired, free these registers first'),
        ...r.locked.map((l) => h('label', {}, h('input', { type: 'checkbox', checked: this.form.unlock.includes(l.register), onchange: (e: Event) => {
          const on = (e.target as HTMLInputElement).checked;
          this.form = { ...this.form, unlock: on ? [...this.form.unlock, l.register] : this.form.unlock.filter((u) => u !== l.register) };
          this.changed();
        } }), ` ${l.register}`))) : null,
      this.startFacing(),
      this.reentry(),
      this.optionsPart());
    const send = h('button', { type: 'button', class: 'primary send', disabled: this.sending, 'aria-busy': this.sending ? 'true' : false, onclick: () => void this.submit() },
      this.sending ? 'Sending…' : this.refusal?.retry ? 'Try again' : this.sentAt ? 'Send again' : 'Send');
    // The time left beside Send, where the thumb is: whose move it is and how long it has.
    const time = h('span', { class: 'turn-clock', role: 'timer', 'aria-label': 'Time left to send' });
    this.o.clock?.(time);
    const sent = h('p', { class: 'sent', 'aria-live': 'polite' }, this.sending ? 'Sending your program…' : this.sentAt === 'changed' ? 'Changed since sent: send again to replace your orders.'
      : this.sentAt === 'elsewhere' ? 'Your orders were changed elsewhere (on another device or by mail): shown here as the server holds them. Sending again replaces them.'
      : this.sentAt ? `Sent${this.sentAt === 'earlier' ? '' : ` at ${this.sentAt}`}. You can change your mind until the turn is played.` : '');
    // A redraw (the race's news arrives while the player programs) keeps the keyboard's place.
    const had = document.activeElement instanceof HTMLElement && this.root.contains(document.activeElement) ? document.activeElement : null;
    const again = had?.dataset.card !== undefined
      ? `${had.closest('.register') ? `.register[data-register="${had.closest('.register')!.getAttribute('data-register')}"]` : '.hand'} .card[data-card="${had.dataset.card}"]`
      : had?.dataset.field ? `[data-field="${had.dataset.field}"]` : null;
    // The registers and Send together: on a phone a bar kept at the bottom of the screen while the
    // hand and the questions scroll under the board (on a laptop each where it was: app.css).
    // While the orders are on their way nothing in them can change (the hand and registers inert).
    registers.inert = hand.inert = questions.inert = this.sending;
    this.root.classList.toggle('sending', this.sending);
    this.root.replaceChildren(h('h2', {}, `Your program, turn ${v.turn}`), h('div', { class: 'program-bar' }, registers, h('div', { class: 'send-line' }, send, time, sent)), hand, ...(this.o.byHand ? [this.o.byHand] : []), why, questions);
    if (again) this.root.querySelector<HTMLElement>(again)?.focus();
    // Send keeps the keyboard's place: redrawn (disabled while sending) it lost the focus to the
    // page, and the next Tab started after the program, 32 presses from the replay's Skip. Once
    // the orders are in it has the focus again; once the turn is played, the next hand's first card.
    if (had?.classList.contains('send')) this.sendFocused = this.drawnTurn;
    else if (had) this.sendFocused = null;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (this.sendFocused !== null && lost) {
      const to = this.root.querySelector<HTMLElement>(this.sendFocused === this.turn ? '.send:not(:disabled)' : '.hand .card');
      to?.focus({ preventScroll: true });
      // (Not while the orders are on their way: the hand is inert then.)
      if (to && document.activeElement === to && this.sendFocused !== this.turn) this.sendFocused = null;
    }
    this.drawnTurn = this.turn;
    this.showRefusal();
  }

  /** The robot's options, Recompile, what Flywheel keeps, and the decisions the options give. */
  private optionsPart(): HTMLElement {
    const y = this.view.you;
    const held = heldNames(y.options);
    const keys = offered(y.choiceKeys, y.options, this.o.chopShop);
    const targets = this.view.robots.filter((x) => x.seat !== y.seat).flatMap((x) => x.options);
    const joins = ['Crab Legs', 'Dual Processor'].filter((o) => held.has(o));
    return h('div', { class: 'options' },
      // Each option as a card saying what it does (the engine's text for this rule set), named once.
      h('p', { class: 'held' }, y.options.length ? 'Your options:' : 'Your options: none'),
      y.options.length ? h('ul', { class: 'option-cards' }, ...y.options.map((o) => h('li', { class: 'option-card', 'data-option': optionName(o) },
        h('strong', {}, o.replace(/:(\d+)$/, ' ($1 left)')), h('span', {}, optionText(o, this.ruleSet) ?? '')))) : null,
      // pbem (001 L181): the upgrade each hammer site offers, as a card saying what it does (under
      // Secret Options "a secret option", with no text).
      this.view.offers?.length ? h('p', { class: 'held' }, 'On offer: a robot that ends the turn on a hammer site repairs two damage and takes its upgrade.') : null,
      this.view.offers?.length ? h('ul', { class: 'option-cards offers' }, ...this.view.offers.map((o) => h('li', { class: 'option-card offer-card', 'data-option': o.option },
        h('strong', {}, o.option), h('small', {}, ` at the hammer site ${o.x},${o.y}`), h('span', {}, optionText(o.option, this.ruleSet) ?? '')))) : null,
      y.flywheel ? h('p', { class: 'note' }, `Flywheel keeps ${cardWords(y.flywheel)}: it joins your hand at the next deal.`) : null,
      joins.length && y.needsProgram ? h('p', { class: 'note' }, `${joins.join(' and ')}: drop a rotation on a register holding a move to play both there (or focus it and press the register's number).`) : null,
      held.has('Recompile') && y.needsProgram ? h('p', { class: 'recompile-line' },
        h('button', { type: 'button', class: 'recompile', 'data-field': 'choices.recompile', disabled: y.recompiled, onclick: (e: Event) => void this.recompile(e.currentTarget as HTMLButtonElement) }, 'Recompile'),
        h('small', {}, y.recompiled ? ' recompiled this turn' : ' a new hand for damage; orders sent are withdrawn (default: keep this hand)')) : null,
      keys.length ? decisions({ keys, options: y.options, choices: this.choices, spare: this.inHand(), targets, set: (key, value) => {
        this.choices = { ...this.choices, [key]: value };
        if (value === undefined) delete this.choices[key];
        this.changed();
      } }) : null);
  }

  /**
   * The first turn, once the hand is dealt: the facing the robot starts with (002 L38-39), sent
   * with the orders; the board turns the robot to show it.
   */
  private startFacing(): HTMLElement | null {
    if (this.view.turn !== 1 || this.robot.status !== 'active') return null;
    return facingControl({
      name: 'start-facing', field: 'facing', legend: 'Your robot starts facing', current: this.form.facing ?? '', none: `as placed (${this.robot.dir})`,
      set: (dir) => {
        this.form = { ...this.form, facing: dir || null };
        this.o.facing?.(dir);
        this.changed();
      },
    });
  }

  /** How to come back if destroyed this turn (000 L216): the facing, and powered down or not. */
  private reentry(): HTMLElement {
    const re = this.form.reenter ?? {};
    const set = (next: { dir?: string; poweredDown?: boolean }) => {
      const merged = { ...re, ...next };
      if (!merged.dir) delete merged.dir;
      this.form = { ...this.form, reenter: merged.dir || merged.poweredDown ? merged : null };
      this.changed();
    };
    // Where is the rules' choice (000 L210-214, 001 L307-317): the archive, the last flag or repair site touched.
    const at = this.view.robots[this.view.you.seat]?.archive;
    return h('fieldset', { class: 'reentry', 'data-field': 'reenter' }, h('legend', {}, 'If destroyed this turn, re-enter'),
      at ? h('p', { class: 'note archive' }, `at ${at[0]},${at[1]}: the last flag or repair site it touched (its start before any)`) : null,
      facingControl({ name: 'reenter-facing', legend: 'facing', current: re.dir ?? '', none: 'as the rules choose', set: (dir) => set({ dir }) }),
      h('label', {}, h('input', { type: 'checkbox', name: 'reenter-down', checked: !!re.poweredDown, onchange: (e: Event) => set({ poweredDown: (e.target as HTMLInputElement).checked }) }), ' powered down (repairs its damage)'));
  }
}
