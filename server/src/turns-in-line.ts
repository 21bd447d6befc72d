/**
 * A race's changes asked of this process at once take their turn, one after the other
 * (`RaceService`'s requests that change a race: orders, ready, Recompile, a robot chosen, the
 * moderator's actions). Every change commits only at the race version it read
 * (repository.ts), so two made at once from one version cannot both commit: on PostgreSQL, whose
 * pool runs many transactions at once, the others read again and try again, and eight people
 * sending their orders at the same moment had some refused `409 race` ("changing too fast") once
 * their tries were spent. In line, a change reads the race the one before it left.
 *
 * Correctness never rests on the line (the version check holds across processes, where there is
 * none): a change waits for the one before it at most `mostWaitMs`, then goes ahead, so that a
 * database that stops answering (each statement waiting its timeout) never holds a race's later
 * requests one behind the other.
 */
export class TurnsInLine {
  private readonly last = new Map<string, Promise<void>>();

  constructor(private readonly mostWaitMs = 1000) {}

  /** Runs `change` once the change of race `id` asked before it has ended, or `mostWaitMs` has passed. */
  async run<T>(id: string, change: () => Promise<T>): Promise<T> {
    const before = this.last.get(id);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.last.set(id, mine);
    try {
      if (before) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([before, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.mostWaitMs)))]);
        clearTimeout(timer);
      }
      return await change();
    } finally {
      done();
      if (this.last.get(id) === mine) this.last.delete(id);
    }
  }

  /** How many races have a change in line or under way (for the tests: none is kept once done). */
  get size(): number {
    return this.last.size;
  }
}
