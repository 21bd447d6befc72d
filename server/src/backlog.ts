/**
 * The pages of races' logs that stream clients catching up are sent (stream.ts), each read and
 * serialized once for all the clients that want it. 640 clients asking for one race's log from the
 * start each read and serialized every page of it for themselves, and `/api/health` waited 7.6 s
 * meanwhile (docs/server.md). A page being read is shared by whoever asks for it meanwhile; a full
 * page (`limit` entries) never changes (a log only grows) and is kept for the clients that come
 * later, the pages used least lately let go beyond a bound of bytes. A shorter page, the log's end
 * as it is now, is kept no longer than its read.
 */
import type { Answer } from './errors.js';
import type { Entry } from './races.js';

export interface Page {
  /** The entries as one frame of the stream: their JSON array, as UTF-8. */
  readonly frame: Buffer;
  /** How many entries it holds. */
  readonly count: number;
  /** The seq of its last entry (`after` for none). */
  readonly last: number;
}

/** Bytes of full pages kept (default 16 MiB). */
export const KEPT_PAGE_BYTES = 16 << 20;

export class BacklogPages {
  /** Pages being read, and full pages read, by race, `after` and `limit`; the least recently used first. */
  private readonly pages = new Map<string, Promise<Answer<Page>>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly read: (id: string, after: number, limit: number) => Promise<Answer<Entry[]>>,
    private readonly keptBytes = KEPT_PAGE_BYTES,
  ) {}

  /** Up to `limit` entries of race `id` after `after`, serialized. */
  page(id: string, after: number, limit: number): Promise<Answer<Page>> {
    const key = `${id}\n${after}\n${limit}`;
    const kept = this.pages.get(key);
    if (kept) {
      // Used again: the last to go.
      this.pages.delete(key);
      this.pages.set(key, kept);
      return kept;
    }
    const reading = this.read(id, after, limit).then((got): Answer<Page> => {
      if (!got.ok) return got;
      const entries = got.value;
      return { ok: true, value: { frame: Buffer.from(JSON.stringify(entries)), count: entries.length, last: entries.length ? entries[entries.length - 1]!.seq : after } };
    });
    this.pages.set(key, reading);
    reading.then((got) => {
      if (this.pages.get(key) !== reading) return;
      if (got.ok && got.value.count === limit) this.keep(key, got.value.frame.length);
      else this.pages.delete(key);
    }, () => {
      if (this.pages.get(key) === reading) this.pages.delete(key);
    });
    return reading;
  }

  /** Keeps a full page, letting go of the least recently used beyond the bound. */
  private keep(key: string, size: number): void {
    this.sizes.set(key, size);
    this.bytes += size;
    for (const old of this.pages.keys()) {
      if (this.bytes <= this.keptBytes) break;
      const n = this.sizes.get(old);
      // A page being read holds no bytes yet: it stays.
      if (n === undefined) continue;
      this.pages.delete(old);
      this.sizes.delete(old);
      this.bytes -= n;
    }
  }
}
