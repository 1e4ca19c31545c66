// The recorder thread only uses CPU the thread that answers clicks leaves idle (SCHED_IDLE; nice 19
// where that is unavailable: src/util/thread-policy.ts).
//
// Why: on a small machine the click thread, the recorder and whatever sends the requests share two
// cores. At normal priority the recorder's wake-ups preempt the click thread while the other core
// sits idle. Measured on one running binary under wrk -c50, 2 cores, switching the recorder thread
// by hand between rounds: nice 19 took 290–323k to 356–363k redirects in 8 s; SCHED_IDLE against
// nice 19 took 43.4–44.3k to 46.9–47.9k redirects/s, the click thread from 0.88 to 0.97 of a core,
// and p99 from 4.0–4.7 to 2.8 ms, with the recorder keeping up.
//
// The risk is a machine whose cores are busy with other work: a lowered thread gets next to nothing
// of a contended core, and clicks would pile up until the queue bound drops them. So the click
// thread watches the backlog and puts the recorder back to normal while it is behind. Going back
// needs CAP_SYS_NICE or RLIMIT_NICE >= 20 (LimitNICE=+0 in scripts/shortener.service); without
// either, the recorder is never lowered, because it could not be raised again.

import { mayRaiseToNormal, setThreadLevel } from "../util/thread-policy.ts";

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
  /** throws when the kernel refuses */
  set: (threadId: number, level: "low" | "normal") => void;
  mayRaise: () => boolean;
};

const SYSTEM: PriorityControl = { set: setThreadLevel, mayRaise: () => mayRaiseToNormal() };

/** Lowers the recorder thread `threadId` now, when that can be undone, and manages it from then on. */
export function manageRecorderPriority(
  threadId: number | null,
  thresholds: PriorityThresholds = DEFAULT_THRESHOLDS,
  control: PriorityControl = SYSTEM,
): RecorderPriority {
  let level: "low" | "normal" = "normal";
  const managed = threadId !== null && control.mayRaise();

  const apply = (to: "low" | "normal"): boolean => {
    try {
      control.set(threadId!, to);
      level = to;
      return true;
    } catch {
      return false; // tried again on the next observation
    }
  };

  if (managed) apply("low");

  return {
    observe(inFlight) {
      if (!managed) return;
      if (level === "low" && inFlight > thresholds.behind) apply("normal");
      else if (level === "normal" && inFlight < thresholds.caughtUp) apply("low");
    },
    get level() {
      return level;
    },
  };
}
