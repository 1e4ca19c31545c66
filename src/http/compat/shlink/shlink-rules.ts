// A short URL's redirect rules in Shlink's words (docs/shlink-api.md: Redirect rules):
// GET /short-urls/:shortCode/redirect-rules, and POST or PATCH to set them all (order = priority),
// as Shlink's ListRedirectRulesAction / SetRedirectRulesAction answer (module/Rest/src/Action/
// RedirectRule). The write is our link change (src/ops/links/change.ts): scopes, URL rules, the
// blocklist and the audit line hold as for our own API. A link doing what Shlink cannot show
// (a split, a password, its own redirect code, a fallback, a condition without a Shlink form) shows
// what maps and refuses every write (docs/shlink-api.md: Read-only rules).

import type { ShlinkRedirectRule, ShlinkRedirectRulesList } from "@shlinkio/shlink-js-sdk/api-contract";
import { DEFAULT_REDIRECT_TYPE } from "../../../links/behaviour.ts";
import type { Link } from "../../../links/link.ts";
import { MAX_CONDITIONS, MAX_RULES, type Condition, type Rule } from "../../../links/rules.ts";
import { changeLink } from "../../../ops/links/change.ts";
import { getLink } from "../../../ops/links/get.ts";
import { ownHostsOf } from "../../destination-rules.ts";
import { publicBase } from "../../request-origin.ts";
import { domainParam, shortUrlKey } from "./shlink-ids.ts";
import { refusal, type ShortUrlIds } from "./shlink-ours.ts";
import { invalidData, shlinkJson } from "./shlink-problem.ts";
import type { ShlinkCall, ShlinkRoute } from "./shlink-route.ts";
import { ourCondition, shlinkCondition } from "./shlink-rule-map.ts";

const FIELD = ["redirectRules"];

/** The link a call names, as its caller may see it (another's link: short-url-not-found). */
async function namedLink(call: ShlinkCall): Promise<{ ids: ShortUrlIds; key: string; link: Link } | Response> {
  const ids: ShortUrlIds = { shortCode: call.params.shortCode!, domain: domainParam(call.query.get("domain"), call.deps.directory) };
  const key = shortUrlKey(ids, call.deps.directory);
  const got = await getLink(call.principal!, { id: key }, call.deps);
  return got.ok ? { ids, key, link: got.value } : refusal(got.problem, ids);
}

/** The rules as Shlink shows them: those it can show in full, numbered as ours are (a gap: one it cannot). */
export function rulesList(link: Link): ShlinkRedirectRulesList {
  const redirectRules: ShlinkRedirectRule[] = [];
  (link.rules ?? []).forEach((rule, i) => {
    if (rule.url === undefined) return;
    const conditions = rule.conditions.map(shlinkCondition);
    if (conditions.every((c) => c.ok)) redirectRules.push({ longUrl: rule.url, priority: i + 1, conditions: conditions.map((c) => (c as { value: ShlinkRedirectRule["conditions"][number] }).value) });
  });
  return { defaultLongUrl: link.url, redirectRules };
}

/** Why Shlink's clients may not set this link's rules (they could not show what it does); none: they may. */
export function readOnlyReasons(link: Link): string[] {
  const reasons: string[] = [];
  if (link.variants !== null) reasons.push("it splits its visitors between variants (A/B)");
  if (link.passwordHash !== null) reasons.push("it has a password");
  if (link.redirectType !== DEFAULT_REDIRECT_TYPE) reasons.push(`it answers with a ${link.redirectType} redirect of its own`);
  if (link.fallbackUrl !== null) reasons.push("it has a fallback URL");
  (link.rules ?? []).forEach((rule, i) => {
    if (rule.variants !== undefined) reasons.push(`its rule ${i + 1} splits between variants`);
    for (const c of rule.conditions) {
      const mapped = shlinkCondition(c);
      if (!mapped.ok) reasons.push(`its rule ${i + 1} has ${mapped.why}`);
    }
  });
  return reasons;
}

/** A Shlink rules body as our rules (each checked by the change itself), or the refusal naming what cannot be. */
export function ourRules(body: Record<string, unknown>): Rule[] | null {
  const raw = body.redirectRules;
  if (!Array.isArray(raw)) throw invalidData("redirectRules must be an array of rules, each with longUrl and conditions", FIELD);
  if (raw.length > MAX_RULES) throw invalidData(`at most ${MAX_RULES} redirect rules (${raw.length} given)`, FIELD);
  const rules = raw.map((r: unknown, i): Rule => {
    const at = `rule ${i + 1}`;
    if (typeof r !== "object" || r === null || Array.isArray(r)) throw invalidData(`${at}: a rule is an object with longUrl and conditions`, FIELD);
    const { longUrl, conditions } = r as Record<string, unknown>;
    if (typeof longUrl !== "string" || longUrl.trim() === "") throw invalidData(`${at}: longUrl is missing`, FIELD);
    if (!Array.isArray(conditions) || conditions.length === 0 || conditions.length > MAX_CONDITIONS) {
      throw invalidData(`${at}: a rule needs 1 to ${MAX_CONDITIONS} conditions here (a rule for every visitor is the default long URL)`, FIELD);
    }
    const ours = conditions.map((c: unknown, j): Condition => {
      const mapped = ourCondition(c, `${at}, condition ${j + 1}`);
      if (!mapped.ok) throw invalidData(mapped.why, FIELD);
      return mapped.value;
    });
    return { conditions: ours, url: longUrl };
  });
  return rules.length === 0 ? null : rules;
}

async function listRules(call: ShlinkCall): Promise<Response> {
  const found = await namedLink(call);
  if (found instanceof Response) return found;
  return shlinkJson(200, rulesList(found.link));
}

async function setRules(call: ShlinkCall): Promise<Response> {
  const found = await namedLink(call);
  if (found instanceof Response) return found;
  const reasons = readOnlyReasons(found.link);
  if (reasons.length > 0) {
    throw invalidData(`Shlink's clients cannot show all this link does, so its redirect rules are read-only here: ${reasons.join("; ")}. Change them in the dashboard.`, FIELD);
  }
  const rules = ourRules(await call.body());
  const { request, server, deps } = call;
  const ownHosts = ownHostsOf(deps, publicBase(deps.config, server, request, deps.trusted)!, request, server);
  // Conditions are stored in our JSON form; the change checks them and each URL as a PATCH of our API does.
  const changed = await changeLink(call.principal!, { id: found.key, changes: { rules }, ownHosts }, deps);
  if (!changed.ok) return refusal(changed.problem, found.ids);
  return shlinkJson(200, rulesList(changed.value));
}

/** The redirect-rules routes (SDK getShortUrlRedirectRules / setShortUrlRedirectRules; Shlink also takes PATCH). */
export const RULE_ROUTES: readonly ShlinkRoute[] = [
  { method: "GET", path: "/short-urls/:shortCode/redirect-rules", auth: "key", handle: listRules },
  { method: "POST", path: "/short-urls/:shortCode/redirect-rules", auth: "key", handle: setRules },
  { method: "PATCH", path: "/short-urls/:shortCode/redirect-rules", auth: "key", handle: setRules },
];
