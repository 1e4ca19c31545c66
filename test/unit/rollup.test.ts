// Summing a batch of visits into rollup rows.

import { expect, test } from "bun:test";
import { FIRST_IN_DAY, FIRST_IN_HOUR, summarize } from "../../src/visits/rollup.ts";
import type { Visit } from "../../src/visits/visit.ts";

const DAY1 = Date.parse("2026-11-21T23:59:59.000Z");
const DAY2 = Date.parse("2026-11-22T00:00:01.000Z");
const visit = (o: Partial<Visit>): Visit => ({
  linkSeq: 1, linkId: "a", ts: DAY1, browser: "Chrome", os: "Windows", device: "desktop", country: "DE", referrer: "Direct",
  utmSource: null, utmMedium: null, utmCampaign: null, isBot: false, visitor: null, ...o,
});

test("per link and UTC day: totals, bots, every dimension value, UTM only when present", () => {
  const r = summarize([
    visit({}),
    visit({ isBot: true, browser: "Firefox" }),
    visit({ ts: DAY2, utmSource: "news" }),
    visit({ linkSeq: 2, linkId: "b", utmCampaign: "x", isBot: true }),
  ]);
  // Without first-visit flags every visit counts as a new visitor.
  expect(r.daily).toEqual([
    { linkSeq: 1, day: "2026-11-21", total: 2, bots: 1, uniques: 2, uniqueBots: 1 },
    { linkSeq: 1, day: "2026-11-22", total: 1, bots: 0, uniques: 1, uniqueBots: 0 },
    { linkSeq: 2, day: "2026-11-21", total: 1, bots: 1, uniques: 1, uniqueBots: 1 },
  ]);
  expect(r.hourly).toEqual([
    { linkSeq: 1, hour: "2026-11-21T23", total: 2, bots: 1, uniques: 2, uniqueBots: 1 },
    { linkSeq: 1, hour: "2026-11-22T00", total: 1, bots: 0, uniques: 1, uniqueBots: 0 },
    { linkSeq: 2, hour: "2026-11-21T23", total: 1, bots: 1, uniques: 1, uniqueBots: 1 },
  ]);
  expect(r.dimensions.filter((d) => d.linkSeq === 1 && d.day === "2026-11-21" && d.dimension === "browser")).toEqual([
    { linkSeq: 1, dimension: "browser", day: "2026-11-21", name: "Chrome", total: 1, bots: 0 },
    { linkSeq: 1, dimension: "browser", day: "2026-11-21", name: "Firefox", total: 1, bots: 1 },
  ]);
  expect(r.dimensions).toHaveLength(5 + 1 + 5 + 5); // link a day 1 (Chrome+Firefox share the rest), day 2, link b
  expect(r.utm).toEqual([
    { linkSeq: 1, day: "2026-11-22", source: "news", medium: "", campaign: "", total: 1, bots: 0 },
    { linkSeq: 2, day: "2026-11-21", source: "", medium: "", campaign: "x", total: 1, bots: 1 },
  ]);
});

test("the sums over all rows equal the batch", () => {
  const batch = Array.from({ length: 1000 }, (_, i) => visit({ linkSeq: i % 7, linkId: `l${i % 7}`, country: `C${i % 13}`, isBot: i % 4 === 0, ts: i % 2 ? DAY1 : DAY2 }));
  const r = summarize(batch);
  expect(r.daily.reduce((n, d) => n + d.total, 0)).toBe(1000);
  expect(r.daily.reduce((n, d) => n + d.bots, 0)).toBe(250);
  const countries = r.dimensions.filter((d) => d.dimension === "country");
  expect(countries.reduce((n, d) => n + d.total, 0)).toBe(1000);
});

test("uniques count only the visits flagged first in their day or hour", () => {
  const H = 3_600_000;
  const batch = [visit({}), visit({ ts: DAY1 - H }), visit({ ts: DAY1 - H, isBot: true }), visit({ ts: DAY1 - 2 * H })];
  const firsts = Uint8Array.from([FIRST_IN_DAY | FIRST_IN_HOUR, FIRST_IN_HOUR, FIRST_IN_DAY | FIRST_IN_HOUR, 0]);
  const r = summarize(batch, firsts);
  expect(r.daily).toEqual([{ linkSeq: 1, day: "2026-11-21", total: 4, bots: 1, uniques: 2, uniqueBots: 1 }]);
  expect(r.hourly.map((h) => [h.hour, h.total, h.uniques, h.uniqueBots])).toEqual([
    ["2026-11-21T23", 1, 1, 0],
    ["2026-11-21T22", 2, 2, 1],
    ["2026-11-21T21", 1, 0, 0],
  ]);
});
