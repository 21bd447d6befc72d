/**
 * A step of the replay played on the board with the Web Animations API, beat after beat
 * (web/src/timeline.ts): robots glide square by square and turn; pushed or carried ones glow
 * green; they fall into pits and off the edge; hit, they blink; beams are drawn as they fire;
 * pushers, gears and crushers move as they act; a flag touched lights up. The board is the
 * renderer's picture of the robots as the step begins; its robots' groups are moved in place.
 * Pausing pauses the animations themselves, so a step can be stopped anywhere in a glide.
 */
import type { Board } from '../../engine/src/index.js';
import type { BoardView } from './board.js';
import { actionMs } from './pace.js';
import type { Step } from './steps.js';
import type { Beat, Cell } from './timeline.js';

const SVG = 'http://www.w3.org/2000/svg';
const DX = [0, 1, 0, -1] as const;
const DY = [-1, 0, 1, 0] as const;
const SIDE = ['N', 'E', 'S', 'W'];

const PUSHED_GLOW = 'drop-shadow(0 0 5px #43a047)';

interface Sprite {
  readonly el: SVGGElement;
  x: number;
  y: number;
  readonly scale: number;
  angle: number;
}

export class Animator {
  private animations: Animation[] = [];
  private paused = false;
  private token = 0;

  constructor(private readonly view: BoardView, private readonly board: Board) {}

  /**
   * Plays the step's beats over the board as drawn; `onBeat` is told each beat as it begins and
   * ends. Resolves true at the end, false if cancelled meanwhile.
   */
  async play(step: Step, speed: number, onBeat: (beat: number, done: boolean, b: Beat) => void): Promise<boolean> {
    const token = ++this.token;
    const svg = this.view.svg();
    if (!svg) return true;
    const f = this.view.frame();
    const centre = (p: Cell): [number, number] => [f.ox + (p[0] + 0.5) * f.c, f.oy + (p[1] + 0.5) * f.c];
    const sprites = new Map<number, Sprite>();
    for (const el of svg.querySelectorAll<SVGGElement>('g.robot')) {
      const m = /translate\(([-\d.]+) ([-\d.]+)\)(?: scale\(([\d.]+)\))?/.exec(el.getAttribute('transform') ?? '');
      if (!m) continue;
      sprites.set(Number(el.dataset.robot), { el, x: Number(m[1]), y: Number(m[2]), scale: Number(m[3] ?? 1), angle: SIDE.indexOf(el.dataset.dir ?? 'N') * 90 });
    }
    const layer = document.createElementNS(SVG, 'g');
    layer.setAttribute('class', 'anim');
    svg.append(layer);
    const place = (s: Sprite, extra = '') => `translate(${s.x}px, ${s.y}px) scale(${s.scale})${extra}`;
    for (const [k, beat] of step.beats.entries()) {
      if (token !== this.token) return false;
      onBeat(k, false, beat);
      const started: Animation[] = [];
      const go = (el: Element, frames: Keyframe[], ms: number, extra: KeyframeAnimationOptions = {}) => {
        const a = el.animate(frames, { duration: ms / speed, fill: 'forwards', easing: 'ease-in-out', ...extra });
        if (this.paused) a.pause();
        started.push(a);
        this.animations.push(a);
        return a;
      };
      for (const a of beat.actions) {
        const ms = actionMs(a);
        const s = 'robot' in a ? sprites.get(a.robot) : undefined;
        switch (a.kind) {
          case 'move': {
            if (!s) break;
            const from = place(s);
            [s.x, s.y] = centre(a.to);
            // A teleport, or a fold of a cube crossed: gone from one square, there on the other (no glide across the floor between).
            if (a.how === 'teleported' || a.across) go(s.el, [{ transform: from, opacity: 1 }, { transform: from, opacity: 0, offset: 0.5 }, { transform: place(s), opacity: 0, offset: 0.5 }, { transform: place(s), opacity: 1 }], ms);
            else if (a.how === 'programmed') go(s.el, [{ transform: from }, { transform: place(s) }], ms);
            else go(s.el, [{ transform: from, filter: 'none' }, { transform: place(s), filter: PUSHED_GLOW, offset: 0.7 }, { transform: place(s), filter: 'none' }], ms);
            break;
          }
          case 'turn': {
            const body = s?.el.querySelector('g.body');
            if (!s || !body) break;
            const from = s.angle;
            s.angle += a.quarter * 90;
            go(body, [{ transform: `rotate(${from}deg)` }, { transform: `rotate(${s.angle}deg)` }], ms);
            break;
          }
          case 'fall':
            if (s) go(s.el, [{ transform: place(s), opacity: 1 }, { transform: place(s, ' scale(0.1) rotate(200deg)'), opacity: 0 }], ms, { easing: 'ease-in' });
            break;
          case 'wreck':
            if (s) go(s.el, [{ opacity: 1, filter: 'none' }, { opacity: 0.3, filter: 'drop-shadow(0 0 6px #d50000)' }, { opacity: 1 }, { opacity: 0 }], ms);
            break;
          case 'hit':
            if (s) go(s.el, [{ opacity: 1, filter: 'none' }, { opacity: 0.25, filter: 'drop-shadow(0 0 6px #d50000)' }, { opacity: 1 }, { opacity: 0.25 }, { opacity: 1, filter: 'none' }], ms);
            break;
          case 'beam': {
            const [x1, y1] = centre(a.from);
            const [x2, y2] = centre(a.to);
            const len = Math.hypot(x2 - x1, y2 - y1) || 1;
            const line = document.createElementNS(SVG, 'line');
            for (const [k2, v] of Object.entries({ x1, y1, x2, y2, stroke: '#ff1744', 'stroke-width': Math.max(2, f.c * 0.07), 'stroke-linecap': 'round', 'stroke-dasharray': String(len), class: 'beam-fired', 'data-robot': String(a.robot) }))
              line.setAttribute(k2, String(v));
            layer.append(line);
            go(line, [{ strokeDashoffset: len, opacity: 1 }, { strokeDashoffset: 0, opacity: 1, offset: 0.45 }, { strokeDashoffset: 0, opacity: 0.9, offset: 0.8 }, { strokeDashoffset: 0, opacity: 0 }], ms, { easing: 'linear' });
            break;
          }
          case 'flag': {
            const flag = svg.querySelector(`[data-kind="flag"][data-flag="${a.flag}"]`);
            if (flag) go(flag, [{ filter: 'none' }, { filter: 'drop-shadow(0 0 8px #ffd600) brightness(1.3)' }], ms);
            flag?.classList.add('lit');
            break;
          }
          case 'enter':
            if (s) go(s.el, [{ opacity: 0 }, { opacity: 1 }], ms);
            break;
          case 'element': {
            if (a.element === 'pusher') {
              const p = this.board.pushers[a.pusher];
              const el = svg.querySelector(`[data-kind="pusher"][data-pusher="${a.pusher}"]`);
              if (!p || !el) break;
              const [x, y] = [f.ox + p.x * f.c, f.oy + p.y * f.c];
              const out = f.c * 0.3;
              go(el, [{ transform: `translate(${x}px, ${y}px)` }, { transform: `translate(${x + DX[p.dir]! * out}px, ${y + DY[p.dir]! * out}px)`, offset: 0.4 }, { transform: `translate(${x}px, ${y}px)` }], ms);
            } else {
              const el = svg.querySelector(`[data-kind="${a.element}"][data-x="${a.at[0]}"][data-y="${a.at[1]}"]`);
              if (!el) break;
              const [x, y] = [f.ox + a.at[0] * f.c, f.oy + a.at[1] * f.c];
              (el as SVGGElement).style.transformOrigin = `${f.c / 2}px ${f.c / 2}px`;
              const base = `translate(${x}px, ${y}px)`;
              if (a.element === 'gear') go(el, [{ transform: base }, { transform: `${base} rotate(${el.getAttribute('data-turn') === '-' ? -90 : 90}deg)` }], ms, { fill: 'none' });
              else go(el, [{ transform: base }, { transform: `${base} scale(0.75)`, offset: 0.5 }, { transform: base }], ms, { fill: 'none' });
            }
            break;
          }
        }
      }
      // The beat ends when its animations have (a paused one waits).
      await Promise.all(started.map((a) => a.finished.catch(() => undefined)));
      if (token !== this.token) return false;
      onBeat(k, true, beat);
    }
    return token === this.token;
  }

  /** Stops what is playing; the caller draws what should be seen instead. */
  cancel(): void {
    this.token++;
    for (const a of this.animations) a.cancel();
    this.animations = [];
  }

  pause(): void {
    this.paused = true;
    for (const a of this.animations) if (a.playState === 'running') a.pause();
  }

  resume(): void {
    this.paused = false;
    for (const a of this.animations) if (a.playState === 'paused') a.play();
  }

  get isPaused(): boolean {
    return this.paused;
  }
}

/** The user's wish for less motion: the page's setting if given, else the system's. */
export function reducedMotion(): boolean {
  const set = localStorage.getItem('roborally.motion');
  if (set === 'reduced') return true;
  if (set === 'full') return false;
  return matchMedia('(prefers-reduced-motion: reduce)').matches;
}
