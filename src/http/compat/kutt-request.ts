// Who is asking on the Kutt surface (X-API-KEY) and what they sent (docs/kutt-api.md: Keys), with
// every refusal in Kutt's shape.

import type { Principal } from "../../auth/policy.ts";
import { KEY_PREFIX } from "../../auth/keys.ts";
import type { StatsReader } from "../../stats/link-stats.ts";
import { checkSecret } from "../auth.ts";
import type { LinksDeps } from "../links.ts";
import { MAX_BODY_BYTES, mediaType, readBodyText, wellFormedText } from "../form-body.ts";
import type { PeerServer } from "../request-origin.ts";
import { asKutt, kuttError, UNAUTHORIZED } from "./kutt-json.ts";

export type KuttDeps = LinksDeps & { stats: StatsReader };

/**
 * Our keys have 35 characters; the Kutt browser extension takes only 40 (its Options/Form.tsx), so
 * a key may come with this suffix, which says nothing and is dropped (docs/kutt-api.md: Keys).
 */
export const KUTT_KEY_SUFFIX = "_kutt";

/** The key of an X-API-KEY value: as sent, or without the extension's padding. */
function keyOf(sent: string): string {
  return sent.startsWith(KEY_PREFIX) && sent.endsWith(KUTT_KEY_SUFFIX) ? sent.slice(0, -KUTT_KEY_SUFFIX.length) : sent;
}

export type Caller = { ok: true; principal: Principal | null; sent: string } | { ok: false; response: Response };

/** Who sends X-API-KEY (null: no key sent), or the refusal in Kutt's shape; failed keys count against the address (src/http/auth.ts). */
export async function kuttCaller(request: Request, server: PeerServer, deps: KuttDeps): Promise<Caller> {
  const sent = request.headers.get("x-api-key")?.trim() ?? "";
  if (sent === "") return { ok: true, principal: null, sent };
  const checked = await checkSecret(keyOf(sent), request, server, deps);
  return checked.ok ? { ok: true, principal: checked.principal, sent } : { ok: false, response: await asKutt(checked.response) };
}

/** Like kuttCaller, but a request without a key is refused (Kutt's 401). */
export async function kuttPrincipal(request: Request, server: PeerServer, deps: KuttDeps): Promise<{ ok: true; principal: Principal; sent: string } | { ok: false; response: Response }> {
  const caller = await kuttCaller(request, server, deps);
  if (!caller.ok) return caller;
  if (caller.principal === null) return { ok: false, response: kuttError(401, `${UNAUTHORIZED} Send it in the X-API-KEY header.`) };
  return { ok: true, principal: caller.principal, sent: caller.sent };
}

/** A request's fields: a JSON object or a urlencoded form (Kutt's express takes both); an empty body is no fields. */
export async function kuttBody(request: Request): Promise<{ ok: true; fields: Record<string, unknown> } | { ok: false; response: Response }> {
  const body = await readBodyText(request, MAX_BODY_BYTES);
  if (!body.ok) return { ok: false, response: kuttError(body.status, body.error) };
  if (body.text.trim() === "") return { ok: true, fields: {} };
  const type = mediaType(request);
  if (type === "application/x-www-form-urlencoded") return { ok: true, fields: Object.fromEntries(new URLSearchParams(body.text)) };
  if (type !== "application/json") return { ok: false, response: kuttError(415, "Send the fields as application/json.") };
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    return { ok: false, response: kuttError(400, "The JSON body could not be parsed.") };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, response: kuttError(400, "The body must be a JSON object.") };
  if (!wellFormedText(value)) return { ok: false, response: kuttError(400, "The JSON body holds text that is not valid Unicode (a lone surrogate).") };
  return { ok: true, fields: value as Record<string, unknown> };
}
