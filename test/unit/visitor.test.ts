// Building a Visit from a click: referrer host, UTM, query merging.

import { describe, expect, test } from "bun:test";
import { buildVisit, referrerHost, utmParameters } from "../../src/visits/visitor.ts";
import { userAgentDigest } from "../../src/visits/visitor-id.ts";

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
