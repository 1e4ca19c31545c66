// The dashboard's calls to the management API, all with the session cookie (the browser sends it,
// and an Origin of this page with every change). A 401 on any call but the sign-in itself means the
// session ended meanwhile (signed out elsewhere, idle for 30 days, key revoked): `sessionEnded` fires.
import { lang } from "../common.ts";
import type { ApiFailure } from "../form-errors.ts";

// The server's own shapes (type-only imports: nothing of the server is bundled).
import type { ImportOutcome, LinkJson, LinkPage, Overview, Who } from "../../../src/api/types.ts";
import type { LinkStatus } from "../../../src/links/link.ts";

export type { ImportOutcome, LinkPage, LinkStatus, Overview, Who };
export type Link = LinkJson;

export type Result<T> = { ok: true; status: number; data: T } | { ok: false; status: number; body: ApiFailure };

/** Fired when a call finds the session over; the page then asks to sign in again. */
export const sessionEnded = new EventTarget();

type Body = { json: unknown } | { text: string; type: string };

/** One API call; never throws (a network failure is status 0 with code "network"). */
export async function call<T>(method: string, path: string, body?: Body, signal?: AbortSignal): Promise<Result<T>> {
  // Accept-Language: the page's language, so the statsUrl the API hands out is in it.
  const headers: Record<string, string> = { Accept: "application/json", "Accept-Language": lang };
  let payload: string | undefined;
  if (body && "json" in body) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body.json);
  } else if (body) {
    headers["Content-Type"] = body.type;
    payload = body.text;
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, signal, credentials: "same-origin" });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    return { ok: false, status: 0, body: { code: "network" } };
  }
  const parsed = (await res.json().catch(() => null)) as ({ success: true; data?: T } | ApiFailure) | null;
  // Most answers carry their value in `data`; the domains API's is the body itself ({success, domains}).
  if (parsed !== null && parsed.success === true) return { ok: true, status: res.status, data: "data" in parsed ? (parsed.data as T) : (parsed as T) };
  const failure: ApiFailure = parsed ?? { code: "unknown" };
  if (res.status === 401 && path !== "/api/session") sessionEnded.dispatchEvent(new Event("ended"));
  return { ok: false, status: res.status, body: failure };
}

export type ListQuery = { q: string; tag: string; owner: string; domain: string; status: string; sort: string; order: string; cursor: string | null; limit: number };

export function listPath(q: ListQuery): string {
  const params = new URLSearchParams({ sort: q.sort, order: q.order, limit: String(q.limit), include: "daily" });
  if (q.q) params.set("q", q.q);
  if (q.tag) params.set("tag", q.tag);
  if (q.owner) params.set("owner", q.owner);
  if (q.domain) params.set("domain", q.domain);
  if (q.status) params.set("status", q.status);
  if (q.cursor) params.set("cursor", q.cursor);
  return `/api/links?${params}`;
}

/** A link's path in the management API: `?domain=` when it is not on the default domain (domain-api.ts). */
export const linkPath = (id: string, domain: string | null = null) =>
  `/api/links/${encodeURIComponent(id)}${domain === null ? "" : `?domain=${encodeURIComponent(domain)}`}`;

/** The export URL: every link the key may see, or only the given ids. */
export function exportPath(format: "csv" | "json", ids?: readonly string[]): string {
  const params = new URLSearchParams({ format });
  if (ids) params.set("ids", ids.join(","));
  return `/api/links/export?${params}`;
}
