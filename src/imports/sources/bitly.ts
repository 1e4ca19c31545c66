// Bitly, through its API v4 (Authorization: Bearer): the bitlinks of a group (or of every group
// the token sees), archived ones too, and with --visits their clicks per day. A bitlink's code
// here is its first custom back-half (what people printed) or else its hash; its other back-halves
// and the hash become links of their own to the same place, so every printed link goes on working.
// Shapes and paging: Bitly's OpenAPI (info.title "Bitly API", version 4.0.0: getBitlinksByGroup,
// getClicksForBitlink, Groups, Pagination, Clicks, Error) and dev.bitly.com/docs/getting-started/
// changes-to-retrieve-bitlinks-by-group (follow pagination.next; an empty one ends the list).

import { apiClient, baseUrl, isObject } from "./http.ts";
import type { OutboundPolicy } from "../../outbound/reach.ts";
import { SourceError, type ImportSource, type SourceLink } from "../source.ts";
import { countsInPages } from "./count-pages.ts";
import { sourceTime } from "./time.ts";
import { dayOf } from "../../util/day.ts";

type Bitlink = { id: string; link?: string; long_url?: string; title?: string; created_at: string; archived?: boolean; tags?: string[]; custom_bitlinks?: string[] };

const LINKS_PER_WRITE = 50;

export function bitlySource(o: { token: string; group: string | undefined; base?: string; reach: OutboundPolicy }, now: () => number = Date.now): ImportSource {
  const base = baseUrl("Bitly", o.base ?? "https://api-ssl.bitly.com", o.reach);
  const api = apiClient({
    peer: "Bitly", base, headers: { Authorization: `Bearer ${o.token}` }, reach: o.reach, refusedHint: "is the token right?",
    // Bitly has long answered its rate limit with 403 RATE_LIMIT_EXCEEDED.
    rateLimited: (status, body) => status === 403 && isObject(body) && body.message === "RATE_LIMIT_EXCEEDED",
  });
  return {
    kind: "bitly",
    // Bitlink ids are Bitly's own everywhere: one import, whichever group a run names.
    identity: `bitly${o.base ? ` ${base}` : ""}`,
    keeps: "counts",
    async *links() {
      const groups = o.group ? [o.group] : ((await api.get<{ groups?: { guid: string }[] }>("/v4/groups")).groups ?? []).map((g) => g.guid);
      for (const group of groups) {
        let next: string | null = `/v4/groups/${encodeURIComponent(group)}/bitlinks?size=100&archived=both`;
        while (next !== null) {
          const body: { links?: Bitlink[]; pagination?: { next?: string } } = await api.get(next);
          if (!Array.isArray(body.links)) throw new SourceError(`Bitly answered the bitlinks of group ${group} without links`, "schema");
          yield body.links.filter((b) => b.long_url).flatMap(toLinks);
          // Never an empty search_after: Bitly would start the list over.
          next = body.pagination?.next ? body.pagination.next : null;
          // The token goes wherever next points: only ever to Bitly itself.
          if (next !== null && next.startsWith("http") && new URL(next).origin !== new URL(base).origin) throw new SourceError(`Bitly's next page points elsewhere (${new URL(next).origin})`, "schema");
        }
      }
    },
    history(links, cursors) {
      // Only whole days: today's count is not final; a cursor per link holds the last day taken.
      const today = dayOf(now());
      return countsInPages(links, LINKS_PER_WRITE, async (key, { link, id }) => {
        if (link.ref === undefined) return null; // an extra back-half: the clicks are its bitlink's
        const scope = `clicks ${id}`;
        const after = (await cursors.one(scope)) ?? "";
        const body = await api.get<{ link_clicks?: { date: string; clicks: number }[] }>(`/v4/bitlinks/${link.ref}/clicks?unit=day&units=-1`);
        const days = (body.link_clicks ?? []).map((c) => ({ day: dayOf(sourceTime(c.date) ?? 0), total: c.clicks })).filter((d) => d.day > after && d.day < today);
        const last = days.reduce((newest, d) => (d.day > newest ? d.day : newest), after);
        return { counts: { key, days, dimensions: [], dimensionsTotal: 0 }, cursor: [scope, last] };
      });
    },
  };
}

/** Bitly's own short domains: a bitlink on one of them lands on our default domain. */
const BITLY_DOMAINS = ["bit.ly", "j.mp", "bitly.com"];

/**
 * A bitlink as links here: the one with its history, and one more for each other code it answers
 * to, each on the domain it answers on (a branded domain's back-half on that domain, bit.ly's on
 * our default).
 */
function toLinks(b: Bitlink): SourceLink[] {
  const places = [...(b.custom_bitlinks ?? []), b.link ?? `https://${b.id}`].map(placeOf).filter((p): p is Place => p !== null);
  const unique = [...new Map(places.map((p) => [`${p.domain ?? ""}/${p.code}`, p])).values()];
  // Every code of the bitlink shows its title: they are one link at Bitly.
  const common = { url: b.long_url!, title: b.title ?? null, createdAt: sourceTime(b.created_at) ?? 0, tags: b.tags ?? [], expiresAt: null, validFrom: null, maxClicks: null, disabledBecause: null, clicks: null, dropped: [] };
  return unique.map(({ domain, code }, i) => ({
    ...common, key: i === 0 ? b.id : `${b.id} ${domain === null ? "" : `${domain}/`}${code}`, domain, code, ref: i === 0 ? b.id : undefined,
  }));
}

type Place = { domain: string | null; code: string };

function placeOf(url: string): Place | null {
  try {
    const u = new URL(url);
    const code = decodeURIComponent(u.pathname.replace(/^\/+/, ""));
    const host = u.hostname.toLowerCase();
    return code === "" ? null : { domain: BITLY_DOMAINS.includes(host) ? null : host, code };
  } catch {
    return null;
  }
}
