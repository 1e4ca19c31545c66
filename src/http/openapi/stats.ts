// The statistics' routes (docs/api.md: Statistics element shapes): one link's, live, the overview.

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { errors, id, q, text, type Operation } from "./operation.ts";
import { EXPORT_AFTER, EXPORT_RANGE, EXPORTS_429 } from "./visit-export.ts";

export const READ_STATS: Operation = {
  method: "get", path: "/api/stats", operationId: "readStats", auth: "optional",
  summary: "Statistics of a link (public unless --stats-access key: then the owner key or an admin key); a password-protected link's destination and variant URLs only for its owner and admins (docs/security.md: Security)",
  parameters: [
    { name: "id", in: "query", required: true, description: "the link's id or alias", schema: t.String() },
    q("domain", "the link's domain (docs/several-domains.md: Several domains); left out or empty: the domain the request is sent to"),
    q("from", "first UTC day, YYYY-MM-DD"),
    q("to", "last UTC day, YYYY-MM-DD"),
    q("bots", "exclude: leave bot clicks out of every figure", t.Union([t.Literal("include"), t.Literal("exclude")])),
  ],
  responses: { 200: { description: "the link and its statistics", json: S.Stats }, ...errors([400, 401, 403, 404, 429, 503], "id_missing, bad_range, bad_request or domain_unknown") },
};

export const LIVE_STATS: Operation = {
  method: "get", path: "/api/stats/live", operationId: "liveStats", auth: "optional",
  summary: "Server-Sent Events: with id, the link's visits as they are written (as its statistics' access, variant URLs as its statistics show them); without, clicks of every link the key may see (docs/webhooks.md: Live view)",
  parameters: [
    q("id", "the link's id; leave out for every link (a key or session needed)"),
    q("domain", "with id: the link's domain; left out or empty: the domain the request is sent to"),
  ],
  responses: {
    200: { description: "text/event-stream: event ready, then visit (with id) or clicks (without), and heartbeat every 5 s", content: { "text/event-stream": text } },
    ...errors([400, 401, 403, 404, 421, 503]),
    429: { description: `too_many_streams: at most ${10} streams from one address and ${500} in all`, json: S.ApiError },
  },
};

export const OVERVIEW: Operation = {
  method: "get", path: "/api/overview", operationId: "overview", auth: "required",
  summary: "The dashboard's figures for the links a key may see, of every domain or of one (docs/web-ui.md: Overview)",
  parameters: [q("domain", "a domain's name: count only its links (absent: every domain)")],
  responses: { 200: { description: "links, clicks today / 7 / 30 days, per day, top 5 (each with its domain's name)", json: S.Overview }, ...errors([400, 401, 403, 421, 429, 503], "domain_unknown") },
};

export const ORPHAN_VISITS: Operation = {
  method: "get", path: "/api/orphan-visits", operationId: "orphanVisits", auth: "required",
  summary: "An admin's summary of visits to no link: the root, unknown aliases, other pages not found (docs/statistics.md: Visits to no link)",
  parameters: [
    q("from", "first UTC day, YYYY-MM-DD (default: 29 days before to)"),
    q("to", "last UTC day, YYYY-MM-DD (default: today)"),
    q("bots", "exclude: leave bots' visits out of every figure", t.Union([t.Literal("include"), t.Literal("exclude")])),
  ],
  responses: { 200: { description: "counts by type, humans and bots, the top paths, per day", json: S.OrphanSummary }, ...errors([400, 401, 403, 421, 429, 503], "bad_range or bad_request; 403 admin_only") },
};

export const ORPHAN_VISITS_EXPORT: Operation = {
  method: "get", path: "/api/orphan-visits/export", operationId: "exportOrphanVisits", auth: "required",
  summary: "An admin's export of visits to no link, as CSV or JSON lines, streamed in the export's order (stored row, then place: each row's visitId); resumable with after (docs/statistics.md: Visits to no link)",
  parameters: [
    ...EXPORT_RANGE,
    q("type", "only visits of this type", t.Union([t.Literal("base_url"), t.Literal("invalid_short_url"), t.Literal("regular_404")])),
    EXPORT_AFTER,
  ],
  responses: {
    200: { description: "a download (Content-Disposition: attachment): visitId, timestamp, type, visitedPath, browser, os, device, country, referrer, isBot", content: { "text/csv": text, "application/jsonl": text } },
    ...errors([400, 401, 403, 421, 429, 503], "bad_request naming the parameter, bad_range; 403 admin_only"),
    ...EXPORTS_429,
  },
};
