// Who is asking the YOURLS API (docs/yourls-api.md: Authentication): `signature=<API key>`, or
// `username` and `password=<API key>`, checked as our bearer key is (src/http/auth.ts checkSecret:
// hashes only, the failed-attempts limit). Never a cookie: the API creates links on a GET, and a
// page elsewhere could make a signed-in browser send one. YOURLS's time-limited signature
// (`timestamp` and a hash of it with the user's secret) needs that secret in the clear, which a
// key kept as a hash is not: such a request is told what to send instead.

import type { Principal } from "../../auth/policy.ts";
import { checkSecret, type AuthDeps } from "../auth.ts";
import type { PeerServer } from "../request-origin.ts";
import type { YourlsAnswer } from "./yourls-output.ts";

/** The request's parameters, as YOURLS's $_REQUEST: the body's over the query's; null when absent. */
export type YourlsParams = (name: string) => string | null;

export type YourlsAsker = { ok: true; principal: Principal | null } | { ok: false; answer: YourlsAnswer; headers: Record<string, string> };

export const PLEASE_LOG_IN = "Please log in";
const INVALID_PAIR = "Invalid username or password";

/** The principal of the credentials sent, null when none were sent, or the refusal in YOURLS's shape. */
export async function yourlsAsker(param: YourlsParams, request: Request, server: PeerServer, deps: AuthDeps): Promise<YourlsAsker> {
  const signature = param("signature") || null;
  const [username, password] = [param("username") || null, param("password") || null];
  if (signature !== null && param("timestamp")) {
    return refusal("a signature with a timestamp cannot be checked here: API keys are stored as hashes only. Send signature=<your API key> without timestamp (or username=<anything>&password=<your API key>)");
  }
  // The username is not checked: the key alone is the credential, and a name to match would add
  // no secret, only one more way to get the setting wrong (docs/yourls-api.md: Authentication).
  const secret = signature ?? (username !== null ? password : null);
  if (secret === null) {
    return username === null && password === null ? { ok: true, principal: null } : refusal(INVALID_PAIR);
  }
  const checked = await checkSecret(secret, request, server, deps);
  if (checked.ok) return { ok: true, principal: checked.principal };
  const { status } = checked.response;
  const retryAfter = checked.response.headers.get("retry-after");
  if (status === 429 && retryAfter !== null) {
    return { ok: false, answer: { simple: `Too many failed attempts; try again in ${retryAfter} s`, message: `Too many failed attempts; try again in ${retryAfter} s`, errorCode: "429" }, headers: { "Retry-After": retryAfter } };
  }
  if (status === 403) return refusal("this key's user is disabled");
  return refusal(signature !== null ? PLEASE_LOG_IN : INVALID_PAIR);
}

/** YOURLS's answer to credentials it does not accept: errorCode 403 and why. */
export function refusal(message: string): { ok: false; answer: YourlsAnswer; headers: Record<string, string> } {
  return { ok: false, answer: { simple: message, message, errorCode: "403" }, headers: {} };
}
