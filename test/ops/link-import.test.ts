// The links' import operation (src/ops/links/import.ts) in process, on a temp SQLite file: its rows
// are written a slice at a time, each slice one transaction of the store's (createAll), and the
// event loop turns between slices, so that clicks are answered while an import runs
// (docs/performance.md: Imports and clicks). The store is the real one, watched, not replaced.

import { afterEach, beforeEach, expect, test } from "bun:test";
import { importLinks, ROWS_PER_WRITE } from "../../src/ops/links/import.ts";
import { EMPTY_BLOCKLIST } from "../../src/links/blocklist.ts";
import type { LinkStore } from "../../src/links/store.ts";
import { DomainDirectory } from "../../src/domains/directory.ts";
import { adminKey, keptLog, tempStorage, type Opened } from "./support.ts";

let opened: Opened;
beforeEach(async () => {
  opened = await tempStorage();
});
afterEach(() => opened.dispose());

/** The storage's link store, with each write it is asked for noted (and the turns of the event loop seen so far). */
function watchedLinks(real: LinkStore, turns: () => number) {
  const writes: { rows: number; turn: number }[] = [];
  const links: LinkStore = {
    ...real,
    create: (link, now) => (writes.push({ rows: 1, turn: turns() }), real.create(link, now)),
    createAll: (all, now) => (writes.push({ rows: all.length, turn: turns() }), real.createAll(all, now)),
  };
  return { links, writes };
}

test("rows are written a slice at a time, one write each, with turns of the event loop between them; the report is by row", async () => {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const { links, writes } = watchedLinks(opened.storage.links, () => turns);
  const rows = Array.from({ length: 2 * ROWS_PER_WRITE + 8 }, (_, i) => ({ url: `https://example.com/${i + 1}` }) as Record<string, unknown>);
  rows[4] = { url: "not a url" };
  rows[1] = { url: "https://example.com/2", custom_url: "sliced" };
  rows[6] = { url: "https://example.com/7", custom_url: "sliced" }; // taken by row 2, in the same slice
  let report;
  try {
    report = await importLinks(adminKey, { rows, ownHosts: [] }, { config: { allowLoopbackDestinations: false, createAccess: "public", allowSchemes: new Set() }, links, directory: new DomainDirectory(null, () => []), blocklist: () => EMPTY_BLOCKLIST, log: keptLog(), now: () => 1_000_000 });
  } finally {
    ticking = false;
  }
  expect(report.ok).toBe(true);
  if (!report.ok) return;
  expect(writes.map((w) => w.rows)).toEqual([ROWS_PER_WRITE - 1, ROWS_PER_WRITE, 8]);
  for (let i = 1; i < writes.length; i++) expect(writes[i]!.turn).toBeGreaterThan(writes[i - 1]!.turn);
  const { created, failed, stopped } = report.value;
  expect(stopped).toBeNull();
  expect(failed.map((f) => `${f.row}:${f.code}`)).toEqual(["5:url_scheme", "7:alias_taken"]);
  expect(created.map((c) => c.row)).toEqual(rows.map((_, i) => i + 1).filter((row) => row !== 5 && row !== 7));
  expect(created[1]).toEqual({ row: 2, id: "sliced", domain: "" });
  for (const { id } of created) expect(await opened.storage.links.get(id)).not.toBeNull();
});
