// Helpers for the tests of `shortener copy` (test/integration/copy*.test.ts): a database with a bit
// of everything made through the real service (visits to no link too), what the service shows of it, and each table's
// rows read with the engines' own clients so that two databases can be compared row for row.

import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COPIED_TABLES } from "../../src/db/shared/copy-plan.ts";
import { api, cli, importedThroughApi, type CliResult } from "./admin.ts";
import { drained, visit, UA } from "./clicks.ts";
import { openStored } from "./stored.ts";
import { serverCommand, type Engine } from "./server.ts";

export const RULES = [{ conditions: [{ type: "device", value: "mobile" }], url: "https://mobile.example/" }];
export const VARIANTS = [{ url: "https://split-a.example/", weight: 3 }, { url: "https://split-b.example/", weight: 7 }];

/** Links of every kind, their clicks, a deleted link and an import, made through the service by these keys. */
export async function makeLinks(base: string, keys: { admin: string; maker: string; alice: string }): Promise<void> {
  const create = async (key: string, body: Record<string, unknown>) => {
    const r = await api(base, key, "POST", "/api/create", body);
    if (r.status !== 201) throw new Error(`create ${String(body.custom_url)}: ${r.status} ${JSON.stringify(r.body)}`);
  };
  await create(keys.admin, {
    url: "https://example.com/full", custom_url: "full", tags: ["launch", "q4"], rules: RULES, variants: VARIANTS, password: "open sesame 42",
    redirect_type: 307, valid_from: "2020-06-01T12:00:00Z", fallback_url: "https://fallback.example/", crawlable: true, expires_at: "2099-01-01", max_clicks: 1000,
  });
  // Two domains (#37): the first becomes the default, whose links are all of these.
  for (const name of ["s.example.org", "go.example.net"]) {
    const r = await api(base, keys.admin, "POST", "/api/domains", { name, notFoundRedirect: "https://example.com/lost" });
    if (r.status !== 201) throw new Error(`domain ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  await create(keys.admin, { url: "https://example.com/busy", custom_url: "busy", tags: ["launch"] });
  await create(keys.maker, { url: "https://example.com/mine", custom_url: "mine" });
  await create(keys.alice, { url: "https://example.com/alices", custom_url: "alices" });
  await create(keys.admin, { url: "https://example.com/limited", custom_url: "limited", max_clicks: 2 });
  await visit(base, "busy", [
    { ua: UA.chromeWindows, referrer: "https://news.ycombinator.com/item?id=1", query: "?utm_source=hn&utm_medium=social", ip: "203.0.113.7" },
    { ua: UA.chromeWindows, query: "?utm_source=hn&utm_medium=social", ip: "203.0.113.7" },
    { ua: UA.safariIphone, referrer: "https://t.co/x", ip: "198.51.100.4" },
    { ua: UA.firefoxLinux, query: "?utm_source=newsletter&utm_campaign=launch", ip: "192.0.2.55" },
    { ua: UA.googlebot, ip: "66.249.66.1" },
  ]);
  await visit(base, "mine", [{ ua: UA.firefoxLinux, ip: "192.0.2.9" }]);
  await visit(base, "limited", [{ ua: UA.chromeWindows, ip: "192.0.2.10" }, { ua: UA.chromeWindows, ip: "192.0.2.11" }]);
  const moved = await importedThroughApi(base, keys.admin, { from: "csv", csv: "url,custom_url\nhttps://example.com/imported,imported\n" });
  if (moved.job?.state !== "done") throw new Error(`import: ${JSON.stringify(moved.job)}`);
  // A share link (docs/statistics.md: Sharing statistics): it travels with the database.
  if ((await api(base, keys.admin, "POST", "/api/links/busy/shares", { label: "the board", expiresAt: "2099-01-01" })).status !== 201) throw new Error("share busy");
  // Visits to no link (docs/statistics.md: Visits to no link): raw rows and the day's counts travel too.
  for (const [path, ua] of [["/", UA.firefoxLinux], ["/no-such-link", UA.googlebot], ["/wp-admin/setup.php", UA.chromeWindows]] as const) {
    const res = await fetch(`${base}${path}`, { headers: { "User-Agent": ua }, redirect: "manual" });
    await res.arrayBuffer();
  }
  await create(keys.admin, { url: "https://example.com/gone", custom_url: "gone" });
  if ((await api(base, keys.admin, "DELETE", "/api/links/gone")).status !== 200) throw new Error("delete gone");
  await drained(base);
}

export const STATS_OF = ["full", "busy", "mine", "alices", "limited", "imported"];

/** What the service shows of everything: statistics, the list, the overview, visits to no link, webhooks and their log, a session's user. */
export async function serviceView(base: string, admin: string, webhookId: number, session: () => Promise<unknown>): Promise<Record<string, unknown>> {
  const data = async (path: string) => {
    const r = await api(base, admin, "GET", path);
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const view: Record<string, unknown> = {};
  for (const id of STATS_OF) view[`stats ${id}`] = await data(`/api/stats?id=${id}`);
  view.list = await data("/api/links?limit=100");
  view.overview = await data("/api/overview");
  view.orphans = await data("/api/orphan-visits");
  view.shares = await data("/api/links/busy/shares");
  view.webhooks = await data("/api/webhooks");
  view.deliveries = await data(`/api/webhooks/${webhookId}/deliveries`);
  view.session = await session();
  // Base URLs differ between the services (each its own port): compare what they lead to.
  return JSON.parse(JSON.stringify(view).replace(/http:\/\/127\.0\.0\.1:\d+\//g, "BASE/"));
}

type Location = { dbPath: string; engine: Engine };

/** Rows of each copied table, each as sorted JSON (blobs as hex; visitor keys one a row, as PostgreSQL keeps them). */
export async function tableContents(at: Location): Promise<Record<string, string[]>> {
  const stored = await openStored(at);
  const out: Record<string, string[]> = {};
  try {
    for (const { table } of COPIED_TABLES) {
      const rows = await stored.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
      out[table] = rows.flatMap((row) => (table === "visitors_seen" ? visitorKeys(row, at.engine) : [canonical(row)])).sort();
    }
  } finally {
    await stored.close();
  }
  return out;
}

function visitorKeys(row: Record<string, unknown>, engine: Engine): string[] {
  if (engine === "postgres") return [`${row.bucket} ${row.visitor}`];
  return [...new Float64Array(Uint8Array.from(row.visitors as Uint8Array).buffer)].map((key) => `${row.bucket} ${key}`);
}

function canonical(row: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(row).sort()) {
    // PostgreSQL's own column (docs/postgresql.md: Moving to PostgreSQL and back): left to its default.
    if (key === "answered_clicks") continue;
    const value = row[key];
    out[key] = value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value;
  }
  return JSON.stringify(out);
}

/** The counts a copy printed, by table, from its report's table. */
export function printedCounts(result: CliResult): Record<string, [number, number]> {
  const counts: Record<string, [number, number]> = {};
  for (const m of result.out.matchAll(/^(\w+)(?: \(keys\))?\s+([\d,]+)\s+([\d,]+)/gm)) counts[m[1]!] = [Number(m[2]!.replaceAll(",", "")), Number(m[3]!.replaceAll(",", ""))];
  return counts;
}

/** The copy both databases must agree on, row for row; and that the report printed those very counts. */
export async function expectSameTables(from: Location, to: Location, result: CliResult): Promise<Record<string, string[]>> {
  const [a, b] = [await tableContents(from), await tableContents(to)];
  for (const { table } of COPIED_TABLES) expect({ table, rows: b[table] }).toEqual({ table, rows: a[table]! });
  const printed = printedCounts(result);
  expect(Object.keys(printed).sort()).toEqual(COPIED_TABLES.map((t) => t.table).sort());
  for (const { table } of COPIED_TABLES) expect({ table, printed: printed[table] }).toEqual({ table, printed: [a[table]!.length, a[table]!.length] });
  return a;
}

/** `shortener copy` with the database password as the systemd credential (never on the command line). */
export function copy(args: string[], credentials: string | null, env: Record<string, string> = {}): CliResult {
  return cli(["copy", ...args], { ...env, ...(credentials === null ? {} : { CREDENTIALS_DIRECTORY: credentials }) });
}

/** `shortener copy` as a process of its own while this one goes on (clicking a running service). */
export async function copyAsync(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const cwd = mkdtempSync(join(tmpdir(), "shortener-cli-"));
  try {
    const proc = Bun.spawn([...serverCommand(), "copy", ...args], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, out, err };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
