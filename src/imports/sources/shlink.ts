// Shlink, through its REST API v3 (X-Api-Key): every short URL, page by page, and with --visits
// every visit of each, newest first as Shlink answers them, written oldest first. Shapes and
// paging: Shlink's docs/swagger (paths v1_short-urls.json, v1_short-urls_{shortCode}_visits.json,
// definitions ShortUrl.json, Visit.json, Pagination.json, Error.json), https://api-spec.shlink.io.

import { apiClient, baseUrl, type ApiClient } from "./http.ts";
import type { OutboundPolicy } from "../../outbound/reach.ts";
import { SourceError, type HistoryPage, type ImportSource, type SourceLink, type SourceVisit } from "../source.ts";
import { sourceTime } from "./time.ts";

type Pagination = { currentPage: number; pagesCount: number; totalItems: number };
type ShortUrl = {
  shortCode: string; longUrl: string; dateCreated: string; tags?: string[]; domain?: string | null; title?: string | null; crawlable?: boolean;
  hasRedirectRules?: boolean; visitsSummary?: { total: number }; visitsCount?: number;
  meta?: { validSince?: string | null; validUntil?: string | null; maxVisits?: number | null };
};
type Visit = { referer?: string | null; date: string; userAgent?: string | null; visitLocation?: { countryCode?: string } | null; visitedUrl?: string | null };

const LINKS_PER_PAGE = 100;
const VISITS_PER_PAGE = 500;

export function shlinkSource(o: { url: string | undefined; apiKey: string; reach: OutboundPolicy }): ImportSource {
  const base = baseUrl("Shlink", o.url, o.reach);
  const api = apiClient({ peer: "Shlink", base, headers: { "X-Api-Key": o.apiKey }, reach: o.reach });
  // Both lists are paged by offset over data that grows: fixed at the import's start, so that a
  // link or visit made meanwhile cannot shift a page (the next run takes those).
  const until = encodeURIComponent(new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00"));
  return {
    kind: "shlink",
    identity: `shlink ${base}`,
    keeps: "visits",
    async *links() {
      await checkVersion(api, base);
      for (let page = 1; ; page++) {
        const body = await api.get<{ shortUrls?: { data: ShortUrl[]; pagination: Pagination } }>(
          `/rest/v3/short-urls?page=${page}&itemsPerPage=${LINKS_PER_PAGE}&orderBy=dateCreated-ASC&endDate=${until}`,
        );
        if (!body.shortUrls || !Array.isArray(body.shortUrls.data)) throw new SourceError(`${base} answered the short URL list without shortUrls.data: not Shlink's API v3`, "schema");
        yield body.shortUrls.data.map(toLink);
        if (body.shortUrls.pagination.currentPage >= body.shortUrls.pagination.pagesCount) return;
      }
    },
    async *history(links, cursors): AsyncGenerator<HistoryPage> {
      for (const [key, { link, id }] of links) {
        // A cursor per link: how many of its visits (oldest first) are here.
        const scope = `visits ${id}`;
        const done = Number((await cursors.one(scope)) ?? 0);
        if (link.clicks !== null && link.clicks <= done) continue;
        const domain = link.ref ? `&domain=${encodeURIComponent(link.ref)}` : "";
        const page = (n: number) =>
          api.get<{ visits: { data: Visit[]; pagination: Pagination } }>(
            `/rest/v3/short-urls/${encodeURIComponent(link.code!)}/visits?page=${n}&itemsPerPage=${VISITS_PER_PAGE}&endDate=${until}${domain}`,
          );
        // Shlink answers newest first: the visits not here yet are the first `wanted` of that order.
        // They are read from the last of their pages back to the first, so that they are written
        // oldest first a page at a time, and a link with millions of visits never sits in memory.
        const first = await page(1);
        const wanted = first.visits.pagination.totalItems - done;
        let written = 0;
        for (let n = Math.ceil(wanted / VISITS_PER_PAGE); n >= 1; n--) {
          const body = n === 1 ? first : await page(n);
          const from = (n - 1) * VISITS_PER_PAGE;
          const visits = body.visits.data.slice(0, Math.max(0, wanted - from)).reverse().map((v) => toVisit(key, v));
          written += visits.length;
          yield { cursors: [[scope, String(done + written)]], visits };
        }
      }
    },
  };
}

// The health endpoint says the version; API v3 came with Shlink 3.0. Only a version number is
// ever quoted back, not whatever else the field holds.
async function checkVersion(api: ApiClient, base: string): Promise<void> {
  const version = (await api.peek<{ version?: unknown }>("/rest/health"))?.version;
  if (typeof version !== "string" || !/^\d{1,4}(\.\d{1,4}){0,3}$/.test(version)) return;
  if (Number(version.split(".")[0]) < 3) throw new SourceError(`${base} runs Shlink ${version}; this importer reads API v3 (Shlink 3.0 or later): upgrade Shlink first`, "schema");
}

function toLink(u: ShortUrl): SourceLink {
  const dropped: string[] = [];
  if (u.hasRedirectRules) dropped.push("redirect rules");
  return {
    key: `${u.domain ?? ""}/${u.shortCode}`, domain: u.domain || null, code: u.shortCode, ref: u.domain ?? undefined, url: u.longUrl, createdAt: sourceTime(u.dateCreated) ?? 0, tags: u.tags ?? [],
    expiresAt: sourceTime(u.meta?.validUntil), validFrom: sourceTime(u.meta?.validSince), maxClicks: u.meta?.maxVisits ?? null, crawlable: u.crawlable === true,
    title: u.title ?? null, disabledBecause: null, dropped, clicks: u.visitsSummary?.total ?? u.visitsCount ?? null,
  };
}

function toVisit(key: string, v: Visit): SourceVisit {
  return { key, ts: sourceTime(v.date) ?? 0, referrer: v.referer || null, userAgent: v.userAgent || null, country: v.visitLocation?.countryCode || null, visitedUrl: v.visitedUrl ?? null };
}
