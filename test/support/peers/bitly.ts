// A fake Bitly API v4 for the importer's integration tests.
// Where each shape comes from:
// - Bitly's own OpenAPI (info.title "Bitly API", version 4.0.0), as vendored in
//   github.com/ballerina-platform/openapi-connectors openapi/bitly/openapi.yml (commit c279d399, 2021-12-08):
//   securitySchemes.bearerAuth; paths /groups, /user, /groups/{group_guid}/bitlinks,
//   /bitlinks/{bitlink}, /bitlinks/{bitlink}/clicks, /bitlinks/{bitlink}/clicks/summary;
//   schemas Groups/Group/HasReferences, User/Email, Bitlinks/Pagination/BitlinkBody/BitlinkUpdate,
//   Clicks/LinkClicks, ClicksSummary, TimeUnit (default "day"), Error (+ BadRequest, UpgradeRequired,
//   Forbidden, NotFound, UnprocessableEntity, TooManyRequests, InternalError, TemporarilyUnavailable:
//   `message` is the upper-case code); parameters Size (default 50), Archived (on|off|both, default
//   "off"), UnitAmount (-1 = all), UnitReferenceTimeStamp, Bitlink ("bit.ly/12a4b6c").
//   The spec lists no 401 anywhere, only 403 FORBIDDEN, so a missing or wrong token is a 403 here.
// - dev.bitly.com/docs/getting-started/migrating-from-v3: `Authorization: Bearer {token}`.
// - dev.bitly.com/docs/getting-started/changes-to-retrieve-bitlinks-by-group: the pagination struct
//   {prev, next, search_after, size, page, total}; `prev` only after the first batch; an empty
//   `search_after` marks the last batch, and sending `search_after=` (empty) returns the FIRST batch again.
// - the 403 body {"message":"FORBIDDEN","resource":"bitlinks","description":"You are currently forbidden
//   to access this resource."}: a real answer quoted at
//   code911.top/howto/bit-ly-bitlink-creation-always-return-forbidden-even-after-email-verification.
//   Other descriptions below are made up in the same style (not documented).
// - size max 100: philnash/bitly docs (Bitly::API::Client#group_bitlinks), not Bitly's own.
// - clicks newest first, only days with clicks, dates like "2016-08-31T00:00:00+0000":
//   philnash/bitly spec/bitly/api/bitlink/link_click_spec.rb (not confirmed against the live API).
// - `next` is a full URL and the bitlink path keeps its slash unencoded: philnash/bitly
//   lib/bitly/api/paginated_list.rb and its "/bitlinks/#{bitlink}/clicks".

import { json, servePeer, type Fault, type Peer } from "./fault.ts";

export type BitlyGroup = {
  guid: string;
  organization_guid: string;
  name: string;
  created: string;
  modified: string;
  is_active: boolean;
  role: string;
  bsds: string[];
  references: Record<string, string>;
};

export type BitlinkBody = {
  references: Record<string, string>;
  archived: boolean;
  tags: string[];
  created_at: string;
  title: string;
  deeplinks: unknown[];
  created_by: string;
  long_url: string;
  client_id: string;
  /** full URLs of the custom back-halves, e.g. "https://bit.ly/my-name" */
  custom_bitlinks: string[];
  /** full short URL, e.g. "https://bit.ly/abc" */
  link: string;
  launchpad_ids: string[];
  /** domain/hash without scheme, e.g. "bit.ly/abc" */
  id: string;
};

export type BitlyClicks = { date: string; clicks: number }[];

export type BitlyOptions = {
  token: string;
  groups: BitlyGroup[];
  /** keyed by group guid */
  bitlinks: Map<string, BitlinkBody[]>;
  /** keyed by bitlink id ("bit.ly/abc"): clicks per day, any order, dates like "2020-03-01T00:00:00+0000" */
  clicks?: Map<string, BitlyClicks>;
  /** the login of GET /v4/user */
  login?: string;
  faults?: Fault[];
};

/** A group, with defaults for what the test leaves out. */
export function bitlyGroup(partial: Partial<BitlyGroup> & { guid: string }): BitlyGroup {
  return {
    references: partial.references ?? {},
    name: partial.name ?? partial.guid,
    bsds: partial.bsds ?? [],
    created: partial.created ?? "2020-01-01T00:00:00+0000",
    is_active: partial.is_active ?? true,
    modified: partial.modified ?? "2020-01-01T00:00:00+0000",
    organization_guid: partial.organization_guid ?? "Oorg0000000",
    role: partial.role ?? "org-admin",
    guid: partial.guid,
  };
}

/** A bitlink as the API serializes it (`id` "domain/hash"), with defaults for what the test leaves out. */
export function bitlink(partial: Partial<BitlinkBody> & { id: string }): BitlinkBody {
  return {
    references: partial.references ?? {},
    archived: partial.archived ?? false,
    tags: partial.tags ?? [],
    created_at: partial.created_at ?? "2020-03-01T00:00:00+0000",
    title: partial.title ?? "",
    deeplinks: partial.deeplinks ?? [],
    created_by: partial.created_by ?? "fake_user",
    long_url: partial.long_url ?? `https://example.com/${partial.id.split("/").pop() ?? ""}`,
    client_id: partial.client_id ?? "a5e8cebb233c5d07e5c553e917dffb92fec5264d",
    custom_bitlinks: partial.custom_bitlinks ?? [],
    link: partial.link ?? `https://${partial.id}`,
    launchpad_ids: partial.launchpad_ids ?? [],
    id: partial.id,
  };
}

const CODES: Record<number, string> = {
  400: "BAD_REQUEST", 402: "UPGRADE_REQUIRED", 403: "FORBIDDEN", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
  408: "TIMEOUT", 417: "EXPECTATION_FAILED", 422: "UNPROCESSABLE_ENTITY", 429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_ERROR", 503: "TEMPORARILY_UNAVAILABLE",
};
const DESCRIPTIONS: Record<number, string> = {
  400: "The request could not be understood.",
  403: "You are currently forbidden to access this resource.",
  404: "What you are looking for cannot be found.",
  429: "You have exceeded the rate limit.",
  500: "An internal error occurred.",
  503: "The service is temporarily unavailable.",
};

/** Bitly's Error schema: message (the code), resource (the first path segment after /v4), description. */
function error(status: number, url: URL, message?: string, description?: string): Response {
  const resource = url.pathname.split("/")[2] ?? "";
  return json(status, {
    message: message ?? CODES[status] ?? "INTERNAL_ERROR",
    resource,
    description: description ?? DESCRIPTIONS[status] ?? "An error occurred.",
  });
}

export async function startBitly(options: BitlyOptions): Promise<Peer> {
  const clicks = options.clicks ?? new Map<string, BitlyClicks>();
  // The request URL that led to each cursor, for the next batch's `prev`.
  const previous = new Map<string, string>();
  return servePeer({
    hostname: "127.0.0.6",
    faults: options.faults,
    faultResponse: (status, code, url) => error(status, url, code),
    handle: (request, url, base) => {
      if (!url.pathname.startsWith("/v4/")) return error(404, url);
      if (request.method !== "GET") return error(405, url);
      const auth = /^Bearer\s+(.+)$/i.exec(request.headers.get("Authorization") ?? "");
      if (auth?.[1] !== options.token) return error(403, url);
      const path = url.pathname.slice("/v4".length);
      if (path === "/groups") {
        const org = url.searchParams.get("organization_guid");
        return json(200, { groups: options.groups.filter((group) => org === null || group.organization_guid === org) });
      }
      if (path === "/user") return json(200, user(options));
      const groupLinks = /^\/groups\/([^/]+)\/bitlinks$/.exec(path)?.[1];
      if (groupLinks !== undefined) return listBitlinks(options, decodeURIComponent(groupLinks), url, base, previous);
      // The bitlink id keeps its slash ("bit.ly/abc"); an encoded %2F is accepted too.
      const metric = /^\/bitlinks\/(.+?)(\/clicks(?:\/summary)?)?$/.exec(path);
      if (metric?.[1] !== undefined) {
        const id = decodeURIComponent(metric[1]);
        const link = [...options.bitlinks.values()].flat().find((candidate) => candidate.id === id);
        if (link === undefined) return error(404, url);
        if (metric[2] === undefined) return json(200, link);
        return linkClicks(clicks.get(id) ?? [], url, metric[2] === "/clicks/summary");
      }
      return error(404, url);
    },
  });
}

function user(options: BitlyOptions) {
  const login = options.login ?? "fake_user";
  return {
    created: "2020-01-01T00:00:00+0000",
    modified: "2020-01-01T00:00:00+0000",
    login,
    is_active: true,
    is_2fa_enabled: false,
    name: login,
    emails: [{ email: `${login}@example.com`, is_primary: true, is_verified: true }],
    is_sso_user: false,
    default_group_guid: options.groups[0]?.guid ?? "",
  };
}

/** Newest first; a cursor names the last link of a batch (time + id), so links added meanwhile do not shift it. */
function listBitlinks(options: BitlyOptions, guid: string, url: URL, base: string, previous: Map<string, string>): Response {
  const links = options.bitlinks.get(guid);
  // A group the token cannot see: Bitly lists 403 and 404 for this path; the fake says FORBIDDEN.
  if (links === undefined || !options.groups.some((group) => group.guid === guid)) return error(403, url);
  const query = url.searchParams;
  const archived = query.get("archived") ?? "off";
  if (archived !== "on" && archived !== "off" && archived !== "both") return error(400, url, "INVALID_ARG_ARCHIVED");
  const sizeParam = query.get("size");
  const wanted = sizeParam === null ? 50 : Number(sizeParam);
  if (!Number.isInteger(wanted) || wanted < 1) return error(400, url, "INVALID_ARG_SIZE");
  const size = Math.min(wanted, 100);
  const before = epochParam(query, "created_before");
  const after = epochParam(query, "created_after");
  if (before === null || after === null) return error(400, url, "INVALID_ARG_CREATED");

  const matching = links
    .filter((link) => archived === "both" || link.archived === (archived === "on"))
    .filter((link) => (before === undefined || bitlyTime(link.created_at) < before) && (after === undefined || bitlyTime(link.created_at) > after))
    .toSorted(newestFirst);
  // An empty search_after is "no cursor": the first batch again (the documented trap).
  const cursorParam = query.get("search_after") ?? "";
  const cursor = cursorParam === "" ? null : decodeCursor(cursorParam);
  if (cursorParam !== "" && cursor === null) return error(400, url, "INVALID_ARG_SEARCH_AFTER");
  const rest = cursor === null ? matching : matching.filter((link) => newestFirst(link, cursor) > 0);
  const batch = rest.slice(0, size);
  const last = batch.at(-1);
  const page = (cursor?.page ?? 0) + 1;
  const more = rest.length > batch.length && last !== undefined;
  const searchAfter = more ? encodeCursor(last, page) : "";
  let next = "";
  if (more) {
    const nextQuery = new URLSearchParams(query);
    nextQuery.delete("page");
    nextQuery.set("search_after", searchAfter);
    next = `${base}${url.pathname}?${nextQuery}`;
    previous.set(searchAfter, `${base}${url.pathname}${url.search}`);
  }
  const prev = cursor === null ? {} : { prev: previous.get(cursorParam) ?? "" };
  return json(200, { links: batch, pagination: { ...prev, next, search_after: searchAfter, size, page, total: matching.length } });
}

type Cursor = { created_at: string; id: string; page: number };

function newestFirst(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  return bitlyTime(b.created_at) - bitlyTime(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function encodeCursor(link: BitlinkBody, page: number): string {
  return Buffer.from(JSON.stringify({ created_at: link.created_at, id: link.id, page })).toString("base64url");
}

function decodeCursor(value: string): Cursor | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return null;
    const { created_at, id, page } = parsed as Record<string, unknown>;
    return typeof created_at === "string" && typeof id === "string" && typeof page === "number" ? { created_at, id, page } : null;
  } catch {
    return null;
  }
}

/** GET /v4/bitlinks/{bitlink}/clicks (and /summary), unit=day only. */
function linkClicks(days: BitlyClicks, url: URL, summary: boolean): Response {
  const query = url.searchParams;
  const unit = query.get("unit") ?? "day";
  if (!["minute", "hour", "day", "week", "month"].includes(unit)) return error(400, url, "INVALID_ARG_UNIT");
  if (unit !== "day") return error(400, url, "INVALID_ARG_UNIT", "This fake only answers unit=day.");
  const units = Number(query.get("units") ?? "-1");
  if (!Number.isInteger(units) || (units < 1 && units !== -1)) return error(400, url, "INVALID_ARG_UNITS");
  const referenceParam = query.get("unit_reference");
  const reference = referenceParam === null ? Date.now() : bitlyTime(referenceParam);
  if (Number.isNaN(reference)) return error(400, url, "INVALID_ARG_UNIT_REFERENCE");
  // The window is whole days ending with the reference's (UTC) day.
  const lastDay = Math.floor(reference / 86_400_000) * 86_400_000;
  const firstDay = units === -1 ? Number.NEGATIVE_INFINITY : lastDay - (units - 1) * 86_400_000;
  const inWindow = days
    .filter((day) => day.clicks > 0 && bitlyTime(day.date) >= firstDay && bitlyTime(day.date) <= reference)
    .toSorted((a, b) => bitlyTime(b.date) - bitlyTime(a.date));
  const unit_reference = formatBitlyTime(reference);
  if (summary) return json(200, { units, unit, total_clicks: inWindow.reduce((sum, day) => sum + day.clicks, 0), unit_reference });
  return json(200, { link_clicks: inWindow, units, unit, unit_reference });
}

/** Bitly's "+0000" offsets have no colon; normalise before parsing. */
export function bitlyTime(value: string): number {
  return Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
}

function formatBitlyTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+0000");
}

/** Unix epoch seconds → ms; absent → undefined; not an integer → null. */
function epochParam(query: URLSearchParams, name: string): number | undefined | null {
  const raw = query.get(name);
  if (raw === null) return undefined;
  return /^\d+$/.test(raw) ? Number(raw) * 1000 : null;
}
