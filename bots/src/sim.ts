/**
 * A race prepared for the bots' search, on the engine's in-place simulator (`Simulator`: register
 * phases in place, snapshot and restore). What this adds is the preparation: the hands are put
 * away, and every robot's unlocked registers are empty until the search fills them.
 * `sim.test.ts` checks, over many random states, that it ends every register exactly where the
 * engine does.
 */
import { Simulator, cloneState, type GameState, type Setup } from '../../engine/src/index.js';

export type { Snapshot } from '../../engine/src/index.js';

export interface SimOptions {
  /**
   * Which robots keep their cards. The others run only what their locked registers hold (face up,
   * so public) and otherwise stand still; their secret programs are never read. Default: none.
   */
  readonly keepPrograms?: (i: number) => boolean;
  /** Only robot `alone` stays on the floor (as robot 0): a robot racing by itself. */
  readonly alone?: number;
}

export class Sim extends Simulator {
  constructor(setup: Setup, state: GameState, o: SimOptions = {}) {
    super(setup, prepared(state, o));
  }
}

/** A copy of `state` as the search begins: the register phases, hands away, open registers empty. */
function prepared(state: GameState, o: SimOptions): GameState {
  const st = cloneState(state);
  if (o.alone !== undefined) {
    st.robots = [st.robots[o.alone]!];
    st.order = [0];
    st.finished = [];
  }
  st.register = 0;
  st.robots.forEach((r, i) => {
    r.hand = [];
    const keep = o.alone !== undefined || (o.keepPrograms?.(i) ?? false);
    if (!keep) for (let k = 0; k < 5; k++) if (!(r.locked & (1 << k))) r.registers[k] = 0;
  });
  return st;
}
