// What the webhook operations share (docs/webhooks.md: Webhooks): admins only, since a webhook hears
// about every link; the ports they need; and how a change is made known.

import type { EventStore } from "../../events/store.ts";
import type { LinkStore } from "../../links/store.ts";
import type { WebhookLeave } from "../../events/webhook-leave.ts";
import type { Actor } from "../../auth/policy.ts";
import type { Logger } from "../../log.ts";
import { adminRefusal } from "../accounts.ts";
import { refused, type Problem } from "../outcome.ts";

export type WebhooksDeps = {
  events: EventStore;
  /** a webhook's link filter names a link by id: read to know it exists, and its seq (what is stored) */
  links: Pick<LinkStore, "get">;
  log: Logger;
  now: () => number;
  /** told when webhooks changed: the service reads the events they want again (a command: nothing to tell, the service reads them every tick) */
  webhooksChanged: () => Promise<void>;
};

/** What a receiver's address is checked against: the hosts this service answers under and the blocklist, and whether special-purpose addresses may be posted to. */
export type ReceiverRules = { ownHosts: readonly string[]; isBlocked: (url: string) => boolean; leave: () => Promise<WebhookLeave> };

/** The refusal of anyone but an admin (asked by a surface before it reads a request's body, and by every operation). */
export function webhooksRefusal(actor: Actor): { ok: false; problem: Problem } | null {
  return adminRefusal(actor, "webhooks need an admin: they hear about every link");
}

export function noWebhook(id: number | string): { ok: false; problem: Problem } {
  return refused("not_found", `no webhook ${id}`);
}
