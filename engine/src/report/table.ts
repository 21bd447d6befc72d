/**
 * The turn report of 001: per register, a row per robot with its damage, its moves and notes
 * (001 L91-119). Built from the turn's events alone; moves by pushes and belts are written N, E,
 * S, W, moves by the robot's own instruction by its code.
 */
import { cardName, cardType, upgradeOf } from '../cards.js';
import type { GameEvent, PushSource, ShotSource } from '../events.js';
import type { GameState } from '../state.js';

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
}

export interface TurnReport {
  readonly turn: number;
  /** What happened before the registers: re-entries, power downs, filled programs. */
  readonly start: string[];
  readonly registers: RegisterReport[];
  /** Repairs, upgrades, robots becoming real. */
  readonly end: string[];
}

const LETTER = ['N', 'E', 'S', 'W'];
const PLACE = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
const CAUSE: Record<string, string> = { pit: 'fell into a pit', edge: 'fell off the board', damage: 'destroyed by damage', crusher: 'crushed' };

/** A card as 001 writes a move: its code, F for Move 1 (the upgrade codes F0, F4, B2 as they are). */
const code = (card: number): string => (upgradeOf(card) ? cardName(card) : cardType(card).replace(/^F1$/, 'F'));

function direction(from: readonly number[], to: readonly number[]): string {
  const dx = to[0]! - from[0]!, dy = to[1]! - from[1]!;
  return dx > 0 ? 'E' : dx < 0 ? 'W' : dy > 0 ? 'S' : 'N';
}

/**
 * `before` is the state the turn began from (for names and damage); `events` all the turn's
 * events, from `turnBegan` on.
 */
export function turnReport(before: GameState, events: readonly GameEvent[]): TurnReport {
  const names = before.robots.map((r) => r.name);
  const dmg = before.robots.map((r) => r.damage);
  const start: string[] = [];
  const end: string[] = [];
  const registers: RegisterReport[] = [];
  let turn = before.turn + 1;
  let rows: { move: string[]; notes: string[]; seen: boolean }[] | null = null;
  let lastMove: (string | null)[] = names.map(() => null);
  const fresh = () => names.map(() => ({ move: [] as string[], notes: [] as string[], seen: false }));
  const closeRegister = () => {
    if (!rows) return;
    const reg = registers.length + 1;
    registers.push({
      register: reg,
      rows: rows.map((row, i) => ({ robot: i, name: names[i]!, dmg: dmg[i]!, move: row.move, notes: row.notes })).filter((_, i) => rows![i]!.seen),
    });
  };
  const note = (i: number, text: string) => {
    if (rows) {
      rows[i]!.notes.push(text);
      rows[i]!.seen = true;
    } else (registers.length ? end : start).push(`${names[i]}: ${text}`);
  };
  const by = (src: PushSource | ShotSource) =>
    'robot' in src ? names[src.robot]! : 'pusher' in src ? 'a pusher' : 'repulsor' in src ? 'a repulsor field' : 'a board laser';
  for (const e of events) {
    switch (e.type) {
      case 'turnBegan':
        turn = e.turn;
        break;
      case 'registerBegan':
        closeRegister();
        rows = fresh();
        lastMove = names.map(() => null);
        before.robots.forEach((r, i) => {
          // Every robot still in the race has a row, powered down or not.
          if (r.status !== 'out') rows![i]!.seen = true;
        });
        break;
      case 'turnEnded':
        closeRegister();
        rows = null;
        break;
      case 'reentered':
        dmg[e.robot] = e.damage;
        start.push(`${names[e.robot]} re-enters at (${e.x},${e.y}) facing ${LETTER[e.dir]} with ${e.damage} damage${e.virtual ? ', virtual' : ''}${e.poweredDown ? ', powered down' : ''}`);
        break;
      case 'faced':
        start.push(`${names[e.robot]} starts facing ${LETTER[e.dir]}`);
        break;
      case 'poweredDown':
        start.push(`${names[e.robot]} is powered down`);
        break;
      case 'programmed':
        for (const f of e.filled) start.push(`${names[e.robot]}: register ${f.register} filled at random (${f.reason})`);
        break;
      case 'revealed':
        lastMove[e.robot] = code(e.card) + (e.joined ? `+${code(e.joined)}` : '');
        rows![e.robot]!.seen = true;
        break;
      case 'moved':
        if (lastMove[e.robot] && rows) {
          rows[e.robot]!.move.push(lastMove[e.robot]!);
          lastMove[e.robot] = null;
        }
        break;
      case 'turned':
        if (e.by === 'card' && lastMove[e.robot] && rows) {
          rows[e.robot]!.move.push(lastMove[e.robot]!);
          lastMove[e.robot] = null;
        } else if (e.by !== 'card') note(e.robot, `turned ${((e.to - e.from + 4) & 3) === 1 ? 'right' : 'left'} by a ${e.by}`);
        break;
      case 'blocked':
        if (lastMove[e.robot] && rows) {
          rows[e.robot]!.move.push(lastMove[e.robot]!);
          lastMove[e.robot] = null;
        }
        note(e.robot, 'blocked');
        break;
      case 'pushed':
        rows?.[e.robot]!.move.push(direction(e.from, e.to));
        note(e.robot, `pushed by ${by(e.by)}`);
        break;
      case 'carried':
        rows?.[e.robot]!.move.push(direction(e.from, e.to));
        if (rows) rows[e.robot]!.seen = true;
        break;
      case 'shot':
        note(e.robot, `shot by ${by(e.by)}${e.weapon && e.weapon !== 'main' ? `'s ${e.weapon === 'rear' ? 'rear laser' : e.weapon}` : ''}${e.points > 1 ? ` (${e.points})` : ''}`);
        break;
      case 'blockedShot':
        note(e.robot, `${e.by} stops ${e.points}`);
        break;
      case 'exchanged':
        note(e.robot, `discards ${e.option} for a point of damage`);
        break;
      case 'markerLocked':
        note(e.robot, `register ${e.register} locked by ${names[e.by]}'s Fire Control`);
        break;
      case 'optionDestroyed':
        note(e.robot, `${e.option} destroyed by ${names[e.by]}'s Fire Control`);
        break;
      case 'rammed':
        note(e.robot, `rammed by ${names[e.by]}`);
        break;
      case 'scrambled':
        note(e.robot, `register ${e.register} scrambled by ${names[e.by]}`);
        break;
      case 'radioControlled':
        note(e.robot, `radio controlled by ${names[e.by]} (registers ${e.registers.join(', ')})`);
        break;
      case 'aborted':
        note(e.robot, `Abort Switch: register ${e.register} now ${code(e.card)}`);
        break;
      case 'swapped':
        note(e.robot, `Conditional Program: ${code(e.card)} in register ${e.register}`);
        break;
      case 'optionDrawn':
        note(e.robot, `draws ${e.option}`);
        break;
      case 'optionDiscarded':
        if (e.why === 'spent' || e.why === 'scrapped') note(e.robot, `${e.option} ${e.why === 'spent' ? 'used up' : 'scrapped'}`);
        break;
      case 'optionRecharged':
        note(e.robot, `${e.option} recharged`);
        break;
      case 'recompiled':
        start.push(`${names[e.robot]} recompiles`);
        break;
      case 'circuitBreaker':
        end.push(`${names[e.robot]}'s Circuit Breaker powers it down for next turn`);
        break;
      case 'damaged':
        dmg[e.robot] = e.damage;
        break;
      case 'repaired':
        dmg[e.robot] = e.damage;
        if (!rows) (registers.length ? end : start).push(`${names[e.robot]} repairs ${e.points} (${e.by === 'powerDown' ? 'powered down' : `on a ${e.by}`}): ${e.damage} damage`);
        break;
      case 'locked':
        note(e.robot, `register${e.registers.length > 1 ? 's' : ''} ${e.registers.join(', ')} locked`);
        break;
      case 'destroyed':
        note(e.robot, `${CAUSE[e.cause]}${e.pushedBy ? ` (pushed by ${by(e.pushedBy)})` : ''}`);
        break;
      case 'out':
        note(e.robot, 'out of the race');
        break;
      case 'flagTouched':
        note(e.robot, `touched flag ${e.flag}`);
        break;
      case 'finished':
        note(e.robot, `finished ${PLACE(e.place)}`);
        break;
      case 'powerDownAnnounced':
        start.push(`${names[e.robot]} announces a power down for next turn`);
        break;
      case 'upgraded':
        end.push(`${names[e.robot]} is upgraded with ${e.option}`);
        break;
      case 'optionLost':
        note(e.robot, `loses ${e.option}`);
        break;
      case 'becameReal':
        end.push(`${names[e.robot]} becomes real`);
        break;
      default:
        break;
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
  }
  if (rep.end.length) out.push('', 'End of turn', ...rep.end.map((s) => `  ${s}`));
  return out.join('\n');
}
