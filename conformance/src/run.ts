/** Plays a scenario and compares the outcome with its expectations (SCENARIOS.md). */
import {
  DECK, RULE_SETS, beginTurn, cardName, checkOrders, createState, cutTurn, dirName, handCard, makeSetup, needsProgram,
  openRegisters, parseChoices, playRegister, popcount, recompile, renderText, submitOrders, type Card, type CheckedTurn,
  type Choices, type GameState, type Orders, type Reentry, type Result, type Setup,
} from '../../engine/src/index.js';
import { adjudicate } from '../../driver/src/index.js';
import { MAX_ID, parseScenario, type Expect, type Scenario, type TurnSpec } from './scenario.js';

export type Verdict = 'pass' | 'fail';

export interface ScenarioResult {
  readonly id: string;
  readonly result: Verdict;
  /** What differed, or what failed. */
  readonly messages: string[];
  /** Every robot with the fields of `expect.robots`, as they stand at the end. */
  readonly state: Record<string, Record<string, unknown>> | null;
  /** With `show`: the floor as text after each register phase. */
  readonly pictures: string[];
}

interface RunOptions {
  readonly show?: boolean;
}

const priorities = (rules: string): boolean | undefined => RULE_SETS[rules]?.priorities;

/** Checks one scenario given as parsed JSON; `fallbackId` names it if it has no id of its own. */
export function checkScenario(raw: unknown, fallbackId: string, o: RunOptions = {}): ScenarioResult {
  const id = (raw as { id?: unknown } | null)?.id;
  // A refused scenario is named by its id if that is a sensible one, else by its file.
  const rawId = typeof id === 'string' && id && id.length <= MAX_ID ? id : fallbackId;
  const parsed = parseScenario(raw, priorities);
  const expectedError = expectedErrorOf(raw);
  if (!parsed.ok) return refused(rawId, `${parsed.error.field}: ${parsed.error.message}`, expectedError);
  const sc = parsed.value;
  const pictures: string[] = [];
  const played = play(sc, o.show ? pictures : null);
  if (!played.ok) return { ...refused(sc.id, `${played.error.field}: ${played.error.message}`, sc.expect.error), pictures };
  if (sc.expect.error !== undefined)
    return { id: sc.id, result: 'fail', messages: ['expected the scenario to be refused as bad input, but it played'], state: snapshot(sc, played.value.state), pictures };
  const messages = [...played.value.messages, ...compare(sc, sc.expect, played.value.state, 'end')];
  return { id: sc.id, result: messages.length ? 'fail' : 'pass', messages, state: snapshot(sc, played.value.state), pictures };
}

function expectedErrorOf(raw: unknown): true | string | undefined {
  const e = (raw as { expect?: { error?: unknown } })?.expect?.error;
  return e === true || typeof e === 'string' ? e : undefined;
}

function refused(id: string, message: string, expected: true | string | undefined): ScenarioResult {
  if (expected === true || (typeof expected === 'string' && message.toLowerCase().includes(expected.toLowerCase())))
    return { id, result: 'pass', messages: [message], state: null, pictures: [] };
  const why = expected === undefined ? message : `refused with "${message}", expected a message containing "${expected}"`;
  return { id, result: 'fail', messages: [why], state: null, pictures: [] };
}

interface Played {
  readonly state: GameState;
  /** Differences found by the turns' own expectations. */
  readonly messages: string[];
}

function play(sc: Scenario, pictures: string[] | null): Result<Played> {
  const setup = makeSetup(sc.board, sc.rules, sc.settings);
  if (!setup.ok) return setup;
  const created = createState(setup.value, sc.robots, sc.seed);
  if (!created.ok) return created;
  let state = created.value;
  for (const o of sc.offers) state.offers = [...state.offers.filter((x) => x.x !== o.x || x.y !== o.y), o];
  const messages: string[] = [];
  // The turn dealt by the driver with the last turn played, if it was a whole turn.
  let dealt: GameState | null = null;
  for (let t = 0; t < sc.turns.length; t++) {
    const turn = sc.turns[t]!;
    const next = sc.turns[t + 1];
    const res = playTurnSpec(setup.value, state, dealt, turn, {
      path: `turns[${t}]`, last: !next, pictures, seed: sc.seed, reenterNext: next?.reenter ?? {},
      lastProgram: t === 0 ? sc.robots.map((r) => r.program) : [],
    });
    if (!res.ok) return res;
    state = res.value.ended;
    dealt = res.value.next;
    if (turn.expect) messages.push(...compare(sc, turn.expect, state, `after turn ${t + 1}`));
  }
  return { ok: true, value: { state, messages } };
}

interface TurnPlay {
  readonly path: string;
  /** The scenario's last turn: a cut turn is left as it stands. */
  readonly last: boolean;
  readonly pictures: string[] | null;
  readonly seed: number;
  /** The next turn's re-entries (`reenter`), which the driver applies when it deals that turn. */
  readonly reenterNext: Readonly<Record<number, Reentry>>;
  /** Robot index → its program in turn 1 (a register locked before programming keeps that card). */
  readonly lastProgram: readonly (readonly Card[] | undefined)[];
}

interface TurnPlayed {
  /** The state at the end of the turn (or after its last register phase, for a cut turn). */
  readonly ended: GameState;
  /** The next turn as the driver dealt it, null when the runner deals it (after a cut turn, or a race over). */
  readonly next: GameState | null;
}

/**
 * One turn of a scenario. The turn is dealt by the engine's `beginTurn` (the first one, one after a
 * cut turn, or one after a race the driver says is over), or was dealt by the driver with the turn
 * before. A whole turn is played by the race driver's `adjudicate` (orders entered, five registers,
 * end of turn, re-entry, next deal), a turn cut short (`registers`) register by register by the
 * engine: the driver plays whole turns only (docs/scenarios.md).
 */
function playTurnSpec(setup: Setup, before: GameState, dealt: GameState | null, turn: TurnSpec, o: TurnPlay): Result<TurnPlayed> {
  const { path, pictures } = o;
  // Cards stored on a Flywheel are out of the deck; each joins its own robot's hand (OPTIONS.md 2.11).
  const stored = before.robots.map((r) => r.opt?.flywheel ?? 0);
  let state: GameState;
  if (dealt) state = dealt;
  else {
    const begun = beginTurn(setup, before, turn.reenter);
    if (!begun.ok) return begun;
    state = begun.value.state;
  }
  const registers = turn.registers ?? 5;
  // Option decisions, read against each robot as the turn begins.
  const choices = new Map<number, Choices>();
  for (const [i, raw] of turn.choices) {
    const c = parseChoices(raw, setup, state.robots[i]!, `${path}.choices.${state.robots[i]!.name}`);
    if (!c.ok) return c;
    choices.set(i, c.value);
  }
  // A scenario has no hands: any card of the deck counts as dealt, but each only once a turn,
  // locked cards included (SCENARIOS.md "How a scenario is played").
  const used = new Map<Card, string>();
  for (const r of state.robots) {
    for (let k = 0; k < 5; k++) {
      if (!(r.locked & (1 << k))) continue;
      for (const c of [r.registers[k], r.opt?.joined[k]]) if (c) used.set(c, `${r.name}'s locked register`);
    }
  }
  stored.forEach((c, i) => c && used.set(c, `${state.robots[i]!.name}'s Flywheel`));
  const hands = new Map<number, Card[]>();
  for (const [i, cards] of turn.programs) {
    const r = state.robots[i]!;
    const p = `${path}.programs.${r.name}`;
    if (r.status !== 'active') return fail(p, `${r.name} is ${r.status === 'out' ? 'out of the game' : 'destroyed'} and runs no program`);
    if (r.poweredDown && cards.length) return fail(p, `${r.name} is powered down this turn and runs no program`);
    const c = choices.get(i);
    const hand: [Card, string][] = [];
    cards.forEach((card, k) => {
      hand.push([handCard(card), `${p}[${k}]`]);
      const j = turn.joined.get(i)?.[k];
      if (j) hand.push([j, `${p}[${k}]`]);
    });
    if (c?.conditional) hand.push([c.conditional.card, `${path}.choices.${r.name}.conditional.card`]);
    if (c?.flywheel && c.flywheel !== stored[i]) hand.push([c.flywheel, `${path}.choices.${r.name}.flywheel`]);
    for (const [card, field] of hand) {
      const own = card === stored[i];
      if (setup.rules.priorities && used.has(card) && !own) return fail(field, `${cardName(card)} is used twice this turn (also in ${used.get(card)})`);
      if (!own) used.set(card, `${r.name}'s program`);
    }
    hands.set(i, [...hand.map(([card]) => card), ...(stored[i] && !hand.some(([card]) => card === stored[i]) ? [stored[i]!] : [])]);
  }
  if (setup.rules.priorities) state.deck = DECK.filter((c) => !used.has(c));
  const sent = new Map<number, Orders>();
  state.discard = [];
  for (let i = 0; i < state.robots.length; i++) {
    const r = state.robots[i]!;
    const cards = turn.programs.get(i);
    const c = choices.get(i);
    r.hand = hands.get(i) ?? [];
    if (c?.recompile && r.status === 'active' && !r.poweredDown) {
      // 2.22: the new hand is drawn and the damage taken before programming; a scenario's program
      // stands for the new hand.
      const res = recompile(setup, state, i, c);
      if (!res.ok) return fail(`${path}.choices.${r.name}.recompile`, res.error.message);
      state = res.value.state;
      const robot = state.robots[i]!;
      if (setup.rules.priorities) state.deck = [...state.deck, ...robot.hand]; // replaced: copies of a state share the deck
      robot.hand = hands.get(i) ?? [];
      // A register locked before programming keeps last turn's card: the robot's `program` in turn 1.
      for (let k = 0; k < 5; k++) if (robot.locked & (1 << k) && !robot.registers[k]) robot.registers[k] = o.lastProgram[i]?.[k] ?? 0;
    }
    const decides = turn.powerDown.has(i) || turn.stayDown.has(i) || turn.takeOption.has(i) || c !== undefined;
    if (needsProgram(state, i) && !cards) {
      if (registers === 0) continue;
      const open = openRegisters(state.robots[i]!.locked).length;
      return fail(`${path}.programs`, `no program for ${r.name}, which is on the board, powered up, and has ${open} unlocked register${open === 1 ? '' : 's'}`);
    }
    if (!cards && !decides) continue;
    const orders: Orders = {
      ...(cards ? { program: cards, joined: turn.joined.get(i) ?? [] } : {}),
      powerDown: turn.powerDown.has(i),
      stayDown: turn.stayDown.has(i),
      takeOption: turn.takeOption.has(i),
      unlock: c?.unlock ?? [],
      ...(c ? { choices: c } : {}),
    };
    const refused = checkOrders(setup, state, i, orders);
    if (refused && !refused.ok) {
      const f = refused.error.field;
      return fail(f.startsWith('program') ? `${path}.programs.${r.name}${f.slice('program'.length)}` : `${path}.${f}`, refused.error.message);
    }
    sent.set(i, orders);
  }
  const picture = (s: GameState, register: number) => pictures?.push(`${path} register ${register}\n${renderText(setup.board, s, { devices: false })}`);
  if (turn.registers === undefined) {
    // A whole turn: the driver's, with the orders as checked above and the next turn's re-entries.
    const checked: Record<number, CheckedTurn> = {};
    for (const [i, orders] of sent) checked[i] = { orders, checkedWhenSent: true };
    for (const [k, reentry] of Object.entries(o.reenterNext)) checked[Number(k)] = { ...(checked[Number(k)] ?? { orders: {}, checkedWhenSent: true }), reentry };
    const res = adjudicate(setup, state, checked, {}, o.seed, pictures ? { onRegister: picture } : {});
    if (!res.ok) return fail(`${path}.${res.error.field}`, res.error.message);
    return { ok: true, value: { ended: res.value.ended, next: res.value.next?.state ?? null } };
  }
  // A turn cut short: the orders entered as checked, the register phases played one by one.
  for (const [i, orders] of sent) {
    const res = submitOrders(setup, state, i, orders);
    if (!res.ok) return res;
    state = res.value;
  }
  for (let k = 0; k < registers; k++) {
    const res = playRegister(setup, state);
    if (!res.ok) return fail(`${path}.${res.error.field}`, res.error.message);
    state = res.value.state;
    picture(state, k + 1);
  }
  if (o.last) return { ok: true, value: { ended: state, next: null } };
  const cut = cutTurn(setup, state);
  return cut.ok ? { ok: true, value: { ended: cut.value, next: null } } : cut;
}

const fail = (field: string, message: string): Result<never> => ({ ok: false, error: { field, message } });

/** The fields a scenario can expect, for every robot. */
function robotFields(st: GameState, i: number): Record<string, unknown> {
  const r = st.robots[i]!;
  return {
    x: r.x, y: r.y, dir: dirName(r.dir), damage: r.damage, lives: r.lives, flags: r.flags,
    archive: r.archive ? [r.archive[0], r.archive[1]] : null, virtual: r.virtual, poweredDown: r.poweredDown,
    destroyed: r.status === 'destroyed', out: r.status === 'out', options: r.options.slice(), locked: popcount(r.locked),
  };
}

function snapshot(sc: Scenario, st: GameState): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  sc.robots.forEach((r, i) => (out[r.name] = robotFields(st, i)));
  return out;
}

const ON_FLOOR_ONLY = new Set(['x', 'y', 'dir', 'damage', 'virtual', 'poweredDown', 'locked']);

function compare(sc: Scenario, e: Expect, st: GameState, when: string): string[] {
  const out: string[] = [];
  for (const [name, want] of e.robots) {
    const i = sc.robots.findIndex((r) => r.name === name);
    const r = st.robots[i]!;
    const have = robotFields(st, i);
    const offFloor = r.status !== 'active';
    const saysOff = want.destroyed === true || want.out === true;
    for (const [k, v] of Object.entries(want)) {
      if (offFloor && ON_FLOOR_ONLY.has(k)) {
        if (!saysOff && (k === 'x' || k === 'y')) {
          out.push(`${name} is ${r.status === 'out' ? 'out of the game' : 'destroyed'} (${when}), expected on the board`);
          break;
        }
        continue;
      }
      const expected = k === 'dir' ? dirName(v as 0) : v;
      if (JSON.stringify(have[k]) !== JSON.stringify(expected))
        out.push(`${name}.${k} is ${JSON.stringify(have[k])}, expected ${JSON.stringify(expected)} (${when})`);
    }
  }
  if (e.winner !== undefined) {
    const first = st.finished[0]?.map((i) => st.robots[i]!.name) ?? null;
    const norm = (l: readonly string[] | null) => (l ? [...l].sort().join(', ') : 'nobody');
    if (norm(first) !== norm(e.winner)) out.push(`winner is ${norm(first)}, expected ${norm(e.winner)} (${when})`);
  }
  return out;
}
