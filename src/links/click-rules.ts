// What a click on a link gets, decided from what the click path keeps in memory: the target,
// why the link answers 410, or (for a link with a click limit) the count the limit is checked
// against. Shared by both engines' link stores.

import type { GoneReason, Link } from "./link.ts";
import type { Destination } from "./destination.ts";

/**
 * What a click needs to know. `rules` is null for a link without limits or state, which is nearly
 * every link: the click path then does nothing but answer. `compiled`: the destination worked out
 * for the Location, on the first click that needs it (destination.ts).
 */
export type Target = { url: string; rules: ClickRules | null; compiled?: Destination };
export type ClickRules = {
  /** set when the link answers 410 whatever the time: disabled, blocked or deleted */
  gone: GoneReason | null;
  expiresAt: number | null;
  maxClicks: number | null;
  /** clicks recorded when this entry was read (the click budget counts on from there) */
  clicks: number;
};

/** A click's verdict: the target to redirect to, or why the link answers 410. */
export type Admission = Target | { gone: GoneReason };

export const DELETED: Target = { url: "", rules: { gone: "deleted", expiresAt: null, maxClicks: null, clicks: 0 } };
export const GONE: Record<GoneReason, { gone: GoneReason }> = {
  disabled: { gone: "disabled" },
  expired: { gone: "expired" },
  blocked: { gone: "blocked" },
  deleted: { gone: "deleted" },
};

/**
 * The verdict that needs no click count: the target of a link without limits or state, or the
 * 410 of a link gone or past its expiry; null when its click limit decides.
 */
export function verdictBeforeBudget(target: Target, now: number): Admission | null {
  const rules = target.rules;
  if (rules === null) return target;
  if (rules.gone !== null) return GONE[rules.gone];
  if (rules.expiresAt !== null && now >= rules.expiresAt) return GONE.expired;
  return rules.maxClicks === null ? target : null;
}

/** The stored facts the rules read, as both engines' rows have them (flags 0/1, ms times). */
export type RuleFacts = { expires_at: number | null; max_clicks: number | null; disabled: number; blocked: number; total_clicks: number };

/** A cache miss's row: the link's facts and destination (url null: no such link), and whether its id was retired. */
export type TargetRow = Omit<RuleFacts, "total_clicks"> & { url: string | null; total_clicks: number | null; retired: boolean };

/** What the click path keeps for a link read from the database: its target, DELETED, or null (no such link). */
export function targetOfRow(row: TargetRow): Target | null {
  if (row.url !== null) return { url: row.url, rules: clickRules({ ...row, total_clicks: row.total_clicks ?? 0 }) };
  return row.retired ? DELETED : null;
}

export function rowFacts(link: Link): Omit<RuleFacts, "total_clicks"> {
  return { expires_at: link.expiresAt, max_clicks: link.maxClicks, disabled: link.disabled ? 1 : 0, blocked: link.blocked ? 1 : 0 };
}

export function clickRules(row: RuleFacts): ClickRules | null {
  if (row.blocked === 0 && row.disabled === 0 && row.expires_at === null && row.max_clicks === null) return null;
  return {
    gone: row.blocked === 1 ? "blocked" : row.disabled === 1 ? "disabled" : null,
    expiresAt: row.expires_at,
    maxClicks: row.max_clicks,
    clicks: row.total_clicks,
  };
}

