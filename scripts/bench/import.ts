// The import benchmark (#24): a YOURLS database of 100,000 links and 1,000,000 visits (a real
// MariaDB from Debian, YOURLS's own schema: test/support/yourls.ts) imported with `shortener
// import --visits` into a service that answers clicks meanwhile, on SQLite and on PostgreSQL.
// Reports the import's wall time, and clicks at a steady rate before and during it (latency, failures).
// --dashboard: the import runs in the service, on its import thread (POST /api/imports), as the
// dashboard's dialog starts it, instead of as a command of its own.
//   bun scripts/bench/import.ts [--bin ./shortener] [--links 100000] [--visits 1000000] [--engines sqlite,postgres] [--rate 1000] [--saturate] [--dashboard]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startMariaDb } from "../../test/support/mariadb.ts";
import { createYourlsTables, fillYourls } from "../../test/support/yourls.ts";
import { sharedPostgres, stopSharedPostgres } from "../../test/support/postgres.ts";
import { ensureWrk, okResponses, requestsPerSecond, runWrk } from "./wrk.ts";
import { startListening } from "../lib/processes.ts";
import { countedClicks, createLinks, waitForFlush } from "./clicks-api.ts";

const args = process.argv.slice(2);
const option = (flag: string, fallback: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1]! : fallback);
const ROOT = resolve(import.meta.dir, "../..");
const bin = option("--bin", "");
const command = bin ? [resolve(bin)] : [process.execPath, join(ROOT, "src/main.ts")];
const links = Number(option("--links", "100000"));
const visits = Number(option("--visits", "1000000"));
const engines = option("--engines", "sqlite,postgres").split(",");

const RATE = Number(option("--rate", "1000"));

type Steady = { sent: number; ok: number; failed: number; latencies: number[] };

/** Clicks at a fixed rate (not waiting for answers, as visitors do not), for ms or while going() holds. */
async function steadyClicks(base: string, ids: string[], rate: number, until: number | (() => boolean)): Promise<Steady> {
  const out: Steady = { sent: 0, ok: 0, failed: 0, latencies: [] };
  const start = performance.now();
  const going = typeof until === "number" ? () => performance.now() - start < until : until;
  const pending: Promise<void>[] = [];
  while (going()) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    for (; out.sent < due; out.sent++) {
      const sentAt = performance.now();
      pending.push(
        fetch(`${base}/${ids[out.sent % ids.length]}`, { redirect: "manual" }).then(
          (r) => {
            out.latencies.push(performance.now() - sentAt);
            if (r.status === 302) out.ok++;
            else out.failed++;
          },
          () => void out.failed++,
        ),
      );
    }
    await Bun.sleep(2);
  }
  await Promise.all(pending);
  return out;
}

type Importer = { exitCode: number | null; exited: Promise<number>; stdout: ReadableStream<Uint8Array> | string };

/** The dashboard's import of the source, watched as a command would be: its exit code (0: done), its report's lines. */
function dashboardImport(base: string, key: string, sourceDb: string): Importer {
  const auth = { authorization: `Bearer ${key}` };
  const out: Importer = { exitCode: null, exited: Promise.resolve(0), stdout: "" };
  out.exited = (async () => {
    const res = await fetch(`${base}/api/imports`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ from: "yourls", sourceDb, visits: true, onConflict: "rename" }) });
    const started = (await res.json()) as { data?: { id: string } };
    if (res.status !== 202 || !started.data) throw new Error(`the import did not start: ${res.status} ${JSON.stringify(started)}`);
    for (;;) {
      await Bun.sleep(200);
      const job = (await (await fetch(`${base}/api/imports/${started.data.id}`, { headers: auth })).json()) as { data: { state: string; lines: string[] } };
      if (job.data.state === "running") continue;
      out.stdout = job.data.lines.join("\n");
      return (out.exitCode = job.data.state === "done" ? 0 : 1);
    }
  })();
  return out;
}

function describe(s: Steady): string {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  return `${s.sent.toLocaleString("en")} sent, ${s.failed} failed, latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
}

const wrk = await ensureWrk(console.log);
const tmp = mkdtempSync(join(tmpdir(), "shortener-import-bench-"));
const maria = await startMariaDb();
try {
  await maria.createDatabase("yourls");
  const root = maria.sql("yourls");
  await createYourlsTables(root);
  let t = performance.now();
  const filled = await fillYourls(root, { links, visits, orphans: 100 });
  await root.close();
  console.log(`source: ${filled.links.toLocaleString("en")} links, ${filled.visits.toLocaleString("en")} visits (+${filled.orphans} orphans), filled in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await maria.createReadOnlyUser("yourls", "reader", "bench");
  const source = maria.url("yourls", { name: "reader", password: "bench" });

  for (const engine of engines) {
    const db = engine === "postgres" ? await (await sharedPostgres()).createDatabase() : join(tmp, "bench.db");
    const dashboard = args.includes("--dashboard");
    const served = await startListening(engine, [...command, "--port", "0", "--host", "127.0.0.1", "--db", db, "--create-rate-limit", "0", ...(dashboard ? ["--import-allow-private"] : [])], { cwd: tmp });
    try {
      const ids = await createLinks(served.url, 20, "hot");
      // Once the service made the database (commands never do).
      const admin = dashboard ? Bun.spawnSync([...command, "key", "create", "bench", "--db", db], { cwd: tmp, stdout: "pipe" }).stdout.toString().trim() : "";
      // Saturating clicks (wrk) say how much the machine's two cores have left; clicks at a steady
      // homelab-sized rate say whether any visitor waits while the import writes.
      const warm = await runWrk(wrk, { url: served.url, seconds: 2, connections: 50, mode: "clicks", ids });
      const saturated = await runWrk(wrk, { url: served.url, seconds: 5, connections: 50, mode: "clicks", ids });
      const idle = await steadyClicks(served.url, ids, RATE, 5_000);
      t = performance.now();
      const importer = dashboard ? dashboardImport(served.url, admin, source) : Bun.spawn([...command, "import", "--from", "yourls", "--source-db", source, "--db", db, "--visits", "--on-conflict", "rename"], { cwd: tmp, stdout: "pipe", stderr: "ignore" });
      // --saturate: wrk at full speed during the import instead (how much the gate holds clicks then).
      const flooded: Awaited<ReturnType<typeof runWrk>>[] = [];
      if (args.includes("--saturate")) while (importer.exitCode === null) flooded.push(await runWrk(wrk, { url: served.url, seconds: 3, connections: 50, mode: "clicks", ids }));
      const busy = await steadyClicks(served.url, ids, RATE, () => importer.exitCode === null);
      const code = await importer.exited;
      const seconds = (performance.now() - t) / 1000;
      const report = typeof importer.stdout === "string" ? importer.stdout : await new Response(importer.stdout).text();
      await waitForFlush(served.url, 60_000);
      const answered = okResponses(warm) + okResponses(saturated) + idle.ok + busy.ok + flooded.reduce((n, r) => n + okResponses(r), 0);
      if (flooded.length > 0) {
        const rps = flooded.map(requestsPerSecond).sort((a, b) => a - b);
        const p99 = flooded.map((r) => r.latencyUs.p99 / 1000).sort((a, b) => a - b);
        console.log(`${engine}: saturated during the import: median ${Math.round(rps[rps.length >> 1]!).toLocaleString("en")} req/s, p99 median ${p99[p99.length >> 1]!.toFixed(1)} ms, worst ${p99.at(-1)!.toFixed(1)} ms`);
      }
      const counted = await countedClicks(served.url, ids);
      console.log(`${engine}: import exit ${code} in ${seconds.toFixed(1)} s — ${report.split("\n").slice(0, 2).join(" ")}`);
      console.log(`${engine}: saturated before: ${Math.round(requestsPerSecond(saturated)).toLocaleString("en")} req/s`);
      console.log(`${engine}: ${RATE} clicks/s before: ${describe(idle)}`);
      console.log(`${engine}: ${RATE} clicks/s during the import: ${describe(busy)}`);
      console.log(`${engine}: ${answered.toLocaleString("en")} clicks answered, ${counted.toLocaleString("en")} counted`);
    } finally {
      await served.stop();
    }
  }
} finally {
  await maria.stop();
  await stopSharedPostgres();
  rmSync(tmp, { recursive: true, force: true });
}
