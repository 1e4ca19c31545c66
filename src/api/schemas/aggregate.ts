// Statistics above the single link (docs/api.md: Tag, domain and compared statistics): a tag's and a
// domain's statistics in a link's shape, and the series of a comparison.

import { t } from "elysia";
import { Count, closed, ok } from "./common.ts";
import { DateCount, LinkStats, PreviousPeriod } from "./stats.ts";

const Links = t.Integer({ minimum: 0, description: "how many of the caller's links the figures sum" });
const DomainName = t.Union([t.String(), t.Null()], { description: "the domain's name; null for the default of an instance that knows no name of its own" });

export const TagStats = ok(t.Object({
  tag: t.String(),
  domain: t.Union([t.String(), t.Null()], { description: "the domain asked for, or null: every domain" }),
  links: Links,
  stats: LinkStats,
}, closed));

export const DomainStats = ok(t.Object({ domain: DomainName, links: Links, stats: LinkStats }, closed));

export const CompareSeries = t.Object(
  {
    kind: t.Union([t.Literal("link"), t.Literal("tag")]),
    name: t.String({ description: "the link's alias or the tag, as asked" }),
    totalClicks: Count,
    humanClicks: Count,
    botPercentage: t.Number({ minimum: 0, maximum: 100 }),
    uniqueVisitors: t.Union([Count, t.Null()]),
    visitsByDate: t.Array(DateCount, { description: "every day of the range, the same days in every series" }),
    previous: PreviousPeriod,
  },
  closed,
);
export const CompareStats = ok(t.Object({ series: t.Array(CompareSeries, { minItems: 2, maxItems: 4 }) }, closed));
