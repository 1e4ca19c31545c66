// Adds a webhook. Its secret is answered once, by this operation; never listed, never logged.

import { parseWebhookFields } from "../../events/webhook-fields.ts";
import { checkWebhookName } from "../../events/webhook-url.ts";
import { newSecret } from "../../events/signing.ts";
import type { WebhookSummary } from "../../events/types.ts";
import type { Actor } from "../../auth/policy.ts";
import { logAction } from "../audit.ts";
import { done, refused, refusedFields, type Outcome } from "../outcome.ts";
import { webhooksRefusal, type ReceiverRules, type WebhooksDeps } from "./access.ts";
import type { WebhookChanges } from "../../events/store.ts";

/**
 * `fields`: url, events and, if wanted, linkId and tag, as the API names them. Every field problem
 * is answered at once; a receiver's name is judged by what it resolves to as well, as the sender
 * will judge it.
 */
export async function createWebhook(actor: Actor, input: { fields: unknown }, deps: WebhooksDeps & { rules: ReceiverRules }): Promise<Outcome<WebhookSummary & { secret: string }>> {
  const refusal = webhooksRefusal(actor);
  if (refusal !== null) return refusal;
  const checked = await checkedFields(input.fields, deps.rules, true);
  if (!checked.ok) return checked;
  const f = checked.value;
  const { secret, ...created } = await deps.events.createWebhook({ url: f.url!, events: f.events!, linkId: f.linkId ?? null, tag: f.tag ?? null, secret: newSecret(), createdAt: deps.now() });
  await deps.webhooksChanged();
  // The host only: a webhook's path is often its credential (Slack's, n8n's), and logs travel further than the database.
  logAction(deps.log, actor!, "webhook-create", String(created.id), `ok ${new URL(created.url).host} ${created.events.join(",")}`);
  // New: nothing waits and nothing was tried yet.
  return done({ ...created, pending: 0, lastDelivery: null, secret });
}

/** The fields checked as a create (all needed) or a change takes them. */
export async function checkedFields(fields: unknown, rules: ReceiverRules, creating: boolean): Promise<Outcome<WebhookChanges>> {
  const leave = await rules.leave();
  const parsed = parseWebhookFields(fields, { ownHosts: rules.ownHosts, isBlocked: rules.isBlocked, leave }, creating);
  if (!parsed.ok) return "malformed" in parsed ? refused("bad_request", parsed.malformed) : refusedFields(parsed.problems);
  const named = parsed.fields.url === undefined ? null : await checkWebhookName(parsed.fields.url, leave);
  if (named !== null && !named.ok) return refusedFields([{ code: named.code, field: "url", error: named.error }]);
  return done(parsed.fields);
}
