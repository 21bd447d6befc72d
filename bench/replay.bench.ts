/**
 * How long a turn's replay lasts at 1× in the web client, and how long a live race's clock waits
 * for it at the latest (the server's `replayWaitMs`: the replay's length and a margin, at most two
 * minutes). On every shipped course (classic, or pbem where it has no classic start), 4 and 8 robots
 * from its starts with random orders (testkit), many lives so the floor stays full, a new race every
 * 40 turns: per course and robot count, the replay's length
 * animated and with reduced motion (median, 90th percentile, most), how often the wait reaches its
 * cap, and what computing the length costs the server a turn (median, CPU of this process).
 *
 *   npm run bench:replay                 # tsc, then node dist/bench/replay.bench.js
 *   TURNS=400 npm run bench:replay
 */
import { beginTurn, dirName, makeSetup, playTurn, type GameEvent, type GameState, type Result } from '../engine/src/index.js';
import { courseNames, loadCourse } from '../boards/src/index.js';
import { replayWaitMs, REPLAY_WAIT } from '../server/src/index.js';
import { replayLengths, replayMs } from '../web/src/pace.js';
import { entrants, startRace } from '../driver/src/index.js';
import { Rand, randomOrders, randomReentry } from '../testkit/src/index.js';

const TURNS = Number(process.env.TURNS ?? 200);
const GAME_TURNS = 40;

function must<T>(r: Result<T>, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.field}: ${r.error.message}`);
  return r.value;
}

/** The robots as the replay's public view has them. */
const shown = (st: GameState) => st.robots.map((r) => ({ name: r.name, x: r.x, y: r.y, dir: dirName(r.dir), damage: r.damage, status: r.status, virtual: r.virtual, poweredDown: r.poweredDown, lives: r.lives, flags: r.flags }));

const q = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`.padStart(8);

function main(): void {
  console.log(`replay at 1×, ${TURNS} turns a row (robots at the course's starts, random orders; classic, or pbem where the course has no classic start); the wait: ${REPLAY_WAIT.marginMs / 1000} s margin, at most ${REPLAY_WAIT.mostMs / 1000} s`);
  console.log(`${'course'.padEnd(26)} robots  steps  animated: median     p90    most   reduced: median     p90    most   capped  cost µs`);
  for (const name of courseNames()) {
    const c = must(loadCourse(name), name).course;
    // Classic where the course has its start square, else pbem (a start per robot).
    const rules = c.board.start ? 'classic' : 'pbem';
    const setup = must(makeSetup(c.board, rules, { lives: 9999 }, c.boards.length), name);
    for (const n of [4, 8].filter((k) => !setup.rules.startsPerRobot || c.starts.length >= k)) {
      const rnd = new Rand(n * 1000 + name.length);
      const fresh = (game: number) => must(startRace(setup, must(entrants(setup, { start: c.board.start, starts: c.starts }, Array.from({ length: n }, (_, i) => ({ name: `R${i + 1}`, level: 'random' as const })), game), 'entrants'), game), 'startRace').created;
      let state = fresh(1);
      const animated: number[] = [], still: number[] = [], stepCount: number[] = [], cost: number[] = [];
      let capped = 0;
      for (let t = 0; t < TURNS; t++) {
        if (t % GAME_TURNS === GAME_TURNS - 1) state = fresh(t);
        const before = shown(state);
        const begun = must(beginTurn(setup, state, randomReentry(state, rnd), { events: true }), 'beginTurn');
        const ordered = must(randomOrders(setup, begun.state, rnd), 'orders');
        const played = must(playTurn(setup, ordered, { events: true }), 'playTurn');
        const events: GameEvent[] = [...begun.events, ...played.events];
        const m = replayLengths(before, events);
        animated.push(m.animated);
        still.push(m.still);
        stepCount.push(m.steps);
        const c0 = process.cpuUsage();
        const wait = replayWaitMs(replayMs(before, events));
        const c1 = process.cpuUsage(c0);
        cost.push(c1.user + c1.system);
        if (wait >= REPLAY_WAIT.mostMs) capped++;
        state = played.state;
      }
      console.log(`${`${name} ${rules}`.padEnd(26)} ${String(n).padStart(6)} ${String(q(stepCount, 0.5)).padStart(6)}  ${s(q(animated, 0.5))}${s(q(animated, 0.9))}${s(Math.max(...animated))}  ${s(q(still, 0.5))}${s(q(still, 0.9))}${s(Math.max(...still))} ${`${((100 * capped) / TURNS).toFixed(0)}%`.padStart(7)} ${String(q(cost, 0.5)).padStart(8)}`);
    }
  }
}

main();
