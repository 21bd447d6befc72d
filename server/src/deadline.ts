/**
 * Deadline policies: a live race gives each programming phase some seconds; a scheduled race sets
 * its deadlines at a clock time in a time zone, leaving at least some hours to answer (001 L389-391
 * "Moves are due at 10PM on the day of the deadline. The deadline is set to give players at least
 * 20 hours to send in their moves.").
 */
import { err, ok, type Result } from '../../engine/src/index.js';

export type DeadlinePolicy =
  | { readonly kind: 'live'; readonly seconds: number }
  | { readonly kind: 'scheduled'; readonly time: string; readonly zone: string; readonly minimumHours: number };

/** The server's clock: injected, so tests can run a week of deadlines in seconds. */
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parsePolicy(v: unknown, path = 'deadline'): Result<DeadlinePolicy> {
  if (!isObject(v)) return err(path, 'expected {"kind": "live", "seconds": N} or {"kind": "scheduled", "time": "22:00", "zone": "Europe/London", "minimumHours": 20}');
  const known = v.kind === 'live' ? ['kind', 'seconds'] : ['kind', 'time', 'zone', 'minimumHours'];
  const extra = Object.keys(v).find((k) => !known.includes(k));
  if (extra !== undefined && (v.kind === 'live' || v.kind === 'scheduled')) return err(`${path}.${extra}`, `unknown field (expected ${known.join(', ')})`);
  if (v.kind === 'live') {
    const s = v.seconds;
    if (!Number.isInteger(s) || (s as number) < 5 || (s as number) > 86400) return err(`${path}.seconds`, 'expected whole seconds from 5 to 86400');
    return ok({ kind: 'live', seconds: s as number });
  }
  if (v.kind === 'scheduled') {
    if (typeof v.time !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(v.time)) return err(`${path}.time`, 'expected a clock time HH:MM, 00:00 to 23:59');
    const zone = v.zone === undefined ? 'UTC' : v.zone;
    if (typeof zone !== 'string' || !validZone(zone)) return err(`${path}.zone`, 'expected an IANA time zone such as "Europe/London" or "America/New_York"');
    const h = v.minimumHours === undefined ? 20 : v.minimumHours;
    if (typeof h !== 'number' || !(h >= 0) || h > 24 * 14) return err(`${path}.minimumHours`, 'expected hours from 0 to 336');
    return ok({ kind: 'scheduled', time: v.time, zone, minimumHours: h });
  }
  return err(`${path}.kind`, 'expected "live" or "scheduled"');
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** How far the zone's wall clock is ahead of UTC at instant t, in ms. */
function offset(zone: string, t: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(t / 1000) * 1000;
}

/**
 * The instant at which the zone's wall clock shows this date and time: its first coming when the
 * clock shows it twice (summer time ends); when the clock skips it (summer time begins), the
 * instant as reckoned before the change, which the clock shows moved on by the gap (02:30 skipped
 * from 02:00 to 03:00 is 03:30), never an instant before the gap.
 */
function atWallTime(zone: string, y: number, m: number, d: number, hh: number, mm: number): number {
  const wall = Date.UTC(y, m, d, hh, mm);
  const before = offset(zone, wall - 86_400_000);
  const after = offset(zone, wall + 86_400_000);
  const shown = [wall - before, wall - after].filter((t) => offset(zone, t) === wall - t);
  return shown.length ? Math.min(...shown) : wall - before;
}

/**
 * When the programming phase that starts now ends: never now itself (with `minimumHours` 0, a turn
 * played at the very millisecond of its deadline would otherwise be due again at once, and the
 * next tick would play the next turn too: a day's turn lost).
 */
export function nextDeadline(p: DeadlinePolicy, now: number): number {
  if (p.kind === 'live') return now + p.seconds * 1000;
  const [hh, mm] = p.time.split(':').map(Number) as [number, number];
  const local = new Date(now + offset(p.zone, now));
  for (let day = 0; day < 400; day++) {
    const t = atWallTime(p.zone, local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + day, hh, mm);
    if (t > now && t >= now + p.minimumHours * 3600_000) return t;
  }
  return now + p.minimumHours * 3600_000;
}

/**
 * How long a live race waits for its people to watch the replay of the turn just played before its
 * programming clock starts anyway (a stalled or closed page never halts the race): the replay's
 * length at 1× as the web client plays it (`replayMs`, the longer of animated and reduced motion)
 * and a margin, at most two minutes. Each person's page says when they have watched or skipped the
 * replay (`POST …/seats/{seat}/ready`); the clock starts as soon as every person has.
 */
export const REPLAY_WAIT = { marginMs: 15_000, mostMs: 120_000 } as const;

export function replayWaitMs(replayMs: number): number {
  return Math.min(REPLAY_WAIT.mostMs, REPLAY_WAIT.marginMs + Math.max(0, replayMs));
}
