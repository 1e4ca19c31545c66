// Statistics above the single link against the real service on either engine (docs/statistics.md:
// Tags and domains, Comparing, The previous period): a tag's and a domain's answer equal the sum of
// their links' /api/stats, with and without bots; a comparison's series are the links' own figures;
// a key is needed, and another owner's tag is not found.

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { api, makeKey } from "../support/admin.ts";
import { UA, drained } from "../support/clicks.ts";
import { startServer, type RunningServer } from "../support/server.ts";

setDefaultTimeout(60_000);
let server: RunningServer;
let alice: string;
let bob: string;

async function click(alias: string, ua: string): Promise<void> {
  const res = await fetch(`${server.url}/${alias}`, { redirect: "manual", headers: { "User-Agent": ua } });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`click on ${alias} answered ${res.status}`);
}

beforeAll(async () => {
  server = await startServer({ args: ["--base-url", "https://sho.rt"] });
  alice = makeKey(server.dbPath, "alice", "create");
  bob = makeKey(server.dbPath, "bob", "create");
  for (const [key, alias, tags] of [[alice, "tag-one", ["promo"]], [alice, "tag-two", ["promo"]], [alice, "untagged", []], [bob, "bobs", ["promo", "bobs-own"]]] as const) {
    const made = await api(server.url, key, "POST", "/api/create", { url: `https://example.org/${alias}`, custom_url: alias, tags });
    if (made.status !== 201) throw new Error(`create ${alias}: ${made.status} ${JSON.stringify(made.body)}`);
  }
  for (const [alias, people, bots] of [["tag-one", 3, 1], ["tag-two", 2, 2], ["untagged", 1, 0], ["bobs", 4, 0]] as const) {
    for (let i = 0; i < people; i++) await click(alias, UA.firefoxLinux);
    for (let i = 0; i < bots; i++) await click(alias, UA.googlebot);
  }
  await drained(server.url);
});

afterAll(async () => {
  await server?.dispose();
});

const headline = (s: any) => ({ totalClicks: s.totalClicks, humanClicks: s.humanClicks, uniqueVisitors: s.uniqueVisitors, previous: s.previous.totalClicks });

test("a tag's and a domain's statistics are the sum of their links' (bots in and out)", async () => {
  for (const bots of ["", "&bots=exclude"]) {
    const own = await Promise.all(["tag-one", "tag-two", "untagged"].map(async (id) => (await api(server.url, alice, "GET", `/api/stats?id=${id}${bots}`)).body.data.stats));
    const sum = (list: any[]) => ({
      totalClicks: list.reduce((n, s) => n + s.totalClicks, 0), humanClicks: list.reduce((n, s) => n + s.humanClicks, 0),
      uniqueVisitors: list.reduce((n, s) => n + s.uniqueVisitors, 0), previous: list.reduce((n, s) => n + s.previous.totalClicks, 0),
    });
    const tag = await api(server.url, alice, "GET", `/api/stats/tag?tag=promo${bots}`);
    expect(tag.status).toBe(200);
    expect({ links: tag.body.data.links, ...headline(tag.body.data.stats) }).toEqual({ links: 2, ...sum(own.slice(0, 2)) });
    expect(tag.body.data.stats.totalClicks).toBe(bots ? 5 : 8);
    const domain = await api(server.url, alice, "GET", `/api/stats/domain?domain=sho.rt${bots}`);
    expect({ links: domain.body.data.links, ...headline(domain.body.data.stats) }).toEqual({ links: 3, ...sum(own) });
  }
});

test("a comparison of two links: each series is that link's own figures", async () => {
  const compare = await api(server.url, alice, "GET", "/api/stats/compare?ids=tag-one,tag-two");
  expect(compare.status).toBe(200);
  const own = await Promise.all(["tag-one", "tag-two"].map(async (id) => (await api(server.url, alice, "GET", `/api/stats?id=${id}`)).body.data.stats));
  expect(compare.body.data.series.map(headline)).toEqual(own.map(headline));
  expect(compare.body.data.series.map((s: any) => s.name)).toEqual(["tag-one", "tag-two"]);
});

test("a key is needed; another owner's links are not summed, their tag not found", async () => {
  const anonymous = await api(server.url, null, "GET", "/api/stats/tag?tag=promo");
  expect({ status: anonymous.status, code: anonymous.body.code }).toEqual({ status: 401, code: "auth_required" });
  expect((await api(server.url, alice, "GET", "/api/stats/tag?tag=bobs-own")).status).toBe(404);
  const bobs = await api(server.url, bob, "GET", "/api/stats/tag?tag=promo");
  expect({ links: bobs.body.data.links, clicks: bobs.body.data.stats.totalClicks }).toEqual({ links: 1, clicks: 4 });
});

test("a tag's or domain's page whose name the router cannot decode is the 404 page, not a page about \"null\"", async () => {
  const missing = await fetch(`${server.url}/no/such/page`);
  const notFound = await missing.text();
  expect(missing.status).toBe(404);
  for (const path of ["/en/stats/tag/%ZZ", "/en/stats/domain/%ZZ", "/de/stats/tag/%C0%AF"]) {
    const page = await fetch(`${server.url}${path}`);
    const text = await page.text();
    expect([path, page.status]).toEqual([path, 404]);
    expect(text).toBe(notFound);
  }
});
