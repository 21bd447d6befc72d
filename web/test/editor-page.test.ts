/**
 * The course editor's page in Debian's chromium (playwright-core): the floor dragged (it pans and
 * places nothing) and zoomed (a mark placed keeps the view), a course file uploaded (and files that
 * are not one refused, saying where), and the whole editor on a 390×844 touch phone, raced from
 * there. Screenshots go to test-output/web/ (look at them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { call } from '../../server/src/testing.js';
import { browser, server, SHOTS, skip, useBrowser } from './browser.js';

useBrowser();

/** The editor, ready; it fails the test on any script error. */
async function openEditor(ctx: BrowserContext): Promise<Page> {
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('close', () => assert.deepEqual(errors, [], 'script errors on the editor'));
  await page.goto(`${server.base}/editor`);
  await page.waitForSelector('body[data-ready] #board svg');
  return page;
}

/** Where square (x, y) of the floor is on the screen now (the picture is titled: its squares start below the title). */
async function squareAt(page: Page, x: number, y: number): Promise<[number, number]> {
  await page.locator('#board').scrollIntoViewIfNeeded();
  return await page.evaluate(`(() => {
    const svg = document.querySelector('#board svg');
    const c = Number(svg.getAttribute('data-cell'));
    const ox = Math.round(c * 0.6), oy = Math.round(c * 0.75) + Math.round(c * 0.6);
    const p = new DOMPoint(ox + (${x} + 0.5) * c, oy + (${y} + 0.5) * c).matrixTransform(svg.getScreenCTM());
    return [p.x, p.y];
  })()`) as [number, number];
}

const file = async (page: Page) => JSON.parse(await page.locator('#json').inputValue()) as { name: string; flags: number[][]; start: number[] | null };
const transform = (page: Page) => page.locator('#board .canvas').getAttribute('style').then((s) => /transform:([^;]*)/.exec(s ?? '')?.[1]?.trim() ?? '');

/** Taps (or clicks) square (x, y) and waits for the course file to change. */
async function place(page: Page, x: number, y: number, touch: boolean): Promise<void> {
  const before = await page.locator('#json').inputValue();
  const [px, py] = await squareAt(page, x, y);
  if (touch) await page.touchscreen.tap(px, py);
  else await page.mouse.click(px, py);
  await page.waitForFunction(`document.querySelector('#json').value !== ${JSON.stringify(before)}`);
}

test('[desktop] dragging the floor pans it and places nothing; zoomed in, a flag placed keeps the view; a click places it', { skip }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  try {
    const page = await openEditor(ctx);
    const json = await page.locator('#json').inputValue();
    const fitted = await transform(page);
    // A drag across the floor: the floor moves with the mouse, and no mark is placed.
    const [x0, y0] = await squareAt(page, 5, 5);
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    for (let k = 1; k <= 6; k++) await page.mouse.move(x0 + 20 * k, y0 + 8 * k);
    await page.mouse.up();
    const panned = await transform(page);
    assert.notEqual(panned, fitted, 'the floor moved');
    assert.match(panned, /translate\(/);
    assert.equal(await page.locator('#json').inputValue(), json, 'a drag places nothing');
    // Zoomed in, then a flag placed by a click: the view stays as it was (zoomed, panned).
    await page.click('#zoom button[aria-label="Zoom in"]');
    const zoomed = await transform(page);
    await place(page, 9, 3, false);
    assert.deepEqual((await file(page)).flags, [[9, 3]]);
    assert.equal(await transform(page), zoomed, 'placing a mark keeps the zoom and the pan');
    await page.screenshot({ path: `${SHOTS}editor-zoomed.png` });
    // Fit again: the whole floor.
    await page.click('#zoom button[aria-label="Fit the course"]');
    assert.notEqual(await transform(page), zoomed);
  } finally {
    await ctx.close();
  }
});

test('[desktop] a course file uploaded is read into the editor and checked; a file that is not one is refused saying where, the course kept', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'roborally-editor-'));
  const good = { name: 'Uploaded Hop', description: 'from a file', players: [1, 4], complexity: 'easy', time: 'short', boards: [{ board: 'atoll', x: 0, y: 0, rotation: 0 }], flags: [[9, 3], [5, 6]], start: [10, 10] };
  writeFileSync(join(dir, 'hop.json'), JSON.stringify(good, null, 2));
  writeFileSync(join(dir, 'broken.json'), '{\n  "name": "Broken",\n  "players" [1, 4]\n}\n');
  writeFileSync(join(dir, 'odd.json'), JSON.stringify({ ...good, name: 'Odd', flagz: [] }));
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  try {
    const page = await openEditor(ctx);
    await page.setInputFiles('#upload', join(dir, 'hop.json'));
    await page.waitForFunction('document.querySelector(\'input[name="name"]\').value === "Uploaded Hop"');
    const read = await file(page);
    assert.deepEqual([read.flags, read.start], [[[9, 3], [5, 6]], [10, 10]]);
    await page.waitForSelector('#race:not([disabled])');
    assert.equal(await page.locator('#problems li').count(), 0);
    assert.equal(await page.textContent('#file-error'), '');
    // Not JSON: the error says where (line and column); the course stays as it was.
    await page.setInputFiles('#upload', join(dir, 'broken.json'));
    await page.waitForSelector('#file-error:not(:empty)');
    const broken = (await page.textContent('#file-error'))!;
    assert.match(broken, /^broken\.json is not JSON: .*line 3,? column \d+/, broken);
    assert.equal((await file(page)).name, 'Uploaded Hop');
    // JSON with a key a course has not: refused, naming it.
    await page.setInputFiles('#upload', join(dir, 'odd.json'));
    await page.waitForFunction('/flagz/.test(document.querySelector("#file-error").textContent)');
    assert.match((await page.textContent('#file-error'))!, /^odd\.json is not a course file: flagz: unknown field/);
    assert.equal((await file(page)).name, 'Uploaded Hop');
    await page.screenshot({ path: `${SHOTS}editor-upload.png` });
  } finally {
    await ctx.close();
  }
});

test('[phone] on a 390×844 touch screen the editor fits the width, taps place the flags and the start, and the course is raced from there', { skip }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  try {
    const page = await openEditor(ctx);
    assert.ok(await page.evaluate('document.documentElement.scrollWidth <= 390'), 'nothing wider than the screen');
    const box = (await page.locator('#board svg').boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.width > 300, `the floor fills the width (${box.x}, ${box.width})`);
    await page.screenshot({ path: `${SHOTS}editor-phone.png` });
    for (const [x, y] of [[9, 3], [5, 6]] as const) await place(page, x, y, true);
    await page.tap('input[name="tool"][value="start"]');
    await place(page, 10, 10, true);
    const f = await file(page);
    assert.deepEqual([f.flags, f.start], [[[9, 3], [5, 6]], [10, 10]]);
    await page.waitForSelector('#race:not([disabled])');
    await page.screenshot({ path: `${SHOTS}editor-phone-placed.png` });
    await page.fill('#bots', '1');
    await page.tap('#race');
    await page.waitForURL(/\/race\/[\w-]+\?seat=0&token=/);
    await page.waitForSelector('body[data-ready] #board svg');
    const id = new URL(page.url()).pathname.split('/')[2]!;
    assert.deepEqual((await call(server.base, 'GET', `/api/races/${id}/course`)).body.file.flags, [[9, 3], [5, 6]]);
    await page.screenshot({ path: `${SHOTS}editor-phone-race.png` });
  } finally {
    await ctx.close();
  }
});
