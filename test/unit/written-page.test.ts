// A page of raw visits written on SQLite's reader thread (src/threads/reader/written-page.ts) is the
// text the surface would write from the rows (shlink-visit-json.ts visitsJson, each link's short URL
// its domain's base and its alias), sent without its rows; a link whose domain has no base is left
// for the surface to write (docs/performance.md: Downloading a link's visits).

import { expect, test } from "bun:test";
import { visitsJson } from "../../src/http/compat/shlink/shlink-visit-json.ts";
import type { VisitPage } from "../../src/stats/visit-pages.ts";
import { writtenPage } from "../../src/threads/reader/written-page.ts";

const page: VisitPage = {
  total: 7,
  visits: [
    { linkSeq: 2, visit: [1_764_000_002_000, "Chrome", "Windows", "desktop", "DE", "t.co", null, null, null, 0] },
    { linkSeq: 1, visit: [1_764_000_001_000, "Safari", "iOS", "mobile", "Unknown", "Direct", null, null, null, 1] },
  ],
  links: [
    { seq: 1, alias: "a", domain: "" },
    { seq: 2, alias: "b", domain: "go.example" },
  ],
};
const bases = { "": "http://127.0.0.1:8080", "go.example": "https://go.example" };

test("the page is written as the surface writes it, its rows left out", () => {
  const written = writtenPage(page, { shlink: { bases } });
  expect(written).toEqual({ total: 7, visits: [], links: [], written: { bytes: expect.any(Uint8Array), count: 2 } });
  const text = new TextDecoder().decode(written.written!.bytes);
  expect(text).toBe(
    visitsJson([
      { visit: page.visits[0]!.visit, shortUrl: "https://go.example/b" },
      { visit: page.visits[1]!.visit, shortUrl: "http://127.0.0.1:8080/a" },
    ]),
  );
  expect(JSON.parse(text).map((v: { visitedUrl: string }) => v.visitedUrl)).toEqual(["https://go.example/b", "http://127.0.0.1:8080/a"]);
});

test("nothing asked, or a domain without a base (added meanwhile): the rows as read", () => {
  expect(writtenPage(page, null)).toBe(page);
  expect(writtenPage(page, { shlink: { bases: { "": "http://127.0.0.1:8080" } } })).toBe(page);
  // An inherited name is no base either.
  expect(writtenPage({ ...page, links: [{ seq: 1, alias: "a", domain: "constructor" }] }, { shlink: { bases: {} } }).written).toBeUndefined();
});
