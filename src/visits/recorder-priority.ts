// The recorder thread runs at a lower CPU priority than the thread that answers clicks.
//
// Why: on a small machine the click thread, the recorder and whatever sends the requests share
// two cores. At normal priority the recorder's wake-ups preempt the click thread while the other
// core sits idle; at nice 19 it runs in the gaps instead. Measured side by side on one running
// binary (renice of the recorder thread, wrk -c50, 2 cores): 290–323k → 356–363k redirects in
// 8 s, and the share of idle CPU fell from ~0.45 to ~0.07 cores, with nothing left queued.
//
// The risk is a machine whose cores are busy with other work: a nice-19 thread gets ~1.5% of a
// contended core, and clicks would pile up until the queue bound drops them. So the click thread
// watches the backlog and puts the recorder back to normal priority while it is behind. Going back
// needs CAP_SYS_NICE or RLIMIT_NICE >= 20 (LimitNICE=20 in scripts/shortener.service); without
// either, the recorder is never lowered, because it could not be raised again.

import { setPriority } from "node:os";
import { readFileSync, readlinkSync } from "node:fs";

const LOW = 19;
const NORMAL = 0;
const CAP_SYS_NICE = 23n;

/** The calling thread's kernel id (Linux), or null where threads have no id we can read. */
export function currentThreadId(): number | null {
  try {
    const id = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * Whether this process may set a thread back to nice 0 after lowering it: the kernel's can_nice()
 * allows it with CAP_SYS_NICE, or when RLIMIT_NICE (soft) is at least 20 - 0.
 */
export function mayRaiseToNormal(read: (path: string) => string = (p) => readFileSync(p, "utf8")): boolean {
  try {
    const capEff = /^CapEff:\s*([0-9a-f]+)$/m.exec(read("/proc/self/status"))?.[1];
    if (capEff !== undefined && ((BigInt(`0x${capEff}`) >> CAP_SYS_NICE) & 1n) === 1n) return true;
    const soft = /^Max nice priority\s+(\S+)/m.exec(read("/proc/self/limits"))?.[1];
    return soft === "unlimited" || Number(soft) >= 20 - NORMAL;
  } catch {
    return false;
  }
}

export type PriorityThresholds = {
  /** clicks in flight above which the recorder gets normal priority */
  behind: number;
  /** clicks in flight below which it goes back to low priority */
  caughtUp: number;
};

export const DEFAULT_THRESHOLDS: PriorityThresholds = { behind: 20_000, caughtUp: 2_000 };

export type RecorderPriority = {
  /** Called with the clicks in flight (taken, not yet written); adjusts the priority. */
  observe(inFlight: number): void;
  readonly level: "low" | "normal";
};

export type PriorityControl = {
  /** os.setPriority */
  set: (threadId: number, nice: number) => void;
  mayRaise: () => boolean;
};

const SYSTEM: PriorityControl = { set: setPriority, mayRaise: () => mayRaiseToNormal() };

/** Lowers the recorder thread `threadId` now, when that can be undone, and manages it from then on. */
export function manageRecorderPriority(
  threadId: number | null,
  thresholds: PriorityThresholds = DEFAULT_THRESHOLDS,
  control: PriorityControl = SYSTEM,
): RecorderPriority {
  let level: "low" | "normal" = "normal";
  const managed = threadId !== null && control.mayRaise();

  const apply = (nice: number): boolean => {
    try {
      control.set(threadId!, nice);
      level = nice === LOW ? "low" : "normal";
      return true;
    } catch {
      return false; // tried again on the next observation
    }
  };

  if (managed) apply(LOW);

  return {
    observe(inFlight) {
      if (!managed) return;
      if (level === "low" && inFlight > thresholds.behind) apply(NORMAL);
      else if (level === "normal" && inFlight < thresholds.caughtUp) apply(LOW);
    },
    get level() {
      return level;
    },
  };
}
