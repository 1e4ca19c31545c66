// A large export streamed with flat memory (docs/statistics.md: Exporting visits): 1M visits on SQLite
// (read and written on the reader thread), a 300k twin on PostgreSQL. The visits are seeded as the
// recorder stores them (batchRows, the batch writer's encoding, 200 a row) straight into the table,
// not through HTTP: the export is what is measured. Every row is counted and the last one checked;
// the process's resident memory, sampled at every chunk, may not grow by more than a bound far
// below the size of what was streamed.

import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";
import type { OpenedEngine } from "../support/engines.ts";
import { batchRows } from "../../src/visits/visit-batch.ts";
import { EXPORT_START, visitExportStream } from "../../src/stats/visit-export.ts";
import type { Link } from "../../src/links/link.ts";

const MB = 1024 * 1024;
/** Growth allowed: a few chunks' worth (a chunk is ≤ 10,000 rows, ~1.5 MB) plus the runtime's and its garbage collector's slack. */
const RSS_BOUND = 80 * MB;
/** Growth allowed after the first quarter of the rows. */
const LATER_BOUND = 16 * MB;

/** `n` visits of the link, a millisecond apart, every 7th a bot, as stored rows. */
async function seed(db: OpenedEngine, link: Pick<Link, "seq" | "id">, n: number): Promise<void> {
  const rows = batchRows(Array.from({ length: n }, (_, i) => visit(link, { ts: NOW + i, isBot: i % 7 === 0, referrer: i % 2 ? "Direct" : `news-${i % 50}.example.org/a/path/long/enough/to/make/each/row/weigh/what/real/referrers/do` })));
  if (db.engine === "sqlite") {
    const raw = new Database(db.location);
    const insert = raw.query("INSERT INTO visit_batches (link_seq, first_ts, last_ts, humans, visits) VALUES (?, ?, ?, ?, ?)");
    raw.transaction(() => {
      for (const r of rows) insert.run(r.linkSeq, r.firstTs, r.lastTs, r.humans, r.visits);
    })();
    raw.close();
    return;
  }
  const pg = new SQL(db.location, { max: 1 });
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    await pg`INSERT INTO visit_batches (link_seq, first_ts, last_ts, humans, visits)
      SELECT * FROM unnest(${pg.array(part.map((r) => r.linkSeq), "INT8")}::int8[], ${pg.array(part.map((r) => r.firstTs), "INT8")}::int8[],
        ${pg.array(part.map((r) => r.lastTs), "INT8")}::int8[], ${pg.array(part.map((r) => r.humans), "INT4")}::int4[], ${pg.array(part.map((r) => r.visits), "TEXT")}::text[])`;
  }
  await pg.close();
}

forEachEngine("visit export size", (db) => {
  test("1M visits (PostgreSQL: 300k) stream with flat memory and exact rows", async () => {
    const n = db().engine === "sqlite" ? 1_000_000 : 300_000;
    const link = await db().storage.links.create({ url: "https://example.com/big", alias: "big" }, NOW - 1000);
    await seed(db(), link, n);
    // The reader thread (SQLite) started and warm before the measure: its start is not the export's cost.
    for await (const _ of visitExportStream(db().storage.visitExport, { scope: { links: { linkSeq: link.seq } }, fromTs: 0, toTs: NOW + 1, excludeBots: false, after: EXPORT_START, format: "csv", domainNames: {} }, () => {}));
    Bun.gc(true);
    const before = process.memoryUsage.rss();
    let peak = before;
    let bytes = 0;
    let rows = 0;
    let tail = "";
    let quarter = 0;
    const stream = visitExportStream(db().storage.visitExport, { scope: { links: { linkSeq: link.seq } }, fromTs: 0, toTs: 1e15, excludeBots: false, after: EXPORT_START, format: "csv", domainNames: {} }, () => {});
    let chunks = 0;
    for await (const chunk of stream) {
      // What the export holds, not the garbage a lazy collector has not freed yet: collected now and then.
      if (++chunks % 10 === 0) Bun.gc(true);
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) rows++;
      tail = (tail + Buffer.from(chunk.subarray(Math.max(0, chunk.length - 400))).toString("utf8")).slice(-400);
      peak = Math.max(peak, process.memoryUsage.rss());
      if (quarter === 0 && rows >= n / 4) quarter = peak;
    }
    // The header and one record a visit; the last is the last visit stored (batch rows of 200).
    expect(rows).toBe(n + 1);
    const last = tail.trimEnd().split("\r\n").at(-1)!.split(",");
    expect(last[1]).toBe(new Date(NOW + n - 1).toISOString());
    expect(last[0]).toMatch(new RegExp(`-${(n - 1) % 200}$`));
    expect(bytes).toBeGreaterThan(n * 120);
    console.log(`visit export: ${n} rows, ${Math.round(bytes / MB)} MB streamed, rss grew ${Math.round((peak - before) / MB)} MB, ${Math.round((peak - quarter) / MB)} MB after the first quarter`);
    // Flat: the last three quarters of the rows (90 MB of text on SQLite) add next to nothing to the
    // peak the first quarter reached; and that peak is a few chunks', not the export's size.
    expect(peak - quarter).toBeLessThan(LATER_BOUND);
    expect(peak - before).toBeLessThan(RSS_BOUND);
  }, 300_000);
});
