// A fake Shlink (REST API v3, as of Shlink v5.1.5) for the importer's integration tests.
// Where each shape comes from (github.com/shlinkio/shlink at tag v5.1.5 unless said otherwise):
// - auth header `X-Api-Key`: docs/swagger/swagger.json (securitySchemes.ApiKey) and
//   module/Rest/src/Middleware/AuthenticationMiddleware.php; health is exempt
//   (module/Rest/config/auth.config.php `routes_without_api_key`); an unmatched route skips auth.
// - 401 bodies: module/Rest/src/Exception/MissingAuthenticationException.php (missing key),
//   VerifyAuthenticationException.php (wrong key).
// - problem JSON assembly (`application/problem+json`, extra members first, then title, type,
//   status, detail; title from the status when none given; "Cannot GET <uri>!" for an unknown
//   route): mezzio/mezzio-problem-details src/ProblemDetailsResponseFactory.php and
//   src/ProblemDetailsNotFoundHandler.php; types for 404/500 from config/autoload/error-handler.global.php,
//   others `https://httpwg.org/specs/rfc9110.html#status.N` (newest mezzio-problem-details; older
//   releases used https://httpstatus.es/N).
// - GET /rest/v3/short-urls: docs/swagger/paths/v1_short-urls.json; params and defaults in
//   module/Core/src/ShortUrl/Model/ShortUrlsParams.php (page 1, itemsPerPage 10, -1 = all) and
//   Model/Ordering.php + ShortUrl/Model/OrderableField.php (`field-DIR`, DIR defaults to ASC);
//   default order dateCreated DESC (ShortUrl/Repository/ShortUrlListRepository.php), dates
//   inclusive on dateCreated (same file); a bad param is 400 invalid-data
//   (module/Core/src/ObjectMapper/MapValidationMiddleware.php, Exception/ValidationException.php).
// - ShortUrl JSON: docs/swagger/definitions/ShortUrl.json, ShortUrl::toArray() in
//   module/Core/src/ShortUrl/Entity/ShortUrl.php, `shortUrl` from ShortUrl/Transformer/ShortUrlDataTransformer.php.
// - GET /rest/v3/short-urls/{shortCode}/visits: docs/swagger/paths/v1_short-urls_{shortCode}_visits.json;
//   lenient params in module/Core/src/Visit/Model/VisitsParams.php and
//   Model/AbstractInfinitePaginableListParams.php (page <= 0 → 1, itemsPerPage absent/< 0 → all; 0 is
//   all too via shlink-common Paginator::setMaxPerPage), `excludeBots` present = on; newest first
//   (Visit/Repository/VisitRepository.php `orderBy('v.id', 'DESC')`), dates inclusive (same file).
// - Visit JSON: Visit::jsonSerialize() (module/Core/src/Visit/Entity/Visit.php), VisitLocation::jsonSerialize().
// - 404 short-url-not-found (with the domain variant): module/Core/src/Exception/ShortUrlNotFoundException.php.
// - pagination object: shlinkio/shlink-common src/Paginator/Util/PagerfantaUtils.php and
//   src/Paginator/Paginator.php (with "all", itemsPerPage = max(totalItems, 1)); pagesCount is at
//   least 1 (Pagerfanta). A page past pagesCount makes Pagerfanta throw OutOfRangeCurrentPageException,
//   which is no problem-details exception, so Shlink answers the generic 500 (inferred, not observed).
// - GET /rest/health (also /rest/v{1,2,3}/health): module/Rest/src/Action/HealthAction.php
//   (`application/health+json`), docs/swagger/paths/health.json, routes in module/Rest/src/ConfigProvider.php.

import { json, servePeer, type Fault, type Peer } from "./fault.ts";

export type ShlinkShortUrl = {
  shortCode: string;
  shortUrl: string;
  longUrl: string;
  dateCreated: string;
  visitsSummary: { total: number; nonBots: number; bots: number };
  tags: string[];
  meta: { validSince: string | null; validUntil: string | null; maxVisits: number | null };
  /** null = the default domain */
  domain: string | null;
  title: string | null;
  crawlable: boolean;
  forwardQuery: boolean;
  hasRedirectRules: boolean;
};

export type ShlinkVisitLocation = {
  countryCode: string;
  countryName: string;
  regionName: string;
  cityName: string;
  latitude: number;
  longitude: number;
  timezone: string;
  isEmpty: boolean;
};

export type ShlinkVisit = {
  /** "" for a direct visit */
  referer: string;
  date: string;
  userAgent: string;
  /** null while not geolocated */
  visitLocation: ShlinkVisitLocation | null;
  potentialBot: boolean;
  visitedUrl: string | null;
  redirectUrl: string | null;
};

export type ShlinkOptions = {
  apiKey: string;
  shortUrls: ShlinkShortUrl[];
  /** keyed by shlinkVisitsKey(shortCode, domain); each list OLDEST FIRST, the order Shlink stored them */
  visits?: Map<string, ShlinkVisit[]>;
  /** what GET /rest/health reports */
  version?: string;
  faults?: Fault[];
  /** the loopback address it listens on (default 127.0.0.4); the outbound policy's tests use 127.0.0.1 */
  hostname?: string;
};

export const SHLINK_DEFAULT_DOMAIN = "s.test";

/** The key of `visits` for a short URL. */
export function shlinkVisitsKey(shortCode: string, domain: string | null = null): string {
  return `${domain ?? ""}/${shortCode}`;
}

/** A short URL as the API serializes it, with defaults for what the test leaves out. */
export function shlinkShortUrl(partial: Partial<ShlinkShortUrl> & { shortCode: string }): ShlinkShortUrl {
  const domain = partial.domain ?? null;
  return {
    shortCode: partial.shortCode,
    shortUrl: partial.shortUrl ?? `https://${domain ?? SHLINK_DEFAULT_DOMAIN}/${partial.shortCode}`,
    longUrl: partial.longUrl ?? `https://example.com/${partial.shortCode}`,
    dateCreated: partial.dateCreated ?? "2025-01-01T00:00:00+00:00",
    tags: partial.tags ?? [],
    meta: partial.meta ?? { validSince: null, validUntil: null, maxVisits: null },
    domain,
    title: partial.title ?? null,
    crawlable: partial.crawlable ?? false,
    forwardQuery: partial.forwardQuery ?? true,
    visitsSummary: partial.visitsSummary ?? { total: 0, nonBots: 0, bots: 0 },
    hasRedirectRules: partial.hasRedirectRules ?? false,
  };
}

/** A visit as the API serializes it; a partial location is completed the way Shlink stores unknown parts ('' and 0). */
export function shlinkVisit(
  partial: Partial<Omit<ShlinkVisit, "visitLocation">> & { visitLocation?: Partial<ShlinkVisitLocation> | null } = {},
): ShlinkVisit {
  const place = partial.visitLocation ?? null;
  const location = place === null ? null : {
    countryCode: place.countryCode ?? "",
    countryName: place.countryName ?? "",
    regionName: place.regionName ?? "",
    cityName: place.cityName ?? "",
    latitude: place.latitude ?? 0,
    longitude: place.longitude ?? 0,
    timezone: place.timezone ?? "",
    isEmpty: false,
  };
  if (location !== null) {
    location.isEmpty = place?.isEmpty ??
      (location.countryCode === "" && location.countryName === "" && location.regionName === "" &&
        location.cityName === "" && location.latitude === 0 && location.longitude === 0 && location.timezone === "");
  }
  return {
    referer: partial.referer ?? "",
    date: partial.date ?? "2025-01-01T00:00:00+00:00",
    userAgent: partial.userAgent ?? "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
    visitLocation: location,
    potentialBot: partial.potentialBot ?? false,
    visitedUrl: partial.visitedUrl ?? null,
    redirectUrl: partial.redirectUrl ?? null,
  };
}

const PROBLEM = "application/problem+json";
const TYPE = (code: string) => `https://shlink.io/api/error/${code}`;
const TITLES: Record<number, string> = {
  400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
  408: "Request Timeout", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
  503: "Service Unavailable", 504: "Gateway Timeout",
};

/** mezzio-problem-details' createResponse(): extra members, then title, type, status, detail. */
function problem(status: number, detail: string, title?: string, type?: string, extra: Record<string, unknown> = {}): Response {
  const defaultType = status === 404 ? TYPE("not-found") : status === 500 ? TYPE("internal-server-error")
    : `https://httpwg.org/specs/rfc9110.html#status.${status}`;
  const body = { ...extra, title: title ?? TITLES[status] ?? "Unknown Error", type: type ?? defaultType, status, detail };
  return json(status, body, PROBLEM);
}

const invalidData = (elements: string[]) =>
  problem(400, "Provided data is not valid", "Invalid data", TYPE("invalid-data"), { invalidElements: elements });
// A non-problem exception (Pagerfanta's out-of-range page), as ProblemDetailsMiddleware renders it outside debug mode.
const unknownError = () => problem(500, "An unknown error occurred.");

export async function startShlink(options: ShlinkOptions): Promise<Peer> {
  const visits = options.visits ?? new Map<string, ShlinkVisit[]>();
  return servePeer({
    hostname: options.hostname ?? "127.0.0.4",
    faults: options.faults,
    faultResponse: (status) => problem(status, status >= 500 ? "An unknown error occurred." : TITLES[status] ?? "Unknown Error"),
    handle: (request, url) => {
      const route = matchRoute(url.pathname);
      if (route === null) return problem(404, `Cannot ${request.method} ${url.href}!`);
      if (request.method !== "GET") return new Response(null, { status: 405, headers: { Allow: "GET" } });
      if (route.kind === "health") {
        const body = { status: "pass", version: options.version ?? "5.1.5", links: { about: "https://shlink.io", project: "https://github.com/shlinkio/shlink" } };
        return json(200, body, "application/health+json");
      }
      const key = request.headers.get("X-Api-Key") ?? "";
      if (key === "") {
        return problem(401, 'Expected one of the following authentication headers, ["X-Api-Key"], but none were provided',
          "Invalid authorization", TYPE("missing-authentication"), { expectedHeaders: ["X-Api-Key"] });
      }
      if (key !== options.apiKey) {
        return problem(401, "Provided API key does not exist or is invalid.", "Invalid API key", TYPE("invalid-api-key"));
      }
      if (route.kind === "list") return listShortUrls(options.shortUrls, url.searchParams);
      return listVisits(options.shortUrls, visits, route.shortCode, url.searchParams);
    },
  });
}

type Route = { kind: "health" } | { kind: "list" } | { kind: "visits"; shortCode: string };

function matchRoute(pathname: string): Route | null {
  if (/^\/rest(\/v[123])?\/health$/.test(pathname)) return { kind: "health" };
  if (/^\/rest\/v[123]\/short-urls$/.test(pathname)) return { kind: "list" };
  const visits = /^\/rest\/v[123]\/short-urls\/([^/]+)\/visits$/.exec(pathname);
  if (visits?.[1] !== undefined) return { kind: "visits", shortCode: decodeURIComponent(visits[1]) };
  return null;
}

function listShortUrls(all: ShlinkShortUrl[], query: URLSearchParams): Response {
  const page = intParam(query, "page", 1);
  const itemsPerPage = intParam(query, "itemsPerPage", 10);
  const order = parseOrderBy(query.get("orderBy"));
  const start = dateParam(query, "startDate");
  const end = dateParam(query, "endDate");
  const invalid = [
    ...(page === null || page < 1 ? ["page"] : []),
    ...(itemsPerPage === null || (itemsPerPage < 1 && itemsPerPage !== -1) ? ["itemsPerPage"] : []),
    ...(order === null ? ["orderBy"] : []),
    ...(start === null ? ["startDate"] : []),
    ...(end === null ? ["endDate"] : []),
  ];
  if (invalid.length > 0 || page === null || itemsPerPage === null || order === null || start === null || end === null) {
    return invalidData(invalid);
  }
  const domain = query.get("domain");
  const matching = all.filter((shortUrl) => {
    const created = Date.parse(shortUrl.dateCreated);
    if (start !== undefined && created < start) return false;
    if (end !== undefined && created > end) return false;
    if (domain !== null && shortUrl.domain !== (domain === "DEFAULT" ? null : domain)) return false;
    return true;
  });
  const sorted = matching.toSorted((a, b) => order.direction * compareBy(order.field, a, b));
  const paged = paginate(sorted, page, itemsPerPage === -1 ? null : itemsPerPage);
  return paged === null ? unknownError() : json(200, { shortUrls: paged });
}

function listVisits(shortUrls: ShlinkShortUrl[], visits: Map<string, ShlinkVisit[]>, shortCode: string, query: URLSearchParams): Response {
  const domain = query.get("domain");
  const shortUrl = shortUrls.find((candidate) => candidate.shortCode === shortCode && candidate.domain === domain);
  if (shortUrl === undefined) {
    const suffix = domain === null ? "" : ` for domain "${domain}"`;
    const extra = domain === null ? { shortCode } : { shortCode, domain };
    return problem(404, `No URL found with short code "${shortCode}"${suffix}`, "Short URL not found", TYPE("short-url-not-found"), extra);
  }
  const start = dateParam(query, "startDate");
  const end = dateParam(query, "endDate");
  if (start === null || end === null) return invalidData([...(start === null ? ["startDate"] : []), ...(end === null ? ["endDate"] : [])]);
  // PHP's (int) cast: anything unparsable is 0, which is "first page" / "all items" here.
  const page = Math.max(Math.trunc(Number.parseInt(query.get("page") ?? "1", 10) || 0), 1);
  const perPage = Math.trunc(Number.parseInt(query.get("itemsPerPage") ?? "-1", 10) || 0);
  const excludeBots = query.has("excludeBots");
  const newestFirst = (visits.get(shlinkVisitsKey(shortCode, domain)) ?? []).toReversed().filter((visit) => {
    const date = Date.parse(visit.date);
    if (start !== undefined && date < start) return false;
    if (end !== undefined && date > end) return false;
    return !(excludeBots && visit.potentialBot);
  });
  const paged = paginate(newestFirst, page, perPage < 1 ? null : perPage);
  return paged === null ? unknownError() : json(200, { visits: paged });
}

/** `perPage` null = all items. Null when the page is out of range (Pagerfanta throws). */
function paginate<T>(items: T[], page: number, perPage: number | null) {
  const itemsPerPage = perPage ?? Math.max(items.length, 1);
  const pagesCount = Math.max(Math.ceil(items.length / itemsPerPage), 1);
  if (page > pagesCount) return null;
  const data = items.slice((page - 1) * itemsPerPage, page * itemsPerPage);
  return {
    data,
    pagination: { currentPage: page, pagesCount, itemsPerPage, itemsInCurrentPage: data.length, totalItems: items.length },
  };
}

type OrderField = "longUrl" | "shortCode" | "dateCreated" | "title" | "visits" | "nonBotVisits";
const ORDER_FIELDS: OrderField[] = ["longUrl", "shortCode", "dateCreated", "title", "visits", "nonBotVisits"];

/** `field-DIR`, DIR ASC when absent; no orderBy = dateCreated DESC. Null when invalid. */
function parseOrderBy(value: string | null): { field: OrderField; direction: 1 | -1 } | null {
  if (value === null || value === "") return { field: "dateCreated", direction: -1 };
  const [field, dir = "ASC"] = value.split("-");
  const known = ORDER_FIELDS.find((candidate) => candidate === field);
  if (known === undefined || (dir !== "ASC" && dir !== "DESC")) return null;
  return { field: known, direction: dir === "ASC" ? 1 : -1 };
}

function compareBy(field: OrderField, a: ShlinkShortUrl, b: ShlinkShortUrl): number {
  switch (field) {
    case "dateCreated": return Date.parse(a.dateCreated) - Date.parse(b.dateCreated);
    case "visits": return a.visitsSummary.total - b.visitsSummary.total;
    case "nonBotVisits": return a.visitsSummary.nonBots - b.visitsSummary.nonBots;
    case "title": return (a.title ?? "").localeCompare(b.title ?? "");
    case "longUrl": return a.longUrl.localeCompare(b.longUrl);
    case "shortCode": return a.shortCode < b.shortCode ? -1 : a.shortCode > b.shortCode ? 1 : 0;
  }
}

/** Absent → fallback; not an integer → null. */
function intParam(query: URLSearchParams, name: string, fallback: number): number | null {
  const raw = query.get(name);
  if (raw === null) return fallback;
  return /^-?\d+$/.test(raw.trim()) ? Number(raw) : null;
}

/** Absent → undefined (no bound); unparsable → null; else epoch ms. */
function dateParam(query: URLSearchParams, name: string): number | undefined | null {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? null : ms;
}
