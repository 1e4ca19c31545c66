// A webhook's delivery log, newest first, a page at a time; and a delivery sent again.

import type { Delivery } from "../../events/types.ts";
import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { done, refused, type Outcome } from "../outcome.ts";
import { noWebhook, webhooksRefusal, type WebhooksDeps } from "./access.ts";

const DELIVERY_PAGE = 50;
const ID = /^[1-9]\d{0,15}$/;

/** `before` and `limit` as a request gives them (text, or null for none). */
export async function listDeliveries(
  actor: Actor,
  input: { webhookId: number; before: string | null; limit: string | null },
  deps: Pick<WebhooksDeps, "events">,
): Promise<Outcome<{ deliveries: Delivery[]; nextBefore: number | null }>> {
  const refusal = webhooksRefusal(actor);
  if (refusal !== null) return refusal;
  if ((await deps.events.webhook(input.webhookId)) === null) return noWebhook(input.webhookId);
  if (input.before !== null && !ID.test(input.before)) return refused("bad_request", "before must be a delivery's id", "cursor");
  const limit = input.limit === null ? DELIVERY_PAGE : Number(input.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) return refused("bad_request", "limit must be 1 to 200", "limit");
  const page = await deps.events.deliveries(input.webhookId, input.before === null ? null : Number(input.before), limit);
  return done({ deliveries: page, nextBefore: page.length === limit ? page[page.length - 1]!.id : null });
}

/** A new delivery of the same message, queued last; the delivery thread is woken for it. */
export async function redeliver(actor: Actor, input: { webhookId: number; deliveryId: number }, deps: Pick<WebhooksDeps, "events" | "log" | "now"> & { pokeDelivery: () => void }): Promise<Outcome<Delivery>> {
  const refusal = webhooksRefusal(actor);
  if (refusal !== null) return refusal;
  const again = await deps.events.redeliver(input.webhookId, input.deliveryId, deps.now());
  if (again === null) return refused("not_found", `no delivery ${input.deliveryId} of webhook ${input.webhookId}`);
  deps.pokeDelivery();
  logAction(deps.log, actor!, "webhook-redeliver", String(input.webhookId), `ok ${again.messageId}`);
  return done(again);
}
