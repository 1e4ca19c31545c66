// An export of visits (src/stats/visit-export.ts) on both engines, through the storage the service
// uses (SQLite: the reader thread): every visit of the scope once, in the export's order (batch id,
// place in the batch), the range and the bot filter, imported visits marked, CSV cells safe, and a
// download broken anywhere and resumed after its last row gives the whole with no gap and no
// duplicate (docs/statistics.md: Exporting visits).

import { expect, test } from "bun:test";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";
import type { OpenedEngine } from "../support/engines.ts";
import { EXPORT_START, parseCursor, visitExportStream, type ExportChunkQuery, type VisitCursor } from "../../src/stats/visit-export.ts";
import { download, lines } from "../support/export-download.ts";
import { parseCsv } from "../../src/util/csv.ts";
import type { VisitScope } from "../../src/stats/visit-pages.ts";
import { VISIT_EXPORT_FIELDS } from "../../src/stats/visit-export-format.ts";

const EVERY: VisitScope = { owner: null, domain: null, tag: null };

function query(scope: VisitScope, o: Partial<ExportChunkQuery> = {}): Omit<ExportChunkQuery, "header"> {
  return { scope: { links: scope }, fromTs: 0, toTs: 1e15, excludeBots: false, after: EXPORT_START, format: "jsonl", domainNames: { "": "s.test" }, ...o };
}

/** Two links, `a` tagged "t": 9 flushes of a's, b's and a bot's visits; a's referrer a formula. */
async function seed(db: OpenedEngine) {
  const a = await db.storage.links.create({ url: "https://example.com/a", alias: "a", tags: ["t"] }, NOW - 100_000);
  const b = await db.storage.links.create({ url: "https://example.com/b", alias: "b" }, NOW - 100_000);
  for (let i = 0; i < 9; i++) {
    db.writer.record(visit(a, { ts: NOW + i * 100, referrer: "=HYPERLINK(\"x\")", utmSource: "+cmd" }));
    db.writer.record(visit(b, { ts: NOW + i * 100 + 5 }));
    db.writer.record(visit(a, { ts: NOW + i * 100 + 10, isBot: true }));
    await db.writer.flush();
  }
  return { a, b };
}

forEachEngine("visit export", (db) => {
  test("every visit of a scope once, in order; range, bots, tag and one link", async () => {
    const { a } = await seed(db());
    const all = lines((await download(db(), query(EVERY))).text);
    expect(all).toHaveLength(27);
    const ids = all.map((r) => parseCursor(String(r.visitId))!);
    for (let i = 1; i < ids.length; i++) expect(ids[i]!.batch > ids[i - 1]!.batch || (ids[i]!.batch === ids[i - 1]!.batch && ids[i]!.position > ids[i - 1]!.position)).toBe(true);
    expect(Object.keys(all[0]!)).toEqual([...VISIT_EXPORT_FIELDS]);
    expect(all.filter((r) => r.link === "b")).toHaveLength(9);
    expect(all[0]!.domain).toBe("s.test");
    expect(lines((await download(db(), query({ linkSeq: a.seq }))).text)).toHaveLength(18);
    expect(lines((await download(db(), query({ owner: null, domain: null, tag: "t" }, { excludeBots: true }))).text).map((r) => r.isBot)).toEqual(Array(9).fill(false));
    // [NOW+100, NOW+300): flushes 1 and 2, each a batch of a's two visits then one of b's (the order is the batches', not time's).
    const ranged = lines((await download(db(), query(EVERY, { fromTs: NOW + 100, toTs: NOW + 300 }))).text);
    expect(ranged.map((r) => r.timestamp)).toEqual([100, 110, 105, 200, 210, 205].map((d) => new Date(NOW + d).toISOString()));
  }, 60_000);

  test("imported visits are marked; CSV has its header and formula cells written as text", async () => {
    const { a } = await seed(db());
    await db().storage.imports.addVisits("test", [], [visit(a, { ts: NOW - 50_000, referrer: "@SUM(1)" })]);
    const rows = lines((await download(db(), query({ linkSeq: a.seq }))).text);
    expect(rows.filter((r) => r.imported === true).map((r) => r.referrer)).toEqual(["@SUM(1)"]);
    expect(rows.filter((r) => r.imported === false)).toHaveLength(18);
    const csv = parseCsv((await download(db(), query({ linkSeq: a.seq }, { format: "csv" }))).text);
    expect(csv[0]).toEqual([...VISIT_EXPORT_FIELDS]);
    expect(csv).toHaveLength(20);
    // The raw text holds the escaped cell: a spreadsheet shows it, never runs it.
    const raw = (await download(db(), query({ linkSeq: a.seq }, { format: "csv" }))).text;
    expect(raw).toContain(`"'=HYPERLINK(""x"")"`);
    expect(raw).toContain(",'+cmd,");
    expect(raw).not.toMatch(/(^|,)[=+@]/m);
  }, 60_000);

  test("a download broken anywhere and resumed after its last whole row: no gap, no duplicate", async () => {
    await seed(db());
    const whole = (await download(db(), query(EVERY, { batches: 2 }))).text;
    const wholeIds = lines(whole).map((r) => r.visitId);
    for (const cut of [1, 40, whole.length / 3, whole.length - 2]) {
      const broken = await download(db(), query(EVERY, { batches: 2 }), cut);
      // What a client keeps: the complete lines it received; it goes on after the last one.
      const kept = broken.text.slice(0, broken.text.lastIndexOf("\n") + 1);
      const keptRows = lines(kept);
      const after: VisitCursor = keptRows.length === 0 ? EXPORT_START : parseCursor(String(keptRows.at(-1)!.visitId))!;
      const rest = await download(db(), query(EVERY, { batches: 2, after }));
      expect(rest.how).toBe("done");
      expect([...keptRows, ...lines(rest.text)].map((r) => r.visitId)).toEqual(wholeIds);
    }
  }, 60_000);

  test("a cancelled download reads no further chunk", async () => {
    await seed(db());
    let asked = 0;
    const counting = { chunk: (q: ExportChunkQuery) => (asked++, db().storage.visitExport.chunk(q)) };
    let how = "";
    const reader = visitExportStream(counting, query(EVERY, { batches: 1 }), (end) => (how = end.how)).getReader();
    await reader.read();
    await reader.cancel();
    expect(how).toBe("cancelled");
    expect(asked).toBe(1);
  }, 60_000);
});
