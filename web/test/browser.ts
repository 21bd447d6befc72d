/**
 * What the web client's browser tests share: Debian's chromium (playwright-core; the tests skip,
 * saying why, where it is not installed), the race server it talks to, the screen sizes and where
 * screenshots go. A test file calls `useBrowser()` once; `server` and `browser` are set before its
 * tests run and closed after them.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createSeated, freshDb, startServer, TestClock, type TestServer } from '../../server/src/testing.js';
import { bundle } from '../build/bundle.js';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const skip = existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM}: install it (apt-get install chromium) to run the web client's tests`;
export const SHOTS = fileURLToPath(new URL('../../../test-output/web/', import.meta.url));
export const DESKTOP = { viewport: { width: 1366, height: 900 } };
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export let server: TestServer;
export let browser: Browser;

/**
 * Starts the server and chromium before the file's tests and closes them after. The server's clock
 * stands at the browser's time, so a countdown reads true; it never moves on its own, so no deadline
 * passes during a test: turns are played when every person has sent. `rateLimit` replaces the
 * server's default request limit, `stream` its streams' limits.
 */
export function useBrowser(rateLimit?: { max: number; windowMs: number }, stream?: Parameters<typeof startServer>[3]): void {
  before(async () => {
    if (skip) return;
    mkdirSync(SHOTS, { recursive: true });
    // The pages load the bundles of what was compiled last.
    await bundle();
    server = await startServer((await freshDb('sqlite')).db, new TestClock(Date.now()), rateLimit, stream);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

/**
 * A tap as a person makes it on a phone's race page: the control scrolled to just under the board
 * (which stays at the top of the screen, the program's bar at its bottom), then tapped. Playwright
 * alone scrolls it to an edge of the screen, under one or the other.
 */
export async function tapInView(page: Page, selector: string): Promise<void> {
  // Run in the page (this file is compiled without the DOM's types).
  await page.locator(selector).first().evaluate((e: { getBoundingClientRect(): { top: number } }) => {
    const w = globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): { height: number } } | null }; getComputedStyle(e: unknown): { position: string }; scrollBy(o: object): void };
    const floor = w.document.querySelector('.floor');
    const below = floor && w.getComputedStyle(floor).position === 'sticky' ? floor.getBoundingClientRect().height : 0;
    w.scrollBy({ top: e.getBoundingClientRect().top - below - 16, behavior: 'instant' });
  });
  await page.tap(selector);
}

/** A seat's page (or the spectators'), ready; it fails the test on any script error. */
export async function openReady(ctx: BrowserContext, path: string): Promise<Page> {
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('close', () => assert.deepEqual(errors, [], `script errors on ${path}`));
  await page.goto(server.base + path);
  await page.waitForSelector('body[data-ready]');
  return page;
}

/**
 * A race created over HTTP with every invite taken (createSeated), for a test that plays seats
 * through the API as well as on a page: each taken seat's `token`, and its `link` the seat's own
 * (?seat=N&token=T, the address its person's page holds once it took the seat). An answer other
 * than 201 as it came.
 */
export async function seated(body: unknown): Promise<{ status: number; body: any }> {
  const made = await createSeated(server.base, body);
  if (made.status !== 201) return made;
  const own = (s: { seat: number; token: string | null; link: string | null }) => (s.token ? `/race/${made.body.id}?seat=${s.seat}&token=${s.token}` : s.link);
  return { status: made.status, body: { ...made.body, seats: made.body.seats.map((s: { seat: number; token: string | null; link: string | null }) => ({ ...s, link: own(s) })) } };
}
