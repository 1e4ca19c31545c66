// What a click on a link gets, decided from what the click path keeps in memory: the target,
// why the link answers 410, or (for a link with a click limit) the count the limit is checked
// against. Shared by both engines' link stores.

import type { GoneReason, Link } from "./link.ts";
import { compileDestination, type Destination } from "./destination.ts";
import { compileRoute, type LinkRoute } from "./router.ts";
import type { Behaviour, RedirectType } from "./behaviour.ts";
import type { Rule, Variant } from "./rules.ts";
import { cardOf, type Card, type CardColumns } from "./card.ts";

/**
 * What a click needs to know. `rules` is null for a link without limits or state, and `route` for
 * one without redirect rules, split, password or redirect code of its own: nearly every link, whose
 * clicks then do nothing but answer. `card`: the preview card its owner set (card.ts), null for
 * nearly every link, which then pays nothing for cards. `compiled`: the destination worked out for
 * the Location, on the first click that needs it (destination.ts).
 */
export type Target = { seq: number; url: string; rules: ClickRules | null; route: LinkRoute | null; card: Card | null; compiled?: Destination };
export type ClickRules = {
  /** set when the link answers 410 whatever the time: disabled, blocked or deleted */
  gone: Gone | null;
  expiresAt: number | null;
  maxClicks: number | null;
  /** clicks recorded when this entry was read (the click budget counts on from there) */
  clicks: number;
  /** before this instant (ms) the link answers like an unknown id */
  validFrom: number | null;
  /** the verdict once expired or past the click limit: the 410, or the fallback */
  expired: Gone;
};

/**
 * Why a link answers 410, and where it sends visitors instead when its owner gave a fallback URL;
 * `passwordHash`: a protected link's fallback is behind its password, as its destination is.
 */
export type Gone = { gone: GoneReason; fallback?: string; passwordHash?: string; seq?: number };

/** A click's verdict: the target to redirect to, or why the link answers 410. */
export type Admission = Target | Gone;

const GONE: Record<GoneReason, Gone> = {
  disabled: { gone: "disabled" },
  expired: { gone: "expired" },
  blocked: { gone: "blocked" },
  deleted: { gone: "deleted" },
};
export const DELETED: Target = { seq: 0, url: "", route: null, card: null, rules: { gone: GONE.deleted, expiresAt: null, maxClicks: null, clicks: 0, validFrom: null, expired: GONE.expired } };

/**
 * The verdict that needs no click count: the target of a link without limits or state, the 410
 * (or fallback) of a link gone or past its expiry, or null for one not valid yet (an unknown id);
 * undefined when its click limit decides.
 */
export function verdictBeforeBudget(target: Target, now: number): Admission | null | undefined {
  const rules = target.rules;
  if (rules === null) return target;
  if (rules.gone !== null) return rules.gone;
  if (rules.validFrom !== null && now < rules.validFrom) return null;
  if (rules.expiresAt !== null && now >= rules.expiresAt) return rules.expired;
  return rules.maxClicks === null ? target : undefined;
}

/** The stored facts the rules read, as both engines' rows have them (flags 0/1, ms times, JSON text). */
type RuleFacts = {
  expires_at: number | null; max_clicks: number | null; disabled: number; blocked: number; total_clicks: number;
  valid_from: number | null; fallback_url: string | null; password_hash: string | null;
};
/** The stored behaviour columns the route is compiled from (rules and variants as JSON text). */
export type RouteFacts = { rules: string | null; variants: string | null; password_hash: string | null; redirect_type: number };

/** A cache miss's row: the link's facts and destination (url null: no such link), and whether its id was retired. */
export type TargetRow = Omit<RuleFacts, "total_clicks" | "password_hash"> & RouteFacts & Omit<CardColumns, "password_hash"> & { seq: number | null; url: string | null; total_clicks: number | null; retired: boolean };

/** What the click path keeps for a link read from the database: its target, DELETED, or null (no such link). */
export function targetOfRow(row: TargetRow): Target | null {
  if (row.url !== null) {
    const route = compileRoute(row.url, { ...behaviourOfRow(row), fallbackUrl: row.fallback_url });
    const target: Target = { seq: row.seq!, url: row.url, rules: clickRules({ ...row, total_clicks: row.total_clicks ?? 0 }, row.seq!), route, card: cardOf(row) };
    return withAppFallback(target, row.fallback_url);
  }
  return row.retired ? DELETED : null;
}

/** The click path's entry for a link just written (no need to read it back). */
export function targetOfLink(link: Link): Target {
  const card = cardOf({ card_title: link.cardTitle, card_description: link.cardDescription, card_image: link.cardImage, title: link.title, password_hash: link.passwordHash });
  return withAppFallback({ seq: link.seq, url: link.url, rules: clickRules({ ...rowFacts(link), total_clicks: link.totalClicks }, link.seq), route: compileRoute(link.url, link), card }, link.fallbackUrl);
}

/**
 * A link into an app with a fallback URL: its destination compiled now, with the fallback the
 * open-app page offers (docs/sharing.md: Links into apps); any other link compiles on its first click.
 */
function withAppFallback(target: Target, fallbackUrl: string | null): Target {
  if (fallbackUrl === null || /^https?:/i.test(target.url)) return target;
  target.compiled = compileDestination(target.url, fallbackUrl);
  return target;
}

function rowFacts(link: Link): Omit<RuleFacts, "total_clicks"> {
  return {
    expires_at: link.expiresAt, max_clicks: link.maxClicks, disabled: link.disabled ? 1 : 0, blocked: link.blocked ? 1 : 0,
    valid_from: link.validFrom, fallback_url: link.fallbackUrl, password_hash: link.passwordHash,
  };
}

/** The behaviour as the route needs it, from its stored columns. */
export function behaviourOfRow(row: RouteFacts): Pick<Behaviour, "rules" | "variants" | "passwordHash" | "redirectType"> {
  return { ...routingOfRow(row), passwordHash: row.password_hash, redirectType: row.redirect_type as RedirectType };
}

/** Rules and variants from their stored JSON columns (null: none). */
export function routingOfRow(row: Pick<RouteFacts, "rules" | "variants">): Pick<Behaviour, "rules" | "variants"> {
  return {
    rules: row.rules === null ? null : (JSON.parse(row.rules) as Rule[]),
    variants: row.variants === null ? null : (JSON.parse(row.variants) as Variant[]),
  };
}

/** `seq`: the link's, kept with a fallback (the visitors it takes are recorded as the link's). */
function clickRules(row: RuleFacts, seq: number): ClickRules | null {
  if (row.blocked === 0 && row.disabled === 0 && row.expires_at === null && row.max_clicks === null && row.valid_from === null) return null;
  // A blocked link never falls back: its owner's fallback could lead where the blocklist refuses.
  const fallback = row.fallback_url;
  const locked = row.password_hash === null ? {} : { passwordHash: row.password_hash };
  const gone = (reason: GoneReason): Gone => (fallback === null || reason === "blocked" ? GONE[reason] : { gone: reason, fallback, seq, ...locked });
  return {
    gone: row.blocked === 1 ? gone("blocked") : row.disabled === 1 ? gone("disabled") : null,
    expiresAt: row.expires_at,
    maxClicks: row.max_clicks,
    clicks: row.total_clicks,
    validFrom: row.valid_from,
    expired: gone("expired"),
  };
}

