// The queue of title fetches (src/links/title-fetcher.ts; docs/link-titles.md: How a title is
// fetched): a few at a time, a full queue drops and counts, the stop drops what waits and stores
// nothing of what was under way, a title is fitted and stored only where none is, a failure is
// counted and logged without the URL's path or query. Pages are answered here by hand (each
// fetch waits until the test settles it), and titles kept in a Map standing in for the store's
// fillTitle (its engines' own behaviour is the contract suites' and title-fetch.test.ts's).

import { describe, expect, test } from "bun:test";
import { createTitleFetcher } from "../../src/links/title-fetcher.ts";
import type { PageTitle } from "../../src/outbound/page-title.ts";

function harness(options: { capacity?: number; concurrency?: number } = {}) {
  const pending = new Map<string, (page: PageTitle) => void>();
  const titles = new Map<string, string | null>();
  const logged: string[] = [];
  let running = 0;
  let most = 0;
  const fetcher = createTitleFetcher({
    ...options,
    fetchTitle: (url) => {
      running++;
      most = Math.max(most, running);
      return new Promise<PageTitle>((resolve) => pending.set(url, (page) => (running--, resolve(page))));
    },
    store: {
      fillTitle: (key, title) => {
        if (key === "broken") throw new Error("database is locked");
        if (!titles.has(key) || titles.get(key) !== null) return false;
        titles.set(key, title);
        return true;
      },
    },
    log: { info: (msg, fields) => logged.push(`${msg} ${JSON.stringify(fields)}`), error: (msg, fields) => logged.push(`${msg} ${JSON.stringify(fields)}`) },
  });
  const want = (key: string, url = `https://example.org/${key}?token=t0ken`) => {
    if (!titles.has(key)) titles.set(key, null);
    fetcher.wanted(key, url);
  };
  const settle = async (key: string, page: PageTitle) => {
    pending.get(`https://example.org/${key}?token=t0ken`)!(page);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await Bun.sleep(0);
  };
  return { fetcher, pending, titles, logged, want, settle, most: () => most };
}

describe("the title queue", () => {
  test("two fetches at a time; the rest wait their turn, then run", async () => {
    const h = harness();
    for (const key of ["a", "b", "c", "d"]) h.want(key);
    expect([...h.pending.keys()].length).toBe(2);
    expect(h.fetcher.stats()).toMatchObject({ queued: 2, running: 2 });
    await h.settle("a", { outcome: "titled", text: "A" });
    expect([...h.pending.keys()].length).toBe(3);
    for (const key of ["b", "c", "d"]) await h.settle(key, { outcome: "titled", text: key.toUpperCase() });
    expect(h.most()).toBe(2);
    expect([...h.titles.values()]).toEqual(["A", "B", "C", "D"]);
    expect(h.fetcher.stats()).toEqual({ outcomes: { stored: 4, kept: 0, untitled: 0, refused: 0, failed: 0, dropped: 0 }, queued: 0, running: 0 });
  });

  test("a full queue drops the newest wish and counts it", () => {
    const h = harness({ capacity: 2, concurrency: 1 });
    for (const key of ["a", "b", "c", "d", "e"]) h.want(key);
    expect(h.fetcher.stats()).toMatchObject({ queued: 2, running: 1, outcomes: { dropped: 2 } });
  });

  test("the stop drops what waits and stores nothing of what was under way", async () => {
    const h = harness({ concurrency: 1 });
    h.want("a");
    h.want("b");
    h.fetcher.close();
    await h.settle("a", { outcome: "titled", text: "Too late" });
    h.want("c");
    expect(h.titles.get("a")).toBeNull();
    expect([...h.pending.keys()]).toEqual(["https://example.org/a?token=t0ken"]);
    expect(h.fetcher.stats()).toMatchObject({ queued: 0, outcomes: { stored: 0, dropped: 0 } });
  });

  test("fitted before it is stored; a title that fits to nothing is none; one set meanwhile is kept", async () => {
    const h = harness();
    h.want("a");
    h.want("b");
    await h.settle("a", { outcome: "titled", text: "  Two\n   lines\t" });
    await h.settle("b", { outcome: "titled", text: " \u0007 " });
    h.titles.set("c", "Mine");
    h.fetcher.wanted("c", "https://example.org/c?token=t0ken");
    await h.settle("c", { outcome: "titled", text: "From the page" });
    expect([h.titles.get("a"), h.titles.get("b"), h.titles.get("c")]).toEqual(["Two lines", null, "Mine"]);
    expect(h.fetcher.stats().outcomes).toMatchObject({ stored: 1, untitled: 1, kept: 1 });
  });

  test("refused and failed are counted and logged with the link and the host, never the path or query; a store that fails is logged as an error", async () => {
    const h = harness();
    for (const key of ["r", "f", "broken"]) h.want(key);
    await h.settle("r", { outcome: "refused", reason: "10.0.0.1 is a private address (RFC 1918); reached only with --fetch-titles any" });
    await h.settle("f", { outcome: "failed", reason: "The operation timed out." });
    await h.settle("broken", { outcome: "titled", text: "Fine" });
    expect(h.fetcher.stats().outcomes).toMatchObject({ refused: 1, failed: 2 });
    expect(h.logged).toEqual([
      'link title not fetched: 10.0.0.1 is a private address (RFC 1918); reached only with --fetch-titles any {"link":"r","host":"example.org"}',
      'link title not fetched: The operation timed out. {"link":"f","host":"example.org"}',
      'storing a fetched link title failed {"link":"broken","error":"database is locked"}',
    ]);
    expect(h.logged.join("\n")).not.toContain("t0ken");
  });
});
