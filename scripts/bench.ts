// npm run bench: the click benchmark of issue 5. Starts ./shortener (built beforehand: this script
// builds nothing) and the ceiling servers on loopback, drives them alternately with wrk for several
// rounds, then measures counting, stats latency at 100 and 1M visits, creates/s and RSS.
// Prints a summary and writes the same as JSON to bench-results/bench-<timestamp>.json.
//
//   npm run bench                      ~5 min: 6 rounds x 10 s per target
//   npm run bench -- --quick           ~1 min: 2 rounds x 5 s
//   npm run bench -- --compare exp=/tmp/exp/shortener   add another binary to every round
//   npm run bench -- --db postgres://user:pw@host/empty_db   the binary on PostgreSQL (an empty
//                                      database), plus two instances of it against one
//   npm run bench -- --db postgres     the same on a throwaway PostgreSQL (Debian's postgresql package)
//   options: --rounds N --seconds S --bin PATH

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureWrk, runWrk, requestsPerSecond, okResponses, type WrkResult } from "./bench/wrk.ts";
import { parseOptions } from "./bench/options.ts";
import { startListening, memoryMiB, threadCpu, type Served, type ThreadGroup } from "./lib/processes.ts";
import { clicksUnderLoad } from "./bench/under-load.ts";
import { memoryAtRest } from "./bench/at-rest.ts";
import { seededDatabase } from "./bench/seed-cache.ts";
import { seedPostgres } from "./bench/seed-postgres.ts";
import { RARE_TERM } from "./bench/seed.ts";
import { createLinks, createRuledLinks, GEO_RULES_TARGET, RULES_TARGET, waitForFlush, countedClicks } from "./bench/clicks-api.ts";
import { NEW_VISITORS, printReport, type Report, type TargetReport } from "./bench/report.ts";
import { peopleLinks } from "./bench/people.ts";

const ROOT = resolve(import.meta.dir, "..");
const CONNECTIONS = 50;
const CLICK_LINKS = 20;
const SEED = { hundred: 100, million: 1_000_000 };

/**
 * `also`: a second instance on the same database, clicked at the same time (half the connections each).
 * `cpu`: per round, each thread group's CPU µs per click served (from /proc/<pid>/task/<tid>/stat).
 */
type Target = {
  name: string; served: Served; also?: Served; kind: "shortener" | "ceiling"; ids: string[]; runs: WrkResult[]; rounds: WrkResult[]; cpu: Record<ThreadGroup, number>[];
  /** repeat: visitors come back (2,000 addresses); new: each click from a new address (a link going viral) */
  visitors: Visitors;
  /** clicked with people's User-Agents only (scripts/bench/people.ts) */
  people?: boolean;
};
type Visitors = "repeat" | "new";

async function main(): Promise<number> {
  const opt = parseOptions(process.argv.slice(2));
  const log = (line: string) => console.log(`[bench] ${line}`);
  for (const bin of [opt.bin, ...opt.compare.map(([, p]) => p)]) {
    if (!existsSync(bin)) {
      console.error(`bench: ${bin} is missing. Build it first with \`npm run build\` (the benchmark never builds).`);
      return 2;
    }
  }
  if (opt.db !== null && opt.db !== "postgres" && !opt.db.startsWith("postgres://") && !opt.db.startsWith("postgresql://")) {
    console.error(`bench: --db takes postgres://… (an empty database) or postgres (a throwaway one), got ${opt.db}`);
    return 2;
  }
  const wrk = await ensureWrk(log);
  // Other work on the machine moves every figure; the load averages let a reader judge a run.
  const loadBefore = loadavg();
  const tmp = mkdtempSync(join(tmpdir(), "shortener-bench-"));
  const started: Served[] = [];
  let throwaway: { stop: () => Promise<void> } | null = null;
  try {
    let dbPath = join(tmp, "main.db");
    let seeded;
    if (opt.db === null) {
      log(`seeding links with ${SEED.hundred} and ${SEED.million.toLocaleString("en")} visits through src/db/sqlite/visit-batches.ts, and 100,000 links for the owner's list ...`);
      seeded = await seededDatabase(ROOT, dbPath, SEED);
      log(seeded.cached ? "seeded database taken from bench-results/seed-cache" : `seeded in ${seeded.seconds.toFixed(1)} s`);
    } else {
      if (opt.db === "postgres") {
        log("starting a throwaway PostgreSQL (initdb, pg_ctl) ...");
        const { startPostgres } = await import("../test/support/postgres.ts");
        const pg = await startPostgres();
        throwaway = pg;
        dbPath = await pg.createDatabase();
      } else dbPath = opt.db;
      log(`seeding PostgreSQL with ${SEED.hundred} and ${SEED.million.toLocaleString("en")} visits through its visit writer, and 100,000 links for the owner's list ...`);
      seeded = { ...(await seedPostgres(dbPath, SEED)), cached: false };
      log(`seeded in ${seeded.seconds.toFixed(1)} s`);
    }

    // The owner's key for the list benchmark, made by the binary under test (it migrates the file too).
    const keyRun = Bun.spawnSync([opt.bin, "key", "create", "bench", "--db", dbPath], { cwd: tmp, stdout: "pipe", stderr: "pipe" });
    if (keyRun.exitCode !== 0) throw new Error(`key create failed: ${keyRun.stderr.toString()}`);
    const ownerKey = keyRun.stdout.toString().trim();

    // --trust-proxy 127.0.0.1: wrk's X-Forwarded-For addresses are believed, so every click gets a country lookup.
    const shortenerArgs = (db: string) => ["--port", "0", "--host", "127.0.0.1", "--db", db, "--create-rate-limit", "0", "--trust-proxy", "127.0.0.1"];
    const start = async (name: string, cmd: string[]) => {
      const s = await startListening(name, cmd, { cwd: tmp });
      started.push(s);
      return s;
    };
    const emptyDatabases: string[] = [];
    /** A copy of the seeded SQLite file for another process (each process writes its own file). */
    const copiedDatabase = (seededPath: string, label: string) => {
      const own = join(tmp, `${label}.db`);
      copyFileSync(seededPath, own);
      return own;
    };
    const startCompared = async (label: string, path: string, seededPath: string) => {
      const own = join(tmp, `${label}.db`);
      if (opt.db === null) {
        copiedDatabase(seededPath, label);
        try {
          return await start(label, [path, ...shortenerArgs(own)]);
        } catch {
          rmSync(own, { force: true });
          emptyDatabases.push(label);
        }
      }
      return await start(label, [path, ...shortenerArgs(opt.db === null ? own : join(tmp, `${label}.db`))]);
    };
    const targets: Target[] = [];
    const add = (name: string, served: Served, kind: Target["kind"]) => targets.push({ name, served, kind, ids: [], runs: [], rounds: [], cpu: [], visitors: "repeat" });
    add("shortener", await start("shortener", [opt.bin, ...shortenerArgs(dbPath)]), "shortener");
    if (opt.db !== null) {
      // Several instances on one database: a second one, clicked together with the first.
      add("2 instances", targets[0]!.served, "shortener");
      targets.at(-1)!.also = await start("shortener-2", [opt.bin, ...shortenerArgs(dbPath)]);
    }
    // Compared binaries click on a copy of the same seeded database, so that a ratio compares code,
    // not a big file with an empty one (the writer's cost grows with the file). An older binary that
    // refuses the newer schema gets an empty database instead, and the report says so.
    for (const [label, path] of opt.compare) add(label, await startCompared(label, path, dbPath), "shortener");
    add("ceiling", await start("ceiling", [process.execPath, join(ROOT, "scripts/ceiling-server.ts")]), "ceiling");
    add("reads-nothing", await start("reads-nothing", [process.execPath, join(ROOT, "scripts/ceiling-server.ts"), "--reads-nothing"]), "ceiling");

    // The ceiling keeps its links in a Map too (it takes POST /api/create like a shortener).
    for (const t of targets) t.ids = t.name === "reads-nothing" ? ["x"] : await createLinks(t.served.url, CLICK_LINKS, t.name.replace(/\W+/g, "-"));
    // Issue 22: links with five redirect rules whose last one matches, on a process of the same
    // binary of their own (the ratio to the plain links is the rules' cost). Not on the plain
    // links' process: that one is compared with the --compare binaries, each of which serves only
    // its plain links, and three targets' clicks in one process cost it memory and recorder time
    // the others never pay (scripts/bench/README.md: the history, after #35).
    const rules = await start("rules", [opt.bin, ...shortenerArgs(opt.db === null ? copiedDatabase(dbPath, "rules") : dbPath)]);
    for (const [name, geo] of [[RULES_TARGET, false], [GEO_RULES_TARGET, true]] as const) {
      targets.splice(1, 0, { name, served: rules, kind: "shortener", ids: await createRuledLinks(rules.url, CLICK_LINKS, geo), runs: [], rounds: [], cpu: [], visitors: "repeat" });
    }
    // Issue #40: plain links and links with a preview card, clicked by people only, on a process of each binary (scripts/bench/people.ts).
    const cardsRefused: Record<string, string> = {};
    for (const [label, path] of [["", opt.bin], ...opt.compare] as const) {
      const served = label === "" ? await start("people", [opt.bin, ...shortenerArgs(opt.db === null ? copiedDatabase(dbPath, "people") : dbPath)]) : await startCompared(`${label}-people`, path, dbPath);
      const links = await peopleLinks(served.url, label, CLICK_LINKS);
      if (links.cardsRefused !== null) log(`${label || "shortener"} refuses a link with a card (${(cardsRefused[label || "shortener"] = links.cardsRefused)}): its card links are not clicked`);
      targets.splice(targets.findIndex((t) => t.kind === "ceiling"), 0, ...links.sets.map((set): Target => ({ name: set.name, served, kind: "shortener", ids: set.ids, runs: [], rounds: [], cpu: [], visitors: "repeat", people: true })));
    }
    // Both load patterns in the same rounds: each target's twin clicks the same links of the same
    // server with a new visitor every click. A cache that pays off only when visitors repeat shows
    // as a gain on one pattern and a loss on the other. The twin shares the runs (for the counting).
    for (const t of targets.filter((x) => x.name !== "reads-nothing")) {
      targets.push({ ...t, name: t.name + NEW_VISITORS, visitors: "new", rounds: [], cpu: [] });
    }
    // The all-new pattern's addresses: each run starts past every address sent before it.
    let firstAddress = 0;
    const clicks = async (t: Target, seconds: number) => {
      const run = (url: string, connections: number) => {
        const mode = t.visitors === "new" ? "clicks-new" : "clicks";
        const first = firstAddress;
        firstAddress += 2_000_000; // more than one run sends (100k/s for 10 s), on one or two instances
        return runWrk(wrk, { url, seconds, connections, mode, ids: t.ids, firstAddress: first, people: t.people === true });
      };
      const r = t.also ? combined(await Promise.all([t.served, t.also].map((s) => run(s.url, CONNECTIONS / 2)))) : await run(t.served.url, CONNECTIONS);
      t.runs.push(r);
      return r;
    };

    log(`warm-up: ${opt.warmup} s per target`);
    for (const t of targets) await clicks(t, opt.warmup);
    const pids = (t: Target) => [t.served.pid, ...(t.also ? [t.also.pid] : [])];
    const cpuOf = (t: Target) => pids(t).map(threadCpu).reduce((sum, c) => ({ click: sum.click + c.click, recorder: sum.recorder + c.recorder, reader: sum.reader + c.reader, other: sum.other + c.other }));
    for (let round = 0; round < opt.rounds; round++) {
      // A B B A: every target runs first as often as last, so drift over the run cancels out.
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        const before = cpuOf(t);
        const r = await clicks(t, opt.seconds);
        const after = cpuOf(t);
        // Per click served, in µs; the recorder's share includes its catching up after wrk stopped.
        if (t.kind === "shortener" && t.also === undefined) await waitForFlush(t.served.url);
        const settled = t.kind === "shortener" ? cpuOf(t) : after;
        const perClick = (g: ThreadGroup) => ((g === "recorder" ? settled[g] : after[g]) - before[g]) * 1e6 / Math.max(1, okResponses(r));
        t.cpu.push({ click: perClick("click"), recorder: perClick("recorder"), reader: perClick("reader"), other: perClick("other") });
        t.rounds.push(r);
        log(`round ${round + 1}/${opt.rounds} ${t.name.padEnd(18)} ${Math.round(requestsPerSecond(r)).toLocaleString("en").padStart(7)} req/s  p50 ${(r.latencyUs.p50 / 1000).toFixed(2)} ms  p99 ${(r.latencyUs.p99 / 1000).toFixed(2)} ms`);
      }
    }

    // One per server and set of links: a twin's runs are its original's.
    const shorteners = targets.filter((t) => t.kind === "shortener" && t.visitors === "repeat");
    const memory = Object.fromEntries(shorteners.map((t) => [t.also ? "shortener-2" : t.name, memoryMiB((t.also ?? t.served).pid)]));
    const main = targets[0]!;
    log("stats latency (1 connection) and creates/s");
    const statsSeconds = opt.quick ? 2 : 4;
    const statsAt = async (id: string) => runWrk(wrk, { url: `${main.served.url}/api/stats?id=${id}`, seconds: statsSeconds, connections: 1, mode: "plain" });
    await statsAt(seeded.ids.hundred!); // warm the statement cache and the page cache
    const stats100 = await statsAt(seeded.ids.hundred!);
    const stats1m = await statsAt(seeded.ids.million!);
    log("the owner's list: GET /api/links over 100,000 links (1 connection)");
    const listAt = (query: string) =>
      runWrk(wrk, { url: `${main.served.url}/api/links?${query}`, seconds: statsSeconds, connections: 1, mode: "plain", headers: [`Authorization: Bearer ${ownerKey}`] });
    await listAt("limit=50"); // warm-up
    const list = {
      firstPage: await listAt("limit=50"),
      byClicks: await listAt("limit=50&sort=totalClicks"),
      rareSearch: await listAt(`limit=50&q=${RARE_TERM}`),
      commonSearch: await listAt("limit=50&q=site7"),
      tag: await listAt("limit=50&tag=tenth"),
    };
    const creates = await runWrk(wrk, { url: main.served.url, seconds: opt.quick ? 3 : 5, connections: CONNECTIONS, mode: "create" });
    const memoryAfterAll = memoryMiB(main.served.pid);
    log("clicks under load: the same clicks while other clients loop on stats (200,000 distinct UTM values), the list, and imports of 10,000 rows");
    const underLoad = await clicksUnderLoad({ wrk, url: main.served.url, ids: main.ids, ownerKey, seconds: opt.quick ? 4 : 8, log, onRun: (r) => main.runs.push(r) });
    log("waiting for the writers to flush, then reading the counts back");
    const counting = [];
    for (const t of shorteners) {
      if (t.also) await waitForFlush(t.also.url);
      const health = await waitForFlush(t.served.url);
      counting.push({
        target: t.name,
        counted: await countedClicks(t.served.url, t.ids),
        served: t.runs.reduce((n, r) => n + okResponses(r), 0),
        sent: t.runs.reduce((n, r) => n + r.sent, 0),
        non3xx: t.runs.reduce((n, r) => n + r.errors.status, 0),
        socketErrors: t.runs.reduce((n, r) => n + r.errors.connect + r.errors.read + r.errors.write + r.errors.timeout, 0),
        written: health.written,
        dropped: health.dropped,
      });
    }

    log("memory at rest: the binary alone in an empty folder, 5 s after its start");
    const atRest = await memoryAtRest(opt.bin);

    const report: Report = {
      when: new Date().toISOString(),
      machine: { cpus: navigator.hardwareConcurrency, bun: Bun.version, wrk: "wrk -t1 -c50 --latency", loadAverageBefore: loadBefore, loadAverageAfter: loadavg() },
      options: { quick: opt.quick, rounds: opt.rounds, secondsPerRound: opt.seconds, warmupSeconds: opt.warmup, connections: CONNECTIONS, clickLinks: CLICK_LINKS, comparedOnEmptyDatabase: emptyDatabases, cardsRefused },
      targets: targets.map((t): TargetReport => ({ name: t.name, visitors: t.visitors, rounds: t.rounds })),
      counting,
      database: opt.db === null ? "SQLite" : "PostgreSQL",
      stats: {
        seeding:
          opt.db === null
            ? `${SEED.million.toLocaleString("en")} + ${SEED.hundred} visits recorded with createVisitWriter (src/db/sqlite/visit-batches.ts) from buildVisit into the db file before the binary started (scripts/bench/seed.ts)`
            : `${SEED.million.toLocaleString("en")} + ${SEED.hundred} visits recorded with PostgreSQL's visit writer (src/db/postgres/visit-batches.ts) from buildVisit before the binary started (scripts/bench/seed-postgres.ts)`,
        at100: stats100,
        at1M: stats1m,
      },
      list,
      creates,
      memoryMiB: { afterClicks: memory, mainAfterAll: memoryAfterAll, atRest },
      cpuUsPerClick: Object.fromEntries(targets.filter((t) => t.name !== "reads-nothing").map((t) => [t.name, t.cpu])),
      underLoad,
    };
    const out = printReport(report);
    mkdirSync(join(ROOT, "bench-results"), { recursive: true });
    const file = join(ROOT, "bench-results", `bench-${report.when.replace(/[:.]/g, "-")}.json`);
    await Bun.write(file, JSON.stringify({ ...report, summary: out }, null, 2) + "\n");
    console.log(`\nJSON: ${file}`);
    return 0;
  } finally {
    for (const s of started) await s.stop();
    await throwaway?.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Two wrk runs at the same time (one per instance) as one: their requests added up; latencies the
 * larger of the two runs' percentiles (what the slower instance's clients saw).
 */
function combined(runs: WrkResult[]): WrkResult {
  const sum = (f: (r: WrkResult) => number) => runs.reduce((n, r) => n + f(r), 0);
  const max = (f: (r: WrkResult) => number) => Math.max(...runs.map(f));
  return {
    requests: sum((r) => r.requests),
    durationUs: max((r) => r.durationUs),
    sent: sum((r) => r.sent),
    errors: {
      connect: sum((r) => r.errors.connect),
      read: sum((r) => r.errors.read),
      write: sum((r) => r.errors.write),
      status: sum((r) => r.errors.status),
      timeout: sum((r) => r.errors.timeout),
    },
    latencyUs: {
      p50: max((r) => r.latencyUs.p50),
      p90: max((r) => r.latencyUs.p90),
      p99: max((r) => r.latencyUs.p99),
      max: max((r) => r.latencyUs.max),
      mean: sum((r) => r.latencyUs.mean * r.requests) / Math.max(1, sum((r) => r.requests)),
    },
  };
}

process.exit(await main());
