// The copy benchmark (#34): `shortener copy` of a SQLite file with 1,000,000 visits into a
// throwaway PostgreSQL (Debian's, test/support/postgres.ts) and back into a new SQLite file.
// Reports each direction's wall time, rows copied and the command's peak RSS.
// The file is made through the service's own writer, as a quiet instance writes its visits: each
// visit in a row of its own, 10,000 links, 30 days; its rollups are what those clicks leave
// (about 3.4 million rows). The worst case for row counts: a busy link packs 200 visits a row.
//   bun scripts/bench/copy.ts [--bin ./shortener] [--visits 1000000] [--links 10000] [--file sparse.db (kept, reused)]

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startPostgres } from "../../test/support/postgres.ts";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import { createLinkStore, localClickBudget } from "../../src/links/store.ts";
import type { Link } from "../../src/links/link.ts";
import { createVisitWriter } from "../../src/db/sqlite/visit-batches.ts";
import { sqliteLinks } from "../../src/db/sqlite/links.ts";
import { buildVisit } from "../../src/visits/visitor.ts";
import { createClientClassifier } from "../../src/visits/ua.ts";

const args = process.argv.slice(2);
const option = (flag: string, fallback: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1]! : fallback);
const ROOT = resolve(import.meta.dir, "../..");
const bin = option("--bin", "");
const command = bin ? [resolve(bin)] : [process.execPath, join(ROOT, "src/main.ts")];
const visits = Number(option("--visits", "1000000"));
const links = Number(option("--links", "10000"));
const DAY = 86_400_000;
const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
];

/** Links and visits round-robin over them: a batch of 2,000 visits holds one visit per link and row. */
function seedSparse(path: string): void {
  const db = openDatabase(path);
  const store = createLinkStore(sqliteLinks(db), localClickBudget());
  const writer = createVisitWriter(db, { flushIntervalMs: 3_600_000, batchSize: 2_000 });
  const now = Date.now();
  const seqs: number[] = [];
  db.transaction(() => {
    for (let i = 0; i < links; i++) seqs.push((store.create({ url: `https://site${i % 100}.example/p/${i}`, alias: `sparse-${i}` }, now - 31 * DAY) as Link).seq);
  })();
  const classify = createClientClassifier();
  const step = (30 * DAY) / visits;
  for (let i = 0; i < visits; i++) {
    const visit = { linkSeq: seqs[i % links]!, linkId: `sparse-${i % links}`, destination: "https://x.example/", userAgent: AGENTS[i % 4]!, referer: i % 3 === 0 ? null : "https://t.co/", clientAddress: "seed", now: now - 30 * DAY + Math.floor(i * step) };
    writer.record(buildVisit(visit, { classify, country: () => ["DE", "US", "FR", "GB", "JP"][(i >> 2) % 5]! }));
  }
  writer.close();
  db.close();
}

/** Runs the command, sampling its resident set every 50 ms; wall seconds, peak MiB, exit code, output. */
async function measured(argv: string[], env: Record<string, string>) {
  const started = performance.now();
  const proc = Bun.spawn([...command, ...argv], { env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
  let peak = 0;
  const sampler = setInterval(() => {
    const status = existsSync(`/proc/${proc.pid}/status`) ? readFileSync(`/proc/${proc.pid}/status`, "utf8") : "";
    peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
  }, 50);
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearInterval(sampler);
  return { seconds: (performance.now() - started) / 1000, peakMiB: peak / 1024, code, out, err };
}

const tmp = mkdtempSync(join(tmpdir(), "shortener-bench-copy-"));
const pg = await startPostgres();
try {
  const file = option("--file", join(tmp, "sparse.db"));
  if (!existsSync(file)) {
    const t = performance.now();
    seedSparse(file);
    console.log(`seeded ${file}: ${visits.toLocaleString("en")} visits over ${links.toLocaleString("en")} links in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const target = new URL(await pg.createDatabase());
  const env = { PGPASSWORD: decodeURIComponent(target.password) };
  target.password = "";
  for (const [name, argv] of [
    ["SQLite → PostgreSQL", ["copy", "--db", file, "--to", target.toString()]],
    ["PostgreSQL → SQLite", ["copy", "--db", target.toString(), "--to", join(tmp, "back.db")]],
  ] as const) {
    const r = await measured([...argv], env);
    if (r.code !== 0) throw new Error(`${name}: exit ${r.code}\n${r.out}\n${r.err}`);
    const rows = [...r.out.matchAll(/^\w+(?: \(keys\))?\s+([\d,]+)\s+[\d,]+$/gm)].reduce((sum, m) => sum + Number(m[1]!.replaceAll(",", "")), 0);
    console.log(`${name}: ${r.seconds.toFixed(1)} s, ${rows.toLocaleString("en")} rows (${Math.round(rows / r.seconds).toLocaleString("en")}/s), peak RSS ${r.peakMiB.toFixed(0)} MiB`);
    console.log(r.out.split("\n").find((l) => l.startsWith("clicks of every link")));
  }
} finally {
  await pg.stop();
  rmSync(tmp, { recursive: true, force: true });
}
