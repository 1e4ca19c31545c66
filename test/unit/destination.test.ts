// Where a click is sent: the link's URL with the click's query added, never replacing a parameter
// the link has, in ASCII, and never longer than MAX_LOCATION.

import { describe, expect, test } from "bun:test";
import { compileDestination, MAX_LOCATION, withClickQuery } from "../../src/links/destination.ts";

const merged = (url: string, query: string) => withClickQuery(compileDestination(url), query);

describe("a click's query", () => {
  test.each([
    ["https://a.b/p", "u=1", "https://a.b/p?u=1"],
    ["https://a.b/p?k=1", "u=1", "https://a.b/p?k=1&u=1"],
    ["https://a.b/p?k=1#f", "u=1&v=2", "https://a.b/p?k=1&u=1&v=2#f"],
    ["https://a.b/p?", "u=1", "https://a.b/p?u=1"],
    ["https://a.b/p?k=1&", "u=1", "https://a.b/p?k=1&u=1"],
    ["https://a.b/p?odd=%E0%A4", "x=%zz", "https://a.b/p?odd=%E0%A4&x=%zz"],
  ])("%p + ?%p → %p", (url, query, expected) => {
    expect(merged(url, query)).toBe(expected);
  });

  test.each([
    ["https://a.b/login?next=/home", "next=https://evil.example/", "https://a.b/login?next=/home"],
    ["https://a.b/p?a=1&utm_source=own#top", "utm_source=news&b=2", "https://a.b/p?a=1&utm_source=own&b=2#top"],
    // Spelled otherwise, the same name: decoded (%75 is u, + is a space) before it is compared.
    ["https://a.b/p?url=x", "%75rl=https://evil.example/", "https://a.b/p?url=x"],
    ["https://a.b/p?a%20b=1", "a+b=2&c=3", "https://a.b/p?a%20b=1&c=3"],
    ["https://a.b/p?flag", "flag=1&x", "https://a.b/p?flag&x"],
  ])("never replaces the link's own parameter: %p + ?%p → %p", (url, query, expected) => {
    expect(merged(url, query)).toBe(expected);
  });

  test("text outside ASCII is percent-encoded, in the link's URL and in the click's query", () => {
    expect(compileDestination("https://bücher.de/ä?q=ü").location).toBe("https://xn--bcher-kva.de/%C3%A4?q=%C3%BC");
    expect(merged("https://a.b/p", "q=ü")).toBe("https://a.b/p?q=%C3%BC");
  });

  test(`a query that would make the Location longer than ${MAX_LOCATION} characters is left out whole`, () => {
    const url = `https://a.b/${"p".repeat(2000)}`;
    expect(merged(url, `x=${"y".repeat(MAX_LOCATION - url.length - 3)}`)).toHaveLength(MAX_LOCATION);
    expect(merged(url, `x=${"y".repeat(MAX_LOCATION - url.length - 2)}`)).toBe(url);
  });

  test("whether the Location is read for UTM parameters: only when the link's own URL has them", () => {
    expect(compileDestination("https://a.b/p?utm_source=x").utm).toBe(true);
    expect(compileDestination("https://a.b/utm_page?x=1").utm).toBe(false);
    expect(compileDestination("https://a.b/p#utm_source=x").utm).toBe(false);
  });
});
