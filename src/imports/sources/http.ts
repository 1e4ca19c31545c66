// The HTTP side of the API sources (Shlink, Kutt, Bitly): GET only, JSON, with the peer's key; a
// 429 or 503 waits as Retry-After says (bounded), a 5xx or a broken connection is tried again a few
// times, and what remains is a SourceError that says which request failed and why.

import { SourceError } from "../source.ts";

export type ApiClient = { get<T>(path: string): Promise<T> };

type ClientOptions = {
  /** the peer, for messages: "Shlink" */
  peer: string;
  base: string;
  headers: Record<string, string>;
  /** what the peer's error body says, for the message */
  describe?: (body: unknown) => string | null;
  /** Bitly: 403 RATE_LIMIT_EXCEEDED is its rate limit */
  rateLimited?: (status: number, body: unknown) => boolean;
  tries?: number;
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
};

const TIMEOUT_MS = 30_000;

export function apiClient(o: ClientOptions): ApiClient {
  const tries = o.tries ?? 5;
  const maxWaitMs = o.maxWaitMs ?? 60_000;
  const sleep = o.sleep ?? Bun.sleep;
  return {
    async get<T>(path: string): Promise<T> {
      const url = path.startsWith("http") ? path : `${o.base}${path}`;
      for (let attempt = 1; ; attempt++) {
        let response: Response;
        try {
          response = await fetch(url, { headers: { Accept: "application/json", ...o.headers }, redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
        } catch (err) {
          if (attempt < tries) {
            await sleep(backoff(attempt));
            continue;
          }
          throw new SourceError(`${o.peer} at ${o.base} cannot be reached (${err instanceof Error ? err.message : String(err)})`, "unreachable");
        }
        const body: unknown = await response.json().catch(() => null);
        if (response.ok) {
          if (body === null) throw new SourceError(`${o.peer} answered ${pathOf(url)} with something that is not JSON: is ${o.base} really ${o.peer}?`, "schema");
          return body as T;
        }
        const said = o.describe?.(body) ?? null;
        const limited = response.status === 429 || response.status === 503 || (o.rateLimited?.(response.status, body) ?? false);
        if ((limited || response.status >= 500) && attempt < tries) {
          await sleep(Math.min(maxWaitMs, retryAfterMs(response.headers.get("retry-after")) ?? backoff(attempt)));
          continue;
        }
        const what = `${o.peer} answered ${response.status} to GET ${pathOf(url)}${said ? `: ${said}` : ""}`;
        if (response.status === 401 || response.status === 403) throw new SourceError(`${what} (is the API key right?)`, "refused");
        if (response.status === 404) throw new SourceError(what, "not_found");
        throw new SourceError(limited ? `${what} (still rate limited after ${tries} tries)` : what, "failed");
      }
    },
  };
}

function backoff(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** (attempt - 1));
}

/** Retry-After as seconds or an HTTP date, in ms; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

// The path and query, never the host's credentials (none are in URLs here, but a message is logged).
function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** The base URL a user gave (--url), without a trailing slash; http(s) only. */
export function baseUrl(peer: string, given: string | undefined): string {
  if (given === undefined || given === "") throw new SourceError(`--url is required: where ${peer} answers, e.g. https://${peer.toLowerCase()}.example.com`, "bad_option");
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new SourceError(`--url ${given} is not a URL`, "bad_option");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new SourceError(`--url must start with http:// or https://`, "bad_option");
  if (url.username !== "" || url.password !== "") throw new SourceError("--url must not hold a user name or password (give the key with --api-key-file)", "bad_option");
  return url.toString().replace(/\/+$/, "");
}

/** A JSON object (an error body's fields are read from it). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
