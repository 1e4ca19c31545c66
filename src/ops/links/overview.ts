// The dashboard's figures above the list (docs/web-ui.md: Overview), over the links the principal
// may see: of every domain, or of the one domain asked for by its name.

import { ownerFilter, type Principal } from "../../auth/policy.ts";
import type { DomainDirectory } from "../../domains/directory.ts";
import type { Overview } from "../../stats/overview.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import type { LinkOpsDeps } from "./deps.ts";

/** What the overview asks of the domains: a client's name to its domain, a stored domain to its name. */
export type OverviewDomains = Pick<DomainDirectory, "byName" | "nameOf">;

/** `domain`: a domain's name; absent (or empty): every domain. */
export type OverviewInput = { domain?: string | null };

export async function linksOverview(
  actor: Principal,
  input: OverviewInput,
  deps: Pick<LinkOpsDeps, "overview" | "log" | "now"> & { domains: OverviewDomains },
): Promise<Outcome<Overview>> {
  // Empty is every domain here (not the default, as where one link is addressed): the overview
  // without a choice counts them all, as before domains.
  const asked = input.domain ?? "";
  const domain = asked === "" ? null : deps.domains.byName(asked);
  if (domain === null && asked !== "") return refused("domain_unknown", `no domain is named ${asked}`, "domain");
  const data = await deps.overview(ownerFilter(actor), deps.now(), domain?.key ?? null);
  logAction(deps.log, actor, "overview", null, "ok");
  // The engines read the stored domain ('' for the default); the API names it.
  return done({ ...data, top: data.top.map((link) => ({ ...link, domain: deps.domains.nameOf(link.domain ?? "") })) });
}
