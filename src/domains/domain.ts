// A domain a link answers on (docs/several-domains.md: Several domains): its name and what it does
// besides its links (its root, an unknown alias, a link that no longer redirects, robots.txt), each
// falling back to the instance's flags, and who may make links on it.

/**
 * The stored domain of the default domain's links (links.domain, retired_ids.domain): '' whatever the
 * default's name is, so that naming it (--base-url, the first domain added) or renaming it moves no row.
 */
export const DEFAULT_DOMAIN = "";

/** What robots.txt says on a domain: its crawlable links only (the instance's way), nothing, or everything. */
export type RobotsPolicy = "links" | "none" | "all";
export const ROBOTS_POLICIES: readonly RobotsPolicy[] = ["links", "none", "all"];

/** Who may make links on a restricted domain besides admins: users (users.id) and keys (api_keys.id). */
export type DomainCreators = { users: number[]; keys: number[] };

export type Domain = {
  /** the host, lower-case, without port or trailing dot; an internationalized name in its ASCII (punycode) form */
  name: string;
  /** the default domain's links are stored with the domain '' (DEFAULT_DOMAIN), so that its name may change */
  isDefault: boolean;
  /** short URLs are https:// (true, the default) or http:// */
  https: boolean;
  /** where / redirects; null: the instance's --root-redirect, else the public form (default domain) or the not-found answer */
  rootRedirect: string | null;
  /** where an unknown alias redirects; null: the instance's --not-found-redirect, else the not-found page */
  notFoundRedirect: string | null;
  /** where an expired, disabled or used-up link without a fallback of its own sends visitors; null: the gone page */
  fallbackRedirect: string | null;
  /** null: the instance's way ("links") */
  robots: RobotsPolicy | null;
  /** null: every creator may make links on it; else only admins and these */
  creators: DomainCreators | null;
  /** ms since the Unix epoch; 0 for the default domain named only by --base-url */
  createdAt: number;
};

export type DomainSettings = Pick<Domain, "https" | "rootRedirect" | "notFoundRedirect" | "fallbackRedirect" | "robots" | "creators">;

export const DEFAULT_SETTINGS: DomainSettings = { https: true, rootRedirect: null, notFoundRedirect: null, fallbackRedirect: null, robots: null, creators: null };

export type DomainNameProblem = "domain_invalid";

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain's name as stored: lower-case ASCII (an internationalized name in punycode), without a
 * port or the root's trailing dot; null when it is no host name (an address, a port, a path, a
 * single label other than localhost is refused too: a short domain is a name people type).
 */
export function domainName(input: string): string | null {
  const given = input.trim().replace(/\.$/, "");
  if (given === "" || given.length > 253 || /[\s/?#@:[\]\\]/.test(given)) return null;
  const parsed = URL.parse(`http://${given}/`);
  if (parsed === null || parsed.port !== "") return null;
  const name = parsed.hostname.replace(/\.$/, "");
  const labels = name.split(".");
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^\d+$/.test(labels[labels.length - 1]!)) return null; // an IPv4 address, not a name
  return name;
}

/** --base-url's host as domains are named (lower-case, no port or trailing dot), or null: the default domain's name when no domain row names it. */
export function baseHostOf(baseUrl: string | null): string | null {
  return baseUrl === null ? null : new URL(baseUrl).hostname.replace(/\.$/, "").toLowerCase();
}
