// Exporting visits (docs/statistics.md: Exporting visits): whose visits the principal may take away
// (as for a page of them: src/ops/stats/visits.ts), then the stream of their rows. One audit line
// when the stream ends: read to its end, stopped by the client, or failed, with the rows sent.

import type { Principal } from "../../auth/policy.ts";
import { visitExportStream, type ExportChunkQuery, type VisitExportSource } from "../../stats/visit-export.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import { admitVisitScope, type VisitsDeps, type VisitsOf } from "./visits.ts";

export type ExportVisitsDeps = Omit<VisitsDeps, "visitPages"> & { visitExport: VisitExportSource };

export type ExportVisitsInput = { of: VisitsOf } & Omit<ExportChunkQuery, "scope" | "header" | "batches">;

export async function exportVisits(actor: Principal, input: ExportVisitsInput, deps: ExportVisitsDeps): Promise<Outcome<ReadableStream<Uint8Array>>> {
  const admitted = await admitVisitScope(actor, input.of, "visits-export", deps);
  if (!admitted.ok) return admitted;
  const { of: _of, ...asked } = input;
  return done(visitExportStream(deps.visitExport, { ...asked, scope: { links: admitted.value.scope } }, (end) => logAction(deps.log, actor, "visits-export", admitted.value.target, `${end.how} ${end.rows}`)));
}
