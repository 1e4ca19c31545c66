// Exporting visits to no link (docs/statistics.md: Visits to no link): admins only, as every read
// of them (read.ts), then the same stream as a link's visits (src/stats/visit-export.ts) over the
// orphans' own batches. One audit line when the stream ends, as for a link's visits.

import type { Actor } from "../../auth/policy.ts";
import type { Logger } from "../../log.ts";
import type { ExportChunkQuery, VisitExportSource } from "../../stats/visit-export.ts";
import type { OrphanType } from "../../visits/orphans.ts";
import { auditedExport } from "../stats/export-visits.ts";
import { done, type Outcome } from "../outcome.ts";
import { orphansRefusal } from "./read.ts";

export type ExportOrphansDeps = { visitExport: VisitExportSource; log: Logger };

/** `ended`: called once when the stream ends, however it ends (as for a link's visits: src/ops/stats/export-visits.ts). */
export type ExportOrphansInput = { type: OrphanType | null; ended?: () => void } & Omit<ExportChunkQuery, "scope" | "header" | "batches" | "domainNames">;

export async function exportOrphanVisits(actor: Actor, input: ExportOrphansInput, deps: ExportOrphansDeps): Promise<Outcome<ReadableStream<Uint8Array>>> {
  const refusal = orphansRefusal(actor);
  if (refusal !== null) return refusal;
  const { type, ended, ...asked } = input;
  return done(auditedExport(deps, { ...asked, domainNames: {}, scope: { orphans: { type } } }, { actor: actor!, target: "orphans", ended }));
}
