// GET /api/visits/export against a real server (docs/statistics.md: Exporting visits): who may ask
// (no credential 401, another owner's link not found, another owner's visits never in "everything"),
// the refusals of bad parameters, CSV and JSON lines, and a download broken over HTTP and resumed.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { visit } from "../support/clicks.ts";
import { parseCsv } from "../../src/util/csv.ts";

let s: RunningServer;
let owner: string;
let other: string;
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36";

beforeAll(async () => {
  s = await startServer({ args: ["--create-rate-limit", "0"] });
  owner = makeKey(s.dbPath, "owner", "create");
  other = makeKey(s.dbPath, "other", "create");
  expect((await api(s.url, owner, "POST", "/api/create", { url: "https://example.com/x", custom_url: "ex-one", tags: ["t"] })).status).toBe(201);
  expect((await api(s.url, other, "POST", "/api/create", { url: "https://example.com/y", custom_url: "ex-other" })).status).toBe(201);
  await visit(s.url, "ex-one", Array.from({ length: 6 }, (_, i) => ({ ua: UA, referrer: i === 0 ? "https://=evil.example/" : undefined, query: i === 1 ? "?utm_source=-2%2B3" : "" })));
  await visit(s.url, "ex-other", [{ ua: UA }]);
});
afterAll(() => s.dispose());

const get = (path: string, key: string | null) => fetch(`${s.url}${path}`, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
const jsonl = (text: string) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

test("who may: no credential 401; another owner's link 404; everything is the caller's own", async () => {
  expect((await get("/api/visits/export", null)).status).toBe(401);
  const foreign = await get("/api/visits/export?id=ex-other", owner);
  expect(foreign.status).toBe(404);
  expect(((await foreign.json()) as { code: string }).code).toBe("not_found");
  const mine = jsonl(await (await get("/api/visits/export?format=jsonl", owner)).text());
  expect(mine.map((r) => r.link)).toEqual(Array(6).fill("ex-one"));
  // A tag only on another owner's links is no tag of the caller's.
  expect((await get("/api/visits/export?format=jsonl&tag=t", other)).status).toBe(404);
});

test("bad parameters are the client's: 400 naming the parameter", async () => {
  for (const [query, field] of [["format=xml", "format"], ["from=yesterday", "from"], ["to=2026-13-01", "to"], ["from=2026-02-02&to=2026-02-01", "from"], ["after=x", "after"], ["bots=maybe", "bots"], ["tag=no%20tag", "tag"]]) {
    const r = await get(`/api/visits/export?${query}`, owner);
    expect([query, r.status]).toEqual([query, 400]);
    expect(((await r.json()) as { field: string }).field).toBe(field!);
  }
});

test("CSV: the header, one record a visit, formula cells as text; a range that holds nothing", async () => {
  const r = await get("/api/visits/export?id=ex-one", owner);
  expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(r.headers.get("content-disposition")).toMatch(/^attachment; filename="visits-\d{4}-\d{2}-\d{2}\.csv"$/);
  const text = await r.text();
  const rows = parseCsv(text);
  expect(rows[0]![0]).toBe("visitId");
  expect(rows).toHaveLength(7);
  expect(text).toContain(",'-2+3,");
  expect(text).not.toMatch(/(^|,)[=+\-@]/m);
  expect(parseCsv(await (await get("/api/visits/export?id=ex-one&to=2000-01-01", owner)).text())).toHaveLength(1);
});

test("a download broken after its second row and resumed with after: every row once", async () => {
  const whole = jsonl(await (await get("/api/visits/export?format=jsonl&id=ex-one", owner)).text());
  const kept = whole.slice(0, 2);
  const rest = jsonl(await (await get(`/api/visits/export?format=jsonl&id=ex-one&after=${kept[1]!.visitId}`, owner)).text());
  expect([...kept, ...rest]).toEqual(whole);
  const csvRest = parseCsv(await (await get(`/api/visits/export?id=ex-one&after=${kept[1]!.visitId}`, owner)).text());
  expect(csvRest.map((r) => r[0])).toEqual(rest.map((r) => String(r.visitId)));
  expect(s.output()).toContain('action=visits-export id=ex-one result="done 4"');
});
