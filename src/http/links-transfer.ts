// GET /api/links/export?format=csv|json streams every link a key may see; POST /api/links/import
// creates each row of a CSV or JSON array like a create would and reports every row's outcome.

import { createLink, type CreateFields } from "../links/create.ts";
import { BEHAVIOUR_COLUMNS, csvValues, EXPORT_COLUMNS, IMPORT_COLUMNS, transferRecord } from "../links/transfer.ts";
import { csvRecord, CsvError, parseCsv } from "../util/csv.ts";
import { requirePrincipal } from "./auth.ts";
import { creatorOf, ownerFilter, type Principal } from "../auth/policy.ts";
import { looksLikeId } from "../links/alias.ts";
import type { Link } from "../links/link.ts";
import { mediaType, readBodyText, wellFormedText } from "./form-body.ts";
import { visibleLink, type LinksDeps } from "./links.ts";
import { logAction } from "./audit.ts";
import { publicBase, type PeerServer } from "./request-origin.ts";
import { destinationRules } from "./destination-rules.ts";
import { apiError, badHost, json } from "./responses.ts";
import { storageUnavailable } from "./storage-failure.ts";
import { dayOf } from "../util/day.ts";

/**
 * Rows one import may hold: a large homelab's whole collection. 4 MiB is 400 bytes a row at the
 * full count, far above a typical row; a bigger body only costs memory while it is parsed.
 */
export const MAX_IMPORT_ROWS = 10_000;
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;
/** Links an export of chosen ids may name (a page of the list). */
export const MAX_EXPORT_IDS = 200;
// Rows created between yields to the event loop, so that clicks are answered during a long import
// (each create is a transaction of some 30 µs: about a millisecond at a time).
const ROWS_PER_TURN = 25;

export async function handleExport(request: Request, server: PeerServer, deps: LinksDeps): Promise<Response> {
  const auth = await requirePrincipal(request, server, deps);
  if (!auth.ok) return auth.response;
  const format = new URL(request.url).searchParams.get("format") ?? "csv";
  if (format !== "csv" && format !== "json") return apiError(400, "bad_request", "format must be csv or json", "format");
  // ids=a,b,c: only those (the dashboard's "export selected"); ids the key may not see are left out.
  const ids = new URL(request.url).searchParams.get("ids");
  const chosen = ids === null ? null : ids.split(",").filter((id) => looksLikeId(id));
  if (chosen !== null && chosen.length > MAX_EXPORT_IDS) return apiError(400, "bad_request", `ids may name at most ${MAX_EXPORT_IDS} links`, "ids");
  const now = deps.now();
  const links = (chosen === null ? deps.lister.all(ownerFilter(auth.principal)) : visibleLinks(chosen, auth.principal, deps))[Symbol.asyncIterator]();
  // The first read before the answer: a database that cannot be read is a 503, not a broken download.
  let ahead: IteratorResult<Link> | null = await links.next();
  const encoder = new TextEncoder();
  let first = true;
  // Logged when it starts: a client that hangs up half-way still leaves its line.
  logAction(deps.log, auth.principal, "export", null, `started ${format}${chosen === null ? "" : ` ${chosen.length} ids`}`);
  // Pulled a chunk at a time: a slow client holds no read transaction open between chunks.
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = "";
      if (first) text += format === "csv" ? csvRecord(EXPORT_COLUMNS) : "[";
      for (let i = 0; i < 200; i++) {
        const next = ahead ?? (await links.next());
        ahead = null;
        if (next.done) {
          if (format === "json") text += first ? "]\n" : "\n]\n";
          controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        const record = transferRecord(next.value, now, deps.links.clicksAnswered(next.value.id));
        text += format === "csv" ? csvRecord(csvValues(record)) : `${first ? "\n" : ",\n"}${JSON.stringify(record)}`;
        first = false;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
  const type = format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8";
  return new Response(stream, {
    headers: { "Content-Type": type, "Cache-Control": "no-store", "Content-Disposition": `attachment; filename="links-${dayOf(now)}.${format}"` },
  });
}

async function* visibleLinks(ids: readonly string[], principal: Principal, deps: LinksDeps): AsyncGenerator<Link> {
  for (const id of new Set(ids)) {
    const link = await visibleLink(id, principal, deps);
    if (link !== null) yield link;
  }
}

type Outcome = { created: { row: number; id: string; shortUrl: string }[]; failed: { row: number; code: string; error: string }[] };

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

  const rules = destinationRules(deps, base, request, server);
  const outcome: Outcome = { created: [], failed: [] };
  for (let i = 0; i < rows.rows.length; i++) {
    const row = i + 1;
    const fields = rows.rows[i] ?? null;
    if (fields === null) {
      outcome.failed.push({ row, code: "bad_request", error: "the row is not an object" });
      continue;
    }
    let result;
    try {
      result = await createLink(deps.links, { ...rules, fields, creator: creatorOf(auth.principal), now: deps.now() });
    } catch (err) {
      // The disk refuses writes: stop here and say how far it got; every row created is committed,
      // and the client must learn which, or a second attempt would duplicate the generated ids.
      logAction(deps.log, auth.principal, "import", null, `storage_unavailable after ${outcome.created.length} created`);
      const refused = storageUnavailable(err, deps.log, `importing links (row ${row}; ${outcome.created.length} created before it)`);
      const body = (await refused.json()) as Record<string, unknown>;
      return json(refused.status, { ...body, data: { ...outcome, stoppedAtRow: row } });
    }
    if (result.ok) outcome.created.push({ row, id: result.link.id, shortUrl: `${base}/${result.link.id}` });
    else outcome.failed.push({ row, code: result.problems[0].code, error: result.problems[0].error });
    if (row % ROWS_PER_TURN === 0) await Bun.sleep(0);
  }
  logAction(deps.log, auth.principal, "import", null, `ok ${outcome.created.length} created, ${outcome.failed.length} failed`);
  return json(200, { success: true, data: outcome });
}

/** What a row may say: an export's first five columns, its behaviour columns, and a password to set. */
const ROW_COLUMNS = [...IMPORT_COLUMNS, ...BEHAVIOUR_COLUMNS, "password"] as const;

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
