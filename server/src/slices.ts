/**
 * Work over many races or clients, a slice at a time: on SQLite a chain of awaits runs without a
 * pause (its statements are synchronous, so every await resolves at once), and a loop over all of a
 * process's races or streams is one task of the event loop, holding up every request meanwhile.
 * Between two slices the event loop runs what is waiting (issue 13: no task holds it up for more
 * than 20 ms).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Calls `each` on the items in order, awaiting it, `size` items to a slice, with a turn of the event
 * loop between two slices. The items are taken as they are when called; `stop` is asked before
 * each slice after the first (true: the rest is left).
 */
export async function inSlices<T>(items: Iterable<T>, size: number, each: (item: T) => unknown, stop: () => boolean = () => false): Promise<void> {
  let n = 0;
  for (const item of [...items]) {
    if (n > 0 && n % size === 0) {
      await nextTurn();
      if (stop()) return;
    }
    n++;
    await each(item);
  }
}
