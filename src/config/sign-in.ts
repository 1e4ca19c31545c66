// The sign-in flags: --oidc-* (an OpenID provider) and --auth-* (an auth proxy's headers, or
// tailscale). Each group is checked as a whole: a flag of it without its leading one is refused.

import { isLoopbackUrl } from "../auth/oidc.ts";
import type { Config } from "../config.ts";
import { ConfigError, httpUrl } from "./values.ts";

const GROUP_PATTERN = /^[^\s,|]{1,200}$/;
const HEADER_NAME_PATTERN = /^[A-Za-z0-9-]{1,100}$/;

function group(raw: string | undefined, name: string): string | null {
  if (raw === undefined || raw === "") return null;
  if (!GROUP_PATTERN.test(raw)) throw new ConfigError(`${name}: a group name without spaces, commas or |, got ${JSON.stringify(raw)}`);
  return raw;
}

/** --oidc-*: the issuer (https, or http on a loopback address) and the client; --base-url gives the callback. */
export function oidcConfig(given: Map<string, string>, named: (flag: string) => string, baseUrl: string | null): Config["oidc"] {
  const raw = given.get("oidc-issuer");
  const others = ["oidc-client-id", "oidc-admin-group", "oidc-allowed-group", "oidc-groups-claim", "oidc-name"].filter((f) => given.has(f));
  if (raw === undefined || raw === "") {
    if (others.length > 0) throw new ConfigError(`${named(others[0]!)} needs --oidc-issuer`);
    return null;
  }
  const issuer = httpUrl(raw.trim(), named("oidc-issuer"));
  if (issuer.protocol !== "https:" && !isLoopbackUrl(issuer)) {
    throw new ConfigError(`${named("oidc-issuer")}: must be https (plain http only for a provider on a loopback address, e.g. http://127.0.0.1:9000)`);
  }
  if (issuer.search || issuer.hash) throw new ConfigError(`${named("oidc-issuer")}: must not have a query or fragment`);
  if (baseUrl === null) throw new ConfigError(`${named("oidc-issuer")} needs --base-url: the provider sends people back to {base}/api/session/oidc/callback`);
  const clientId = given.get("oidc-client-id")?.trim();
  if (!clientId) throw new ConfigError(`${named("oidc-issuer")} needs --oidc-client-id (the client registered at the provider)`);
  const groupsClaim = given.get("oidc-groups-claim")?.trim() || "groups";
  if (!/^[A-Za-z0-9_:.\/-]{1,100}$/.test(groupsClaim)) throw new ConfigError(`${named("oidc-groups-claim")}: not a claim name: ${groupsClaim}`);
  // The issuer as the provider spells it in discovery: the URL given, without a trailing slash added or lost.
  return {
    issuer: raw.trim(),
    clientId,
    groupsClaim,
    adminGroup: group(given.get("oidc-admin-group"), named("oidc-admin-group")),
    allowedGroup: group(given.get("oidc-allowed-group"), named("oidc-allowed-group")),
    label: given.get("oidc-name")?.trim() || issuer.hostname,
  };
}

/** --auth-header: a proxy's header (believed only from --trust-proxy peers), or tailscale. */
export function headerIdentityConfig(given: Map<string, string>, named: (flag: string) => string, trustProxy: string): Config["authHeader"] {
  const raw = given.get("auth-header")?.trim();
  const others = ["auth-groups-header", "auth-email-header", "auth-admin-group", "auth-allowed-group"].filter((f) => given.has(f));
  if (!raw) {
    if (others.length > 0) throw new ConfigError(`${named(others[0]!)} needs --auth-header`);
    return null;
  }
  if (raw.toLowerCase() === "tailscale") {
    if (others.length > 0) throw new ConfigError(`${named(others[0]!)} does not apply to --auth-header tailscale (it sends no groups)`);
    return { kind: "tailscale" };
  }
  const header = (flag: string, fallback: string) => {
    const value = given.get(flag)?.trim() || fallback;
    if (!HEADER_NAME_PATTERN.test(value)) throw new ConfigError(`${named(flag)}: not a header name: ${value}`);
    return value;
  };
  const userHeader = header("auth-header", raw);
  if (trustProxy === "") throw new ConfigError(`${named("auth-header")} needs --trust-proxy: the header is believed only from the proxy that sets it`);
  return {
    kind: "header",
    userHeader,
    groupsHeader: header("auth-groups-header", "Remote-Groups"),
    emailHeader: header("auth-email-header", "Remote-Email"),
    adminGroup: group(given.get("auth-admin-group"), named("auth-admin-group")),
    allowedGroup: group(given.get("auth-allowed-group"), named("auth-allowed-group")),
  };
}
