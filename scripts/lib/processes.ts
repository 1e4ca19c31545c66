// Starting and stopping a server under test (the service, or the bench's ceiling), and reading its
// memory from /proc. Shared by the test launcher, the benchmark and the soak.

import { readdirSync, readFileSync } from "node:fs";
import type { Subprocess } from "bun";

export type Served = { name: string; url: string; pid: number; proc: Subprocess; output: () => string; stop: () => Promise<number> };

/** Spawns cmd and waits for its "listening on http://host:port" line (both the binary and the ceiling print one). */
export async function startListening(name: string, cmd: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Served> {
  const proc = Bun.spawn(cmd, { cwd: options.cwd, env: options.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let text = "";
  // Keep draining: a full pipe would block the server mid-run.
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const pumped = Promise.all([pump(proc.stdout), pump(proc.stderr)]).catch(() => {});
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    // Also inside a JSON log line (--log-format json), hence no quote in the URL.
    const m = /listening on (http:\/\/[^\s"]+)/.exec(text);
    if (m) {
      const url = m[1]!.replace(/\/$/, "");
      const stop = async () => {
        if (proc.exitCode === null) proc.kill("SIGTERM");
        const code = await proc.exited;
        // The last lines (the stop report) can still be in the pipes when the exit is seen.
        await pumped;
        return code;
      };
      return { name, url, pid: proc.pid, proc, output: () => text, stop };
    }
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}:\n${text}`);
    await Bun.sleep(20);
  }
  proc.kill("SIGKILL");
  throw new Error(`${name} did not start listening within 15 s:\n${text}`);
}

/** VmRSS, VmHWM (peak) and RssAnon (the heaps, not the mapped executable) of a live process, in MiB. */
export function memoryMiB(pid: number): { rss: number; peak: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024, anon: kib("RssAnon") / 1024 };
}

/** The threads a CPU figure is reported for: the main (click) thread, the named ones, and the rest. */
export type ThreadGroup = "click" | "recorder" | "reader" | "other";
const CLOCK_TICKS = 100; // USER_HZ: /proc reports utime and stime in these

/** CPU seconds (user + system) each group of a process's threads has used so far (from /proc/<pid>/task/<tid>). */
export function threadCpu(pid: number): Record<ThreadGroup, number> {
  const out: Record<ThreadGroup, number> = { click: 0, recorder: 0, reader: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    let name: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    // Fields after the ")" that closes the name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    const group: ThreadGroup = Number(tid) === pid ? "click" : name === "recorder" ? "recorder" : name === "reader" ? "reader" : "other";
    out[group] += seconds;
  }
  return out;
}

/** A process's name, state and parent from /proc/<pid>/stat; null once it is gone. */
export function procStat(pid: number | string): { name: string; state: string; ppid: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The name is in parentheses and may hold spaces or ")": the fields follow the last ")".
  const [state = "", ppid = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), state, ppid: Number(ppid) };
}

/** Running: gone is not, and neither is a zombie (exited, not yet reaped by its parent). */
export function isRunning(pid: number): boolean {
  const state = procStat(pid)?.state;
  return state !== undefined && state !== "Z";
}
