// Memory through a flood of new visitors (issue #36, docs/performance.md: Memory under a flood):
// each binary on an empty database, 20 links, then wrk's all-new-visitors mix (every click from a
// public address never sent before) for `--seconds` (60) in slices of `--every` (10) seconds, with
// the process's VmRSS and RssAnon after each slice. The binaries take turns; memory is what is
// compared, so they need not share the machine at once.
//   bun scripts/bench/flood.ts new=./shortener old=/path/to/old [--seconds 60] [--every 10]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureWrk, okResponses, runWrk } from "./wrk.ts";
import { memoryMiB, startListening } from "../lib/processes.ts";
import { createLinks, waitForFlush } from "./clicks-api.ts";

const args = process.argv.slice(2);
const value = (flag: string, fallback: number) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback);
const seconds = value("--seconds", 60);
const every = value("--every", 10);
const binaries = args.filter((a) => a.includes("=") && !a.startsWith("--")).map((a) => [a.slice(0, a.indexOf("=")), resolve(a.slice(a.indexOf("=") + 1))] as const);

const wrk = await ensureWrk(console.log);
const tmp = mkdtempSync(join(tmpdir(), "shortener-flood-"));
let firstAddress = 0;
try {
  console.log(`all-new visitors for ${seconds} s, wrk -t1 -c50; after each ${every} s: clicks so far, VmRSS / RssAnon MiB`);
  for (const [name, bin] of binaries) {
    const db = join(tmp, `${name}.db`);
    const served = await startListening(name, [bin, "--port", "0", "--host", "127.0.0.1", "--db", db, "--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"], { cwd: tmp });
    try {
      const ids = await createLinks(served.url, 20, name);
      const start = memoryMiB(served.pid);
      const line = [`${name.padEnd(10)} start ${start.rss.toFixed(0)}/${start.anon.toFixed(0)}`];
      let clicks = 0;
      for (let elapsed = 0; elapsed < seconds; elapsed += every) {
        const r = await runWrk(wrk, { url: served.url, seconds: every, connections: 50, mode: "clicks-new", ids, firstAddress });
        firstAddress += 2_000_000; // more than one slice sends
        clicks += okResponses(r);
        const m = memoryMiB(served.pid);
        line.push(`${elapsed + every}s ${Math.round(clicks / 1000)}k ${m.rss.toFixed(0)}/${m.anon.toFixed(0)}`);
      }
      await waitForFlush(served.url);
      const settled = memoryMiB(served.pid);
      line.push(`written ${settled.rss.toFixed(0)}/${settled.anon.toFixed(0)}`);
      console.log(line.join("  "));
    } finally {
      await served.stop();
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
