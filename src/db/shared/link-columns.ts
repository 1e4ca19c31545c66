// Which links columns a change (PATCH) sets, for both engines' update statements.

import type { LinkChanges } from "../../links/store.ts";
import { jsonColumn } from "./link-rows.ts";

export type ColumnValue = string | number | null;

/**
 * The columns and values a change sets, in a fixed order; tags are rows of link_tags, not a
 * column. A new destination also clears `blocked`: it passed the blocklist to get here
 * (src/links/changes.ts).
 */
export function changedColumns(changes: LinkChanges): [column: string, value: ColumnValue][] {
  const out: [string, ColumnValue][] = [];
  if (changes.url !== undefined) out.push(["url", changes.url], ["blocked", 0]);
  if (changes.expiresAt !== undefined) out.push(["expires_at", changes.expiresAt]);
  if (changes.maxClicks !== undefined) out.push(["max_clicks", changes.maxClicks]);
  if (changes.disabled !== undefined) out.push(["disabled", changes.disabled ? 1 : 0]);
  if (changes.rules !== undefined) out.push(["rules", jsonColumn(changes.rules)]);
  if (changes.variants !== undefined) out.push(["variants", jsonColumn(changes.variants)]);
  if (changes.passwordHash !== undefined) out.push(["password_hash", changes.passwordHash]);
  if (changes.redirectType !== undefined) out.push(["redirect_type", changes.redirectType]);
  if (changes.validFrom !== undefined) out.push(["valid_from", changes.validFrom]);
  if (changes.fallbackUrl !== undefined) out.push(["fallback_url", changes.fallbackUrl]);
  if (changes.crawlable !== undefined) out.push(["crawlable", changes.crawlable ? 1 : 0]);
  if (changes.title !== undefined) out.push(["title", changes.title]);
  if (changes.cardTitle !== undefined) out.push(["card_title", changes.cardTitle]);
  if (changes.cardDescription !== undefined) out.push(["card_description", changes.cardDescription]);
  if (changes.cardImage !== undefined) out.push(["card_image", changes.cardImage]);
  return out;
}
