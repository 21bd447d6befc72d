/**
 * The turn report of 001: per register, a row per robot with its damage, its moves and notes
 * (001 L91-119). Built from the turn's events alone; moves by pushes and belts are written N, E,
 * S, W, moves by the robot's own instruction by its code.
 */
import { cardName, upgradeOf } from '../cards.js';
import type { GameEvent, PushSource, ShotSource } from '../events.js';
import type { GameState } from '../state.js';
import { narrate } from './narrate.js';

export interface ReportRow {
  readonly robot: number;
  readonly name: string;
  /** Damage at the end of the register phase. */
  readonly dmg: number;
  readonly move: string[];
  readonly notes: string[];
}

export interface RegisterReport {
  readonly register: number;
  readonly rows: ReportRow[];
  /** What happened in the register to no robot's row: a die hit on a flag (the Dice Rule). */
  readonly also: string[];
}

export interface TurnReport {
  readonly turn: number;
  /** What happened before the registers: re-entries, power downs, filled programs. */
  readonly start: string[];
  readonly registers: RegisterReport[];
  /** After the fifth register: repairs, offers, upgrades, options, robots becoming real. */
  readonly end: string[];
}

/**
 * A card as the Move column writes it: 001's code (F for Move 1; the upgrade codes F0, F4, B2 as
 * they are), and with 003's priority when the card has one (`F1 P530`), so the order the robots
 * moved in can be read from the table.
 */
function code(card: number): string {
  if (upgradeOf(card)) return cardName(card);
  const [type, priority] = cardName(card).split(':');
  return priority ? `${type} P${priority}` : type!.replace(/^F1$/, 'F');
}

const PLACE = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
const CAUSE: Record<string, string> = { pit: 'fell into a pit', edge: 'fell off the board', damage: 'destroyed by damage', crusher: 'crushed' };

function direction(from: readonly number[], to: readonly number[]): string {
  const dx = to[0]! - from[0]!, dy = to[1]! - from[1]!;
  return dx > 0 ? 'E' : dx < 0 ? 'W' : dy > 0 ? 'S' : 'N';
}

/**
 * Events that only the end of a turn emits (000 L101-102): once one comes after the fifth
 * register, the registers are over and the rest is told under "End of turn" (so the fifth
 * register's damage is the damage before the repairs).
 */
const endsRegisters = (e: GameEvent): boolean =>
  (e.type === 'repaired' && e.by !== 'powerDown') || e.type === 'offered' || e.type === 'upgraded' || e.type === 'circuitBreaker' || e.type === 'becameReal';

/**
 * `before` is the state the turn began from (for names and damage); `events` all the turn's
 * events, from `turnBegan` on. Every event has its place: a move in the Move column, a note in its
 * robot's row, or a line of the start, the register or the end, in the engine's narration.
 */
export function turnReport(before: GameState, events: readonly GameEvent[]): TurnReport {
  const names = before.robots.map((r) => r.name);
  const tell = (e: GameEvent) => narrate(e, { names });
  const dmg = before.robots.map((r) => r.damage);
  const start: string[] = [];
  const end: string[] = [];
  const registers: RegisterReport[] = [];
  let turn = before.turn + 1;
  let rows: { move: string[]; notes: string[]; seen: boolean }[] | null = null;
  let also: string[] = [];
  let lastMove: (string | null)[] = names.map(() => null);
  /** Robots destroyed this turn: off the floor until the next, so in no later register's table. */
  const gone = new Set<number>();
  /** Those destroyed in the register under way, and those of them out of the race. */
  let fallen: number[] = [];
  const outOfRace = new Set<number>();
  const fresh = () => names.map(() => ({ move: [] as string[], notes: [] as string[], seen: false }));
  const closeRegister = () => {
    if (!rows) return;
    const reg = registers.length + 1;
    const seen = rows;
    // A robot destroyed is told once, in the register it fell in, as a moderator's table tells it;
    // not by an empty row in each register after.
    if (reg < 5) for (const i of fallen) if (!outOfRace.has(i)) seen[i]!.notes.push('out for the rest of the turn');
    fallen = [];
    registers.push({
      register: reg,
      rows: seen.map((row, i) => ({ robot: i, name: names[i]!, dmg: dmg[i]!, move: row.move, notes: row.notes })).filter((_, i) => seen[i]!.seen),
      also,
    });
    rows = null;
  };
  /** A line outside the registers: before the first, or after the last. */
  const aside = (text: string) => (registers.length ? end : start).push(text);
  const note = (i: number, text: string, e: GameEvent) => {
    if (rows) {
      rows[i]!.notes.push(text);
      rows[i]!.seen = true;
    } else aside(tell(e));
  };
  /** The card's code once, on the first step it makes (or the first thing that stops it). */
  const played = (i: number) => {
    if (lastMove[i] && rows) {
      rows[i]!.move.push(lastMove[i]!);
      lastMove[i] = null;
    }
  };
  const by = (src: PushSource | ShotSource) =>
    'robot' in src ? names[src.robot]! : 'pusher' in src ? 'a pusher' : 'repulsor' in src ? 'a repulsor field' : 'a board laser';
  for (const e of events) {
    if (rows && registers.length === 4 && endsRegisters(e)) closeRegister();
    switch (e.type) {
      case 'turnBegan':
        turn = e.turn;
        break;
      case 'registerBegan':
        closeRegister();
        rows = fresh();
        also = [];
        lastMove = names.map(() => null);
        before.robots.forEach((r, i) => {
          // Every robot on the floor has a row, powered down or not.
          if (r.status !== 'out' && !gone.has(i)) rows![i]!.seen = true;
        });
        break;
      case 'turnEnded':
        closeRegister();
        break;
      case 'dealt':
      case 'optionUsed':
        break; // the hand is the player's own; an option used is told by what it does
      case 'reentered':
        dmg[e.robot] = e.damage;
        aside(tell(e));
        break;
      case 'programmed':
        if (e.filled.length) aside(tell(e));
        break;
      case 'revealed':
        lastMove[e.robot] = code(e.card) + (e.joined ? `+${code(e.joined)}` : '');
        if (rows) rows[e.robot]!.seen = true;
        break;
      case 'moved':
        played(e.robot);
        break;
      case 'turned':
        if (e.by === 'card') played(e.robot);
        else if (e.by === 'fold') note(e.robot, `over the cube's fold, facing ${'NESW'[e.to]}`, e);
        else note(e.robot, `turned ${((e.to - e.from + 4) & 3) === 1 ? 'right' : 'left'} by a ${e.by}`, e);
        break;
      case 'blocked':
        played(e.robot);
        note(e.robot, 'blocked', e);
        break;
      case 'pushed':
        rows?.[e.robot]!.move.push(direction(e.from, e.to));
        note(e.robot, `pushed by ${by(e.by)}`, e);
        break;
      case 'carried':
        rows?.[e.robot]!.move.push(direction(e.from, e.to));
        if (rows) rows[e.robot]!.seen = true;
        break;
      case 'slid':
        rows?.[e.robot]!.move.push(direction(e.from, e.to));
        note(e.robot, 'slides on oil', e);
        break;
      case 'teleported':
        played(e.robot);
        note(e.robot, `through the portal to (${e.to[0]},${e.to[1]})`, e);
        break;
      case 'shot':
        note(e.robot, `shot by ${by(e.by)}${e.weapon && e.weapon !== 'main' ? `'s ${e.weapon === 'rear' ? 'rear laser' : e.weapon}` : ''}${e.points > 1 ? ` (${e.points})` : ''}`, e);
        break;
      case 'damaged':
        dmg[e.robot] = e.damage;
        break;
      case 'repaired':
        dmg[e.robot] = e.damage;
        if (rows) note(e.robot, `repairs ${e.points}`, e);
        else aside(tell(e));
        break;
      case 'destroyed':
        note(e.robot, `${CAUSE[e.cause]}${e.pushedBy ? ` (pushed by ${by(e.pushedBy)})` : ''}`, e);
        gone.add(e.robot);
        if (rows) fallen.push(e.robot);
        break;
      case 'out':
        note(e.robot, 'out of the race', e);
        outOfRace.add(e.robot);
        break;
      case 'flagTouched':
        note(e.robot, `touched flag ${e.flag}`, e);
        break;
      case 'finished':
        note(e.robot, `finished ${PLACE(e.place)}`, e);
        break;
      case 'unlocked':
        if (e.registers.length) note(e.robot, `register${e.registers.length > 1 ? 's' : ''} ${e.registers.join(', ')} unlocked`, e);
        break;
      case 'offered':
      case 'dieHit':
        if (rows) also.push(tell(e));
        else aside(tell(e));
        break;
      default: {
        // Everything else in the robot's row as the narrator tells it, less the robot's name.
        const text = tell(e);
        const own = names[e.robot]!;
        note(e.robot, text.startsWith(`${own}'s `) ? text.slice(own.length + 3) : text.startsWith(`${own}: `) ? text.slice(own.length + 2) : text.startsWith(`${own} `) ? text.slice(own.length + 1) : text, e);
      }
    }
  }
  closeRegister();
  return { turn, start, registers, end };
}

/** The report as text: a table per register, as 001's moderator mailed it. */
export function formatTurnReport(rep: TurnReport): string {
  const out: string[] = [`Turn ${rep.turn}`];
  if (rep.start.length) out.push(...rep.start.map((s) => `  ${s}`));
  for (const reg of rep.registers) {
    out.push('', `Register ${reg.register}`);
    const cells = [['Dmg', 'Name', 'Move', 'Notes'], ...reg.rows.map((r) => [String(r.dmg), r.name, r.move.join(','), r.notes.join('; ')])];
    const width = [0, 1, 2].map((c) => Math.max(...cells.map((row) => row[c]!.length)));
    for (const row of cells)
      out.push(`${row[0]!.padStart(width[0]!)}  ${row[1]!.padEnd(width[1]!)}  ${row[2]!.padEnd(width[2]!)}  ${row[3]}`.trimEnd());
    out.push(...reg.also.map((s) => `  ${s}`));
  }
  if (rep.end.length) out.push('', 'End of turn', ...rep.end.map((s) => `  ${s}`));
  return out.join('\n');
}
