// The load generator: makes sure wrk is installed (Debian package, installed by the bench's own
// setup), runs it with scripts/bench/load.lua and returns the numbers that script's done() prints.

import { join } from "node:path";

export type WrkResult = {
  requests: number;
  durationUs: number;
  /** requests written by wrk; those still in flight when it stopped are in `sent` but not `requests` */
  sent: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { p50: number; p90: number; p99: number; max: number; mean: number };
};

const LUA = join(import.meta.dir, "load.lua");

/** Installs wrk with apt-get when it is missing; throws with the reason when that is impossible. */
export async function ensureWrk(log: (line: string) => void): Promise<string> {
  const found = Bun.which("wrk");
  if (found) return found;
  log("wrk not found: installing it with apt-get (Debian package wrk)");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  for (const cmd of [[...sudo, "apt-get", "update", "-qq"], [...sudo, "apt-get", "install", "-y", "-qq", "wrk"]]) {
    const proc = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (proc.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed (exit ${proc.exitCode}): ${proc.stderr.toString().trim().slice(-500)}`);
  }
  const installed = Bun.which("wrk");
  if (!installed) throw new Error("apt-get installed wrk but it is not on PATH");
  return installed;
}

/**
 * `clicks`: repeating visitors (2,000 addresses); `clicks-new`: every click from a new address,
 * numbered from `firstAddress` (give each run of a benchmark its own range: scripts/bench/load.lua).
 * `people`: with either, people's User-Agents only (no preview agent or crawler in the mix).
 */
export type WrkRun = { url: string; seconds: number; connections: number; mode: "clicks" | "clicks-new" | "create" | "plain" | "distinct"; ids?: string[]; headers?: string[]; firstAddress?: number; people?: boolean };

export async function runWrk(wrk: string, run: WrkRun): Promise<WrkResult> {
  const headers = (run.headers ?? []).flatMap((h) => ["-H", h]);
  const args = [wrk, "-t1", `-c${run.connections}`, `-d${run.seconds}s`, "--latency", "--timeout", "5s", ...headers, "-s", LUA, run.url, "--", run.mode + (run.people ? "-people" : ""), ...(run.mode === "clicks-new" ? [String(run.firstAddress ?? 0)] : []), ...(run.ids ?? [])];
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
  if (code !== 0 || !line) throw new Error(`wrk exited ${code} without a result:\n${out}\n${err}`);
  return JSON.parse(line.slice("BENCH_RESULT ".length)) as WrkResult;
}

export const requestsPerSecond = (r: WrkResult): number => r.requests / (r.durationUs / 1e6);
/** Answers wrk saw with a 2xx/3xx status (for clicks: the 302s served). */
export const okResponses = (r: WrkResult): number => r.requests - r.errors.status;
