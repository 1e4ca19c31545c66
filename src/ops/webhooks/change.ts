// Changes a webhook: its receiver, events, link or tag filter, or whether it is enabled (enabling
// sends its waiting deliveries out again).

import type { WebhookSummary } from "../../events/types.ts";
import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { done, type Outcome } from "../outcome.ts";
import { noWebhook, webhooksRefusal, type ReceiverRules, type WebhooksDeps } from "./access.ts";
import { checkedFields } from "./create.ts";

/** `fields`: those to change, as the API names them (url, events, linkId, tag, enabled). */
export async function changeWebhook(actor: Actor, input: { id: number; fields: unknown }, deps: WebhooksDeps & { rules: ReceiverRules }): Promise<Outcome<WebhookSummary>> {
  const refusal = webhooksRefusal(actor);
  if (refusal !== null) return refusal;
  const checked = await checkedFields(input.fields, deps, false);
  if (!checked.ok) return checked;
  if (!(await deps.events.updateWebhook(input.id, checked.value))) return noWebhook(input.id);
  await deps.webhooksChanged();
  logAction(deps.log, actor!, "webhook-update", String(input.id), `ok ${Object.keys(checked.value).filter((k) => k !== "disabledReason").map(asNamed).join(",")}`);
  return done((await deps.events.webhook(input.id))!);
}

/** A changed field as the API names it: the link by its id. */
const asNamed = (field: string) => (field === "linkSeq" ? "linkId" : field);
