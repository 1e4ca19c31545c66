// Building a Visit from a click: referrer host, UTM, query merging.

import { describe, expect, test } from "bun:test";
import { buildVisit, referrerHost, utmParameters } from "../../src/visits/visitor.ts";
import { withClickQuery } from "../../src/http/redirect.ts";

describe("referrer host", () => {
  test.each([
    [null, "Direct"],
    ["", "Direct"],
    ["https://www.Google.com/search?q=x", "google.com"],
    ["https://news.ycombinator.com/item?id=1", "news.ycombinator.com"],
    ["android-app://com.google.android.gm/", "com.google.android.gm"],
    ["not a url", "Unknown"],
    ["https://" + "a".repeat(300) + ".com/", "Unknown"],
  ])("%p → %p", (referer, host) => {
    expect(referrerHost(referer)).toBe(host);
  });
});

describe("UTM parameters", () => {
  test("all three, absent ones null, empty ones null, long ones trimmed", () => {
    expect(utmParameters("https://x.y/?utm_source=a&utm_medium=b&utm_campaign=c")).toEqual({ source: "a", medium: "b", campaign: "c" });
    expect(utmParameters("https://x.y/?utm_source=a&utm_medium=")).toEqual({ source: "a", medium: null, campaign: null });
    expect(utmParameters("https://x.y/?q=1#utm_source=frag")).toEqual({ source: null, medium: null, campaign: null });
    expect(utmParameters(`https://x.y/?utm_campaign=${"c".repeat(500)}`).campaign).toHaveLength(100);
    // Control characters (NUL included, which PostgreSQL's text refuses) are left out.
    expect(utmParameters("https://x.y/?utm_source=a%00b%0Ac&utm_medium=%00%7F")).toEqual({ source: "abc", medium: null, campaign: null });
    expect(utmParameters("https://x.y/?utm_source=%3Cb%3E")).toEqual({ source: "<b>", medium: null, campaign: null });
  });
});

describe("query merging", () => {
  test.each([
    ["https://a.b/p", "http://s/x", "https://a.b/p"],
    ["https://a.b/p", "http://s/x?", "https://a.b/p"],
    ["https://a.b/p", "http://s/x?u=1", "https://a.b/p?u=1"],
    ["https://a.b/p?k=1", "http://s/x?u=1", "https://a.b/p?k=1&u=1"],
    ["https://a.b/p?k=1&u=0#f", "http://s/x?u=1", "https://a.b/p?k=1&u=1#f"],
    ["https://a.b/p?%75=0", "http://s/x?u=1", "https://a.b/p?u=1"],
    ["https://a.b/p?odd=%E0%A4", "http://s/x?x=%zz", "https://a.b/p?odd=%E0%A4&x=%zz"],
  ])("%p + %p", (dest, req, expected) => {
    expect(withClickQuery(dest, req)).toBe(expected);
  });
});

test("buildVisit keeps only derived facts, never the address", () => {
  const visit = buildVisit(
    { linkId: "abc", destination: "https://x.y/?utm_source=s", userAgent: "UA", referer: "https://r.example/p", clientAddress: "203.0.113.9", now: 1_700_000_000_000 },
    { classify: () => ({ browser: "B", os: "O", device: "mobile", isBot: false }), country: (a) => (a === "203.0.113.9" ? "NL" : null) },
  );
  expect(visit).toEqual({
    linkId: "abc", ts: 1_700_000_000_000, browser: "B", os: "O", device: "mobile", country: "NL", referrer: "r.example",
    utmSource: "s", utmMedium: null, utmCampaign: null, isBot: false, visitor: null,
  });
  expect(JSON.stringify(visit)).not.toContain("203.0.113.9");
});

test("with a visitor id source, the visit carries the salted hash it gives, not the address", () => {
  const seen: unknown[] = [];
  const visit = buildVisit(
    { linkId: "abc", destination: "https://x.y/", userAgent: "UA", referer: null, clientAddress: "203.0.113.9", now: 1_700_000_000_000 },
    { classify: () => ({ browser: "B", os: "O", device: "mobile", isBot: false }), country: () => null, visitorId: (...args) => (seen.push(args), 12345) },
  );
  expect(visit.visitor).toBe(12345);
  expect(seen).toEqual([[1_700_000_000_000, "abc", "203.0.113.9", "UA"]]);
});
