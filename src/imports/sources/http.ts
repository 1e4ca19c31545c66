// The HTTP side of the API sources (Shlink, Kutt, Bitly): GET only, JSON, with the peer's key,
// through the outbound policy (src/outbound/reach.ts: the dashboard's import reaches no
// special-purpose address without --import-allow-private; the address checked is the one
// connected to). A 429 or 503 waits as Retry-After says (bounded), a 5xx or a broken connection is
// tried again a few times, and what remains is a SourceError that says which request failed and
// why: the status, the peer and the path, never what the peer's body says (an importer that
// quoted it would tell whoever starts it what answers inside the network).

import { SourceError } from "../source.ts";
import { pinnedFetch } from "../../outbound/pinned-fetch.ts";
import { OutboundRefused, writtenHostRefusal, type OutboundPolicy } from "../../outbound/reach.ts";

export type ApiClient = {
  get<T>(path: string): Promise<T>;
  /** One try; null for any failure or an answer that is not JSON (what a source only peeks at, e.g. a version). */
  peek<T>(path: string): Promise<T | null>;
};

type ClientOptions = {
  /** the peer, for messages: "Shlink" */
  peer: string;
  base: string;
  headers: Record<string, string>;
  reach: OutboundPolicy;
  /** what a 401 or 403 means for this peer: "is the API key right?" */
  refusedHint?: string;
  /** Bitly: 403 RATE_LIMIT_EXCEEDED is its rate limit (read from the body, never quoted) */
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
  const request = (url: string, timeoutMs = TIMEOUT_MS) => pinnedFetch(url, { headers: { Accept: "application/json", ...o.headers }, redirect: "error", timeoutMs }, o.reach);
  const urlOf = (path: string) => (path.startsWith("http") ? path : `${o.base}${path}`);
  const refusal = (err: OutboundRefused) => new SourceError(`${o.peer} at ${o.base} is refused: ${err.message} (docs/importing.md: Moving from another shortener)`, "private");
  return {
    async get<T>(path: string): Promise<T> {
      const url = urlOf(path);
      for (let attempt = 1; ; attempt++) {
        let response: Response;
        try {
          response = await request(url);
        } catch (err) {
          if (err instanceof OutboundRefused) throw refusal(err);
          if (attempt < tries) {
            await sleep(backoff(attempt));
            continue;
          }
          throw new SourceError(`${o.peer} at ${o.base} cannot be reached (${failure(err)})`, "unreachable");
        }
        const body: unknown = await response.json().catch(() => null);
        if (response.ok) {
          if (body === null) throw new SourceError(`${o.peer} answered ${pathOf(url)} with something that is not JSON: is ${o.base} really ${o.peer}?`, "schema");
          return body as T;
        }
        const limited = response.status === 429 || response.status === 503 || (o.rateLimited?.(response.status, body) ?? false);
        if ((limited || response.status >= 500) && attempt < tries) {
          await sleep(Math.min(maxWaitMs, retryAfterMs(response.headers.get("retry-after")) ?? backoff(attempt)));
          continue;
        }
        const what = `${o.peer} answered ${response.status} to GET ${pathOf(url)}`;
        if (response.status === 401 || response.status === 403) throw new SourceError(`${what} (${o.refusedHint ?? "is the API key right?"})`, "refused");
        if (response.status === 404) throw new SourceError(`${what} (is ${o.base} really ${o.peer}?)`, "not_found");
        throw new SourceError(limited ? `${what} (still rate limited after ${tries} tries)` : what, "failed");
      }
    },
    async peek<T>(path: string): Promise<T | null> {
      try {
        const response = await request(urlOf(path), 15_000);
        if (response.ok) return (await response.json()) as T;
        await response.body?.cancel();
        return null;
      } catch (err) {
        if (err instanceof OutboundRefused) throw refusal(err);
        return null;
      }
    },
  };
}

/** Why a request got no answer: a timeout, or the connection's own error (never anything the peer sent). */
function failure(err: unknown): string {
  const kind = err instanceof Error ? err.name : "";
  if (kind === "TimeoutError" || kind === "AbortError") return `no answer within ${TIMEOUT_MS / 1000} s`;
  return err instanceof Error ? err.message : String(err);
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

/** The base URL a user gave (--url), without a trailing slash; http(s) only, and a written address the policy allows. */
export function baseUrl(peer: string, given: string | undefined, reach: OutboundPolicy): string {
  if (given === undefined || given === "") throw new SourceError(`--url is required: where ${peer} answers, e.g. https://${peer.toLowerCase()}.example.com`, "bad_option");
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new SourceError(`--url ${given} is not a URL`, "bad_option");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new SourceError(`--url must start with http:// or https://`, "bad_option");
  if (url.username !== "" || url.password !== "") throw new SourceError("--url must not hold a user name or password (give the key with --api-key-file)", "bad_option");
  const refusal = writtenHostRefusal(url.hostname, reach);
  if (refusal !== null) throw new SourceError(`--url ${url.origin} is refused: ${refusal} (docs/importing.md: Moving from another shortener)`, "private");
  return url.toString().replace(/\/+$/, "");
}

/** A JSON object (an error body's fields are read from it). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
