// What a destination URL must be: absolute http(s) with a host, no credentials, not this service,
// not this machine, and written so that every client reads the same URL. A URL is parsed once with
// the WHATWG parser (what browsers follow) and kept in that normalized form (`href`), so what the
// blocklist checks is what a visitor is sent to; spellings that other clients (curl, link
// previews, scanners) read differently are refused rather than normalized.

import { isLocalHost } from "./local-hosts.ts";
import { INVISIBLE_CHARS } from "../util/text.ts";
import { NEVER_ALLOWED_SCHEMES } from "../config/values.ts";
import { intentTargets } from "./intent.ts";

export const MAX_URL_LENGTH = 2048;

export type UrlProblem = "url_missing" | "url_too_long" | "url_invalid" | "url_scheme" | "url_credentials" | "url_self" | "url_local";

/** `inIntent`: the problem is the one of an intent: URL's data URI or S.browser_fallback_url, not of the URL itself. */
export type UrlCheck = { ok: true; url: string } | { ok: false; problem: UrlProblem; inIntent?: "data" | "fallback" };

export type UrlContext = {
  /** host[:port] under which this service is reached (--base-url, the request's Host, the listening addresses) */
  ownHosts: readonly string[];
  /** --allow-loopback-destinations: localhost, loopback, unspecified and link-local hosts allowed */
  allowLocal: boolean;
  /** --allow-schemes: destination schemes beside http(s) (absent: none) */
  allowSchemes?: ReadonlySet<string>;
};

// Whitespace or control characters anywhere inside: browsers would strip or mangle them.
const FORBIDDEN_CHARS = /[\s\u0000-\u001f\u007f]/;
// Bidi controls and zero-width characters (INVISIBLE_CHARS) make a URL read differently from where
// it goes: refused as typed and percent-encoded.
// A backslash in the authority: browsers read it as "/", curl as part of the user name, so
// `http://a.example\@b.example/` is a.example to one client and b.example to the other.
const BACKSLASH_IN_AUTHORITY = /^https?:\/\/[^/?#]*\\/i;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const DOTTED_DECIMAL = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;

/** Checks a submitted URL; on success returns its normalized form, otherwise the first problem found. */
export function checkUrl(raw: string, context: UrlContext): UrlCheck {
  const url = raw.trim();
  if (url === "") return { ok: false, problem: "url_missing" };
  if (url.length > MAX_URL_LENGTH) return { ok: false, problem: "url_too_long" };
  if (!/^https?:\/\//i.test(url)) return appUrl(url, context);
  if (unreadable(url)) return { ok: false, problem: "url_invalid" };
  if (BACKSLASH_IN_AUTHORITY.test(url)) return { ok: false, problem: "url_invalid" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problem: "url_invalid" };
  }
  if (parsed.hostname === "" || !/^https?:\/\/[^/?#]/i.test(url)) return { ok: false, problem: "url_invalid" };
  if (parsed.username !== "" || parsed.password !== "") return { ok: false, problem: "url_credentials" };
  // 0x01020304, 16909060, 1.2.772 and 1.2.3.4. all become 1.2.3.4 in a browser; other clients
  // resolve some of them elsewhere, and a blocklist entry for 1.2.3.4 must not be dodged by them.
  if (DOTTED_DECIMAL.test(parsed.hostname) && typedHost(url) !== parsed.hostname) return { ok: false, problem: "url_invalid" };
  // The service itself first: the more precise answer when it listens on loopback.
  const host = canonicalHost(parsed.host);
  if (context.ownHosts.some((own) => canonicalHost(own) === host)) return { ok: false, problem: "url_self" };
  if (!context.allowLocal && isLocalHost(parsed.hostname)) return { ok: false, problem: "url_local" };
  const href = parsed.href;
  if (href.length > MAX_URL_LENGTH) return { ok: false, problem: "url_too_long" };
  return { ok: true, url: href };
}

/** Characters that browsers strip or mangle, or that make a URL read differently from where it goes. */
function unreadable(url: string): boolean {
  return FORBIDDEN_CHARS.test(url) || INVISIBLE_CHARS.test(url) || INVISIBLE_CHARS.test(percentDecoded(url));
}

/**
 * A URL into an app (tg:, spotify:, mailto:, intent:, …), accepted only under --allow-schemes and
 * never for a scheme that runs code or reads local data (docs/sharing.md: Links into apps). It has
 * no host of ours to loop to and none a visitor reads as their own, so the self and local rules do
 * not apply; the character rules do. The WHATWG parser keeps an opaque path as written
 * (mailto:a@b, spotify:track:…), and its href is what is stored.
 */
function appUrl(url: string, context: UrlContext): UrlCheck {
  const scheme = SCHEME.exec(url)?.[1]!.toLowerCase();
  if (scheme === undefined || scheme === "http" || scheme === "https") return { ok: false, problem: "url_scheme" };
  if (context.allowSchemes?.has(scheme) !== true || NEVER_ALLOWED_SCHEMES.has(scheme)) return { ok: false, problem: "url_scheme" };
  if (unreadable(url)) return { ok: false, problem: "url_invalid" };
  const parsed = URL.parse(url);
  if (parsed === null || parsed.protocol !== `${scheme}:`) return { ok: false, problem: "url_invalid" };
  if (parsed.username !== "" || parsed.password !== "") return { ok: false, problem: "url_credentials" };
  const href = parsed.href;
  if (href.length > MAX_URL_LENGTH) return { ok: false, problem: "url_too_long" };
  if (scheme === "intent") return intentUrl(href, context);
  return { ok: true, url: href };
}

/**
 * An intent: URL, read as Android reads it (src/links/intent.ts): the data URI it opens must be an
 * http(s) destination passing every check, or of a scheme --allow-schemes lists and that is never
 * refused; each S.browser_fallback_url an http(s) destination passing every check.
 */
function intentUrl(href: string, context: UrlContext): UrlCheck {
  const targets = intentTargets(href);
  if (targets === null) return { ok: false, problem: "url_invalid" };
  const web = { ownHosts: context.ownHosts, allowLocal: context.allowLocal };
  if (targets.data !== null) {
    const scheme = SCHEME.exec(targets.data)![1]!.toLowerCase();
    if (scheme === "http" || scheme === "https") {
      const checked = checkUrl(targets.data, web);
      if (!checked.ok) return { ok: false, problem: checked.problem, inIntent: "data" };
    } else if (scheme === "intent" || context.allowSchemes?.has(scheme) !== true || NEVER_ALLOWED_SCHEMES.has(scheme)) {
      return { ok: false, problem: "url_scheme", inIntent: "data" };
    }
  }
  for (const fallback of targets.fallbacks) {
    const checked = checkUrl(fallback, web);
    if (!checked.ok) return { ok: false, problem: checked.problem, inIntent: "fallback" };
  }
  return { ok: true, url: href };
}

/**
 * The web pages an intent: URL can send a visitor to, normalized: its data URI when http(s), and
 * each S.browser_fallback_url (what the blocklist checks besides the intent itself); none for
 * another URL or an intent that does not read (docs/sharing.md: Links into apps).
 */
export function intentUrls(url: string): string[] {
  const targets = url.startsWith("intent:") ? intentTargets(url) : null;
  if (targets === null) return [];
  const pages = targets.data !== null && /^https?:/i.test(targets.data) ? [targets.data, ...targets.fallbacks] : targets.fallbacks;
  return pages.map((page) => URL.parse(page)?.href ?? page);
}

/** The host as typed, lower-cased, without credentials and port. */
function typedHost(url: string): string {
  const authority = url.slice(url.indexOf("//") + 2).split(/[/?#]/, 1)[0]!;
  const host = authority.slice(authority.lastIndexOf("@") + 1);
  return (host.startsWith("[") ? host : host.replace(/:\d*$/, "")).toLowerCase();
}

/** Every %XX decoded where it forms UTF-8; what does not is left as typed. */
export function percentDecoded(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

// "s.example.org." is the fully qualified spelling of "s.example.org" and resolves to the same
// service, so a trailing dot (before any port) must not get a redirect loop past the url_self rule.
function canonicalHost(host: string): string {
  return host.toLowerCase().replace(/\.(?=(?::\d+)?$)/, "");
}
