// One page of raw visits for one link against one for a scope wider than a link (every link, an
// owner), on a SQLite file of N visit batches (docs/performance.md: Downloading a link's visits).
// The wide scopes are what Shlink's web client opens for /visits/non-orphan, /tags/:tag/visits and
// /domains/:domain/visits; no index gives their order, so what a page costs is how often the scan of
// the batches' places and its sort run (once a page since #39's review; once per 2,000 places before:
// batches²/2000). From the reviewer's /tmp/review-db/every-scope.ts, made side by side.
//   bun scripts/bench/visit-scopes.ts [--batches 20000] [--rounds 3] [--against DIR]
// --against: another checkout (e.g. the code before a change): its src/db/sqlite/visit-pages.ts reads
// the same file, turn about with this one, in the same rounds; the report gives medians and ratios.
// Batches are synthetic: two links (one on a domain, tagged), one batch of 2 visits every 10 ms,
// alternating between them.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase } from "../../src/db/sqlite/open.ts";
import type { VisitPageQuery } from "../../src/stats/visit-pages.ts";

const args = process.argv.slice(2);
const value = (flag: string, fallback: number) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback);
const BATCHES = value("--batches", 20_000);
const ROUNDS = value("--rounds", 3);
const against = args.includes("--against") ? resolve(args[args.indexOf("--against") + 1]!) : null;
const ROOT = resolve(import.meta.dir, "../..");

const SCOPES: [string, VisitPageQuery["scope"]][] = [
  ["one link", { linkSeq: 1 }],
  ["every link", { owner: null, domain: null, tag: null }],
  ["a domain (half the batches)", { owner: null, domain: "b.example", tag: null }],
  ["a tag (half the batches)", { owner: null, domain: null, tag: "t" }],
];

const dir = mkdtempSync(join(tmpdir(), "visit-scopes-"));
const db = openDatabase(join(dir, "bench.db"));
db.run("INSERT INTO links (id, url, created_at, domain) VALUES ('a', 'https://a.example', 0, ''), ('b', 'https://b.example', 0, 'b.example')");
db.run("INSERT INTO link_tags (link_seq, tag) SELECT seq, 't' FROM links WHERE id = 'b'");
const insert = db.query("INSERT INTO visit_batches (link_seq, first_ts, last_ts, humans, visits) VALUES (?, ?, ?, 2, ?)");
const visit = (ts: number) => [ts, "Chrome", "Windows", "desktop", "DE", "Direct", null, null, null, 0];
db.transaction(() => {
  for (let i = 0; i < BATCHES; i++) insert.run(1 + (i % 2), i * 10, i * 10 + 5, JSON.stringify([visit(i * 10), visit(i * 10 + 5)]));
})();

type Pages = { page: (q: VisitPageQuery) => { total: number } };
async function pagesOf(checkout: string): Promise<Pages> {
  const module = (await import(join(checkout, "src/db/sqlite/visit-pages.ts"))) as { sqliteVisitPages: (d: typeof db) => Pages };
  return module.sqliteVisitPages(db);
}
const sides: [string, Pages][] = [["this", await pagesOf(ROOT)]];
if (against !== null) sides.push(["against", await pagesOf(against)]);

const times = new Map<string, number[]>();
const totals = new Map<string, number>();
for (let round = 0; round < ROUNDS; round++) {
  // Turn about: the side measured first changes every round.
  const order = round % 2 === 0 ? sides : [...sides].reverse();
  for (const [side, pages] of order) {
    for (const [name, scope] of SCOPES) {
      const started = performance.now();
      const page = pages.page({ scope, fromTs: 0, toTs: 1e15, excludeBots: false, offset: 0, limit: 5000 });
      const key = `${side}\t${name}`;
      times.set(key, [...(times.get(key) ?? []), performance.now() - started]);
      // Both sides must answer the same page: a faster wrong answer is no result.
      if (totals.has(name) && totals.get(name) !== page.total) throw new Error(`${name}: total ${page.total} against ${totals.get(name)}`);
      totals.set(name, page.total);
    }
  }
}
db.close();
rmSync(dir, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${BATCHES} batches, ${ROUNDS} rounds, page of 5,000 from offset 0 (median ms)`);
console.log(["scope", "total", ...sides.map(([s]) => s), ...(against === null ? [] : ["this/against"])].join("\t"));
for (const [name] of SCOPES) {
  const ms = sides.map(([side]) => median(times.get(`${side}\t${name}`)!));
  const ratio = ms.length === 2 ? [(ms[0]! / ms[1]!).toFixed(3)] : [];
  console.log([name, totals.get(name), ...ms.map((m) => m.toFixed(1)), ...ratio].join("\t"));
}
