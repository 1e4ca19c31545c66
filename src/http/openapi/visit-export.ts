// The export of visits' operation (docs/statistics.md: Exporting visits), listed in document.ts.

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { EXPORTS_IN_ALL, EXPORTS_PER_CALLER } from "../export-slots.ts";
import { errors, q, text, type Operation } from "./operation.ts";

/** The 429 of both exports (docs/statistics.md: Exporting visits, "How many at once"). */
export const EXPORTS_RUNNING = `${EXPORTS_PER_CALLER} exports of the caller's or ${EXPORTS_IN_ALL} in all already running (a link's visits and visits to no link together); Retry-After`;

/** The parameters both exports take, in their order: the format, the range and the bots filter. */
export const EXPORT_RANGE = [
  q("format", "csv (default) or jsonl", t.Union([t.Literal("csv"), t.Literal("jsonl")])),
  q("from", "the first UTC day (YYYY-MM-DD) or an ISO timestamp with its zone"),
  q("to", "the last UTC day (YYYY-MM-DD, included) or an ISO timestamp with its zone (excluded)"),
  q("bots", "exclude: leave bots' visits out", t.Union([t.Literal("include"), t.Literal("exclude")])),
];

/** Where a broken download goes on; the last parameter of both. */
export const EXPORT_AFTER = q("after", "go on after this visitId (the last complete row a broken download received); CSV then has no header row");

/** Both exports' 429: past the running exports' caps. */
export const EXPORTS_429 = { 429: { description: `rate_limited: ${EXPORTS_RUNNING} (or auth_rate_limited)`, json: S.ApiError } };

export const VISIT_EXPORT: Operation = {
  method: "get", path: "/api/visits/export", operationId: "exportVisits", auth: "required",
  summary: "The raw visits of a link, a tag, a domain or every link the caller may see, as CSV or JSON lines, streamed in the export's order (batch, then place: each row's visitId); resumable with after",
  parameters: [
    q("id", "one link's alias (with domain: that domain's link); another owner's link is answered 404"),
    q("tag", "the links with this tag (with domain: of that domain)"),
    q("domain", "the links of the domain with this name; with id, the link's domain (400 domain_unknown for a name the service has not)"),
    ...EXPORT_RANGE,
    EXPORT_AFTER,
  ],
  responses: {
    200: { description: "a download (Content-Disposition: attachment)", content: { "text/csv": text, "application/jsonl": text } },
    ...errors([400, 401, 403, 404, 421, 429, 503], "bad_request naming the parameter, bad_range, domain_unknown, tags_invalid; not_found for an unknown or another owner's link or a tag on none of the caller's links"),
    ...EXPORTS_429,
  },
};
