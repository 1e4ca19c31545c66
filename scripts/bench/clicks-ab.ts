// A quick side-by-side of the click path alone: each binary on an empty database (plus the ceiling),
// the bench's click mix in alternating rounds, and req/s, p99 and CPU µs per click per thread.
// For trying a change against the binary before it; `npm run bench` is the full benchmark.
//   bun scripts/bench/clicks-ab.ts new=./shortener old=/path/to/old [--rounds 4] [--seconds 5] [--visitors new]
// --visitors new: every click from a new address (a link going viral) instead of 2,000 repeating ones.
// --db-from FILE: each binary starts on its own copy of that SQLite file (e.g. the bench's seeded
// database in bench-results/seed-cache/) instead of an empty one.
// --domains NAME: that target has ten domains configured (docs/several-domains.md), the first the
// default, and its clicks name it in their Host (a binary from before #37 cannot be given one).
// --events NAME: that target also has two webhooks (one down) and --viewers N live viewers (10)
// on the links clicked (scripts/bench/events-load.ts); give the same binary twice to see their cost.
// --people: every target clicked with people's User-Agents only (no preview agent or crawler).
// --card NAME: that target's links have a preview card (#40; a binary that refuses cardTitle stops
// the run with its answer). A link with a card for people against plain links of the binary
// before (docs/performance.md: Links with a preview card):
//   bun scripts/bench/clicks-ab.ts card=./shortener before=/path/to/before --people --card card [--visitors new]
// --opt-outs NAME: that target runs with every opt-out configured (#41, docs/statistics.md: Not counting
// some clicks): --no-count-from with ranges no bench client comes from (the clicks' X-Forwarded-For
// addresses are public), --no-count-param and --do-not-track skip; every click is still counted.
// --service-args NAME "ARGS": more flags for that target's service, split at spaces (repeatable).

import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureWrk, okResponses, requestsPerSecond, runWrk } from "./wrk.ts";
import { startListening, threadCpu, memoryMiB, type Served } from "../lib/processes.ts";
import { createLinks, waitForFlush } from "./clicks-api.ts";
import { putEventsLoad, type EventsLoad } from "./events-load.ts";
import { createCardLinks } from "./people.ts";

const args = process.argv.slice(2);
const value = (flag: string, fallback: number) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback);
const rounds = value("--rounds", 4);
const seconds = value("--seconds", 5);
const eventsTarget = args.includes("--events") ? args[args.indexOf("--events") + 1] : null;
const viewers = value("--viewers", 10);
const domainsTarget = args.includes("--domains") ? args[args.indexOf("--domains") + 1] : null;
const cardTarget = args.includes("--card") ? args[args.indexOf("--card") + 1] : null;
const people = args.includes("--people");
const optOutsTarget = args.includes("--opt-outs") ? args[args.indexOf("--opt-outs") + 1] : null;
const OPT_OUTS = ["--no-count-from", "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,100.64.0.0/10,fd00::/8", "--no-count-param", "nocount", "--do-not-track", "skip"];
const serviceArgs = new Map<string, string[]>();
args.forEach((a, i) => {
  if (a !== "--service-args") return;
  const name = args[i + 1] ?? "";
  serviceArgs.set(name, [...(serviceArgs.get(name) ?? []), ...(args[i + 2] ?? "").split(" ").filter((w) => w !== "")]);
});
/** The flags a target's service gets beyond the bench's own. */
const extraArgs = (name: string) => [...(name === optOutsTarget ? OPT_OUTS : []), ...(serviceArgs.get(name) ?? [])];
const flagValues = new Set(args.flatMap((a, i) => (a === "--service-args" ? [args[i + 1], args[i + 2]] : a === "--opt-outs" ? [args[i + 1]] : [])));
const DOMAINS = Array.from({ length: 10 }, (_, i) => `d${i}.bench.example`);
const dbFrom = args.includes("--db-from") ? resolve(args[args.indexOf("--db-from") + 1]!) : null;
const mode = args.includes("--visitors") && args[args.indexOf("--visitors") + 1] === "new" ? "clicks-new" : "clicks";
// clicks-new: each run's addresses start past every address sent before (scripts/bench/load.lua).
let firstAddress = 0;
const clicks = (url: string, seconds: number, ids: string[], host: string | null) => {
  const first = firstAddress;
  firstAddress += 2_000_000;
  return runWrk(wrk, { url, seconds, connections: 50, mode, ids, firstAddress: first, headers: host === null ? [] : [`Host: ${host}`], people });
};
const binaries = args.filter((a) => a.includes("=") && !a.startsWith("--") && a !== dbFrom && a !== domainsTarget && a !== cardTarget && !flagValues.has(a)).map((a) => [a.slice(0, a.indexOf("=")), resolve(a.slice(a.indexOf("=") + 1))] as const);
const ROOT = resolve(import.meta.dir, "../..");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const wrk = await ensureWrk(console.log);
const tmp = mkdtempSync(join(tmpdir(), "shortener-ab-"));
const started: Served[] = [];
const loads: EventsLoad[] = [];
type T = { name: string; served: Served; host: string | null; ids: string[]; rps: number[]; p99: number[]; click: number[]; recorder: number[]; other: number[]; shortener: boolean };
const targets: T[] = [];
try {
  for (const [name, bin] of binaries) {
    const events = name === eventsTarget;
    const db = join(tmp, `${name}.db`);
    if (dbFrom !== null) copyFileSync(dbFrom, db);
    if (name === domainsTarget) await addDomains(bin, db);
    const served = await startListening(name, [bin, "--port", "0", "--host", "127.0.0.1", "--db", db, "--create-rate-limit", "0", "--trust-proxy", "127.0.0.1", ...(events ? ["--webhook-allow-private"] : []), ...extraArgs(name)], { cwd: tmp });
    started.push(served);
    // The webhooks first: the links' creates are events too.
    const load = events ? await putEventsLoad(served.url, bin, db) : null;
    const ids = name === cardTarget ? await cardLinks(served.url, name) : await createLinks(served.url, 20, name);
    if (load !== null) {
      await load.watch(ids, viewers);
      loads.push(load);
    }
    targets.push({ name, served, host: name === domainsTarget ? DOMAINS[0]! : null, ids, rps: [], p99: [], click: [], recorder: [], other: [], shortener: true });
  }
  const ceiling = await startListening("ceiling", [process.execPath, join(ROOT, "scripts/ceiling-server.ts")], { cwd: tmp });
  started.push(ceiling);
  targets.push({ name: "ceiling", served: ceiling, host: null, ids: await createLinks(ceiling.url, 20, "ceiling"), rps: [], p99: [], click: [], recorder: [], other: [], shortener: false });
  for (const t of targets) await clicks(t.served.url, 2, t.ids, t.host);
  for (let round = 0; round < rounds; round++) {
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      const before = threadCpu(t.served.pid);
      const r = await clicks(t.served.url, seconds, t.ids, t.host);
      const after = threadCpu(t.served.pid);
      if (t.shortener) await waitForFlush(t.served.url);
      const settled = threadCpu(t.served.pid);
      const n = okResponses(r);
      t.rps.push(requestsPerSecond(r));
      t.p99.push(r.latencyUs.p99 / 1000);
      t.click.push(((after.click - before.click) * 1e6) / n);
      t.recorder.push(((settled.recorder - before.recorder) * 1e6) / n);
      t.other.push(((after.other - before.other) * 1e6) / n);
    }
  }
  const ceilingRps = targets.at(-1)!.rps;
  console.log(`${rounds} rounds x ${seconds} s, wrk -t1 -c50, ${mode === "clicks" ? "repeating visitors" : "all-new visitors"}${people ? ", people's agents only" : ""}${cardTarget === null ? "" : `, ${cardTarget}'s links with a card`}${optOutsTarget === null ? "" : `, ${optOutsTarget} with opt-outs configured`}, medians; CPU µs per click`);
  for (const [name] of binaries) if (extraArgs(name).length > 0) console.log(`${name}: ${extraArgs(name).join(" ")}`);
  console.log(`${"target".padEnd(10)} ${"req/s".padStart(8)} ${"/ceil".padStart(6)} ${"p99 ms".padStart(7)} ${"click".padStart(6)} ${"rec".padStart(6)} ${"other".padStart(6)}  RSS MiB`);
  for (const t of targets) {
    const ratio = median(t.rps.map((r, i) => r / ceilingRps[i]!));
    const m = memoryMiB(t.served.pid);
    console.log(`${t.name.padEnd(10)} ${Math.round(median(t.rps)).toLocaleString("en").padStart(8)} ${ratio.toFixed(3).padStart(6)} ${median(t.p99).toFixed(2).padStart(7)} ${median(t.click).toFixed(2).padStart(6)} ${median(t.recorder).toFixed(2).padStart(6)} ${median(t.other).toFixed(2).padStart(6)}  ${m.rss.toFixed(0)} (anon ${m.anon.toFixed(0)})`);
  }
  for (const l of loads) console.log(`${eventsTarget}: the up receiver got ${l.received()} deliveries; ${viewers} viewers read ${l.events()} lines`);
  if (targets.length > 2) {
    const [a, b] = targets;
    console.log(`${a!.name}/${b!.name} req/s ${median(a!.rps.map((r, i) => r / b!.rps[i]!)).toFixed(3)}`);
  }
} finally {
  for (const l of loads) l.stop();
  for (const s of started) await s.stop();
  rmSync(tmp, { recursive: true, force: true });
}

/** 20 links with a preview card; a binary that refuses one ends the run (the bench cannot make its figure). */
async function cardLinks(base: string, name: string): Promise<string[]> {
  const made = await createCardLinks(base, 20, name);
  if ("ids" in made) return made.ids;
  throw new Error(`${name} refuses a link with a card (${made.refused}): give --card a binary from #40 on`);
}

/** Ten domains in the target's database (made and migrated by a first start of the binary), the first the default. */
async function addDomains(bin: string, db: string): Promise<void> {
  const first = await startListening("migrate", [bin, "--port", "0", "--host", "127.0.0.1", "--db", db], { cwd: tmp });
  await first.stop();
  const file = new Database(db);
  for (const [i, name] of DOMAINS.entries()) file.run("INSERT INTO domains (name, is_default, created_at) VALUES (?, ?, ?)", [name, i === 0 ? 1 : 0, Date.now()]);
  file.close();
}
