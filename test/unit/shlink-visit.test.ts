// A page's visits as JSON text (src/http/compat/shlink/shlink-visit.ts visitsJson) is the same as
// each visit built as Shlink's Visit (shlinkVisit; Shlink docs/swagger/definitions/Visit.json),
// whatever repeats: the text is put together from parts remembered per kind of visit.

import { expect, test } from "bun:test";
import { shlinkVisit, visitsJson } from "../../src/http/compat/shlink/shlink-visit.ts";
import type { StoredVisit } from "../../src/visits/visit-batch.ts";

test("visitsJson equals the visits built one by one, dates and all", () => {
  const kinds: StoredVisit[] = [
    [0, "Chrome", "Windows", "desktop", "DE", "t.co", null, null, null, 0],
    [0, "Googlebot", "Unknown", "desktop", "Unknown", "Direct", null, null, null, 1],
    [0, "Safari", "iOS", "mobile", "FR", "news.example", "a", "b", "c", 0, "rule", "b"],
    [0, "Firefox", "Linux", "desktop", "ZZ", 'we"ird\\host', null, null, null, 0],
  ];
  const rows = Array.from({ length: 40 }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    const visit = [1_764_000_000_000 - i * 700, ...kind.slice(1)] as StoredVisit;
    return { visit, shortUrl: i % 3 === 0 ? "https://s.test/a" : "https://go.example/b" };
  });
  expect(JSON.parse(visitsJson(rows))).toEqual(rows.map((r) => shlinkVisit(r.visit, r.shortUrl)));
  expect(visitsJson([])).toBe("[]");
});
