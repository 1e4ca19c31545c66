// Exporting visits (docs/statistics.md: Exporting visits): whose visits the principal may take away
// (as for a page of them: src/ops/stats/visits.ts), then the stream of their rows. One audit line
// when the stream ends: read to its end, stopped by the client, or failed, with the rows sent.

import type { Principal } from "../../auth/policy.ts";
import { visitExportStream, type ExportChunkQuery, type VisitExportSource } from "../../stats/visit-export.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import { admitVisitScope, type VisitsDeps, type VisitsOf } from "./visits.ts";
import type { DomainDirectory } from "../../domains/directory.ts";
import { keyOf, namedDomain } from "../links/domain.ts";

export type ExportVisitsDeps = Omit<VisitsDeps, "visitPages"> & { visitExport: VisitExportSource };

export type ExportVisitsInput = { of: VisitsOf } & Omit<ExportChunkQuery, "scope" | "header" | "batches">;

export async function exportVisits(actor: Principal, input: ExportVisitsInput, deps: ExportVisitsDeps): Promise<Outcome<ReadableStream<Uint8Array>>> {
  const admitted = await admitVisitScope(actor, input.of, "visits-export", deps);
  if (!admitted.ok) return admitted;
  const { of: _of, ...asked } = input;
  return done(visitExportStream(deps.visitExport, { ...asked, scope: { links: admitted.value.scope } }, (end) => logAction(deps.log, actor, "visits-export", admitted.value.target, `${end.how} ${end.rows}`)));
}

/** What the API's query and the command's flags name, empty values as absent. */
export type ExportNames = { id?: string | null; domain?: string | null; tag?: string | null };

/**
 * Whose visits the names say, the same from every surface: an alias (with a domain: that domain's
 * link), else a tag and/or a domain, else every link; or why the domain is unknown.
 */
export function exportedVisitsOf(names: ExportNames, directory: DomainDirectory): Outcome<VisitsOf> {
  const domainName = names.domain || null;
  if (names.id) {
    const key = keyOf(names.id, domainName, directory);
    return key.ok ? done({ link: key.value }) : key;
  }
  const domain = domainName === null ? null : namedDomain(domainName, directory);
  if (domain !== null && !domain.ok) return domain;
  const key = domain?.value.key ?? null;
  const tag = names.tag || null;
  return done(tag ? { tag, domain: key } : key !== null ? { domain: key } : { every: true, domain: null });
}

/** Each domain's name by its stored key, as the rows name them ("" for a default that has no name). */
export function exportDomainNames(directory: DomainDirectory): Record<string, string> {
  const names: Record<string, string> = {};
  for (const entry of directory.all()) names[entry.key] = entry.name ?? "";
  return names;
}
