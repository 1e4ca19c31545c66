// Kutt, through its API v2 (X-API-KEY): every link of the key's user, and with --visits the
// statistics Kutt keeps per link. Kutt stores no single visits (hourly counters only, and its API
// hands out rolling windows), so they come in as counts: clicks per day for the last 30 days, the
// clicks before those as one count on the link's creation day, and the last year's browsers,
// systems, countries and referrers (dated the newest day with clicks). Shapes: Kutt's docs/api/api.js, server/handlers/links.handler.js,
// server/utils/utils.js (sanitize.link, statsObjectToArray), server/queries/visit.queries.js.

import { apiClient, baseUrl } from "./http.ts";
import type { OutboundPolicy } from "../../outbound/reach.ts";
import { SourceError, type ImportSource, type SourceCounts, type SourceLink } from "../source.ts";
import { countsInPages } from "./count-pages.ts";
import { sourceTime } from "./time.ts";
import { addDays, dayOf } from "../../util/day.ts";

type KuttLink = {
  id: string; address: string; target: string; description?: string | null; banned?: boolean; password?: boolean; expire_in?: string | null;
  visit_count?: number | string; created_at: string; domain?: string | null;
};
type Facet = { name: string; value: number }[];
type Period = { stats: { browser?: Facet; os?: Facet; country?: Facet; referrer?: Facet }; views: number[] };
type Stats = { lastMonth?: Period; lastYear?: Period; allTime?: Period };

const LINKS_PER_PAGE = 50; // Kutt's own cap
const LINKS_PER_WRITE = 50;

// Kutt's fixed browser and system names (utils.getInitStats), as ua-parser-js names them here.
const BROWSERS: Record<string, string> = { chrome: "Chrome", edge: "Edge", firefox: "Firefox", ie: "IE", opera: "Opera", safari: "Safari", other: "Other" };
const SYSTEMS: Record<string, string> = { android: "Android", ios: "iOS", linux: "Linux", macos: "macOS", windows: "Windows", other: "Other" };

export function kuttSource(o: { url: string | undefined; apiKey: string; reach: OutboundPolicy }, now: () => number = Date.now): ImportSource {
  const base = baseUrl("Kutt", o.url, o.reach);
  const api = apiClient({ peer: "Kutt", base, headers: { "X-API-KEY": o.apiKey }, reach: o.reach });
  return {
    kind: "kutt",
    identity: `kutt ${base}`,
    keeps: "counts",
    async *links() {
      for (let skip = 0; ; skip += LINKS_PER_PAGE) {
        const body = await api.get<{ total?: number | string; data?: KuttLink[] }>(`/api/v2/links?limit=${LINKS_PER_PAGE}&skip=${skip}`);
        if (!Array.isArray(body.data)) throw new SourceError(`${base} answered the link list without data: not Kutt's API v2`, "schema");
        yield body.data.map(toLink);
        if (body.data.length === 0 || skip + LINKS_PER_PAGE >= Number(body.total)) return;
      }
    },
    history: (links, cursors) =>
      countsInPages(links, LINKS_PER_WRITE, async (key, { link, id }) => {
        // Counts come once: a second run cannot tell Kutt's new clicks from those imported.
        const scope = `counts ${id}`;
        if ((await cursors.one(scope)) !== null) return null;
        const counts = (link.clicks ?? 0) > 0 ? countsOf(key, link, await api.get<Stats>(`/api/v2/links/${link.ref}/stats`), now()) : null;
        return { counts, cursor: [scope, dayOf(now())] };
      }),
  };
}

function toLink(l: KuttLink): SourceLink {
  const disabledBecause = l.password
    ? "it has a password on Kutt, which Kutt never hands out: set one here (or none), then enable it"
    : l.banned ? "Kutt marked it banned" : null;
  return {
    key: `${l.domain ?? ""}/${l.address}`, domain: l.domain || null, code: l.address, ref: l.id, url: l.target, createdAt: sourceTime(l.created_at) ?? 0, tags: [],
    expiresAt: sourceTime(l.expire_in), validFrom: null, maxClicks: null,
    // Kutt's description is what it shows as the link's title.
    title: l.description ?? null, disabledBecause, dropped: [], clicks: Number(l.visit_count ?? 0),
  };
}

/** The link's counts: lastMonth.views[i] is the day 29 - i days ago (the last one today). */
export function countsOf(key: string, link: SourceLink, stats: Stats, now: number): SourceCounts {
  const today = dayOf(now);
  const views = stats.lastMonth?.views ?? [];
  const days = views.map((total, i) => ({ day: addDays(today, i - (views.length - 1)), total }));
  const recent = days.reduce((n, d) => n + d.total, 0);
  const older = (link.clicks ?? 0) - recent;
  if (older > 0) days.unshift({ day: dayOf(link.createdAt), total: older });
  const period = stats.lastYear ?? stats.allTime;
  const facets = period?.stats ?? {};
  const named = (facet: Facet | undefined, name: (n: string) => string) => (facet ?? []).map((f) => ({ name: name(f.name), total: f.value }));
  return {
    key,
    days,
    dimensionsTotal: (period?.views ?? []).reduce((n, v) => n + v, 0),
    dimensions: [
      ...named(facets.browser, (n) => BROWSERS[n] ?? n).map((d) => ({ ...d, dimension: "browser" as const })),
      ...named(facets.os, (n) => SYSTEMS[n] ?? n).map((d) => ({ ...d, dimension: "os" as const })),
      ...named(facets.country, (n) => (n.toLowerCase() === "unknown" ? "Unknown" : n.toUpperCase())).map((d) => ({ ...d, dimension: "country" as const })),
      // Kutt keeps the referring host with its dots written "[dot]", and "direct" for none.
      ...named(facets.referrer, (n) => (n.toLowerCase() === "direct" ? "Direct" : n.replaceAll("[dot]", "."))).map((d) => ({ ...d, dimension: "referrer" as const })),
    ],
  };
}
