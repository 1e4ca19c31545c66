// What a link does besides its rules (#22), against a real server on either engine: its redirect
// code, validFrom, the fallback URL for each reason a link stops redirecting (and never for a
// blocked one), --root-redirect and --not-found-redirect, robots.txt for crawlable links.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLink, startServer, type RunningServer } from "../support/server.ts";
import { api, cli, makeKey } from "../support/admin.ts";
import { click, drained, stats, UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";

const HOUR = 3_600_000;
let first: RunningServer;
let server: RunningServer;
let key: string;
let blocklist: string;
beforeAll(async () => {
  first = await startServer(); // for a folder; the blocklist lives beside the database
  blocklist = join(first.dir, "blocklist.txt");
  await first.stop();
  writeFileSync(blocklist, "# nothing yet\n");
  server = await startServer({ dir: first.dir, args: ["--create-rate-limit", "0", "--blocklist", blocklist] });
  key = makeKey(server.dbPath, "owner");
});
// The folder and database go with `first`; this server only borrowed them.
afterAll(async () => {
  await server.stop();
  await first.dispose();
});

const create = (body: Record<string, unknown>) => api(server.url, key, "POST", "/api/create", body);
const get = (id: string) => api(server.url, key, "GET", `/api/links/${id}`);
const patch = (id: string, body: unknown) => api(server.url, key, "PATCH", `/api/links/${id}`, body);

async function statsOf(id: string) {
  await drained(server.url);
  return (await stats(server.url, `id=${id}`)).data.stats;
}

describe("redirect codes", () => {
  for (const code of [301, 302, 307, 308] as const) {
    test(`${code}: the click's status; the API warns of ${code === 301 || code === 308 ? "it (permanent)" : "nothing"}`, async () => {
      const id = `code-${code}`;
      const created = await create({ url: `https://example.com/${code}`, custom_url: id, redirect_type: code });
      expect(created.status).toBe(201);
      const permanent = code === 301 || code === 308;
      if (permanent) expect(created.body.data.warnings).toEqual([expect.stringContaining(`redirectType ${code} is permanent`)]);
      else expect(created.body.data.warnings).toBeUndefined();
      const res = await click(server.url, `${id}?a=1`, { "user-agent": UA.firefoxLinux });
      expect(res.status).toBe(code);
      expect(res.headers.get("location")).toBe(`https://example.com/${code}?a=1`);
      expect(res.headers.get("cache-control")).toContain("no-store");
      expect((await click(server.url, id, {}, "HEAD")).status).toBe(code);
      const link = (await get(id)).body.data;
      expect(link.redirectType).toBe(code);
      if (permanent) expect(link.warnings).toHaveLength(1);
      else expect(link.warnings).toBeUndefined();
      expect((await statsOf(id)).totalClicks).toBe(1);
    });
  }

  test("as form text, as camelCase in JSON; PATCH changes it and null means 302 again; anything else is 400", async () => {
    expect((await createLink(server.url, { url: "https://example.com/f", custom_url: "code-form", redirect_type: "307" })).status).toBe(201);
    expect((await click(server.url, "code-form")).status).toBe(307);
    expect((await create({ url: "https://example.com/c", custom_url: "code-camel", redirectType: 308 })).status).toBe(201);
    expect((await click(server.url, "code-camel")).status).toBe(308);
    const patched = await patch("code-camel", { redirectType: 301 });
    expect(patched.body.data).toMatchObject({ redirectType: 301, warnings: [expect.stringContaining("301")] });
    expect((await click(server.url, "code-camel")).status).toBe(301);
    const reset = await patch("code-camel", { redirectType: null });
    expect(reset.body.data.redirectType).toBe(302);
    expect(reset.body.data.warnings).toBeUndefined();
    expect((await click(server.url, "code-camel")).status).toBe(302);
    for (const bad of [303, 300, "301x", 200, "abc"]) {
      const r = await create({ url: "https://example.com/", redirect_type: bad });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "redirect_type_invalid", field: "redirect_type" });
    }
    expect((await patch("code-camel", { redirectType: 304 })).body).toMatchObject({ code: "redirect_type_invalid", field: "redirectType" });
  });
});

describe("validFrom", () => {
  test("in the future: 404 like an unknown id (GET and HEAD, not counted); PATCH to the past: the next click redirects", async () => {
    const from = new Date(Date.now() + HOUR).toISOString();
    const created = await create({ url: "https://example.com/later", custom_url: "later", valid_from: from });
    expect(created.status).toBe(201);
    const early = await click(server.url, "later", { "user-agent": UA.firefoxLinux });
    expect(early.status).toBe(404);
    expect(early.headers.get("content-type")).toContain("text/html");
    expect(await early.text()).toBe(await (await click(server.url, "no-such-link")).text());
    expect((await click(server.url, "later", {}, "HEAD")).status).toBe(404);
    expect((await get("later")).body.data.validFrom).toBe(from);
    expect((await statsOf("later")).totalClicks).toBe(0);
    // The owner still manages it meanwhile.
    const past = new Date(Date.now() - HOUR).toISOString();
    expect((await patch("later", { validFrom: past })).body.data.validFrom).toBe(past);
    const now = await click(server.url, "later", { "user-agent": UA.firefoxLinux });
    expect(now.status).toBe(302);
    expect(now.headers.get("location")).toBe("https://example.com/later");
    expect((await statsOf("later")).totalClicks).toBe(1);
  });

  test("in the past: redirects at once; null clears it; a bad time is 400", async () => {
    const created = await create({ url: "https://example.com/began", custom_url: "began", validFrom: "2020-01-01T00:00:00+02:00" });
    expect(created.status).toBe(201);
    expect((await get("began")).body.data.validFrom).toBe("2019-12-31T22:00:00.000Z");
    expect((await click(server.url, "began")).status).toBe(302);
    expect((await patch("began", { validFrom: new Date(Date.now() + HOUR).toISOString() })).status).toBe(200);
    expect((await click(server.url, "began")).status).toBe(404);
    expect((await patch("began", { validFrom: null })).body.data.validFrom).toBeNull();
    expect((await click(server.url, "began")).status).toBe(302);
    for (const bad of ["tomorrow", "2026-12-31T18:00:00", "2026-02-30T00:00:00Z"]) {
      expect((await create({ url: "https://example.com/", valid_from: bad })).body).toMatchObject({ code: "valid_from_invalid", field: "valid_from" });
    }
    expect((await patch("began", { validFrom: "soon" })).body).toMatchObject({ code: "valid_from_invalid", field: "validFrom" });
  });

  test("a start at or after the expiry is refused (the link could never be visited), on create and on change", async () => {
    const end = new Date(Date.now() + 2 * HOUR).toISOString();
    const later = new Date(Date.now() + 3 * HOUR).toISOString();
    const sooner = new Date(Date.now() + HOUR).toISOString();
    for (const from of [later, end]) {
      const r = await create({ url: "https://example.com/w", valid_from: from, expires_at: end });
      expect([r.status, r.body.code, r.body.field]).toEqual([400, "valid_from_invalid", "valid_from"]);
    }
    expect((await create({ url: "https://example.com/w", validFrom: later, expiresAt: end })).body).toMatchObject({ code: "valid_from_invalid", field: "validFrom" });
    expect((await create({ url: "https://example.com/w", custom_url: "window", valid_from: sooner, expires_at: end })).status).toBe(201);
    // A change of either side is checked against the other as stored; nothing is changed when refused.
    expect((await patch("window", { validFrom: later })).body).toMatchObject({ code: "valid_from_invalid", field: "validFrom" });
    expect((await patch("window", { expiresAt: sooner })).body).toMatchObject({ code: "valid_from_invalid", field: "validFrom" });
    expect((await get("window")).body.data.validFrom).toBe(sooner);
    expect((await patch("window", { validFrom: later, expiresAt: null })).status).toBe(200);
  });

  test("a link not valid yet shows no password page and no fallback: it is not there yet", async () => {
    await create({ url: "https://example.com/x", custom_url: "later-locked", password: "pw", valid_from: new Date(Date.now() + HOUR).toISOString(), fallback_url: "https://fallback.example/" });
    expect((await click(server.url, "later-locked")).status).toBe(404);
    expect((await click(server.url, "later-locked", { "x-link-password": "pw" })).status).toBe(404);
  });
});

describe("fallback URLs", () => {
  test("expired by time: 302 to the fallback, not a click, counted in fallbackStats as expired; HEAD is not counted", async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    const created = await create({ url: "https://example.com/soon", custom_url: "fb-time", expires_at: at, fallback_url: "https://fallback.example/time" });
    expect(created.status).toBe(201);
    expect((await click(server.url, "fb-time", { "user-agent": UA.firefoxLinux })).headers.get("location")).toBe("https://example.com/soon");
    // The service's clock passes `at` (it cannot be set from here): its API says so without a click.
    await eventually(() => get("fb-time"), (r) => r.body.data.status === "expired", 10_000, 50);
    for (let i = 0; i < 2; i++) {
      const res = await click(server.url, "fb-time?x=1", { "user-agent": UA.firefoxLinux });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("https://fallback.example/time"); // the click's query is not passed on
      expect(res.headers.get("cache-control")).toContain("no-store");
    }
    const head = await click(server.url, "fb-time", {}, "HEAD");
    expect(head.status).toBe(302);
    expect(head.headers.get("location")).toBe("https://fallback.example/time");
    const s = await statsOf("fb-time");
    expect(s.totalClicks).toBe(1);
    expect(s.recentVisits).toHaveLength(1);
    expect(s.uniqueVisitors).toBe(1);
    expect(s.visitsByDate.at(-1).count).toBe(1);
    expect(s.fallbackStats).toEqual([{ name: "expired", count: 2 }]);
    expect((await get("fb-time")).body.data).toMatchObject({ status: "expired", totalClicks: 1, fallbackUrl: "https://fallback.example/time" });
  });

  test("the click limit reached: the first click to the destination, the next ones to the fallback (counted as expired)", async () => {
    expect((await create({ url: "https://example.com/once", custom_url: "fb-limit", max_clicks: 1, fallbackUrl: "https://fallback.example/limit" })).status).toBe(201);
    const first = await click(server.url, "fb-limit", { "user-agent": UA.firefoxLinux });
    expect(first.headers.get("location")).toBe("https://example.com/once");
    for (let i = 0; i < 3; i++) {
      const next = await click(server.url, "fb-limit", { "user-agent": UA.firefoxLinux });
      expect(next.status).toBe(302);
      expect(next.headers.get("location")).toBe("https://fallback.example/limit");
    }
    const s = await statsOf("fb-limit");
    expect(s.totalClicks).toBe(1);
    expect(s.fallbackStats).toEqual([{ name: "expired", count: 3 }]);
    expect((await get("fb-limit")).body.data).toMatchObject({ status: "expired", totalClicks: 1 });
  });

  test("disabled: to the fallback (counted as disabled); enabled again: to the destination; without a fallback: 410", async () => {
    expect((await createLink(server.url, { url: "https://example.com/switch", custom_url: "fb-off", fallback_url: "https://fallback.example/off" })).status).toBe(201);
    expect((await click(server.url, "fb-off", { "user-agent": UA.firefoxLinux })).headers.get("location")).toBe("https://example.com/switch");
    expect((await patch("fb-off", { disabled: true })).body.data.status).toBe("disabled");
    const off = await click(server.url, "fb-off", { "user-agent": UA.firefoxLinux });
    expect(off.status).toBe(302);
    expect(off.headers.get("location")).toBe("https://fallback.example/off");
    expect((await patch("fb-off", { disabled: false })).status).toBe(200);
    expect((await click(server.url, "fb-off", { "user-agent": UA.firefoxLinux })).headers.get("location")).toBe("https://example.com/switch");
    await patch("fb-off", { disabled: true, fallbackUrl: null });
    const gone = await click(server.url, "fb-off", { "user-agent": UA.firefoxLinux });
    expect(gone.status).toBe(410);
    await gone.text();
    const s = await statsOf("fb-off");
    expect(s.totalClicks).toBe(2);
    expect(s.fallbackStats).toEqual([{ name: "disabled", count: 1 }]);
  });

  test("a deleted link does not fall back: 410", async () => {
    expect((await create({ url: "https://example.com/del", custom_url: "fb-deleted", fallback_url: "https://fallback.example/del" })).status).toBe(201);
    expect((await api(server.url, key, "DELETE", "/api/links/fb-deleted")).status).toBe(200);
    const res = await click(server.url, "fb-deleted");
    expect(res.status).toBe(410);
    expect(await res.text()).toContain("This link was deleted");
  });

  test("each reason is counted apart", async () => {
    expect((await create({ url: "https://example.com/both", custom_url: "fb-both", max_clicks: 1, fallback_url: "https://fallback.example/both" })).status).toBe(201);
    await click(server.url, "fb-both");
    await click(server.url, "fb-both"); // expired (its limit)
    await click(server.url, "fb-both");
    await patch("fb-both", { disabled: true });
    await click(server.url, "fb-both"); // disabled outranks expired
    const s = await statsOf("fb-both");
    expect(s.totalClicks).toBe(1);
    expect(s.fallbackStats).toEqual([{ name: "expired", count: 2 }, { name: "disabled", count: 1 }]);
  });

  test("a blocked link never falls back: 410, whatever its fallback; a rule's or the fallback's URL blocked blocks the link", async () => {
    expect((await create({ url: "https://phish.example/login", custom_url: "fb-blocked", fallback_url: "https://fallback.example/blocked" })).status).toBe(201);
    const ruled = { conditions: [{ type: "query", key: "beta" }], url: "https://rule-target.example/" };
    expect((await create({ url: "https://fine.example/", custom_url: "rule-blocked", rules: [ruled] })).status).toBe(201);
    expect((await create({ url: "https://fine.example/", custom_url: "split-blocked", variants: [{ url: "https://fine.example/a", weight: 1 }, { url: "https://rule-target.example/b", weight: 1 }] })).status).toBe(201);
    expect((await create({ url: "https://fine.example/", custom_url: "fallback-blocked", fallback_url: "https://bad-fallback.example/" })).status).toBe(201);
    expect((await create({ url: "https://fine.example/", custom_url: "not-blocked", fallback_url: "https://fallback.example/" })).status).toBe(201);
    expect((await click(server.url, "fb-blocked")).status).toBe(302);
    writeFileSync(blocklist, "phish.example\nrule-target.example\nbad-fallback.example\n");
    server.proc.kill("SIGHUP");
    const blocked = await eventually(() => click(server.url, "fb-blocked"), (r) => r.status === 410, 8000, 50);
    expect(blocked.status).toBe(410);
    expect(await blocked.text()).toContain("blocked");
    expect((await get("fb-blocked")).body.data).toMatchObject({ status: "blocked", fallbackUrl: "https://fallback.example/blocked" });
    // Blocked whichever way a click would go: even one that takes no rule.
    for (const id of ["rule-blocked", "split-blocked", "fallback-blocked"]) {
      const res = await click(server.url, id);
      expect({ id, status: res.status }).toEqual({ id, status: 410 });
      await res.text();
      expect((await get(id)).body.data.status).toBe("blocked");
    }
    expect((await click(server.url, "not-blocked")).status).toBe(302);
    // Disabled as well: still blocked, still no fallback.
    await patch("fb-blocked", { disabled: true });
    expect((await click(server.url, "fb-blocked")).status).toBe(410);
    expect((await statsOf("fb-blocked")).fallbackStats).toEqual([]);
    writeFileSync(blocklist, "# nothing\n");
    server.proc.kill("SIGHUP");
    const back = await eventually(() => click(server.url, "fb-blocked"), (r) => r.status === 302, 8000, 50);
    expect(back.headers.get("location")).toBe("https://fallback.example/blocked"); // disabled, no longer blocked
  });
});

describe("robots.txt", () => {
  test("crawlable links are allowed before Disallow: /, the others are not named", async () => {
    // robots.txt is kept up to a minute: every link is made before this server's first robots.txt.
    expect((await createLink(server.url, { url: "https://example.com/c1", custom_url: "crawl-form", crawlable: "true" })).status).toBe(201);
    expect((await create({ url: "https://example.com/c2", custom_url: "crawl-json", crawlable: true })).status).toBe(201);
    expect((await create({ url: "https://example.com/c3", custom_url: "crawl-not", crawlable: false })).status).toBe(201);
    expect((await create({ url: "https://example.com/c4", custom_url: "crawl-later" })).status).toBe(201);
    expect((await patch("crawl-later", { crawlable: true })).body.data.crawlable).toBe(true);
    expect((await get("crawl-not")).body.data.crawlable).toBe(false);
    const res = await fetch(`${server.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const lines = (await res.text()).trimEnd().split("\n");
    const disallowAll = lines.indexOf("Disallow: /");
    expect(disallowAll).toBe(lines.length - 1);
    for (const id of ["crawl-form", "crawl-json", "crawl-later"]) {
      const at = lines.indexOf(`Allow: /${id}$`);
      expect({ id, allowed: at !== -1 && at < disallowAll }).toEqual({ id, allowed: true });
    }
    expect(lines.filter((l) => l.includes("crawl-not"))).toEqual([]);
    expect(lines.filter((l) => l.includes("code-"))).toEqual([]);
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Disallow: /api/");
  });

  test("a restarted server reads what changed: crawlable cleared and set", async () => {
    const one = await startServer({ args: ["--create-rate-limit", "0"] });
    const oneKey = makeKey(one.dbPath, "owner");
    try {
      await api(one.url, oneKey, "POST", "/api/create", { url: "https://example.com/a", custom_url: "was-crawlable", crawlable: true });
      await api(one.url, oneKey, "POST", "/api/create", { url: "https://example.com/b", custom_url: "now-crawlable" });
      expect(await (await fetch(`${one.url}/robots.txt`)).text()).toContain("Allow: /was-crawlable$");
      await api(one.url, oneKey, "PATCH", "/api/links/was-crawlable", { crawlable: null });
      await api(one.url, oneKey, "PATCH", "/api/links/now-crawlable", { crawlable: true });
      await one.stop();
      const two = await startServer({ dir: one.dir });
      try {
        const text = await (await fetch(`${two.url}/robots.txt`)).text();
        expect(text).not.toContain("was-crawlable");
        expect(text).toContain("Allow: /now-crawlable$\nDisallow: /\n");
      } finally {
        await two.stop();
      }
    } finally {
      await one.dispose();
    }
  });
});

describe("--root-redirect and --not-found-redirect", () => {
  let elsewhere: RunningServer;
  let otherKey: string;
  beforeAll(async () => {
    elsewhere = await startServer({ args: ["--root-redirect", "https://home.example/welcome", "--not-found-redirect", "https://home.example/404", "--create-rate-limit", "0"] });
    otherKey = makeKey(elsewhere.dbPath, "owner");
  });
  afterAll(() => elsewhere.dispose());

  test("GET / → 302 to the root redirect; the pages in each language are still there", async () => {
    const root = await fetch(`${elsewhere.url}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("https://home.example/welcome");
    expect((await fetch(`${elsewhere.url}/en/`, { redirect: "manual" })).status).toBe(200);
    // The plain server keeps its home page.
    expect((await fetch(`${server.url}/`, { redirect: "manual" })).status).toBe(200);
  });

  test("an unknown id and a link not valid yet → 302 to the not-found redirect, not counted; a gone link stays 410", async () => {
    for (const path of ["no-such-link", "ab.cd"]) {
      const res = await click(elsewhere.url, path);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("https://home.example/404");
    }
    await api(elsewhere.url, otherKey, "POST", "/api/create", { url: "https://example.com/l", custom_url: "not-yet", valid_from: new Date(Date.now() + HOUR).toISOString() });
    const early = await click(elsewhere.url, "not-yet", { "user-agent": UA.firefoxLinux });
    expect(early.status).toBe(302);
    expect(early.headers.get("location")).toBe("https://home.example/404");
    await api(elsewhere.url, otherKey, "POST", "/api/create", { url: "https://example.com/d", custom_url: "deleted-one" });
    expect((await api(elsewhere.url, otherKey, "DELETE", "/api/links/deleted-one")).status).toBe(200);
    expect((await click(elsewhere.url, "deleted-one")).status).toBe(410);
    await drained(elsewhere.url);
    expect((await stats(elsewhere.url, "id=not-yet")).data.stats.totalClicks).toBe(0);
    // The API's own 404s are JSON as ever.
    expect((await api(elsewhere.url, otherKey, "GET", "/api/links/no-such-link")).status).toBe(404);
  });

  test("a value that is not an absolute http(s) URL: exit 2 naming the flag", () => {
    for (const [flag, value] of [["--root-redirect", "ftp://x.example/"], ["--not-found-redirect", "/relative"], ["--root-redirect", "https://"]]) {
      const r = cli(["--port", "0", "--host", "127.0.0.1", "--db", join(server.dir, "never.db"), flag!, value!]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(flag!);
    }
  });
});
