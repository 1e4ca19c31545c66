// Statistics (docs/api.md: Statistics element shapes): one link's, and the dashboard's overview.

import { t } from "elysia";
import { LINK_ACTIVITIES } from "../../links/link.ts";
import { Count, Day, Time, closed, ok, oneOf } from "./common.ts";

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
/** docs/statistics.md: The previous period */
export const PreviousPeriod = t.Object(
  { from: Day, to: Day, totalClicks: Count, uniqueVisitors: Unique, humanClicks: Count, botPercentage: t.Number({ minimum: 0, maximum: 100 }) },
  { ...closed, description: "the headline figures of the days of the same length just before the range (docs/statistics.md: The previous period)" },
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
    previewStats: t.Array(NameCount, {
      description: "link-preview agents' fetches of the link's preview card, per agent (\"Slackbot\", \"WhatsApp\", …; docs/sharing.md: Preview cards): not clicks, in no other figure, and kept whatever the bot filter says; an agent's name past a link's 100 of a day is counted in {name: \"Other\", other: true}, last",
    }),
    previous: PreviousPeriod,
  },
  closed,
);
const StatsLink = t.Object(
  {
    id: t.String({ description: "the link's alias on its domain" }),
    domain: t.Union([t.String(), t.Null()], { description: "the link's domain; null on the default domain of an instance that knows no name of its own" }),
    originalUrl: t.String({ description: "where the link leads; \"\" for a link with a password, unless its owner or an admin asks (docs/security.md: Security)" }),
    title: t.Union([t.String(), t.Null()], { description: "the link's title (docs/link-titles.md: Link titles); null for none, and shown as the destination is: null for a link with a password, unless its owner or an admin asks" }),
    createdAt: Time,
    passwordProtected: t.Boolean({ description: "the link has a password: to anyone but its owner and admins, no destination and no variant URL is shown" }),
    status: oneOf(LINK_ACTIVITIES),
    totalClicks: t.Integer({ minimum: 0, description: "every click of the link's life, bots included, whatever the range" }),
  },
  closed,
);
export const Stats = ok(t.Object({ link: StatsLink, stats: LinkStats }, closed));

export const OverviewData = t.Object(
  {
    links: Count,
    clicksToday: Count,
    clicks7d: Count,
    clicks30d: Count,
    /** clicks per UTC day of the last 30, oldest first, today last */
    daily: t.Array(Count, { minItems: 30, maxItems: 30 }),
    /** `domain`: the link's domain by name (null: the default of an instance that knows no name) */
    top: t.Array(t.Object({ id: t.String(), domain: t.Union([t.String(), t.Null()]), originalUrl: t.String(), clicks: Count }, closed), { maxItems: 5 }),
  },
  closed,
);
export const Overview = ok(OverviewData);
