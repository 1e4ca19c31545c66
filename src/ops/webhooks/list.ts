// The webhooks, each with its state and its last delivery; one of them by id.

import type { WebhookSummary } from "../../events/types.ts";
import type { Actor } from "../../auth/policy.ts";
import { done, type Outcome } from "../outcome.ts";
import { noWebhook, webhooksRefusal, type WebhooksDeps } from "./access.ts";

export async function listWebhooks(actor: Actor, _input: null, deps: Pick<WebhooksDeps, "events">): Promise<Outcome<WebhookSummary[]>> {
  return webhooksRefusal(actor) ?? done(await deps.events.webhooks());
}

export async function getWebhook(actor: Actor, input: { id: number }, deps: Pick<WebhooksDeps, "events">): Promise<Outcome<WebhookSummary>> {
  const refusal = webhooksRefusal(actor);
  if (refusal !== null) return refusal;
  const found = await deps.events.webhook(input.id);
  return found === null ? noWebhook(input.id) : done(found);
}
