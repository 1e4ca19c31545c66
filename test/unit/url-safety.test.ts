// The destination rules of issue #21 in isolation: normalization, refused spellings, local hosts,
// the blocklist's view of a URL, and how the UI shows an internationalized host.

import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { checkUrl } from "../../src/links/url-rules.ts";
import { isLocalHost } from "../../src/links/local-hosts.ts";
import { parseBlocklist } from "../../src/links/blocklist.ts";
import { decodePunycode, displayUrl } from "../../web/client/display-url.ts";

const context = { ownHosts: ["short.example"], allowLocal: false };
const example = parseBlocklist(await Bun.file(new URL("../../scripts/blocklist.example.txt", import.meta.url)).text());

describe("local hosts", () => {
  test.each(["localhost", "a.localhost", "localhost.", "127.0.0.1", "127.1.2.3", "0.0.0.0", "169.254.169.254", "[::1]", "[::]", "[::ffff:7f00:1]", "[::7f00:1]", "[fe80::1]", "[febf::1]"])("%s is local", (host) => {
    expect(isLocalHost(host)).toBe(true);
  });
  test.each(["192.168.1.10", "10.0.0.5", "172.16.0.1", "nas.lan", "example.com", "[2001:db8::1]", "[fc00::1]", "[::ffff:c0a8:10a]", "128.0.0.1"])("%s is not", (host) => {
    expect(isLocalHost(host)).toBe(false);
  });
});

describe("property: what is stored is the normalized form, and the blocklist sees the same either way", () => {
  const host = fc.oneof(fc.domain(), fc.ipV4().map((ip) => ip), fc.constantFrom("EXAMPLE.com", "ok.example", "xn--r8jz45g.jp", "例え.jp"));
  const path = fc.array(fc.oneof(fc.webSegment(), fc.constantFrom("..", ".", "%41", "a b", "url=https:%2F%2Fx")), { maxLength: 4 }).map((s) => "/" + s.join("/"));
  const query = fc.option(fc.array(fc.tuple(fc.constantFrom("url", "next", "%75rl", "q", "utm_source"), fc.oneof(fc.webSegment(), fc.constantFrom("https://evil.example/", "//evil", "%68ttps://x"))), { maxLength: 3 }).map((pairs) => "?" + pairs.map(([k, v]) => `${k}=${v}`).join("&")), { nil: "" });
  const url = fc.tuple(fc.constantFrom("http", "https", "HTTP", "Https"), host, fc.option(fc.constantFrom(":80", ":443", ":8080"), { nil: "" }), path, query).map(([s, h, p, pa, q]) => `${s}://${h}${p}${pa}${q}`);

  test("checkUrl(u).url is new URL(u).href, and checking it again changes nothing", () => {
    fc.assert(
      fc.property(url, (u) => {
        const checked = checkUrl(u, context);
        if (!checked.ok) return;
        expect(checked.url).toBe(new URL(u).href);
        expect(checkUrl(checked.url, context)).toEqual(checked);
      }),
      { numRuns: 3000 },
    );
  });

  test("every entry of the example blocklist matches a URL exactly when it matches its normalized form", () => {
    fc.assert(
      fc.property(url, (u) => {
        let href: string;
        try {
          href = new URL(u).href;
        } catch {
          return;
        }
        expect(example.matches(u)).toBe(example.matches(href));
      }),
      { numRuns: 3000 },
    );
  });
});

test("the example blocklist's raw-IP and open-redirect entries hold against other spellings", () => {
  for (const u of ["http://1.2.3.4/", "HTTP://1.2.3.4/", "https://ok.example/?%75rl=https://e.example/", "https://ok.example/?url=%68ttps://e.example/", "https://ok.example/?url=//e.example/", "https://ok.example/a;url=https://e.example/"]) {
    expect(example.matches(u)).toBe(true);
  }
  expect(example.matches("https://ok.example/?utm_source=news")).toBe(false);
});

describe("how the UI shows a host", () => {
  test("punycode decodes as RFC 3492 says", () => {
    expect(decodePunycode("r8jz45g")).toBe("例え");
    expect(decodePunycode("mnchen-3ya")).toBe("münchen");
    expect(decodePunycode("!!")).toBeNull();
  });
  test.each([
    ["https://xn--r8jz45g.jp/x", "https://例え.jp/x"], // Han and Hiragana: one writing system
    ["https://xn--mnchen-3ya.de/", "https://münchen.de/"],
    ["https://xn--pple-43d.com/", "https://xn--pple-43d.com/"], // Cyrillic а with Latin pple: stays punycode
    ["https://xn--80ak6aa92e.com/", "https://аррӏе.com/"], // all Cyrillic: one script, shown (the domain rule, not the display, must judge it)
    ["https://example.com/%E4%BE%8B", "https://example.com/%E4%BE%8B"],
  ])("%s is shown as %s", (href, shown) => {
    expect(displayUrl(href)).toBe(shown);
  });
});
