/**
 * `renderSvg`: a standalone SVG picture of a factory floor, with the robots of a state and the
 * moves of a turn over it. Deterministic: the same board, state and events give the same bytes
 * (no random ids, no dates; numbers rounded to two decimals).
 */
import type { Board, GameEvent } from '../../engine/src/index.js';
import {
  beamsLayer, cellsLayer, coordinatesLayer, crushersLayer, flagsLayer, ledgesLayer, mountsLayer, startLayer, wallsLayer, type Frame,
} from './floor.js';
import { legend, legendEntry } from './legend.js';
import { overlayLayer, robotsLayer, type FloorState } from './overlay.js';
import { robotLegend } from './robots.js';
import { el, esc, fmt, text } from './svg.js';
import { COLORS as K, DEFAULT_CELL, FONT_FAMILY } from './theme.js';

export interface RenderOptions {
  /** Robots to draw: the active ones, where they stand (a `GameState`, or the public view of one). */
  readonly state?: FloorState;
  /** The events of one turn: moves as arrows (blue programmed, green pushed or carried), shots, destructions. */
  readonly events?: readonly GameEvent[];
  /** Cell size in pixels (default 56). */
  readonly cell?: number;
  /** A title above the board. */
  readonly title?: string;
  /** A legend under the board naming every kind of element (default false). */
  readonly legend?: boolean;
  /** Column and row numbers around the board (default true). */
  readonly coordinates?: boolean;
  /** With robots: a legend under the board showing each robot with its player's name (default true). */
  readonly robotLegend?: boolean;
}

/** The gradient pits use; a fixed id, so a page holding several pictures shares them harmlessly. */
const DEFS =
  '<defs>' +
  '<radialGradient id="rr-pit" cx="0.5" cy="0.5" r="0.6"><stop offset="0" stop-color="#000000"/><stop offset="0.65" stop-color="#0b0b0b"/><stop offset="1" stop-color="#3a3a3a"/></radialGradient>' +
  '</defs>';

/**
 * Where square (0, 0) of the board starts in a picture drawn with these options, and the cell
 * size: a square (x, y) spans ox + x·c … ox + (x + 1)·c. The web's replay moves robots by it.
 */
export function boardFrame(board: Board, options: Pick<RenderOptions, 'cell' | 'title' | 'legend'> = {}): { ox: number; oy: number; c: number } {
  const c = Math.max(8, Math.round(options.cell ?? DEFAULT_CELL));
  const margin = Math.round(c * 0.6);
  const titleH = options.title ? Math.round(c * 0.75) : 0;
  let width = board.width * c + 2 * margin;
  if (options.legend) {
    const e = legendEntry(c);
    width = Math.max(width, Math.max(2, Math.floor((width - 2 * margin) / e.width)) * e.width + 2 * margin);
  }
  return { ox: Math.round((width - board.width * c) / 2), oy: titleH + margin, c };
}

export function renderSvg(board: Board, options: RenderOptions = {}): string {
  const c = Math.max(8, Math.round(options.cell ?? DEFAULT_CELL));
  const margin = Math.round(c * 0.6);
  const titleH = options.title ? Math.round(c * 0.75) : 0;
  const bw = board.width * c, bh = board.height * c;
  let width = bw + 2 * margin;
  let columns = 0;
  if (options.legend) {
    const e = legendEntry(c);
    columns = Math.max(2, Math.floor((width - 2 * margin) / e.width));
    width = Math.max(width, columns * e.width + 2 * margin);
  }
  const f: Frame = { ox: Math.round((width - bw) / 2), oy: titleH + margin, c };
  const boardBottom = f.oy + bh + margin;
  const robotsShown = options.state && (options.robotLegend ?? true) ? options.state.robots : [];
  const robots = robotsShown.length ? robotLegend(c, robotsShown, width, margin, boardBottom) : null;
  const legendTop = boardBottom + (robots ? robots.height + Math.round(c * 0.3) : 0);
  const leg = options.legend ? legend(c, columns, margin, legendTop) : null;
  const height = legendTop + (leg ? leg.height + Math.round(c * 0.3) : 0);

  const parts: string[] = [
    DEFS,
    el('rect', { x: 0, y: 0, width, height, fill: K.background }),
  ];
  if (options.title) {
    parts.push(`<title>${esc(options.title)}</title>`);
    parts.push(text(options.title, { x: width / 2, y: titleH * 0.55 + c * 0.32 * 0.36, 'font-size': Math.round(c * 0.32), 'font-weight': 'bold', 'text-anchor': 'middle', fill: K.ink }));
  }
  parts.push(
    cellsLayer(board, f),
    ledgesLayer(board, f),
    startLayer(board, f),
    beamsLayer(board, f),
    crushersLayer(board, f),
    flagsLayer(board, f),
    wallsLayer(board, f),
    mountsLayer(board, f),
  );
  if (options.coordinates ?? true) parts.push(coordinatesLayer(board, f));
  if (options.events) parts.push(overlayLayer(board, options.events, options.state, f));
  if (options.state) parts.push(robotsLayer(options.state, f));
  if (robots) parts.push(robots.svg);
  if (leg) parts.push(leg.svg);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${fmt(width)}" height="${fmt(height)}" viewBox="0 0 ${fmt(width)} ${fmt(height)}" ` +
    `font-family="${esc(FONT_FAMILY)}" data-board="${board.width}x${board.height}" data-cell="${c}">\n` +
    parts.filter((p) => p !== '').join('\n') +
    '\n</svg>\n'
  );
}
