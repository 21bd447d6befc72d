/**
 * Options that change how a robot runs its card: Brakes, Fourth Gear, Reverse Gear (classic
 * choices; pbem's codes F0, F4, B2 are cards of their own), Crab Legs and Dual Processor (two cards
 * in one register), Ramming Gear, and the Gyroscopic Stabilizer against gears and belts.
 */
import { cardAction, type Card } from '../cards.js';
import type { Ctx } from '../context.js';
import type { Dir } from '../geometry.js';
import { moveRobot } from '../movement.js';
import { destroyIfWrecked } from '../robots.js';
import { hurt } from './damage.js';
import { holds, used } from './held.js';

/** A register begins: no robot has rammed another yet (2.20: at most once per robot per register). */
export const newRegisterRams = (ctx: Ctx): void => {
  if (ctx.work.rams.size) ctx.work.rams.clear();
};

/** Turns robot i by a card's quarter turns. */
export function rotate(ctx: Ctx, i: number, quarters: number): void {
  const r = ctx.state.robots[i]!;
  const from = r.dir;
  r.dir = ((from + quarters) & 3) as Dir; // 000 L142 "The card rotates the robot, but doesn't move it."
  ctx.events?.push({ type: 'turned', robot: i, from, to: r.dir, by: 'card' });
}

/** Runs `card` (and a card joined to it) for robot i in `register`, as its options say. */
export function runCard(ctx: Ctx, i: number, register: number, card: Card, joined: Card): void {
  const r = ctx.state.robots[i]!;
  const a = cardAction(card);
  // A second card runs only while the robot holds the option that joined it; one lost during the
  // turn (exchanged, destroyed by Fire Control) leaves the register's own card [def].
  if (joined) {
    const b = cardAction(joined);
    if (a.move === 1 && (b.turn === 1 || b.turn === 3) && holds(r, 'Crab Legs')) {
      crabStep(ctx, i, b.turn);
      return;
    }
    if (holds(r, 'Dual Processor')) {
      dualProcessor(ctx, i, a.move, b.turn);
      return;
    }
  }
  let move = a.move;
  const c = r.opt?.choices;
  if (c) {
    if (move === 1 && c.brakes?.includes(register)) move = brakes(ctx, i);
    else if (move === 3 && c.fourthGear?.includes(register)) move = fourthGear(ctx, i);
    else if (move === -1 && c.reverseGear?.includes(register)) move = reverseGear(ctx, i);
  }
  if (a.turn) rotate(ctx, i, a.turn);
  if (move) moveRobot(ctx, i, move);
}

/** 2.3 Brakes: a Move 1 may move 0 squares; its priority stays (000 L264). */
function brakes(ctx: Ctx, i: number): number {
  used(ctx, i, 'Brakes');
  return 0;
}

/** 2.12 Fourth Gear: a Move 3 may move 4 (000 L264). */
function fourthGear(ctx: Ctx, i: number): number {
  used(ctx, i, 'Fourth Gear');
  return 4;
}

/** 2.23 Reverse Gear: a Back-Up may back up 2 squares. */
function reverseGear(ctx: Ctx, i: number): number {
  used(ctx, i, 'Reverse Gear');
  return -2;
}

/** 2.6 Crab Legs (001 L191; B-47): a Move 1 with a Rotate Left or Right steps sideways, facing kept. */
function crabStep(ctx: Ctx, i: number, turn: number): void {
  used(ctx, i, 'Crab Legs');
  const r = ctx.state.robots[i]!;
  moveRobot(ctx, i, 1, ((r.dir + turn) & 3) as Dir);
}

/**
 * 2.8 Dual Processor (001 L193; B-47): a move and a turn in one register: the move less 1 (less 2
 * with a U-Turn, never below 0), then the turn.
 */
function dualProcessor(ctx: Ctx, i: number, move: number, turn: number): void {
  used(ctx, i, 'Dual Processor');
  const squares = Math.max(0, Math.abs(move) - (turn === 2 ? 2 : 1));
  if (squares) moveRobot(ctx, i, move < 0 ? -squares : squares);
  if (turn) rotate(ctx, i, turn);
}

/**
 * 2.20 Ramming Gear: robot i, moving itself, pushes robot j or runs into it where it cannot move:
 * j takes the rule set's ram damage, once a register; shields do not stop it (B-47).
 */
export function ram(ctx: Ctx, i: number, j: number): void {
  const r = ctx.state.robots[i]!;
  const rams = ctx.work.rams;
  if (!holds(r, 'Ramming Gear') || rams.has(i * 64 + j)) return;
  rams.add(i * 64 + j);
  const points = ctx.rules.options.ramDamage;
  used(ctx, i, 'Ramming Gear');
  ctx.events?.push({ type: 'rammed', robot: j, by: i, points });
  hurt(ctx, j, points, null);
  destroyIfWrecked(ctx, j);
}

/**
 * 2.13 Gyroscopic Stabilizer: while on (classic `gyro`, pbem `active`), gears and turning belts do
 * not rotate the robot; off while powered down.
 */
export function stabilized(ctx: Ctx, i: number): boolean {
  const r = ctx.state.robots[i]!;
  if (!r.options.length || r.poweredDown || !holds(r, 'Gyroscopic Stabilizer')) return false;
  const c = r.opt?.choices;
  const on = ctx.rules.options.toggles ? !!c?.active?.includes('Gyroscopic Stabilizer') : !!c?.gyro;
  if (on) used(ctx, i, 'Gyroscopic Stabilizer');
  return on;
}
