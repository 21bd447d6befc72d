/**
 * Every change of state is an event that says what caused it. Reports, pictures, replays and
 * statistics are built from these alone. Robots are named by their index in `state.robots`.
 */
import type { Card } from './cards.js';
import type { Dir, Square } from './geometry.js';

/** What pushed a robot: another robot's move, or a board pusher (its index in `board.pushers`). */
export type PushSource = { robot: number } | { pusher: number } | { repulsor: [number, number] };
/** What shot a robot: another robot, or a board laser (its index in `board.lasers`). */
export type ShotSource = { robot: number } | { laser: number };
/** Which weapon of a robot fired: its main laser, its rear laser, or an optional weapon by name. */
export type WeaponName = 'main' | 'rear' | 'Pressor Beam' | 'Tractor Beam' | 'Mini Howitzer' | 'Scrambler' | 'Radio Control';
/** `fold`: the robot crossed a fold of a cube course (004 L179) and faces on as the floor turns. */
export type TurnCause = 'card' | 'gear' | 'belt' | 'fold';
export type DestroyCause = 'pit' | 'edge' | 'damage' | 'crusher';
export type RepairCause = 'wrench' | 'flag' | 'powerDown';

export type GameEvent =
  | { type: 'turnBegan'; turn: number }
  | { type: 'faced'; robot: number; dir: Dir }
  | { type: 'reentered'; robot: number; x: number; y: number; dir: Dir; damage: number; virtual: boolean; poweredDown: boolean }
  | { type: 'poweredDown'; robot: number }
  | { type: 'poweredUp'; robot: number }
  | { type: 'dealt'; robot: number; cards: number }
  | { type: 'programmed'; robot: number; filled: { register: number; reason: 'missing' | 'chosen' | 'illegal' | 'unreadable' }[] }
  | { type: 'powerDownAnnounced'; robot: number }
  /** A power down announced for next turn lapses: the robot was destroyed first (B-17). */
  | { type: 'powerDownCancelled'; robot: number }
  | { type: 'registerBegan'; register: number }
  | { type: 'revealed'; robot: number; register: number; card: Card; joined?: Card; copy?: boolean }
  | { type: 'moved'; robot: number; from: Square; to: Square }
  | { type: 'pushed'; robot: number; from: Square; to: Square; by: PushSource }
  | { type: 'carried'; robot: number; from: Square; to: Square; express: boolean }
  | { type: 'blocked'; robot: number; x: number; y: number; dir: Dir }
  | { type: 'slipped'; robot: number }
  | { type: 'slid'; robot: number; from: Square; to: Square }
  | { type: 'teleported'; robot: number; from: Square; to: Square }
  | { type: 'rampSlide'; robot: number; x: number; y: number }
  | { type: 'ledgeDrop'; robot: number; points: number }
  | { type: 'turned'; robot: number; from: Dir; to: Dir; by: TurnCause }
  | { type: 'shot'; robot: number; by: ShotSource; points: number; from: Square; to: Square; weapon?: WeaponName }
  | { type: 'blockedShot'; robot: number; by: 'Shield' | 'Power-Down Shield' | 'Ablative Coat'; points: number }
  | { type: 'exchanged'; robot: number; option: string }
  | { type: 'markerLocked'; robot: number; register: number; by: number }
  | { type: 'optionDestroyed'; robot: number; option: string; by: number }
  | { type: 'rammed'; robot: number; by: number; points: number }
  | { type: 'scrambled'; robot: number; register: number; card: Card; by: number }
  | { type: 'radioControlled'; robot: number; by: number; registers: number[] }
  | { type: 'aborted'; robot: number; register: number; card: Card }
  | { type: 'swapped'; robot: number; register: number; card: Card }
  | { type: 'stored'; robot: number }
  | { type: 'recompiled'; robot: number; cards: number }
  | { type: 'optionDrawn'; robot: number; option: string }
  | { type: 'optionUsed'; robot: number; option: string }
  | { type: 'optionDiscarded'; robot: number; option: string; why: 'spent' | 'exchanged' | 'destroyed' | 'scrapped' }
  | { type: 'optionRecharged'; robot: number; option: string }
  | { type: 'circuitBreaker'; robot: number; damage: number }
  | { type: 'damaged'; robot: number; points: number; damage: number }
  | { type: 'locked'; robot: number; registers: number[] }
  | { type: 'unlocked'; robot: number; registers: number[] }
  | { type: 'destroyed'; robot: number; cause: DestroyCause; pushedBy: PushSource | null; lives: number }
  | { type: 'out'; robot: number }
  | { type: 'flagTouched'; robot: number; flag: number }
  | { type: 'archived'; robot: number; x: number; y: number }
  | { type: 'finished'; robot: number; place: number }
  | { type: 'repaired'; robot: number; points: number; damage: number; by: RepairCause }
  | { type: 'upgraded'; robot: number; option: string }
  | { type: 'offered'; x: number; y: number; option: string }
  | { type: 'optionLost'; robot: number; option: string }
  | { type: 'becameReal'; robot: number }
  | { type: 'dieHit'; flag: number; points: number; left: number }
  | { type: 'turnEnded'; turn: number };

export type EventType = GameEvent['type'];
