// Starts an import on the import thread (the dashboard's dialog), one at a time; how far it is is
// asked for by id (importJob). The source's options are checked first, so that what is missing is
// said before anything starts, and a written address the outbound policy refuses is refused now (a
// name when it is resolved).

import type { Actor } from "../../auth/policy.ts";
import { creatorOf } from "../../auth/policy.ts";
import type { ImportJob, ImportJobs } from "../../imports/jobs.ts";
import { CONFLICT_POLICIES, type ConflictPolicy } from "../../imports/plan.ts";
import { SourceError } from "../../imports/source.ts";
import type { SourceOptions } from "../../imports/sources/index.ts";
import type { Logger } from "../../log.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import { importJobRefusal, importsRefusal } from "./access.ts";
import { parseDomainMap } from "../../imports/domains.ts";

export type ImportsDeps = { imports: ImportJobs; log: Logger };

/** `options`: the source's, by the command line's flag names; a source's problem names those flags in its message. */
/** `domainMap`: as the request gives it, "old=new,…" or { old: new } (docs/importing.md: Domains). */
export type ImportAsked = { from: string; options: SourceOptions; policy: ConflictPolicy; dryRun: boolean; history: boolean; domainMap?: string | Record<string, unknown> };

export async function startImport(actor: Actor, input: ImportAsked, deps: ImportsDeps): Promise<Outcome<ImportJob>> {
  const refusal = importsRefusal(actor);
  if (refusal !== null) return refusal;
  if (!CONFLICT_POLICIES.includes(input.policy)) return refused("bad_request", `onConflict must be one of ${CONFLICT_POLICIES.join(", ")}`);
  const domainMap = parseDomainMap(input.domainMap);
  if (!domainMap.ok) return refused("bad_request", domainMap.error, "domainMap");
  // Loaded when an import is asked for: the sources' clients stay out of the click thread's start.
  const { openSource } = await import("../../imports/sources/index.ts");
  try {
    await openSource(input.from, input.options, {}, deps.imports.reach).close?.();
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    if (err.code === "private") return refused("url_private", err.message, input.from === "yourls" ? "sourceDb" : "url");
    return refused("bad_request", err.message);
  }
  const { from, options, policy, dryRun, history } = input;
  const job = deps.imports.start({ from, options, policy, dryRun, history, domainMap: [...domainMap.map], owner: creatorOf(actor) });
  if (job === null) return refused("import_running", "another import is running; wait for it to end");
  logAction(deps.log, actor!, "import", null, `started from ${job.from}${dryRun ? " (dry run)" : ""}`);
  return done(job);
}

/** An import started here (the last ten are kept until a restart). */
export async function importJob(actor: Actor, input: { id: string }, deps: Pick<ImportsDeps, "imports">): Promise<Outcome<ImportJob>> {
  const refusal = importJobRefusal(actor);
  if (refusal !== null) return refusal;
  const job = deps.imports.get(input.id);
  return job === null ? refused("not_found", `no import ${input.id} (the last ten are kept until a restart)`) : done(job);
}
