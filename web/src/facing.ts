/**
 * A compass of the four facings, as buttons (one pressed), and a default beside them: the robot's
 * starting facing, chosen once the first hand is dealt (002 L38-39; 000 L56 "Players may choose
 * the direction their robots will initially face"), and the facing a destroyed robot re-enters
 * with (000 L216).
 */
import { h } from './api.js';

export const FACINGS = ['N', 'E', 'S', 'W'] as const;
const WORDS: Record<string, string> = { N: 'north', E: 'east', S: 'south', W: 'west' };
const ARROWS: Record<string, string> = { N: '↑', E: '→', S: '↓', W: '←' };

/**
 * `current`: the facing chosen, or '' for the default (`none` says what that is); `set` is called
 * with the facing pressed ('' for the default). Each button says its facing to a screen reader.
 */
export function facingControl(o: { name: string; legend: string; current: string; none: string; field?: string; set: (dir: string) => void }): HTMLElement {
  const button = (dir: string) => h('button', {
    type: 'button', class: `facing facing-${dir || 'default'}`, 'data-dir': dir, 'aria-pressed': String(o.current === dir),
    'aria-label': dir ? `face ${WORDS[dir]}` : o.none, title: dir ? WORDS[dir]! : o.none,
    onclick: () => o.set(dir),
  }, dir ? `${ARROWS[dir]} ${dir}` : o.none);
  return h('fieldset', { class: `compass ${o.name}`, ...(o.field ? { 'data-field': o.field } : {}) }, h('legend', {}, o.legend),
    h('span', { class: 'compass-buttons' }, ...FACINGS.map(button)), button(''));
}
