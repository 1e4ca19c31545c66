// How raw visits are stored: one visit_batches row per link and write batch, its visits a JSON array
// of tuples (migration 2 says why). The writer encodes, the stats reader decodes; both through here.

import type { Visit } from "./visit.ts";
import { profileResolver } from "./profiles.ts";

/**
 * One stored visit: [ts, browser, os, device, country, referrer, utm_source, utm_medium, utm_campaign, is_bot],
 * and for a click of a link with rules or a split, the rule it took and the variant ("" for none).
 */
export type StoredVisit = [number, string, string, string, string, string, string | null, string | null, string | null, 0 | 1, string?, string?];
/** Positions in a StoredVisit that readers pick out. */
export const STORED_TS = 0;
export const STORED_IS_BOT = 9;

export type VisitBatchRow = { linkSeq: number; firstTs: number; lastTs: number; humans: number; visits: string };

/**
 * At most this many visits a row: the stats page reads the newest rows of a link for its recent
 * visits, and a row of a few hundred parses in well under a millisecond, while a row of a whole
 * busy batch (thousands) would not.
 */
export const MAX_VISITS_PER_ROW = 200;

type Group = { linkSeq: number; firstTs: number; lastTs: number; humans: number; visits: string[] };

/**
 * A write batch's visits as rows: per link, in the order they came, at most MAX_VISITS_PER_ROW a row.
 * Each visit's JSON is its time and its profile's stored form (profiles.ts), joined, not stringified anew.
 */
export function batchRows(batch: readonly Visit[], maxPerRow = MAX_VISITS_PER_ROW): VisitBatchRow[] {
  const profileOf = profileResolver();
  const open = new Map<number, Group>();
  const full: Group[] = [];
  for (const v of batch) {
    let group = open.get(v.linkSeq);
    if (group !== undefined && group.visits.length >= maxPerRow) {
      full.push(group);
      group = undefined;
    }
    if (group === undefined) open.set(v.linkSeq, (group = { linkSeq: v.linkSeq, firstTs: v.ts, lastTs: v.ts, humans: 0, visits: [] }));
    // Clicks arrive in time order from one thread, but min/max keep the bounds right regardless.
    if (v.ts < group.firstTs) group.firstTs = v.ts;
    if (v.ts > group.lastTs) group.lastTs = v.ts;
    if (!v.isBot) group.humans++;
    const p = profileOf(v);
    const tail = v.route == null ? p.storedTail : p.storedTail.slice(0, -1) + v.route.stored;
    group.visits.push(`[${v.ts},${p.storedHead}${countryJson(v.country)}${tail}`);
  }
  return [...full, ...open.values()].map((g) => ({ linkSeq: g.linkSeq, firstTs: g.firstTs, lastTs: g.lastTs, humans: g.humans, visits: `[${g.visits.join(",")}]` }));
}

// Countries are a few hundred two-letter codes (and "Unknown"): their JSON is made once each.
const countries = new Map<string, string>();
function countryJson(country: string): string {
  let json = countries.get(country);
  if (json === undefined) {
    json = JSON.stringify(country);
    if (countries.size < 1000) countries.set(country, json);
  }
  return json;
}

export function parseBatch(visits: string): StoredVisit[] {
  return JSON.parse(visits) as StoredVisit[];
}
