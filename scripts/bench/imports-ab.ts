// Clicks while imports loop, side by side: each binary on its own copy of a database, and in
// alternating rounds the bench's click mix alone (quiet), then the same mix while POST
// /api/links/import of 10,000 rows loops (as "Clicks under load" in scripts/bench/under-load.ts).
// Reports per binary the medians of the quiet p99, the p99 while importing, their ratio per round,
// and the CPU µs each thread group spent per click during the import rounds.
//   bun scripts/bench/imports-ab.ts new=./shortener old=/path/to/old [--rounds 4] [--seconds 6] [--db-from FILE]

import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureWrk, okResponses, requestsPerSecond, runWrk, type WrkResult } from "./wrk.ts";
import { startListening, threadCpu, type Served } from "../lib/processes.ts";
import { createLinks } from "./clicks-api.ts";

const args = process.argv.slice(2);
const value = (flag: string, fallback: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1]! : fallback);
const rounds = Number(value("--rounds", "4"));
const seconds = Number(value("--seconds", "6"));
const dbFrom = args.includes("--db-from") ? resolve(value("--db-from", "")) : null;
const binaries = args.filter((a) => a.includes("=") && !a.startsWith("--")).map((a) => [a.slice(0, a.indexOf("=")), resolve(a.slice(a.indexOf("=") + 1))] as const);
const IMPORT_ROWS = 10_000;

type Target = { name: string; served: Served; ids: string[]; key: string; quiet: number[]; busy: number[]; ratio: number[]; rps: number[]; imports: number; cpu: { click: number; recorder: number; other: number; clicks: number } };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const wrk = await ensureWrk(console.log);
const tmp = mkdtempSync(join(tmpdir(), "shortener-imports-ab-"));
const targets: Target[] = [];
let batch = 0;

/** Imports of IMPORT_ROWS rows one after another until stop() is true; answers how many finished. */
async function importLoop(t: Target, stop: () => boolean): Promise<number> {
  let n = 0;
  while (!stop()) {
    const csv = ["url", ...Array.from({ length: IMPORT_ROWS }, (_, i) => `https://example.org/imported/${t.name}/${batch}/${i}`)].join("\n");
    batch++;
    const res = await fetch(`${t.served.url}/api/links/import`, { method: "POST", body: csv, headers: { "content-type": "text/csv", authorization: `Bearer ${t.key}` } });
    await res.text();
    if (res.status !== 200) throw new Error(`${t.name}: import answered ${res.status}`);
    n++;
  }
  return n;
}

const clicks = (t: Target): Promise<WrkResult> => runWrk(wrk, { url: t.served.url, seconds, connections: 50, mode: "clicks", ids: t.ids });

try {
  for (const [name, bin] of binaries) {
    const db = join(tmp, `${name}.db`);
    if (dbFrom !== null) copyFileSync(dbFrom, db);
    const keyRun = Bun.spawnSync([bin, "key", "create", "bench", "--db", db], { cwd: tmp, stdout: "pipe", stderr: "pipe" });
    if (keyRun.exitCode !== 0) throw new Error(`key create failed: ${keyRun.stderr.toString()}`);
    const served = await startListening(name, [bin, "--port", "0", "--host", "127.0.0.1", "--db", db, "--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"], { cwd: tmp });
    targets.push({ name, served, ids: await createLinks(served.url, 20, name), key: keyRun.stdout.toString().trim(), quiet: [], busy: [], ratio: [], rps: [], imports: 0, cpu: { click: 0, recorder: 0, other: 0, clicks: 0 } });
  }
  for (const t of targets) await clicks(t);
  for (let round = 0; round < rounds; round++) {
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      const quiet = await clicks(t);
      let stop = false;
      const before = threadCpu(t.served.pid);
      const importing = importLoop(t, () => stop);
      const busy = await clicks(t);
      const after = threadCpu(t.served.pid);
      stop = true;
      t.imports += await importing;
      t.quiet.push(quiet.latencyUs.p99 / 1000);
      t.busy.push(busy.latencyUs.p99 / 1000);
      t.ratio.push(busy.latencyUs.p99 / quiet.latencyUs.p99);
      t.rps.push(requestsPerSecond(busy) / requestsPerSecond(quiet));
      t.cpu.click += after.click - before.click;
      t.cpu.recorder += after.recorder - before.recorder;
      t.cpu.other += after.other - before.other;
      t.cpu.clicks += okResponses(busy);
      console.log(`round ${round + 1} ${t.name}: quiet p99 ${t.quiet.at(-1)!.toFixed(2)} ms, importing ${t.busy.at(-1)!.toFixed(2)} ms (${t.ratio.at(-1)!.toFixed(2)}x)`);
    }
  }
  console.log(`${rounds} rounds x ${seconds} s, wrk -t1 -c50, medians; CPU s during the import rounds`);
  for (const t of targets) {
    const c = t.cpu;
    console.log(
      `${t.name}: quiet p99 ${median(t.quiet).toFixed(2)} ms, importing ${median(t.busy).toFixed(2)} ms, ratio ${median(t.ratio).toFixed(2)} (rounds: ${t.ratio.map((r) => r.toFixed(2)).join(" ")}); clicks/s importing ${median(t.rps).toFixed(2)} of quiet; ` +
        `${t.imports} imports; CPU click ${c.click.toFixed(1)} s, recorder ${c.recorder.toFixed(1)} s, other ${c.other.toFixed(1)} s for ${c.clicks.toLocaleString("en")} clicks`,
    );
  }
} finally {
  for (const t of targets) await t.served.stop();
  rmSync(tmp, { recursive: true, force: true });
}
