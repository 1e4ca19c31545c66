// The body of POST and PATCH /api/webhooks: url, events, linkId, tag (and enabled on PATCH),
// checked the same way for both; every problem found is reported at once.

import type { FieldProblem } from "../errors.ts";
import { looksLikeId } from "../links/alias.ts";
import { parseTags } from "../links/options.ts";
import { checkWebhookUrl, type WebhookUrlRules } from "./webhook-url.ts";
import { DISABLED_REASONS, EVENT_TYPES, isEventType, type Webhook } from "./types.ts";

const FIELDS = ["url", "events", "linkId", "tag", "enabled"] as const;

/** A webhook's fields as a surface names them: its link by id (the operations resolve it to the seq stored). */
export type WebhookFields = Partial<Pick<Webhook, "url" | "events" | "linkId" | "tag" | "enabled" | "disabledReason">>;

export type ParsedWebhook = { ok: true; fields: WebhookFields } | { ok: false; problems: FieldProblem[] } | { ok: false; malformed: string };

/** `creating`: url and events are required, enabled is not taken. */
export function parseWebhookFields(body: unknown, rules: WebhookUrlRules, creating: boolean): ParsedWebhook {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ok: false, malformed: "the body must be a JSON object" };
  const record = body as Record<string, unknown>;
  const allowed: readonly string[] = creating ? FIELDS.filter((f) => f !== "enabled") : FIELDS;
  const unknown = Object.keys(record).find((k) => !allowed.includes(k));
  if (unknown !== undefined) return { ok: false, malformed: `unknown field ${unknown}: the body takes ${allowed.join(", ")}` };
  const fields: WebhookFields = {};
  const problems: FieldProblem[] = [];
  if (creating || "url" in record) {
    const url = checkWebhookUrl(record.url ?? "", rules);
    if (url.ok) fields.url = url.url;
    else problems.push({ code: url.code, field: "url", error: url.error });
  }
  if (creating || "events" in record) {
    const events = record.events;
    if (!Array.isArray(events) || events.length === 0 || !events.every(isEventType)) {
      problems.push({ code: "events_invalid", field: "events", error: `events must be a list of one or more of ${EVENT_TYPES.join(", ")}` });
    } else fields.events = [...new Set(events)].sort((a, b) => EVENT_TYPES.indexOf(a) - EVENT_TYPES.indexOf(b));
  }
  if ("linkId" in record && record.linkId !== null) {
    if (typeof record.linkId !== "string" || !looksLikeId(record.linkId)) problems.push({ code: "bad_request", field: "linkId", error: "linkId must be a link's id" });
    else fields.linkId = record.linkId;
  } else if ("linkId" in record) fields.linkId = null;
  if ("tag" in record && record.tag !== null) {
    const tags = parseTags([record.tag]);
    if (!tags.ok || tags.value.length !== 1) problems.push({ code: "tags_invalid", field: "tag", error: "tag must be one tag, as links' tags are written" });
    else fields.tag = tags.value[0]!;
  } else if ("tag" in record) fields.tag = null;
  if ("enabled" in record) {
    if (typeof record.enabled !== "boolean") problems.push({ code: "bad_request", field: "enabled", error: "enabled must be true or false" });
    else {
      fields.enabled = record.enabled;
      fields.disabledReason = record.enabled ? null : DISABLED_REASONS.admin;
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, fields };
}
