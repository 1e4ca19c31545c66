// The domains as the dashboard knows them (docs/web-ui.md: Several domains): the names the signed-in
// key may create on (GET /api/domains?for=create, read once after sign-in and after every change in
// the domains dialog), which of them is the default, and how a link is addressed and told apart by
// its domain. The default's links are addressed without ?domain=, as before domains.
import { call, type Link } from "./api.ts";
import type { DomainJson } from "../../../src/api/types.ts";

/** A domain as GET /api/domains answers an admin (src/api/schemas/domains.ts; docs/web-ui.md: Several domains). */
export type Domain = DomainJson;

/** A domain the key may create on (name null: the default of an instance that knows no name). */
export type Creatable = { name: string | null; isDefault: boolean };

export const domainPath = (name?: string) => (name === undefined ? "/api/domains" : `/api/domains/${encodeURIComponent(name)}`);

let creatable: Creatable[] = [];

/** Reads the domains the key may create on again; none known when it fails (one domain, as before). */
export async function loadDomains(): Promise<readonly Creatable[]> {
  const res = await call<{ domains: Creatable[] }>("GET", `${domainPath()}?for=create`);
  creatable = res.ok && Array.isArray(res.data.domains) ? res.data.domains : [];
  return creatable;
}

/** The domains to choose from by name, the default first (one without a name is never a choice: it is alone). */
export function domainChoices(): readonly { name: string; isDefault: boolean }[] {
  const named = creatable.filter((d): d is { name: string; isDefault: boolean } => d.name !== null);
  return named.sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name));
}

/** Whether there is more than one domain: only then are pickers, filters and the column shown. */
export const severalDomains = (): boolean => creatable.length > 1;

/** The default domain's name, when it has one. */
export const defaultDomain = (): string | null => creatable.find((d) => d.isDefault)?.name ?? null;

/** A link's domain as the API is asked for it: null for the default (no ?domain=). */
export function domainOf(link: Pick<Link, "domain">): string | null {
  return link.domain === null || link.domain === defaultDomain() ? null : link.domain;
}

/** A link's key in the page (rows, selection, focus): its alias on the default, alias@domain elsewhere. */
export function linkKey(id: string, domain: string | null): string {
  return domain === null || domain === defaultDomain() ? id : `${id}@${domain}`;
}

export const keyOf = (link: Pick<Link, "id" | "domain">) => linkKey(link.id, link.domain);

/** `?domain=<name>` for a link that is not on the default domain, else nothing. */
export function domainQuery(domain: string | null): string {
  return domain === null || domain === defaultDomain() ? "" : `?domain=${encodeURIComponent(domain)}`;
}
