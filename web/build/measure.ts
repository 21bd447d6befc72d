/**
 * What a page costs a player, measured in a real browser: bytes sent (compressed, as sent),
 * requests, the JavaScript, and the time until it can be used (the race page: the first
 * programmable hand), cold and warm. Used by `npm run bench:web` (bench/web.bench.ts) and the e2e
 * tests.
 */
import type { Browser, Response } from 'playwright-core';

export interface PageCost {
  /** Bytes of every response body as sent (compressed), headers left out. */
  readonly bytes: number;
  readonly requests: number;
  /** Of those, the ones answered from the browser's cache. */
  readonly cached: number;
  /** Bytes of the JavaScript as sent. */
  readonly jsBytes: number;
  /** Milliseconds from asking for the page to its first useful element on screen (the race page: the first card of the hand). */
  readonly msToHand: number;
}

/** Opens a seat's page in a fresh context (cold) and again in it (warm), and says what each cost, to the first card of the hand. */
export function measureRacePage(browser: Browser, url: string): Promise<{ cold: PageCost; warm: PageCost }> {
  return measurePage(browser, url, '.hand .card');
}

/** Opens a page in a fresh context (cold) and again in it (warm), and says what each cost, to the first element matching `ready`. */
export async function measurePage(browser: Browser, url: string, ready: string): Promise<{ cold: PageCost; warm: PageCost }> {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  try {
    const page = await ctx.newPage();
    const once = async (): Promise<PageCost> => {
      // A response from the cache has no body size (-1): it cost nothing.
      const sizes: Promise<{ size: number; js: boolean }>[] = [];
      const onResponse = (r: Response) => {
        sizes.push(r.request().sizes().then((s) => ({ size: s.responseBodySize, js: /javascript/.test(r.headers()['content-type'] ?? '') }), () => ({ size: 0, js: false })));
      };
      page.on('response', onResponse);
      const t0 = performance.now();
      await page.goto(url);
      await page.waitForSelector(ready);
      const msToHand = performance.now() - t0;
      await page.waitForLoadState('networkidle');
      page.off('response', onResponse);
      const all = await Promise.all(sizes);
      const sent = all.filter((s) => s.size >= 0);
      return { bytes: sent.reduce((a, s) => a + s.size, 0), requests: all.length, cached: all.length - sent.length, jsBytes: sent.filter((s) => s.js).reduce((a, s) => a + s.size, 0), msToHand };
    };
    const cold = await once();
    const warm = await once();
    return { cold, warm };
  } finally {
    await ctx.close();
  }
}

