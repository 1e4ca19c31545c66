// GET /api/visits/export: the raw visits of a link, a tag, a domain or every link the caller may see,
// as CSV or JSON lines, streamed (docs/statistics.md: Exporting visits). The operation decides whose
// visits; here the query read, the stream answered, and its end written to the audit log.

import { exportDomainNames, exportedVisitsOf, exportVisits, type ExportVisitsDeps } from "../ops/stats/export-visits.ts";
import { EXPORT_START, parseCursor, type VisitCursor } from "../stats/visit-export.ts";
import { VISIT_EXPORT_FORMATS, type VisitExportFormat } from "../stats/visit-export-format.ts";
import type { DomainDirectory } from "../domains/directory.ts";
import { dayOf } from "../util/day.ts";
import { requirePrincipal, type AuthDeps } from "./auth.ts";
import type { PeerServer } from "./request-origin.ts";
import { problemResponse } from "./problems.ts";
import { apiError, NOSNIFF } from "./responses.ts";
import { exportRange } from "../stats/export-range.ts";
import { withExportSlot, type ExportSlots } from "./export-slots.ts";

export type VisitExportDeps = AuthDeps & ExportVisitsDeps & { directory: DomainDirectory };

const TYPES: Record<VisitExportFormat, string> = { csv: "text/csv; charset=utf-8", jsonl: "application/jsonl; charset=utf-8" };

/** `slots`: the places of the exports running, shared with the export of visits to no link. */
export async function handleVisitExport(request: Request, server: PeerServer, deps: VisitExportDeps, slots: ExportSlots): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const asked = exportAsked(query);
  if (asked instanceof Response) return asked;
  const of = exportedVisitsOf({ id: query.get("id"), domain: query.get("domain"), tag: query.get("tag") }, deps.directory);
  if (!of.ok) return problemResponse(of.problem);
  // A place among the exports running is held until the stream ends (docs/statistics.md: Exporting visits).
  return withExportSlot(
    slots,
    auth.principal,
    async (ended) => {
      const exported = await exportVisits(auth.principal, { of: of.value, ...asked, domainNames: exportDomainNames(deps.directory), ended }, deps);
      return exported.ok ? exported : { ok: false, response: problemResponse(exported.problem) };
    },
    (stream) => exportResponse(stream, asked.format, `visits-${dayOf(deps.now())}`),
  );
}

/** What an export's query asks beside whose visits (a link's or to no link), or the 400 that says what is wrong. */
export type ExportAsked = { format: VisitExportFormat; fromTs: number; toTs: number; excludeBots: boolean; after: VisitCursor };

export function exportAsked(query: URLSearchParams): ExportAsked | Response {
  const format = (query.get("format") || "csv") as VisitExportFormat;
  if (!VISIT_EXPORT_FORMATS.includes(format)) return apiError(400, "bad_request", "format must be csv or jsonl", "format");
  const bots = query.get("bots");
  if (bots !== null && bots !== "exclude" && bots !== "include") return apiError(400, "bad_request", "bots must be exclude or include", "bots");
  const range = exportRange(query.get("from"), query.get("to"));
  if (!range.ok) return apiError(400, "bad_range", range.error, range.field);
  const afterText = query.get("after");
  const after = afterText ? parseCursor(afterText) : EXPORT_START;
  if (after === null) return apiError(400, "bad_request", "after must be a row's visitId, as <batch>-<position>", "after");
  return { format, ...range.value, excludeBots: bots === "exclude", after };
}

/** The download: `name` without its extension. */
export function exportResponse(stream: ReadableStream<Uint8Array>, format: VisitExportFormat, name: string): Response {
  return new Response(stream, {
    headers: { ...NOSNIFF, "Content-Type": TYPES[format], "Cache-Control": "no-store", "Content-Disposition": `attachment; filename="${name}.${format}"` },
  });
}
