// /api/domains (docs/api.md: Domains; docs/several-domains.md: Managing domains): admins manage the
// domains; anyone who may create links reads the names they may create on (?for=create, the
// dashboard's picker); and a reverse proxy asks whether to get a certificate for a host
// (/api/domains/tls: no credentials, Caddy's on_demand_tls `ask`).

import type { Config } from "../config.ts";
import type { DomainDirectory } from "../domains/directory.ts";
import type { DomainRepository } from "../domains/repository.ts";
import type { LinkStore } from "../links/store.ts";
import { isoTime } from "../util/day.ts";
import { authenticate, requireAllowed, unauthenticated, type AuthDeps } from "./auth.ts";
import { MAX_BODY_BYTES, readJsonBody } from "./form-body.ts";
import type { PeerServer } from "./request-origin.ts";
import { apiError, json } from "./responses.ts";
import { problemResponse } from "./problems.ts";
import { answered } from "./storage-failure.ts";
import { baseHostOf } from "../domains/domain.ts";
import { domainsRefusal, type DomainsDeps } from "../ops/domains/access.ts";
import { domainsForCreate, listDomains, type ListedDomain } from "../ops/domains/list.ts";
import { addDomain } from "../ops/domains/add.ts";
import { changeDomain } from "../ops/domains/change.ts";
import { removeDomain } from "../ops/domains/remove.ts";
import type { DomainJson } from "../api/types.ts";

export type DomainsHttpDeps = AuthDeps & {
  config: Pick<Config, "baseUrl" | "createAccess">;
  domains: DomainRepository;
  directory: DomainDirectory;
  links: Pick<LinkStore, "forget">;
};

export function domainJson(d: ListedDomain): DomainJson {
  return {
    name: d.name, isDefault: d.isDefault, https: d.https, rootRedirect: d.rootRedirect, notFoundRedirect: d.notFoundRedirect,
    fallbackRedirect: d.fallbackRedirect, robots: d.robots, creators: d.creators, createdAt: d.createdAt === 0 ? null : isoTime(d.createdAt), links: d.links,
  };
}

/** The operations' ports, from the app's. */
function opsDeps(deps: DomainsHttpDeps): DomainsDeps {
  return { domains: deps.domains, directory: deps.directory, links: deps.links, baseHost: baseHostOf(deps.config.baseUrl), log: deps.log, now: deps.now };
}

const admin = (request: Request, server: PeerServer, deps: DomainsHttpDeps) => requireAllowed(request, server, deps, domainsRefusal);

/** A path's domain name, decoded ("" for one that cannot be). */
function nameOf(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

/** GET /api/domains: every domain (admins), or with ?for=create the names the caller may create on. */
export async function handleListDomains(request: Request, server: PeerServer, deps: DomainsHttpDeps): Promise<Response> {
  const purpose = new URL(request.url).searchParams.get("for");
  if (purpose === "create") {
    const auth = await authenticate(request, server, deps);
    if (!auth.ok) return auth.response;
    if (auth.principal === null && deps.config.createAccess === "key") return unauthenticated(auth);
    deps.directory.refreshIfStale(deps.now());
    const listed = domainsForCreate(auth.principal, null, { directory: deps.directory, createAccess: deps.config.createAccess });
    return listed.ok ? json(200, { success: true, domains: listed.value }) : problemResponse(listed.problem);
  }
  if (purpose !== null) return apiError(400, "bad_request", "for must be create, or absent");
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  return answered(deps, "listing domains", () => listDomains(auth.principal, null, opsDeps(deps)), (rows) => json(200, { success: true, domains: rows.map(domainJson) }));
}

export async function handleAddDomain(request: Request, server: PeerServer, deps: DomainsHttpDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (!body.ok) return apiError(body.status, body.code, body.error);
  return answered(deps, "adding a domain", () => addDomain(auth.principal, { fields: body.value }, opsDeps(deps)), (added) => json(201, { success: true, domain: domainJson(added) }));
}

export async function handlePatchDomain(request: Request, raw: string, server: PeerServer, deps: DomainsHttpDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (!body.ok) return apiError(body.status, body.code, body.error);
  return answered(deps, "changing a domain", () => changeDomain(auth.principal, { name: nameOf(raw), fields: body.value }, opsDeps(deps)), (after) =>
    json(200, { success: true, domain: domainJson(after) }));
}

export async function handleDeleteDomain(request: Request, raw: string, server: PeerServer, deps: DomainsHttpDeps): Promise<Response> {
  const auth = await admin(request, server, deps);
  if (!auth.ok) return auth.response;
  const moveLinksTo = new URL(request.url).searchParams.get("moveLinksTo");
  return answered(deps, "removing a domain", () => removeDomain(auth.principal, { name: nameOf(raw), moveLinksTo }, opsDeps(deps)), (removed) => json(200, { success: true, ...removed }));
}

/**
 * GET /api/domains/tls?domain=HOST: 200 when HOST is a configured domain (or the default's name),
 * else 404, so that a proxy with on-demand certificates gets them for our domains only
 * (docs/several-domains.md: Certificates for every domain). No credentials: the proxy asks on the
 * local address; the answer says no more than DNS does.
 */
export function handleCertificateAsk(request: Request, deps: Pick<DomainsHttpDeps, "directory" | "now">): Response {
  const host = new URL(request.url).searchParams.get("domain") ?? "";
  deps.directory.refreshIfStale(deps.now());
  const domain = host === "" ? null : deps.directory.byName(host);
  if (domain === null || domain.name === null) return apiError(404, "domain_not_found", "no such domain here: no certificate for it", "domain");
  return json(200, { success: true, domain: domain.name });
}
