// POST /api/imports starts an import from another shortener (the dashboard's dialog; the same
// as `shortener import`), GET /api/imports/{id} tells how far it is and, at the end, its result.
// Admins only: an import writes links for everyone, and reaches out to the address it is given.

import type { Static } from "elysia";
import { requireAdmin, type AuthDeps } from "./auth.ts";
import { creatorOf } from "../auth/policy.ts";
import { logAction } from "./audit.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError, json } from "./responses.ts";
import { readJsonBody } from "./form-body.ts";
import type { SourceOptions } from "../imports/sources/index.ts";
import { SourceError } from "../imports/source.ts";
import { CONFLICT_POLICIES, type ConflictPolicy } from "../imports/plan.ts";
import type { ImportJob, ImportJobs } from "../imports/jobs.ts";
import { isoTime } from "../util/day.ts";
import type * as S from "../api/schemas.ts";

export type ImportsDeps = AuthDeps & { imports: ImportJobs };

/** A CSV brought in the request: as large as the link import's (links-transfer.ts) allows, and more. */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** The request's fields and the source options they give (the command line's flag names). */
const OPTION_NAMES = {
  url: "url", apiKey: "api-key", sourceDb: "source-db", prefix: "prefix", token: "token", group: "group", csv: "csv-text", map: "map",
} as const satisfies Record<string, keyof SourceOptions>;
const TEXT_FIELDS = Object.keys(OPTION_NAMES) as (keyof typeof OPTION_NAMES)[];
/** A flag a source's message names, as the request's field: the options above, and the command line's files for them. */
const FIELD_OF_FLAG: Record<string, string> = {
  ...Object.fromEntries(Object.entries(OPTION_NAMES).map(([field, flag]) => [flag, field])),
  "api-key-file": "apiKey", "token-file": "token", file: "csv",
};

export async function handleStartImport(request: Request, server: PeerServer, deps: ImportsDeps): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, "imports need an admin: they write links for everyone");
  if (!auth.ok) return auth.response;
  const body = await readJsonBody(request, MAX_REQUEST_BYTES);
  if (!body.ok) return apiError(body.status, body.code, body.error);
  const fields = body.value as Record<string, unknown>;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return apiError(400, "bad_request", "the body must be a JSON object");
  // Loaded when an import is asked for: the sources' clients stay out of the click thread's start.
  const { openSource, SOURCES } = await import("../imports/sources/index.ts");
  if (!(SOURCES as readonly unknown[]).includes(fields.from)) return apiError(400, "bad_request", `from must be one of ${SOURCES.join(", ")}`);
  const policy = (fields.onConflict ?? "fail") as ConflictPolicy;
  if (!CONFLICT_POLICIES.includes(policy)) return apiError(400, "bad_request", `onConflict must be one of ${CONFLICT_POLICIES.join(", ")}`);
  const options: SourceOptions = {};
  for (const name of TEXT_FIELDS) {
    const value = fields[name];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string") return apiError(400, "bad_request", `${name} must be a string`);
    options[OPTION_NAMES[name]] = value;
  }
  for (const flag of ["dryRun", "visits"] as const) if (fields[flag] !== undefined && typeof fields[flag] !== "boolean") return apiError(400, "bad_request", `${flag} must be true or false`);
  // The options are checked here, so that the dialog says what is missing before anything starts,
  // and a written address the outbound policy refuses is refused now (a name when it is resolved).
  try {
    await openSource(fields.from as string, options, {}, deps.imports.reach).close?.();
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    // The request's field names for the command line's flags; the service's own flag stays a flag.
    const message = err.message.replace(/--([a-z-]+)/g, (whole, flag: string) => (whole === deps.imports.reach.flag ? whole : (FIELD_OF_FLAG[flag] ?? flag)));
    if (err.code === "private") return apiError(400, "url_private", message, fields.from === "yourls" ? "sourceDb" : "url");
    return apiError(400, "bad_request", message);
  }
  const job = deps.imports.start({
    from: fields.from as string, options, policy, dryRun: fields.dryRun === true, history: fields.visits === true, owner: creatorOf(auth.principal),
  });
  if (job === null) return apiError(409, "import_running", "another import is running; wait for it to end");
  logAction(deps.log, auth.principal, "import", null, `started from ${job.from}${fields.dryRun === true ? " (dry run)" : ""}`);
  return json(202, { success: true, data: jobJson(job) });
}

export async function handleImportJob(request: Request, id: string, server: PeerServer, deps: ImportsDeps): Promise<Response> {
  const auth = await requireAdmin(request, server, deps, "imports need an admin");
  if (!auth.ok) return auth.response;
  const job = deps.imports.get(id);
  if (job === null) return apiError(404, "not_found", `no import ${id} (the last ten are kept until a restart)`);
  return json(200, { success: true, data: jobJson(job) });
}

function jobJson(job: ImportJob): Static<typeof S.ImportJob>["data"] {
  const r = job.report;
  return {
    id: job.id, from: job.from, state: job.state, startedAt: isoTime(job.startedAt)!, progress: job.progress, lines: job.lines,
    summary: r === null ? null : {
      linksRead: r.links.read, created: r.links.created, already: r.links.already, skipped: r.links.skipped.length, renamed: r.links.renamed.length,
      problems: r.problems.length, visits: r.history.visits, clicksCounted: r.history.clicksCounted,
    },
  };
}
