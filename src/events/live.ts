// What the live view carries from the recorder (which knows a visit's browser, country, …) to the
// streams (src/events/live-hub.ts): the visits of watched links, once written, as the stats page's
// recent visits show them; and for dashboards watching every link, clicks per link.

import type { Visit } from "../visits/visit.ts";
import { isoTime } from "../util/day.ts";

/** A visit as GET /api/stats lists it in recentVisits (src/api/schemas.ts RecentVisit). */
export type LiveVisit = {
  timestamp: string; browser: string; os: string; device: string; country: string; referrer: string; isBot: boolean; rule?: string; variant?: string;
};

/** `visits`: [link id, visit]; `counts`: [link id, clicks, human clicks], for every link when some dashboard watches all. */
export type LiveBatch = { visits: [string, LiveVisit][]; counts: [string, number, number][] };

export function liveVisit(v: Visit): LiveVisit {
  const out: LiveVisit = { timestamp: isoTime(v.ts)!, browser: v.browser, os: v.os, device: v.device, country: v.country, referrer: v.referrer, isBot: v.isBot };
  if (v.route && v.route.fallback === null) {
    out.rule = v.route.rule;
    if (v.route.variant !== "") out.variant = v.route.variant;
  }
  return out;
}

/** The live part of a written batch: null when nothing in it is watched. Fallback visitors are not clicks. */
export function liveBatch(batch: readonly Visit[], watched: ReadonlySet<string>, all: boolean): LiveBatch | null {
  const visits: [string, LiveVisit][] = [];
  const counts = new Map<string, [string, number, number]>();
  for (const v of batch) {
    if (v.route?.fallback != null) continue;
    if (watched.has(v.linkId)) visits.push([v.linkId, liveVisit(v)]);
    if (all) {
      const c = counts.get(v.linkId) ?? counts.set(v.linkId, [v.linkId, 0, 0]).get(v.linkId)!;
      c[1]++;
      if (!v.isBot) c[2]++;
    }
  }
  return visits.length === 0 && counts.size === 0 ? null : { visits, counts: [...counts.values()] };
}
