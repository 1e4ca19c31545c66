// The recorder thread only uses CPU the thread that answers clicks leaves idle (SCHED_IDLE; nice 19
// where that is refused or unavailable: src/threads/policy.ts).
//
// Why: on a small machine the click thread, the recorder and whatever sends the requests share two
// cores. At normal priority the recorder's wake-ups preempt the click thread while the other core
// sits idle. Measured on one running binary under wrk -c50, 2 cores, switching the recorder thread
// by hand between rounds: nice 19 against normal took 290–323k to 356–363k redirects in 8 s;
// SCHED_IDLE against nice 19 took 43.4–44.3k to 46.9–47.9k redirects/s, the click thread from 0.88
// to 0.97 of a core and p99 from 4.0–4.7 to 2.8 ms, with the recorder keeping up.
//
// Three risks, and what answers each:
// - Starvation: on a machine whose cores are busy with other work, a lowered thread gets next to
//   nothing. The click thread raises it to normal directly while it is behind: more than 20,000
//   clicks in flight, or the oldest unwritten click more than a second old.
// - Priority inversion: the recorder holds SQLite's write lock while it writes, and a create on the
//   click thread needs it. The click thread's connection waits only briefly for the lock; a create
//   that finds it taken raises the recorder (hurry) and retries without blocking the event loop
//   (src/http/create.ts). Writing at normal priority every time instead was measured to cost p99
//   2.5 → 3.7 ms and 48k → 44k redirects/s (three alternating rounds).
// - No way back: going back to normal needs CAP_SYS_NICE or RLIMIT_NICE >= 20 (LimitNICE=+0 in
//   deploy/systemd/shortener.service). Without either, the recorder is never lowered.

import { mayRaiseToNormal, setThreadLevel } from "../policy.ts";

/** Shared between the two threads: what the click thread wants the recorder to run at. */
const UNMANAGED = 0;
const WANT_LOW = 1;
const WANT_NORMAL = 2;

export type PriorityFlag = Int32Array;

/** Both sides leave the thread alone without an id, or once the flag says the way back is closed. */
const isManaged = (flag: PriorityFlag, threadId: number | null): threadId is number => threadId !== null && Atomics.load(flag, 0) !== UNMANAGED;

export type PriorityControl = {
  /** throws when the kernel refuses */
  set: (threadId: number, level: "low" | "normal") => void;
  mayRaise: () => boolean;
};

const SYSTEM: PriorityControl = { set: setThreadLevel, mayRaise: () => mayRaiseToNormal() };

/** Made by the click thread before the recorder starts; "managed" only where the way back is allowed. */
export function createPriorityFlag(control: PriorityControl = SYSTEM): PriorityFlag {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  Atomics.store(flag, 0, control.mayRaise() ? WANT_LOW : UNMANAGED);
  return flag;
}

export type PriorityThresholds = {
  /** clicks in flight above which the recorder is behind */
  behind: number;
  /** age of the oldest unwritten click above which it is behind, whatever the count */
  behindMs: number;
  /** below both of these it has caught up */
  caughtUp: number;
  caughtUpMs: number;
};

export const DEFAULT_THRESHOLDS: PriorityThresholds = { behind: 20_000, behindMs: 1_000, caughtUp: 2_000, caughtUpMs: 300 };

export type RecorderPriority = {
  /** Called every hand-over tick with the clicks in flight and the age of the oldest unwritten one. */
  observe(inFlight: number, oldestAgeMs: number): void;
  /** Normal priority now: at shutdown, and when the click thread waits for the write lock. */
  raise(): void;
  readonly level: "low" | "normal";
};

/** The click thread's side: judges whether the recorder (thread `threadId`) keeps up. */
export function manageRecorderPriority(
  flag: PriorityFlag,
  threadId: number | null,
  thresholds: PriorityThresholds = DEFAULT_THRESHOLDS,
  control: PriorityControl = SYSTEM,
): RecorderPriority {
  const managed = () => isManaged(flag, threadId);
  const toNormal = () => {
    Atomics.store(flag, 0, WANT_NORMAL);
    try {
      control.set(threadId!, "normal");
    } catch {
      // Not expected: the permission to go back was checked before the recorder was lowered. The
      // flag still says normal, and the recorder applies it itself when it next looks (settle).
    }
  };
  return {
    observe(inFlight, oldestAgeMs) {
      if (!managed()) return;
      const want = Atomics.load(flag, 0);
      if (want === WANT_LOW && (inFlight > thresholds.behind || oldestAgeMs > thresholds.behindMs)) toNormal();
      // Lowering is left to the recorder itself, when it next looks at the flag.
      else if (want === WANT_NORMAL && inFlight < thresholds.caughtUp && oldestAgeMs < thresholds.caughtUpMs) Atomics.store(flag, 0, WANT_LOW);
    },
    raise() {
      if (managed()) toNormal();
    },
    get level() {
      return managed() && Atomics.load(flag, 0) === WANT_LOW ? "low" : "normal";
    },
  };
}

export type RecorderThreadPriority = {
  /** Lowers the thread if the click thread wants it low and it is not yet (or raises it back). */
  settle(): void;
};

/** The recorder thread's side: applies the flag to itself (`threadId`) between two pieces of work. */
export function recorderThreadPriority(flag: PriorityFlag, threadId: number | null, control: PriorityControl = SYSTEM): RecorderThreadPriority {
  let current: "low" | "normal" = "normal";
  const managed = () => isManaged(flag, threadId);
  return {
    settle() {
      if (!managed()) return;
      const want = Atomics.load(flag, 0) === WANT_LOW ? "low" : "normal";
      if (want === current) return;
      try {
        control.set(threadId!, want);
        current = want;
      } catch {
        // Refused (a seccomp filter, say): stop managing rather than retry every time.
        Atomics.store(flag, 0, UNMANAGED);
      }
    },
  };
}
