// The bounded map behind every cache of the click path (src/util/lru.ts).

import { expect, test } from "bun:test";
import { Lru } from "../../src/util/lru.ts";

test("never holds more than its capacity, and the newest entries are kept", () => {
  const lru = new Lru<number, number>(100);
  for (let i = 0; i < 10_000; i++) {
    lru.set(i, i * 2);
    expect(lru.size).toBeLessThanOrEqual(100);
  }
  for (let i = 9_950; i < 10_000; i++) expect(lru.get(i)).toBe(i * 2);
  expect(lru.get(0)).toBeUndefined();
});

test("an entry used at least once per half-capacity of insertions is never evicted", () => {
  const lru = new Lru<string, string>(100);
  lru.set("hot", "kept");
  for (let i = 0; i < 5_000; i++) {
    lru.set(`cold-${i}`, "x");
    if (i % 50 === 49) expect(lru.get("hot")).toBe("kept");
  }
  expect(lru.get("hot")).toBe("kept");
  expect(lru.get("cold-0")).toBeUndefined();
});

test("set replaces a value wherever it is; delete and clear forget it", () => {
  const lru = new Lru<string, number>(4);
  lru.set("a", 1);
  lru.set("b", 2);
  lru.set("c", 3); // "a" and "b" are now the old generation
  lru.set("a", 10);
  expect(lru.get("a")).toBe(10);
  expect(lru.size).toBe(3);
  lru.delete("b");
  expect(lru.get("b")).toBeUndefined();
  lru.clear();
  expect(lru.size).toBe(0);
  expect(lru.get("c")).toBeUndefined();
});
