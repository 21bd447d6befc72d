/**
 * `npm run bench:server`: many races at once on one server process (SQLite in a temporary folder),
 * two people per race sending their orders over real HTTP each turn. Prints the throughput in
 * turns per second, the latency from the last submission of a turn to its report being published
 * on the race's stream (p50, p99), and the memory per race.
 *
 *   RACES=100 TURNS=10 npm run bench:server
 */
import { freshDb, startServer, call } from '../server/src/testing.js';
import type { Entry } from '../server/src/index.js';

const RACES = Number(process.env.RACES ?? 60);
const TURNS = Number(process.env.TURNS ?? 8);

async function main(): Promise<void> {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 1e9, windowMs: 1000 });
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const races: { id: string; tokens: string[] }[] = [];
  for (let k = 0; k < RACES; k++) {
    const r = await call(s.base, 'POST', '/api/races', { course: 'grand-tour', seats: [{ name: 'Ava' }, { name: 'Bob' }], deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: k } });
    races.push({ id: r.body.id, tokens: r.body.seats.map((x: { token: string }) => x.token) });
  }
  global.gc?.();
  const perRace = (process.memoryUsage().heapUsed - heap0) / RACES;
  const latencies: number[] = [];
  const t0 = performance.now();
  let turns = 0;
  for (let t = 0; t < TURNS; t++) {
    await Promise.all(races.map(async (race) => {
      const yous = await Promise.all([0, 1].map((seat) => call(s.base, 'GET', `/api/races/${race.id}/seats/${seat}`, undefined, { authorization: `Bearer ${race.tokens[seat]}` })));
      if (yous[0]!.body.status !== 'running') return;
      const send = (seat: number) => {
        const you = yous[seat]!.body.you;
        return call(s.base, 'PUT', `/api/races/${race.id}/seats/${seat}/orders`, { turn: yous[seat]!.body.turn, program: you.needsProgram ? you.hand.slice(0, you.openRegisters.length) : [] }, { authorization: `Bearer ${race.tokens[seat]}` });
      };
      // The report is out when the turn's end is published on the stream.
      let sent = 0;
      const published = new Promise<number>((resolve) => {
        const listener = (entries: Entry[]) => {
          if (entries.some((e) => e.event.type === 'turnEnded')) {
            s.service.bus.off(`race:${race.id}`, listener);
            resolve(performance.now() - sent);
          }
        };
        s.service.bus.on(`race:${race.id}`, listener);
      });
      for (const seat of [0, 1]) {
        sent = performance.now();
        await send(seat);
      }
      latencies.push(await published);
      turns++;
    }));
  }
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
  console.log(`Server benchmark: ${RACES} races at once on one process (SQLite), two people each, ${TURNS} turns, over HTTP; node ${process.version}\n`);
  console.log(`turns played           ${turns}`);
  console.log(`throughput             ${(turns / seconds).toFixed(1)} turns/s (with the 4 requests of each turn)`);
  console.log(`last orders → report   p50 ${q(0.5)} ms, p99 ${q(0.99)} ms`);
  console.log(`memory per race        ${(perRace / 1024).toFixed(1)} KiB of heap`);
  await s.close();
  await db.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
