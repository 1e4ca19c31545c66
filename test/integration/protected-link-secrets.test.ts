// A password-protected link keeps its secrets (#33, docs/security.md: Security) against the real service, on
// either engine: with the default --stats-access public, anyone may read its counts, but only its
// owner and admins see where it leads. The statistics, the stats page and the live view show no
// destination, rule, variant or fallback URL to anyone else (an anonymous visitor, another member's
// key, someone sending the link's password), and name variants by their place instead.

import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type RunningServer } from "../support/server.ts";
import { api, makeKey } from "../support/admin.ts";
import { click, drained, UA } from "../support/clicks.ts";
import { closeStreams, liveStream } from "../support/live-stream.ts";
import { eventually } from "../support/eventually.ts";

const PASSWORD = "correct horse battery staple";
const DESTINATION = "https://destination.example/launch";
const RULE_URL = "https://rule-one.example/mobile";
const RULE_SPLIT = ["https://rule-two-a.example/beta", "https://rule-two-b.example/beta"];
const SPLIT = ["https://split-a.example/", "https://split-b.example/"];
const FALLBACK = "https://fallback.example/over";
const SECRETS = [DESTINATION, RULE_URL, ...RULE_SPLIT, ...SPLIT, FALLBACK];
/** Every secret as it may appear in JSON text (escaped slashes included). */
const spellings = (url: string) => [url, url.replaceAll("/", "\\/"), new URL(url).host];

let server: RunningServer;
let admin: string;
let owner: string;
let other: string;

/** The protected link: a rule with a URL, a rule with a split, a split of its own, a fallback. */
const protectedLink = (id: string) => ({
  url: DESTINATION,
  custom_url: id,
  password: PASSWORD,
  fallback_url: FALLBACK,
  rules: [
    { conditions: [{ type: "device", value: "mobile" }], url: RULE_URL },
    { conditions: [{ type: "query", key: "beta", value: "1" }], variants: RULE_SPLIT.map((url) => ({ url, weight: 1 })) },
  ],
  variants: SPLIT.map((url) => ({ url, weight: 1 })),
});

/** A click with the right password (X-Link-Password), from its own address. */
async function unlockedClick(id: string, ip: string, ua: string = UA.firefoxLinux, query = ""): Promise<void> {
  const res = await click(server.url, `${id}${query}`, { "user-agent": ua, "x-forwarded-for": ip, "x-link-password": PASSWORD });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`click on ${id} answered ${res.status}`);
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The raw text of GET /api/stats?id=…, with its parsed body. */
async function rawStats(id: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; body: any }> {
  const res = await fetch(`${server.url}/api/stats?id=${id}`, { headers });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

function leaked(text: string): string[] {
  return SECRETS.filter((url) => spellings(url).some((s) => text.includes(s)));
}

beforeAll(async () => {
  server = await startServer({ args: ["--trust-proxy", "127.0.0.1"] });
  admin = makeKey(server.dbPath, "admin");
  owner = makeKey(server.dbPath, "owner", "create");
  other = makeKey(server.dbPath, "other", "create");
  for (const id of ["guarded", "relabelled"]) {
    const made = await api(server.url, owner, "POST", "/api/create", protectedLink(id));
    if (made.status !== 201) throw new Error(`create ${id}: ${JSON.stringify(made.body)}`);
  }
  // One click down each way: the link's own split, rule 1's URL, rule 2's split.
  await unlockedClick("guarded", "198.51.100.1", UA.firefoxLinux);
  await unlockedClick("guarded", "198.51.100.2", UA.safariIphone);
  await unlockedClick("guarded", "198.51.100.3", UA.chromeWindows, "?beta=1");
  await drained(server.url);
}, 60_000); // three key commands and five argon2id hashes; a PostgreSQL database to make first
afterAll(() => server.dispose());
afterEach(closeStreams);

describe("GET /api/stats of a protected link", () => {
  test("anonymous: the counts, and no destination, rule, variant or fallback URL anywhere in the body", async () => {
    const { status, text, body } = await rawStats("guarded");
    expect(status).toBe(200);
    expect(leaked(text)).toEqual([]);
    expect(body.data.link).toMatchObject({ id: "guarded", originalUrl: "", passwordProtected: true });
    const s = body.data.stats;
    expect(s.totalClicks).toBe(3);
    expect(s.recentVisits).toHaveLength(3);
    expect(s.ruleStats.map((r: any) => r.name).sort()).toEqual(["default", "rule 1", "rule 2"]);
    // The two split clicks, each under its variant's place: the link's own split, and rule 2's.
    const names = s.variantStats.map((r: any) => r.name);
    expect(names).toHaveLength(2);
    expect(names.find((n: string) => n.startsWith("rule 2, "))).toMatch(/^rule 2, variant [12]$/);
    expect(names.find((n: string) => !n.startsWith("rule"))).toMatch(/^variant [12]$/);
    expect(s.variantStats.reduce((n: number, r: any) => n + r.count, 0)).toBe(2);
    const variants = s.recentVisits.map((v: any) => v.variant).filter((v: unknown) => v !== undefined).sort();
    expect(variants).toEqual([...names].sort());
  });

  test("the owner's key and an admin key see everything; another member's key sees no URL", async () => {
    for (const key of [owner, admin]) {
      const { text, body } = await rawStats("guarded", bearer(key));
      expect(body.data.link).toMatchObject({ originalUrl: DESTINATION, passwordProtected: true });
      expect(body.data.stats.variantStats.every((r: any) => [...SPLIT, ...RULE_SPLIT].includes(r.name))).toBe(true);
      expect(text).toContain(DESTINATION);
    }
    const { status, text, body } = await rawStats("guarded", bearer(other));
    expect(status).toBe(200);
    expect(leaked(text)).toEqual([]);
    expect(body.data.link.originalUrl).toBe("");
    expect(body.data.stats.totalClicks).toBe(3);
  });

  test("the link's password sent along reveals nothing; a key that is not valid is refused", async () => {
    for (const password of [PASSWORD, "wrong"]) {
      const { status, text } = await rawStats("guarded", { "x-link-password": password });
      expect(status).toBe(200);
      expect(leaked(text)).toEqual([]);
    }
    const wrongKey = await rawStats("guarded", bearer("sk_not_a_key"));
    expect(wrongKey.status).toBe(401);
    expect(leaked(wrongKey.text)).toEqual([]);
  });

  test("a variant no longer in the link is 'variant (removed)', never its old URL", async () => {
    await unlockedClick("relabelled", "198.51.100.4", UA.firefoxLinux);
    await unlockedClick("relabelled", "198.51.100.5", UA.chromeWindows);
    await drained(server.url);
    const edit = await api(server.url, owner, "PATCH", "/api/links/relabelled", { variants: [{ url: "https://new-a.example/", weight: 1 }, { url: "https://new-b.example/", weight: 1 }] });
    expect(edit.status).toBe(200);
    const { text, body } = await rawStats("relabelled");
    expect(leaked(text)).toEqual([]);
    expect(body.data.stats.variantStats).toEqual([{ name: "variant (removed)", count: 2 }]);
    expect(body.data.stats.recentVisits.map((v: any) => v.variant)).toEqual(["variant (removed)", "variant (removed)"]);
  });

  test("a link without a password shows its destination to anyone, as before", async () => {
    const made = await api(server.url, owner, "POST", "/api/create", { url: "https://open.example/page", custom_url: "plain" });
    expect(made.status).toBe(201);
    const { body } = await rawStats("plain");
    expect(body.data.link).toMatchObject({ originalUrl: "https://open.example/page", passwordProtected: false });
  });
});

describe("the stats page of a protected link", () => {
  test("anonymous: the notice in the page, no URL", async () => {
    const res = await fetch(`${server.url}/en/stats/guarded`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Protected by a password");
    expect(leaked(page)).toEqual([]);
  });
});

describe("the live view of a protected link", () => {
  test("anonymous: a click with the right password comes as a visit with the variant's label, not its URL", async () => {
    const stream = await liveStream(server.url, "?id=guarded");
    expect(stream.status).toBe(200);
    expect(await stream.next("ready", 5_000)).not.toBeNull();
    const owners = await liveStream(server.url, "?id=guarded", bearer(owner));
    expect(await owners.next("ready", 5_000)).not.toBeNull();
    await unlockedClick("guarded", "198.51.100.6", UA.chromeWindows, "?beta=1");
    await drained(server.url);
    const visit = await stream.next("visit", 5_000);
    expect(visit?.data.visit).toMatchObject({ rule: "rule 2" });
    expect(visit!.data.visit.variant).toMatch(/^rule 2, variant [12]$/);
    expect(leaked(JSON.stringify(stream.events))).toEqual([]);
    // Its owner watching at the same time sees the URL.
    const seen = await owners.next("visit", 5_000);
    expect(RULE_SPLIT).toContain(seen?.data.visit.variant);
  });

  test("a stream of someone who does not manage the link ends when the link changes (a password set); its owner's goes on", async () => {
    const made = await api(server.url, owner, "POST", "/api/create", { url: "https://soon-secret.example/", custom_url: "soon-guarded" });
    expect(made.status).toBe(201);
    const before = await liveStream(server.url, "?id=soon-guarded");
    expect(await before.next("ready", 5_000)).not.toBeNull();
    expect((await api(server.url, owner, "PATCH", "/api/links/soon-guarded", { password: PASSWORD })).status).toBe(200);
    await eventually(async () => before.ended(), (ended) => ended, 5_000, 10);
    expect(before.ended()).toBe(true);
    // Opened again, it is decided again; the owner's stream of the protected link outlives a change.
    const again = await liveStream(server.url, "?id=soon-guarded");
    const owners = await liveStream(server.url, "?id=soon-guarded", bearer(owner));
    expect(await again.next("ready", 5_000)).not.toBeNull();
    expect(await owners.next("ready", 5_000)).not.toBeNull();
    expect((await api(server.url, owner, "PATCH", "/api/links/soon-guarded", { tags: ["edited"] })).status).toBe(200);
    await eventually(async () => again.ended(), (ended) => ended, 5_000, 10);
    expect(again.ended()).toBe(true);
    expect(owners.ended()).toBe(false);
  });
});

describe("a protected link that stopped working", () => {
  test("sends to its fallback URL only after the password: the page without it, the fallback with it (header or form)", async () => {
    const made = await api(server.url, owner, "POST", "/api/create", { url: DESTINATION, custom_url: "closed", password: PASSWORD, fallback_url: FALLBACK });
    expect(made.status).toBe(201);
    expect((await api(server.url, owner, "PATCH", "/api/links/closed", { disabled: true })).status).toBe(200);
    const headers = { "user-agent": UA.firefoxLinux, "x-forwarded-for": "198.51.100.20" };
    for (const method of ["GET", "HEAD"]) {
      const page = await click(server.url, "closed", headers, method);
      expect({ method, status: page.status, location: page.headers.get("location") }).toEqual({ method, status: 401, location: null });
      expect(leaked(await page.text())).toEqual([]);
    }
    const wrong = await click(server.url, "closed", { ...headers, "x-link-password": "wrong" });
    expect(wrong.status).toBe(403);
    expect(leaked(await wrong.text())).toEqual([]);
    const right = await click(server.url, "closed", { ...headers, "x-link-password": PASSWORD });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe(FALLBACK);
    const form = await fetch(`${server.url}/closed`, {
      method: "POST", redirect: "manual", body: `password=${encodeURIComponent(PASSWORD)}`,
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded", origin: server.url },
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(FALLBACK);
    await drained(server.url);
    const { body } = await rawStats("closed");
    expect(body.data.stats.fallbackStats).toEqual([{ name: "disabled", count: 2 }]);
    expect(body.data.stats.totalClicks).toBe(0);
  });
});
