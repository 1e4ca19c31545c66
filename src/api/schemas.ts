// The shapes of every request and response of the API, once, as Elysia's `t` (TypeBox) models.
// The OpenAPI document is built from them (src/http/openapi/document.ts), the test suites check
// every API response they receive against them (test/support/contract.ts), and the TypeScript
// types of what the service answers are derived from them (Static<>, in the domain files that
// build those answers), so neither the document nor the code can drift from what is answered.
// Responses are closed (no undocumented field passes).

import { t, type TSchema } from "elysia";
import type { TLiteral, TUnion } from "@sinclair/typebox";
import { ERROR_CODES, ERROR_FIELDS } from "../errors.ts";
import { LINK_STATUSES } from "../links/link.ts";
import { MAX_TAGS } from "../links/options.ts";
import { SCOPES } from "../auth/keys.ts";

const closed = { additionalProperties: false } as const;
type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K] & string> };
/** One of these strings; typed as their union (Static gives "active" | "disabled" | …, not string). */
const oneOf = <const V extends readonly string[]>(values: V): TUnion<Literals<V>> => t.Union(values.map((v) => t.Literal(v))) as never;

export const ISO_TIME = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";
const Time = t.String({ pattern: ISO_TIME, description: "ISO 8601, UTC, with milliseconds" });
const NullableTime = t.Union([Time, t.Null()]);
const Day = t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "a UTC day, YYYY-MM-DD" });
const Count = t.Integer({ minimum: 0 });
const Tag = t.String({ pattern: "^[A-Za-z0-9_-]{1,30}$" });

/** `{success: true, data}` around a response's payload. */
const ok = <D extends TSchema>(data: D) => t.Object({ success: t.Literal(true), data }, closed);

export const FieldProblem = t.Object({ code: oneOf(ERROR_CODES), field: oneOf(ERROR_FIELDS), error: t.String() }, closed);

const errorFields = {
  success: t.Literal(false),
  error: t.String({ description: "for people; may change between releases" }),
  code: oneOf(ERROR_CODES),
  field: t.Optional(oneOf(ERROR_FIELDS)),
  errors: t.Optional(t.Array(FieldProblem, { description: "every field problem of a 400, the first one also as error/code/field" })),
};
export const ApiError = t.Object(errorFields, { ...closed, description: "Every failure of /api (README: Errors)" });

export const CreateFields = t.Object(
  {
    url: t.String({ description: "absolute http(s) URL, at most 2,048 characters" }),
    custom_url: t.Optional(t.String({ description: "alias: 3-30 letters, digits, hyphens, underscores; empty means none" })),
    expires_at: t.Optional(t.String({ description: "ISO 8601 time with a zone, or YYYY-MM-DD (the end of that UTC day); in the future" })),
    max_clicks: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.String({ pattern: "^\\s*\\d+\\s*$" })])),
    tags: t.Optional(t.Union([t.String({ description: "comma-separated" }), t.Array(Tag, { maxItems: MAX_TAGS })])),
  },
  { description: "The same names in multipart/form-data (the spec's type), urlencoded and JSON" },
);

export const Created = ok(t.Object({ shortUrl: t.String(), statsUrl: t.String() }, closed));

export const NameCount = t.Object(
  { name: t.String(), count: Count, other: t.Optional(t.Literal(true, { description: "the entry named Other: the clicks of every value not listed (README: Statistics stay bounded)" })) },
  closed,
);
export const RecentVisit = t.Object({ timestamp: Time, browser: t.String(), os: t.String(), device: t.String(), country: t.String(), referrer: t.String(), isBot: t.Boolean() }, closed);
/** `unique`: visitors counted once per day (README: Unique visitors) */
export const DateCount = t.Object({ date: Day, count: Count, unique: Count }, closed);
/** `hour`: the start of a UTC hour */
export const HourCount = t.Object({ hour: t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:00:00\\.000Z$" }), count: Count, unique: Count }, closed);
export const UtmCount = t.Object(
  { source: t.Union([t.String(), t.Null()]), medium: t.Union([t.String(), t.Null()]), campaign: t.Union([t.String(), t.Null()]), count: Count, other: t.Optional(t.Literal(true, { description: "every combination not listed; its source, medium and campaign are null" })) },
  closed,
);
export const LinkStats = t.Object(
  {
    totalClicks: Count,
    humanClicks: Count,
    botPercentage: t.Number({ minimum: 0, maximum: 100 }),
    /** the sum of each day's unique visitors in the range */
    uniqueVisitors: Count,
    recentVisits: t.Array(RecentVisit),
    browserStats: t.Array(NameCount),
    osStats: t.Array(NameCount),
    deviceStats: t.Array(NameCount),
    countryStats: t.Array(NameCount),
    referrerStats: t.Array(NameCount),
    visitsByDate: t.Array(DateCount),
    /** the last 48 hours of the range (ending now when it ends today), zero-filled */
    visitsByHour: t.Array(HourCount),
    utmStats: t.Array(UtmCount),
  },
  closed,
);
export const Stats = ok(t.Object({ link: t.Object({ id: t.String(), originalUrl: t.String(), createdAt: Time }, closed), stats: LinkStats }, closed));

const linkFields = {
  id: t.String(),
  shortUrl: t.String(),
  statsUrl: t.String(),
  originalUrl: t.String(),
  createdAt: Time,
  expiresAt: NullableTime,
  maxClicks: t.Union([t.Integer({ minimum: 1 }), t.Null()]),
  disabled: t.Boolean(),
  tags: t.Array(Tag),
  status: oneOf(LINK_STATUSES),
  totalClicks: Count,
  humanClicks: Count,
  lastClickAt: NullableTime,
};
export const Link = t.Object(linkFields, { ...closed, description: "A link as the owner manages it" });
export const ListedLink = t.Object({ ...linkFields, daily: t.Optional(t.Array(Count, { minItems: 30, maxItems: 30, description: "with include=daily: clicks per UTC day of the last 30, today last" })) }, closed);

export const LinkResponse = ok(Link);
export const LinkPage = ok(t.Object({ links: t.Array(ListedLink), nextCursor: t.Union([t.String(), t.Null()]) }, closed));
export const Deleted = ok(t.Object({ id: t.String(), deleted: t.Literal(true) }, closed));

export const LinkChanges = t.Object(
  {
    url: t.Optional(t.String()),
    expiresAt: t.Optional(t.Union([t.String(), t.Null()])),
    maxClicks: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.String(), t.Null()])),
    disabled: t.Optional(t.Union([t.Boolean(), t.Null()])),
    tags: t.Optional(t.Union([t.Array(Tag, { maxItems: MAX_TAGS }), t.String(), t.Null()])),
  },
  { ...closed, description: "Any of these; null clears expiresAt, maxClicks and tags" },
);

export const TransferRecord = t.Object(
  {
    url: t.String(),
    custom_url: t.String({ description: "the link's id" }),
    expires_at: NullableTime,
    max_clicks: t.Union([t.Integer({ minimum: 1 }), t.Null()]),
    tags: t.Array(Tag),
    disabled: t.Boolean(),
    status: oneOf(LINK_STATUSES),
    created_at: Time,
    total_clicks: Count,
    human_clicks: Count,
    last_click_at: NullableTime,
  },
  closed,
);
export const ExportJson = t.Array(TransferRecord);

export const ImportRows = t.Array(t.Object({ url: t.String(), custom_url: t.Optional(t.String()), expires_at: t.Optional(t.String()), max_clicks: t.Optional(t.Union([t.Integer(), t.String()])), tags: t.Optional(t.Union([t.Array(t.String()), t.String()])) }), { maxItems: 10_000 });
const rowOutcomes = {
  created: t.Array(t.Object({ row: t.Integer({ minimum: 1 }), id: t.String(), shortUrl: t.String() }, closed)),
  failed: t.Array(t.Object({ row: t.Integer({ minimum: 1 }), code: oneOf(ERROR_CODES), error: t.String() }, closed)),
};
export const ImportOutcome = ok(t.Object(rowOutcomes, closed));
/** The one error that carries data: an import the disk stopped says how far it got. */
export const ImportStopped = t.Object(
  { ...errorFields, data: t.Object({ ...rowOutcomes, stoppedAtRow: t.Integer({ minimum: 1, description: "the row the disk refused; rows before it are done" }) }, closed) },
  { ...closed, description: "storage_unavailable part-way through an import: the outcome so far" },
);

export const OverviewData = t.Object(
  {
    links: Count,
    clicksToday: Count,
    clicks7d: Count,
    clicks30d: Count,
    /** clicks per UTC day of the last 30, oldest first, today last */
    daily: t.Array(Count, { minItems: 30, maxItems: 30 }),
    top: t.Array(t.Object({ id: t.String(), originalUrl: t.String(), clicks: Count }, closed), { maxItems: 5 }),
  },
  closed,
);
export const Overview = ok(OverviewData);

const Access = oneOf(["public", "key"]);
export const Session = ok(
  t.Object({ signedIn: t.Boolean(), name: t.Optional(t.String()), scope: t.Optional(oneOf(SCOPES)), createAccess: Access, statsAccess: Access }, closed),
);
export const SignIn = t.Object({ key: t.String({ description: "an API key, or the systemd credential" }) });
export const SignedIn = ok(t.Object({ name: t.String(), scope: oneOf(SCOPES) }, closed));
export const SignedOut = ok(t.Object({ signedOut: t.Literal(true) }, closed));

export const Health = t.Object(
  {
    status: oneOf(["ok", "degraded"]),
    version: t.String(),
    db: t.String({ description: "ok, or what is wrong" }),
    visits: t.Object({ queued: Count, written: Count, dropped: Count, discarded: Count }, closed),
  },
  closed,
);
