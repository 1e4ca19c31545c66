// How long a tag rename across links holds SQLite (docs/performance.md: Tags across links): N links
// carrying one tag, renamed by the link change script with no webhook wanting link.updated and with
// one, alternating, on a throwaway file. SQLite writes run on the click thread: for this long no
// click that misses the link cache is answered.
//   bun scripts/bench/tag-rename.ts [N=20000] [--rounds 3]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStorage } from "../../src/db/sqlite/storage.ts";
import { createLinkStore } from "../../src/links/store.ts";
import { linkEvents } from "../../src/events/link-events.ts";
import { createEventWants } from "../../src/events/wants.ts";

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 20_000);
const rounds = Number(args[args.indexOf("--rounds") + 1] ?? 3) || 3;
const dir = mkdtempSync(join(tmpdir(), "tag-rename-"));
const storage = await openSqliteStorage(join(dir, "bench.db"), 5000, false);
try {
  const plain = createLinkStore(storage.links, storage.budget);
  const told = createLinkStore(storage.links, storage.budget, { events: linkEvents(createEventWants(["link.updated"]), () => null, () => 0) });
  const links = Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}`, alias: `l${i}`, tags: ["t0", "other"] }));
  for (let i = 0; i < n; i += 2_000) await storage.links.insertAll(links.slice(i, i + 2_000).map((link) => ({ id: link.alias, link, now: 0, events: null })));
  let name = 0;
  for (let round = 1; round <= rounds; round++) {
    for (const [label, store] of [["no webhook", plain], ["link.updated wanted", told]] as const) {
      const started = performance.now();
      const outcome = await store.retag([`t${name}`], `t${++name}`);
      const changed = typeof outcome === "string" ? outcome : outcome.changed.length;
      console.log(`round ${round}: ${label}: ${changed} links in ${(performance.now() - started).toFixed(0)} ms`);
    }
  }
} finally {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
}
