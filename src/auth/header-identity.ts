// Who a request is, as an auth proxy in front says it (Authelia or Authentik through Caddy's
// forward_auth, nginx's auth_request or Traefik's ForwardAuth: Remote-User, Remote-Groups,
// Remote-Email), or as `tailscale serve` says it (Tailscale-User-Login). Such a header is only
// as true as the hop that set it: it is believed from the peers --trust-proxy names (tailscale:
// from loopback, where `tailscale serve` connects from), and from anyone else it is ignored, as if
// it were not there, so a client cannot sign itself in by sending it.

import { parseTrustedProxies, type TrustedProxies } from "../visits/client-ip.ts";
import { HEADER_SOURCE, TAILSCALE_SOURCE, type AdminRule, type Identity } from "./users.ts";

export type HeaderIdentityConfig =
  | { kind: "header"; userHeader: string; groupsHeader: string; emailHeader: string; adminGroup: string | null; allowedGroup: string | null }
  | { kind: "tailscale" };

export type HeaderIdentity = {
  /** The identity the request's headers carry, when its peer may say so; null otherwise. */
  read(headers: Pick<Headers, "get">, peer: string): Identity | null;
  admin: AdminRule;
  allowedGroup: string | null;
};

// Where `tailscale serve` connects from: this machine's own loopback address (not all of 127/8,
// which other local programs may bind to).
const LOOPBACK = parseTrustedProxies("127.0.0.1,::1");
// A name longer than this, or with control characters, is not a user a proxy meant.
const MAX_VALUE_LENGTH = 200;

export function createHeaderIdentity(config: HeaderIdentityConfig, trusted: TrustedProxies): HeaderIdentity {
  if (config.kind === "tailscale") {
    return {
      read(headers, peer) {
        if (!LOOPBACK.contains(peer)) return null;
        const login = headerValue(headers, "tailscale-user-login");
        return login === null ? null : { source: TAILSCALE_SOURCE, subject: login, name: login, email: login.includes("@") ? login : null, groups: null };
      },
      admin: "first",
      allowedGroup: null,
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
    admin: config.adminGroup === null ? "first" : { group: config.adminGroup },
    allowedGroup: config.allowedGroup,
  };
}

/** A header's value, trimmed; null when absent, empty, too long or holding control characters. */
function headerValue(headers: Pick<Headers, "get">, name: string): string | null {
  const value = headers.get(name)?.trim();
  if (!value || value.length > MAX_VALUE_LENGTH || /[\u0000-\u001f\u007f]/.test(value)) return null;
  return value;
}
