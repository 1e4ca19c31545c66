// Import and export against real servers: per-row results, limits, and the round trip of a
// collection to a new instance (and what retirement means for importing it back).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { drained } from "../support/clicks.ts";
import { parseCsv } from "../../src/util/csv.ts";

let a: RunningServer;
let keyA: string;
beforeAll(async () => {
  a = await startServer({ args: ["--create-rate-limit", "0"] });
  keyA = makeKey(a.dbPath, "owner");
});
afterAll(() => a.dispose());

describe("import", () => {
  test("CSV with good and bad rows: each row created like a create, or failed with its code", async () => {
    const text = [
      "url,custom_url,expires_at,max_clicks,tags",
      "https://example.com/one,imp-one,2099-01-01,3,\"a,b\"",
      "not a url,imp-two,,,",
      "https://example.com/three,,,,",
      "https://example.com/four,imp-one,,,", // alias taken by row 1
      "https://example.com/five,imp-five,yesterday,,",
      "",
      "https://example.com/six,imp-six,,0,",
    ].join("\r\n");
    const r = await api(a.url, keyA, "POST", "/api/links/import", text, { "content-type": "text/csv" });
    expect(r.status).toBe(200);
    expect(r.body.data.created.map((c: { row: number }) => c.row)).toEqual([1, 3]);
    expect(r.body.data.created[0]).toEqual({ row: 1, id: "imp-one", domain: null, shortUrl: `${a.url}/imp-one` });
    expect(r.body.data.failed.map((f: { row: number; code: string }) => `${f.row}:${f.code}`)).toEqual(["2:url_scheme", "4:alias_taken", "5:expires_invalid", "6:max_clicks_invalid"]);
    expect((await api(a.url, keyA, "GET", "/api/links/imp-one")).body.data).toMatchObject({ maxClicks: 3, tags: ["a", "b"], expiresAt: "2099-01-02T00:00:00.000Z" });
    expect((await fetch(`${a.url}/imp-one`, { redirect: "manual" })).headers.get("location")).toBe("https://example.com/one");
  });

  test("a JSON array of the same; a non-object row fails alone", async () => {
    const rows = [{ url: "https://example.com/j1", custom_url: "imp-j1", tags: ["x"], max_clicks: 2 }, 42, { url: "https://example.com/j3" }];
    const r = await api(a.url, keyA, "POST", "/api/links/import", rows);
    expect(r.body.data.created.map((c: { row: number }) => c.row)).toEqual([1, 3]);
    expect(r.body.data.failed).toEqual([{ row: 2, code: "bad_request", error: "the row is not an object" }]);
  });

  test("refusals: no url column, unreadable CSV or JSON, wrong type, over 10,000 rows", async () => {
    const cases: [string, string, number, string][] = [
      ["name,link\nx,https://example.com/\n", "text/csv", 400, "bad_request"],
      ['url\n"https://example.com/\n', "text/csv", 400, "bad_request"],
      ["{nope", "application/json", 400, "bad_request"],
      ['{"url":"https://example.com/"}', "application/json", 400, "bad_request"],
      ["url\nhttps://example.com/\n", "text/plain", 415, "unsupported_media_type"],
      ["url\n" + "https://example.com/\n".repeat(10_001), "text/csv", 413, "too_many_rows"],
      ["url\n" + "https://example.com/\n\n".repeat(10_001), "text/csv", 413, "too_many_rows"], // blank lines do not hide rows
      [JSON.stringify(Array.from({ length: 10_001 }, () => ({}))), "application/json", 413, "too_many_rows"],
      ["url\n" + "x".repeat(4 * 1024 * 1024), "text/csv", 413, "body_too_large"],
      ['[{"url":"https://example.com/\\ud800"}]', "application/json", 400, "bad_request"],
    ];
    for (const [body, type, status, code] of cases) {
      const r = await api(a.url, keyA, "POST", "/api/links/import", body, { "content-type": type });
      expect(r.status).toBe(status);
      expect(r.body).toMatchObject({ success: false, code });
    }
  });

  test("10,000 rows in one request are all created, and clicks are answered meanwhile", async () => {
    const text = "url,tags\n" + Array.from({ length: 10_000 }, (_, i) => `https://bulk.example/${i},bulk`).join("\n");
    await api(a.url, keyA, "POST", "/api/create", { url: "https://example.com/steady", custom_url: "steady" });
    let done = false;
    const importing = api(a.url, keyA, "POST", "/api/links/import", text, { "content-type": "text/csv" }).finally(() => (done = true));
    // Clicks keep coming back while the import is still running (the order of answers, not a time).
    let answeredDuring = 0;
    while (!done) {
      const during = await fetch(`${a.url}/steady`, { redirect: "manual" });
      expect(during.status).toBe(302);
      if (!done) answeredDuring++;
    }
    const r = await importing;
    expect(answeredDuring).toBeGreaterThanOrEqual(3);
    expect(r.body.data.created).toHaveLength(10_000);
    expect(r.body.data.failed).toEqual([]);
    const page = await api(a.url, keyA, "GET", "/api/links?tag=bulk&limit=200");
    expect(page.body.data.links).toHaveLength(200);
    expect(page.body.data.nextCursor).not.toBeNull();
  }, 240_000); // PostgreSQL on a busy 2-core machine needs most of a minute; nothing here is a timing
});

describe("export", () => {
  test("CSV: a header, then one record per link, with its totals; JSON: the same records", async () => {
    const key = makeKey(a.dbPath, "exporter", "create");
    await api(a.url, key, "POST", "/api/create", { url: "https://example.com/e?x=1,2", custom_url: "exp-one", tags: ["t1", "t2"], max_clicks: 4 });
    await fetch(`${a.url}/exp-one`, { redirect: "manual" });
    await drained(a.url);
    const c = await api(a.url, key, "GET", "/api/links/export?format=csv");
    expect(c.status).toBe(200);
    expect(c.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(c.headers.get("content-disposition")).toMatch(/^attachment; filename="links-\d{4}-\d\d-\d\d\.csv"$/);
    const records = parseCsv(c.body as string);
    expect(records[0]).toEqual(["url", "custom_url", "expires_at", "max_clicks", "tags", "disabled", "status", "created_at", "total_clicks", "human_clicks", "last_click_at",
      "rules", "variants", "password_hash", "redirect_type", "valid_from", "fallback_url", "crawlable", "domain", "title",
      "card_title", "card_description", "card_image"]);
    expect(records.slice(1)).toHaveLength(1);
    expect(records[1]!.slice(0, 9)).toEqual(["https://example.com/e?x=1,2", "exp-one", "", "4", "t1,t2", "false", "active", expect.any(String), "1"]);
    const j = await api(a.url, key, "GET", "/api/links/export?format=json");
    expect(j.body).toEqual([expect.objectContaining({ url: "https://example.com/e?x=1,2", custom_url: "exp-one", tags: ["t1", "t2"], max_clicks: 4, total_clicks: 1, title: null })]);
    expect((await api(a.url, key, "GET", "/api/links/export?format=xml")).body).toMatchObject({ code: "bad_request", field: "format" });
    // Only chosen ids, and of those only the key's own (imp-one belongs to another key).
    await api(a.url, key, "POST", "/api/create", { url: "https://example.com/e2", custom_url: "exp-two" });
    const chosen = await api(a.url, key, "GET", "/api/links/export?format=json&ids=exp-two,imp-one,nope,exp-two");
    expect(chosen.body.map((r: { custom_url: string }) => r.custom_url)).toEqual(["exp-two"]);
    const tooMany = Array.from({ length: 201 }, (_, i) => `id-${i}`).join(",");
    expect((await api(a.url, key, "GET", `/api/links/export?ids=${tooMany}`)).body).toMatchObject({ code: "bad_request", field: "ids" });
  });

  test("round trip: export, delete, import into a new instance: the same links; back into the old one: every id retired", async () => {
    const key = makeKey(a.dbPath, "mover", "create");
    const made = [
      { url: "https://example.com/r1", custom_url: "trip-one", tags: ["x"], expires_at: "2099-06-30", max_clicks: 50 },
      { url: "https://example.com/r2?q=a%20b", tags: [] },
      { url: "https://example.com/r3", custom_url: "trip-three", tags: ["y", "z"] },
    ];
    for (const m of made) expect((await api(a.url, key, "POST", "/api/create", m)).status).toBe(201);
    const exported = (await api(a.url, key, "GET", "/api/links/export?format=csv")).body as string;
    const before = (await api(a.url, key, "GET", "/api/links?order=asc")).body.data.links;
    for (const l of before) expect((await api(a.url, key, "DELETE", `/api/links/${l.id}`)).status).toBe(200);

    const b = await startServer();
    try {
      const keyB = makeKey(b.dbPath, "mover");
      const imported = await api(b.url, keyB, "POST", "/api/links/import", exported, { "content-type": "text/csv" });
      expect(imported.body.data.failed).toEqual([]);
      const after = (await api(b.url, keyB, "GET", "/api/links?order=asc")).body.data.links;
      const shape = (l: any) => ({ id: l.id, originalUrl: l.originalUrl, tags: l.tags, expiresAt: l.expiresAt, maxClicks: l.maxClicks, status: l.status });
      expect(after.map(shape)).toEqual(before.map(shape));
      for (const l of after) expect((await fetch(`${b.url}/${l.id}`, { redirect: "manual" })).headers.get("location")).toBe(l.originalUrl);
    } finally {
      await b.dispose();
    }
    const back = await api(a.url, key, "POST", "/api/links/import", exported, { "content-type": "text/csv" });
    expect(back.body.data.created).toEqual([]);
    expect(back.body.data.failed.map((f: { code: string }) => f.code)).toEqual(["alias_retired", "alias_retired", "alias_retired"]);
  });

  test("titles round trip: export (CSV and JSON), delete, import into a new instance: every title as it was, a formula-like one included", async () => {
    const key = makeKey(a.dbPath, "titles", "create");
    const made = [
      { url: "https://example.com/t1", custom_url: "title-one", title: 'Spring sale, "quoted", 東京 🚀' },
      { url: "https://example.com/t2", custom_url: "title-two", title: '=HYPERLINK("https://evil.example")' },
      { url: "https://example.com/t3", custom_url: "title-three" },
    ];
    for (const m of made) expect((await api(a.url, key, "POST", "/api/create", m)).status).toBe(201);
    const csv = (await api(a.url, key, "GET", "/api/links/export?format=csv")).body as string;
    const json = (await api(a.url, key, "GET", "/api/links/export?format=json")).body as any[];
    expect(json.map((r) => [r.custom_url, r.title])).toEqual(made.map((m) => [m.custom_url, m.title ?? null]));
    // A spreadsheet shows the formula-like title as text: written with a ' before it.
    expect(csv).toContain(`,"'=HYPERLINK(""https://evil.example"")",,,\r\n`); // then the three empty card columns
    for (const m of made) expect((await api(a.url, key, "DELETE", `/api/links/${m.custom_url}`)).status).toBe(200);

    for (const [type, body] of [["text/csv", csv], ["application/json", JSON.stringify(json)]] as const) {
      const b = await startServer();
      try {
        const keyB = makeKey(b.dbPath, "titles");
        const imported = await api(b.url, keyB, "POST", "/api/links/import", body, { "content-type": type });
        expect(imported.body.data.failed).toEqual([]);
        for (const m of made) {
          const got = (await api(b.url, keyB, "GET", `/api/links/${m.custom_url}`)).body.data;
          expect({ type, id: got.id, title: got.title }).toEqual({ type, id: m.custom_url, title: m.title ?? null });
        }
      } finally {
        await b.dispose();
      }
    }
  }, 60_000);

  test("an imported row's title follows the create's rules: a title that is not text fails that row alone", async () => {
    const key = makeKey(a.dbPath, "title-rows", "create");
    const rows = [{ url: "https://example.com/tr1", custom_url: "title-row-one", title: "  A\n title " }, { url: "https://example.com/tr2", custom_url: "title-row-two", title: 42 }];
    const r = await api(a.url, key, "POST", "/api/links/import", rows);
    expect(r.body.data.created.map((c: { row: number }) => c.row)).toEqual([1]);
    expect(r.body.data.failed.map((f: { row: number; code: string }) => `${f.row}:${f.code}`)).toEqual(["2:title_invalid"]);
    expect((await api(a.url, key, "GET", "/api/links/title-row-one")).body.data.title).toBe("A title");
  });

  test("CSV injection: aliases and tags starting with - are written with a ' before them, and import takes it off (issue #21)", async () => {
    const key = makeKey(a.dbPath, "formulas", "create");
    const made = [
      { url: "https://example.com/?a==1", custom_url: "-minus-alias", tags: ["-neg", "ok"] },
      { url: "https://example.com/f2", custom_url: "plain-alias", tags: ["-late", "fine"] }, // tags are stored sorted: "-late" comes first
    ];
    for (const m of made) expect((await api(a.url, key, "POST", "/api/create", m)).status).toBe(201);
    const exported = (await api(a.url, key, "GET", "/api/links/export?format=csv")).body as string;
    // The raw text: every cell that starts with - has a ' before it; the URL (starting with h) does not.
    const lines = exported.split("\r\n");
    expect(lines).toContainEqual(expect.stringMatching(/^https:\/\/example\.com\/\?a==1,'-minus-alias,,,"'-neg,ok",false,/));
    expect(lines).toContainEqual(expect.stringMatching(/^https:\/\/example\.com\/f2,plain-alias,,,"'-late,fine",false,/));
    expect(exported).not.toMatch(/(^|[,\n])-/); // no cell starts with a bare -
    const before = (await api(a.url, key, "GET", "/api/links?order=asc")).body.data.links;
    for (const l of before) expect((await api(a.url, key, "DELETE", `/api/links/${l.id}`)).status).toBe(200);

    const b = await startServer();
    try {
      const keyB = makeKey(b.dbPath, "formulas");
      const imported = await api(b.url, keyB, "POST", "/api/links/import", exported, { "content-type": "text/csv" });
      expect(imported.body.data.failed).toEqual([]);
      expect(imported.body.data.created.map((c: { id: string }) => c.id).sort()).toEqual(["-minus-alias", "plain-alias"]);
      for (const m of made) {
        const got = (await api(b.url, keyB, "GET", `/api/links/${m.custom_url}`)).body.data;
        expect({ id: got.id, originalUrl: got.originalUrl, tags: got.tags }).toEqual({ id: m.custom_url, originalUrl: m.url, tags: m.tags });
      }
      expect((await fetch(`${b.url}/-minus-alias`, { redirect: "manual" })).headers.get("location")).toBe("https://example.com/?a==1");
    } finally {
      await b.dispose();
    }
  });
});
