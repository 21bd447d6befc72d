/**
 * Seat addresses: each seat replies to its own tagged address, `race+<race>.<seat>.<secret>@domain`,
 * and every mail to it carries the subject code `[RR <race> s<seat> <secret>]`. Either proves the
 * mail comes from someone who received the seat's mails; a mail from a forwarded or spoofed address
 * without it is refused.
 */

export interface Addressing {
  /** The From of every mail, e.g. `RoboRally <race@example.org>`. */
  readonly from: string;
  readonly local: string;
  readonly domain: string;
}

/** Reads MAIL_FROM: `race@example.org` or `Name <race@example.org>`. */
export function addressing(from: string): Addressing {
  const m = /^(?:[^<]*<)?\s*([^<>@\s]+)@([^<>@\s]+?)\s*>?\s*$/.exec(from.trim());
  if (!m) throw new Error(`MAIL_FROM: expected an address such as "RoboRally <race@example.org>", found "${from}"`);
  return { from: from.trim(), local: m[1]!, domain: m[2]! };
}

export const seatAddress = (a: Addressing, race: string, seat: number, secret: string) => `${a.local}+${race}.${seat}.${secret}@${a.domain}`;
export const seatCode = (race: string, seat: number, secret: string) => `[RR ${race} s${seat} ${secret}]`;

/** A seat a mail says it is for, and the secret it carries, if any. */
export interface Claim {
  readonly race: string;
  readonly seat: number;
  readonly secret: string | null;
}

/** The seats claimed by a mail's recipient addresses and subject, those with a secret first. */
export function claims(addresses: readonly string[], subject: string): Claim[] {
  const out: Claim[] = [];
  for (const a of addresses) {
    const m = /^[^+@\s]+\+([A-Za-z0-9_-]+)\.(\d)(?:\.([A-Za-z0-9]+))?@/.exec(a.trim());
    if (m) out.push({ race: m[1]!, seat: Number(m[2]), secret: m[3]?.toLowerCase() ?? null });
  }
  for (const m of subject.matchAll(/\[RR ([A-Za-z0-9_-]+) s(\d)(?: ([A-Za-z0-9]+))?\]/gi)) out.push({ race: m[1]!, seat: Number(m[2]), secret: m[3]?.toLowerCase() ?? null });
  return out.sort((x, y) => Number(y.secret !== null) - Number(x.secret !== null));
}
