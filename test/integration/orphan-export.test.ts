// The export of visits to no link against a real server, on SQLite and (SHORTENER_TEST_ENGINE=postgres)
// PostgreSQL (docs/statistics.md: Visits to no link): GET /api/orphan-visits/export for admins only
// (401 without credentials, 403 admin_only for a create key, in the API's error format), CSV with
// its own columns and a hostile path written as text, JSON lines resumed after a row, a type;
// `shortener export visits --orphans` writes the API's rows and is refused beside a link's scope.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, cli, makeKey } from "../support/admin.ts";
import { drained, UA } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { parseCsv } from "../../src/util/csv.ts";
import { ORPHAN_EXPORT_FIELDS } from "../../src/stats/visit-export-format.ts";

setDefaultTimeout(60_000);

let s: RunningServer;
let admin: string;
let creator: string;
const HOSTILE = `/=HYPERLINK("http://evil.test","x")`;

async function hit(path: string, ua: string = UA.firefoxLinux): Promise<void> {
  await (await fetch(`${s.url}${path}`, { redirect: "manual", headers: { "User-Agent": ua } })).arrayBuffer();
}

async function exported(query: string, key: string | null = admin): Promise<Response> {
  return await fetch(`${s.url}/api/orphan-visits/export${query}`, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
}

const jsonl = (text: string) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  s = await startServer({});
  admin = makeKey(s.dbPath, "admin");
  creator = makeKey(s.dbPath, "creator", "create");
  await hit("/");
  await hit("/no-such-link?token=secret");
  await hit("/no-such-link", UA.googlebot);
  await hit(HOSTILE);
  await drained(s.url);
}, 60_000);
afterAll(async () => {
  await s?.dispose();
});

test("admins only: 401 without credentials, 403 admin_only for a create key, in the API's error format", async () => {
  const none = await exported("", null);
  expect(none.status).toBe(401);
  expect(await none.json()).toMatchObject({ success: false, code: "auth_required" });
  const own = await exported("", creator);
  expect(own.status).toBe(403);
  expect(await own.json()).toMatchObject({ success: false, code: "admin_only" });
  const badType = await api(s.url, admin, "GET", "/api/orphan-visits/export?type=nope");
  expect([badType.status, badType.body.code, badType.body.field]).toEqual([400, "bad_request", "type"]);
  expect((await api(s.url, admin, "GET", "/api/orphan-visits/export?after=x")).body.field).toBe("after");
});

test("CSV: the orphans' columns, each visit once in the order stored, a hostile path written as text", async () => {
  const r = await exported("");
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(r.headers.get("content-disposition")).toMatch(/^attachment; filename="orphan-visits-\d{4}-\d{2}-\d{2}\.csv"$/);
  const raw = await r.text();
  const rows = parseCsv(raw);
  expect(rows[0]).toEqual([...ORPHAN_EXPORT_FIELDS]);
  // The path as the server kept it: no query, the quotes as the request line carried them.
  const hostile = encodeURI(HOSTILE);
  expect(rows.slice(1).map((row) => [row[2], row[3], row[9]])).toEqual([
    ["base_url", "/", "false"],
    ["invalid_short_url", "/no-such-link", "false"],
    ["invalid_short_url", "/no-such-link", "true"],
    ["regular_404", hostile, "false"],
  ]);
  expect(raw).not.toContain("secret");
  expect(raw).not.toMatch(/(^|,)"?[=+@-]/m);
  const humans = parseCsv(await (await exported("?bots=exclude&type=invalid_short_url")).text());
  expect(humans.slice(1).map((row) => row[9])).toEqual(["false"]);
});

test("JSON lines resumed after a row: the rest, no gap, no duplicate", async () => {
  const whole = jsonl(await (await exported("?format=jsonl")).text());
  expect(whole).toHaveLength(4);
  const rest = await exported(`?format=jsonl&after=${whole[1]!.visitId}`);
  expect(rest.headers.get("content-type")).toBe("application/jsonl; charset=utf-8");
  expect([...whole.slice(0, 2), ...jsonl(await rest.text())]).toEqual(whole);
});

test("shortener export visits --orphans: the API's rows; not beside --link, --tag or --domain", async () => {
  const r = cli(["export", "visits", "--orphans", "--db", s.dbPath]);
  expect([r.code, r.err]).toEqual([0, ""]);
  expect(r.out).toBe(await (await exported("")).text());
  const jl = cli(["export", "visits", "--orphans", "--format", "jsonl", "--bots", "exclude", "--db", s.dbPath]);
  expect(jsonl(jl.out).map((row) => row.isBot)).toEqual([false, false, false]);
  for (const flag of ["--link", "--tag", "--domain"]) {
    const refused = cli(["export", "visits", "--orphans", flag, "x", "--db", s.dbPath]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`--orphans and ${flag} contradict each other`);
  }
});
