// Who a request is, as an auth proxy in front says it (Authelia or Authentik through Caddy's
// forward_auth, nginx's auth_request or Traefik's ForwardAuth: Remote-User, Remote-Groups,
// Remote-Email), or as `tailscale serve` says it (Tailscale-User-Login). Such a header is only
// as true as the hop that set it: it is believed from the peers --trust-proxy names (tailscale:
// from loopback, where `tailscale serve` connects from), and from anyone else it is ignored, as if
// it were not there, so a client cannot sign itself in by sending it.
//
// What the proxy says is read exactly (docs/sign-in.md: Auth proxy headers): its bytes are UTF-8, and a
// value that is not, that holds a control or invisible character, or a user or email header that
// came twice, is refused rather than read as some other name (a garbled "JosÃ©", or the user
// "root, mallory" that two Remote-User headers would make).

import { parseTrustedProxies, type TrustedProxies } from "../visits/client-ip.ts";
import { INVISIBLE_CHARS } from "../util/text.ts";
import { cleanText, HEADER_SOURCE, signInRules, TAILSCALE_SOURCE, type Identity, type SignInRules } from "./users.ts";

export type HeaderIdentityConfig =
  | { kind: "header"; userHeader: string; groupsHeader: string; emailHeader: string; adminGroup: string | null; allowedGroup: string | null }
  | { kind: "tailscale" };

/** `identity` null: the request names nobody (no header, or a peer that may not say). Refused: which header, and why. */
export type HeaderReading = { ok: true; identity: Identity | null } | { ok: false; header: string; problem: string };

export type HeaderIdentity = SignInRules & {
  /** What the request's identity headers say, when its peer may say it. */
  read(headers: Pick<Headers, "get">, peer: string): HeaderReading;
};

/** No identity in the headers (none sent, or not from a peer that may say so). */
export const NOBODY: HeaderReading = { ok: true, identity: null };

// Where `tailscale serve` connects from: this machine's own loopback address (not all of 127/8,
// which other local programs may bind to).
const LOOPBACK = parseTrustedProxies("127.0.0.1,::1");
export function createHeaderIdentity(config: HeaderIdentityConfig, trusted: TrustedProxies): HeaderIdentity {
  if (config.kind === "tailscale") {
    return {
      read(headers, peer) {
        if (!LOOPBACK.contains(peer)) return NOBODY;
        const login = oneValue(headers, "Tailscale-User-Login");
        if (!login.ok || login.value === null) return login.ok ? NOBODY : login;
        return { ok: true, identity: { source: TAILSCALE_SOURCE, subject: login.value, name: login.value, email: login.value.includes("@") ? login.value : null, groups: null } };
      },
      ...signInRules(null, null),
    };
  }
  return {
    read(headers, peer) {
      if (trusted.empty || !trusted.contains(peer)) return NOBODY;
      const user = oneValue(headers, config.userHeader);
      if (!user.ok || user.value === null) return user.ok ? NOBODY : user;
      const email = oneValue(headers, config.emailHeader);
      if (!email.ok) return email;
      const groups = headerText(headers, config.groupsHeader);
      if (!groups.ok) return groups;
      return {
        ok: true,
        identity: {
          source: HEADER_SOURCE,
          subject: user.value,
          name: user.value,
          email: email.value,
          // Authelia separates groups with commas, Authentik with "|": either is a list (and so are
          // repeated lines of a list header, which HTTP allows to be joined with commas).
          groups: groups.value === null ? null : groups.value.split(/[,|]/).map((g) => g.trim()).filter((g) => g !== ""),
        },
      };
    },
    ...signInRules(config.adminGroup, config.allowedGroup),
  };
}

type HeaderValue = { ok: true; value: string | null } | { ok: false; header: string; problem: string };

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const CONTROL = /\p{Cc}/u;

/**
 * A header's value as the proxy wrote it, trimmed; null when absent or empty. Bun hands each byte
 * of a value as one character (Latin-1), so the bytes are put back together and read as UTF-8.
 */
function headerText(headers: Pick<Headers, "get">, name: string): HeaderValue {
  const raw = headers.get(name);
  if (raw === null) return { ok: true, value: null };
  let text: string;
  try {
    // A character past U+00FF did not come off the wire: no bytes to read, so not UTF-8 either.
    if (/[^\u0000-\u00ff]/.test(raw)) throw new TypeError("not bytes");
    text = UTF8.decode(Buffer.from(raw, "latin1"));
  } catch {
    return { ok: false, header: name, problem: "is not valid UTF-8" };
  }
  if (CONTROL.test(text) || INVISIBLE_CHARS.test(text)) return { ok: false, header: name, problem: "holds a control character, a bidi control or a zero-width character" };
  const value = text.trim();
  return { ok: true, value: value === "" ? null : value };
}

/**
 * A header that names one thing (a user, an email, a login). Bun joins a header sent twice into one
 * value with ", ", so a comma is how a repeated header shows: refused, and with it a value that
 * holds a comma of its own, which cannot be told apart.
 */
function oneValue(headers: Pick<Headers, "get">, name: string): HeaderValue {
  const text = headerText(headers, name);
  if (!text.ok || text.value === null) return text;
  if (text.value.includes(",")) return { ok: false, header: name, problem: "came more than once, or holds a comma" };
  if (!cleanText(text.value)) return { ok: false, header: name, problem: "is longer than 200 characters" };
  return text;
}
