// `shortener import --from yourls` against a real MariaDB (Debian's mariadb-server, started by the
// test as nobody) holding YOURLS's own schema (includes/functions-install.php) and generated rows,
// read by a user that may only SELECT: the importer never writes to its source. Runs on the engine
// SHORTENER_TEST_ENGINE names (SQLite, then PostgreSQL in the README's test command).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startMariaDb, type RunningMariaDb } from "../support/mariadb.ts";
import { createYourlsTables, expectedFromSource, extraLinks, fillYourls } from "../support/yourls.ts";
import { serverCommand, startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { drained, UA, visit } from "../support/clicks.ts";

let maria: RunningMariaDb;
let source: string; // the read-only user's mysql:// URL
const LIVE_SAME = [
  { ua: UA.chromeWindows, referrer: "https://news.ycombinator.com/item?id=1" },
  { ua: UA.safariIphone, referrer: "https://t.co/abc" },
  { ua: UA.googlebot },
  { ua: UA.firefoxLinux, referrer: "https://www.reddit.com/r/selfhosted" },
];

beforeAll(async () => {
  maria = await startMariaDb();
  await maria.createDatabase("yourls");
  const root = maria.sql("yourls");
  await createYourlsTables(root);
  // Codes that test the rules: twins by case (both kept), one and two characters (kept: imported
  // codes may be shorter than aliases made here), a dot, a reserved word, one too long, one taken here.
  await extraLinks(root, "yourls_", [
    { keyword: "ABC", url: "https://example.com/upper" },
    { keyword: "abc", url: "https://example.com/lower" },
    { keyword: "x", url: "https://example.com/one" },
    { keyword: "a.b", url: "https://example.com/dot" },
    { keyword: "api", url: "https://example.com/reserved" },
    { keyword: "k".repeat(70), url: "https://example.com/long" },
    { keyword: "taken1", url: "https://example.com/theirs" },
    { keyword: "same", url: "https://example.com/same", clicks: 4 },
    // Titles: one with a line break (written by a plugin or by hand: YOURLS itself collapses them),
    // and the URL itself, which YOURLS stores when it found no title (yourls_get_remote_title).
    { keyword: "titled", url: "https://example.com/titled", title: "Café & Crème\n– Menü" },
    { keyword: "untitled", url: "https://example.com/untitled", title: "https://example.com/untitled" },
  ]);
  await fillYourls(root, { links: 300, visits: 80_000, orphans: 40, clicksDiffer: 3 });
  // "same": the clicks LIVE_SAME makes live, as YOURLS logs them (now, UTC wall clock; no country).
  const now = new Date().toISOString().slice(0, 19).replace("T", " ");
  for (const v of LIVE_SAME) {
    await root.unsafe("INSERT INTO yourls_log (click_time, shorturl, referrer, user_agent, ip_address, country_code) VALUES (?, 'same', ?, ?, '192.0.2.9', '')", [now, v.referrer ?? "direct", v.ua]);
  }
  await root.close();
  await maria.createReadOnlyUser("yourls", "reader", "s3cret");
  source = maria.url("yourls", { name: "reader", password: "s3cret" });
}, 120_000);

afterAll(async () => {
  await maria?.stop();
});

/** The titles YOURLS keeps, by keyword, as a link here shows them. */
async function sourceTitles(): Promise<Map<string, string | null>> {
  const root = maria.sql("yourls");
  const rows = (await root.unsafe("SELECT keyword, url, title FROM yourls_url")) as { keyword: string; url: string; title: string | null }[];
  await root.close();
  return new Map(rows.map((r) => [r.keyword, r.title === null || r.title === "" || r.title === r.url ? null : r.title.replace(/\s+/g, " ").trim()]));
}

function importer(db: string, ...args: string[]) {
  const proc = Bun.spawnSync([...serverCommand(), "import", "--from", "yourls", "--source-db", source, "--db", db, ...args], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

/** Every link's totals and title, by id, through the API (the same on both engines). */
async function totals(s: RunningServer, key: string): Promise<Map<string, { url: string; total: number; humans: number; title: string | null }>> {
  const r = await api(s.url, key, "GET", "/api/links/export?format=json");
  expect(r.status).toBe(200);
  return new Map((r.body as any[]).map((l) => [l.custom_url, { url: l.url, total: l.total_clicks, humans: l.human_clicks, title: l.title }]));
}

describe("import from YOURLS", () => {
  let s: RunningServer;
  let key: string;
  beforeAll(async () => {
    s = await startServer({ args: ["--base-url", "http://127.0.0.1:1"] });
    key = makeKey(s.dbPath, "admin");
    const made = await api(s.url, key, "POST", "/api/create", { url: "https://example.com/ours", custom_url: "taken1" });
    expect(made.status).toBe(201);
  });
  afterAll(async () => {
    await s?.dispose();
  });

  test("by default a code that cannot be kept stops the import before anything is written, and each is named", async () => {
    const r = importer(s.dbPath, "--visits");
    expect(r.code).toBe(1);
    expect(r.out).toContain("Problems (nothing was written) (4):");
    for (const code of ["a.b:", "api:", `${"k".repeat(70)}:`, "taken1: the code is taken"]) expect(r.out).toContain(code);
    expect([...(await totals(s, key)).keys()]).toEqual(["taken1"]);
  });

  test("a dry run says what would happen and writes nothing", async () => {
    const r = importer(s.dbPath, "--visits", "--dry-run", "--on-conflict", "skip");
    expect(r.code).toBe(0);
    expect(r.out).toContain("Dry run: nothing was written.");
    expect(r.out).toMatch(/\d+ would be created/);
    expect(r.out).toMatch(/[\d,]+ visits would be imported/);
    expect([...(await totals(s, key)).keys()]).toEqual(["taken1"]);
  });

  test("skip: every other link under its exact code with every click of its log; a second run changes nothing", async () => {
    const r = importer(s.dbPath, "--visits", "--on-conflict", "skip");
    expect(r.err).toContain("visits:");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/"(ABC|abc)" and "(abc|ABC)" differ only by case/);
    expect(r.out).toContain("Skipped (4):");
    const root = maria.sql("yourls");
    const expected = await expectedFromSource(root);
    await root.close();
    const here = await totals(s, key);
    const skipped = new Set(["a.b", "api", "k".repeat(70), "taken1"]);
    let compared = 0;
    for (const [keyword, counts] of expected.links) {
      if (skipped.has(keyword)) continue;
      // The log's rows, not YOURLS's counter (which can disagree: clicksDiffer).
      expect({ keyword, total: here.get(keyword)?.total }).toEqual({ keyword, total: counts.visits });
      compared++;
    }
    expect(compared).toBe(expected.links.size - 4);
    expect(here.get("taken1")!.url).toBe("https://example.com/ours");
    // Every link's title as YOURLS keeps it (none for NULL, empty, or the URL YOURLS put in its place).
    const titles = await sourceTitles();
    for (const [keyword, title] of titles) {
      if (skipped.has(keyword)) continue;
      expect({ keyword, title: here.get(keyword)?.title }).toEqual({ keyword, title });
    }
    expect(here.get("titled")!.title).toBe("Café & Crème – Menü");
    expect(here.get("untitled")!.title).toBeNull();
    expect([...titles.values()].filter((t) => t !== null).length).toBeGreaterThan(200);
    expect(r.out).not.toContain("title");
    for (const [code, url] of [["ABC", "upper"], ["abc", "lower"], ["x", "one"]]) {
      const res = await fetch(`${s.url}/${code}`, { redirect: "manual" });
      expect({ code, location: res.headers.get("location") }).toEqual({ code, location: `https://example.com/${url}` });
    }

    await drained(s.url); // those redirects were clicks too
    const before = await totals(s, key);
    const again = importer(s.dbPath, "--visits", "--on-conflict", "skip");
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/ 0 created, [\d,]+ imported before/);
    expect(again.out).toContain("0 visits imported");
    expect(await totals(s, key)).toEqual(before);

    // YOURLS goes on counting: the next run brings only the clicks logged since.
    const root2 = maria.sql("yourls");
    await root2.unsafe("INSERT INTO yourls_log (click_time, shorturl, referrer, user_agent, ip_address, country_code) VALUES (UTC_TIMESTAMP(), 'x', 'direct', '-', '192.0.2.1', 'FR')");
    await root2.close();
    const later = importer(s.dbPath, "--visits", "--on-conflict", "skip");
    expect(later.out).toContain("1 visits imported");
    expect((await totals(s, key)).get("x")!.total).toBe(before.get("x")!.total + 1);
  }, 60_000);

  test("rename: the codes skipped before come in under new ids, listed old and new, with their visits", async () => {
    const r = importer(s.dbPath, "--visits", "--on-conflict", "rename");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/ 4 created, [\d,]+ imported before, 0 skipped, 4 renamed/);
    const renamed = new Map([...r.out.matchAll(/^  (\S+) -> (\S+): /gm)].map((m) => [m[1]!, m[2]!]));
    expect([...renamed.keys()].sort()).toEqual(["a.b", "api", "k".repeat(70), "taken1"].sort());
    const root = maria.sql("yourls");
    const expected = await expectedFromSource(root);
    await root.close();
    const here = await totals(s, key);
    for (const [code, id] of renamed) {
      expect({ code, id, total: here.get(id)?.total }).toEqual({ code, id, total: expected.links.get(code)!.visits });
    }
    expect(here.get("taken1")!.url).toBe("https://example.com/ours");
  }, 60_000);

  test("imported visits give the same statistics as the same visits recorded live, but count no unique visitors", async () => {
    await api(s.url, key, "POST", "/api/create", { url: "https://example.com/same", custom_url: "live-same" });
    await visit(s.url, "live-same", LIVE_SAME);
    const read = async (id: string) => (await api(s.url, key, "GET", `/api/stats?id=${id}`)).body.data.stats;
    const [imported, live] = [await read("same"), await read("live-same")];
    expect(imported.totalClicks).toBe(LIVE_SAME.length);
    const comparable = (st: any) => {
      // `previous` is left out: the imported link's YOURLS history runs back before its range, into
      // the period before it, which the live link (made today) cannot have.
      const { uniqueVisitors, visitsByDate, visitsByHour, recentVisits, previous, ...rest } = st;
      return {
        ...rest,
        // The imported link is older (its YOURLS creation date): its range of days starts earlier.
        visitsByDate: visitsByDate.filter((d: any) => d.count > 0).map((d: any) => ({ date: d.date, count: d.count })),
        // YOURLS keeps seconds: visits of the same second come in either order.
        recentVisits: recentVisits.map(({ timestamp, ...v }: any) => JSON.stringify(v)).sort(),
      };
    };
    expect(comparable(imported)).toEqual(comparable(live));
    expect(live.uniqueVisitors).toBeGreaterThan(0);
    expect(imported.uniqueVisitors).toBeNull(); // not known: "—" on the stats page
  });

  test("refusals: a wrong password, a server that does not answer, another prefix", async () => {
    const wrong = new URL(source);
    wrong.password = "nope";
    let r = Bun.spawnSync([...serverCommand(), "import", "--from", "yourls", "--source-db", wrong.toString(), "--db", s.dbPath], { stdout: "pipe", stderr: "pipe" });
    expect(r.exitCode).toBe(1);
    expect(r.stdout.toString()).toMatch(/Stopped: the YOURLS database mysql:\/\/reader:\*\*\*@.* (refused|failed)/);
    expect(r.stdout.toString() + r.stderr.toString()).not.toContain("nope");
    r = Bun.spawnSync([...serverCommand(), "import", "--from", "yourls", "--source-db", "mysql://reader:x@127.0.0.1:1/yourls", "--db", s.dbPath], { stdout: "pipe", stderr: "pipe" });
    expect(r.exitCode).toBe(1);
    expect(r.stdout.toString()).toContain("cannot be reached");
    const other = importer(s.dbPath, "--prefix", "wp_");
    expect(other.code).toBe(1);
    expect(other.out).toContain("is not a YOURLS database this importer knows");
    expect(other.out).toContain("missing wp_url.keyword");
    const usage = importer(s.dbPath, "--on-conflict", "maybe");
    expect(usage.code).toBe(2);
    // A password with a # in it, not percent-encoded: a clear refusal that does not quote it.
    r = Bun.spawnSync([...serverCommand(), "import", "--from", "yourls", "--source-db", "mysql://reader:se#cret@127.0.0.1/yourls", "--db", s.dbPath], { stdout: "pipe", stderr: "pipe" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.toString()).toContain("--source-db is not a URL this importer can read");
    expect(r.stdout.toString() + r.stderr.toString()).not.toContain("se#cret");
  });
});

describe("an import killed half-way", () => {
  test("runs again to the end, with no visit twice, while the service goes on answering clicks", async () => {
    const s = await startServer();
    try {
      const key = makeKey(s.dbPath, "admin");
      expect((await api(s.url, key, "POST", "/api/create", { url: "https://example.com/busy", custom_url: "busy-link" })).status).toBe(201);
      const args = [...serverCommand(), "import", "--from", "yourls", "--source-db", source, "--db", s.dbPath, "--visits", "--on-conflict", "skip"];
      const first = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
      // Killed once its visits have begun to land (the bar says so on stderr), with clicks going on.
      const clicks = Promise.all(Array.from({ length: 20 }, () => fetch(`${s.url}/busy-link`, { redirect: "manual" }).then((r) => r.status)));
      const reader = first.stderr.getReader();
      let said = "";
      while (!/visits: .*[1-9]/.test(said)) {
        const chunk = await reader.read();
        if (chunk.done) break;
        said += new TextDecoder().decode(chunk.value);
      }
      first.kill(9);
      await first.exited;
      const answered = await clicks;
      expect(answered.every((status) => status === 302)).toBe(true);
      const mid = await totals(s, key);
      const second = Bun.spawnSync(args, { stdout: "pipe", stderr: "pipe" });
      expect(second.exitCode).toBe(0);
      const root = maria.sql("yourls");
      const expected = await expectedFromSource(root);
      await root.close();
      const here = await totals(s, key);
      let sum = 0;
      for (const [keyword, counts] of expected.links) {
        const got = here.get(keyword);
        if (got === undefined) continue; // skipped codes
        expect({ keyword, total: got.total }).toEqual({ keyword, total: counts.visits });
        sum += got.total;
      }
      // The kill landed half-way: the first run had written some visits and not all.
      const before = [...mid.values()].reduce((n, l) => n + l.total, 0);
      expect(before).toBeLessThan(sum);
      expect(here.get("busy-link")!.total).toBe(20);
    } finally {
      await s.dispose();
    }
  }, 120_000);
});
