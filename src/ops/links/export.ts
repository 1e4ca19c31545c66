// Exporting links (docs/managing-links.md: Managing links): every link the principal may see, or
// the chosen ones among them, as transfer records (src/links/transfer.ts) read a chunk at a time.

import { ownerFilter, type Principal } from "../../auth/policy.ts";
import { linkKey, looksLikeKey } from "../../domains/link-key.ts";
import type { Link } from "../../links/link.ts";
import { transferRecord, type TransferRecord } from "../../links/transfer.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import type { LinkOpsDeps } from "./deps.ts";
import { visibleLink } from "./get.ts";
import { keyOfReference } from "./domain.ts";

/** Links an export of chosen ids may name (a page of the list). */
export const MAX_EXPORT_IDS = 200;

/** `ids`: only these (the dashboard's "export selected": `alias`, or `alias@domain` by the domain's name), null for all (of one domain, by its stored key, when `domain` is given); `format` is named in the audit line. */
export type ExportInput = { format: "csv" | "json"; ids: readonly string[] | null; domain?: string | null };

/** The records, pulled as the surface writes them (a slow client holds no read transaction open meanwhile). */
export type LinkExport = { records: AsyncIterator<TransferRecord>; now: number };

export async function exportLinks(actor: Principal, input: ExportInput, deps: Pick<LinkOpsDeps, "links" | "lister" | "directory" | "log" | "now">): Promise<Outcome<LinkExport>> {
  // Ids the principal may not see, ids no link can have, and domains this service has not, are left out.
  const chosen = input.ids === null ? null : input.ids.map((id) => keyOfReference(id, deps.directory)).filter((key) => key !== null && looksLikeKey(key)) as string[];
  if (chosen !== null && chosen.length > MAX_EXPORT_IDS) return refused("bad_request", `ids may name at most ${MAX_EXPORT_IDS} links`, "ids");
  const now = deps.now();
  const links = (chosen === null ? deps.lister.all(ownerFilter(actor), input.domain ?? null) : visibleLinks(chosen, actor, deps))[Symbol.asyncIterator]();
  // The first read before the answer: a database that cannot be read is a refusal, not a broken download.
  const first = await links.next();
  // Logged when it starts: a client that hangs up half-way still leaves its line.
  logAction(deps.log, actor, "export", null, `started ${input.format}${chosen === null ? "" : ` ${chosen.length} ids`}`);
  return done({ records: records(first, links, now, deps), now });
}

async function* records(first: IteratorResult<Link>, rest: AsyncIterator<Link>, now: number, deps: Pick<LinkOpsDeps, "links" | "directory">): AsyncGenerator<TransferRecord> {
  for (let next = first; !next.done; next = await rest.next()) {
    const link = next.value;
    yield transferRecord(link, deps.directory.nameOf(link.domain), now, deps.links.clicksAnswered(linkKey(link.domain, link.id)));
  }
}

async function* visibleLinks(ids: readonly string[], principal: Principal, deps: Pick<LinkOpsDeps, "links">): AsyncGenerator<Link> {
  for (const id of new Set(ids)) {
    const link = await visibleLink(id, principal, deps);
    if (link !== null) yield link;
  }
}
