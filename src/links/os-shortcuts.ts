// iosUrl and androidUrl (docs/managing-links.md: Links into apps on phones): shortcuts over redirect
// rules, as Dub's per-link iOS and Android destinations, with no column of their own. A shortcut is
// a rule whose only condition is the system's; writing one puts it first among the rules (so it
// wins over the owner's other rules for that system), null or "" removes it, and a link's JSON
// shows the URL of such a rule. Rules travel everywhere already (both engines, export, Shlink's
// rule map), so the shortcuts do too.

import { MAX_RULES, type Rule, type UrlChecker } from "./rules.ts";
import type { ErrorField, FieldProblem } from "../errors.ts";

export const SHORTCUT_SYSTEMS = ["ios", "android"] as const;
export type ShortcutSystem = (typeof SHORTCUT_SYSTEMS)[number];

/** What a request says of each shortcut: a URL to set, null to remove it; absent keys leave it as it is. */
export type Shortcuts = Partial<Record<ShortcutSystem, string | null>>;
export type ShortcutNames = Record<ShortcutSystem, ErrorField>;
export const SNAKE_SHORTCUT_NAMES: ShortcutNames = { ios: "ios_url", android: "android_url" };
export const CAMEL_SHORTCUT_NAMES: ShortcutNames = { ios: "iosUrl", android: "androidUrl" };

/** True for a rule that is `system`'s shortcut: its only condition is that system, its destination one URL. */
function isShortcut(rule: Rule, system: ShortcutSystem): boolean {
  const [only] = rule.conditions;
  return rule.conditions.length === 1 && only!.type === "os" && only!.value === system && rule.url !== undefined;
}

/** The URL of `system`'s shortcut among the rules, or null (what a link's JSON shows as iosUrl/androidUrl). */
export function shortcutUrl(rules: readonly Rule[] | null, system: ShortcutSystem): string | null {
  return rules?.find((r) => isShortcut(r, system))?.url ?? null;
}

/** The shortcuts a record names, each URL checked as a rule's is (`checkUrl`); null or "" means remove. */
export function parseShortcuts(record: Record<string, unknown>, names: ShortcutNames, checkUrl: UrlChecker, problems: FieldProblem[]): Shortcuts {
  const out: Shortcuts = {};
  for (const system of SHORTCUT_SYSTEMS) {
    const raw = record[names[system]];
    if (raw === undefined) continue;
    if (raw === null || (typeof raw === "string" && raw.trim() === "")) out[system] = null;
    else {
      const url = checkUrl(raw);
      if (url.ok) out[system] = url.url;
      else problems.push({ code: url.code, field: names[system], error: `${names[system]}: ${url.error}` });
    }
  }
  return out;
}

/** True when the request names a shortcut (then the link's rules are rewritten). */
export function namesShortcut(shortcuts: Shortcuts): boolean {
  return SHORTCUT_SYSTEMS.some((s) => shortcuts[s] !== undefined);
}

/**
 * `rules` with the shortcuts applied: each named system's shortcut removed, then the ones with a
 * URL put first (iOS before Android: they never both match). More than MAX_RULES is refused naming
 * the shortcut that overflowed. null when no rule is left, as a link without rules stores it.
 */
export function withShortcuts(rules: readonly Rule[] | null, shortcuts: Shortcuts, names: ShortcutNames, problems: FieldProblem[]): Rule[] | null {
  let kept = [...(rules ?? [])];
  const first: Rule[] = [];
  for (const system of SHORTCUT_SYSTEMS) {
    const url = shortcuts[system];
    if (url === undefined) continue;
    kept = kept.filter((r) => !isShortcut(r, system));
    if (url !== null) first.push({ conditions: [{ type: "os", value: system }], url });
  }
  const all = [...first, ...kept];
  if (all.length > MAX_RULES) {
    const field = names[SHORTCUT_SYSTEMS.findLast((s) => typeof shortcuts[s] === "string")!];
    problems.push({ code: "rules_invalid", field, error: `${field} would make ${all.length} rules: a link has at most ${MAX_RULES}; remove a rule first` });
    return rules === null ? null : [...rules];
  }
  return all.length === 0 ? null : all;
}
