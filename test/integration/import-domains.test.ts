// Imports keep the source's domains (docs/importing.md: Domains): `shortener import` and the
// dashboard's import against local servers that answer as Shlink's, Kutt's and Bitly's documented
// APIs do (test/support/peers/*.ts cite them), and CSV files with a domain column; what landed is
// read from the database as an operator would (test/support/stored.ts), on SQLite and PostgreSQL.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverCommand, startServer, type RunningServer } from "../support/server.ts";
import { api, importedThroughApi, makeKey } from "../support/admin.ts";
import { openStored } from "../support/stored.ts";
import { shlinkShortUrl, shlinkVisit, shlinkVisitsKey, startShlink } from "../support/peers/shlink.ts";
import { kuttLink, startKutt } from "../support/peers/kutt.ts";
import { bitlink, bitlyGroup, startBitly } from "../support/peers/bitly.ts";
import type { Peer } from "../support/peers/fault.ts";

let s: RunningServer;
let key: string;
let files: string;
const BASE = ["--base-url", "https://s.test"];

beforeAll(async () => {
  // The peers answer on loopback addresses: the dashboard's import reaches them only with the flag.
  s = await startServer({ args: ["--import-allow-private", ...BASE] });
  key = makeKey(s.dbPath, "admin");
  files = mkdtempSync(join(tmpdir(), "shortener-import-domains-"));
}, 60_000);
afterAll(async () => {
  await s?.dispose();
  rmSync(files, { recursive: true, force: true });
});

// Not spawnSync: the peers answer from this process, which must go on running meanwhile.
async function importer(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([...serverCommand(), "import", "--db", s.dbPath, ...args], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

function file(name: string, text: string): string {
  const path = join(files, name);
  writeFileSync(path, text);
  return path;
}

/** The links stored under these aliases, as [domain, alias, destination, clicks], and the domains kept. */
async function stored(aliases: string[]): Promise<{ links: [string, string, string, number][]; domains: string[] }> {
  const db = await openStored(s);
  try {
    const marks = aliases.map(() => "?").join(", ");
    const links = aliases.length === 0 ? [] : await db.all<{ domain: string; id: string; url: string; total_clicks: number }>(`SELECT domain, id, url, total_clicks FROM links WHERE id IN (${marks}) ORDER BY domain, id`, ...aliases);
    const domains = await db.all<{ name: string }>("SELECT name FROM domains ORDER BY name");
    return { links: links.map((l) => [l.domain, l.id, l.url, l.total_clicks]), domains: domains.map((d) => d.name) };
  } finally {
    await db.close();
  }
}

describe("Shlink: short URLs on two domains with the same code", () => {
  let shlink: Peer;
  const visits = (n: number) => Array.from({ length: n }, (_, i) => shlinkVisit({ date: `2025-06-0${1 + i}T12:00:00+00:00` }));
  beforeAll(async () => {
    shlink = await startShlink({
      apiKey: "shlink-key",
      shortUrls: [
        shlinkShortUrl({ shortCode: "sh-same", longUrl: "https://example.com/default", visitsSummary: { total: 3, nonBots: 3, bots: 0 } }),
        shlinkShortUrl({ shortCode: "sh-same", domain: "go.example.org", longUrl: "https://example.com/go", visitsSummary: { total: 2, nonBots: 2, bots: 0 } }),
        shlinkShortUrl({ shortCode: "sh-go", domain: "Go.Example.org", longUrl: "https://example.com/go-only" }),
      ],
      visits: new Map([[shlinkVisitsKey("sh-same"), visits(3)], [shlinkVisitsKey("sh-same", "go.example.org"), visits(2)]]),
    });
  });
  afterAll(async () => {
    await shlink?.close();
  });
  const shlinkArgs = () => ["--from", "shlink", "--url", shlink.url, "--api-key-file", file("shlink-key", "shlink-key\n")];

  test("a default without a name takes no other domain: each such link is a problem that says what to do, and nothing is written", async () => {
    const r = await importer(...shlinkArgs());
    expect(r.code).toBe(1);
    expect(r.out).toContain("Problems (nothing was written) (2):");
    expect(r.out).toContain("its domain go.example.org is not here, and cannot be added while this instance's default domain has no name: set --base-url");
    expect(await stored(["sh-same", "sh-go"])).toEqual({ links: [], domains: [] });
  }, 60_000);

  test("a dry run says which domain it would add and adds none; the import keeps both links, each with its own visits, and adds the domain once", async () => {
    const dry = await importer(...shlinkArgs(), ...BASE, "--dry-run", "--visits");
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("Domains that would be added (1):\n  go.example.org\n");
    expect(await stored(["sh-same", "sh-go"])).toEqual({ links: [], domains: [] });

    const r = await importer(...shlinkArgs(), ...BASE, "--visits");
    expect(r.code).toBe(0);
    expect(r.out).toContain("3 links read; 3 created");
    expect(r.out).toContain("Domains added (1):\n  go.example.org\n");
    expect(r.out).toContain("5 visits imported");
    expect(r.out).not.toContain("domain of");
    expect(await stored(["sh-same", "sh-go"])).toEqual({
      links: [["", "sh-same", "https://example.com/default", 3], ["go.example.org", "sh-go", "https://example.com/go-only", 0], ["go.example.org", "sh-same", "https://example.com/go", 2]],
      domains: ["go.example.org"],
    });
    const again = await importer(...shlinkArgs(), ...BASE, "--visits");
    expect(again.out).toContain("0 created, 3 imported before");
    expect(again.out).not.toContain("Domains added");
    expect((await stored(["sh-same"])).links.map((l) => l[3])).toEqual([3, 2]);
  }, 60_000);
});

describe("a CSV's domain column, --domain-map, and clashes under each --on-conflict", () => {
  // go.example.org/sh-go is here (the Shlink import above): a code taken on that domain only.
  const csv = (p: string) =>
    file(`${p}.csv`, `url,custom_url,domain\nhttps://example.com/${p}/1,${p}-one,\nhttps://example.com/${p}/2,${p}-one,old.example\nhttps://example.com/${p}/3,sh-go,go.example.org\nhttps://example.com/${p}/4,sh-go,\n`);

  test("fail: the clash of two source domains mapped onto one, and the code taken on that domain, are listed by domain; nothing is written", async () => {
    const r = await importer("--from", "csv", "--file", csv("cf"), "--domain-map", "old.example=default", ...BASE);
    expect(r.code).toBe(1);
    expect(r.out).toContain("s.test/cf-one (old.example/cf-one at the source): another link of the source lands on the same code of the same domain here");
    expect(r.out).toContain("go.example.org/sh-go: the code is taken by a link here");
    expect((await stored(["cf-one"])).links).toEqual([]);
  }, 60_000);

  test("skip leaves the clashes out; rename gives them new ids on their domain; a map onto a domain that is not here refuses the import", async () => {
    const skipped = await importer("--from", "csv", "--file", csv("cs"), "--domain-map", "old.example=s.test", "--on-conflict", "skip", ...BASE);
    expect(skipped.code).toBe(0);
    expect(skipped.out).toContain("Skipped (2):");
    expect(skipped.out).toContain("  go.example.org/sh-go: the code is taken by a link here");
    expect((await stored(["cs-one"])).links).toEqual([["", "cs-one", "https://example.com/cs/1", 0]]);

    const renamed = await importer("--from", "csv", "--file", csv("cr"), "--domain-map", "old.example=default", "--on-conflict", "rename", ...BASE);
    expect(renamed.code).toBe(0);
    expect(renamed.out).toMatch(/s\.test\/cr-one \(old\.example\/cr-one at the source\) -> \w+: another link of the source/);
    expect(renamed.out).toMatch(/go\.example\.org\/sh-go -> go\.example\.org\/\w+: the code is taken by a link here/);
    const db = await openStored(s);
    const moved = await db.all<{ domain: string; url: string }>("SELECT domain, url FROM links WHERE url LIKE 'https://example.com/cr/%' ORDER BY url");
    await db.close();
    expect(moved).toEqual([{ domain: "", url: "https://example.com/cr/1" }, { domain: "", url: "https://example.com/cr/2" }, { domain: "go.example.org", url: "https://example.com/cr/3" }, { domain: "", url: "https://example.com/cr/4" }]);

    const typo = await importer("--from", "csv", "--file", csv("ct"), "--domain-map", "old.example=typo.example", ...BASE);
    expect(typo.code).toBe(1);
    expect(typo.out).toContain("--domain-map old.example=typo.example: typo.example is not a domain here");
    expect((await stored(["ct-one"])).links).toEqual([]);
    const bad = await importer("--from", "csv", "--file", csv("cb"), "--domain-map", "old.example");
    expect([bad.code, bad.err]).toEqual([2, expect.stringContaining('--domain-map: "old.example" is not OLD=NEW')]);
  }, 60_000);
});

describe("Kutt and Bitly: custom domains", () => {
  let kutt: Peer;
  let bitly: Peer;
  beforeAll(async () => {
    kutt = await startKutt({ apiKey: "kutt-key", links: [kuttLink({ address: "kt-dom", target: "https://example.com/kutt-default" }), kuttLink({ address: "kt-dom", domain: "k.example", target: "https://example.com/kutt-custom" })] });
    bitly = await startBitly({
      token: "bitly-token",
      groups: [bitlyGroup({ guid: "Bg1" })],
      bitlinks: new Map([["Bg1", [
        bitlink({ id: "brand.example/bt9Hash", long_url: "https://example.com/brand", custom_bitlinks: ["https://brand.example/bt-launch", "https://bit.ly/bt-launch"] }),
        bitlink({ id: "bit.ly/btPlain", long_url: "https://example.com/plain" }),
      ]]]),
    });
  });
  afterAll(async () => {
    await kutt?.close();
    await bitly?.close();
  });

  test("Kutt: a link on a custom domain lands on that domain, beside the same code on the default", async () => {
    const r = await importer("--from", "kutt", "--url", kutt.url, "--api-key-file", file("kutt-key", "kutt-key"), ...BASE);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Domains added (1):\n  k.example\n");
    const { links, domains } = await stored(["kt-dom"]);
    expect(links).toEqual([["", "kt-dom", "https://example.com/kutt-default", 0], ["k.example", "kt-dom", "https://example.com/kutt-custom", 0]]);
    expect(domains).toContain("k.example");
  }, 60_000);

  test("Bitly: a branded domain's back-halves land on it, bit.ly's on our default", async () => {
    const r = await importer("--from", "bitly", "--url", bitly.url, "--token-file", file("bitly-token", "bitly-token"), ...BASE);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Domains added (1):\n  brand.example\n");
    expect((await stored(["bt-launch", "bt9Hash", "btPlain"])).links).toEqual([
      ["", "bt-launch", "https://example.com/brand", 0], ["", "btPlain", "https://example.com/plain", 0],
      ["brand.example", "bt-launch", "https://example.com/brand", 0], ["brand.example", "bt9Hash", "https://example.com/brand", 0],
    ]);
  }, 60_000);
});

describe("the dashboard's import (POST /api/imports)", () => {
  test("domainMap as an object maps a source domain onto ours, another is added and named in the summary; one that is not a map is a 400 on domainMap", async () => {
    const shlink = await startShlink({ apiKey: "api-key", shortUrls: [shlinkShortUrl({ shortCode: "via-map", domain: "elsewhere.example", longUrl: "https://example.com/mapped" }), shlinkShortUrl({ shortCode: "via-map", domain: "fresh.example", longUrl: "https://example.com/fresh" })] });
    try {
      const body = { from: "shlink", url: shlink.url, apiKey: "api-key" };
      const bad = await api(s.url, key, "POST", "/api/imports", { ...body, domainMap: ["x"] });
      expect([bad.status, bad.body.code, bad.body.field]).toEqual([400, "bad_request", "domainMap"]);
      const unparsed = await api(s.url, key, "POST", "/api/imports", { ...body, domainMap: { "elsewhere.example": "not a host" } });
      expect([unparsed.status, unparsed.body.field, unparsed.body.error]).toEqual([400, "domainMap", expect.stringContaining('domainMap elsewhere.example=not a host: "not a host" is not a domain name')]);
      const { job } = await importedThroughApi(s.url, key, { ...body, domainMap: { "elsewhere.example": "go.example.org" } });
      expect([job.state, job.summary.domainsAdded]).toEqual(["done", ["fresh.example"]]);
      expect((await stored(["via-map"])).links).toEqual([["fresh.example", "via-map", "https://example.com/fresh", 0], ["go.example.org", "via-map", "https://example.com/mapped", 0]]);
      expect((await stored([])).domains).not.toContain("elsewhere.example");
    } finally {
      await shlink.close();
    }
  }, 60_000);
});
