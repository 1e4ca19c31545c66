// Wake-ups at rest: how often each thread of an idle binary is switched in, from the context
// switches (voluntary + nonvoluntary) /proc/<pid>/task/<tid>/status counts, by thread name
// (/proc/<pid>/task/<tid>/comm; ours are named by nameThisThread, src/threads/policy.ts). The goal
// (issue #36): the service's own threads wake at most 10 times a second in all.
//
//   bun scripts/bench/wakeups.ts <binary> [<binary>…]   (each in an empty folder, idle, side by side;
//   ROUNDS=n alternates the order n times, SETTLE_MS=ms waits that long after the start to count)

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { memoryMiB, startListening } from "../lib/processes.ts";

/** Context switches so far of each live thread, keyed "name tid"; the main thread is "main". */
export function contextSwitches(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
      const name = Number(tid) === pid ? "main" : readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      const count = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
      out.set(`${name} ${tid}`, count("voluntary_ctxt_switches") + count("nonvoluntary_ctxt_switches"));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

export type AtRest = { rss: number; anon: number; threads: number; wakeups: number; byThread: Record<string, number> };

/** Wake-ups per second of each thread (by name, threads of one name summed) over `seconds`, after `settleMs` idle. */
export function wakeupsOver(pid: number, seconds: number): Promise<{ total: number; byThread: Record<string, number> }> {
  const before = contextSwitches(pid);
  return Bun.sleep(seconds * 1000).then(() => {
    const after = contextSwitches(pid);
    const byThread: Record<string, number> = {};
    let total = 0;
    for (const [key, n] of after) {
      const perSecond = (n - (before.get(key) ?? 0)) / seconds;
      const name = key.slice(0, key.lastIndexOf(" "));
      byThread[name] = (byThread[name] ?? 0) + perSecond;
      total += perSecond;
    }
    return { total, byThread };
  });
}

/**
 * The binary alone in an empty folder: memory after 5 s idle, then wake-ups over `seconds` from
 * `settleMs` after the start (Bun's own GC timers wake each JavaScript thread often for the first
 * half minute, and then seldom while its heap stays the same: SETTLE_MS=40000 shows the steady state).
 */
export async function atRest(bin: string, seconds = 10, settleMs = 5_000): Promise<AtRest> {
  const dir = mkdtempSync(join(tmpdir(), "shortener-wakeups-"));
  const served = await startListening("at-rest", [bin, "--port", "0", "--host", "127.0.0.1"], { cwd: dir });
  try {
    await Bun.sleep(5_000);
    const { rss, anon } = memoryMiB(served.pid);
    const threads = readdirSync(`/proc/${served.pid}/task`).length;
    await Bun.sleep(Math.max(0, settleMs - 5_000));
    const { total, byThread } = await wakeupsOver(served.pid, seconds);
    return { rss, anon, threads, wakeups: total, byThread };
  } finally {
    await served.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const bins = process.argv.slice(2).map((bin) => resolve(bin)); // each runs in a folder of its own
  if (bins.length === 0) {
    console.error("usage: bun scripts/bench/wakeups.ts <binary> [<binary>…]");
    process.exit(2);
  }
  const rounds = Number(process.env.ROUNDS ?? 1);
  // Alternating, so that the machine's noise falls on every binary alike.
  for (let round = 0; round < rounds; round++) {
    for (const bin of round % 2 === 0 ? bins : [...bins].reverse()) {
      const r = await atRest(bin, 10, Number(process.env.SETTLE_MS ?? 5_000));
      const busiest = Object.entries(r.byThread).sort((a, b) => b[1] - a[1]).filter(([, n]) => n > 0).map(([name, n]) => `${name} ${n.toFixed(1)}`).join(", ");
      console.log(`${bin}: VmRSS ${r.rss.toFixed(1)} MiB, RssAnon ${r.anon.toFixed(1)} MiB, ${r.threads} threads, ${r.wakeups.toFixed(1)} wake-ups/s (${busiest})`);
    }
  }
}
