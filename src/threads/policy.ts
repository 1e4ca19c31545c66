// Linux thread scheduling, for the one thread that should only use otherwise idle CPU: its kernel
// id, whether it could be raised again after lowering, and the lowering itself.
//
// "Low" is SCHED_IDLE (runs when a core has nothing else to do) through libc's sched_setscheduler;
// where libc cannot be loaded or the call is refused, nice 19. "Normal" is SCHED_OTHER at nice 0.

import { setPriority } from "node:os";
import { readFileSync, readlinkSync } from "node:fs";
import { dlopen, FFIType, ptr } from "bun:ffi";

const SCHED_OTHER = 0;
const SCHED_IDLE = 5;
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
 * Whether this process may put a thread back to normal after lowering it. The kernel allows going
 * back to SCHED_OTHER at nice 0 with CAP_SYS_NICE, or when RLIMIT_NICE (soft) is at least 20.
 */
export function mayRaiseToNormal(read: (path: string) => string = (p) => readFileSync(p, "utf8")): boolean {
  try {
    const capEff = /^CapEff:\s*([0-9a-f]+)$/m.exec(read("/proc/self/status"))?.[1];
    if (capEff !== undefined && ((BigInt(`0x${capEff}`) >> CAP_SYS_NICE) & 1n) === 1n) return true;
    const soft = /^Max nice priority\s+(\S+)/m.exec(read("/proc/self/limits"))?.[1];
    return soft === "unlimited" || Number(soft) >= 20;
  } catch {
    return false;
  }
}

type SchedSetScheduler = (threadId: number, policy: number) => number;

// Opened on first use; null when libc cannot be opened (not glibc).
let schedSetScheduler: SchedSetScheduler | null | undefined;

function libcSchedSetScheduler(): SchedSetScheduler | null {
  if (schedSetScheduler !== undefined) return schedSetScheduler;
  try {
    const libc = dlopen("libc.so.6", { sched_setscheduler: { args: [FFIType.i32, FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
    const param = new Int32Array(1); // struct sched_param { int sched_priority = 0 }
    schedSetScheduler = (threadId, policy) => libc.symbols.sched_setscheduler(threadId, policy, ptr(param));
  } catch {
    schedSetScheduler = null;
  }
  return schedSetScheduler;
}

const PR_SET_NAME = 15;
let prctl: ((option: number, name: Uint8Array) => number) | null | undefined;

/**
 * Names the calling thread (at most 15 bytes), as `top -H`, `ps -L` and /proc/<pid>/task/<tid>/comm
 * show it: the benchmark tells the recorder's CPU from the click thread's by it. Best effort.
 */
export function nameThisThread(name: string): void {
  if (prctl === undefined) {
    try {
      const libc = dlopen("libc.so.6", { prctl: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
      prctl = (option, value) => libc.symbols.prctl(option, ptr(value));
    } catch {
      prctl = null;
    }
  }
  prctl?.(PR_SET_NAME, new TextEncoder().encode(`${name.slice(0, 15)}\0`));
}

/** Sets a thread of this process to "low" or "normal"; throws when the kernel refuses. */
export function setThreadLevel(threadId: number, level: "low" | "normal"): void {
  const sched = libcSchedSetScheduler();
  if (level === "low") {
    if (sched !== null && sched(threadId, SCHED_IDLE) === 0) return;
    setPriority(threadId, 19);
  } else {
    if (sched !== null && sched(threadId, SCHED_OTHER) !== 0) throw new Error(`sched_setscheduler(${threadId}, SCHED_OTHER) refused`);
    setPriority(threadId, 0);
  }
}
