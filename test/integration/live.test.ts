// The live view (GET /api/stats/live, docs/webhooks.md: Live view) against the real service, on either
// engine: a link's stream says `ready` with its totals, then each click's visit (as the stats'
// recent visits list it, never the visitor's address) and heartbeats; the bound on streams per
// address; the same access rules as the statistics under --stats-access key; the stream of every
// link a key may see, counting only that key's links. On PostgreSQL, a viewer on one instance sees
// the clicks another instance answered (LISTEN/NOTIFY between them).

import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { RecentVisit } from "../../src/api/schemas.ts";
import { onPostgres, startServer, type RunningServer } from "../support/server.ts";
import { api, madeLink, makeKey } from "../support/admin.ts";
import { click, drained, UA } from "../support/clicks.ts";
import { eventually } from "../support/eventually.ts";
import { sharedPostgres } from "../support/postgres.ts";
import { closeStreams, liveStream, type Stream } from "../support/live-stream.ts";

afterEach(closeStreams);

/** A click as a person would make it; `ip` counts with --trust-proxy 127.0.0.1. */
async function clickAs(base: string, id: string, ua: string = UA.chromeWindows, extra: Record<string, string> = {}): Promise<void> {
  const res = await click(base, id, { "user-agent": ua, ...extra });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`click on ${id} answered ${res.status}`);
}

const latencies: number[] = [];

describe("one link's stream (public statistics)", () => {
  let server: RunningServer;
  let admin: string;
  beforeAll(async () => {
    // Trusting the test as its proxy: X-Forwarded-For picks a click's country, and a stream's address.
    server = await startServer({ args: ["--trust-proxy", "127.0.0.1"] });
    admin = makeKey(server.dbPath, "admin");
    await madeLink(server.url, admin, "watched");
    await madeLink(server.url, admin, "bounded");
    // Two clicks before anyone watches, one of them a bot's: the totals `ready` gives.
    await clickAs(server.url, "watched", UA.firefoxLinux);
    await clickAs(server.url, "watched", UA.googlebot);
    await drained(server.url);
  });
  afterAll(async () => {
    if (latencies.length > 0) console.log(`click → visit event (ms): ${latencies.map((n) => Math.round(n)).join(", ")}`);
    await server.dispose();
  });

  test("ready with the link's totals, then a click's visit with the recent-visit fields and no address", async () => {
    const stream = await liveStream(server.url, "?id=watched");
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toStartWith("text/event-stream");
    expect(stream.headers.get("cache-control")).toContain("no-cache");
    const ready = await stream.next("ready", 5_000);
    expect(ready?.data).toEqual({ id: "watched", domain: null, totalClicks: 2, humanClicks: 1 });
    expect(stream.events[0]?.event).toBe("ready"); // the first event

    const clickedAt = performance.now();
    await clickAs(server.url, "watched", UA.chromeWindows, { "x-forwarded-for": "8.8.8.8", referer: "https://news.ycombinator.com/item?id=1" });
    const visit = await stream.next("visit", 5_000);
    expect(visit).not.toBeNull();
    latencies.push(visit!.at - clickedAt);
    console.log(`click → visit event: ${Math.round(visit!.at - clickedAt)} ms`);
    expect(Object.keys(visit!.data).sort()).toEqual(["domain", "id", "visit"]);
    expect(visit!.data.domain).toBeNull(); // the default domain of an instance that knows no name
    expect(visit!.data.id).toBe("watched");
    const v = visit!.data.visit;
    expect(Value.Check(RecentVisit, v)).toBe(true); // exactly the stats' RecentVisit, no field more
    expect(v).toMatchObject({ browser: "Chrome", os: "Windows", device: "desktop", country: "US", referrer: "news.ycombinator.com", isBot: false });
    expect(Math.abs(Date.parse(v.timestamp) - Date.now())).toBeLessThan(60_000);
    expect(JSON.stringify(visit!.data)).not.toContain("8.8.8.8");
    // The same visit is what the statistics then list first.
    const listed = (await api(server.url, null, "GET", "/api/stats?id=watched")).body.data.stats;
    expect(listed.recentVisits[0]).toEqual(v);
    expect(listed.totalClicks).toBe(3);
    expect(stream.all("visit")).toHaveLength(1);
  });

  test("each click is one visit event, in order; a bot's says isBot; another link's clicks do not come", async () => {
    const stream = await liveStream(server.url, "?id=watched");
    expect(await stream.next("ready", 5_000)).not.toBeNull();
    await clickAs(server.url, "bounded"); // not watched here
    const agents = [UA.firefoxLinux, UA.googlebot, UA.safariIphone];
    for (const ua of agents) {
      const clickedAt = performance.now();
      const before = stream.all("visit").length;
      await clickAs(server.url, "watched", ua);
      await eventually(async () => stream.all("visit").length, (n) => n > before, 5_000, 10);
      const last = stream.all("visit").at(-1);
      if (last) latencies.push(last.at - clickedAt);
    }
    const visits = stream.all("visit").map((e) => e.data);
    expect(visits.map((d) => d.id)).toEqual(["watched", "watched", "watched"]);
    expect(visits.map((d) => [d.visit.browser, d.visit.isBot])).toEqual([["Firefox", false], [expect.any(String), true], ["Safari", false]]);
  });

  test("a heartbeat comes about every 5 s while nothing happens", async () => {
    const stream = await liveStream(server.url, "?id=watched");
    expect(await stream.next("ready", 5_000)).not.toBeNull();
    const beat = await stream.next("heartbeat", 8_000); // HEARTBEAT_MS is 5 s
    expect(beat).not.toBeNull();
    expect(beat!.data.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(stream.all("visit")).toEqual([]);
  }, 15_000);

  test("an unknown id is 404; an empty id is 400; the stream of every link needs a key", async () => {
    const unknown = await liveStream(server.url, "?id=no-such-link");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, code: "not_found" });
    const empty = await liveStream(server.url, "?id=");
    expect(empty.status).toBe(400);
    const all = await liveStream(server.url);
    expect(all.status).toBe(401);
    expect(all.body).toMatchObject({ success: false, code: "auth_required" });
    const wrongKey = await liveStream(server.url, "", { authorization: "Bearer sk_wrong" });
    expect(wrongKey.status).toBe(401);
    const withKey = await liveStream(server.url, "", { authorization: `Bearer ${admin}` });
    expect(withKey.status).toBe(200);
    expect((await withKey.next("ready", 5_000))?.data).toEqual({});
  });

  test("ten streams from one address, the eleventh 429 too_many_streams; another address still opens; closing one lets another open", async () => {
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    const ten: Stream[] = [];
    for (let i = 0; i < 10; i++) {
      const s = await liveStream(server.url, "?id=bounded", from("203.0.113.10"));
      expect(s.status).toBe(200);
      ten.push(s);
    }
    const eleventh = await liveStream(server.url, "?id=bounded", from("203.0.113.10"));
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toMatchObject({ success: false, code: "too_many_streams" });
    expect(eleventh.headers.get("retry-after")).not.toBeNull();
    // The every-link stream counts against the same bound.
    expect((await liveStream(server.url, "", { authorization: `Bearer ${admin}`, ...from("203.0.113.10") })).status).toBe(429);
    expect((await liveStream(server.url, "?id=bounded", from("203.0.113.11"))).status).toBe(200);
    // The ten are all alive: a click reaches each.
    await clickAs(server.url, "bounded");
    for (const s of ten) expect(await s.next("visit", 5_000)).not.toBeNull();

    ten[0]!.close();
    // The server learns of the closed connection in its own time: try until it has.
    const again = await eventually(
      async () => {
        const s = await liveStream(server.url, "?id=bounded", from("203.0.113.10"));
        return s.status;
      },
      (status) => status === 200,
      10_000,
      100,
    );
    expect(again).toBe(200);
    expect((await liveStream(server.url, "?id=bounded", from("203.0.113.10"))).status).toBe(429);
  }, 30_000);
});

describe("--stats-access key", () => {
  let server: RunningServer;
  let admin: string;
  let teamA: string;
  let teamB: string;
  beforeAll(async () => {
    server = await startServer({ args: ["--stats-access", "key"] });
    admin = makeKey(server.dbPath, "admin");
    teamA = makeKey(server.dbPath, "a", "create");
    teamB = makeKey(server.dbPath, "b", "create");
    await madeLink(server.url, teamA, "a-link");
    await madeLink(server.url, teamB, "b-link");
  });
  afterAll(() => server.dispose());
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  test("a link's stream: 401 without a key, 404 for another key's link, 200 for its owner and for an admin", async () => {
    const none = await liveStream(server.url, "?id=a-link");
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false, code: "auth_required" });
    expect((await liveStream(server.url, "?id=no-such-link")).status).toBe(401); // existence not revealed
    const other = await liveStream(server.url, "?id=a-link", bearer(teamB));
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, code: "not_found" });
    const owner = await liveStream(server.url, "?id=a-link", bearer(teamA));
    expect(owner.status).toBe(200);
    expect((await owner.next("ready", 5_000))?.data).toEqual({ id: "a-link", domain: null, totalClicks: 0, humanClicks: 0 });
    const byAdmin = await liveStream(server.url, "?id=a-link", bearer(admin));
    expect(byAdmin.status).toBe(200);
    await clickAs(server.url, "a-link");
    expect((await owner.next("visit", 5_000))?.data.id).toBe("a-link");
    expect((await byAdmin.next("visit", 5_000))?.data.id).toBe("a-link");
  });

  test("the stream of every link: 401 without a key; a create key's counts only its own links' clicks, an admin's all", async () => {
    expect((await liveStream(server.url)).status).toBe(401);
    const mine = await liveStream(server.url, "", bearer(teamA));
    expect(mine.status).toBe(200);
    expect((await mine.next("ready", 5_000))?.data).toEqual({});
    const everything = await liveStream(server.url, "", bearer(admin));
    expect((await everything.next("ready", 5_000))?.data).toEqual({});
    const sum = (s: Stream, field: "clicks" | "humans") => s.all("clicks").reduce((n, e) => n + e.data[field], 0);

    // Another key's link first: the admin's stream sees them, A's must not.
    await clickAs(server.url, "b-link");
    await clickAs(server.url, "b-link");
    await clickAs(server.url, "b-link", UA.googlebot);
    await eventually(async () => sum(everything, "clicks"), (n) => n >= 3, 5_000, 20);
    expect(sum(everything, "clicks")).toBe(3);
    expect(sum(everything, "humans")).toBe(2);

    await clickAs(server.url, "a-link");
    const first = await mine.next("clicks", 5_000);
    expect(first?.data).toEqual({ clicks: 1, humans: 1 });
    await clickAs(server.url, "a-link", UA.googlebot);
    await eventually(async () => sum(mine, "clicks"), (n) => n >= 2, 5_000, 20);
    await eventually(async () => sum(everything, "clicks"), (n) => n >= 5, 5_000, 20);
    expect(sum(mine, "clicks")).toBe(2);
    expect(sum(mine, "humans")).toBe(1);
    expect(sum(everything, "clicks")).toBe(5);
    expect(sum(everything, "humans")).toBe(3);
    // No visit events on these streams: counts only.
    expect(mine.all("visit")).toEqual([]);
    expect(everything.all("visit")).toEqual([]);
  });

  test("a session cookie opens the stream as its key would", async () => {
    const signedIn = await api(server.url, null, "POST", "/api/session", { key: teamA });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    expect((await liveStream(server.url, "?id=a-link", { cookie })).status).toBe(200);
    expect((await liveStream(server.url, "?id=b-link", { cookie })).status).toBe(404);
    const all = await liveStream(server.url, "", { cookie });
    expect(all.status).toBe(200);
    expect((await all.next("ready", 5_000))?.data).toEqual({});
  });
});

describe.skipIf(!onPostgres)("two instances on one PostgreSQL", () => {
  let url: string;
  let a: RunningServer;
  let b: RunningServer;
  let admin: string;
  beforeAll(async () => {
    url = await (await sharedPostgres()).createDatabase();
    [a, b] = await Promise.all([startServer({ database: url }), startServer({ database: url })]);
    admin = makeKey(url, "admin");
    await madeLink(a.url, admin, "relayed");
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((s) => s.dispose()));
    if (url) await (await sharedPostgres()).dropDatabase(url);
  });

  /** Clicks on `on` until `arrived()` (a watch takes up to a poll to be known elsewhere); how many clicks it took and the last one's latency. */
  async function clickUntil(on: RunningServer, id: string, arrived: () => boolean, ua: string = UA.firefoxLinux): Promise<{ clicks: number; ms: number | null }> {
    const deadline = performance.now() + 15_000;
    let clicks = 0;
    while (performance.now() < deadline) {
      const at = performance.now();
      await clickAs(on.url, id, ua);
      clicks++;
      if (await eventually(async () => arrived(), (yes) => yes, 1_000, 20)) return { clicks, ms: performance.now() - at };
    }
    return { clicks, ms: null };
  }

  test("a viewer on B gets the visits of clicks A answered", async () => {
    const stream = await liveStream(b.url, "?id=relayed");
    expect(stream.status).toBe(200);
    expect((await stream.next("ready", 5_000))?.data).toEqual({ id: "relayed", domain: null, totalClicks: 0, humanClicks: 0 });
    const { clicks, ms } = await clickUntil(a, "relayed", () => stream.all("visit").length > 0);
    console.log(`PostgreSQL relay: the first visit from A reached B's viewer after ${clicks} click(s), ${ms === null ? "never" : `${Math.round(ms)} ms after the last`}`);
    const visit = stream.all("visit")[0];
    expect(visit).toBeDefined();
    expect(visit!.data.id).toBe("relayed");
    expect(Value.Check(RecentVisit, visit!.data.visit)).toBe(true);
    expect(visit!.data.visit).toMatchObject({ browser: "Firefox", os: "Linux", isBot: false });
    // Once A knows of the watch, each click of A's comes, once; and clicks B answers itself too.
    const byBrowser = (name: string) => stream.all("visit").filter((e) => e.data.visit.browser === name);
    const at = performance.now();
    await clickAs(a.url, "relayed", UA.safariIphone);
    await eventually(async () => byBrowser("Safari").length, (n) => n > 0, 5_000, 10);
    expect(byBrowser("Safari")).toHaveLength(1);
    console.log(`PostgreSQL relay: click on A → visit event on B: ${Math.round(byBrowser("Safari")[0]!.at - at)} ms`);
    await clickAs(b.url, "relayed", UA.chromeWindows);
    await eventually(async () => byBrowser("Chrome").length, (n) => n > 0, 5_000, 10);
    expect(byBrowser("Chrome")).toHaveLength(1);
    expect(byBrowser("Safari")).toHaveLength(1);
    expect(stream.all("visit").length).toBeLessThanOrEqual(clicks + 2); // none twice
  }, 30_000);

  test("an admin's every-link stream on B counts clicks A answered", async () => {
    const stream = await liveStream(b.url, "", { authorization: `Bearer ${admin}` });
    expect(stream.status).toBe(200);
    expect(await stream.next("ready", 5_000)).not.toBeNull();
    const { clicks, ms } = await clickUntil(a, "relayed", () => stream.all("clicks").length > 0);
    console.log(`PostgreSQL relay: the first clicks event from A reached B after ${clicks} click(s), ${ms === null ? "never" : `${Math.round(ms)} ms after the last`}`);
    expect(stream.all("clicks").length).toBeGreaterThan(0);
    // From then on every click A answers is counted on B, none twice.
    const sum = () => stream.all("clicks").reduce((n, e) => n + e.data.clicks, 0);
    const humans = () => stream.all("clicks").reduce((n, e) => n + e.data.humans, 0);
    const before = sum();
    await clickAs(a.url, "relayed", UA.firefoxLinux);
    await clickAs(a.url, "relayed", UA.safariIphone);
    await clickAs(a.url, "relayed", UA.googlebot);
    await eventually(async () => sum(), (n) => n >= before + 3, 5_000, 20);
    expect(sum()).toBeGreaterThanOrEqual(before + 3);
    expect(sum()).toBeLessThanOrEqual(clicks + 3);
    expect(humans()).toBeLessThanOrEqual(clicks + 2);
    expect(sum() - humans()).toBeGreaterThanOrEqual(1); // the bot's click: a click, not a human one
  }, 30_000);

  test("a password set on A ends an anonymous viewer's stream on B (docs/security.md: Security), to be opened again under the new rules", async () => {
    await madeLink(a.url, admin, "locked-later");
    const stream = await liveStream(b.url, "?id=locked-later");
    expect(await stream.next("ready", 5_000)).not.toBeNull();
    expect((await api(a.url, admin, "PATCH", "/api/links/locked-later", { password: "set on A" })).status).toBe(200);
    expect(await eventually(async () => stream.ended(), (ended) => ended, 10_000, 20)).toBe(true);
  }, 30_000);
});
