/**
 * Whether an engine change kept every result byte for byte: random games played by this build's
 * engine and by another build's (its `dist`, e.g. main's copied aside before the change), every call
 * made by both on the same input and the JSON of each result compared, the input checked unchanged.
 * Classic and pbem; the benchmark's busy 24x24 course, the 12x12 course, six random boards with
 * the expansion elements, the shipped courses (each build composing its own; the cube course and
 * dogleg refuse random robots' squares) and the factory boards; eight settings and the Dice Rule;
 * every other game's robots virtual, damaged, powered down, destroyed and holding random options;
 * `beginTurn` and `playTurn` with events and without on every turn, `playRegister` five times and
 * `endTurn` on every third, their end state against `playTurn`'s.
 *
 *   cp -r dist /tmp/main-dist               # on main, before the change
 *   node dist/bench/sameness.js /tmp/main-dist [games]
 *
 * Exits 1 on a difference, printing the first few. Speed is `turn.bench.ts`'s; this is sameness only.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import * as A from '../engine/src/index.js';
import { courseNames, boardNames, loadBoard, loadCourse } from '../boards/src/index.js';
import { Rand, busyCourse24, randomBoard, randomOrders, randomReentry, randomRobots, smallCourse12 } from '../testkit/src/index.js';

type Engine = typeof A;
type Boards = typeof import('../boards/src/index.js');

const SETTINGS: A.Settings[] = [{}, { shieldPerRegister: true }, { secretOptions: true }, { noShutdowns: true }, { installingOptions: true }, { noSitAndSpin: true }, { oneFreeLife: true }, { infiniteLives: true }];

function must<T>(r: A.Result<T>, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.field}: ${r.error.message}`);
  return r.value;
}

async function main(): Promise<void> {
  const other = process.argv[2];
  const games = Number(process.argv[3] ?? 352);
  if (!other || !Number.isInteger(games) || games < 1) throw new Error('usage: node dist/bench/sameness.js OTHER_DIST [games]');
  const B = (await import(resolve(other, 'engine/src/index.js'))) as Engine;
  const LB = (await import(resolve(other, 'boards/src/index.js'))) as Boards;
  const hash = createHash('sha256');
  let results = 0, diffs = 0, turns = 0;
  const same = (what: string, a: unknown, b: unknown): void => {
    const ja = JSON.stringify(a), jb = JSON.stringify(b);
    results++;
    hash.update(ja);
    if (ja === jb) return;
    if (++diffs <= 5) {
      let k = 0;
      while (ja[k] === jb[k]) k++;
      console.log(`DIFF ${what} at ${k}:\n this  ${ja.slice(Math.max(0, k - 200), k + 200)}\n other ${jb.slice(Math.max(0, k - 200), k + 200)}`);
    }
  };
  // Each board as both builds read it, and how many factory boards it holds.
  const boards: [string, A.Board, A.Board, number][] = [];
  const both = (name: string, json: A.BoardJson): void => void boards.push([name, must(A.parseBoard(json), name), must(B.parseBoard(json), name), 1]);
  both('busy24', busyCourse24());
  both('small12', smallCourse12());
  const rb = new Rand(77);
  for (let k = 0; k < 6; k++) {
    const side = 10 + rb.int(7);
    both(`random${k}`, randomBoard(rb.fork(), { width: side, height: side, oil: 3, portals: 2, repulsors: 3, ledges: 4, pushers: 4, crushers: 2, lasers: 5 }));
  }
  for (const name of courseNames()) {
    if (name === 'cube-works' || name === 'dogleg') continue;
    const ca = must(loadCourse(name), name).course;
    boards.push([`course ${name}`, ca.board, must(LB.loadCourse(name), name).course.board, ca.boards.length]);
  }
  for (const name of boardNames()) boards.push([`board ${name}`, must(loadBoard(name), name).board, must(LB.loadBoard(name), name).board, 1]);

  for (let g = 0; g < games; g++) {
    const rnd = new Rand(1000 + g);
    const [name, boardA, boardB, count] = boards[g % boards.length]!;
    const rules = g % 3 === 2 ? 'pbem' : 'classic';
    let settings = SETTINGS[Math.floor(g / boards.length) % SETTINGS.length]!;
    if (g % 7 === 3 && boardA.flags.length) settings = { ...settings, diceRule: boardA.flags.map(() => 1 + rnd.int(3)) };
    if (!settings.infiniteLives && !settings.oneFreeLife) settings = { ...settings, lives: 5 };
    const sa = must(A.makeSetup(boardA, rules, settings, count), name), sb = must(B.makeSetup(boardB, rules, settings, count), name);
    const fancy = g % 2 === 0;
    // The rule set's own options (an option deck, or upgrades), and programs of deck cards where it deals from a deck.
    const options = sa.rules.optionDeck ? A.OPTION_CARDS : A.UPGRADES;
    const programs = sa.rules.drawOdds === null;
    const robots = randomRobots(boardA, Math.min(8, 2 + rnd.int(7)), rnd, fancy ? { virtuals: true, damage: true, programs, poweredDown: true, destroyed: true, options } : {});
    const created = A.createState(sa, robots, g);
    same(`createState ${name}`, created, B.createState(sb, robots, g));
    if (!created.ok) continue;
    let st = created.value;
    for (let t = 0, last = 10 + rnd.int(25); t < last && !A.raceOver(sa, st); t++) {
      const reentry = randomReentry(st, rnd);
      for (const events of [false, true]) same(`beginTurn ${name} game ${g} turn ${t}`, A.beginTurn(sa, st, reentry, { events }), B.beginTurn(sb, st, reentry, { events }));
      const begun = A.beginTurn(sa, st, reentry);
      if (!begun.ok) break;
      const ordered = randomOrders(sa, begun.value.state, rnd, settings.noShutdowns ? { powerDown: 0 } : {});
      if (!ordered.ok) break;
      const input = ordered.value;
      const before = JSON.stringify(input);
      let played: A.Result<A.Outcome> | null = null;
      for (const events of [false, true]) {
        const pa = A.playTurn(sa, input, { events });
        same(`playTurn ${name} ${rules} game ${g} turn ${t} events ${events}`, pa, B.playTurn(sb, input, { events }));
        if (events) played = pa;
      }
      if (t % 3 === 0) {
        for (const events of [false, true]) {
          let xa = input, xb = input;
          for (let k = 0; k < 5; k++) {
            const a = A.playRegister(sa, xa, { events }), b = B.playRegister(sb, xb, { events });
            same(`playRegister ${name} game ${g} turn ${t}`, a, b);
            if (!a.ok || !b.ok) break;
            (xa = a.value.state), (xb = b.value.state);
          }
          const ea = A.endTurn(sa, xa, { events });
          same(`endTurn ${name} game ${g} turn ${t}`, ea, B.endTurn(sb, xb, { events }));
          if (ea.ok && played?.ok) same(`registers against playTurn ${name} game ${g} turn ${t}`, ea.value.state, played.value.state);
        }
      }
      if (JSON.stringify(input) !== before) same(`input kept ${name} game ${g} turn ${t}`, before, JSON.stringify(input));
      turns++;
      if (!played?.ok) break;
      st = played.value.state;
    }
  }
  console.log(`${games} games, ${turns} turns, ${results} results, ${diffs} differences; sha256 of this build's ${hash.digest('hex').slice(0, 16)}`);
  process.exitCode = diffs ? 1 : 0;
}

await main();
