// The rule of when a click's answer waits for the visit writer (src/visits/catch-up.ts), with the
// clock passed in. The real recorder and database: test/integration/catch-up.test.ts.

import { describe, expect, test } from "bun:test";
import { createCatchUp } from "../../src/visits/catch-up.ts";

const MAX_QUEUED = 400; // waits from a backlog of 100 (a quarter)

function settled(p: Promise<void>): () => boolean {
  let done = false;
  void p.then(() => (done = true));
  return () => done;
}

describe("catch-up", () => {
  test("below a quarter of the queue's bound a click is answered at once; from there it waits", () => {
    const c = createCatchUp(MAX_QUEUED);
    expect(c.admit(0, false)).toBeUndefined();
    expect(c.admit(99, false)).toBeUndefined();
    expect(c.admit(100, false)).toBeInstanceOf(Promise);
    expect(c.admit(399, false)).toBeInstanceOf(Promise);
    expect(c.delayed()).toBe(2);
  });

  test("while the writer reports errors (the database is away) nobody waits, whatever the backlog", () => {
    const c = createCatchUp(MAX_QUEUED);
    expect(c.admit(350, true)).toBeUndefined();
    expect(c.delayed()).toBe(0);
  });

  test("the waiting clicks go once the backlog is below the threshold, and not before", async () => {
    const c = createCatchUp(MAX_QUEUED, 60_000);
    const first = settled(c.admit(150, false)!);
    const second = settled(c.admit(151, false)!);
    c.check(120, false, Date.now());
    await Bun.sleep(0);
    expect([first(), second()]).toEqual([false, false]);
    c.check(99, false, Date.now());
    await Bun.sleep(0);
    expect([first(), second()]).toEqual([true, true]);
    // a new spell waits anew
    const third = settled(c.admit(100, false)!);
    await Bun.sleep(0);
    expect(third()).toBe(false);
  });

  test("they go when the writer starts failing, or when they have waited the longest allowed", async () => {
    const failing = createCatchUp(MAX_QUEUED, 60_000);
    const a = settled(failing.admit(300, false)!);
    failing.check(300, true, Date.now());
    await Bun.sleep(0);
    expect(a()).toBe(true);

    const slow = createCatchUp(MAX_QUEUED, 1_000);
    const start = Date.now();
    const b = settled(slow.admit(300, false)!);
    slow.check(300, false, start + 999);
    await Bun.sleep(0);
    expect(b()).toBe(false);
    slow.check(300, false, start + 1_000 + 50);
    await Bun.sleep(0);
    expect(b()).toBe(true);
  });

  test("releaseAll lets every waiting click go (shutdown)", async () => {
    const c = createCatchUp(MAX_QUEUED, 60_000);
    const a = settled(c.admit(300, false)!);
    c.releaseAll();
    await Bun.sleep(0);
    expect(a()).toBe(true);
  });
});
