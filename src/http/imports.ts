// POST /api/imports starts an import from another shortener (the dashboard's dialog; the same
// as `shortener import`), GET /api/imports/{id} tells how far it is and, at the end, its result.
// Admins only: an import writes links for everyone, and reaches out to the address it is given.

import type { Static } from "elysia";
import { requireAllowed, type AuthDeps } from "./auth.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError, json } from "./responses.ts";
import { problemResponse } from "./problems.ts";
import { readJsonBody } from "./form-body.ts";
import type { SourceOptions } from "../imports/sources/index.ts";
import { CONFLICT_POLICIES, type ConflictPolicy } from "../imports/plan.ts";
import type { ImportJob, ImportJobs } from "../imports/jobs.ts";
import { importJobRefusal, importsRefusal } from "../ops/imports/access.ts";
import { importJob, startImport } from "../ops/imports/start.ts";
import type { Problem } from "../ops/outcome.ts";
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
  "api-key-file": "apiKey", "token-file": "token", file: "csv", "domain-map": "domainMap",
};

export async function handleStartImport(request: Request, server: PeerServer, deps: ImportsDeps): Promise<Response> {
  const auth = await requireAllowed(request, server, deps, importsRefusal);
  if (!auth.ok) return auth.response;
  const body = await readJsonBody(request, MAX_REQUEST_BYTES);
  if (!body.ok) return apiError(body.status, body.code, body.error);
  const fields = body.value as Record<string, unknown>;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return apiError(400, "bad_request", "the body must be a JSON object");
  // Loaded when an import is asked for: the sources' clients stay out of the click thread's start.
  const { SOURCES } = await import("../imports/sources/index.ts");
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
  const domainMap = fields.domainMap;
  if (domainMap !== undefined && domainMap !== null && typeof domainMap !== "string" && (typeof domainMap !== "object" || Array.isArray(domainMap))) {
    return apiError(400, "bad_request", 'domainMap must be an object of source domains and ours ({"old.example": "new.example"}) or "old=new,…"', "domainMap");
  }
  const asked = { from: fields.from as string, options, policy, dryRun: fields.dryRun === true, history: fields.visits === true, domainMap: (domainMap ?? undefined) as string | Record<string, unknown> | undefined };
  const started = await startImport(auth.principal, asked, deps);
  return started.ok ? json(202, { success: true, data: jobJson(started.value) }) : problemResponse(inRequestWords(started.problem, deps));
}

/** A source's problem in the request's field names for the command line's flags; the service's own flag stays a flag. */
function inRequestWords(problem: Problem, deps: ImportsDeps): Problem {
  const message = problem.message.replace(/--([a-z-]+)/g, (whole, flag: string) => (whole === deps.imports.reach.flag ? whole : (FIELD_OF_FLAG[flag] ?? flag)));
  return { ...problem, message };
}

export async function handleImportJob(request: Request, id: string, server: PeerServer, deps: ImportsDeps): Promise<Response> {
  const auth = await requireAllowed(request, server, deps, importJobRefusal);
  if (!auth.ok) return auth.response;
  const job = await importJob(auth.principal, { id }, deps);
  return job.ok ? json(200, { success: true, data: jobJson(job.value) }) : problemResponse(job.problem);
}

function jobJson(job: ImportJob): Static<typeof S.ImportJob>["data"] {
  const r = job.report;
  return {
    id: job.id, from: job.from, state: job.state, startedAt: isoTime(job.startedAt)!, progress: job.progress, lines: job.lines,
    summary: r === null ? null : {
      linksRead: r.links.read, created: r.links.created, already: r.links.already, skipped: r.links.skipped.length, renamed: r.links.renamed.length,
      problems: r.problems.length, visits: r.history.visits, clicksCounted: r.history.clicksCounted, domainsAdded: r.domains.added,
    },
  };
}
