/**
 * The moderator's tools: pause and resume the clock, extend the deadline, hand a seat to a bot, send
 * a person a new invite to their seat,
 * play the turn now, rewind the last turn played so that it is played again (after a
 * correction of someone's orders, sent with the moderator key on that turn only), and race a race
 * over again.
 */
import { LEVELS, isLevel } from '../../bots/src/index.js';
import type { RaceRow } from './db.js';
import { nextDeadline, type Clock } from './deadline.js';
import { no, yes, type Answer } from './errors.js';
import { hashSecret, newToken, type Auth } from './auth.js';
import type { Change, LoadedRace, RaceRepository } from './repository.js';
import type { Entry, RaceEvent } from './races.js';
import { stateOf } from './race-cache.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ModerationDeps {
  readonly repo: RaceRepository;
  readonly auth: Auth;
  readonly clock: Clock;
  /** The repository's commitChange, followed by the announcement of what was committed. */
  readonly commit: (race: Pick<RaceRow, 'id' | 'version' | 'last_seq'>, entries: readonly Omit<Entry, 'seq'>[], change?: Change) => Promise<number | null>;
  /** Plays the race's turn now (`onlyTurn`: only if that is still the current turn); 'soon': once its bots have decided. */
  readonly playNow: (id: string, onlyTurn?: number) => Promise<boolean | 'soon'>;
  /** The race over raced again (races.ts `rematchOf`): made by the first to ask, answered to everyone after. */
  readonly rematch: (got: LoadedRace) => Promise<Answer<{ id: string; made: boolean }>>;
}

/**
 * What a moderator's action did; `invite`: the new invite of the seats an `invite` action was for;
 * `race`: the rematch a `rematch` action asked for (races.ts `rematchOf`), `made` by this action or before.
 */
export interface Moderated {
  readonly done: string;
  readonly invite?: string;
  readonly seats?: number[];
  readonly race?: string;
  readonly made?: boolean;
}

export class Moderation {
  constructor(private readonly d: ModerationDeps) {}

  /**
   * `turnFirst`: the turn the action was first judged on, when another change of the race (a seat's
   * orders or claim, on another process) overtook its commit: it is judged again from the race as
   * it is now, unless a turn was played (or rewound) meanwhile, which the moderator should see first.
   */
  async moderate(id: string, key: string | undefined, action: string, body: unknown, attempt = 1, turnFirst?: number): Promise<Answer<Moderated>> {
    const got = await this.d.auth.moderator(id, key);
    if (!got.ok) return got;
    const { race, seats } = got.value;
    const b = isObject(body) ? body : {};
    const now = this.d.clock.now();
    const st = stateOf(race);
    if (turnFirst !== undefined && st.turn !== turnFirst) return no(409, 'race', `the race changed meanwhile (now on turn ${st.turn}): look again, and send the action again if it is still wanted`);
    let set: Partial<RaceRow> = {};
    let event: RaceEvent;
    let turn = st.turn;
    const more: RaceEvent[] = [];
    let writes: Change['writes'];
    let seatsChanged = false;
    let invited: { invite: string; seats: number[] } | undefined;
    switch (action) {
      case 'pause':
        if (race.paused_left !== null) return no(409, 'race', 'already paused');
        if (race.status !== 'running') return no(409, 'race', 'the race is over');
        set = { paused_left: Math.max(0, (race.deadline_at ?? now) - now), deadline_at: null };
        event = { type: 'paused' };
        break;
      case 'resume':
        if (race.paused_left === null) return no(409, 'race', 'not paused');
        set = { paused_left: null, deadline_at: now + race.paused_left };
        event = { type: 'resumed' };
        break;
      case 'extend': {
        const sec = b.seconds;
        if (!Number.isInteger(sec) || (sec as number) < 1 || (sec as number) > 30 * 86400) return no(422, 'seconds', 'expected whole seconds, 1 to 2592000');
        if (race.status !== 'running') return no(409, 'race', 'the race is over');
        if (race.paused_left !== null) set = { paused_left: race.paused_left + (sec as number) * 1000 };
        else set = { deadline_at: (race.deadline_at ?? now) + (sec as number) * 1000 };
        event = { type: 'deadline', at: set.deadline_at ?? null };
        break;
      }
      case 'replace': {
        const seat = b.seat;
        if (!Number.isInteger(seat) || !seats[seat as number]) return no(422, 'seat', `expected a seat number 0 to ${seats.length - 1}`);
        const level = b.level ?? 'random';
        if (typeof level !== 'string' || !isLevel(level)) return no(422, 'level', `expected a bot level: ${LEVELS.join(', ')}`);
        event = { type: 'seatReplaced', seat: seat as number, level };
        writes = (q) => [q.updateTable('seats').set({ kind: 'bot', level, token_hash: '', invite_hash: '' }).where('race_id', '=', id).where('seat', '=', seat as number)];
        seatsChanged = true;
        // With no person left racing, the turn plays at bot speed (as timing.ts deals the next turns),
        // not at the deadline set for the people.
        const people = seats.filter((x) => x.kind === 'human' && x.seat !== seat && st.robots[x.seat]!.status !== 'out');
        if (race.status === 'running' && !people.length) {
          if (race.paused_left !== null) set = { paused_left: 0 };
          else {
            set = { deadline_at: now };
            more.push({ type: 'deadline', at: now });
          }
        }
        break;
      }
      case 'invite': {
        // A person who lost their seat's own link (or whose invite somebody else spent) is sent a
        // new invite: the seat's token stops opening it, so the person who held it sees the change.
        const seat = b.seat;
        const s = Number.isInteger(seat) ? seats[seat as number] : undefined;
        if (!s) return no(422, 'seat', `expected a seat number 0 to ${seats.length - 1}`);
        if (s.kind !== 'human') return no(409, 'seat', `seat ${s.seat} is played by a bot`);
        if (race.status !== 'running') return no(409, 'race', 'the race is over');
        if ((await this.d.repo.mailSecret(id, s.seat)) !== null) return no(409, 'seat', `seat ${s.seat} is raced by e-mail: its person's mails carry the link to its page`);
        // The seats of its person: those its token or its invite opens.
        const mine = seats.filter((x) => x.seat === s.seat || (s.token_hash !== '' && x.token_hash === s.token_hash) || (s.invite_hash !== '' && x.invite_hash === s.invite_hash)).map((x) => x.seat);
        const invite = newToken();
        invited = { invite, seats: mine };
        event = { type: 'invited', seats: mine };
        // The holds of its token end here (races.ts `openedBefore`: the person's claim lists them).
        writes = (q, first) => [
          q.updateTable('seats').set({ token_hash: '', invite_hash: hashSecret(invite) }).where('race_id', '=', id).where('seat', 'in', mine),
          q.updateTable('seat_holds').set({ to_turn: turn, to_seq: first }).where('race_id', '=', id).where('seat', 'in', mine).where('to_turn', 'is', null),
        ];
        seatsChanged = true;
        break;
      }
      case 'adjudicate':
        if (b.turn !== undefined && !Number.isSafeInteger(b.turn)) return no(422, 'turn', 'expected the number of the turn to play (optional: without it, the current turn)');
      {
        const played = await this.d.playNow(id, b.turn as number | undefined);
        if (played === 'soon') return yes({ done: 'the turn is played as soon as the bots have decided (at most their time budget)' });
        return played ? yes({ done: 'the turn was played' }) : no(409, 'turn', 'the turn could not be played now (paused, over, or played meanwhile)');
      }
      case 'rematch': {
        // The race raced again, watched from here: its moderator key moderates it too.
        const made = await this.d.rematch(got.value);
        return made.ok ? yes({ done: 'rematch', race: made.value.id, made: made.value.made }) : made;
      }
      case 'rewind': {
        const last = race.status === 'over' ? st.turn : st.turn - 1;
        const row = await this.d.repo.turn(id, last);
        if (!row || row.first_seq === null) return no(409, 'turn', 'no turn has been played yet');
        set = { state: row.dealt, status: 'running', paused_left: null, deadline_at: nextDeadline(JSON.parse(race.policy), now), play_by: null };
        event = { type: 'rewound', turn: last, from: row.first_seq, to: race.last_seq };
        turn = last;
        // The turns after it go, and any orders sent for them (for hands no longer dealt).
        writes = (q) => [q.deleteFrom('turns').where('race_id', '=', id).where('turn', '>', last), q.deleteFrom('orders').where('race_id', '=', id).where('turn', '>', last)];
        break;
      }
      default:
        return no(404, 'action', 'expected pause, resume, extend, replace, invite, adjudicate, rewind or rematch');
    }
    const committed = await this.d.commit(race, [event, ...more].map((e) => ({ turn, kind: 'race' as const, event: e })), { set, ...(writes ? { writes } : {}), ...(seatsChanged ? { seatsChanged: true as const } : {}) });
    // Before 2026-12-01 any change that came first was answered 409 (a new invite racing a seat's
    // orders on another process, seven times in ten).
    if (committed === null) return attempt < 5 ? this.moderate(id, key, action, body, attempt + 1, st.turn) : no(409, 'race', 'the race is changing too fast; send the action again');
    return yes({ done: event.type, ...invited });
  }
}
