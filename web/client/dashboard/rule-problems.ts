// Where a problem with rules or a split lies, so the editor can show it beside the rule, condition
// or variant at fault. The server names the place at the start of its text, 1-based, as the stats
// name rules ("rule 2, condition 1: …", "rule 3, variants, variant 2: …", "variants, variant 1: …";
// src/links/rules.ts); the dialog's own checks give the place directly.
import { t } from "../common.ts";
import { messageFor, type ApiProblem } from "../form-errors.ts";

/** A problem placed in the editor: which rule (none: the link's own split), condition or variant. */
export type PlacedProblem = { rule?: number; condition?: number; variant?: number; text: string };

/** The place named in a server problem of the rules or variants field, and its text for people. */
export function placeOf(problem: ApiProblem): PlacedProblem {
  const text = problem.error ?? "";
  // The place ends at the first ": " ("rule 3, variants must be …" has none: only the rule is known).
  const cut = text.indexOf(": ");
  const head = cut === -1 ? (/^rule \d+/.exec(text)?.[0] ?? "") : text.slice(0, cut);
  const detail = cut === -1 ? text.replace(/^rule \d+, /, "") : text.slice(cut + 2);
  const num = (re: RegExp) => {
    const m = re.exec(head);
    return m ? Number(m[1]) : undefined;
  };
  const place = { rule: num(/^rule (\d+)/), condition: num(/\bcondition (\d+)/), variant: num(/\bvariant (\d+)/) };
  // A URL's problem has its own translated message; the rule checks' details exist in English
  // only (the server has one code, rules_invalid, for all of them), so those are shown as sent.
  const generic = problem.code === "rules_invalid" || problem.code === "variants_invalid";
  return { ...place, text: withPlace(place, generic && detail ? detail : messageFor(problem.code, detail)) };
}

/** "Rule 2, condition 1: detail", in the page language; the detail alone when no place is known. */
export function withPlace(place: Omit<PlacedProblem, "text">, detail: string): string {
  const { rule, condition, variant } = place;
  let where = "";
  if (rule !== undefined && condition !== undefined) where = t("problem_condition", { rule, condition });
  else if (rule !== undefined && variant !== undefined) where = t("problem_rule_variant", { rule, variant });
  else if (rule !== undefined) where = t("problem_rule", { rule });
  else if (variant !== undefined) where = t("problem_variant", { variant });
  return where ? `${where}: ${detail}` : detail;
}
