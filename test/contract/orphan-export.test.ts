// An export of visits to no link (src/stats/orphan-export.ts) on both engines, through the storage
// the service uses (SQLite: the reader thread): every stored orphan visit once, with its own columns,
// in the export's order (stored row, place in it); range, bots and type; a hostile path written as
// text in CSV; a download broken anywhere and resumed after its last row: no gap, no duplicate
// (docs/statistics.md: Visits to no link).

import { expect, test } from "bun:test";
import { openStored } from "../support/stored.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";
import type { OpenedEngine } from "../support/engines.ts";
import { EXPORT_START, parseCursor, type ExportChunkQuery, type VisitCursor } from "../../src/stats/visit-export.ts";
import { download, lines } from "../support/export-download.ts";
import { ORPHAN_EXPORT_FIELDS } from "../../src/stats/visit-export-format.ts";
import { ORPHAN_SEQ, type OrphanType } from "../../src/visits/orphans.ts";
import type { Visit } from "../../src/visits/visit.ts";
import { parseCsv } from "../../src/util/csv.ts";

const HOSTILE = `/=HYPERLINK("http://evil.test","x")`;

function orphan(type: OrphanType, path: string, ts: number, isBot = false): Visit {
  return {
    linkSeq: ORPHAN_SEQ, linkId: "", ts, browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct",
    utmSource: null, utmMedium: null, utmCampaign: null, isBot, visitor: null, orphan: { type, path },
  };
}

function query(o: Partial<ExportChunkQuery> & { type?: OrphanType } = {}): Omit<ExportChunkQuery, "header"> {
  const { type = null, ...rest } = o;
  return { scope: { orphans: { type } }, fromTs: 0, toTs: 1e15, excludeBots: false, after: EXPORT_START, format: "jsonl", domainNames: {}, ...rest };
}

/** A link's click and three visits to no link in each of 5 flushes: one stored orphan row a type a flush. */
async function seed(db: OpenedEngine): Promise<number[]> {
  const link = await db.storage.links.create({ url: "https://example.com/a", alias: "a" }, NOW - 100_000);
  for (let i = 0; i < 5; i++) {
    db.writer.record(visit(link, { ts: NOW + i * 100 }));
    db.writer.record(orphan("base_url", "/", NOW + i * 100 + 1));
    db.writer.record(orphan("invalid_short_url", `/gone${i}`, NOW + i * 100 + 2, true));
    db.writer.record(orphan("regular_404", HOSTILE, NOW + i * 100 + 3));
    await db.writer.flush();
  }
  const rows = (await db.stored.all("SELECT id FROM orphan_batches ORDER BY id")) as { id: unknown }[];
  return rows.map((r) => Number(r.id));
}

/** Makes the rows of visits to no link of every type but invalid_short_url unreadable. */
async function spoil(db: { location: string; engine: "sqlite" | "postgres" }): Promise<void> {
  const stored = await openStored({ dbPath: db.location, engine: db.engine }, { write: true });
  try {
    await stored.run("UPDATE orphan_batches SET visits = 'not JSON' WHERE type <> 'invalid_short_url'");
  } finally {
    await stored.close();
  }
}

forEachEngine("orphan visit export", (db) => {
  test("every visit to no link once, in order, with its columns; range, bots and type", async () => {
    const ids = await seed(db());
    expect(ids).toHaveLength(15);
    const all = lines((await download(db(), query())).text);
    const expected = [0, 1, 2, 3, 4].flatMap((i) => [
      { visitId: `${ids[3 * i]}-0`, timestamp: new Date(NOW + i * 100 + 1).toISOString(), type: "base_url", visitedPath: "/", browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct", isBot: false },
      { visitId: `${ids[3 * i + 1]}-0`, timestamp: new Date(NOW + i * 100 + 2).toISOString(), type: "invalid_short_url", visitedPath: `/gone${i}`, browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct", isBot: true },
      { visitId: `${ids[3 * i + 2]}-0`, timestamp: new Date(NOW + i * 100 + 3).toISOString(), type: "regular_404", visitedPath: HOSTILE, browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct", isBot: false },
    ]);
    expect(all).toEqual(expected);
    expect(Object.keys(all[0]!)).toEqual([...ORPHAN_EXPORT_FIELDS]);
    expect(lines((await download(db(), query({ excludeBots: true }))).text).map((r) => r.visitId)).toEqual(expected.filter((r) => !r.isBot).map((r) => r.visitId));
    expect(lines((await download(db(), query({ type: "invalid_short_url" }))).text).map((r) => r.visitedPath)).toEqual(["/gone0", "/gone1", "/gone2", "/gone3", "/gone4"]);
    const ranged = lines((await download(db(), query({ fromTs: NOW + 102, toTs: NOW + 202 }))).text);
    expect(ranged.map((r) => r.visitId)).toEqual([`${ids[4]}-0`, `${ids[5]}-0`, `${ids[6]}-0`]);
    // Rows of one type a row: an export of one type reads only that type's rows, so one of another
    // type that cannot be read (the only way to see that it was not) is no matter.
    await spoil(db());
    expect(lines((await download(db(), query({ type: "invalid_short_url" }))).text).map((r) => r.visitedPath)).toEqual(["/gone0", "/gone1", "/gone2", "/gone3", "/gone4"]);
  }, 60_000);

  test("CSV: the header names the columns, a hostile path is written as text", async () => {
    await seed(db());
    // A path the click thread keeps starts with "/", which no spreadsheet runs; one stored otherwise
    // (and a referrer) still goes through the same cells as a link's visits: written with a '.
    db().writer.record({ ...orphan("regular_404", `=HYPERLINK("http://evil.test","x")`, NOW + 900), referrer: "+cmd" });
    await db().writer.flush();
    const raw = (await download(db(), query({ format: "csv" }))).text;
    const csv = parseCsv(raw);
    expect(csv[0]).toEqual([...ORPHAN_EXPORT_FIELDS]);
    expect(csv).toHaveLength(17);
    expect(csv.filter((r) => r[2] === "regular_404").map((r) => r[3])).toEqual([...Array(5).fill(HOSTILE), `=HYPERLINK("http://evil.test","x")`]); // read back, the ' is taken off
    expect(raw).toContain(`,"/=HYPERLINK(""http://evil.test"",""x"")",`);
    expect(raw).toContain(`,"'=HYPERLINK(""http://evil.test"",""x"")",Firefox,Linux,desktop,DE,'+cmd,false`);
    // No cell of the file starts with what a spreadsheet runs.
    expect(raw).not.toMatch(/(^|,)"?[=+@-]/m);
  }, 60_000);

  test("a download broken anywhere and resumed after its last whole row: no gap, no duplicate", async () => {
    await seed(db());
    const whole = (await download(db(), query({ batches: 2 }))).text;
    const wholeIds = lines(whole).map((r) => r.visitId);
    expect(wholeIds).toHaveLength(15);
    for (const cut of [1, 40, whole.length / 3, whole.length / 2, whole.length - 2]) {
      const broken = await download(db(), query({ batches: 2 }), cut);
      const kept = broken.text.slice(0, broken.text.lastIndexOf("\n") + 1);
      const keptRows = lines(kept);
      const after: VisitCursor = keptRows.length === 0 ? EXPORT_START : parseCursor(String(keptRows.at(-1)!.visitId))!;
      const rest = await download(db(), query({ batches: 2, after }));
      expect(rest.how).toBe("done");
      expect([...keptRows, ...lines(rest.text)].map((r) => r.visitId)).toEqual(wholeIds);
    }
  }, 60_000);
});
