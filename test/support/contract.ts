// The contract test over real responses: every response the test suites receive from the service
// (through fetch, from 127.0.0.1) is checked against the OpenAPI table it is documented by
// (src/http/openapi/document.ts). Loaded before every test file (bunfig.toml preload); a
// response that breaks the contract fails the test that received it.

import { Value } from "@sinclair/typebox/value";
import { operationFor } from "../../src/http/openapi/document.ts";
import { clickId } from "../../src/http/click-door.ts";
import { isReserved, looksLikeId } from "../../src/links/alias.ts";

/** What was checked, per "METHOD path-template status" (read by the contract test file). */
export const contractSeen = new Map<string, number>();
const SERVER_OWN_STATUSES = new Set([400, 413, 414, 431, 505]); // Bun answers these itself, bodiless

/**
 * Why a response breaks the contract, or null when it keeps it (or is not the API's to judge).
 * `seen` counts what was checked (a test of this checker passes its own, not to count for the API).
 */
export async function contractProblem(method: string, url: URL, response: Response, seen: Map<string, number> = contractSeen): Promise<string | null> {
  if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") return null;
  const path = url.pathname;
  // A link's QR code (/{id}/qr; /stats/qr is a page) answers in the API's JSON when it refuses.
  const qrOf = /^\/([^/]+)\/qr$/.exec(path)?.[1];
  const isApi = path.startsWith("/api/") || path === "/health" || path === "/metrics" || (qrOf !== undefined && looksLikeId(qrOf) && !isReserved(qrOf));
  // A short link's GET and HEAD, and the POST of its password form (POST /{id}).
  const isLink = clickId(method === "POST" ? "GET" : method, url.href) !== null;
  if (!isApi && !isLink) return null; // pages of the UI: not the API
  const op = operationFor(method, path);
  if (op === null) return null; // a method the path does not take: the 405/404 catch-alls
  const reply = op.responses[response.status];
  const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (reply === undefined) {
    if (SERVER_OWN_STATUSES.has(response.status) && type === "") return null;
    return `${method} ${path}: status ${response.status} is not documented for ${op.method.toUpperCase()} ${op.path}`;
  }
  const checked = `${op.method.toUpperCase()} ${op.path} ${response.status}`;
  seen.set(checked, (seen.get(checked) ?? 0) + 1);
  if (method === "HEAD") return null;
  const schema = reply.json ?? (reply.content ? Object.entries(reply.content).find(([t]) => t.split(";")[0] === type)?.[1] : undefined);
  if (reply.json === undefined && reply.content === undefined) return null; // no body documented (302)
  if (schema === undefined) return `${method} ${path} ${response.status}: content type ${type} is not documented`;
  if (reply.json !== undefined && type !== "application/json") return `${method} ${path} ${response.status}: ${type} instead of application/json`;
  if (type !== "application/json") return null; // text (CSV, HTML, metrics): its type is the contract
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${method} ${path} ${response.status}: not JSON: ${text.slice(0, 100)}`;
  }
  if (Value.Check(schema, body)) return null;
  const first = [...Value.Errors(schema, body)][0];
  return `${method} ${path} ${response.status}: ${first?.path ?? ""} ${first?.message ?? "does not match"} in ${text.slice(0, 300)}`;
}
