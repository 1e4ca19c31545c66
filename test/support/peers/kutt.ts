// A fake Kutt (v3.x, API mounted at /api/v2) for the importer's integration tests.
// Where each shape comes from (github.com/thedevs-network/kutt at HEAD fc832d7e, same as v3.2.3 for these files):
// - mounts: server/server.js (`/api/v2` and `/api`; any other GET renders the 404 PAGE with status
//   200, since `renders.notFound` calls res.render without a status); routes in
//   server/routes/routes.js, server/routes/link.routes.js, server/routes/health.routes.js ("OK").
// - auth: docs/api/api.js (securitySchemes.APIKeyAuth, header X-API-KEY), server/passport.js
//   (`apiKeyHeader: "x-api-key"`, matched case-insensitively); server/handlers/auth.handler.js: the
//   API-key strategy is not strict, the JWT one is, so a missing or wrong key both give 401
//   {"error":"Unauthorized."}; for an HTML request it is `HX-Redirect: /logout` + "NOT_AUTHENTICATED".
// - JSON vs HTML: server/handlers/locals.handler.js `isHTML` (req.accepts(["json","html"]) === "html").
// - errors: server/handlers/helpers.handler.js `error()` → {"error": message}, status from
//   CustomError (server/utils/utils.js, default 500); non-CustomError → 500 "An error occurred.";
//   429 from express-rate-limit's default message (auth routes only in Kutt; a fault here plays it).
// - GET /api/v2/links: helpers.handler.js `parseQuery` (limit = parseInt || 10, capped at 50;
//   skip = parseInt || 0; a non-string (repeated / bracketed) limit, skip or search is 400
//   "<name> query is not valid."), server/handlers/links.handler.js `get` ({total, limit, skip, data}),
//   server/queries/link.queries.js `get`/`total` (ILIKE search over description, address, target,
//   domain; ORDER BY links.id DESC, i.e. newest created first). A negative limit/offset makes knex
//   throw → 500 "An error occurred." (inferred).
// - Link JSON: utils.js `sanitize.link` over link.queries.js `selectable` (key order kept), `getShortURL`
//   (https:// for the default domain, http:// for a custom one unless CUSTOM_DOMAIN_USE_HTTPS, server/env.js).
// - GET /api/v2/links/{id}/stats: validators.handler.js `getStats` (exactly 36 chars, else 400
//   "ID is invalid."), links.handler.js `stats` (missing link → CustomError without status → 500
//   "Link could not be found."; body {...stats, ...link}), server/queries/visit.queries.js `find`
//   (lastYear 12 / lastDay 24 / lastMonth 30 / lastWeek 7 views, last element = current period;
//   updatedAt), utils.js `getInitStats` (fixed browser and os keys), `statsObjectToArray` ({name, value}, value desc).

import { json, servePeer, type Fault, type Peer } from "./fault.ts";

export type KuttLink = {
  /** the link's UUID */
  id: string;
  /** the short code */
  address: string;
  banned: boolean;
  created_at: string;
  updated_at: string;
  password: boolean;
  description: string | null;
  /** raw DB value, format depends on Kutt's database */
  expire_in: string | null;
  target: string;
  visit_count: number;
  /** null = the default domain */
  domain: string | null;
  link: string;
};

export type KuttFacet = { name: string; value: number }[];
export type KuttPeriod = { stats: { browser: KuttFacet; os: KuttFacet; country: KuttFacet; referrer: KuttFacet }; views: number[]; total: number };
export type KuttStats = { lastYear: KuttPeriod; lastDay: KuttPeriod; lastMonth: KuttPeriod; lastWeek: KuttPeriod; updatedAt: string };

export type KuttBrowser = "chrome" | "edge" | "firefox" | "ie" | "opera" | "other" | "safari";
export type KuttOs = "android" | "ios" | "linux" | "macos" | "other" | "windows";
const BROWSERS: KuttBrowser[] = ["chrome", "edge", "firefox", "ie", "opera", "other", "safari"];
const SYSTEMS: KuttOs[] = ["android", "ios", "linux", "macos", "other", "windows"];

export type KuttOptions = {
  apiKey: string;
  /** in creation order (oldest first): the API lists them the other way round */
  links: KuttLink[];
  /** keyed by link id (UUID); a link without an entry has all-zero stats, as one without visits */
  stats?: Map<string, KuttStats>;
  faults?: Fault[];
};

export const KUTT_DEFAULT_DOMAIN = "kutt.test";

/** A link as the API serializes it, with defaults for what the test leaves out. */
export function kuttLink(partial: Partial<KuttLink> & { address: string }): KuttLink {
  const domain = partial.domain ?? null;
  const created = partial.created_at ?? "2025-01-01T00:00:00.000Z";
  return {
    id: partial.id ?? crypto.randomUUID(),
    address: partial.address,
    banned: partial.banned ?? false,
    created_at: created,
    updated_at: partial.updated_at ?? created,
    password: partial.password ?? false,
    description: partial.description ?? null,
    expire_in: partial.expire_in ?? null,
    target: partial.target ?? `https://example.com/${partial.address}`,
    visit_count: partial.visit_count ?? 0,
    domain,
    link: partial.link ?? `${domain === null ? "https" : "http"}://${domain ?? KUTT_DEFAULT_DOMAIN}/${partial.address}`,
  };
}

/**
 * Stats consistent with one series of daily clicks. Simplifications (Kutt keeps hourly rows and
 * rolls them up relative to the request time):
 * - every click is within the last 30 days, so lastYear holds them all, in its current month (views[11]);
 * - today's clicks (dailyLast30[29]) all fall in the current hour, so lastDay.views[23] holds them;
 * - lastWeek.views = the last 7 days of dailyLast30 (same day index as Kutt's differenceInDays);
 * - the facet counts describe all 30 days (lastMonth and lastYear); every period gets them scaled
 *   to its own total (largest remainder) when they do not add up to it, so each period's browser,
 *   os, country and referrer counts add up to its total, as in Kutt (one of each per visit).
 * Facet names are passed through: Kutt stores lowercase ISO countries or "unknown", and referrer
 * hosts with dots as "[dot]" (e.g. "google[dot]com") or "direct".
 */
export function kuttStats(input: {
  dailyLast30: number[];
  browsers?: Partial<Record<KuttBrowser, number>>;
  os?: Partial<Record<KuttOs, number>>;
  countries?: Record<string, number>;
  referrers?: Record<string, number>;
}): KuttStats {
  if (input.dailyLast30.length !== 30) throw new Error("kuttStats: dailyLast30 needs 30 days (oldest first, today last)");
  const browsers = withKeys(BROWSERS, input.browsers ?? {});
  const systems = withKeys(SYSTEMS, input.os ?? {});
  const countries = input.countries ?? {};
  const referrers = input.referrers ?? {};
  const period = (views: number[]): KuttPeriod => {
    const total = views.reduce((sum, n) => sum + n, 0);
    return {
      stats: {
        browser: facet(scale(browsers, total)),
        os: facet(scale(systems, total)),
        country: facet(scale(countries, total)),
        referrer: facet(scale(referrers, total)),
      },
      views,
      total,
    };
  };
  const today = input.dailyLast30[29] ?? 0;
  const month = [...input.dailyLast30];
  const monthTotal = month.reduce((sum, n) => sum + n, 0);
  return {
    lastYear: period([...Array<number>(11).fill(0), monthTotal]),
    lastDay: period([...Array<number>(23).fill(0), today]),
    lastMonth: period(month),
    lastWeek: period(month.slice(23)),
    updatedAt: new Date().toISOString(),
  };
}

function withKeys(keys: string[], counts: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(keys.map((key) => [key, counts[key] ?? 0]));
}

/** Scales counts to add up to `total` (largest remainder); unchanged when they already do or are all zero. */
function scale(counts: Record<string, number>, total: number): Record<string, number> {
  const entries = Object.entries(counts);
  const sum = entries.reduce((acc, [, n]) => acc + n, 0);
  if (sum === total || sum === 0) return counts;
  const shares = entries.map(([name, n]) => ({ name, exact: (n * total) / sum }));
  const result = Object.fromEntries(shares.map(({ name, exact }) => [name, Math.floor(exact)]));
  let left = total - Object.values(result).reduce((acc, n) => acc + n, 0);
  for (const { name } of shares.toSorted((a, b) => (b.exact % 1) - (a.exact % 1))) {
    if (left-- <= 0) break;
    result[name] = (result[name] ?? 0) + 1;
  }
  return result;
}

/** utils.statsObjectToArray: {name, value}, highest first (stable, so ties keep their key order). */
function facet(counts: Record<string, number>): KuttFacet {
  return Object.entries(counts).map(([name, value]) => ({ name, value })).toSorted((a, b) => b.value - a.value);
}

/** What Kutt answers for a link without visits (visit.queries.js `find` over no rows). */
function emptyStats(): KuttStats {
  return kuttStats({ dailyLast30: Array<number>(30).fill(0) });
}

const MESSAGES: Record<number, string> = {
  400: "Bad request.",
  401: "Unauthorized.",
  403: "You're banned from using this website.",
  429: "Too many requests, please try again later.",
};

export async function startKutt(options: KuttOptions): Promise<Peer> {
  const stats = options.stats ?? new Map<string, KuttStats>();
  return servePeer({
    hostname: "127.0.0.5",
    faults: options.faults,
    faultResponse: (status, code) => json(status, { error: code ?? MESSAGES[status] ?? "An error occurred." }),
    handle: (request, url) => {
      const route = matchRoute(url.pathname);
      if (request.method !== "GET") return json(405, { error: "Method not allowed." }, "application/json", { Allow: "GET" });
      if (route === null) return html(200, "<h1>404 - Not found</h1>");
      if (route.kind === "health") return html(200, "OK");
      const wantsHtml = prefersHtml(request.headers.get("Accept"));
      if (request.headers.get("X-API-KEY") !== options.apiKey) {
        if (wantsHtml) return new Response("NOT_AUTHENTICATED", { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "HX-Redirect": "/logout" } });
        return json(401, { error: "Unauthorized." });
      }
      // A browser-like Accept gets Kutt's HTML partials; the fake only shows that it is not JSON.
      if (wantsHtml) return html(200, `<table><!-- partials/${route.kind === "list" ? "links/table" : "stats"} --></table>`);
      if (route.kind === "list") return listLinks(options.links, url.searchParams);
      if (route.id.length !== 36) return json(400, { error: "ID is invalid." });
      const link = options.links.find((candidate) => candidate.id === route.id);
      if (link === undefined) return json(500, { error: "Link could not be found." });
      return json(200, { ...(stats.get(link.id) ?? emptyStats()), ...link });
    },
  });
}

type Route = { kind: "health" } | { kind: "list" } | { kind: "stats"; id: string };

function matchRoute(pathname: string): Route | null {
  const rest = /^\/api(?:\/v2)?(\/.*)$/.exec(pathname)?.[1];
  if (rest === undefined) return null;
  if (rest === "/health" || rest === "/health/") return { kind: "health" };
  if (rest === "/links" || rest === "/links/") return { kind: "list" };
  const stats = /^\/links\/([^/]+)\/stats\/?$/.exec(rest);
  if (stats?.[1] !== undefined) return { kind: "stats", id: decodeURIComponent(stats[1]) };
  return null;
}

function listLinks(links: KuttLink[], query: URLSearchParams): Response {
  for (const name of ["limit", "skip", "search"]) {
    // Express (qs) turns a repeated or bracketed parameter into an array or object: not a string.
    const keys = [...query.keys()].filter((key) => key === name || key.startsWith(`${name}[`));
    if (keys.length > 1 || keys.some((key) => key !== name)) return json(400, { error: `${name} query is not valid.` });
  }
  const wanted = Number.parseInt(query.get("limit") ?? "") || 10;
  const limit = wanted > 50 ? 50 : wanted;
  const skip = Number.parseInt(query.get("skip") ?? "") || 0;
  if (limit < 0 || skip < 0) return json(500, { error: "An error occurred." });
  const search = query.get("search")?.toLowerCase();
  const matching = links.filter((link) =>
    !search || [link.description, link.address, link.target, link.domain].filter((part) => part !== null).join(" ").toLowerCase().includes(search));
  const newestFirst = matching.toReversed();
  return json(200, { total: matching.length, limit, skip, data: newestFirst.slice(skip, skip + limit) });
}

function html(status: number, body: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** Express's req.accepts(["json", "html"]) === "html": html only when it ranks strictly higher. */
function prefersHtml(accept: string | null): boolean {
  if (accept === null || accept.trim() === "") return false;
  const ranges = accept.split(",").map((part) => {
    const [type = "", ...params] = part.trim().split(";");
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    return { type: type.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
  });
  const quality = (mime: string): number => {
    const [major] = mime.split("/");
    const specific = ranges.find((range) => range.type === mime) ?? ranges.find((range) => range.type === `${major}/*`) ?? ranges.find((range) => range.type === "*/*");
    return specific?.q ?? 0;
  };
  const htmlQ = quality("text/html");
  return htmlQ > 0 && htmlQ > quality("application/json");
}
