// An import run in this process to its end (`shortener import`): the source already opened, the
// target the command's own connection. The links belong to whom the actor's would (the operator's:
// nobody's).

import { creatorOf, type Actor } from "../../auth/policy.ts";
import { runImport, type ImportOptions, type ImportReport } from "../../imports/run.ts";
import type { ImportSource } from "../../imports/source.ts";
import type { ImportTarget } from "../../imports/target.ts";
import { CONFLICT_POLICIES, type ConflictPolicy } from "../../imports/plan.ts";
import type { Logger } from "../../log.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import { importsRefusal } from "./access.ts";
import type { DomainMap } from "../../imports/domains.ts";

export type ImportHere = { from: string; source: ImportSource; policy: ConflictPolicy; dryRun: boolean; history: boolean; domainMap: DomainMap };

export async function importHere(
  actor: Actor,
  input: ImportHere,
  deps: { target: ImportTarget; log: Logger } & Pick<ImportOptions, "checkUrl" | "progress" | "baseHost">,
): Promise<Outcome<ImportReport>> {
  const refusal = importsRefusal(actor);
  if (refusal !== null) return refusal;
  if (!CONFLICT_POLICIES.includes(input.policy)) return refused("bad_request", `the conflict policy must be one of ${CONFLICT_POLICIES.join(", ")}`);
  const { policy, dryRun, history, domainMap } = input;
  const { checkUrl, progress, baseHost } = deps;
  const report = await runImport(input.source, deps.target, { policy, dryRun, history, domainMap, owner: creatorOf(actor), checkUrl, progress, baseHost });
  logAction(deps.log, actor!, "import", null, `${report.outcome} from ${input.from}${dryRun ? " (dry run)" : ""}`);
  return done(report);
}
