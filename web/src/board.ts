/**
 * The course on screen: an SVG from the shared renderer in a viewport that zooms (wheel, pinch,
 * buttons, + and - keys) and pans (drag with a mouse or a finger, arrow keys). It starts fitted to
 * the width, so a phone shows the whole floor and zooms in from there.
 */
import type { Board, GameEvent } from '../../engine/src/index.js';
import { boardFrame, renderSvg, type FloorState } from '../../render/src/browser.js';
import { h } from './api.js';

export class BoardView {
  private readonly canvas: HTMLElement;
  private scale = 1;
  private x = 0;
  private y = 0;
  private fitted = true;
  private size = { w: 1, h: 1 };
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private titled = false;

  /** The zoom buttons go in `tools`, beside the board, so they never cover it. */
  constructor(private readonly viewport: HTMLElement, private board: Board, toolsHost?: HTMLElement) {
    this.canvas = h('div', { class: 'canvas' });
    const zoom = (f: number) => () => this.zoomBy(f, viewport.clientWidth / 2, viewport.clientHeight / 2);
    const tools = h('span', { class: 'zoom-buttons' },
      h('button', { type: 'button', 'aria-label': 'Zoom in', onclick: zoom(1.25) }, '+'),
      h('button', { type: 'button', 'aria-label': 'Zoom out', onclick: zoom(0.8) }, '−'),
      h('button', { type: 'button', 'aria-label': 'Fit the course', onclick: () => this.fit() }, 'Fit'));
    viewport.replaceChildren(this.canvas);
    if (toolsHost) toolsHost.replaceChildren(tools);
    else viewport.append(tools);
    viewport.tabIndex = 0;
    viewport.setAttribute('aria-label', 'The course: drag to pan, wheel or pinch to zoom; arrow keys pan, + and - zoom');
    viewport.addEventListener('wheel', (e) => {
      e.preventDefault();
      const r = viewport.getBoundingClientRect();
      this.zoomBy(e.deltaY < 0 ? 1.1 : 1 / 1.1, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    viewport.addEventListener('pointerdown', (e) => {
      if ((e.target as Element).closest('.zoom')) return;
      viewport.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    });
    viewport.addEventListener('pointermove', (e) => this.move(e));
    const up = (e: PointerEvent) => this.pointers.delete(e.pointerId);
    viewport.addEventListener('pointerup', up);
    viewport.addEventListener('pointercancel', up);
    viewport.addEventListener('keydown', (e) => {
      const step = 40;
      const keys: Record<string, () => void> = {
        ArrowLeft: () => this.panBy(step, 0), ArrowRight: () => this.panBy(-step, 0),
        ArrowUp: () => this.panBy(0, step), ArrowDown: () => this.panBy(0, -step),
        '+': zoom(1.25), '=': zoom(1.25), '-': zoom(0.8), '0': () => this.fit(),
      };
      const k = keys[e.key];
      if (k) {
        e.preventDefault();
        k();
      }
    });
    // A change of size (a turned phone, a resized window, the room a replay's panel takes) fits the course again.
    let [width, height] = [viewport.clientWidth, viewport.clientHeight];
    new ResizeObserver(() => {
      if (viewport.clientWidth === width && viewport.clientHeight === height) return;
      [width, height] = [viewport.clientWidth, viewport.clientHeight];
      if (this.fitted) this.fit();
    }).observe(viewport);
  }

  /** Another floor of the same size (the course editor's draft changed): drawn next, the zoom and the pan kept. */
  setBoard(board: Board): void {
    this.board = board;
  }

  /** Draws the floor with these robots and, over them, these events' arrows, shots and destructions. */
  draw(state: FloorState, events?: readonly GameEvent[], title?: string): void {
    this.titled = Boolean(title);
    // The robots' legend is the page's table, beside the board.
    this.canvas.innerHTML = renderSvg(this.board, { state, robotLegend: false, ...(events ? { events } : {}), ...(title ? { title } : {}) });
    const svg = this.canvas.firstElementChild as SVGSVGElement;
    this.size = { w: Number(svg.getAttribute('width')), h: Number(svg.getAttribute('height')) };
    if (this.fitted) this.fit();
  }

  /** The picture drawn last. */
  svg(): SVGSVGElement | null {
    return this.canvas.querySelector('svg');
  }

  /** Where the squares are in the picture drawn last: square (x, y) starts at ox + x·c, oy + y·c. */
  frame(): { ox: number; oy: number; c: number } {
    return boardFrame(this.board, this.titled ? { title: 'x' } : {});
  }

  private move(e: PointerEvent): void {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    if (this.pointers.size === 2) {
      // Pinch: the change of the distance between the two fingers.
      const [a, b] = [...this.pointers.values()];
      const before = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      p.x = e.clientX;
      p.y = e.clientY;
      const after = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      const r = this.viewport.getBoundingClientRect();
      if (before > 0) this.zoomBy(after / before, (a!.x + b!.x) / 2 - r.left, (a!.y + b!.y) / 2 - r.top);
      return;
    }
    this.panBy(e.clientX - p.x, e.clientY - p.y);
    p.x = e.clientX;
    p.y = e.clientY;
  }

  private panBy(dx: number, dy: number): void {
    this.fitted = false;
    this.x += dx;
    this.y += dy;
    this.apply();
  }

  private zoomBy(f: number, cx: number, cy: number): void {
    const s = Math.min(6, Math.max(0.15, this.scale * f));
    // The point under (cx, cy) stays there.
    this.x = cx - ((cx - this.x) * s) / this.scale;
    this.y = cy - ((cy - this.y) * s) / this.scale;
    this.scale = s;
    this.fitted = false;
    this.apply();
  }

  /** The whole course in view, as wide as the viewport allows; the viewport no taller than the course. */
  fit(): void {
    this.viewport.style.height = '';
    const w = this.viewport.clientWidth || this.size.w;
    this.scale = Math.min(w / this.size.w, Math.max(this.viewport.clientHeight, 240) / this.size.h, 1.5);
    this.viewport.style.height = `${Math.ceil(this.size.h * this.scale)}px`;
    this.x = (w - this.size.w * this.scale) / 2;
    this.y = 0;
    this.fitted = true;
    this.apply();
  }

  private apply(): void {
    this.canvas.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
  }
}
