// The checks of single values: each a ConfigError naming how the value was given (--port or
// SHORTENER_PORT), so that a bad value never starts a half-configured service.

import { describeLocation } from "../db/storage.ts";
import { parseTrustedProxies } from "../visits/client-ip.ts";
import type { Access, CompatApis, CorsOrigins } from "../config.ts";

export class ConfigError extends Error {}

/**
 * IPs/CIDRs, loopback, private, as --trust-proxy reads them, for any flag that takes such a list;
 * `name`: the flag as it was given (the value may have come from the environment instead).
 */
export function checkAddresses(value: string, name: string): void {
  try {
    parseTrustedProxies(value, name);
  } catch (err) {
    throw new ConfigError(err instanceof Error ? err.message : String(err));
  }
}

/** An instance redirect: an absolute http(s) URL, kept in the form a Location header carries. */
export function redirectUrl(raw: string | undefined, name: string): string | null {
  return raw === undefined || raw === "" ? null : httpUrl(raw.trim(), name).href;
}

/** An absolute http(s) URL with a host, or a ConfigError naming the flag. */
export function httpUrl(raw: string, name: string): URL {
  const url = URL.parse(raw);
  if (url === null) throw new ConfigError(`${name}: not a URL: ${raw}`);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name}: must start with http:// or https://`);
  if (url.hostname === "") throw new ConfigError(`${name}: needs a host: ${raw}`);
  return url;
}

/** `name`: how the value was given (--port or SHORTENER_PORT), for the error message. */
export function integer(raw: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name}: expected a whole number, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name}: must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function access(raw: string | undefined, name: string): Access {
  const value = raw ?? "public";
  if (value !== "public" && value !== "key") throw new ConfigError(`${name}: expected public or key, got ${value}`);
  return value;
}

const PEER_APIS = ["yourls", "kutt", "shlink"] as const;

/** --compat: which peer APIs to speak (docs/configuration.md: Flags); all of them unless told. */
export function compatApis(raw: string | undefined, name: string): CompatApis {
  const value = (raw ?? PEER_APIS.join(",")).trim().toLowerCase();
  if (value === "off" || value === "") return { yourls: false, kutt: false, shlink: false };
  const names = value.split(",").map((n) => n.trim());
  const unknown = names.find((n) => !(PEER_APIS as readonly string[]).includes(n));
  if (unknown !== undefined) throw new ConfigError(`${name}: expected yourls, kutt, shlink (comma-separated) or off, got ${JSON.stringify(unknown)}`);
  return { yourls: names.includes("yourls"), kutt: names.includes("kutt"), shlink: names.includes("shlink") };
}

/**
 * --cors-origin: the web origins allowed to read the Shlink API's answers (docs/shlink-api.md: CORS),
 * each an exact scheme://host[:port] as a browser sends it in `Origin`, or `*` alone for any.
 */
export function corsOrigins(raw: string | undefined, name: string): CorsOrigins {
  const value = (raw ?? "").trim();
  if (value === "") return [];
  if (value === "*") return "*";
  const origins = value.split(",").map((entry) => corsOrigin(entry.trim(), name));
  return Object.freeze([...new Set(origins)]);
}

function corsOrigin(entry: string, name: string): string {
  if (entry === "*") throw new ConfigError(`${name}: * stands alone (any origin); it cannot be listed with other origins`);
  if (entry.includes("*")) throw new ConfigError(`${name}: no wildcards in an origin; list each origin, or give * alone: ${entry}`);
  const url = URL.parse(entry);
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    throw new ConfigError(`${name}: expected an origin such as https://app.shlink.io, got ${JSON.stringify(entry)}`);
  }
  // An origin is scheme, host and port only: a browser's Origin header never holds more.
  if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "" || entry.endsWith("?") || entry.endsWith("#")) {
    throw new ConfigError(`${name}: an origin is scheme://host[:port] only, without a path, query or user: ${entry}`);
  }
  return url.origin;
}

/**
 * Schemes no link may lead to, whatever --allow-schemes says: they run code or read local data in the
 * visitor's browser (javascript, vbscript, data, blob, file), show its internals (about, chrome,
 * view-source, filesystem), or are not places to go (ws, wss).
 */
export const NEVER_ALLOWED_SCHEMES: ReadonlySet<string> = new Set(["javascript", "vbscript", "data", "blob", "file", "about", "chrome", "view-source", "filesystem", "ws", "wss"]);

/** --allow-schemes: scheme names (RFC 3986: a letter, then letters, digits, + - .), lower-cased; http(s) go without saying. */
export function allowedSchemes(raw: string | undefined, name: string): ReadonlySet<string> {
  const value = (raw ?? "").trim();
  if (value === "") return new Set();
  const schemes = value.split(",").map((entry) => entry.trim().replace(/:$/, "").toLowerCase()).filter((s) => s !== "http" && s !== "https");
  for (const scheme of schemes) {
    if (!/^[a-z][a-z0-9+.-]{0,31}$/.test(scheme)) throw new ConfigError(`${name}: not a scheme name: ${JSON.stringify(scheme)} (a letter, then letters, digits, + - or .)`);
    if (NEVER_ALLOWED_SCHEMES.has(scheme)) throw new ConfigError(`${name}: ${scheme}: is never allowed: it would run code or read local data in the visitor's browser`);
  }
  return new Set(schemes);
}

export function parseBaseUrl(raw: string | undefined, name: string): string | null {
  if (raw === undefined || raw === "") return null;
  const url = httpUrl(raw, name);
  if (url.search || url.hash) throw new ConfigError(`${name}: must not have a query or fragment`);
  return url.href.replace(/\/+$/, "");
}

/** A postgres:// URL the client can use: a host, and a database named in its path. */
export function checkPostgresUrl(value: string, name: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name}: not a URL: ${describeLocation(value)}`);
  }
  if (url.hostname === "") throw new ConfigError(`${name}: the PostgreSQL URL names no host: ${describeLocation(value)}`);
  if (url.pathname.length <= 1) throw new ConfigError(`${name}: the PostgreSQL URL names no database (postgres://user@host/DATABASE): ${describeLocation(value)}`);
}
