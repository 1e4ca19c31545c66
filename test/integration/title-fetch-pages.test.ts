// Fetching one page's title (src/outbound/page-title.ts; docs/link-titles.md: How a title is
// fetched) against pages served on 127.0.0.1 by the test (test/support/title-pages.ts), with the
// bounds made small so that each is met quickly: the address policy refusing before connecting, the
// time bound, the size bound, the redirect bound; what is sent. Nothing is stored here, so one
// engine is as good as another (the service's own test is title-fetch.test.ts).

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { fetchPageTitle, type PageTitleOptions } from "../../src/outbound/page-title.ts";
import { eventually } from "../support/eventually.ts";
import { startTitlePages, type TitlePages } from "../support/title-pages.ts";

setDefaultTimeout(30_000);

let pages: TitlePages;
// The service's own fetch here, not the tests' contract wrapper (test/support/contract-preload.ts):
// that one reads a clone of every body, so an endless page would be read to no end beside ours.
const wrapped = globalThis.fetch;
beforeAll(() => {
  pages = startTitlePages();
  globalThis.fetch = Object.assign((input: string | URL | Request, init?: RequestInit) => Bun.fetch(input, init), { preconnect: wrapped.preconnect }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = wrapped;
  pages.stop();
});

const ANY: PageTitleOptions = { policy: { allowSpecial: true, flag: "--fetch-titles any" }, userAgent: "shortener/test (link titles)" };
const ON: PageTitleOptions = { ...ANY, policy: { allowSpecial: false, flag: "--fetch-titles any" } };
const requestsTo = (path: string) => pages.requests.filter((r) => r.path === path);

describe("the address policy", () => {
  test("refuses loopback before connecting, written or resolved from a name: the page server sees nothing", async () => {
    expect(await fetchPageTitle(pages.url("/utf8?refused"), ON)).toEqual({ outcome: "refused", reason: "127.0.0.1 is a loopback address (RFC 1122); reached only with --fetch-titles any" });
    const named = await fetchPageTitle(pages.url("/utf8?named").replace("127.0.0.1", "pages.invalid"), { ...ON, resolve: async () => ["127.0.0.1"] });
    expect(named).toEqual({ outcome: "refused", reason: "pages.invalid resolves to 127.0.0.1, a loopback address (RFC 1122); reached only with --fetch-titles any" });
    expect([requestsTo("/utf8?refused").length, requestsTo("/utf8?named").length]).toEqual([0, 0]);
  });

  test("with the leave, a name goes to the address it resolved to, the name in Host", async () => {
    const url = pages.url("/utf8?host").replace("127.0.0.1", "pages.invalid");
    const named = await fetchPageTitle(url, { ...ANY, resolve: async () => ["127.0.0.1"] });
    expect(named).toEqual({ outcome: "titled", text: "Grüße aus 東京" });
    expect(requestsTo("/utf8?host")[0]?.headers.host).toBe(new URL(url).host);
  });
});

describe("what is sent", () => {
  test("one GET asking for HTML, with our User-Agent, without the URL's user name and password", async () => {
    const url = pages.url("/utf8?sent").replace("http://", "http://someone:secret@");
    expect(await fetchPageTitle(url, ANY)).toEqual({ outcome: "titled", text: "Grüße aus 東京" });
    const [sent] = requestsTo("/utf8?sent");
    expect([sent?.request.method, sent?.headers.authorization, sent?.headers["user-agent"]]).toEqual(["GET", undefined, "shortener/test (link titles)"]);
    expect(sent?.headers.accept).toContain("text/html");
  });

  test("only http and https: anything else is never asked", async () => {
    expect(await fetchPageTitle("ftp://127.0.0.1/x", ANY)).toEqual({ outcome: "untitled" });
    expect(await fetchPageTitle("not a url", ANY)).toEqual({ outcome: "untitled" });
  });

  test("an answer that is not 2xx has no title", async () => {
    expect(await fetchPageTitle(pages.url("/no-such-page"), ANY)).toEqual({ outcome: "untitled" });
  });
});

describe("the bounds", () => {
  test("time: a page that never answers fails at the bound, and its request is let go", async () => {
    const result = await fetchPageTitle(pages.url("/hold?time"), { ...ANY, timeoutMs: 300 });
    expect(result.outcome).toBe("failed");
    const [held] = requestsTo("/hold?time");
    expect(held).toBeDefined();
    // The server hears of the closed connection a moment later.
    expect(await eventually(async () => held?.request.signal.aborted, (aborted) => aborted === true, 10_000, 20)).toBe(true);
  });

  test("size: an endless page without a title is read up to the bound only: no title, long before the time bound", async () => {
    expect(await fetchPageTitle(pages.url("/endless"), { ...ANY, maxBytes: 64 * 1024, timeoutMs: 20_000 })).toEqual({ outcome: "untitled" });
  });

  test("size: reading stops at </title>: a page that stalls after its title is done, long before the time bound", async () => {
    expect(await fetchPageTitle(pages.url("/titled-then-stalls"), { ...ANY, timeoutMs: 20_000 })).toEqual({ outcome: "titled", text: "Read only this far" });
  });

  test("redirects: followed up to the bound, one more fails", async () => {
    expect(await fetchPageTitle(pages.url("/hop/2"), { ...ANY, maxRedirects: 2 })).toEqual({ outcome: "titled", text: "After the hops" });
    expect(await fetchPageTitle(pages.url("/hop/3"), { ...ANY, maxRedirects: 2 })).toEqual({ outcome: "failed", reason: "more than 2 redirects" });
  });
});
