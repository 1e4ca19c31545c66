// What a destination URL must be: absolute http(s) with a host, no credentials, not this service.

export const MAX_URL_LENGTH = 2048;

export type UrlProblem = "url_missing" | "url_too_long" | "url_invalid" | "url_scheme" | "url_credentials" | "url_self";

export type UrlCheck = { ok: true; url: string } | { ok: false; problem: UrlProblem };

// Whitespace or control characters anywhere inside: browsers would strip or mangle them.
const FORBIDDEN_CHARS = /[\s\u0000-\u001f\u007f]/;

/** Checks a submitted URL; on success returns it trimmed, otherwise the first problem found. */
export function checkUrl(raw: string, ownHosts: readonly string[]): UrlCheck {
  const url = raw.trim();
  if (url === "") return { ok: false, problem: "url_missing" };
  if (url.length > MAX_URL_LENGTH) return { ok: false, problem: "url_too_long" };
  if (!/^https?:\/\//i.test(url)) return { ok: false, problem: "url_scheme" };
  if (FORBIDDEN_CHARS.test(url)) return { ok: false, problem: "url_invalid" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, problem: "url_invalid" };
  }
  if (parsed.hostname === "" || !/^https?:\/\/[^/?#]/i.test(url)) return { ok: false, problem: "url_invalid" };
  if (parsed.username !== "" || parsed.password !== "") return { ok: false, problem: "url_credentials" };
  const host = canonicalHost(parsed.host);
  if (ownHosts.some((own) => canonicalHost(own) === host)) return { ok: false, problem: "url_self" };
  return { ok: true, url };
}

// "s.example.org." is the fully qualified spelling of "s.example.org" and resolves to the same
// service, so a trailing dot (before any port) must not get a redirect loop past the url_self rule.
function canonicalHost(host: string): string {
  return host.toLowerCase().replace(/\.(?=(?::\d+)?$)/, "");
}
