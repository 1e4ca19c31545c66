// Exporting visits (docs/statistics.md: Exporting visits): whose visits the principal may take away
// (as for a page of them: src/ops/stats/visits.ts), then the stream of their rows. One audit line
// when the stream ends: read to its end, stopped by the client, or failed, with the rows sent.

import type { Principal } from "../../auth/policy.ts";
import { visitExportStream, type ExportChunkQuery, type VisitExportSource } from "../../stats/visit-export.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import { TAG_PATTERN } from "../../links/options.ts";
import { admitVisitScope, type VisitsDeps, type VisitsOf } from "./visits.ts";
import type { DomainDirectory } from "../../domains/directory.ts";
import { keyOf, namedDomain } from "../links/domain.ts";

export type ExportVisitsDeps = Omit<VisitsDeps, "visitPages"> & { visitExport: VisitExportSource };

/**
 * `ended`: called once when the stream ends, however it ends (the API gives back the export's place
 * then: src/http/export-slots.ts); not when no stream is answered.
 */
export type ExportVisitsInput = { of: VisitsOf; ended?: () => void } & Omit<ExportChunkQuery, "scope" | "header" | "batches">;

export async function exportVisits(actor: Principal, input: ExportVisitsInput, deps: ExportVisitsDeps): Promise<Outcome<ReadableStream<Uint8Array>>> {
  const admitted = await admitVisitScope(actor, input.of, "visits-export", deps);
  if (!admitted.ok) return admitted;
  const { of: _of, ended, ...asked } = input;
  return done(auditedExport(deps, { ...asked, scope: { links: admitted.value.scope } }, { actor, target: admitted.value.target, ended }));
}

/**
 * An export's stream that, when it ends however it ends, calls `ended` and writes the one audit
 * line (`visits-export`, the target, how it ended and the rows sent); a link's visits and visits to
 * no link alike (src/ops/orphans/export.ts).
 */
export function auditedExport(
  deps: Pick<ExportVisitsDeps, "visitExport" | "log">,
  query: Omit<ExportChunkQuery, "header">,
  by: { actor: Pick<Principal, "name">; target: string | null; ended: (() => void) | undefined },
): ReadableStream<Uint8Array> {
  return visitExportStream(deps.visitExport, query, (end) => {
    by.ended?.();
    logAction(deps.log, by.actor, "visits-export", by.target, `${end.how} ${end.rows}`);
  });
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
  // A name no tag can have is refused as the tag's statistics refuse it, not looked for.
  if (tag !== null && !TAG_PATTERN.test(tag)) return refused("tags_invalid", "a tag is 1 to 30 letters, digits, hyphens or underscores", "tag");
  return done(tag ? { tag, domain: key } : key !== null ? { domain: key } : { every: true, domain: null });
}

/** Each domain's name by its stored key, as the rows name them ("" for a default that has no name). */
export function exportDomainNames(directory: DomainDirectory): Record<string, string> {
  const names: Record<string, string> = {};
  for (const entry of directory.all()) names[entry.key] = entry.name ?? "";
  return names;
}
