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
import type { FieldProblem } from "../../errors.ts";

/**
 * `fields`: url, events and, if wanted, linkId and tag, as the API names them. Every field problem
 * is answered at once; a receiver's name is judged by what it resolves to as well, as the sender
 * will judge it.
 */
export async function createWebhook(actor: Actor, input: { fields: unknown }, deps: WebhooksDeps & { rules: ReceiverRules }): Promise<Outcome<WebhookSummary & { secret: string }>> {
  const refusal = webhooksRefusal(actor);
  if (refusal !== null) return refusal;
  const checked = await checkedFields(input.fields, deps, true);
  if (!checked.ok) return checked;
  const f = checked.value;
  const { secret, ...created } = await deps.events.createWebhook({ url: f.url!, events: f.events!, linkSeq: f.linkSeq ?? null, tag: f.tag ?? null, secret: newSecret(), createdAt: deps.now() });
  await deps.webhooksChanged();
  // The host only: a webhook's path is often its credential (Slack's, n8n's), and logs travel further than the database.
  logAction(deps.log, actor!, "webhook-create", String(created.id), `ok ${new URL(created.url).host} ${created.events.join(",")}`);
  // New: nothing waits and nothing was tried yet.
  return done({ ...created, pending: 0, lastDelivery: null, secret });
}

/**
 * The fields checked as a create (all needed) or a change takes them, the link named by its id
 * resolved to its seq (what is stored and matched). The link must exist: a filter naming no link
 * would hear nothing, ever (docs/webhooks.md: Webhooks, "Events").
 */
export async function checkedFields(fields: unknown, deps: Pick<WebhooksDeps, "links"> & { rules: ReceiverRules }, creating: boolean): Promise<Outcome<WebhookChanges>> {
  const { rules } = deps;
  const leave = await rules.leave();
  const parsed = parseWebhookFields(fields, { ownHosts: rules.ownHosts, isBlocked: rules.isBlocked, leave }, creating);
  if (!parsed.ok) return "malformed" in parsed ? refused("bad_request", parsed.malformed) : refusedFields(parsed.problems);
  const { url, linkId } = parsed.fields;
  const problems: FieldProblem[] = [];
  const named = url === undefined ? null : await checkWebhookName(url, leave);
  if (named !== null && !named.ok) problems.push({ code: named.code, field: "url", error: named.error });
  const link = typeof linkId === "string" ? await deps.links.get(linkId) : null;
  if (typeof linkId === "string" && link === null) problems.push({ code: "bad_request", field: "linkId", error: `no link with the id ${linkId}` });
  if (problems.length > 0) return refusedFields(problems);
  // In the fields' order, linkId traded for linkSeq in its place (the audit line names them in this order).
  return done(Object.fromEntries(Object.entries(parsed.fields).map(([k, v]) => (k === "linkId" ? ["linkSeq", link === null ? null : link.seq] : [k, v]))) as WebhookChanges);
}
