// Statistics above the single link (docs/statistics.md: Tags and domains, The previous period) on
// both engines: a tag's and a domain's figures are the sum of their links' own, with the bots filter
// and a date range; a comparison lines its series up on one range; the previous period's figures on
// known data. Read through the real ports (the engine's StatsSource and LinkLister).

import { expect, test } from "bun:test";
import type { Principal } from "../../src/auth/policy.ts";
import { DomainDirectory } from "../../src/domains/directory.ts";
import { DEFAULT_SETTINGS } from "../../src/domains/domain.ts";
import type { Link } from "../../src/links/link.ts";
import { compareStats, readAggregateStats, type AggregateDeps } from "../../src/ops/stats/aggregate.ts";
import type { LinkStats, StatsFilter } from "../../src/stats/link-stats.ts";
import type { OpenedEngine } from "../support/engines.ts";
import { forEachEngine, NOW, visit } from "../support/contract-suite.ts";

const DAY = 86_400_000;
const FILTERS: StatsFilter[] = [
  { from: null, to: null, excludeBots: false },
  { from: null, to: null, excludeBots: true },
  { from: "2026-11-20", to: "2026-11-22", excludeBots: false },
  { from: "2026-11-21", to: "2026-11-23", excludeBots: true },
];

async function deps(db: OpenedEngine): Promise<AggregateDeps> {
  const directory = new DomainDirectory(null, () => db.storage.domains.settings());
  await directory.reload(NOW);
  return { lister: db.storage.lister, links: db.storage.links, stats: db.storage.stats, directory, now: () => NOW };
}

async function principal(db: OpenedEngine, name: string, scope: "create" | "admin"): Promise<Principal> {
  const { record } = await db.storage.keys.create(name, scope, NOW);
  return { keyId: record.id, user: null, name, scope, via: "key" };
}

/** Three links of alice's (two tagged promo, one on another domain) and one of bob's tagged promo, with clicks over five days. */
async function seed(db: OpenedEngine) {
  const alice = await principal(db, "alice", "create");
  const bob = await principal(db, "bob", "create");
  await db.storage.domains.add({ ...DEFAULT_SETTINGS, name: "go.example", isDefault: false, createdAt: NOW });
  const make = (alias: string, owner: Principal, tags: string[], createdAgo: number, domain = "") =>
    db.storage.links.create({ url: "https://example.com/", alias, ownerKeyId: owner.keyId, tags, domain }, NOW - createdAgo * DAY);
  const links = {
    a: await make("a", alice, ["promo"], 9),
    b: await make("b", alice, ["promo", "mail"], 4),
    c: await make("c", alice, ["mail"], 6, "go.example"),
    theirs: await make("theirs", bob, ["promo"], 9),
  };
  const w = db.writer;
  const clicks: [Link, number, Partial<Parameters<typeof visit>[1]>][] = [
    [links.a, 8, { browser: "Firefox" }], [links.a, 3, { browser: "Firefox" }], [links.a, 2, { browser: "Googlebot", isBot: true }],
    [links.a, 1, { country: "FR" }], [links.a, 0, { utmSource: "mail" }],
    [links.b, 3, { browser: "Safari" }], [links.b, 2, { browser: "Firefox" }], [links.b, 1, { browser: "Googlebot", isBot: true }],
    [links.b, 0, { utmSource: "mail", utmCampaign: "x" }],
    [links.c, 5, {}], [links.c, 1, { isBot: true }],
    [links.theirs, 1, {}], [links.theirs, 0, {}],
  ];
  for (const [link, ago, o] of clicks) w.record(visit(link, { ts: NOW - ago * DAY - 60_000, ...o }));
  await w.flush();
  return { alice, bob, links };
}

/** Figures of several links' stats added up by hand, as a reader would from each link's page. */
function summed(each: LinkStats[]) {
  const byDate = new Map<string, number>();
  const byBrowser = new Map<string, number>();
  for (const s of each) {
    for (const d of s.visitsByDate) byDate.set(d.date, (byDate.get(d.date) ?? 0) + d.count);
    for (const b of s.browserStats) byBrowser.set(b.name, (byBrowser.get(b.name) ?? 0) + b.count);
  }
  const add = (pick: (s: LinkStats) => number) => each.reduce((n, s) => n + pick(s), 0);
  return {
    totalClicks: add((s) => s.totalClicks), humanClicks: add((s) => s.humanClicks), uniqueVisitors: add((s) => s.uniqueVisitors ?? 0),
    previousClicks: add((s) => s.previous.totalClicks), previousUniques: add((s) => s.previous.uniqueVisitors ?? 0),
    days: [...byDate].filter(([, n]) => n > 0).sort(), browsers: Object.fromEntries(byBrowser),
  };
}

function figures(s: LinkStats) {
  return {
    totalClicks: s.totalClicks, humanClicks: s.humanClicks, uniqueVisitors: s.uniqueVisitors ?? 0,
    previousClicks: s.previous.totalClicks, previousUniques: s.previous.uniqueVisitors ?? 0,
    days: s.visitsByDate.filter((d) => d.count > 0).map((d) => [d.date, d.count] as [string, number]), browsers: Object.fromEntries(s.browserStats.map((b) => [b.name, b.count])),
  };
}

forEachEngine("aggregate stats", (db) => {
  test("a tag's and a domain's stats equal the sum of their links' stats, with the bots filter and a date range", async () => {
    const { alice, links } = await seed(db());
    for (const filter of FILTERS) {
      const tag = await readAggregateStats(alice, { tag: "promo" }, filter, await deps(db()));
      if (!tag.ok) throw new Error(tag.problem.message);
      const own = [await db().storage.stats.read(links.a, filter, NOW), await db().storage.stats.read(links.b, filter, NOW)];
      expect({ links: tag.value.links, ...figures(tag.value.stats) }).toEqual({ links: 2, ...summed(own) });
      expect(tag.value.stats.totalClicks).toBeGreaterThan(0);
      const mail = await readAggregateStats(alice, { tag: "mail" }, filter, await deps(db()));
      if (!mail.ok) throw new Error(mail.problem.message);
      const mailOwn = [await db().storage.stats.read(links.b, filter, NOW), await db().storage.stats.read(links.c, filter, NOW)];
      expect(figures(mail.value.stats)).toEqual(summed(mailOwn));
      const domain = await readAggregateStats(alice, { domain: "go.example" }, filter, await deps(db()));
      if (!domain.ok) throw new Error(domain.problem.message);
      expect({ links: domain.value.links, ...figures(domain.value.stats) }).toEqual({ links: 1, ...figures(await db().storage.stats.read(links.c, filter, NOW)) });
    }
  });

  test("known data: the tag's figures, its previous period and its recent visits newest first", async () => {
    const { alice } = await seed(db());
    const tag = await readAggregateStats(alice, { tag: "promo" }, { from: "2026-11-21", to: "2026-11-23", excludeBots: false }, await deps(db()));
    if (!tag.ok) throw new Error(tag.problem.message);
    const s = tag.value.stats;
    // 11-21..23: a: a bot, 1, 1; b: 1, a bot, 1 => 6 clicks, 2 bots; previous 11-18..20: a: 1, b: 1.
    expect({ total: s.totalClicks, humans: s.humanClicks, bots: s.botPercentage }).toEqual({ total: 6, humans: 4, bots: 33.33 });
    expect(s.previous).toEqual({ from: "2026-11-18", to: "2026-11-20", totalClicks: 2, uniqueVisitors: 2, humanClicks: 2, botPercentage: 0 });
    expect(s.recentVisits.map((v) => v.timestamp)).toEqual([...s.recentVisits.map((v) => v.timestamp)].sort().reverse());
    expect(s.recentVisits).toHaveLength(6);
  });

  test("only the caller's links count; a tag none of theirs carries is not found; an admin sums everyone's", async () => {
    const { alice, bob } = await seed(db());
    const all = { from: null, to: null, excludeBots: false };
    const bobs = await readAggregateStats(bob, { tag: "promo" }, all, await deps(db()));
    expect(bobs.ok && { links: bobs.value.links, clicks: bobs.value.stats.totalClicks }).toEqual({ links: 1, clicks: 2 });
    const none = await readAggregateStats(bob, { tag: "mail" }, all, await deps(db()));
    expect(!none.ok && none.problem.code).toBe("not_found");
    const admin = await readAggregateStats(await principal(db(), "root", "admin"), { tag: "promo" }, all, await deps(db()));
    const alices = await readAggregateStats(alice, { tag: "promo" }, all, await deps(db()));
    expect(admin.ok && alices.ok && [admin.value.links, admin.value.stats.totalClicks]).toEqual([3, (alices.ok ? alices.value.stats.totalClicks : 0) + 2]);
    const unknownDomain = await readAggregateStats(alice, { domain: "nowhere.example" }, all, await deps(db()));
    expect(!unknownDomain.ok && unknownDomain.problem.code).toBe("domain_unknown");
  });

  test("a comparison: one series a link, on the same days, each one's figures its own; another's link is not found", async () => {
    const { alice, links } = await seed(db());
    const filter = { from: null, to: null, excludeBots: true };
    const read = await compareStats(alice, { kind: "link", names: ["a", "b"], domain: null }, filter, await deps(db()));
    if (!read.ok) throw new Error(read.problem.message);
    const [a, b] = read.value;
    expect(a!.visitsByDate.map((d) => d.date)).toEqual(b!.visitsByDate.map((d) => d.date));
    expect(a!.visitsByDate[0]!.date).toBe("2026-11-14"); // a's creation, the older of the two
    expect([a!.totalClicks, b!.totalClicks]).toEqual([(await db().storage.stats.read(links.a, filter, NOW)).totalClicks, 3]);
    const tags = await compareStats(alice, { kind: "tag", names: ["promo", "mail"], domain: null }, filter, await deps(db()));
    expect(tags.ok && tags.value.map((s) => [s.name, s.totalClicks])).toEqual([["promo", 7], ["mail", 4]]);
    const theirs = await compareStats(alice, { kind: "link", names: ["a", "theirs"], domain: null }, filter, await deps(db()));
    expect(!theirs.ok && theirs.problem.code).toBe("not_found");
    const one = await compareStats(alice, { kind: "link", names: ["a", "a"], domain: null }, filter, await deps(db()));
    expect(!one.ok && one.problem.code).toBe("bad_request");
  });
});
