// This process's threads by name, as /proc shows them (src/threads/policy.ts nameThisThread).
import { readdirSync, readFileSync } from "node:fs";

/** How many threads of this process are named `name` now. */
export function threadsNamed(name: string): number {
  let n = 0;
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === name) n++;
    } catch {
      // the thread ended meanwhile
    }
  }
  return n;
}
