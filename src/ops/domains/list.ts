// The domains: every one with its settings and how many links it holds (admins), or the names a
// caller may make links on (the dashboard's picker: anyone who may create).

import type { StoredDomain } from "../../domains/repository.ts";
import type { DomainEntry } from "../../domains/directory.ts";
import { DEFAULT_SETTINGS } from "../../domains/domain.ts";
import { mayCreateOn } from "../../domains/rules.ts";
import { mayCreateLinks, type Actor } from "../../auth/policy.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import { domainsRefusal, type DomainsDeps } from "./access.ts";

/** A stored domain, or the default named only by --base-url (no row: its links are not counted, null). */
export type ListedDomain = Omit<StoredDomain, "links"> & { links: number | null };

/** Every domain, the default first; with --base-url and no row of its host, that default too (virtual). */
export async function listDomains(actor: Actor, _input: null, deps: Pick<DomainsDeps, "domains" | "baseHost">): Promise<Outcome<ListedDomain[]>> {
  const refusal = domainsRefusal(actor);
  if (refusal !== null) return refusal;
  const rows: ListedDomain[] = await deps.domains.list();
  if (deps.baseHost !== null && !rows.some((d) => d.isDefault)) rows.unshift({ ...DEFAULT_SETTINGS, name: deps.baseHost, isDefault: true, createdAt: 0, links: null });
  return done(rows);
}

/** The domains `actor` may make links on, the default first (null name: a default that has none). */
export function domainsForCreate(
  actor: Actor,
  _input: null,
  deps: { directory: { all(): readonly DomainEntry[] }; createAccess: "public" | "key" },
): Outcome<{ name: string | null; isDefault: boolean }[]> {
  if (!mayCreateLinks(actor, deps.createAccess)) return refused("auth_required", "this needs an API key: send Authorization: Bearer <key>, or sign in");
  return done(deps.directory.all().filter((d) => mayCreateOn(d, actor)).map((d) => ({ name: d.name, isDefault: d.isDefault })));
}
