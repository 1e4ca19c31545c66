// The --blocklist format: domains with their subdomains, /regex/ over the whole URL, comments.

import { expect, test } from "bun:test";
import { BlocklistError, parseBlocklist } from "../../src/links/blocklist.ts";

const list = parseBlocklist(`
# public shorteners
bit.ly
*.tinyurl.com   # a leading *. means the same as the bare domain
.Example.ORG.
bücher.example
/[?&]redirect=https?:/i
/^http:\\/\\/\\d+\\.\\d+\\.\\d+\\.\\d+\\//
`);

test("a domain blocks itself and every subdomain, whatever the case, port or trailing dot", () => {
  for (const url of ["https://bit.ly/x", "http://BIT.LY:8080/x", "https://a.b.bit.ly/", "https://tinyurl.com/", "https://x.tinyurl.com/", "https://example.org./p", "https://www.example.org/"]) {
    expect(list.matches(url)).toBe(true);
  }
});

test("only whole labels: notbit.ly, bit.ly.evil.example and example.org.au are not blocked", () => {
  for (const url of ["https://notbit.ly/", "https://bit.ly.evil.example/", "https://example.org.au/", "https://example.com/bit.ly"]) expect(list.matches(url)).toBe(false);
});

test("internationalized entries match the punycode form a URL has", () => {
  expect(list.matches("https://bücher.example/")).toBe(true);
  expect(list.matches("https://xn--bcher-kva.example/")).toBe(true);
});

test("/regex/ entries are tested against the whole URL, with the i flag when given", () => {
  expect(list.matches("https://ok.example/?a=1&REDIRECT=https://evil.example")).toBe(true);
  expect(list.matches("http://203.0.113.9/login")).toBe(true);
  expect(list.matches("https://ok.example/?redirect=/home")).toBe(false);
  expect(list.domains).toBe(4);
  expect(list.patterns).toBe(2);
});

test("a bad line is an error naming the line", () => {
  expect(() => parseBlocklist("ok.example\nnot a domain\n")).toThrow(BlocklistError);
  expect(() => parseBlocklist("ok.example\nnot a domain\n")).toThrow(/line 2/);
  expect(() => parseBlocklist("/(unclosed/")).toThrow(/line 1/);
  expect(() => parseBlocklist("/x/g")).toThrow(/only the i flag/);
  expect(() => parseBlocklist("https://bit.ly/")).toThrow(/line 1/);
});

test("an empty file blocks nothing", () => {
  expect(parseBlocklist("# nothing yet\n\n").matches("https://bit.ly/")).toBe(false);
});
