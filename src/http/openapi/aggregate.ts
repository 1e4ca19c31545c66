// Statistics above the single link (docs/api.md: Tag, domain and compared statistics).

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { errors, q, type Operation } from "./operation.ts";

const range = [
  q("from", "first UTC day, YYYY-MM-DD"),
  q("to", "last UTC day, YYYY-MM-DD"),
  q("bots", "exclude: leave bot clicks out of every figure", t.Union([t.Literal("include"), t.Literal("exclude")])),
];

const TAG_STATS: Operation = {
  method: "get", path: "/api/stats/tag", operationId: "tagStats", auth: "required",
  summary: "A tag's statistics: the caller's links with the tag (an admin's: every link), summed from the rollups, in a link's shape (docs/statistics.md: Tags and domains)",
  parameters: [
    { name: "tag", in: "query", required: true, description: "the tag", schema: t.String() },
    q("domain", "only the tag's links on this domain (absent: every domain)"),
    ...range,
  ],
  responses: { 200: { description: "the tag, how many links, their statistics summed", json: S.TagStats }, ...errors([400, 401, 403, 404, 421, 429, 503], "bad_request, tags_invalid, bad_range or domain_unknown; 404: none of the caller's links carries the tag") },
};

const DOMAIN_STATS: Operation = {
  method: "get", path: "/api/stats/domain", operationId: "domainStats", auth: "required",
  summary: "A domain's statistics: the caller's links on it (an admin's: every link), summed from the rollups, in a link's shape (docs/statistics.md: Tags and domains)",
  parameters: [q("domain", "the domain's name; left out or empty: the domain the request is sent to"), ...range],
  responses: { 200: { description: "the domain, how many links, their statistics summed", json: S.DomainStats }, ...errors([400, 401, 403, 421, 429, 503], "bad_range, bad_request or domain_unknown") },
};

const COMPARE_STATS: Operation = {
  method: "get", path: "/api/stats/compare", operationId: "compareStats", auth: "required",
  summary: "Two to four links or tags side by side over one range: each one's days and headline figures (docs/statistics.md: Comparing)",
  parameters: [
    q("ids", "2 to 4 aliases, comma-separated (or tags)"),
    q("tags", "2 to 4 tags, comma-separated (or ids)"),
    q("domain", "with ids: the links' domain (absent: the default)"),
    ...range,
  ],
  responses: { 200: { description: "one series per link or tag, in the order asked", json: S.CompareStats }, ...errors([400, 401, 403, 404, 421, 429, 503], "bad_request, tags_invalid, bad_range or domain_unknown; 404: a link or tag none of the caller's") },
};

export const AGGREGATE_ROUTES: Operation[] = [TAG_STATS, DOMAIN_STATS, COMPARE_STATS];
