// Which link a statistics request names (docs/api.md: Read statistics): its alias
// on the domain `?domain=<name>` gives, else on the request's own domain, so that /stats/abc on a
// short domain is that domain's abc. Shared by GET /api/stats, the live view and the stats page.

import { baseOf, type DomainDirectory, type DomainEntry } from "../domains/directory.ts";
import { linkKey } from "../domains/link-key.ts";
import { looksLikeId } from "../links/alias.ts";
import { requestDomain } from "./request-domain.ts";
import { apiError } from "./responses.ts";

/**
 * The link's key and its domain, or "domain_unknown" for a ?domain= that names no domain here. An
 * alias that cannot be one (an "@" in it) keys no link: a link is named by alias and domain apart.
 */
export function statsLinkKey(request: Request, alias: string, directory: DomainDirectory): { key: string; domain: DomainEntry } | "domain_unknown" {
  const given = new URL(request.url).searchParams.get("domain");
  const domain = given === null || given === "" ? requestDomain(request, directory) : directory.byName(given);
  if (domain === null) return "domain_unknown";
  return { key: looksLikeId(alias) ? linkKey(domain.key, alias) : "", domain };
}


/** The API's answer to a ?domain= that names no domain (docs/api.md: Errors). */
export function domainUnknown(): Response {
  return apiError(400, "domain_unknown", "no such domain here: name one of the service's domains, or leave domain out for the default", "domain");
}

/**
 * Where a link of `domain` is clicked: `https://<name>` (http when the domain says so); the default
 * domain's as before, --base-url else the request's own (null when neither says).
 */
export function linkBase(domain: DomainEntry, requestBase: () => string | null): string | null {
  return domain.isDefault ? requestBase() : baseOf(domain);
}
