/**
 * Who may do what to a race: a seat's secret token (made when its person takes the seat with the
 * invite of their link, for them alone), a mail seat's secret (its reply address), the race's
 * moderator key. Secrets are made here; only hashes of invites, tokens and keys are stored (a mail
 * secret travels in every mail to the seat, so it is kept as it is).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { no, yes, type Answer } from './errors.js';
import type { LoadedRace, RaceRepository } from './repository.js';

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
/** A new token or key: 144 random bits, URL-safe. */
export const newToken = (): string => randomBytes(18).toString('base64url');
/** A seat's mail secret: lower case letters and digits, which survive mail systems that fold case. */
export const newMailSecret = (): string => [...randomBytes(12)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');

/**
 * The web token of a seat raced by e-mail: made from its mail secret, which only its person's
 * mails carry, so the link to the seat's page those mails give needs no invite (and the race's
 * creator, who never sees the secret, has neither).
 */
export const mailWebToken = (mailSecret: string): string => createHash('sha256').update(`web:${mailSecret}`).digest('base64url').slice(0, 24);

/**
 * The token a claim sent with a browser's own key makes: the same for the same invite and key, so a
 * browser whose claim's answer was lost sends the claim again and gets its token; nobody without
 * the browser's key (the race's creator holds the invite) can make it.
 */
export const claimToken = (invite: string, browser: string): string => createHash('sha256').update(`claim:${invite}:${browser}`).digest('base64url').slice(0, 24);

/** A browser's own key for its claims and its seat's renewed link: at least 128 random bits, URL-safe. */
export const BROWSER_KEY = /^[A-Za-z0-9_-]{22,128}$/;
/** The refusal of a browser key that is not one. */
export const badBrowserKey = () => no(422, 'browser', 'expected the browser\'s own key: 22 to 128 letters, digits, - and _ (128 random bits at least)');

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How a seat proves itself: its token, or (the mail gateway) its mail secret. */
export interface SeatCredentials {
  readonly token?: string | undefined;
  readonly mailSecret?: string | undefined;
}

export class Auth {
  constructor(private readonly repo: RaceRepository) {}

  /**
   * The race, once `who` is shown to hold seat `seat` (a person's seat); read through `repo` (a
   * transaction's) if given; `seen`: the last seq the asker has seen (repository.ts `load`).
   */
  async seat(id: string, seat: number, who: SeatCredentials, repo = this.repo, seen?: number): Promise<Answer<LoadedRace>> {
    const got = await repo.load(id, seen === undefined ? {} : { seen });
    if (!got) return no(404, 'race', `no race "${id}"`);
    const s = got.seats[seat];
    if (!s) return no(404, 'seat', `race "${id}" has no seat ${seat}`);
    if (s.kind !== 'human') return no(403, 'seat', `seat ${seat} is played by a bot`);
    if (who.mailSecret !== undefined) {
      const secret = await repo.mailSecret(id, seat);
      if (!secret || !who.mailSecret || !same(who.mailSecret, secret)) return no(401, 'mailSecret', 'this seat\'s mail secret is needed (its reply address or subject code)');
      return yes(got);
    }
    if (!who.token || !same(hashSecret(who.token), s.token_hash)) return no(401, 'token', 'this seat\'s token is needed (its person\'s browser got it when it took the seat with its invite link)');
    return yes(got);
  }

  /**
   * The race and the seats a claim (`{invite, browser?}`) opens: every seat of the invite's person
   * (seats of one player share one invite), until the invite is spent; and the token the claim
   * gives (`claimToken` with a browser's key, else a new one). `taken`: the same browser took them
   * with this invite already (its answer was lost): the token it got then, nothing to change.
   */
  async claimable(id: string, body: unknown): Promise<Answer<LoadedRace & { opened: number[]; token: string; taken: boolean }>> {
    const keys = isObject(body) ? Object.keys(body).sort().join() : '';
    const { invite, browser } = (isObject(body) ? body : {}) as { invite?: unknown; browser?: unknown };
    if ((keys !== 'invite' && keys !== 'browser,invite') || typeof invite !== 'string') return no(422, 'body', 'expected {"invite": the code of an invite link, "browser": optional, the browser\'s own key for its claims}');
    if (browser !== undefined && (typeof browser !== 'string' || !BROWSER_KEY.test(browser))) return badBrowserKey();
    const got = await this.repo.load(id);
    if (!got) return no(404, 'race', `no race "${id}"`);
    if (got.race.status !== 'running') return no(409, 'race', 'the race is over: its seats are not taken any more');
    const h = hashSecret(invite);
    const opened = got.seats.filter((s) => s.kind === 'human' && s.invite_hash !== '' && same(h, s.invite_hash)).map((s) => s.seat);
    const token = browser === undefined ? newToken() : claimToken(invite, browser);
    if (opened.length) return yes({ ...got, opened, token, taken: false });
    const th = hashSecret(token);
    const again = browser === undefined ? [] : got.seats.filter((s) => s.kind === 'human' && same(th, s.token_hash)).map((s) => s.seat);
    if (again.length) return yes({ ...got, opened: again, token, taken: true });
    return no(401, 'invite', 'this invite opens no seat of the race: it was used already (a seat is taken once, by the first browser that opens its link: its person may open the race from there, or use the link of their seat the page shows), or it is not one of this race\'s');
  }

  /** The race, once `key` is shown to be its moderator key; read through `repo` (a transaction's) if given. */
  async moderator(id: string, key: string | undefined, repo = this.repo): Promise<Answer<LoadedRace>> {
    const got = await repo.load(id);
    if (!got) return no(404, 'race', `no race "${id}"`);
    if (!key || !same(hashSecret(key), got.race.moderator_hash)) return no(401, 'moderatorKey', 'the race\'s moderator key is needed');
    return yes(got);
  }
}
