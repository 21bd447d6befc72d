/**
 * `roborally play`: a race in the terminal on a small built-in board. The player programs one
 * robot, bots get random legal programs, and every register is told in words and drawn as text.
 * `playRace` is the whole game with its input and output passed in, so tests can script it.
 */
import { createInterface } from 'node:readline';
import { InvalidArgumentError } from 'commander';
import {
  cardName,
  cardType,
  dirName,
  makeSetup,
  DEFAULT_RULE_SET,
  newRace,
  nextFlag,
  openRegisters,
  parseBoard,
  CARD_TYPES,
  cardWords,
  apiOrders,
  enterCheckedOrders,
  enterOrders,
  parseOrders,
  readOrders,
  writeCard,
  playRegister,
  beginTurn,
  endTurn,
  raceOver,
  renderText,
  submitOrders,
  narrateEvents,
  list,
  ordinal,
  plural,
  type Board,
  type BoardJson,
  type Card,
  type NotationContext,
  type GameEvent,
  type GameState,
  type Result,
  type RobotState,
  type RuleSet,
  type Setup,
  type WrittenOrders,
} from '../../engine/src/index.js';
import { PLAY_BOARD } from './play-board.js';

export const DEFAULT_SEED = 1;
export const DEFAULT_BOTS = 3;
export const MAX_BOTS = 7;
export const DEFAULT_NAME = 'Ava';
/** Bots announce a power down with this much damage (a register locked). */
export const BOT_POWER_DOWN_AT = 5;
/** Without --turns a race stops here at the latest, whatever happens. */
export const MAX_TURNS = 100;

/**
 * Bots' names: each starts with its own letter, so the board tells them apart. None is the name of
 * a robot design (render's ROBOT_DESIGNS: Bolt, Cog, Gizmo …): the terminal draws letters, but the
 * same names raced on the server would put a bot called Bolt in another design's body.
 */
const BOT_NAMES = ['Buzz', 'Crank', 'Dash', 'Echo', 'Flux', 'Glitch', 'Hex', 'Ion', 'Jolt'];

export interface PlayOptions {
  readonly seed?: number;
  /** Stop after this many turns; by default, when someone wins or all are out. */
  readonly turns?: number;
  readonly bots?: number;
  readonly name?: string;
  /** The board (default: the built-in one). */
  readonly board?: BoardJson;
}

/**
 * Where the player's lines come from. `interactive`: a person at a terminal, who is asked again
 * after a mistake; otherwise a script, whose mistakes are reported and replaced by a random
 * program so it never waits. `read` gives null when there is no more input.
 */
export interface LineSource {
  readonly interactive: boolean;
  read(prompt: string): Promise<string | null>;
}

/** A script: one program (or answer) per line, taken in order. */
export function scriptedLines(lines: readonly string[] | AsyncIterable<string>): LineSource {
  if (Array.isArray(lines)) {
    let k = 0;
    return { interactive: false, read: async () => (k < lines.length ? lines[k++]! : null) };
  }
  const it = (lines as AsyncIterable<string>)[Symbol.asyncIterator]();
  let done = false;
  return {
    interactive: false,
    read: async () => {
      if (done) return null;
      const next = await it.next();
      if (next.done) {
        done = true;
        return null;
      }
      return next.value;
    },
  };
}

const isLineSource = (x: unknown): x is LineSource =>
  typeof x === 'object' && x !== null && typeof (x as LineSource).read === 'function';

// ---------------------------------------------------------------------------------------------
// Reading a program

export interface ParsedProgram {
  /** The orders as read, cards by their names in the hand (`null`: a register left to the random fill). */
  readonly orders: WrittenOrders;
  /** The orders as the API takes them (`apiOrders`), for the engine's `readOrders`; no program when none was typed (every register to the random fill). */
  readonly body: Record<string, unknown>;
  /** The card each register was read as, for error messages. */
  readonly tokens: string[];
}

/**
 * Reads a typed line in the engine's notation (docs/mail.md, "The order notation"): card codes
 * (`F2 R F1 L U`, `F` for F1; each takes the first unused card of that type in the hand), exact
 * cards (`F2:670`, `F2 P670`), or 1-based positions in the hand (`3 1 5 2 4`), separated by spaces
 * or commas. `pd` or `power down` anywhere announces a power down, `stay down` keeps a powered
 * down robot down. Whether the count and the cards are legal is the engine's to say (`readOrders`).
 */
export function parseProgram(line: string, hand: readonly Card[], rules: RuleSet, robot: { poweredDown?: boolean; options?: readonly string[]; name?: string; open?: readonly number[] } = {}): Result<ParsedProgram> {
  const open = robot.open ?? [1, 2, 3, 4, 5];
  const ctx: NotationContext = {
    rules, hand: hand.map(cardName), openRegisters: open, needsProgram: !robot.poweredDown && open.length > 0, poweredDown: !!robot.poweredDown,
    options: robot.options ?? [], name: robot.name ?? DEFAULT_NAME, firstOfType: true, partial: true,
  };
  const p = parseOrders(line, ctx);
  if (!p.ok) {
    const e = p.errors[0]!;
    return { ok: false, error: { field: 'program', message: e.expected.startsWith('"') ? e.expected : `expected ${e.expected}` } };
  }
  const { program, ...rest } = apiOrders(p.orders);
  const tokens = p.orders.program.map((n) => (n === null ? '-' : writeCard(n)));
  return { ok: true, value: { orders: p.orders, body: p.orders.program.length ? { ...rest, program } : rest, tokens } };
}

// ---------------------------------------------------------------------------------------------
// Telling what happened: the engine's narrator

/** Sentences for a batch of events (a turn's start, one register, a turn's end), by the engine's narrator. */
export function describeEvents(events: readonly GameEvent[], board: Board, st: GameState): string[] {
  return narrateEvents(events, { names: st.robots.map((r) => r.name), board });
}


// ---------------------------------------------------------------------------------------------
// The race

/** Names of the robots: the player's first, then bots whose initials differ from all others. */
export function robotNames(player: string, bots: number): string[] {
  const initials = new Set([player[0]!.toUpperCase()]);
  const names = [player];
  for (const b of BOT_NAMES) {
    if (names.length > bots) break;
    if (initials.has(b[0]!)) continue;
    initials.add(b[0]!);
    names.push(b);
  }
  return names;
}

/**
 * Plays a race: the player (robot 0) is shown the board and the hand and types a program; bots
 * get random legal programs; every register is told and drawn. Returns the exit code.
 */
export async function playRace(
  options: PlayOptions,
  input: LineSource | AsyncIterable<string> | readonly string[],
  print: (s: string) => void,
): Promise<number> {
  const src = isLineSource(input) ? input : scriptedLines(input);
  const seed = options.seed ?? DEFAULT_SEED;
  const nBots = options.bots ?? DEFAULT_BOTS;
  const player = (options.name ?? DEFAULT_NAME).trim();
  const limit = options.turns ?? MAX_TURNS;
  if (!Number.isInteger(nBots) || nBots < 0 || nBots > MAX_BOTS) {
    print(`error: --bots: expected 0 to ${MAX_BOTS}, found ${nBots}`);
    return 2;
  }
  if (!player) {
    print('error: --name: expected a name');
    return 2;
  }
  if (!Number.isInteger(limit) || limit < 1) {
    print(`error: --turns: expected a whole number of turns, at least 1, found ${limit}`);
    return 2;
  }
  const parsed = parseBoard(options.board ?? PLAY_BOARD);
  if (!parsed.ok) {
    print(`error: the board: ${parsed.error.field}: ${parsed.error.message}`);
    return 1;
  }
  const board = parsed.value;
  const setupRes = makeSetup(board, DEFAULT_RULE_SET, {});
  if (!setupRes.ok) {
    print(`error: ${setupRes.error.message}`);
    return 1;
  }
  const setup = setupRes.value;
  const names = robotNames(player, nBots);
  const raceRes = newRace(setup, names.map((name) => ({ name })), seed);
  if (!raceRes.ok) {
    print(`error: ${raceRes.error.field}: ${raceRes.error.message}`);
    return 1;
  }
  let state = raceRes.value;
  const tell = (events: readonly GameEvent[]): void => {
    for (const line of describeEvents(events, board, state)) print(line);
  };

  print(`RoboRally: a race on a ${board.width}x${board.height} board, seed ${seed} (replay with --seed ${seed})`);
  print(`${player} (you) against ${nBots ? list(names.slice(1)) : 'nobody'}. Touch the flags in order: ${board.flags.map((f, k) => `${k + 1} at (${f[0]},${f[1]})`).join(', ')}.`);
  print('Board: numbers are flags, W a repair site, O a pit, > a belt, >> an express belt, G+ a gear,');
  print(`| and -- walls; board lasers: ${board.lasers.map((l) => `(${l.x},${l.y}) firing ${dirName(l.dir)}`).join(', ') || 'none'}.`);
  print(`Robots are their initial and facing (${player[0]!.toUpperCase()}^ faces north); lowercase is virtual, ** is several on one square.`);
  print(`Program cards: ${CARD_TYPES.map((t) => `${t} ${cardWords(t)}`).join(', ')}${setup.rules.priorities ? '; higher priority moves first' : ''}.`);
  print('');

  let outNoted = false;
  let turnsPlayed = 0;
  while (!raceOver(setup, state) && turnsPlayed < limit) {
    const begun = beginTurn(setup, state, {}); // destroyed robots re-enter facing as they were
    if (!begun.ok) return engineFailure(print, begun.error);
    state = begun.value.state;
    turnsPlayed = state.turn;
    print(`=== Turn ${state.turn} ===`);
    tell(begun.value.events);
    for (const line of robotTable(state, setup)) print(line);
    print(renderText(board, state));

    // The player's orders.
    const me = state.robots[0]!;
    if (me.status === 'out') {
      if (!outNoted) print(`${player} is out of the game; the others race on.`);
      outNoted = true;
    } else if (me.poweredDown) {
      const stay = await askStayDown(setup, state, src, print, `${player} is powered down this turn. Stay powered down next turn? (y/N, or "stay down")`);
      if (stay) {
        const res = submitOrders(setup, state, 0, { stayDown: true });
        if (!res.ok) return engineFailure(print, res.error);
        state = res.value;
        print(`${player} stays powered down next turn`);
      }
    } else {
      state = await askProgram(setup, state, src, print);
    }

    // The bots' programs, at random; a badly damaged bot powers down next turn.
    for (let i = 1; i < state.robots.length; i++) {
      const bot = state.robots[i]!;
      const down = bot.status === 'active' && !bot.poweredDown && bot.damage >= BOT_POWER_DOWN_AT;
      const entered = enterOrders(setup, state, i, down ? { orders: { powerDown: true } } : undefined);
      if (!entered.ok) return engineFailure(print, entered.error);
      if (entered.value.refused) return engineFailure(print, entered.value.refused);
      state = entered.value.state;
    }

    for (let reg = 1; reg <= 5; reg++) {
      const res = playRegister(setup, state);
      if (!res.ok) return engineFailure(print, res.error);
      state = res.value.state;
      tell(res.value.events);
      print(renderText(board, state, { devices: false }));
    }
    const ended = endTurn(setup, state);
    if (!ended.ok) return engineFailure(print, ended.error);
    state = ended.value.state;
    const endLines = describeEvents(ended.value.events, board, state);
    if (endLines.length) {
      print(`--- End of turn ${state.turn} ---`);
      for (const line of endLines) print(line);
    }
    print('');
  }
  for (const line of summary(state, board, turnsPlayed)) print(line);
  return 0;
}

function engineFailure(print: (s: string) => void, e: { field: string; message: string }): number {
  print(`internal error: the engine refused a move: ${e.field}: ${e.message}`);
  return 1;
}

function robotTable(st: GameState, setup: Setup): string[] {
  const flags = setup.board.flags.length;
  return st.robots.map((r, i) => {
    const who = `${r.name[0]!.toUpperCase()} ${r.name}${i === 0 ? ' (you)' : ''}`.padEnd(12);
    if (r.status === 'out') return `  ${who} out of the game, flags ${r.flags}/${flags}`;
    const n = nextFlag(setup, st, i);
    const next = n?.at ? `, next flag ${n.flag} at (${n.at[0]},${n.at[1]})` : '';
    const notes = [r.virtual ? 'virtual' : '', r.poweredDown ? 'powered down' : '', lockedText(r)].filter(Boolean);
    return (
      `  ${who} (${r.x},${r.y}) facing ${dirName(r.dir)}, damage ${r.damage}, ${plural(r.lives, 'life', 'lives')}, ` +
      `flags ${r.flags}/${flags}${next}${notes.length ? `; ${notes.join(', ')}` : ''}`
    );
  });
}

function lockedText(r: RobotState): string {
  const locked: string[] = [];
  for (let reg = 1; reg <= 5; reg++)
    if (r.locked & (1 << (reg - 1))) locked.push(`${reg}${r.registers[reg - 1] ? ` (${cardName(r.registers[reg - 1]!)})` : ''}`);
  return locked.length ? `${locked.length === 1 ? 'register' : 'registers'} ${locked.join(', ')} locked` : '';
}

/**
 * Whether a powered-down robot stays down next turn: y or n, or the notation's own words ("stay
 * down", "power up"), read by the engine's notation.
 */
async function askStayDown(setup: Setup, state: GameState, src: LineSource, print: (s: string) => void, question: string): Promise<boolean> {
  print(question);
  const me = state.robots[0]!;
  for (;;) {
    const line = await src.read('> ');
    if (line === null) {
      print('> (no more input: no)');
      return false;
    }
    if (!src.interactive) print(`> ${line}`);
    const a = line.trim().toLowerCase();
    if (a === 'y' || a === 'yes') return true;
    if (a === '' || a === 'n' || a === 'no') return false;
    const p = parseProgram(line, [], setup.rules, { poweredDown: true, options: me.options, name: me.name, open: openRegisters(me.locked) });
    if (p.ok) return p.value.orders.stayDown;
    print(`  "${line.trim()}" is not an answer: type y or n, or "stay down" (${p.error.message})`);
    if (!src.interactive) return false;
  }
}

/** Shows the hand, reads the player's program until the engine takes it, and returns the state. */
async function askProgram(setup: Setup, state: GameState, src: LineSource, print: (s: string) => void): Promise<GameState> {
  const me = state.robots[0]!;
  const open = openRegisters(me.locked);
  const hand = me.hand;
  if (hand.length) print(`Your hand: ${hand.map((c, k) => `${k + 1} ${cardName(c)}`).join('   ')}`);
  const lockedRegs = [1, 2, 3, 4, 5].filter((reg) => !open.includes(reg));
  const locked = lockedRegs.length
    ? `; ${lockedRegs.length === 1 ? 'register' : 'registers'} ${list(lockedRegs)} ${lockedRegs.length === 1 ? 'is' : 'are'} locked with ` +
      list(lockedRegs.map((reg) => (me.registers[reg - 1] ? cardName(me.registers[reg - 1]!) : 'no card')))
    : '';
  if (open.length === 0) print(`All your registers are locked. Press Enter, or type pd to power down next turn.`);
  else
    print(
      `Program ${open.length === 5 ? 'your five registers' : `registers ${list(open)}${locked}`}. Codes like ` +
        `"${exampleProgram(hand, open.length)}", or card numbers like "${open.map((_, k) => k + 1).join(' ')}"; ` +
        `add "pd" to power down next turn; an empty line plays random cards.`,
    );
  const fallback = (): GameState => {
    const next = randomProgram(setup, state, print);
    printProgram(next, print);
    return next;
  };
  for (;;) {
    const line = await src.read('> ');
    if (line === null) {
      print('> (no more input: random cards)');
      return fallback();
    }
    if (!src.interactive) print(`> ${line}`);
    const p = parseProgram(line, hand, setup.rules, { options: me.options, name: me.name, open });
    let next: GameState | null = null;
    // The engine reads the orders as it reads the API's and a mail's: the program, "-" left to the
    // random fill (an empty line: every register), the power down, the option decisions typed.
    const read = p.ok ? readOrders(setup, state, 0, p.value.body) : null;
    const entered = read?.ok ? enterCheckedOrders(setup, state, 0, read.value.turn) : null;
    if (!p.ok) print(`  ${p.error.message}`);
    else if (read && !read.ok) print(`  ${orderError(read.error, p.value.tokens, open)}`);
    else if (entered && !entered.ok) print(`  ${entered.error.message}`);
    else if (entered) next = entered.value.state;
    if (next) {
      printProgram(next, print);
      return next;
    }
    if (!src.interactive) {
      print('  (playing random cards this turn)');
      return fallback();
    }
    print('Try again:');
  }
}

/** Random cards for the player: the engine's random fill, nothing else ordered. */
function randomProgram(setup: Setup, state: GameState, print: (s: string) => void): GameState {
  const filled = enterOrders(setup, state, 0);
  if (filled.ok) return filled.value.state;
  print(`  ${filled.error.message}`);
  return state;
}

function printProgram(st: GameState, print: (s: string) => void): void {
  const me = st.robots[0]!;
  const regs = me.registers.map((c, k) => `${k + 1}:${c ? cardName(c) : '-'}${me.locked & (1 << k) ? ' (locked)' : ''}`);
  print(`${me.name}'s program: ${regs.join('  ')}${me.announced ? '; powering down next turn' : ''}`);
}

/** The engine's message, with the token or the option decision it is about. */
function orderError(e: { field: string; message: string }, tokens: readonly string[], open: readonly number[]): string {
  const m = /^program\[(\d+)\]$/.exec(e.field);
  if (m) {
    const k = Number(m[1]);
    return `"${tokens[k] ?? '?'}" (register ${open[k] ?? '?'}): ${e.message}`;
  }
  return e.field.startsWith('choices.') ? `${e.field}: ${e.message}` : e.message;
}

/** A program in codes that the hand can play, for the prompt. */
function exampleProgram(hand: readonly Card[], n: number): string {
  return hand.slice(0, n).map((c) => cardType(c)).join(' ') || 'F2 R F1 L U';
}

function summary(st: GameState, board: Board, turns: number): string[] {
  const out: string[] = [];
  const name = (i: number): string => st.robots[i]!.name;
  out.push(`=== Race over after ${plural(turns, 'turn')} ===`);
  if (st.finished.length) {
    const first = st.finished[0]!;
    out.push(first.length === 1 ? `${name(first[0]!)} wins!` : `${list(first.map(name))} share first place!`);
    let place = 1;
    const order: string[] = [];
    for (const g of st.finished) {
      for (const i of g) order.push(`${ordinal(place)} ${name(i)}`);
      place += g.length;
    }
    out.push(`Finishing order: ${order.join(', ')}`);
  } else if (st.robots.every((r) => r.status === 'out')) {
    out.push('Every robot is out of the game: nobody wins.');
  } else {
    out.push(`Turn limit reached: nobody has touched all ${board.flags.length} flags yet.`);
  }
  const finishedAt = new Map<number, number>();
  st.finished.forEach((g, k) => g.forEach((i) => finishedAt.set(i, k)));
  const rank = st.robots
    .map((r, i) => ({ r, i }))
    .sort(
      (a, b) =>
        (finishedAt.get(a.i) ?? 99) - (finishedAt.get(b.i) ?? 99) ||
        b.r.flags - a.r.flags ||
        Number(a.r.status === 'out') - Number(b.r.status === 'out') ||
        b.r.lives - a.r.lives ||
        a.r.damage - b.r.damage ||
        b.r.destroyedAt - a.r.destroyedAt, // out later ranks higher
    );
  out.push('Standings:');
  for (const { r, i } of rank) {
    const state = r.status === 'out' ? 'out of the game' : `${plural(r.lives, 'life', 'lives')} left, damage ${r.damage}`;
    out.push(`  ${`${r.name}${i === 0 ? ' (you)' : ''}`.padEnd(12)} flags ${r.flags}/${board.flags.length}, ${state}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The command

/** Input from the terminal: prompts when it is one, else one line per program. */
function stdinSource(): { src: LineSource; close: () => void } {
  if (process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    let closed = false;
    let pending: ((line: string | null) => void) | null = null;
    rl.on('close', () => {
      closed = true;
      pending?.(null);
      pending = null;
    });
    rl.on('SIGINT', () => {
      process.stdout.write('\n');
      process.exit(130);
    });
    return {
      src: {
        get interactive() {
          return !closed;
        },
        read: (prompt) =>
          closed
            ? Promise.resolve(null)
            : new Promise((resolve) => {
                pending = resolve;
                rl.question(prompt, (answer) => {
                  pending = null;
                  resolve(answer);
                });
              }),
      },
      close: () => rl.close(),
    };
  }
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  return {
    src: scriptedLines(rl),
    close: () => {
      rl.close();
      process.stdin.destroy();
    },
  };
}

/** `roborally play`: the race on the terminal; returns the exit code. */
export async function runPlay(options: PlayOptions): Promise<number> {
  // A reader that stops early (`| head`) ends the race quietly.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  const { src, close } = stdinSource();
  try {
    return await playRace(options, src, (s) => console.log(s));
  } finally {
    close();
  }
}

/** Commander's parser for a whole-number option, `min` or more. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (!/^-?\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(max === Number.MAX_SAFE_INTEGER ? `expected a whole number, at least ${min}` : `expected a whole number from ${min} to ${max}`);
    return n;
  };
}
