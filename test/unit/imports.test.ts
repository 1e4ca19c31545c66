// The rules of an import that need no database: times as the sources write them, the plan of
// what happens to each code under each policy, counts as rollup rows, and a CSV with a --map.
import { describe, expect, test } from "bun:test";
import { sourceTime } from "../../src/imports/sources/time.ts";
import { planImport, type ConflictPolicy } from "../../src/imports/plan.ts";
import { countRows, countryOf, visitConverter } from "../../src/imports/visits.ts";
import { csvSource } from "../../src/imports/sources/csv.ts";
import { retryAfterMs } from "../../src/imports/sources/http.ts";
import type { SourceLink } from "../../src/imports/source.ts";
import { takeLease, type Lease } from "../../src/imports/lease.ts";
import { openImports } from "../../src/db/open-storage.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";

describe("source times", () => {
  test("offsets with and without a colon, Z, and YOURLS's bare UTC wall-clock", () => {
    expect(sourceTime("2016-08-21T20:34:16+02:00")).toBe(Date.UTC(2016, 7, 21, 18, 34, 16));
    expect(sourceTime("2020-03-01T00:00:00+0000")).toBe(Date.UTC(2020, 2, 1));
    expect(sourceTime("2025-01-01T10:00:00.250Z")).toBe(Date.UTC(2025, 0, 1, 10, 0, 0, 250));
    expect(sourceTime("2023-07-01 08:27:00")).toBe(Date.UTC(2023, 6, 1, 8, 27));
    expect(sourceTime("2023-07-01 08:27")).toBe(Date.UTC(2023, 6, 1, 8, 27));
    expect(sourceTime("2023-07-01")).toBe(Date.UTC(2023, 6, 1));
    // Without an offset in any other form it would be read in this machine's zone: refused.
    for (const nothing of [null, undefined, "", "0000-00-00 00:00:00", "soon", "01/05/2024", "Jan 5 2024 10:00"]) expect(sourceTime(nothing)).toBeNull();
  });

  test("Retry-After in seconds or as a date", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeNull();
  });
});

const link = (code: string | null, extra: Partial<SourceLink> = {}): SourceLink => ({
  key: code ?? "row", domain: null, code, url: `https://example.com/${code}`, createdAt: 0, tags: [], expiresAt: null, validFrom: null, maxClicks: null, title: null, disabledBecause: null, dropped: [], clicks: null, ...extra,
});

function plan(policy: ConflictPolicy, links: SourceLink[], taken: Record<string, "taken" | "retired"> = {}, imported: Record<string, string> = {}) {
  let n = 0;
  return planImport({
    links, policy, imported: new Map(Object.entries(imported)), taken: new Map(Object.entries(taken)), placeOf: () => ({ domain: "", name: null }),
    checkUrl: (url) => (url.includes("bad") ? { ok: false, error: "refused" } : { ok: true, url }),
    newId: () => `new${++n}`,
  });
}

describe("the plan", () => {
  const links = [link("ok"), link("x"), link("api"), link("a.b"), link("mine"), link("gone"), link("bad", { url: "https://bad.example/" }), link("done")];
  const taken = { mine: "taken", gone: "retired" } as const;

  test("fail: every code that cannot be kept is a problem, and nothing is to be created", () => {
    const p = plan("fail", links, taken, { done: "done" });
    expect(p.conflicts.map((c) => [c.link.code, c.problem])).toEqual([["api", "reserved"], ["a.b", "invalid"], ["mine", "taken"], ["gone", "retired"], ["bad", "destination"]]);
    expect(p.already.get("done")).toBe("done");
  });

  test("skip leaves them out; rename gives each a new id but the refused destination, which no id mends", () => {
    expect(plan("skip", links, taken).create.map((c) => c.id)).toEqual(["ok", "x", "done"]);
    const renamed = plan("rename", links, taken);
    expect(renamed.create.map((c) => [c.link.code, c.id, c.renamedBecause])).toEqual([
      ["ok", "ok", null], ["x", "x", null], ["api", "new1", "reserved"], ["a.b", "new2", "invalid"], ["mine", "new3", "taken"], ["gone", "new4", "retired"], ["done", "done", null],
    ]);
    expect(renamed.skipped.map((s) => s.link.code)).toEqual(["bad"]);
  });

  test("twins by case are both kept and said; the same code twice (two domains) is a duplicate; tags we cannot hold are said", () => {
    const p = plan("skip", [link("Abc"), link("abc"), link("dup", { key: "a/dup" }), link("dup", { key: "b/dup" }), link("t", { tags: ["ok", "not ok"] })]);
    expect(p.create.map((c) => c.id)).toEqual(["Abc", "abc", "dup", "t"]);
    expect(p.skipped.map((s) => [s.link.key, s.problem])).toEqual([["b/dup", "duplicate"]]);
    expect(p.create[3]!.link.tags).toEqual(["ok"]);
    expect(p.notes).toEqual(['"abc" and "Abc" differ only by case: both kept as they are (codes here are case-sensitive)', 'the tag "not ok" of 1 link: not kept (this shortener has no place for it)']);
  });

  test("titles are kept as a link here holds them: whitespace collapsed, at most 500 characters, those cut counted among the links written", () => {
    const long = "é".repeat(499) + "🚀🚀";
    const p = plan("skip", [
      link("t1", { title: "  Two\n\tlines  " }), link("t2", { title: long }), link("t3", { title: " \n " }), link("t4"), link("t5", { title: long }), link("t6", { title: long }),
    ], {}, { t6: "t6" });
    expect(p.create.map((c) => [c.id, c.link.title])).toEqual([["t1", "Two lines"], ["t2", "é".repeat(499) + "🚀"], ["t3", null], ["t4", null], ["t5", "é".repeat(499) + "🚀"]]);
    // t6 was imported before: nothing of it is written, and nothing said.
    expect(p.notes).toEqual(["the title of 2 links: longer than 500 characters, kept cut to 500"]);
    expect(plan("skip", [link("t7", { title: "é".repeat(500) })]).notes).toEqual([]);
    // A peer that answers a number or an object where the title belongs: no title, not a failure.
    expect(plan("skip", [link("t8", { title: 42 as unknown as string }), link("t9", { title: { a: 1 } as unknown as string })]).create.map((c) => c.link.title)).toEqual([null, null]);
  });

  test("a card is kept as a link here holds it: text tidied and cut at 200 and 500, an image kept only when http(s) and taken; both said", () => {
    const p = plan("skip", [
      link("c1", { card: { cardTitle: " Spring\n sale ", cardDescription: "d".repeat(501), cardImage: "https://img.example/a.png" } }),
      link("c2", { card: { cardTitle: "t".repeat(201), cardImage: "javascript:alert(1)" } }),
      link("c3", { card: { cardImage: "https://bad.example/a.png" } }),
      link("c4"),
    ]);
    expect(p.create.map((c) => [c.id, c.link.card])).toEqual([
      ["c1", { cardTitle: "Spring sale", cardDescription: "d".repeat(500), cardImage: "https://img.example/a.png" }],
      ["c2", { cardTitle: "t".repeat(200), cardDescription: null, cardImage: null }],
      ["c3", { cardTitle: null, cardDescription: null, cardImage: null }],
      ["c4", { cardTitle: null, cardDescription: null, cardImage: null }],
    ]);
    expect(p.notes).toEqual([
      "the card of 2 links: a title over 200 or a description over 500 characters, kept cut",
      "the card image of 2 links: not an http(s) URL this service links to, not kept",
    ]);
  });

  test("a link without a code (a CSV row) gets a new id, not a problem", () => {
    expect(plan("fail", [link(null)]).create.map((c) => c.id)).toEqual(["new1"]);
  });
});

describe("counts as rollup rows", () => {
  test("days as they are; each dimension on the newest day, filled up with Unknown to its period; no bots, no uniques", () => {
    const rows = countRows(
      [{ key: "k", days: [{ day: "2025-01-01", total: 3 }, { day: "2025-01-03", total: 2 }, { day: "2025-01-02", total: 0 }], dimensions: [{ dimension: "browser", name: "Chrome", total: 4 }], dimensionsTotal: 5 }],
      (key) => (key === "k" ? { id: "id", seq: 7 } : undefined),
    );
    // Rows and totals under the link's seq, which its history is written under.
    expect(rows.daily.map((d) => [d.linkSeq, d.day, d.total, d.bots, d.uniques])).toEqual([[7, "2025-01-01", 3, 0, 0], [7, "2025-01-03", 2, 0, 0]]);
    expect(rows.totals.get(7)).toEqual({ total: 5, humans: 5, lastTs: Date.UTC(2025, 0, 3) });
    const browsers = rows.dimensions.filter((d) => d.dimension === "browser").map((d) => [d.day, d.name, d.total]);
    expect(browsers).toEqual([["2025-01-03", "Chrome", 4], ["2025-01-03", "Unknown", 1]]);
    expect(rows.dimensions.filter((d) => d.dimension === "device").map((d) => [d.name, d.total])).toEqual([["Unknown", 5]]);
  });

  test("countries: two letters, upper-case; empty and Cloudflare's XX are Unknown", () => {
    expect([countryOf("de"), countryOf(""), countryOf("XX"), countryOf(null), countryOf("Germany")]).toEqual(["DE", "Unknown", "Unknown", "Unknown", "Unknown"]);
  });
});

describe("visits as ours", () => {
  test("UTM as a click here counts it: the link's URL with the visited URL's query added, the link's own parameters kept", () => {
    const convert = visitConverter();
    const at = (visitedUrl: string | null) => ({ key: "k", ts: Date.UTC(2025, 0, 1), referrer: null, userAgent: null, country: null, visitedUrl });
    const urls = new Map([["k", "https://example.com/land?utm_source=x#top"]]);
    const { visits } = convert([at(null), at("https://s.test/k"), at("https://s.test/k?utm_source=y&utm_medium=mail"), at("https://s.test/k?utm_campaign=c#frag")], () => ({ id: "k", seq: 7 }), (key) => urls.get(key));
    expect(visits.map((v) => [v.utmSource, v.utmMedium, v.utmCampaign])).toEqual([["x", null, null], ["x", null, null], ["x", "mail", null], ["x", null, "c"]]);
    expect(visits.every((v) => v.linkSeq === 7 && v.linkId === "k")).toBe(true);
  });
});

describe("CSV", () => {
  const read = async (text: string, map?: string) => {
    const out: SourceLink[] = [];
    for await (const page of csvSource({ file: undefined, text, map }).links()) out.push(...page);
    return out;
  };

  test("--map names its columns; a row without an alias gets a new id and a key that a re-run finds again", async () => {
    const links = await read('\uFEFFKeyword,Destination,Date,Labels\nspring,https://example.com/a,2024-02-03 04:05:06,"x|y"\n,https://example.com/b,,\n', "alias=Keyword,long=Destination,created=Date,tags=Labels");
    expect(links.map((l) => [l.code, l.url, l.createdAt, l.tags])).toEqual([
      ["spring", "https://example.com/a", Date.UTC(2024, 1, 3, 4, 5, 6), ["x", "y"]],
      [null, "https://example.com/b", expect.any(Number), []],
    ]);
    expect(links[1]!.key).toBe("row 3 https://example.com/b");
  });

  test("a title column: by default the one our export writes (title), or the one --map names", async () => {
    expect((await read("url,title\nhttps://example.com/a,Spring sale\nhttps://example.com/b,\n")).map((l) => l.title)).toEqual(["Spring sale", null]);
    expect((await read("Destination,Name\nhttps://example.com/a,Spring sale\n", "long=Destination,title=Name")).map((l) => [l.title, l.dropped])).toEqual([["Spring sale", []]]);
  });

  test("card columns: by default the ones our export writes (card_title, card_description, card_image), or the ones --map names", async () => {
    const ours = await read("url,card_title,card_description,card_image\nhttps://example.com/a,Sale,Half off,https://img.example/a.png\nhttps://example.com/b,,,\n");
    expect(ours.map((l) => l.card)).toEqual([
      { cardTitle: "Sale", cardDescription: "Half off", cardImage: "https://img.example/a.png" },
      { cardTitle: null, cardDescription: null, cardImage: null },
    ]);
    const mapped = await read("Destination,OG Title,OG Image\nhttps://example.com/a,Sale,https://img.example/a.png\n", "long=Destination,card_title=OG Title,card_image=OG Image");
    expect(mapped.map((l) => l.card)).toEqual([{ cardTitle: "Sale", cardDescription: null, cardImage: "https://img.example/a.png" }]);
  });

  test("a CSV without the destination's column, or a --map that is not FIELD=COLUMN, is refused by name", async () => {
    await expect(read("a,b\n1,2\n")).rejects.toThrow('no column "url"');
    expect(() => csvSource({ file: undefined, text: "", map: "nope" })).toThrow("--map");
  });
});

describe("one run of an import at a time", () => {
  test("a second run is refused while the first holds the lease; a lease whose process is gone is taken over", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shortener-lease-"));
    const opened = await openImports(join(dir, "s.db"), null);
    try {
      const first = await takeLease(opened.imports, "yourls x");
      expect("heldBy" in first).toBe(false);
      const second = await takeLease(opened.imports, "yourls x");
      expect("heldBy" in second && second.heldBy).toContain(`process ${process.pid}`);
      expect("heldBy" in (await takeLease(opened.imports, "another source"))).toBe(false);
      await (first as Lease).release();
      const third = await takeLease(opened.imports, "yourls x");
      expect("heldBy" in third).toBe(false);
      // A holder on this machine whose process has ended (a kill -9): its lease is taken over.
      const dead = Bun.spawnSync(["true"]).pid;
      const stale = JSON.stringify({ until: Date.now() + 60_000, host: hostname(), pid: dead, token: "x" });
      expect(await opened.imports.swapCursor("yourls y", "running", null, stale)).toBe(true);
      expect("heldBy" in (await takeLease(opened.imports, "yourls y"))).toBe(false);
    } finally {
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
