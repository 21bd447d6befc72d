/**
 * A live race's programming clock waits for the replay (docs/server.md, "The clock waits for the
 * replay"). When a turn has been played, the next turn's `deadline` entry says by when its clock
 * starts at the latest (`clockStartsBy`: the replay's length and a margin, deadline.ts
 * `replayWaitMs`); each person's page says when they have watched or skipped the replay (a
 * `ready` entry, `POST …/seats/{seat}/ready`); once every person still racing has, the clock starts
 * (a `clockStarted` entry with the new deadline). The state is read from the turn's entries, so it
 * needs no table of its own and every process sees the same.
 */

/** The entries of the race's own that tell the clock. */
type ClockEvent =
  | { type: 'deadline'; at: number | null; clockStartsBy?: number }
  | { type: 'ready'; seats: number[] }
  | { type: 'clockStarted'; at: number };

/** The clock of a turn that waits for the replay: by when it starts at the latest, and the seats whose people are ready. */
export interface WaitingClock {
  readonly startsBy: number;
  readonly ready: readonly number[];
}

/**
 * Whether the current turn's clock still waits for the replay, from the turn's entries in order;
 * null when it runs (it has started, the moderator paused, resumed or moved it, or the turn never
 * waited: the first turn, a scheduled race).
 */
export function waitingClock(entries: readonly { kind: string; event: { type: string } }[], now: number): WaitingClock | null {
  let clock: { startsBy: number; ready: number[] } | null = null;
  for (const e of entries) {
    if (e.kind !== 'race') continue;
    const ev = e.event as ClockEvent | { type: string };
    if (ev.type === 'deadline') {
      const by = (ev as Extract<ClockEvent, { type: 'deadline' }>).clockStartsBy;
      clock = typeof by === 'number' ? { startsBy: by, ready: [] } : null;
    } else if (ev.type === 'ready') clock?.ready.push(...(ev as Extract<ClockEvent, { type: 'ready' }>).seats);
    else if (['clockStarted', 'paused', 'resumed', 'rewound'].includes(ev.type)) clock = null;
  }
  return clock && clock.startsBy > now ? clock : null;
}

/** What a view tells of a waiting clock: by when it starts, and whose people have not watched the replay yet. */
export function clockView(clock: WaitingClock | null, people: readonly number[]): { startsBy: number; waitingFor: number[] } | null {
  return clock ? { startsBy: clock.startsBy, waitingFor: people.filter((s) => !clock.ready.includes(s)) } : null;
}
