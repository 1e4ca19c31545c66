// Visits to no link (docs/statistics.md: Visits to no link) against a real server on both engines:
// the root, an unknown alias and other pages not found are counted by type, bots apart, with no
// address and no query kept; a day's paths past 100 go to Other; only admins read them (our API
// and Shlink's /visits, /visits/orphan); --orphan-visits off records nothing.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { drained, UA } from "../support/clicks.ts";
import { openStored } from "../support/stored.ts";
import { writeMmdb } from "../support/mmdb-writer.ts";

let s: RunningServer;
let files: string;
let admin: string;
let creator: string;
const ADDRESS = "203.0.113.7";

async function hit(path: string, ua: string = UA.firefoxLinux, method = "GET"): Promise<number> {
  const res = await fetch(`${s.url}${path}`, { method, redirect: "manual", headers: { "User-Agent": ua, "X-Forwarded-For": ADDRESS, Referer: "https://t.co/x" } });
  await res.arrayBuffer();
  return res.status;
}

async function rest(method: string, path: string, key: string | null): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}/rest/v3${path}`, { method, headers: key === null ? {} : { "X-Api-Key": key } });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), "shortener-orphans-"));
  const geo = join(files, "geo.mmdb");
  writeFileSync(geo, writeMmdb([{ cidr: "203.0.113.0/24", data: { country: { iso_code: "DE" }, registered_country: { iso_code: "DE" } } }], { ipVersion: 4, databaseType: "GeoLite2-Country", buildEpoch: 1_700_000_000 }));
  s = await startServer({ args: ["--trust-proxy", "127.0.0.1", "--geoip-db", geo] });
  admin = makeKey(s.dbPath, "admin");
  creator = makeKey(s.dbPath, "creator", "create");
  expect(await hit("/")).toBe(200);
  expect(await hit("/no-such-link?token=secret")).toBe(404);
  expect(await hit("/no-such-link", UA.googlebot)).toBe(404);
  expect(await hit("/wp-admin/setup.php?x=1")).toBe(404);
  // Not visits: a HEAD, an API path, a page that exists.
  expect(await hit("/no-such-link", UA.firefoxLinux, "HEAD")).toBe(404);
  expect(await hit("/api/nothing-here")).toBe(404);
  expect(await hit("/favicon.ico")).toBe(200);
  await drained(s.url);
}, 60_000);

afterAll(async () => {
  await s?.dispose();
  rmSync(files, { recursive: true, force: true });
});

describe("visits to no link", () => {
  test("each type counted, bots apart, in the admin's summary", async () => {
    const { status, body } = await api(s.url, admin, "GET", "/api/orphan-visits");
    expect(status).toBe(200);
    const data = body.data;
    expect(data.counts).toEqual({ total: 4, humans: 3, bots: 1 });
    expect(data.byType).toEqual({
      base_url: { total: 1, humans: 1, bots: 0 },
      invalid_short_url: { total: 2, humans: 1, bots: 1 },
      regular_404: { total: 1, humans: 1, bots: 0 },
    });
    expect(data.topPaths[0]).toEqual({ type: "invalid_short_url", path: "/no-such-link", total: 2, humans: 1, bots: 1 });
    expect(data.topPaths.map((p: any) => p.path).sort()).toEqual(["/", "/no-such-link", "/wp-admin/setup.php"]);
    const humans = await api(s.url, admin, "GET", "/api/orphan-visits?bots=exclude");
    expect(humans.body.data.counts).toEqual({ total: 3, humans: 3, bots: 0 });
  });

  test("no address and no query are stored; the country is", async () => {
    const stored = await openStored(s);
    try {
      const rows = await stored.all<{ visits: string }>("SELECT visits FROM orphan_batches");
      const text = rows.map((r) => r.visits).join("\n");
      expect(text).not.toContain(ADDRESS);
      expect(text).not.toContain("secret");
      expect(text).not.toContain("x=1");
      expect(text).toContain('"DE"');
      expect(text).toContain('"t.co"');
    } finally {
      await stored.close();
    }
  });

  test("only an admin reads them: no credential 401, a create key 403", async () => {
    expect((await api(s.url, null, "GET", "/api/orphan-visits")).status).toBe(401);
    const own = await api(s.url, creator, "GET", "/api/orphan-visits");
    expect(own.status).toBe(403);
    expect(own.body.code).toBe("admin_only");
    expect((await api(s.url, admin, "GET", "/api/orphan-visits?from=2026-13-01")).status).toBe(400);
  });

  test("Shlink: /visits counts them for an admin key, zero for another", async () => {
    expect((await rest("GET", "/visits", admin)).body.visits.orphanVisits).toEqual({ total: 4, nonBots: 3, bots: 1 });
    expect((await rest("GET", "/visits", creator)).body.visits.orphanVisits).toEqual({ total: 0, nonBots: 0, bots: 0 });
  });

  test("Shlink: /visits/orphan pages them newest first in Shlink's orphan visit shape, by type", async () => {
    const { status, body } = await rest("GET", "/visits/orphan", admin);
    expect(status).toBe(200);
    expect(body.visits.pagination.totalItems).toBe(4);
    const newest = body.visits.data[0];
    expect(newest.type).toBe("regular_404");
    expect(newest.visitedUrl).toBe(`${s.url}/wp-admin/setup.php`);
    expect(newest.referer).toBe("t.co");
    expect(newest.visitLocation.countryCode).toBe("DE");
    expect(newest.potentialBot).toBe(false);
    // The order is total (src/stats/orphan-visits.ts): the requests were made one after the other,
    // and come back the last first whether they fell in one millisecond or in several, one stored
    // row or several.
    expect(body.visits.data.map((v: any) => [v.type, v.potentialBot])).toEqual([["regular_404", false], ["invalid_short_url", true], ["invalid_short_url", false], ["base_url", false]]);
    const bots = await rest("GET", "/visits/orphan?type=invalid_short_url&excludeBots=true", admin);
    expect(bots.body.visits.data.map((v: any) => v.visitedUrl)).toEqual([`${s.url}/no-such-link`]);
    const second = await rest("GET", "/visits/orphan?itemsPerPage=3&page=2", admin);
    expect(second.body.visits.data.map((v: any) => v.type)).toEqual(["base_url"]);
    expect((await rest("GET", "/visits/orphan?type=nope", admin)).status).toBe(400);
    expect((await rest("GET", "/visits/orphan", creator)).body.visits.data).toEqual([]);
  });

  test("a day's paths past 100 are summed as Other", async () => {
    for (let i = 0; i < 110; i++) expect(await hit(`/scan/${String(i).padStart(3, "0")}`)).toBe(404);
    await drained(s.url);
    const stored = await openStored(s);
    try {
      const paths = await stored.all<{ path: string; visits: number }>("SELECT path, SUM(visits) AS visits FROM orphan_daily GROUP BY path");
      expect(paths.length).toBe(101);
      expect(paths.reduce((n, p) => n + Number(p.visits), 0)).toBe(114);
      expect(paths.find((p) => p.path === "\u0001other")?.visits).toBeGreaterThanOrEqual(13);
    } finally {
      await stored.close();
    }
    const summary = (await api(s.url, admin, "GET", "/api/orphan-visits")).body.data;
    expect(summary.counts.total).toBe(114);
    expect(summary.topPaths[0]).toMatchObject({ path: "Other", type: "regular_404" });
    // The raw visits keep every path.
    expect((await rest("GET", "/visits/orphan", admin)).body.visits.pagination.totalItems).toBe(114);
  });

  test("Shlink: DELETE /visits/orphan deletes none for a create key (200, 0, as Shlink's NO_ORPHAN_VISITS key), all for an admin", async () => {
    expect(await rest("DELETE", "/visits/orphan", creator)).toEqual({ status: 200, body: { deletedVisits: 0 } });
    expect((await rest("GET", "/visits", admin)).body.visits.orphanVisits.total).toBe(114);
    expect((await rest("DELETE", "/visits/orphan", null)).status).toBe(401);
    expect((await rest("DELETE", "/visits/orphan", admin)).body).toEqual({ deletedVisits: 114 });
    expect((await rest("GET", "/visits", admin)).body.visits.orphanVisits).toEqual({ total: 0, nonBots: 0, bots: 0 });
    expect((await api(s.url, admin, "GET", "/api/orphan-visits")).body.data.counts.total).toBe(0);
  });
});

describe("--orphan-visits off", () => {
  test("nothing is recorded", async () => {
    const off = await startServer({ args: ["--orphan-visits", "off"] });
    try {
      const key = makeKey(off.dbPath, "admin");
      for (const path of ["/", "/no-such-link", "/a/b"]) await (await fetch(`${off.url}${path}`, { redirect: "manual" })).arrayBuffer();
      await drained(off.url);
      expect((await api(off.url, key, "GET", "/api/orphan-visits")).body.data.counts).toEqual({ total: 0, humans: 0, bots: 0 });
      const stored = await openStored(off);
      try {
        expect(await stored.get("SELECT COUNT(*) AS n FROM orphan_batches")).toEqual({ n: 0 });
      } finally {
        await stored.close();
      }
    } finally {
      await off.dispose();
    }
  }, 60_000);
});

describe("a share link's token in a path not found", () => {
  test("is kept without the token, as it is logged: /stats/shared/…", async () => {
    const token = "q7ZkT0kenThatOpensAShareLink_0123456789abcd";
    for (const path of [`/stats/shared/${token}/more`, `/en/stats/shared/${token}/x?y=1`]) expect(await hit(path)).toBe(404);
    await drained(s.url);
    const stored = await openStored(s);
    try {
      const held = await stored.get<{ n: unknown }>("SELECT COUNT(*) AS n FROM orphan_batches WHERE visits LIKE ?", `%${token}%`);
      const named = await stored.get<{ n: unknown }>("SELECT COUNT(*) AS n FROM orphan_daily WHERE path LIKE ?", `%${token}%`);
      expect({ held: Number(held!.n), named: Number(named!.n) }).toEqual({ held: 0, named: 0 });
      const paths = await stored.all<{ path: string }>("SELECT DISTINCT path FROM orphan_daily WHERE path LIKE '%/stats/shared/%' ORDER BY path");
      expect(paths.map((p) => p.path)).toEqual(["/en/stats/shared/…", "/stats/shared/…"]);
    } finally {
      await stored.close();
    }
  });
});
