// The body of PATCH /api/links/<id>: any of url, expiresAt, maxClicks, disabled, tags, title, the
// behaviour fields, the card fields and the iosUrl/androidUrl shortcuts, checked by the same rules as
// a create; null clears expiresAt, maxClicks, tags, the title, a card field and a shortcut (and means
// false for disabled).

import { checkWebDestination, checkDestination, type DestinationRules } from "./create.ts";
import { parseExpiresAt, parseMaxClicks, parseTags } from "./options.ts";
import type { LinkChanges } from "./store.ts";
import type { FieldProblem } from "../errors.ts";
import { CAMEL_NAMES, parseBehaviour, type BehaviourInput } from "./behaviour.ts";
import { unknownField, unknownFieldError } from "./field-names.ts";
import { parseTitle } from "./title.ts";
import { CAMEL_CARD_NAMES, parseCard } from "./card-fields.ts";
import { CAMEL_SHORTCUT_NAMES, parseShortcuts, type Shortcuts } from "./os-shortcuts.ts";

const FIELDS = ["url", "expiresAt", "maxClicks", "disabled", "tags", "rules", "variants", "password", "redirectType", "validFrom", "fallbackUrl", "crawlable", "title",
  "cardTitle", "cardDescription", "cardImage", "iosUrl", "androidUrl"] as const;

export type ChangeContext = DestinationRules & { now: number };

/**
 * `behaviour`: the password still in plain text (behaviour.ts hashBehaviour makes the change);
 * `shortcuts`: iosUrl/androidUrl, applied by the caller onto the rules given or stored (os-shortcuts.ts).
 */
export type ParsedChanges =
  | { ok: true; changes: LinkChanges; behaviour: BehaviourInput; shortcuts: Shortcuts }
  | { ok: false; problems: FieldProblem[] }
  /** not an object, or a field PATCH does not take (a typo must not pass silently) */
  | { ok: false; malformed: string };

export function parseChanges(body: unknown, ctx: ChangeContext): ParsedChanges {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, malformed: `the body must be a JSON object with any of ${FIELDS.join(", ")}` };
  }
  const record = body as Record<string, unknown>;
  const unknown = unknownField(Object.keys(record), FIELDS);
  if (unknown !== null) return { ok: false, malformed: unknownFieldError(unknown, "PATCH", FIELDS) };
  const changes: LinkChanges = {};
  const problems: FieldProblem[] = [];
  if ("url" in record) {
    const url = checkDestination(record.url, ctx);
    if (url.ok) changes.url = url.url;
    else problems.push({ code: url.code, field: "url", error: url.error });
  }
  if ("expiresAt" in record) {
    if (record.expiresAt === null) changes.expiresAt = null;
    else {
      const parsed = parseExpiresAt(record.expiresAt, ctx.now);
      if (parsed.ok) changes.expiresAt = parsed.value;
      else problems.push({ code: parsed.problem, field: "expiresAt", error: `expiresAt ${parsed.error}` });
    }
  }
  if ("maxClicks" in record) {
    if (record.maxClicks === null) changes.maxClicks = null;
    else {
      const parsed = parseMaxClicks(record.maxClicks);
      if (parsed.ok) changes.maxClicks = parsed.value;
      else problems.push({ code: parsed.problem, field: "maxClicks", error: `maxClicks ${parsed.error}` });
    }
  }
  if ("disabled" in record) {
    if (record.disabled === null || typeof record.disabled === "boolean") changes.disabled = record.disabled === true;
    else problems.push({ code: "bad_request", field: "disabled", error: "disabled must be true or false" });
  }
  if ("tags" in record) {
    if (record.tags === null) changes.tags = [];
    else {
      const parsed = parseTags(record.tags);
      if (parsed.ok) changes.tags = parsed.value;
      else problems.push({ code: parsed.problem, field: "tags", error: `tags: ${parsed.error}` });
    }
  }
  const title = parseTitle(record.title, "title", problems);
  if (title !== undefined) changes.title = title;
  const behaviour = parseBehaviour(record, CAMEL_NAMES, (raw) => checkDestination(raw, ctx), problems);
  Object.assign(changes, parseCard(record, CAMEL_CARD_NAMES, (raw) => checkWebDestination(raw, ctx), problems));
  const shortcuts = parseShortcuts(record, CAMEL_SHORTCUT_NAMES, (raw) => checkDestination(raw, ctx), problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, changes, behaviour, shortcuts };
}
