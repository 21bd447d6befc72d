/**
 * `npm run bench:web`: what the pages cost a player: the race page, and once the home page and the
 * course editor. A race against three bots on a server
 * started here; Debian's chromium (playwright-core, never a downloaded browser) opens the seat's
 * page, first with an empty cache, then again (the hashed assets come from the cache). Prints the
 * bytes transferred (compressed, as sent), the requests, the race page's JS, and the time to the
 * first programmable hand (the first card of the hand on screen).
 *
 *   RUNS=3 npm run bench:web
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { bundle } from '../web/build/bundle.js';
import { measurePage, measureRacePage, type PageCost } from '../web/build/measure.js';
import { createSeated, freshDb, startServer } from '../server/src/testing.js';

async function main(): Promise<void> {
  const exe = process.env.CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(exe)) throw new Error(`no browser at ${exe}: apt-get install chromium`);
  await bundle();
  const s = await startServer((await freshDb('sqlite')).db, undefined, { max: 1e9, windowMs: 1000 });
  const browser = await chromium.launch({ executablePath: exe, args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const line = (c: PageCost, what: string) => `${(c.bytes / 1024).toFixed(1)} KB in ${c.requests} requests (${c.cached} from the cache; JS ${(c.jsBytes / 1024).toFixed(1)} KB), ${what} after ${c.msToHand.toFixed(0)} ms`;
    // The home page (to its Start button) and the course editor (to its floor drawn).
    for (const [name, path, ready, what] of [['home', '/', '.course', 'the courses'], ['editor', '/editor', 'body[data-ready] #board svg', 'the floor']] as const) {
      const { cold, warm } = await measurePage(browser, `${s.base}${path}`, ready);
      console.log(`${name}: cold ${line(cold, what)}; warm ${line(warm, what)}`);
    }
    const runs = Number(process.env.RUNS ?? 3);
    for (let k = 0; k < runs; k++) {
      // Ava's seat taken (its invite claimed): its own link opens it cold, then warm.
      const r = (await createSeated(s.base, { course: 'first-shift', deal: { secret: false, seed: k }, seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'greedy' }, { name: 'Cog', bot: 'greedy' }, { name: 'Rivet', bot: 'greedy' }] })).body;
      const { cold, warm } = await measureRacePage(browser, `${s.base}/race/${r.id}?seat=0&token=${r.seats[0].token}`);
      console.log(`race page, run ${k + 1}: cold ${line(cold, 'first hand')}; warm ${line(warm, 'first hand')}`);
    }
  } finally {
    await browser.close();
    await s.close();
  }
}

if (process.argv[1]?.endsWith('web.bench.js')) await main();
