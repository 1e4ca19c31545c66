// The record a link is exported as and imported from (docs/managing-links.md: Managing links). Its first five
// columns are what an import reads, so an export can be imported elsewhere as it is.

import { statusNow, type Link } from "./link.ts";
import { isoTime } from "../util/day.ts";
import type { TransferRecord } from "../api/types.ts";

export const IMPORT_COLUMNS = ["url", "custom_url", "expires_at", "max_clicks", "tags"] as const;
/** What a link does beyond its URL (behaviour.ts): exported after the counts, and read back by an import. */
export const BEHAVIOUR_COLUMNS = ["rules", "variants", "password_hash", "redirect_type", "valid_from", "fallback_url", "crawlable"] as const;
/** A link's preview card (docs/sharing.md: Preview cards): exported last, and read back by an import. */
export const CARD_COLUMNS = ["card_title", "card_description", "card_image"] as const;
/**
 * `domain`, then `title`, then the card, last: a file written before there were domains, titles or
 * cards reads the same, and one written now by column name (docs/api.md: Links on several domains).
 * iosUrl/androidUrl have no column: they are rules, and travel in `rules`.
 */
export const EXPORT_COLUMNS = [...IMPORT_COLUMNS, "disabled", "status", "created_at", "total_clicks", "human_clicks", "last_click_at", ...BEHAVIOUR_COLUMNS, "domain", "title", ...CARD_COLUMNS] as const;

export type { TransferRecord } from "../api/types.ts";

/** `domain`: the link's domain's name (null: the default of an instance that knows no name). */
export function transferRecord(link: Link, domain: string | null, now: number, answered: number | undefined): TransferRecord {
  return {
    url: link.url,
    custom_url: link.id,
    expires_at: isoTime(link.expiresAt),
    max_clicks: link.maxClicks,
    tags: link.tags,
    disabled: link.disabled,
    status: statusNow(link, answered, now),
    created_at: isoTime(link.createdAt)!,
    total_clicks: link.totalClicks,
    human_clicks: link.humanClicks,
    last_click_at: isoTime(link.lastClickAt),
    rules: link.rules,
    variants: link.variants,
    password_hash: link.passwordHash,
    redirect_type: link.redirectType,
    valid_from: isoTime(link.validFrom),
    fallback_url: link.fallbackUrl,
    crawlable: link.crawlable,
    domain,
    title: link.title,
    card_title: link.cardTitle,
    card_description: link.cardDescription,
    card_image: link.cardImage,
  };
}

/** The record's values in EXPORT_COLUMNS order, as CSV text wants them. */
export function csvValues(r: TransferRecord): (string | number | null)[] {
  return [
    r.url, r.custom_url, r.expires_at, r.max_clicks, r.tags.join(","), r.disabled ? "true" : "false", r.status, r.created_at, r.total_clicks, r.human_clicks, r.last_click_at,
    r.rules === null ? null : JSON.stringify(r.rules), r.variants === null ? null : JSON.stringify(r.variants), r.password_hash, r.redirect_type, r.valid_from,
    r.fallback_url, r.crawlable ? "true" : "false", r.domain, r.title, r.card_title, r.card_description, r.card_image,
  ];
}
