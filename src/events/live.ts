// What the live view carries from the recorder (which knows a visit's browser, country, …) to the
// streams (src/events/live-hub.ts): the visits of watched links, once written, as the stats page's
// recent visits show them; and for dashboards watching every link, clicks per link.

import { countedApart, type Visit } from "../visits/visit.ts";
import { isoTime } from "../util/day.ts";

/** A visit as GET /api/stats lists it in recentVisits (src/api/schemas.ts RecentVisit). */
export type LiveVisit = {
  timestamp: string; browser: string; os: string; device: string; country: string; referrer: string; isBot: boolean; rule?: string; variant?: string;
};

/**
 * Visits a batch itemizes per watched link at most (about ten batches a second at full load): a
 * viewer is shown 200 a second of a link clicked faster, and the rest as counts (`more`), so the
 * totals stay right and neither the recorder nor the streams pay for what no one can read.
 */
export const LIVE_VISITS_PER_LINK = 20;

/**
 * `visits`: [link id, visit]; `more`: [link id, clicks, human clicks] of watched links beyond the
 * visits; `counts`: [link id, clicks, human clicks] of every link, when some dashboard watches all.
 */
export type LiveBatch = { visits: [string, LiveVisit][]; more: [string, number, number][]; counts: [string, number, number][] };

export function liveVisit(v: Visit): LiveVisit {
  const out: LiveVisit = { timestamp: isoTime(v.ts)!, browser: v.browser, os: v.os, device: v.device, country: v.country, referrer: v.referrer, isBot: v.isBot };
  if (v.route && !countedApart(v.route)) {
    out.rule = v.route.rule;
    if (v.route.variant !== "") out.variant = v.route.variant;
  }
  return out;
}

/** The live part of a written batch: null when nothing in it is watched. Fallback visitors and previews are not clicks. */
export function liveBatch(batch: readonly Visit[], watched: ReadonlySet<string>, all: boolean): LiveBatch | null {
  const visits: [string, LiveVisit][] = [];
  const itemized = new Map<string, number>();
  const more = new Map<string, [string, number, number]>();
  const counts = new Map<string, [string, number, number]>();
  const add = (map: Map<string, [string, number, number]>, v: Visit) => {
    const c = map.get(v.linkId) ?? map.set(v.linkId, [v.linkId, 0, 0]).get(v.linkId)!;
    c[1]++;
    if (!v.isBot) c[2]++;
  };
  for (const v of batch) {
    if (countedApart(v.route) || v.orphan !== undefined) continue; // an orphan visit is of no link
    if (watched.has(v.linkId)) {
      const n = itemized.get(v.linkId) ?? 0;
      if (n < LIVE_VISITS_PER_LINK) {
        visits.push([v.linkId, liveVisit(v)]);
        itemized.set(v.linkId, n + 1);
      } else add(more, v);
    }
    if (all) add(counts, v);
  }
  return visits.length === 0 && counts.size === 0 ? null : { visits, more: [...more.values()], counts: [...counts.values()] };
}
