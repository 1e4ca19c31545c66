// GET /api/links/export?format=csv|json streams every link a key may see; POST /api/links/import
// creates each row of a CSV or JSON array like a create would and reports every row's outcome. The
// operations (src/ops/links/export.ts, import.ts) decide; here the query, the files and the stream.

import type { CreateFields } from "../links/create.ts";
import { csvValues, EXPORT_COLUMNS, IMPORT_COLUMNS, BEHAVIOUR_COLUMNS, CARD_COLUMNS, type TransferRecord } from "../links/transfer.ts";
import { exportLinks } from "../ops/links/export.ts";
import { importLinks } from "../ops/links/import.ts";
import { namedDomain } from "../ops/links/domain.ts";
import { csvRecord, CsvError, parseCsv } from "../util/csv.ts";
import { requirePrincipal } from "./auth.ts";
import { mediaType, readBodyText, wellFormedText } from "./form-body.ts";
import type { LinksDeps } from "./links.ts";
import { problemResponse } from "./problems.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { ownHostsOf } from "./destination-rules.ts";
import { apiError, badHost, json } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";
import { linkPlace } from "./link-json.ts";
import { dayOf } from "../util/day.ts";

export { MAX_EXPORT_IDS } from "../ops/links/export.ts";

/**
 * Rows one import may hold: a large homelab's whole collection. 4 MiB is 400 bytes a row at the
 * full count, far above a typical row; a bigger body only costs memory while it is parsed.
 */
export const MAX_IMPORT_ROWS = 10_000;
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;
/** Records written into the stream at a time. */
const RECORDS_PER_CHUNK = 200;

export async function handleExport(request: Request, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const query = new URL(request.url).searchParams;
  const format = query.get("format") ?? "csv";
  if (format !== "csv" && format !== "json") return apiError(400, "bad_request", "format must be csv or json", "format");
  // ?domain=<name>: that domain's links only; absent or empty, every domain's.
  const domain = query.get("domain") ? namedDomain(query.get("domain"), deps.directory) : null;
  if (domain !== null && !domain.ok) return problemResponse(domain.problem);
  const exported = await exportLinks(auth.principal, { format, ids: query.get("ids")?.split(",") ?? null, domain: domain?.value.key ?? null }, deps);
  if (!exported.ok) return problemResponse(exported.problem);
  const type = format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8";
  return new Response(exportStream(exported.value.records, format), {
    headers: { "Content-Type": type, "Cache-Control": "no-store", "Content-Disposition": `attachment; filename="links-${dayOf(exported.value.now)}.${format}"` },
  });
}

/** The records as CSV or a JSON array, pulled a chunk at a time: a slow client holds no read transaction open between chunks. */
function exportStream(records: AsyncIterator<TransferRecord>, format: "csv" | "json"): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = "";
      if (first) text += format === "csv" ? csvRecord(EXPORT_COLUMNS) : "[";
      for (let i = 0; i < RECORDS_PER_CHUNK; i++) {
        const next = await records.next();
        if (next.done) {
          if (format === "json") text += first ? "]\n" : "\n]\n";
          controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += format === "csv" ? csvRecord(csvValues(next.value)) : `${first ? "\n" : ",\n"}${JSON.stringify(next.value)}`;
        first = false;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

export async function handleImport(request: Request, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const base = publicBase(deps.config, server, request, deps.trusted);
  if (base === null) return badHost();
  const type = mediaType(request);
  if (type !== "text/csv" && type !== "application/json") return apiError(415, "unsupported_media_type", "send text/csv or a JSON array (application/json)");
  const body = await readBodyText(request, MAX_IMPORT_BYTES);
  if (!body.ok) return apiError(body.status, body.code, body.error);
  const rows = type === "text/csv" ? csvRows(body.text) : jsonRows(body.text);
  if (!rows.ok) return apiError(rows.status, rows.status === 413 ? "too_many_rows" : "bad_request", rows.error);
  const imported = await importLinks(auth.principal, { rows: rows.rows, ownHosts: ownHostsOf(deps, base, request, server) }, deps);
  if (!imported.ok) return problemResponse(imported.problem);
  const { stopped, failed } = imported.value;
  const created = imported.value.created.map(({ row, id, domain }) => ({ row, id, domain: deps.directory.nameOf(domain), shortUrl: `${linkPlace(domain, base, deps.directory).base}/${id}` }));
  if (stopped === null) return json(200, { success: true, data: { created, failed } });
  // The disk refused a write: say how far it got (every row created is committed).
  const refused = storageUnavailable(stopped.error, deps.log, `importing links (row ${stopped.row}; ${created.length} created before it)`);
  return json(refused.status, { ...((await refused.json()) as Record<string, unknown>), data: { created, failed, stoppedAtRow: stopped.row } });
}

/**
 * What a row may say: an export's first five columns, its behaviour columns, a password to set, its
 * domain's name, its title, its card, and the iosUrl/androidUrl shortcuts (applied onto its rules).
 */
const ROW_COLUMNS = [...IMPORT_COLUMNS, ...BEHAVIOUR_COLUMNS, "password", "domain", "title", ...CARD_COLUMNS, "ios_url", "android_url"] as const;

type Rows = { ok: true; rows: (CreateFields | null)[] } | { ok: false; status: 400 | 413; error: string };
const TOO_MANY: Rows = { ok: false, status: 413, error: `at most ${MAX_IMPORT_ROWS} rows per import; split the file` };

/** Data rows of a CSV with a header naming at least `url`; unknown columns (an export's totals) are ignored. */
function csvRows(text: string): Rows {
  let records: string[][];
  try {
    records = parseCsv(text, MAX_IMPORT_ROWS + 2); // the header, and one too many to be refused
  } catch (err) {
    return { ok: false, status: 400, error: err instanceof CsvError ? `CSV: ${err.message}` : "the CSV could not be read" };
  }
  const header = (records.shift() ?? []).map((h) => h.trim().toLowerCase());
  if (!header.includes("url")) return { ok: false, status: 400, error: `the first line must be a header with the columns ${IMPORT_COLUMNS.join(",")} (url at least)` };
  const at = Object.fromEntries(ROW_COLUMNS.map((c) => [c, header.indexOf(c)]));
  const data = records.filter((r) => !(r.length === 1 && r[0]!.trim() === "")); // blank lines
  if (data.length > MAX_IMPORT_ROWS) return TOO_MANY;
  return { ok: true, rows: data.map((r) => Object.fromEntries(ROW_COLUMNS.filter((c) => at[c]! >= 0).map((c) => [c, r[at[c]!] ?? ""])) as CreateFields) };
}

function jsonRows(text: string): Rows {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, error: "the JSON could not be parsed" };
  }
  if (!Array.isArray(value)) return { ok: false, status: 400, error: "the JSON must be an array of objects with url, custom_url, expires_at, max_clicks, tags" };
  if (value.length > MAX_IMPORT_ROWS) return TOO_MANY;
  if (!wellFormedText(value)) return { ok: false, status: 400, error: "the JSON holds text that is not valid Unicode (a lone surrogate)" };
  return {
    ok: true,
    rows: value.map((v) =>
      typeof v === "object" && v !== null && !Array.isArray(v) ? (Object.fromEntries(ROW_COLUMNS.map((c) => [c, (v as Record<string, unknown>)[c]])) as CreateFields) : null,
    ),
  };
}
