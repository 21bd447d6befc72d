/**
 * A few helpers for writing SVG as text: numbers with at most two decimals (never `-0`), escaped
 * text, and elements whose attributes keep the order they are given in. Same input, same bytes.
 */

/** A number as SVG writes it: rounded to two decimals, no trailing zeros, never `-0`. */
export function fmt(n: number): string {
  const r = Math.round(n * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export type Attrs = Readonly<Record<string, string | number | undefined | null | false>>;

function attrs(a: Attrs): string {
  let s = '';
  for (const [k, v] of Object.entries(a)) {
    if (v === undefined || v === null || v === false) continue;
    s += ` ${k}="${typeof v === 'number' ? fmt(v) : esc(v)}"`;
  }
  return s;
}

/** An element; with no children it closes itself. Children are already SVG text. */
export function el(name: string, a: Attrs, ...children: readonly string[]): string {
  const inner = children.filter((c) => c !== '').join('');
  return inner === '' ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${inner}</${name}>`;
}

/** A text element (the text is escaped). */
export function text(s: string, a: Attrs): string {
  return `<text${attrs(a)}>${esc(s)}</text>`;
}

/** Points of a polygon or polyline. */
export const pts = (p: readonly (readonly [number, number])[]): string => p.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(' ');

/** `translate(x y)`, left out when it moves nothing. */
export const translate = (x: number, y: number): string | undefined =>
  x === 0 && y === 0 ? undefined : `translate(${fmt(x)} ${fmt(y)})`;

/** Turns a drawing made for north (up) to face `dir` (0 N, 1 E, 2 S, 3 W) about (cx, cy). */
export const rotate = (dir: number, cx: number, cy: number): string | undefined =>
  dir % 4 === 0 ? undefined : `rotate(${(dir % 4) * 90} ${fmt(cx)} ${fmt(cy)})`;

/** Several transforms, the defined ones, in order. */
export const transforms = (...t: (string | undefined)[]): string | undefined => {
  const s = t.filter((x) => x !== undefined).join(' ');
  return s === '' ? undefined : s;
};
