// GET /api/visits/export: the raw visits of a link, a tag, a domain or every link the caller may see,
// as CSV or JSON lines, streamed (docs/statistics.md: Exporting visits). The operation decides whose
// visits; here the query read, the stream answered, and its end written to the audit log.

import type { VisitsOf } from "../ops/stats/visits.ts";
import { exportVisits, type ExportVisitsDeps } from "../ops/stats/export-visits.ts";
import { keyOf, namedDomain } from "../ops/links/domain.ts";
import { EXPORT_START, parseCursor } from "../stats/visit-export.ts";
import { VISIT_EXPORT_FORMATS, type VisitExportFormat } from "../stats/visit-export-format.ts";
import type { DomainDirectory } from "../domains/directory.ts";
import { dayOf } from "../util/day.ts";
import { requirePrincipal, type AuthDeps } from "./auth.ts";
import type { PeerServer } from "./request-origin.ts";
import { problemResponse } from "./problems.ts";
import { apiError, NOSNIFF } from "./responses.ts";
import { exportRange } from "../stats/export-range.ts";

export type VisitExportDeps = AuthDeps & ExportVisitsDeps & { directory: DomainDirectory };

const TYPES: Record<VisitExportFormat, string> = { csv: "text/csv; charset=utf-8", jsonl: "application/jsonl; charset=utf-8" };

export async function handleVisitExport(request: Request, server: PeerServer, deps: VisitExportDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const format = (query.get("format") || "csv") as VisitExportFormat;
  if (!VISIT_EXPORT_FORMATS.includes(format)) return apiError(400, "bad_request", "format must be csv or jsonl", "format");
  const bots = query.get("bots");
  if (bots !== null && bots !== "exclude" && bots !== "include") return apiError(400, "bad_request", "bots must be exclude or include", "bots");
  const range = exportRange(query.get("from"), query.get("to"));
  if (!range.ok) return apiError(400, "bad_range", range.error, range.field);
  const afterText = query.get("after");
  const after = afterText ? parseCursor(afterText) : EXPORT_START;
  if (after === null) return apiError(400, "bad_request", "after must be a row's visitId, as <batch>-<position>", "after");
  const of = visitsOf(query, deps.directory);
  if (!of.ok) return problemResponse(of.problem);
  const domainNames: Record<string, string> = {};
  for (const entry of deps.directory.all()) domainNames[entry.key] = entry.name ?? "";
  const exported = await exportVisits(auth.principal, { of: of.value, ...range.value, excludeBots: bots === "exclude", after, format, domainNames }, deps);
  if (!exported.ok) return problemResponse(exported.problem);
  return new Response(exported.value, {
    headers: { ...NOSNIFF, "Content-Type": TYPES[format], "Cache-Control": "no-store", "Content-Disposition": `attachment; filename="visits-${dayOf(deps.now())}.${format}"` },
  });
}

/** Whose visits the query names: ?id= (with ?domain=: that domain's link), else ?tag= and/or ?domain=, else every link. */
function visitsOf(query: URLSearchParams, directory: DomainDirectory) {
  const id = query.get("id");
  const domainName = query.get("domain") || null;
  if (id) {
    const key = keyOf(id, domainName, directory);
    return key.ok ? { ok: true as const, value: { link: key.value } satisfies VisitsOf } : key;
  }
  const domain = domainName === null ? null : namedDomain(domainName, directory);
  if (domain !== null && !domain.ok) return domain;
  const key = domain?.value.key ?? null;
  const tag = query.get("tag");
  const of: VisitsOf = tag ? { tag, domain: key } : key !== null ? { domain: key } : { every: true, domain: null };
  return { ok: true as const, value: of };
}
