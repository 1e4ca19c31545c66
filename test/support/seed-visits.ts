// Visits planted straight into a running service's visit_batches, encoded as the recorder stores them
// (batchRows: 200 a row), for tests whose subject is reading many visits (an export), not clicking.
// The rollups are left alone: only what reads raw visits sees them.

import { batchRows } from "../../src/visits/visit-batch.ts";
import { openStored } from "./stored.ts";
import type { RunningServer } from "./server.ts";

/** `n` visits of the link with this alias (default domain), a second apart from `startTs`, every 7th a bot, Chrome on Linux from DE. */
export async function seedVisits(server: Pick<RunningServer, "dbPath" | "engine">, alias: string, n: number, startTs: number): Promise<void> {
  const stored = await openStored(server, { write: true });
  try {
    const link = await stored.get<{ seq: number }>("SELECT seq FROM links WHERE id = ?", alias);
    if (link === null) throw new Error(`seedVisits: no link ${alias}`);
    const visits = Array.from({ length: n }, (_, i) => ({
      linkSeq: link.seq, linkId: alias, ts: startTs + i * 1000, browser: "Chrome", os: "Linux", device: "desktop", country: "DE",
      referrer: i % 2 ? "Direct" : "news.example.org", utmSource: null, utmMedium: null, utmCampaign: null, isBot: i % 7 === 0, visitor: null,
    }));
    for (const r of batchRows(visits)) await stored.run("INSERT INTO visit_batches (link_seq, first_ts, last_ts, humans, visits) VALUES (?, ?, ?, ?, ?)", r.linkSeq, r.firstTs, r.lastTs, r.humans, r.visits);
  } finally {
    await stored.close();
  }
}
