// When the visit writer falls far behind while the database is answering (a database slower than
// the clicks: PostgreSQL on a busy host, SQLite on a slow SD card), a click is still queued but its
// answer waits for the writer to catch up, so that a burst is slowed down instead of counted short:
// dropping starts only at the queue's bound, and that bound is for a database that is away.
// While the writer reports an error, nobody waits (redirects must keep answering in an outage).
//
// Measured before this existed: the benchmark's saturating load on PostgreSQL, with wrk, two
// instances and the database on one 2-core machine, dropped 100,982 answered clicks.

/** Waiting clicks are let go when the backlog is below this share of the queue's bound. */
const CATCH_UP_SHARE = 1 / 4;
/** A click never waits longer than this: a writer that is slow but alive does not hold a visitor for long. */
export const MAX_WAIT_MS = 1_000;

export type CatchUp = {
  /** Undefined when the click may be answered now; else resolves when it may. */
  admit(backlog: number, writerFailing: boolean): Promise<void> | undefined;
  /** Called often (every hand-over tick): lets the waiting clicks go once the writer caught up. */
  check(backlog: number, writerFailing: boolean, now: number): void;
  /** Lets every waiting click go (shutdown). */
  releaseAll(): void;
  /** Whether clicks are waiting now. */
  waiting(): boolean;
  /** How many clicks have waited, since the start. */
  delayed(): number;
};

/** The backlog from which clicks wait (visits to no link stop well before it: orphanBound). */
export function catchUpThreshold(maxQueued: number): number {
  return Math.max(1, Math.floor(maxQueued * CATCH_UP_SHARE));
}

/**
 * The backlog from which visits to no link are dropped: half of where clicks start waiting, so a
 * flood of 404s never makes a click wait, and clicks keep the other half before catch-up begins
 * (docs/statistics.md: Visits to no link).
 */
export function orphanBound(maxQueued: number): number {
  return Math.floor(catchUpThreshold(maxQueued) / 2);
}

export function createCatchUp(maxQueued: number, maxWaitMs = MAX_WAIT_MS): CatchUp {
  const threshold = catchUpThreshold(maxQueued);
  let waiters: (() => void)[] = [];
  let waitingSince = 0;
  let gate: Promise<void> | null = null;
  let delayed = 0;

  const releaseAll = () => {
    const released = waiters;
    waiters = [];
    gate = null;
    for (const go of released) go();
  };

  return {
    admit(backlog, writerFailing) {
      if (backlog < threshold || writerFailing) return undefined;
      delayed++;
      // One promise for every click that waits in the same spell.
      if (gate === null) {
        waitingSince = Date.now();
        gate = new Promise<void>((go) => waiters.push(go));
      }
      return gate;
    },
    check(backlog, writerFailing, now) {
      if (gate === null) return;
      if (backlog < threshold || writerFailing || now - waitingSince >= maxWaitMs) releaseAll();
    },
    releaseAll,
    waiting: () => gate !== null,
    delayed: () => delayed,
  };
}
