// The shapes of every request and response of the API, once, as Elysia's `t` (TypeBox) models.
// The OpenAPI document is built from them (src/http/openapi/document.ts), the test suites check
// every API response they receive against them (test/support/contract.ts), and the TypeScript
// types of what the service answers are derived from them (Static<>, in the domain files that
// build those answers), so neither the document nor the code can drift from what is answered.
// Responses are closed (no undocumented field passes).

import { t, type TSchema } from "elysia";
import type { TLiteral, TUnion } from "@sinclair/typebox";
import { ERROR_CODES, ERROR_FIELDS } from "../errors.ts";
import { LINK_ACTIVITIES, LINK_STATUSES } from "../links/link.ts";
import { MAX_TAGS } from "../links/options.ts";
import { SCOPES } from "../auth/keys.ts";
import { CONDITION_TYPES, DEVICES, MAX_CONDITIONS, MAX_RULES, MAX_VARIANTS, MAX_WEIGHT, MIN_VARIANTS, SYSTEMS } from "../links/rules.ts";
import { MAX_PASSWORD_LENGTH, REDIRECT_TYPES } from "../links/behaviour.ts";
import { EVENT_TYPES } from "../events/types.ts";
import { CREATE_SPELLINGS, type CreateField } from "../links/field-names.ts";

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

// Redirect rules (docs/redirect-rules.md: Redirect rules): the same shape in requests and answers.
export const Variant = t.Object({ url: t.String(), weight: t.Integer({ minimum: 1, maximum: MAX_WEIGHT }) }, closed);
const Variants = t.Array(Variant, { minItems: MIN_VARIANTS, maxItems: MAX_VARIANTS, description: "a split by integer weights; a visitor keeps their variant for the UTC day" });
export const Condition = t.Union(
  [
    t.Object({ type: t.Literal("device"), value: oneOf(DEVICES) }, closed),
    t.Object({ type: t.Literal("os"), value: oneOf(Object.keys(SYSTEMS) as (keyof typeof SYSTEMS)[]) }, closed),
    t.Object({ type: t.Literal("browser"), value: t.String({ description: "a name as the stats show it: Chrome, Firefox, Safari, Edge, …" }) }, closed),
    t.Object({ type: t.Literal("language"), value: t.String({ description: "de (any region) or pt-BR; compared with the visitor's most preferred language" }) }, closed),
    t.Object({ type: t.Literal("country"), value: t.String({ pattern: "^[A-Za-z]{2}$", description: "ISO 3166 alpha-2" }) }, closed),
    t.Object({ type: t.Literal("query"), key: t.String(), value: t.Optional(t.String({ description: "without it, the parameter being present is enough" })) }, closed),
    t.Object({ type: t.Literal("cidr"), value: t.String({ description: "203.0.113.0/24, 2001:db8::/32, or one address" }) }, closed),
    t.Object({ type: t.Union([t.Literal("after"), t.Literal("before")]), value: t.String({ description: "ISO 8601 with a zone; after: from this instant, before: until it" }) }, closed),
  ],
  { description: `one of ${CONDITION_TYPES.join(", ")}` },
);
export const Rule = t.Object(
  { conditions: t.Array(Condition, { minItems: 1, maxItems: MAX_CONDITIONS }), url: t.Optional(t.String()), variants: t.Optional(Variants) },
  { ...closed, description: "all conditions must hold; then url, or a split among variants" },
);
const Rules = t.Array(Rule, { maxItems: MAX_RULES, description: "the first rule whose conditions all hold gives the destination, else the link's own" });
const RedirectType = t.Union(REDIRECT_TYPES.map((n) => t.Literal(n)), { description: "302 by default; 301 and 308 may be cached by browsers, and repeat clicks then go uncounted" });
const Warnings = t.Optional(t.Array(t.String(), { description: "what the owner should know about the link as saved (a permanent redirect)" }));

export const FieldProblem = t.Object({ code: oneOf(ERROR_CODES), field: oneOf(ERROR_FIELDS), error: t.String() }, closed);

const errorFields = {
  success: t.Literal(false),
  error: t.String({ description: "for people; may change between releases" }),
  code: oneOf(ERROR_CODES),
  field: t.Optional(oneOf(ERROR_FIELDS)),
  errors: t.Optional(t.Array(FieldProblem, { description: "every field problem of a 400, the first one also as error/code/field" })),
};
export const ApiError = t.Object(errorFields, { ...closed, description: "Every failure of /api (docs/api.md: Errors)" });

// A create's fields (docs/api.md: Create a short link): the spec's names in every body type; in JSON also
// the management API's camelCase names (src/links/field-names.ts), one spelling per field.
const createFields = {
  url: t.String({ description: "absolute http(s) URL, at most 2,048 characters" }),
  custom_url: t.Optional(t.String({ description: "alias: 3-30 letters, digits, hyphens, underscores; empty means none" })),
  expires_at: t.Optional(t.String({ description: "ISO 8601 time with a zone, or YYYY-MM-DD (the end of that UTC day); in the future" })),
  max_clicks: t.Optional(t.Union([t.Integer({ minimum: 1 }), t.String({ pattern: "^\\s*\\d+\\s*$" })])),
  tags: t.Optional(t.Union([t.String({ description: "comma-separated" }), t.Array(Tag, { maxItems: MAX_TAGS })])),
  rules: t.Optional(Rules),
  variants: t.Optional(Variants),
  password: t.Optional(t.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH, description: "visitors must give it; stored only as an argon2id hash" })),
  redirect_type: t.Optional(t.Union([RedirectType, t.String({ pattern: "^30[1278]$" })])),
  valid_from: t.Optional(t.String({ description: "ISO 8601 with a zone; before it the link answers like an unknown id" })),
  fallback_url: t.Optional(t.String({ description: "where an expired, click-limited or disabled link sends visitors instead of its 410 page" })),
  crawlable: t.Optional(t.Union([t.Boolean(), t.String()])),
};
const camelFields = Object.fromEntries(
  (Object.keys(createFields) as CreateField[]).filter((f) => CREATE_SPELLINGS[f] !== f).map((f) => [CREATE_SPELLINGS[f], createFields[f]]),
) as Record<string, TSchema>;
export const CreateForm = t.Object(createFields, {
  ...closed,
  description: "multipart/form-data (the spec's type) or urlencoded: these names only; any other name, a camelCase one included, is 400 bad_request",
});
export const CreateJson = t.Object(
  { ...createFields, ...camelFields },
  {
    ...closed,
    description: `each field under its spec name or its camelCase one (${Object.keys(camelFields).join(", ")}), never both (400 bad_request naming both); any other name is 400 bad_request`,
  },
);

export const Created = ok(t.Object({ shortUrl: t.String(), statsUrl: t.String(), warnings: Warnings }, closed));

export const NameCount = t.Object(
  { name: t.String(), count: Count, other: t.Optional(t.Literal(true, { description: "the entry named Other: the clicks of every value not listed (docs/api.md: Statistics element shapes)" })) },
  closed,
);
export const RecentVisit = t.Object(
  {
    timestamp: Time, browser: t.String(), os: t.String(), device: t.String(), country: t.String(), referrer: t.String(), isBot: t.Boolean(),
    rule: t.Optional(t.String({ description: "for a link with rules or a split: the rule that gave the destination (\"rule 2\"), or \"default\"" })),
    variant: t.Optional(t.String({ description: "the variant's URL, when the destination was a split; for a link with a password, to anyone but its owner and admins, its label (\"variant 2\", \"rule 1, variant 2\", \"variant (removed)\")" })),
  },
  closed,
);
/** Unique visitors where they are known; null where every click counted was imported (imported visits carry no visitor). */
const Unique = t.Union([Count, t.Null()], { description: "unique visitors; null when every click counted there was imported (docs/importing.md: Moving from another shortener)" });
/** `unique`: visitors counted once per day (docs/clicks.md: Unique visitors) */
export const DateCount = t.Object({ date: Day, count: Count, unique: Unique }, closed);
/** `hour`: the start of a UTC hour */
export const HourCount = t.Object({ hour: t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:00:00\\.000Z$" }), count: Count, unique: Unique }, closed);
export const UtmCount = t.Object(
  { source: t.Union([t.String(), t.Null()]), medium: t.Union([t.String(), t.Null()]), campaign: t.Union([t.String(), t.Null()]), count: Count, other: t.Optional(t.Literal(true, { description: "every combination not listed; its source, medium and campaign are null" })) },
  closed,
);
export const LinkStats = t.Object(
  {
    totalClicks: Count,
    humanClicks: Count,
    botPercentage: t.Number({ minimum: 0, maximum: 100 }),
    /** the sum of each day's unique visitors in the range; null when every click of the range was imported */
    uniqueVisitors: Unique,
    uniqueVisitorsPartial: t.Boolean({ description: "some of the range's clicks were imported: their visitors are not known, and uniqueVisitors counts the others only" }),
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
    ruleStats: t.Array(NameCount, { description: "clicks per rule (\"rule 1\", …) and \"default\" for clicks that matched none; empty for a link without rules or a split" }),
    variantStats: t.Array(NameCount, { description: "clicks per variant URL of a split (a password-protected link's, to anyone but its owner and admins: per variant label, as in recentVisits)" }),
    fallbackStats: t.Array(NameCount, { description: "visitors sent to the fallback URL, per reason (expired, disabled): not clicks, and not in any other figure" }),
  },
  closed,
);
const StatsLink = t.Object(
  {
    id: t.String(),
    originalUrl: t.String({ description: "where the link leads; \"\" for a link with a password, unless its owner or an admin asks (docs/security.md: Security)" }),
    createdAt: Time,
    passwordProtected: t.Boolean({ description: "the link has a password: to anyone but its owner and admins, no destination and no variant URL is shown" }),
    status: oneOf(LINK_ACTIVITIES),
    totalClicks: t.Integer({ minimum: 0, description: "every click of the link's life, bots included, whatever the range" }),
  },
  closed,
);
export const Stats = ok(t.Object({ link: StatsLink, stats: LinkStats }, closed));

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
  rules: Rules,
  variants: t.Union([Variants, t.Null()]),
  passwordProtected: t.Boolean(),
  owner: t.Union([t.String(), t.Null()], { description: "who owns it: the user's name, else the key's; null for a public create" }),
  redirectType: RedirectType,
  validFrom: NullableTime,
  fallbackUrl: t.Union([t.String(), t.Null()]),
  crawlable: t.Boolean(),
  warnings: Warnings,
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
    rules: t.Optional(t.Union([Rules, t.Null()])),
    variants: t.Optional(t.Union([Variants, t.Null()])),
    password: t.Optional(t.Union([t.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }), t.Null()])),
    redirectType: t.Optional(t.Union([RedirectType, t.Null()])),
    validFrom: t.Optional(t.Union([t.String(), t.Null()])),
    fallbackUrl: t.Optional(t.Union([t.String(), t.Null()])),
    crawlable: t.Optional(t.Union([t.Boolean(), t.Null()])),
  },
  { ...closed, description: "Any of these; null clears expiresAt, maxClicks, tags, rules, variants, password, validFrom and fallbackUrl (and sets redirectType to 302, crawlable to false)" },
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
    rules: t.Union([Rules, t.Null()]),
    variants: t.Union([Variants, t.Null()]),
    password_hash: t.Union([t.String({ description: "the argon2id hash of the link's password, so an import keeps it" }), t.Null()]),
    redirect_type: RedirectType,
    valid_from: NullableTime,
    fallback_url: t.Union([t.String(), t.Null()]),
    crawlable: t.Boolean(),
  },
  closed,
);
export const ExportJson = t.Array(TransferRecord);

export const ImportRows = t.Array(
  t.Object({
    url: t.String(), custom_url: t.Optional(t.String()), expires_at: t.Optional(t.String()), max_clicks: t.Optional(t.Union([t.Integer(), t.String()])),
    tags: t.Optional(t.Union([t.Array(t.String()), t.String()])),
    rules: t.Optional(t.Union([Rules, t.String(), t.Null()])), variants: t.Optional(t.Union([Variants, t.String(), t.Null()])),
    password: t.Optional(t.String()), password_hash: t.Optional(t.Union([t.String(), t.Null()])),
    redirect_type: t.Optional(t.Union([t.Integer(), t.String()])), valid_from: t.Optional(t.Union([t.String(), t.Null()])),
    fallback_url: t.Optional(t.Union([t.String(), t.Null()])), crawlable: t.Optional(t.Union([t.Boolean(), t.String()])),
  }),
  { maxItems: 10_000 },
);
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

/** POST /api/imports: an import from another shortener (docs/importing.md: Moving from another shortener). */
export const ImportRequest = t.Object(
  {
    from: t.Union([t.Literal("shlink"), t.Literal("yourls"), t.Literal("kutt"), t.Literal("bitly"), t.Literal("csv")]),
    url: t.Optional(t.String({ description: "shlink, kutt: where it answers" })),
    apiKey: t.Optional(t.String({ description: "shlink, kutt: its API key (never stored, never logged)" })),
    sourceDb: t.Optional(t.String({ description: "yourls: mysql://user:password@host/database (read only)" })),
    prefix: t.Optional(t.String({ description: "yourls: the table prefix (default yourls_)" })),
    token: t.Optional(t.String({ description: "bitly: an access token" })),
    group: t.Optional(t.String({ description: "bitly: a group guid (default every group)" })),
    csv: t.Optional(t.String({ description: "csv: the file's text" })),
    map: t.Optional(t.String({ description: "csv: our field=its column, comma-separated" })),
    onConflict: t.Optional(t.Union([t.Literal("fail"), t.Literal("skip"), t.Literal("rename")])),
    dryRun: t.Optional(t.Boolean()),
    visits: t.Optional(t.Boolean({ description: "the click history too" })),
  },
  closed,
);
export const ImportJob = ok(
  t.Object(
    {
      id: t.String(),
      from: t.String(),
      state: t.Union([t.Literal("running"), t.Literal("done"), t.Literal("refused"), t.Literal("stopped"), t.Literal("failed")]),
      startedAt: Time,
      progress: t.Object({ phase: t.String(), done: Count, total: t.Union([Count, t.Null()]), perSecond: Count }, closed),
      lines: t.Array(t.String(), { description: "the result as `shortener import` prints it" }),
      summary: t.Union([
        t.Null(),
        t.Object({ linksRead: Count, created: Count, already: Count, skipped: Count, renamed: Count, problems: Count, visits: Count, clicksCounted: Count }, closed),
      ]),
    },
    closed,
  ),
);

// Webhooks (docs/webhooks.md: Webhooks).
const EventTypeSchema = oneOf(EVENT_TYPES);
const DeliveryStateSchema = t.Union([t.Literal("pending"), t.Literal("delivered"), t.Literal("failed")]);
export const WebhookFields = t.Object(
  {
    url: t.String({ description: "where deliveries are POSTed; a private or loopback address needs --webhook-allow-private" }),
    events: t.Array(EventTypeSchema, { minItems: 1 }),
    linkId: t.Optional(t.Union([t.String(), t.Null()], { description: "only this link's events" })),
    tag: t.Optional(t.Union([Tag, t.Null()], { description: "only events of links with this tag" })),
  },
  closed,
);
export const WebhookChanges = t.Object(
  {
    url: t.Optional(t.String()), events: t.Optional(t.Array(EventTypeSchema, { minItems: 1 })), linkId: t.Optional(t.Union([t.String(), t.Null()])),
    tag: t.Optional(t.Union([Tag, t.Null()])), enabled: t.Optional(t.Boolean()),
  },
  closed,
);
const webhookFields = {
  id: t.Integer({ minimum: 1 }),
  url: t.String(),
  events: t.Array(EventTypeSchema),
  linkId: t.Union([t.String(), t.Null()]),
  tag: t.Union([t.String(), t.Null()]),
  enabled: t.Boolean(),
  disabledReason: t.Union([t.String(), t.Null()], { description: "why it is disabled: 410 from the receiver, 24 hours of failures, or an admin" }),
  disabledCause: t.Union([t.Literal("gone"), t.Literal("failed_24h"), t.Literal("admin"), t.Null()], {
    description: "disabledReason as a code: gone (the receiver answered 410), failed_24h (deliveries failed for 24 hours), admin; null when enabled (or a reason this release did not write)",
  }),
  createdAt: Time,
  status: t.Union([t.Literal("waiting"), t.Literal("delivering"), t.Literal("failing"), t.Literal("disabled")], {
    description: "waiting: nothing tried yet; delivering: the last attempt was delivered; failing: the last attempt failed and is tried again (lastDelivery.error says why); disabled (docs/webhooks.md: Webhooks)",
  }),
  pending: Count,
  lastDelivery: t.Union([
    t.Null(),
    t.Object(
      {
        at: Time, state: DeliveryStateSchema, responseCode: t.Union([t.Integer(), t.Null()]),
        error: t.Union([t.String(), t.Null()], { description: "why the last attempt failed: the receiver's answer (\"answered 500\") or what stopped the request" }),
      },
      closed,
    ),
  ], { description: "the last delivery tried, as its last attempt went" }),
};
export const Webhook = t.Object(webhookFields, closed);
export const WebhookResponse = ok(Webhook);
export const WebhookCreated = ok(t.Object({ ...webhookFields, secret: t.String({ pattern: "^whsec_[A-Za-z0-9+/]+=*$", description: "shown this once: the key receivers verify signatures with" }) }, closed));
export const WebhookList = ok(t.Object({ webhooks: t.Array(Webhook) }, closed));
export const WebhookDeleted = ok(t.Object({ id: t.Integer({ minimum: 1 }), deleted: t.Literal(true) }, closed));
export const Delivery = t.Object(
  {
    id: t.Integer({ minimum: 1 }), messageId: t.String({ description: "the webhook-id header: the same on every attempt and redelivery" }), type: EventTypeSchema,
    createdAt: Time, state: DeliveryStateSchema, attempts: Count, lastAttemptAt: NullableTime, nextAttemptAt: NullableTime,
    responseCode: t.Union([t.Integer(), t.Null()]), error: t.Union([t.String(), t.Null()]),
  },
  closed,
);
export const DeliveryResponse = ok(Delivery);
export const DeliveryPage = ok(t.Object({ deliveries: t.Array(Delivery), nextBefore: t.Union([t.Integer({ minimum: 1 }), t.Null()]) }, closed));

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
export const User = t.Object(
  { id: t.Integer(), name: t.String(), email: t.Union([t.String(), t.Null()]), admin: t.Boolean(), source: oneOf(["oidc", "header", "tailscale"]) },
  { ...closed, description: "a person who signed in through the provider or the proxy" },
);
const SignInOptions = t.Object(
  {
    key: t.Boolean({ description: "a key may be pasted into the dashboard (false with --oidc-only)" }),
    oidc: t.Union([t.Object({ name: t.String(), url: t.String() }, closed), t.Null()], { description: "the provider's button: its name, and where the sign-in starts" }),
  },
  closed,
);
export const Session = ok(
  t.Object(
    {
      signedIn: t.Boolean(),
      name: t.Optional(t.String({ description: "the key's name, or the user's" })),
      scope: t.Optional(oneOf(SCOPES)),
      user: t.Optional(t.Union([User, t.Null()], { description: "the person it acts as; null for a key of nobody's" })),
      via: t.Optional(oneOf(["key", "session", "header"])),
      createAccess: Access,
      statsAccess: Access,
      signIn: SignInOptions,
    },
    closed,
  ),
);
export const SignIn = t.Object({ key: t.String({ description: "an API key, or the systemd credential" }) });
export const SignedIn = ok(t.Object({ name: t.String(), scope: oneOf(SCOPES) }, closed));
export const SignedOut = ok(
  t.Object({ signedOut: t.Literal(true), endSessionUrl: t.Optional(t.String({ description: "the provider's sign-out, for a user who signed in through it" })) }, closed),
);

export const Health = t.Object(
  {
    status: oneOf(["ok", "degraded"]),
    version: t.String(),
    db: t.String({ description: "ok, or what is wrong" }),
    visits: t.Object({ queued: Count, written: Count, dropped: Count, discarded: Count }, closed),
  },
  closed,
);
