// Helpers for the Shlink short-URL tests (#39): a server with keys and a second domain, one call of
// the Shlink API, and the checks of Shlink 5.1's shapes (its docs/swagger/definitions/ShortUrl.json,
// ShortUrlMeta.json, VisitsSummary.json, Pagination.json and Error.json).

import { expect } from "bun:test";
import { openStorage } from "../../src/db/open-storage.ts";
import { DEFAULT_SETTINGS, type Domain } from "../../src/domains/domain.ts";
import { startServer, type RunningServer } from "./server.ts";

/** The fields docs/swagger/definitions/ShortUrl.json requires. */
export const SHORT_URL_FIELDS = ["shortCode", "shortUrl", "longUrl", "dateCreated", "visitsSummary", "tags", "meta", "domain", "title", "crawlable", "forwardQuery", "hasRedirectRules"];
/** docs/swagger/definitions/Pagination.json's fields. */
export const PAGINATION_FIELDS = ["currentPage", "pagesCount", "itemsPerPage", "itemsInCurrentPage", "totalItems"];
/** A date as Shlink writes it (PHP's DATE_ATOM). */
export const ATOM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

export type Servers<K extends string = string> = { first: RunningServer; server: RunningServer; keys: Record<K, string> };

/** A server whose database holds these keys (name → scope) and the domain a.example.org. */
export async function shlinkServer<K extends string>(scopes: Record<K, "admin" | "create">): Promise<Servers<K>> {
  const first = await startServer();
  await first.stop();
  const keys = {} as Record<K, string>;
  const storage = await openStorage(first.dbPath, { busyTimeoutMs: 5_000, password: null });
  try {
    for (const [name, scope] of Object.entries(scopes) as [K, "admin" | "create"][]) keys[name] = (await storage.keys.create(name, scope, Date.now())).key;
    await storage.domains.add({ ...DEFAULT_SETTINGS, name: "a.example.org", isDefault: false, createdAt: 1 } satisfies Domain);
  } finally {
    await storage.close();
  }
  return { first, server: await startServer({ dir: first.dir }), keys };
}

export type Answer = { status: number; type: string; body: any; text: string };

/** One Shlink call with X-Api-Key (null: none); an object body as JSON, a string as sent. */
export async function shlinkCall(base: string, key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, version = "v3"): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (key !== null) h["X-Api-Key"] = key;
  if (body !== undefined && typeof body !== "string") h["Content-Type"] ??= "application/json";
  const res = await fetch(`${base}/rest/${version}${path}`, { method, headers: h, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // the shorten route's text answer, or a 204's empty body
  }
  return { status: res.status, type: res.headers.get("content-type") ?? "", body: parsed, text };
}

/** A problem document of Shlink's type (Error.json: type, title, detail, status); its body. */
export function problem(r: Answer, status: number, type: string): any {
  expect(r.status).toBe(status);
  expect(r.type).toStartWith("application/problem+json");
  expect(r.body.type).toBe(`https://shlink.io/api/error/${type}`);
  for (const field of ["title", "detail"]) expect(typeof r.body[field]).toBe("string");
  expect(r.body.status).toBe(status);
  return r.body;
}

/** Every field ShortUrl.json requires (and ShortUrlMeta.json, VisitsSummary.json), dates as Atom, shortUrl absolute. */
export function isShortUrl(s: any): void {
  expect(Object.keys(s).sort()).toEqual([...SHORT_URL_FIELDS].sort());
  expect(Object.keys(s.meta).sort()).toEqual(["maxVisits", "validSince", "validUntil"]);
  expect(Object.keys(s.visitsSummary).sort()).toEqual(["bots", "nonBots", "total"]);
  expect(s.dateCreated).toMatch(ATOM);
  expect(() => new URL(s.shortUrl)).not.toThrow();
}
