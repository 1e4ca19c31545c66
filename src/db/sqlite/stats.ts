// A link's statistics rows from SQLite's rollups (the StatsSource of src/stats/link-stats.ts), and a
// set's (stats-set.ts: a tag's, a domain's), read in one read transaction: the recorder thread commits batches from its own connection, and one
// committed between two of these statements would otherwise be in some figures and not in others
// (totals of 0 beside a browser count of 5 was seen).

import type { Database } from "bun:sqlite";
import { MAX_BREAKDOWN_ENTRIES, RECENT_VISITS, type NameCount, type StatsPlan, type StatsRows, type StatsSource } from "../../stats/link-stats.ts";
import { newestVisits } from "../../stats/recent.ts";
import { hourOf } from "../../visits/rollup.ts";
import type { StoredVisit } from "../../visits/visit-batch.ts";
import type { SyncFunction } from "../../util/maybe.ts";
import { OTHER } from "../../visits/other.ts";
import { sqliteStatsOfSet } from "./stats-set.ts";

export function sqliteStats(db: Database): SyncFunction<StatsSource> {
  // `bots * ?1` with ?1 = 1 subtracts bot clicks, with 0 keeps them: one statement serves both filters.
  const daily = db.query<StatsRows["days"][number], [number, number, string, string]>(
    `SELECT day, total - bots * ?1 AS count, bots, uniques - unique_bots * ?1 AS uniques, imported, total FROM daily_rollup
     WHERE link_seq = ?2 AND day BETWEEN ?3 AND ?4 ORDER BY day`,
  );
  const hourly = db.query<{ hour: string; count: number; uniques: number }, [number, number, string, string]>(
    `SELECT hour, total - bots * ?1 AS count, uniques - unique_bots * ?1 AS uniques FROM hourly_rollup
     WHERE link_seq = ?2 AND hour BETWEEN ?3 AND ?4`,
  );
  // The folded OTHER rows (other.ts) are not listed: assembleStats adds what the list leaves out.
  const dimension = db.query<NameCount, [number, number, string, string, string, string, number]>(
    `SELECT name, SUM(total - bots * ?) AS count FROM dimension_rollup
     WHERE link_seq = ? AND dimension = ? AND day BETWEEN ? AND ? AND name <> ?
     GROUP BY name HAVING count > 0 ORDER BY count DESC, name LIMIT ?`,
  );
  const utm = db.query<{ source: string; medium: string; campaign: string; count: number }, [number, number, string, string, string, number]>(
    `SELECT source, medium, campaign, SUM(total - bots * ?) AS count FROM utm_rollup
     WHERE link_seq = ? AND day BETWEEN ? AND ? AND source <> ?
     GROUP BY source, medium, campaign HAVING count > 0 ORDER BY count DESC, source, medium, campaign LIMIT ?`,
  );
  const utmTotal = db.query<{ n: number }, [number, number, string, string]>(
    "SELECT COALESCE(SUM(total - bots * ?), 0) AS n FROM utm_rollup WHERE link_seq = ? AND day BETWEEN ? AND ?",
  );
  // Previews are agents' fetches, all bots: the bot filter, which is about clicks, leaves them (link-stats.ts StatsRows).
  const previewTotal = db.query<{ n: number }, [number, string, string]>(
    "SELECT COALESCE(SUM(total), 0) AS n FROM dimension_rollup WHERE link_seq = ? AND dimension = 'preview' AND day BETWEEN ? AND ?",
  );
  const batches = db.query<{ last_ts: number; visits: string }, [number, number, number, number]>(
    `SELECT last_ts, visits FROM visit_batches
     WHERE link_seq = ? AND last_ts >= ? AND first_ts < ? AND humans >= ?
     ORDER BY last_ts DESC`,
  );

  const recent = (linkSeq: number, plan: StatsPlan): StoredVisit[] => {
    const newest = newestVisits(plan.recent.fromTs, plan.recent.toTs, plan.excludeBots, RECENT_VISITS);
    for (const batch of batches.iterate(linkSeq, plan.recent.fromTs, plan.recent.toTs, plan.excludeBots ? 1 : 0)) {
      if (!newest.add(batch.last_ts, batch.visits)) break;
    }
    return newest.found();
  };

  const read = (linkSeq: number, plan: StatsPlan): StatsRows => {
    const breakdown = (name: string, minus = plan.minus) => dimension.all(minus, linkSeq, name, plan.from, plan.to, OTHER, MAX_BREAKDOWN_ENTRIES);
    return {
      // From the previous period's first day: both periods' days in one read (link-stats.ts StatsPlan).
      days: daily.all(plan.minus, linkSeq, plan.previous.from, plan.to),
      hours: plan.hours === null ? [] : hourly.all(plan.minus, linkSeq, hourOf(plan.hours.start), hourOf(plan.hours.end)),
      browser: breakdown("browser"),
      os: breakdown("os"),
      device: breakdown("device"),
      country: breakdown("country"),
      referrer: breakdown("referrer"),
      rule: breakdown("rule"),
      variant: breakdown("variant"),
      fallback: breakdown("fallback"),
      // Previews are agents' fetches, all bots: the bot filter, which is about clicks, leaves them (link-stats.ts StatsRows).
      preview: breakdown("preview", 0),
      previewTotal: previewTotal.get(linkSeq, plan.from, plan.to)!.n,
      utm: utm.all(plan.minus, linkSeq, plan.from, plan.to, OTHER, MAX_BREAKDOWN_ENTRIES),
      utmTotal: utmTotal.get(plan.minus, linkSeq, plan.from, plan.to)!.n,
      recent: recent(linkSeq, plan),
    };
  };
  const ofSet = sqliteStatsOfSet(db);
  // A deferred transaction: its snapshot is taken by the first SELECT and kept to the last. One link
  // keeps its own statements (by its key, no set to walk); a set is grouped in SQL (stats-set.ts).
  const snapshot = db.transaction((seqs: readonly number[], plan: StatsPlan) => (seqs.length === 1 ? read(seqs[0]!, plan) : ofSet(seqs, plan)));
  return (linkSeqs, plan) => snapshot(linkSeqs, plan);
}
