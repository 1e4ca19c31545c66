// Domains in Shlink's words (docs/shlink-api.md: Domains): GET /domains lists the domains a key may
// make links on with their redirects, PATCH /domains/redirects sets them (admins only), as
// Shlink's ListDomainsAction and DomainRedirectsAction answer (module/Rest/src/Action/Domain).
// Shlink's three redirects and our domain settings: baseUrlRedirect is the root redirect,
// invalidShortUrlRedirect the not-found redirect (an unknown short code); regular404Redirect (any
// other unknown page) has no setting here, since we never redirect those: it shows null, and a URL
// sent for it is refused by name rather than dropped.

import type { ShlinkDomainRedirects, ShlinkDomainsList } from "@shlinkio/shlink-js-sdk/api-contract";
import { baseHostOf, domainName } from "../../../domains/domain.ts";
import type { DomainEntry } from "../../../domains/directory.ts";
import { addDomain } from "../../../ops/domains/add.ts";
import { changeDomain } from "../../../ops/domains/change.ts";
import { domainsRefusal, storedDomain, type DomainsDeps } from "../../../ops/domains/access.ts";
import { domainsForCreate } from "../../../ops/domains/list.ts";
import type { Problem } from "../../../ops/outcome.ts";
import { publicBase } from "../../request-origin.ts";
import { refusal } from "./shlink-ours.ts";
import { invalidData, shlinkJson, ShlinkProblem } from "./shlink-problem.ts";
import type { ShlinkCall, ShlinkDeps, ShlinkRoute } from "./shlink-route.ts";

/** Our setting behind each of Shlink's redirects (null: none; docs/shlink-api.md: Domains). */
const SETTING = { baseUrlRedirect: "rootRedirect", invalidShortUrlRedirect: "notFoundRedirect", regular404Redirect: null } as const;
type RedirectName = keyof typeof SETTING;
const NAMES = Object.keys(SETTING) as RedirectName[];

function redirectsOf(d: Pick<DomainEntry, "rootRedirect" | "notFoundRedirect">): ShlinkDomainRedirects {
  return { baseUrlRedirect: d.rootRedirect, regular404Redirect: null, invalidShortUrlRedirect: d.notFoundRedirect };
}

function opsDeps(deps: ShlinkDeps): DomainsDeps {
  return { domains: deps.domains, directory: deps.directory, links: deps.links, baseHost: baseHostOf(deps.config.baseUrl), log: deps.log, now: deps.now };
}

/**
 * GET /domains: the domains the key may make links on, the default first. A default that knows no
 * name (no --base-url, no domain added) is named by the host the request came to, as its short
 * URLs are. The redirects are public (a visitor meets them), so a create key sees them too.
 */
async function listDomains(call: ShlinkCall): Promise<Response> {
  const { deps } = call;
  deps.directory.refreshIfStale(deps.now());
  const listed = domainsForCreate(call.principal, null, { directory: deps.directory, createAccess: deps.config.createAccess });
  if (!listed.ok) return refusal(listed.problem);
  const entries = new Map(deps.directory.all().map((d) => [d.name, d]));
  const data = listed.value.map((d) => ({ domain: d.name ?? listedHost(call), isDefault: d.isDefault, redirects: redirectsOf(entries.get(d.name) ?? { rootRedirect: null, notFoundRedirect: null }) }));
  const body = { domains: { data, defaultRedirects: redirectsOf(deps.config) } } satisfies { domains: ShlinkDomainsList };
  return shlinkJson(200, body);
}

/** The name a default without one is listed under: the host the request came to, as its short URLs are on. */
function listedHost(call: ShlinkCall): string {
  const base = publicBase(call.deps.config, call.server, call.request, call.deps.trusted);
  return base === null ? "" : new URL(base).host;
}

/** PATCH /domains/redirects: absent keeps a redirect, null (or "") clears it; the answer is the domain's redirects after. */
async function setRedirects(call: ShlinkCall): Promise<Response> {
  const admin = domainsRefusal(call.principal);
  if (admin !== null) return refusal(admin.problem);
  const body = await call.body();
  const given = typeof body.domain === "string" ? body.domain.trim() : "";
  if (given === "") throw invalidData("domain is missing: the domain's name, as GET /domains lists it", ["domain"]);
  const fields: Record<string, string | null> = {};
  for (const name of NAMES) {
    const value = body[name];
    if (value === undefined) continue;
    if (value !== null && typeof value !== "string") throw invalidData(`${name} must be a URL, or null to clear it`, [name]);
    const url = value === null || value.trim() === "" ? null : value.trim();
    const setting = SETTING[name];
    if (setting !== null) fields[setting] = url;
    else if (url !== null) {
      throw invalidData(
        "regular404Redirect cannot be set: this shortener answers an unknown page that is no short URL with its not-found page, never a redirect (invalidShortUrlRedirect is where unknown short URLs go)",
        [name],
      );
    }
  }
  const deps = opsDeps(call.deps);
  const name = domainName(given) ?? given.toLowerCase();
  // A default with no name at all is listed under the request's host (listDomains), which is no
  // name it can be given: say what to do, rather than add a domain of that name.
  if (call.deps.directory.all().some((d) => d.isDefault && d.name === null) && given.toLowerCase() === listedHost(call).toLowerCase()) {
    throw invalidData(
      `The default domain has no name yet, so its redirects cannot be set here: start the service with --base-url (or name the domain in the dashboard), or use --root-redirect and --not-found-redirect`,
      ["domain"],
    );
  }
  // The default named only by --base-url has no row yet: its first settings add it.
  const unnamedDefault = (await storedDomain(deps, name)) === null && call.deps.directory.all().some((d) => d.isDefault && d.name === name);
  const outcome = unnamedDefault
    ? await addDomain(call.principal, { fields: { name, ...fields } }, deps)
    : await changeDomain(call.principal, { name, fields }, deps);
  if (!outcome.ok) throw inShlinkWords(outcome.problem, given);
  return shlinkJson(200, redirectsOf(outcome.value) satisfies ShlinkDomainRedirects);
}

/** A domain operation's refusal with Shlink's field names and types. */
function inShlinkWords(problem: Problem, authority: string): ShlinkProblem {
  if (problem.code === "domain_not_found") return new ShlinkProblem("domain-not-found", `Domain with authority "${authority}" could not be found`, { authority });
  const ours = problem.fields?.map((f) => f.field) ?? (problem.field ? [problem.field] : []);
  if (ours.length === 0) return new ShlinkProblem("invalid-data", problem.message, { invalidElements: ["domain"] });
  const names = ours.map((f) => NAMES.find((n) => SETTING[n] === f) ?? (f === "name" ? "domain" : f));
  const detail = problem.fields?.map((f) => f.error).join("; ") ?? problem.message;
  return new ShlinkProblem("invalid-data", detail, { invalidElements: [...new Set(names)] });
}

/** The domain routes (SDK listDomains / editDomainRedirects). */
export const DOMAIN_ROUTES: readonly ShlinkRoute[] = [
  { method: "GET", path: "/domains", auth: "key", handle: listDomains },
  { method: "PATCH", path: "/domains/redirects", auth: "key", handle: setRedirects },
];
