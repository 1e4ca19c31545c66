// A password-protected link's statistics for someone who may not see where it leads
// (src/stats/hidden-destinations.ts): variants named by their place, never by URL.

import { expect, test } from "bun:test";
import { REMOVED_VARIANT, statsWithoutDestinations, variantLabels } from "../../src/stats/hidden-destinations.ts";
import type { LinkStats } from "../../src/api/types.ts";

const link = {
  variants: [{ url: "https://a.example/", weight: 1 }, { url: "https://b.example/", weight: 3 }],
  rules: [
    { conditions: [{ type: "device" as const, value: "mobile" as const }], url: "https://m.example/" },
    { conditions: [{ type: "country" as const, value: "DE" }], variants: [{ url: "https://de-1.example/", weight: 1 }, { url: "https://b.example/", weight: 1 }] },
  ],
};

test("a variant is named by its place: the link's own split, then a rule's; a URL in both by its first", () => {
  const label = variantLabels(link);
  expect(label("https://a.example/")).toBe("variant 1");
  expect(label("https://b.example/")).toBe("variant 2");
  expect(label("https://de-1.example/")).toBe("rule 2, variant 1");
  expect(label("https://gone.example/")).toBe(REMOVED_VARIANT);
  expect(variantLabels({ variants: null, rules: null })("https://a.example/")).toBe(REMOVED_VARIANT);
});

test("the statistics keep every count; removed variants' counts are one entry; the visits name variants alike", () => {
  const visit = { timestamp: "2026-11-28T00:00:00.000Z", browser: "Firefox", os: "Linux", device: "desktop", country: "DE", referrer: "Direct", isBot: false };
  const stats = {
    totalClicks: 9,
    recentVisits: [{ ...visit, rule: "default", variant: "https://a.example/" }, { ...visit, rule: "rule 1" }, { ...visit, rule: "default", variant: "https://old.example/" }],
    variantStats: [{ name: "https://old-1.example/", count: 2 }, { name: "https://a.example/", count: 3 }, { name: "https://old-2.example/", count: 2 }],
    ruleStats: [{ name: "default", count: 7 }, { name: "rule 1", count: 2 }],
  } as unknown as LinkStats;
  const shown = statsWithoutDestinations(stats, variantLabels(link));
  expect(shown.variantStats).toEqual([{ name: REMOVED_VARIANT, count: 4 }, { name: "variant 1", count: 3 }]);
  expect(shown.recentVisits.map((v) => v.variant)).toEqual(["variant 1", undefined, REMOVED_VARIANT]);
  expect(shown.ruleStats).toBe(stats.ruleStats);
  expect(shown.totalClicks).toBe(9);
  expect(JSON.stringify(shown)).not.toContain("example");
  // The statistics given are not changed (the owner's copy, were it cached, stays whole).
  expect(stats.variantStats[0]).toEqual({ name: "https://old-1.example/", count: 2 });
});
