// A stored visit as Shlink's Visit (docs/shlink-api.md: Visits; Shlink docs/swagger/definitions/Visit.json,
// the SDK's ShlinkRegularVisit), and a page's visits as JSON text. Pure: the SQLite reader thread
// writes a page's text with it (src/threads/reader/entry.ts), so it imports nothing of HTTP — the
// shape is defined here once, for the click thread (PostgreSQL) and the reader alike.

import type { ShlinkRegularVisit, ShlinkVisitLocation } from "@shlinkio/shlink-js-sdk/api-contract";
import type { PagedLink, PagedVisit } from "../../../stats/visit-pages.ts";
import { DIRECT, UNKNOWN } from "../../../visits/visit.ts";
import type { StoredVisit } from "../../../visits/visit-batch.ts";
import { synthesizedUserAgent } from "./shlink-user-agent.ts";
import { atomTime } from "./shlink-time.ts";

const COUNTRY_NAMES = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

// The last second written: a page's visits come in time order, many in the same second.
let lastSecond = NaN;
let lastAtom = "";
function atomOfSecond(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastAtom = atomTime(second * 1000);
  }
  return lastAtom;
}

/** The country as Shlink's VisitLocation (only the country is known), or null when unknown. */
export function visitLocation(code: string): ShlinkVisitLocation | null {
  const countryName = code === UNKNOWN || code === "" ? undefined : COUNTRY_NAMES.of(code);
  if (countryName === undefined) return null;
  return { countryCode: code, countryName, regionName: "", cityName: "", latitude: 0, longitude: 0, timezone: "", isEmpty: false } satisfies ShlinkVisitLocation;
}

// A page holds 5,000 visits of a few dozen (browser, OS, device) and countries: each is worked out
// once (a name lookup costs ~20 µs, measured), in maps cleared when they grow past any real count.
const MEMO_LIMIT = 10_000;
const agents = new Map<string, string>();
const locations = new Map<string, ShlinkVisitLocation | null>();

function memo<V>(map: Map<string, V>, key: string, make: () => V): V {
  const known = map.get(key);
  if (known !== undefined || map.has(key)) return known as V;
  if (map.size >= MEMO_LIMIT) map.clear();
  const made = make();
  map.set(key, made);
  return made;
}

/** One stored visit of the link whose short URL is `shortUrl`. */
export function shlinkVisit(v: StoredVisit, shortUrl: string): ShlinkRegularVisit {
  const [ts, browser, os, device, country, referrer, , , , isBot] = v;
  return {
    referer: referrer === DIRECT ? "" : referrer,
    date: atomTime(ts),
    userAgent: memo(agents, `${browser}\u0000${os}\u0000${device}`, () => synthesizedUserAgent(browser, os, device)),
    visitLocation: memo(locations, country, () => visitLocation(country)),
    potentialBot: isBot === 1,
    visitedUrl: shortUrl,
    redirectUrl: null,
  } satisfies ShlinkRegularVisit;
}

// A visit's JSON but its date, per (browser, OS, device, country, referrer, bot, short URL): a page
// of 5,000 repeats a few dozen of them, and the click thread writes 2 MB a page (docs/performance.md:
// Downloading a link's visits).
const fragments = new Map<string, string>();

/** The `data` of a page as JSON text: each visit as shlinkVisit makes it, its date first. */
export function visitsJson(rows: readonly { visit: StoredVisit; shortUrl: string }[]): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const { visit: v, shortUrl } = rows[i]!;
    const fragment = memo(fragments, `${v[1]}\u0000${v[2]}\u0000${v[3]}\u0000${v[4]}\u0000${v[5]}\u0000${v[9]}\u0000${shortUrl}`, () => {
      const { date: _date, ...rest } = shlinkVisit(v, shortUrl);
      return JSON.stringify(rest).slice(1, -1);
    });
    parts[i] = `{"date":"${atomOfSecond(v[0])}",${fragment}}`;
  }
  return `[${parts.join(",")}]`;
}

/**
 * A page's `data` written where its rows were read (docs/performance.md: Downloading a link's
 * visits): each link's short URL is the base its domain has (`bases`, by stored domain key, as the
 * surface's linkPlace gave them) and its alias. Null when a link's domain has no base there (a
 * domain added meanwhile): the surface writes that page itself.
 */
export function pageText(visits: readonly PagedVisit[], links: readonly PagedLink[], bases: Readonly<Record<string, string>>): string | null {
  const shortUrls = new Map<number, string>();
  for (const l of links) {
    const base = Object.hasOwn(bases, l.domain) ? bases[l.domain] : undefined;
    if (base === undefined) return null;
    shortUrls.set(l.seq, `${base}/${l.alias}`);
  }
  return visitsJson(visits.map((v) => ({ visit: v.visit, shortUrl: shortUrls.get(v.linkSeq) ?? "" })));
}
