// Shlink's web client downloading a 1,000,000-visit link while clicks go on (docs/performance.md:
// Downloading a link's visits): one link seeded with a million visits (seed.ts, as a live service
// records them), then alternating rounds of the click mix alone and the click mix while a client
// downloads every visit of that link through /rest/v3/short-urls/<alias>/visits, 5,000 a page,
// page 1 first and then 4 pages at a time, as shlink-web-component's createLoadVisits.ts does.
// Reports the clicks' req/s of both, their ratio, the downloads done, and the server's peak RSS.
//   bun scripts/bench/shlink-visits.ts [--visits 1000000] [--rounds 3] [--seconds 10] [--bin ./shortener] [--db-from FILE]
// --db-from: a copy of a database this script seeded before (its link seed-big-*), instead of seeding anew.

import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureWrk, okResponses, requestsPerSecond, runWrk } from "./wrk.ts";
import { memoryMiB, startListening, threadCpu } from "../lib/processes.ts";
import { createLinks, waitForFlush } from "./clicks-api.ts";
import { seed } from "./seed.ts";

const args = process.argv.slice(2);
const value = (flag: string, fallback: number) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback);
const VISITS = value("--visits", 1_000_000);
const rounds = value("--rounds", 3);
const seconds = value("--seconds", 10);
const ROOT = resolve(import.meta.dir, "../..");
const bin = args.includes("--bin") ? [resolve(args[args.indexOf("--bin") + 1]!)] : [process.execPath, join(ROOT, "src/main.ts")];
const PAGE = 5_000;
const PARALLEL = 4;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const tmp = mkdtempSync(join(tmpdir(), "shortener-shlink-visits-"));
const wrk = await ensureWrk(console.log);
try {
  const db = join(tmp, "bench.db");
  const dbFrom = args.includes("--db-from") ? resolve(args[args.indexOf("--db-from") + 1]!) : null;
  const seeded = dbFrom === null ? await seed(db, { big: VISITS }) : seededCopy(dbFrom, db);
  console.log(`${dbFrom === null ? "seeded" : "copied"} ${seeded.visits.toLocaleString("en")} visits on one link in ${seeded.seconds.toFixed(0)} s`);
  const keyRun = Bun.spawnSync([...bin, "key", "create", `bench-${Date.now().toString(36)}`, "--scope", "admin", "--db", db], { cwd: tmp, stdout: "pipe", stderr: "pipe" });
  if (keyRun.exitCode !== 0) throw new Error(`key create: ${keyRun.stderr}`);
  const key = keyRun.stdout.toString().trim();
  const served = await startListening("shortener", [...bin, "--port", "0", "--host", "127.0.0.1", "--db", db, "--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"], { cwd: tmp });
  try {
    const ids = await createLinks(served.url, 20, "clicks");
    const visitsOf = `${served.url}/rest/v3/short-urls/${seeded.ids.big}/visits`;
    const page = async (n: number) => {
      const res = await fetch(`${visitsOf}?page=${n}&itemsPerPage=${PAGE}`, { headers: { "X-Api-Key": key } });
      if (res.status !== 200) throw new Error(`page ${n}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { visits: { data: unknown[]; pagination: { pagesCount: number } } };
    };
    // One whole download, as the web client does it; answers the visits received.
    const download = async () => {
      const first = await page(1);
      let got = first.visits.data.length;
      for (let n = 2; n <= first.visits.pagination.pagesCount; n += PARALLEL) {
        const batch = await Promise.all(Array.from({ length: Math.min(PARALLEL, first.visits.pagination.pagesCount - n + 1) }, (_, i) => page(n + i)));
        for (const p of batch) got += p.visits.data.length;
      }
      return got;
    };
    const quiet = performance.now();
    const alone = await download();
    console.log(`one download alone: ${alone.toLocaleString("en")} visits in ${((performance.now() - quiet) / 1000).toFixed(1)} s`);
    await runWrk(wrk, { url: served.url, seconds: 2, connections: 50, mode: "clicks", ids });
    const rps = { alone: [] as number[], downloading: [] as number[] };
    const downloads: number[] = [];
    let readerCpu = 0;
    for (let round = 0; round < rounds; round++) {
      for (const which of round % 2 ? (["downloading", "alone"] as const) : (["alone", "downloading"] as const)) {
        let stop = false;
        let done = 0;
        const cpu = threadCpu(served.pid);
        const downloader = which === "alone" ? Promise.resolve() : (async () => {
          while (!stop) {
            const started = performance.now();
            if ((await download()) !== seeded.visits) throw new Error("a download missed visits");
            downloads.push((performance.now() - started) / 1000);
            done++;
          }
        })();
        const r = await runWrk(wrk, { url: served.url, seconds, connections: 50, mode: "clicks", ids });
        stop = true;
        await downloader;
        if (which === "downloading") readerCpu += threadCpu(served.pid).reader - cpu.reader;
        await waitForFlush(served.url);
        rps[which].push(requestsPerSecond(r));
        console.log(`  round ${round + 1} ${which.padEnd(11)} ${Math.round(requestsPerSecond(r)).toLocaleString("en").padStart(7)} req/s, p99 ${(r.latencyUs.p99 / 1000).toFixed(2)} ms, ok ${okResponses(r)}${which === "downloading" ? `, downloads finished meanwhile ${done}` : ""}`);
      }
    }
    const mem = memoryMiB(served.pid);
    console.log(`${rounds} rounds x ${seconds} s, wrk -t1 -c50, medians`);
    console.log(`clicks alone        ${Math.round(median(rps.alone)).toLocaleString("en")} req/s`);
    console.log(`clicks + download   ${Math.round(median(rps.downloading)).toLocaleString("en")} req/s`);
    console.log(`ratio               ${median(rps.downloading.map((r, i) => r / rps.alone[i]!)).toFixed(3)}`);
    console.log(`a whole download    ${downloads.length ? median(downloads).toFixed(1) : "-"} s (median of ${downloads.length}), reader thread CPU ${readerCpu.toFixed(1)} s`);
    console.log(`server RSS          ${mem.rss.toFixed(0)} MiB now, peak ${mem.peak.toFixed(0)} MiB`);
  } finally {
    await served.stop();
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/** A copy of a database seeded before, with its big link's alias and visits. */
function seededCopy(from: string, to: string): { ids: { big: string }; visits: number; seconds: number } {
  copyFileSync(from, to);
  const file = new Database(to, { readonly: true });
  const row = file.query<{ id: string; total_clicks: number }, []>("SELECT id, total_clicks FROM links WHERE id LIKE 'seed-big-%'").get();
  file.close();
  if (row === null) throw new Error(`${from} has no seed-big-* link`);
  return { ids: { big: row.id }, visits: row.total_clicks, seconds: 0 };
}
