import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { board, ELEMENTS_JSON, turnExample } from './fixtures.js';
import { FONT_FILES, fontDir, renderPng } from './png.js';
import { renderSvg } from './render.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Width and height from the IHDR chunk, which follows the signature. */
const size = (png: Uint8Array): [number, number] => {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [v.getUint32(16), v.getUint32(20)];
};

test('renderPng gives a PNG of the requested width, the height in proportion', () => {
  const svg = renderSvg(board(ELEMENTS_JSON), { title: 'Every element', legend: true });
  const png = renderPng(svg, { width: 400 });
  assert.deepEqual([...png.subarray(0, 8)], SIGNATURE);
  const [w, h] = size(png);
  assert.equal(w, 400);
  const sw = Number(/width="(\d+)"/.exec(svg)![1]), sh = Number(/height="(\d+)"/.exec(svg)![1]);
  assert.ok(Math.abs(h - (400 * sh) / sw) <= 1, `height ${h}`);
});

test('without a width the PNG is the SVG size', () => {
  const t = turnExample();
  const svg = renderSvg(t.board, { state: t.state, events: t.events });
  const png = renderPng(svg);
  assert.deepEqual([...png.subarray(0, 8)], SIGNATURE);
  assert.deepEqual(size(png), [Number(/width="(\d+)"/.exec(svg)![1]), Number(/height="(\d+)"/.exec(svg)![1])]);
});

test('the PNG uses the shipped fonts only, and is the same every time', () => {
  for (const f of FONT_FILES) assert.ok(existsSync(fontDir() + f), f);
  const svg = renderSvg(board({ grid: ['. .'] }), { title: 'Text' });
  const a = renderPng(svg, { width: 200 });
  assert.deepEqual(renderPng(svg, { width: 200 }), a);
  // Text is drawn: the picture with a title differs from the one without.
  assert.notDeepEqual(renderPng(renderSvg(board({ grid: ['. .'] }), { title: 'Other' }), { width: 200 }), a);
});

test('pictures cut down to a corner still render (resvg aborts on a see-through layer wholly off the canvas)', () => {
  const t = turnExample();
  const svg = renderSvg(board(ELEMENTS_JSON), { legend: true, state: t.state, events: t.events });
  // Only the board's top-left corner: the legend, robots and arrows fall outside.
  const corner = svg.replace(/width="\d+" height="\d+" viewBox="[^"]+"/, 'width="100" height="100" viewBox="0 0 100 100"');
  assert.deepEqual([...renderPng(corner).subarray(0, 8)], SIGNATURE);
  // The way it is kept safe: no element or group carries `opacity` (fill- and stroke-opacity only).
  assert.doesNotMatch(svg, / opacity="/);
});
