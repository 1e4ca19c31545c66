// A tag's statistics read for the whole set of its links at once (docs/statistics.md: Tags and
// domains), on both engines: a breakdown is exact over the set (a value below every link's own top
// list but the largest over them all is listed first), and a tag of a few hundred links sums its
// clicks, days, browsers, visitors and newest visits exactly.

import { expect, test } from "bun:test";
import type { Principal } from "../../src/auth/policy.ts";
import { DomainDirectory } from "../../src/domains/directory.ts";
import type { Link } from "../../src/links/link.ts";
import { readAggregateStats, type AggregateDeps } from "../../src/ops/stats/aggregate.ts";
import { MAX_BREAKDOWN_ENTRIES, type StatsFilter } from "../../src/stats/link-stats.ts";
import { MAX_VALUES_PER_DAY } from "../../src/visits/other.ts";
import type { OpenedEngine } from "../support/engines.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";

const DAY = 86_400_000;
const EVERY_DAY: StatsFilter = { from: null, to: null, excludeBots: false };

async function deps(db: OpenedEngine): Promise<AggregateDeps> {
  const directory = new DomainDirectory(null, () => db.storage.domains.settings());
  await directory.reload(NOW);
  return { lister: db.storage.lister, links: db.storage.links, stats: db.storage.stats, directory, now: () => NOW };
}

async function owner(db: OpenedEngine): Promise<Principal> {
  const { record } = await db.storage.keys.create("alice", "create", NOW);
  return { keyId: record.id, user: null, name: "alice", scope: "create", via: "key" };
}

async function tagStats(db: OpenedEngine, actor: Principal, tag: string, filter: StatsFilter) {
  const read = await readAggregateStats(actor, { tag }, filter, await deps(db));
  if (!read.ok) throw new Error(read.problem.message);
  return read.value;
}

forEachEngine("aggregate stats over a set", (db) => {
  test("a referrer below every link's top list but the largest over the tag is listed first, with its exact count", async () => {
    const alice = await owner(db());
    const links: Link[] = [];
    for (const alias of ["a", "b", "c"]) links.push(await db().storage.links.create({ url: "https://example.com/", alias, ownerKeyId: alice.keyId, tags: ["wide"] }, NOW - 5 * DAY));
    // Each link: 120 referrers of its own, two clicks each, over two days (a day keeps at most
    // MAX_VALUES_PER_DAY), and one click from shared.example: on each link alone it is 121st, past
    // the list's MAX_BREAKDOWN_ENTRIES; over the three it is the only value with three.
    const perDay = 60;
    expect(perDay + 1).toBeLessThanOrEqual(MAX_VALUES_PER_DAY);
    expect(2 * perDay).toBeGreaterThan(MAX_BREAKDOWN_ENTRIES);
    for (const link of links) {
      for (let day = 0; day < 2; day++) {
        for (let k = 0; k < perDay; k++) {
          for (let n = 0; n < 2; n++) db().writer.record(visit(link, { ts: NOW - day * DAY - k * 1000 - n, referrer: `r${day}-${k}.${link.id}.example` }));
        }
      }
      db().writer.record(visit(link, { ts: NOW - 10, referrer: "shared.example" }));
    }
    await db().writer.flush();
    const own = await db().storage.stats.read(links[0]!, EVERY_DAY, NOW);
    expect(own.referrerStats.some((r) => r.name === "shared.example")).toBe(false); // one link alone: in its Other
    const { stats } = await tagStats(db(), alice, "wide", EVERY_DAY);
    expect(stats.referrerStats[0]).toEqual({ name: "shared.example", count: 3 });
    expect(stats.referrerStats.filter((r) => !r.other)).toHaveLength(MAX_BREAKDOWN_ENTRIES);
    expect(stats.referrerStats.reduce((n, r) => n + r.count, 0)).toBe(3 * (4 * perDay + 1));
  });

  test("a tag of 300 links: clicks, days, browsers, visitors and the newest visits summed exactly", async () => {
    const alice = await owner(db());
    const browsers = ["Firefox", "Safari", "Chrome"];
    const expected = { total: 0, bots: 0, byDay: new Map<string, number>(), byBrowser: new Map<string, number>(), stamps: [] as number[] };
    const tagged: Link[] = [];
    const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    const links = 300;
    for (let i = 0; i < links; i++) {
      const link = await db().storage.links.create({ url: "https://example.com/", alias: `bulk${i}`, ownerKeyId: alice.keyId, tags: ["bulk"] }, NOW - 9 * DAY);
      tagged.push(link);
      const day = i % 3;
      // The same person (visitor 7) on every link: a visitor on each, all of them added up over the tag.
      for (let k = 0; k <= i % 4; k++) {
        const ts = NOW - day * DAY - i * 1000 - k;
        db().writer.record(visit(link, { ts, browser: browsers[i % 3]!, visitor: 7 }));
        expected.total++;
        count(expected.byDay, new Date(ts).toISOString().slice(0, 10));
        count(expected.byBrowser, browsers[i % 3]!);
        expected.stamps.push(ts);
      }
      if (i % 5 === 0) {
        const ts = NOW - day * DAY - i * 1000 - 500;
        db().writer.record(visit(link, { ts, browser: "Googlebot", isBot: true, visitor: 8 }));
        expected.total++;
        expected.bots++;
        count(expected.byDay, new Date(ts).toISOString().slice(0, 10));
        count(expected.byBrowser, "Googlebot");
        expected.stamps.push(ts);
      }
    }
    const untagged = await db().storage.links.create({ url: "https://example.com/", alias: "apart", ownerKeyId: alice.keyId, tags: [] }, NOW - 9 * DAY);
    db().writer.record(visit(untagged, { ts: NOW - 1 }));
    await db().writer.flush();

    const all = await tagStats(db(), alice, "bulk", EVERY_DAY);
    expect(all.links).toBe(links);
    const s = all.stats;
    // Unique visitors are each link's own added up (docs/statistics.md: Tags and domains).
    const uniques = async (filter: StatsFilter) => {
      let n = 0;
      for (const link of tagged) n += (await db().storage.stats.read(link, filter, NOW)).uniqueVisitors ?? 0;
      return n;
    };
    const perLink = await uniques(EVERY_DAY);
    expect(perLink).toBeGreaterThanOrEqual(links);
    expect({ total: s.totalClicks, humans: s.humanClicks, uniques: s.uniqueVisitors }).toEqual({ total: expected.total, humans: expected.total - expected.bots, uniques: perLink });
    expect(Object.fromEntries(s.visitsByDate.filter((d) => d.count > 0).map((d) => [d.date, d.count]))).toEqual(Object.fromEntries(expected.byDay));
    expect(Object.fromEntries(s.browserStats.map((b) => [b.name, b.count]))).toEqual(Object.fromEntries(expected.byBrowser));
    expect(s.recentVisits.map((v) => Date.parse(v.timestamp))).toEqual(expected.stamps.sort((a, b) => b - a).slice(0, s.recentVisits.length));
    expect(s.recentVisits.length).toBe(50);

    const humans = (await tagStats(db(), alice, "bulk", { ...EVERY_DAY, excludeBots: true })).stats;
    expect({ total: humans.totalClicks, uniques: humans.uniqueVisitors, bots: humans.browserStats.find((b) => b.name === "Googlebot") })
      .toEqual({ total: expected.total - expected.bots, uniques: await uniques({ ...EVERY_DAY, excludeBots: true }), bots: undefined });
    expect(humans.recentVisits.every((v) => !v.isBot)).toBe(true);
  });
});
