// Domains (docs/several-domains.md: Managing domains): admins manage them; creators read the names
// they may create on; a reverse proxy asks whether to get a certificate for a host.

import { t } from "elysia";
import * as S from "../../api/schemas.ts";
import { ADMIN_ONLY, CODES, errors, q, type Operation, type Parameter } from "./operation.ts";

const DOMAIN_NAME: Parameter = { name: "name", in: "path", required: true, description: "the domain's name, e.g. s.example.org", schema: t.String() };
const CLASH = "domain_clash: two links would share one alias on one domain; the message lists the aliases";

export const DOMAIN_ROUTES: Operation[] = [
  {
    method: "get", path: "/api/domains", operationId: "listDomains", auth: "required",
    summary: "Every domain with its settings and links (admins); with for=create, the names the caller may make links on (anyone who may create), the default first",
    parameters: [q("for", "create: only the names the caller may make links on (the dashboard's picker)")],
    responses: {
      200: { description: "the domains (with for=create: { success, domains: [{ name, isDefault }] }, S.DomainsForCreate)", json: t.Union([S.DomainList, S.DomainsForCreate]) },
      ...errors([400, 401, 421, 429, 503], "bad_request: for is not create"), 403: ADMIN_ONLY,
    },
  },
  {
    method: "post", path: "/api/domains", operationId: "addDomain", auth: "required",
    summary: "Add a domain (admins); without --base-url the first one added becomes the default",
    body: { "application/json": S.DomainFields },
    responses: {
      201: { description: "the domain", json: S.DomainResponse },
      ...errors([400, 401, 413, 415, 421, 429, 503], "domain_invalid (name), bad_request (a setting)"),
      403: ADMIN_ONLY,
      409: { description: "domain_taken", json: S.ApiError },
    },
  },
  {
    method: "patch", path: "/api/domains/{name}", operationId: "updateDomain", auth: "required",
    summary: "Change a domain's settings, rename it (its links' short URLs move with it) or make it the default (admins)",
    parameters: [DOMAIN_NAME],
    body: { "application/json": S.DomainChanges },
    responses: {
      200: { description: "the domain", json: S.DomainResponse },
      ...errors([400, 401, 413, 415, 421, 429, 503], "domain_invalid (name), bad_request (a setting; isDefault or name of the default with --base-url)"),
      403: ADMIN_ONLY,
      404: { description: "domain_not_found", json: S.ApiError },
      409: { description: `domain_taken (the new name), or ${CLASH}`, json: S.ApiError },
    },
  },
  {
    method: "delete", path: "/api/domains/{name}", operationId: "deleteDomain", auth: "required",
    summary: "Remove a domain (admins): refused while it has links, unless moveLinksTo names the domain they move to",
    parameters: [DOMAIN_NAME, q("moveLinksTo", "a domain's name: its links move there first")],
    responses: {
      200: { description: "removed", json: S.DomainRemoved },
      ...errors([400, 401, 421, 429, 503], "domain_unknown (moveLinksTo), bad_request (the default domain while others exist)"),
      403: ADMIN_ONLY,
      404: { description: "domain_not_found", json: S.ApiError },
      409: { description: `domain_has_links (how many, and how to move or delete them), or ${CLASH}`, json: S.ApiError },
    },
  },
  {
    method: "get", path: "/api/domains/tls", operationId: "certificateAsk", auth: "none",
    summary: "Whether a reverse proxy may get a certificate for a host (Caddy's on_demand_tls ask): 200 for a configured domain or the default's name, 404 otherwise; answered on every configured host and the local address",
    parameters: [q("domain", "the host the proxy was asked for")],
    responses: { 200: { description: "a domain of this service", json: S.CertificateAnswer }, 404: { description: "domain_not_found: no certificate", json: S.ApiError }, 503: { description: CODES[503]!, json: S.ApiError } },
  },
];
