// Where a webhook may post (docs/webhooks.md: Webhooks, "Where webhooks may post"): the same URL rules as a
// link's destination, and, unless --webhook-allow-private, no special-purpose address (loopback,
// private, link-local, documentation, reserved...: src/outbound/special-addresses.ts) written in
// the URL, nor a name of the local network. A name is judged again by what it resolves to when
// sending (src/events/sender.ts), so that a webhook cannot be pointed at the service's own network
// by an admin key that leaked.

import { checkUrl } from "../links/url-rules.ts";
import type { ErrorCode } from "../errors.ts";
import { URL_MESSAGES } from "../links/create.ts";
import { writtenHostRefusal } from "../outbound/reach.ts";
import { webhookReach } from "./sender.ts";

export type WebhookUrlRules = { ownHosts: readonly string[]; allowPrivate: boolean; isBlocked: (url: string) => boolean };

/** Names that only the local network answers: localhost (RFC 6761), mDNS's .local (RFC 6762), .home.arpa (RFC 8375), .internal, and the common .lan. */
const LOCAL_NAME = /(^|\.)(localhost|local|lan|internal|home\.arpa)\.?$/i;

export function checkWebhookUrl(raw: unknown, rules: WebhookUrlRules): { ok: true; url: string } | { ok: false; code: ErrorCode; error: string } {
  if (typeof raw !== "string") return { ok: false, code: "url_invalid", error: "url must be a string" };
  // Loopback is judged below with the other special-purpose addresses, under the webhook's own flag.
  const checked = checkUrl(raw, { ownHosts: rules.ownHosts, allowLocal: true });
  if (!checked.ok) return { ok: false, code: checked.problem, error: URL_MESSAGES[checked.problem] };
  if (rules.isBlocked(checked.url)) return { ok: false, code: "url_blocked", error: URL_MESSAGES.url_blocked };
  const host = new URL(checked.url).hostname;
  const refusal = writtenHostRefusal(host, webhookReach(rules.allowPrivate)) ?? (!rules.allowPrivate && LOCAL_NAME.test(host) ? `${host} is a name of the local network; reached only with --webhook-allow-private` : null);
  if (refusal !== null) return { ok: false, code: "url_private", error: `the webhook's URL is not a public address: ${refusal} (docs/webhooks.md: Webhooks)` };
  return checked;
}
