// A page of raw visits from stored batches (src/stats/visit-pages.ts): the planner counts whole
// batches from their columns and parses only straddling ones, and the pages cut from it, laid end
// to end, are every matching visit once, newest first within each batch (docs/shlink-api.md: Visits).

import { describe, expect, test } from "bun:test";
import { addChunk, batchSizes, cutPage, pagePlanner, type PlaceRow } from "../../src/stats/visit-pages.ts";
import type { StoredVisit } from "../../src/visits/visit-batch.ts";

const visitAt = (ts: number, bot: 0 | 1): StoredVisit => [ts, "Chrome", "Windows", "desktop", "DE", "Direct", null, null, null, bot];

// Ten batches of 7 visits, newest batch first (as the scan reads them), every third visit a bot.
const BATCHES = Array.from({ length: 10 }, (_, b) => {
  const id = 100 - b;
  const visits = Array.from({ length: 7 }, (_, i) => visitAt((10 - b) * 1000 + i * 10, i % 3 === 0 ? 1 : 0));
  return { id, visits, json: JSON.stringify(visits) };
});

/** The scan's rows for a range: visits only for straddling batches, as placesQuery answers. */
function rows(fromTs: number, toTs: number): PlaceRow[] {
  return BATCHES.filter((b) => b.visits.at(-1)![0] >= fromTs && b.visits[0]![0] < toTs).map((b) => {
    const first = b.visits[0]![0];
    const last = b.visits.at(-1)![0];
    const whole = first >= fromTs && last < toTs;
    return { id: b.id, link_seq: 1, first_ts: first, last_ts: last, humans: b.visits.filter((v) => v[9] === 0).length, n: b.visits.length, visits: whole ? null : b.json };
  });
}

function page(fromTs: number, toTs: number, excludeBots: boolean, offset: number, limit: number) {
  const q = { fromTs, toTs, excludeBots, offset, limit };
  const planner = pagePlanner(q);
  const held = new Map<number, string>();
  const all = rows(fromTs, toTs);
  // Chunks of 3: the planner continues where a chunk ended.
  for (let i = 0; i < all.length; i += 3) addChunk(planner, all.slice(i, i + 3), q, held);
  const byId = new Map(BATCHES.map((b) => [b.id, b.json]));
  for (const [id, json] of held) expect(byId.get(id)).toBe(json);
  return { total: planner.total(), ts: cutPage(planner.cuts(), byId, q).map((v) => v.visit[0]) };
}

describe("pages of visits", () => {
  for (const [fromTs, toTs, excludeBots] of [[0, Infinity, false], [0, Infinity, true], [3035, 8025, false], [3035, 8025, true]] as const) {
    test(`range [${fromTs}, ${toTs}) bots ${excludeBots ? "out" : "in"}: pages of 4 laid end to end are every matching visit once, newest first`, () => {
      const expected = BATCHES.flatMap((b) => b.visits).filter((v) => v[0] >= fromTs && v[0] < toTs && !(excludeBots && v[9] === 1)).map((v) => v[0]).sort((a, b) => b - a);
      const { total } = page(fromTs, toTs, excludeBots, 0, 4);
      expect(total).toBe(expected.length);
      const got: number[] = [];
      for (let offset = 0; offset < total; offset += 4) {
        const p = page(fromTs, toTs, excludeBots, offset, 4);
        expect(p.ts.length).toBe(Math.min(4, total - offset));
        got.push(...p.ts);
      }
      expect(got).toEqual(expected);
      expect(page(fromTs, toTs, excludeBots, total, 4).ts).toEqual([]);
    });
  }
});

describe("batchSizes", () => {
  const row = (id: number, lastTs: number, visits: string | null = null): PlaceRow => ({ id, link_seq: 1, first_ts: 0, last_ts: lastTs, humans: 1, visits });
  test("a size is asked once per batch; an id reused by another batch (SQLite after a delete) is asked again", () => {
    const sizes = batchSizes();
    const first = [row(1, 10), row(2, 20), row(3, 30, "[]")];
    expect(sizes.unknown(first)).toEqual([1, 2]);
    sizes.learn(first, new Map([[1, 7], [2, 9]]));
    expect(sizes.unknown(first)).toEqual([]);
    expect(sizes.sized(first).map((r) => r.n)).toEqual([7, 9, undefined]);
    const reused = [row(2, 25)];
    expect(sizes.unknown(reused)).toEqual([2]);
    expect(sizes.sized(reused).map((r) => r.n)).toEqual([0]);
  });
});
