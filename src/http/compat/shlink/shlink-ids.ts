// Which link a Shlink request names: a short code and `domain` (absent, empty, "DEFAULT" or the
// default domain's own name: the default domain), as Shlink's DropDefaultDomainFromRequestMiddleware
// reads it (docs/shlink-api.md: Requests).

import type { DomainDirectory } from "../../../domains/directory.ts";
import { keyOf } from "../../../ops/links/domain.ts";
import { ShlinkProblem } from "./shlink-problem.ts";
import type { ShortUrlIds } from "./shlink-ours.ts";

/** The domain name a `domain` parameter names; null: the default domain. */
export function domainParam(value: string | null | undefined, directory: Pick<DomainDirectory, "byName">): string | null {
  if (value === null || value === undefined || value === "" || value === "DEFAULT") return null;
  const entry = directory.byName(value);
  return entry !== null && entry.isDefault ? null : value;
}

/** The stored key of the link a short code and domain name, or Shlink's short-url-not-found. */
export function shortUrlKey(ids: ShortUrlIds, directory: DomainDirectory): string {
  const key = keyOf(ids.shortCode, ids.domain, directory);
  if (!key.ok) throw notFound(ids);
  return key.value;
}

export function notFound(ids: ShortUrlIds): ShlinkProblem {
  const extra = { shortCode: ids.shortCode, ...(ids.domain !== null ? { domain: ids.domain } : {}) };
  return new ShlinkProblem("short-url-not-found", `No URL found with short code "${ids.shortCode}"${ids.domain ? ` for domain "${ids.domain}"` : ""}`, extra);
}
