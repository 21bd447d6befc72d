/**
 * Choosing your robot on joining: the eight designs of render/src/robots.ts, each drawn with its
 * name; a design another seat races is taken (its player named); yours is pressed. Open while the
 * first turn is programmed (the server refuses a choice after it, or of a design taken meanwhile:
 * the refusal is shown under the designs).
 */
import { ROBOT_DESIGNS } from '../../render/src/browser.js';
import { h, type RaceView } from './api.js';
import { robotIcon } from './seats-view.js';

export interface Choosing {
  /** Sends the choice; resolves with the server's refusal, or null when it was taken. */
  readonly choose: (robot: number) => Promise<{ field: string; message: string } | null>;
}

/** Whether a seat may still choose its robot: before the first turn is played. */
export const choosing = (view: RaceView): boolean => view.status === 'running' && view.turn === 1 && view.phase === 'programming';

export function robotPicker(root: HTMLElement, view: RaceView, seat: number, o: Choosing): void {
  if (!choosing(view)) return root.replaceChildren();
  const mine = view.seats[seat]?.robot ?? seat;
  const note = h('p', { class: 'note pick-note', 'aria-live': 'polite' });
  const buttons = ROBOT_DESIGNS.map((d, k) => {
    const holder = view.seats.find((s) => s.seat !== seat && (s.robot ?? s.seat) === k);
    return h('button', {
      type: 'button', class: 'pick', 'data-robot': k, 'aria-pressed': String(k === mine), disabled: !!holder,
      title: holder ? `${d.name}: ${holder.name === d.name ? 'taken' : `${holder.name} races it`}` : d.name,
      onclick: async (e: Event) => {
        if (k === mine) return;
        (e.currentTarget as HTMLButtonElement).disabled = true;
        const refusal = await o.choose(k);
        if (refusal) {
          note.textContent = `Refused: ${refusal.field}: ${refusal.message}`;
          note.classList.add('error');
          (e.currentTarget as HTMLButtonElement).disabled = false;
        }
      },
    }, robotIcon(k, k), h('span', {}, d.name), holder ? h('small', {}, holder.name === d.name ? 'taken' : holder.name) : null);
  });
  root.replaceChildren(h('h2', {}, 'Your robot'), h('div', { class: 'picks', role: 'group', 'aria-label': 'Choose your robot' }, ...buttons), note);
}
