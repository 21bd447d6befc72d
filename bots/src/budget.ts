/**
 * A decision's budget, set by the caller (the server's worker pool, `roborally race`, the
 * benchmarks): a number of evaluations (positions scored), a time, or both. The bots read no clock
 * of their own: a time budget comes with the clock to read (`now`, in milliseconds), so a test
 * gives a count of evaluations, or a fake clock, and stays deterministic.
 */
export interface Budget {
  /** Positions the bot may score in all (its searches' leaves and replays). */
  readonly evaluations?: number;
  /** Milliseconds from the start of the decision, read on `now`. */
  readonly ms?: number;
  /** The clock to read `ms` on (required with `ms`; e.g. `performance.now`). */
  readonly now?: () => number;
}

/** A budget being spent: the expert bot asks `left()` before each further piece of work. */
export class Meter {
  private spent = 0;
  private readonly deadline: number;

  constructor(private readonly b: Budget = {}) {
    this.deadline = b.ms !== undefined && b.now ? b.now() + b.ms : Infinity;
  }

  /** Counts `n` evaluations. */
  spend(n: number): void {
    this.spent += n;
  }

  get evaluations(): number {
    return this.spent;
  }

  /** Whether more work may begin: evaluations left and the deadline not passed. */
  left(): boolean {
    if (this.b.evaluations !== undefined && this.spent >= this.b.evaluations) return false;
    return this.deadline === Infinity || this.b.now!() < this.deadline;
  }
}
