// A stored visit as Shlink's Visit (docs/shlink-api.md: Visits; Shlink docs/swagger/definitions/Visit.json,
// the SDK's ShlinkRegularVisit), and the visits query (Shlink docs/swagger/paths/v1_short-urls_{shortCode}_visits.json:
// page, itemsPerPage, startDate, endDate, excludeBots). We keep a visit's names, not its request:
// the User-Agent is made for bowser to read back (shlink-user-agent.ts), the location is the
// country alone, the referrer its host.

import type { ShlinkPaginator, ShlinkRegularVisit, ShlinkVisitLocation } from "@shlinkio/shlink-js-sdk/api-contract";
import { MAX_VISITS_PAGE } from "../../../stats/visit-pages.ts";
import { DIRECT, UNKNOWN } from "../../../visits/visit.ts";
import type { StoredVisit } from "../../../visits/visit-batch.ts";
import { invalidData } from "./shlink-problem.ts";
import { synthesizedUserAgent } from "./shlink-user-agent.ts";

const COUNTRY_NAMES = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

/** A date as Shlink writes it: Atom, seconds, with the offset (UTC here). */
export function atomDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

// The last second written: a page's visits come in time order, many in the same second.
let lastSecond = NaN;
let lastAtom = "";
function atomOfSecond(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastAtom = atomDate(second * 1000);
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
    date: atomDate(ts),
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

/** What a visits query asks: the range (ms, end exclusive), bots or not, and the page. */
export type VisitsParams = { fromTs: number; toTs: number; excludeBots: boolean; page: number; itemsPerPage: number };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function date(query: URLSearchParams, name: string): number | null {
  const value = query.get(name);
  if (value === null || value === "") return null;
  const ms = ISO_DATE.test(value) ? Date.parse(value.replace(" ", "T")) : NaN;
  if (!Number.isFinite(ms)) throw invalidData(`${name} is not an ISO 8601 date`, [name]);
  return ms;
}

function whole(query: URLSearchParams, name: string): number | null {
  const value = query.get(name);
  if (value === null || value === "") return null;
  if (!/^-?\d{1,9}$/.test(value)) throw invalidData(`${name} is not a whole number`, [name]);
  return Number(value);
}

/**
 * The query (docs/shlink-api.md: Visits): itemsPerPage absent, -1 or above 5,000 is 5,000 (a page
 * never holds more; `pagination` tells how many pages there are); endDate takes its whole second.
 */
export function visitsParams(query: URLSearchParams): VisitsParams {
  const page = whole(query, "page") ?? 1;
  if (page < 1) throw invalidData("page starts at 1", ["page"]);
  const asked = whole(query, "itemsPerPage") ?? -1;
  if (asked === 0 || asked < -1) throw invalidData("itemsPerPage is -1 (all) or a positive number", ["itemsPerPage"]);
  const bots = query.get("excludeBots");
  if (bots !== null && bots !== "" && bots !== "true" && bots !== "false") throw invalidData("excludeBots is true or false", ["excludeBots"]);
  const start = date(query, "startDate");
  const end = date(query, "endDate");
  return {
    fromTs: start ?? 0,
    toTs: end === null ? Number.MAX_SAFE_INTEGER : Math.floor(end / 1000) * 1000 + 1000,
    excludeBots: bots === "true",
    page,
    itemsPerPage: asked === -1 ? MAX_VISITS_PAGE : Math.min(asked, MAX_VISITS_PAGE),
  };
}

/** Shlink's Pagination (docs/swagger/definitions/Pagination.json; the SDK's ShlinkPaginator reads three of its fields). */
export function pagination(page: number, itemsPerPage: number, inPage: number, total: number): ShlinkPaginator & { itemsPerPage: number; itemsInCurrentPage: number } {
  const paginator = { currentPage: page, pagesCount: Math.ceil(total / itemsPerPage), totalItems: total } satisfies ShlinkPaginator;
  return { ...paginator, itemsPerPage, itemsInCurrentPage: inPage };
}
