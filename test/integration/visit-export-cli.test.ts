// `shortener export visits` (docs/statistics.md: Exporting visits) run as a process against a running
// service's database, on SQLite and (SHORTENER_TEST_ENGINE=postgres) PostgreSQL: the rows on stdout
// are exactly the API's for the same question, more than one chunk of them (12,000 planted visits);
// range, bots and format flags; --output into a new file and --after appending the rest of a broken
// one; and the usage errors, each a line on stderr and exit code 2.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, cli, makeKey } from "../support/admin.ts";
import { UA, visit } from "../support/clicks.ts";
import { seedVisits } from "../support/seed-visits.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { parseCsv } from "../../src/util/csv.ts";

setDefaultTimeout(120_000);

let s: RunningServer;
let admin: string;
let files: string;
const BIG = 12_000;
const START = Date.parse("2026-01-01T00:00:00.000Z");

beforeAll(async () => {
  s = await startServer({ args: ["--create-rate-limit", "0"] });
  admin = makeKey(s.dbPath, "admin");
  files = mkdtempSync(join(tmpdir(), "shortener-export-"));
  for (const [alias, tags] of [["cli-one", ["t"]], ["cli-two", []], ["cli-big", ["big"]]] as const) {
    expect((await api(s.url, admin, "POST", "/api/create", { url: `https://example.com/${alias}`, custom_url: alias, tags })).status).toBe(201);
  }
  await visit(s.url, "cli-one", [{ ua: UA.chromeWindows, referrer: "https://=sum.example/" }, { ua: UA.firefoxLinux, query: "?utm_source=news" }, { ua: UA.googlebot }]);
  await visit(s.url, "cli-two", [{ ua: UA.safariIphone }]);
  await seedVisits(s, "cli-big", BIG, START);
}, 120_000);
afterAll(async () => {
  await s?.dispose();
  if (files) rmSync(files, { recursive: true, force: true });
});

const exportCli = (...args: string[]) => cli(["export", "visits", "--db", s.dbPath, ...args]);
const fromApi = async (query: string) => {
  const r = await fetch(`${s.url}/api/visits/export?${query}`, { headers: { authorization: `Bearer ${admin}` } });
  expect(r.status).toBe(200);
  return await r.text();
};
const jsonl = (text: string) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

test("every visit as CSV on stdout: the API's rows exactly, over several chunks", async () => {
  const r = exportCli();
  expect([r.code, r.err]).toEqual([0, ""]);
  const rows = parseCsv(r.out);
  expect(rows).toHaveLength(1 + 3 + 1 + BIG);
  expect(rows[0]!.slice(0, 3)).toEqual(["visitId", "timestamp", "link"]);
  expect(r.out).toBe(await fromApi(""));
  // The formula in the referrer is written as text.
  expect(r.out).not.toMatch(/(^|,)[=+\-@]/m);
  const links = rows.slice(1).map((row) => row[2]);
  expect([links.filter((l) => l === "cli-one").length, links.filter((l) => l === "cli-two").length, links.filter((l) => l === "cli-big").length]).toEqual([3, 1, BIG]);
});

test("one link, a tag, JSON lines: the API's rows; bots and a range leave out exactly what they should", async () => {
  const one = exportCli("--link", "cli-one", "--format", "jsonl");
  expect(one.code).toBe(0);
  expect(one.out).toBe(await fromApi("id=cli-one&format=jsonl"));
  expect(jsonl(one.out).map((v) => [v.link, v.browser, v.isBot])).toEqual([["cli-one", "Chrome", false], ["cli-one", "Firefox", false], ["cli-one", expect.any(String), true]]);
  expect(jsonl(one.out)[1]!.utmSource).toBe("news");
  const tagged = exportCli("--tag", "t", "--format", "jsonl");
  expect(tagged.out).toBe(one.out);

  const humans = jsonl(exportCli("--link", "cli-big", "--format", "jsonl", "--bots", "exclude", "--from", "2026-01-01T01:00:00Z", "--to", "2026-01-01").out);
  const expected = Array.from({ length: BIG }, (_, i) => i).filter((i) => i % 7 !== 0 && START + i * 1000 >= START + 3_600_000);
  expect(humans.map((v) => v.timestamp)).toEqual(expected.map((i) => new Date(START + i * 1000).toISOString()));
  expect(jsonl(exportCli("--link", "cli-big", "--format", "jsonl", "--to", "2025-12-31").out)).toEqual([]);
});

test("--output writes a new file; --after appends the rest of a broken one, no row twice or missing", async () => {
  const whole = join(files, "whole.jsonl");
  const written = exportCli("--link", "cli-big", "--format", "jsonl", "--output", whole);
  expect([written.code, written.out, written.err]).toEqual([0, "", expect.stringContaining(`exported the visits to ${whole}`)]);
  const lines = readFileSync(whole, "utf8").split("\n").filter(Boolean);
  expect(lines).toHaveLength(BIG);
  const broken = join(files, "broken.jsonl");
  writeFileSync(broken, lines.slice(0, 5_000).join("\n") + "\n");
  const last = (JSON.parse(lines[4_999]!) as { visitId: string }).visitId;
  expect(exportCli("--link", "cli-big", "--format", "jsonl", "--output", broken, "--after", last).code).toBe(0);
  expect(readFileSync(broken, "utf8")).toBe(readFileSync(whole, "utf8"));
  // A new export never overwrites a file.
  const again = exportCli("--link", "cli-big", "--output", whole);
  expect([again.code, again.err]).toEqual([2, expect.stringContaining("never overwrites")]);
  expect(readFileSync(whole, "utf8").split("\n").filter(Boolean)).toHaveLength(BIG);
});

test("usage errors: a line naming what is wrong, exit 2; an unknown link or domain: exit 1", () => {
  const refusals: [string[], string][] = [
    [["--format", "xml"], "--format must be csv or jsonl"],
    [["--bots", "maybe"], "--bots must be exclude or include"],
    [["--from", "yesterday"], "--from must be a date"],
    [["--from", "2026-02-02", "--to", "2026-02-01"], "--from must be before to"],
    [["--after", "x"], "--after must be a row's visitId"],
    [["--link", "cli-one", "--tag", "t"], "--link and --tag contradict each other"],
    [["--scope", "admin"], "--scope belongs to the key command"],
    [["--output"], "--output needs a value"],
  ];
  for (const [args, said] of refusals) {
    const r = exportCli(...args);
    expect([args, r.code, r.out]).toEqual([args, 2, ""]);
    expect(r.err).toContain(said);
  }
  const what = cli(["export", "links", "--db", s.dbPath]);
  expect([what.code, what.err]).toEqual([2, expect.stringContaining("unknown export links")]);
  const unknown = exportCli("--link", "nope");
  expect([unknown.code, unknown.out]).toEqual([1, ""]);
  expect(unknown.err).toContain("nope");
  expect(exportCli("--domain", "nowhere.example").code).toBe(1);
});
