// Who a request is, as an auth proxy in front says it (Authelia or Authentik through Caddy's
// forward_auth, nginx's auth_request or Traefik's ForwardAuth: Remote-User, Remote-Groups,
// Remote-Email), or as `tailscale serve` says it (Tailscale-User-Login). Such a header is only
// as true as the hop that set it: it is believed from the peers --trust-proxy names (tailscale:
// from loopback, where `tailscale serve` connects from), and from anyone else it is ignored, as if
// it were not there, so a client cannot sign itself in by sending it.

import { parseTrustedProxies, type TrustedProxies } from "../visits/client-ip.ts";
import { cleanText, HEADER_SOURCE, signInRules, TAILSCALE_SOURCE, type Identity, type SignInRules } from "./users.ts";

export type HeaderIdentityConfig =
  | { kind: "header"; userHeader: string; groupsHeader: string; emailHeader: string; adminGroup: string | null; allowedGroup: string | null }
  | { kind: "tailscale" };

export type HeaderIdentity = SignInRules & {
  /** The identity the request's headers carry, when its peer may say so; null otherwise. */
  read(headers: Pick<Headers, "get">, peer: string): Identity | null;
};

// Where `tailscale serve` connects from: this machine's own loopback address (not all of 127/8,
// which other local programs may bind to).
const LOOPBACK = parseTrustedProxies("127.0.0.1,::1");
export function createHeaderIdentity(config: HeaderIdentityConfig, trusted: TrustedProxies): HeaderIdentity {
  if (config.kind === "tailscale") {
    return {
      read(headers, peer) {
        if (!LOOPBACK.contains(peer)) return null;
        const login = headerValue(headers, "tailscale-user-login");
        return login === null ? null : { source: TAILSCALE_SOURCE, subject: login, name: login, email: login.includes("@") ? login : null, groups: null };
      },
      ...signInRules(null, null),
    };
  }
  return {
    read(headers, peer) {
      if (trusted.empty || !trusted.contains(peer)) return null;
      const user = headerValue(headers, config.userHeader);
      if (user === null) return null;
      const groups = headerValue(headers, config.groupsHeader);
      return {
        source: HEADER_SOURCE,
        subject: user,
        name: user,
        email: headerValue(headers, config.emailHeader),
        // Authelia separates groups with commas, Authentik with "|": either is a list.
        groups: groups === null ? null : groups.split(/[,|]/).map((g) => g.trim()).filter((g) => g !== ""),
      };
    },
    ...signInRules(config.adminGroup, config.allowedGroup),
  };
}

/** A header's value, trimmed; null when absent or not fit to be a name (cleanText). */
function headerValue(headers: Pick<Headers, "get">, name: string): string | null {
  const value = headers.get(name)?.trim();
  return cleanText(value) ? value : null;
}
