// Removes a webhook; its delivery log goes with it (pruned by the delivery thread).

import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import { noWebhook, webhooksRefusal, type WebhooksDeps } from "./access.ts";

export async function removeWebhook(actor: Actor, input: { id: number }, deps: WebhooksDeps): Promise<Outcome<{ id: number; deleted: true }>> {
  const refusal = webhooksRefusal(actor);
  if (refusal !== null) return refusal;
  if (!(await deps.events.removeWebhook(input.id))) return noWebhook(input.id);
  await deps.webhooksChanged();
  logAction(deps.log, actor!, "webhook-delete", String(input.id), "ok");
  return done({ id: input.id, deleted: true });
}
