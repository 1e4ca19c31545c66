// Shlink's web client downloading a 1,000,000-visit link while clicks go on (docs/performance.md:
// Downloading a link's visits): one link seeded with a million visits (seed.ts, as a live service
// records them), then alternating rounds of the click mix alone and the click mix while a client
// downloads every visit of that link through /rest/v3/short-urls/<alias>/visits, 5,000 a page,
// page 1 first and then 4 pages at a time, as shlink-web-component's createLoadVisits.ts does.
// Reports the clicks' req/s of both, their ratio, the downloads done, the CPU one download alone
// costs the server's click and reader threads, and the server's peak RSS.
//   bun scripts/bench/shlink-visits.ts [--visits 1000000] [--rounds 3] [--seconds 10] [--bin ./shortener] [--db-from FILE] [--against DIR]
// --db-from: a copy of a database this script seeded before (its link seed-big-*), instead of seeding anew.
// --against: another checkout (its src/main.ts, e.g. the code before a change), served beside this
// one on a copy of the same database and measured in the same rounds, turn about.

import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureWrk, okResponses, requestsPerSecond, runWrk } from "./wrk.ts";
import { memoryMiB, startListening, threadCpu, type Served } from "../lib/processes.ts";
import { createLinks, waitForFlush } from "./clicks-api.ts";
import { seed } from "./seed.ts";

const args = process.argv.slice(2);
const value = (flag: string, fallback: number) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback);
const text = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1]! : null);
const VISITS = value("--visits", 1_000_000);
const rounds = value("--rounds", 3);
const seconds = value("--seconds", 10);
const ROOT = resolve(import.meta.dir, "../..");
const bin = text("--bin") !== null ? [resolve(text("--bin")!)] : [process.execPath, join(ROOT, "src/main.ts")];
const against = text("--against") === null ? null : [process.execPath, join(resolve(text("--against")!), "src/main.ts")];
const PAGE = 5_000;
const PARALLEL = 4;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
type Server = { label: string; served: Served; key: string; ids: string[]; visitsOf: string; rps: { alone: number[]; downloading: number[] }; downloads: number[] };

const tmp = mkdtempSync(join(tmpdir(), "shortener-shlink-visits-"));
const wrk = await ensureWrk(console.log);
const servers: Server[] = [];
let expectedVisits = 0;
try {
  const db = join(tmp, "bench.db");
  const dbFrom = text("--db-from") === null ? null : resolve(text("--db-from")!);
  const seeded = dbFrom === null ? await seed(db, { big: VISITS }) : seededCopy(dbFrom, db);
  expectedVisits = seeded.visits;
  console.log(`${dbFrom === null ? "seeded" : "copied"} ${seeded.visits.toLocaleString("en")} visits on one link in ${seeded.seconds.toFixed(0)} s`);
  if (against !== null) copyFileSync(db, join(tmp, "against.db"));
  servers.push(await serve("this", bin, db, seeded.ids.big));
  if (against !== null) servers.push(await serve("against", against, join(tmp, "against.db"), seeded.ids.big));
  for (const s of servers) {
    const cpu = threadCpu(s.served.pid);
    const quiet = performance.now();
    const alone = (await download(s, () => false))!;
    const used = threadCpu(s.served.pid);
    console.log(`${s.label}: one download alone: ${alone.toLocaleString("en")} visits in ${((performance.now() - quiet) / 1000).toFixed(1)} s; CPU click thread ${(used.click - cpu.click).toFixed(1)} s, reader ${(used.reader - cpu.reader).toFixed(1)} s`);
    await runWrk(wrk, { url: s.served.url, seconds: 2, connections: 50, mode: "clicks", ids: s.ids });
  }
  for (let round = 0; round < rounds; round++) {
    for (const s of round % 2 ? [...servers].reverse() : servers) {
      for (const which of round % 2 ? (["downloading", "alone"] as const) : (["alone", "downloading"] as const)) await measure(s, which, round);
    }
  }
  console.log(`${rounds} rounds x ${seconds} s, wrk -t1 -c50, medians`);
  for (const s of servers) {
    const mem = memoryMiB(s.served.pid);
    console.log(`${s.label}: clicks alone ${Math.round(median(s.rps.alone)).toLocaleString("en")} req/s, clicks + download ${Math.round(median(s.rps.downloading)).toLocaleString("en")} req/s`);
    console.log(`${s.label}: ratio ${median(s.rps.downloading.map((r, i) => r / s.rps.alone[i]!)).toFixed(3)}, downloads finished ${s.downloads.length}${s.downloads.length ? ` (median ${median(s.downloads).toFixed(1)} s)` : ""}, RSS ${mem.rss.toFixed(0)} MiB now, peak ${mem.peak.toFixed(0)} MiB`);
  }
} finally {
  for (const s of servers) await s.served.stop();
  rmSync(tmp, { recursive: true, force: true });
}

async function serve(label: string, cmd: string[], file: string, big: string): Promise<Server> {
  const keyRun = Bun.spawnSync([...cmd, "key", "create", `bench-${Date.now().toString(36)}`, "--scope", "admin", "--db", file], { cwd: tmp, stdout: "pipe", stderr: "pipe" });
  if (keyRun.exitCode !== 0) throw new Error(`key create: ${keyRun.stderr}`);
  const served = await startListening(`shortener-${label}`, [...cmd, "--port", "0", "--host", "127.0.0.1", "--db", file, "--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"], { cwd: tmp });
  const ids = await createLinks(served.url, 20, "clicks");
  return { label, served, key: keyRun.stdout.toString().trim(), ids, visitsOf: `${served.url}/rest/v3/short-urls/${big}/visits`, rps: { alone: [], downloading: [] }, downloads: [] };
}

/** One round of the click mix on `s`, alone or while a client downloads flat out (a download cut by the round's end is not counted). */
async function measure(s: Server, which: "alone" | "downloading", round: number): Promise<void> {
  let stop = false;
  let done = 0;
  const downloader = which === "alone" ? Promise.resolve() : (async () => {
    while (!stop) {
      const started = performance.now();
      const got = await download(s, () => stop);
      if (got === null) break;
      if (got !== expectedVisits) throw new Error("a download missed visits");
      s.downloads.push((performance.now() - started) / 1000);
      done++;
    }
  })();
  const r = await runWrk(wrk, { url: s.served.url, seconds, connections: 50, mode: "clicks", ids: s.ids });
  stop = true;
  await downloader;
  await waitForFlush(s.served.url);
  s.rps[which].push(requestsPerSecond(r));
  console.log(`  round ${round + 1} ${s.label.padEnd(7)} ${which.padEnd(11)} ${Math.round(requestsPerSecond(r)).toLocaleString("en").padStart(7)} req/s, p99 ${(r.latencyUs.p99 / 1000).toFixed(2)} ms, ok ${okResponses(r)}${which === "downloading" ? `, downloads finished ${done}` : ""}`);
}

/**
 * One whole download, as the web client does it; answers the visits received, or null when
 * `stopped` said so between pages. The client must cost the server's cores little: a page's 2 MB
 * are read as bytes, never parsed; only its `pagination`, the end of the text, is.
 */
async function download(s: Server, stopped: () => boolean): Promise<number | null> {
  const page = async (n: number) => {
    const res = await fetch(`${s.visitsOf}?page=${n}&itemsPerPage=${PAGE}`, { headers: { "X-Api-Key": s.key } });
    if (res.status !== 200) throw new Error(`page ${n}: ${res.status} ${await res.text()}`);
    return tailPagination(new Uint8Array(await res.arrayBuffer()));
  };
  const first = await page(1);
  let got = first.itemsInCurrentPage;
  for (let n = 2; n <= first.pagesCount; n += PARALLEL) {
    if (stopped()) return null;
    const batch = await Promise.all(Array.from({ length: Math.min(PARALLEL, first.pagesCount - n + 1) }, (_, i) => page(n + i)));
    for (const p of batch) got += p.itemsInCurrentPage;
  }
  return got;
}

/** The `pagination` of a visits page, read from the end of its bytes (`…,"pagination":{…}}}`) without parsing the visits. */
function tailPagination(body: Uint8Array): { pagesCount: number; itemsInCurrentPage: number } {
  const tail = new TextDecoder().decode(body.subarray(Math.max(0, body.length - 400)));
  const at = tail.lastIndexOf('"pagination":');
  if (at < 0 || !tail.endsWith("}}")) throw new Error("a visits page without its pagination at the end");
  return JSON.parse(tail.slice(at + '"pagination":'.length, -2));
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
