// Where a webhook may post (docs/webhooks.md: Webhooks, "Where webhooks may post"): the same URL rules as a
// link's destination, and, unless the service delivering it allows it (webhook-leave.ts), no
// special-purpose address (loopback, private, link-local, documentation, reserved...:
// src/outbound/special-addresses.ts) written in the URL or resolved from its name, nor a name of the
// local network. A name is judged again by what it resolves to when sending (src/events/sender.ts),
// so that a webhook cannot be pointed at the service's own network by an admin key that leaked.

import { ipFamily } from "../visits/ip-family.ts";
import { checkUrl } from "../links/url-rules.ts";
import type { ErrorCode } from "../errors.ts";
import { URL_MESSAGES } from "../links/create.ts";
import { OutboundRefused, reachableAddress, writtenHostRefusal, type OutboundPolicy, type Resolve } from "../outbound/reach.ts";
import type { WebhookLeave } from "./webhook-leave.ts";

export type WebhookUrlRules = { ownHosts: readonly string[]; leave: WebhookLeave; isBlocked: (url: string) => boolean };
export type WebhookUrlVerdict = { ok: true; url: string } | { ok: false; code: ErrorCode; error: string };

/** Names that only the local network answers: localhost (RFC 6761), mDNS's .local (RFC 6762), .home.arpa (RFC 8375), .internal, and the common .lan. */
const LOCAL_NAME = /(^|\.)(localhost|local|lan|internal|home\.arpa)\.?$/i;

/** The judgement without a flag to name: the refusal's reason comes from the leave. */
const NO_SPECIAL: OutboundPolicy = { allowSpecial: false, flag: null };

/** The URL as written: its form, and a host that is a special-purpose address or a local name. */
export function checkWebhookUrl(raw: unknown, rules: WebhookUrlRules): WebhookUrlVerdict {
  if (typeof raw !== "string") return { ok: false, code: "url_invalid", error: "url must be a string" };
  // Loopback is judged below with the other special-purpose addresses, under the webhook's own flag.
  const checked = checkUrl(raw, { ownHosts: rules.ownHosts, allowLocal: true });
  if (!checked.ok) return { ok: false, code: checked.problem, error: URL_MESSAGES[checked.problem] };
  if (rules.isBlocked(checked.url)) return { ok: false, code: "url_blocked", error: URL_MESSAGES.url_blocked };
  if (rules.leave.allowPrivate) return checked;
  const host = new URL(checked.url).hostname;
  const refusal = writtenHostRefusal(host, NO_SPECIAL) ?? (LOCAL_NAME.test(host) ? `${host} is a name of the local network` : null);
  return refusal === null ? checked : notPublic(refusal, rules.leave);
}

/**
 * A name's addresses, judged now as the sender will judge them (within 5 s): refused when one is
 * special-purpose without the leave. A name that does not resolve now is taken: it may by the time
 * something is sent, and is judged again then.
 */
export async function checkWebhookName(url: string, leave: WebhookLeave, resolve?: Resolve): Promise<WebhookUrlVerdict> {
  if (leave.allowPrivate) return { ok: true, url };
  const host = new URL(url).hostname;
  if (ipFamily(host.replace(/^\[|\]$/g, "")) !== 0) return { ok: true, url }; // judged as written
  try {
    await reachableAddress(host, NO_SPECIAL, resolve);
  } catch (err) {
    if (err instanceof OutboundRefused) return notPublic(err.message, leave);
  }
  return { ok: true, url };
}

function notPublic(refusal: string, leave: WebhookLeave): WebhookUrlVerdict {
  return { ok: false, code: "url_private", error: `the webhook's URL is not a public address: ${refusal}; ${leave.why} (docs/webhooks.md: Webhooks)` };
}
